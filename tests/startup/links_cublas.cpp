// A program that links cuBLAS the ordinary way: the fixture that shows check_needed.cmake
// can fail (tests/startup/CMakeLists.txt).
#include <cublas_v2.h>

#include <cstdio>

int main() { std::puts(cublasGetStatusString(CUBLAS_STATUS_SUCCESS)); }
