// cuBLAS SGEMM in pure FP32 for row-major matrices (see cublas_reference.hpp).
#include "cublas_reference.hpp"

#include <string>

#include "gpu.hpp"

namespace ts::gpu::detail {
namespace {
void checkBlas(cublasStatus_t s, const char* what)
{
    if (s == CUBLAS_STATUS_SUCCESS) return;
    throw LaunchError(std::string(what) + " failed: " + cublasGetStatusString(s) + ".");
}
}  // namespace

CublasSgemm::CublasSgemm()
{
    checkBlas(cublasCreate(&handle_), "creating a cuBLAS handle");
    // Pedantic math: FP32 inputs, FP32 products and sums, no TF32 tensor-core shortcut.
    checkBlas(cublasSetMathMode(handle_, CUBLAS_PEDANTIC_MATH), "setting cuBLAS to pure FP32");
}

CublasSgemm::~CublasSgemm() { cublasDestroy(handle_); }

void CublasSgemm::run(const float* M, const float* N, float* P, int j, int k, int l)
{
    // cuBLAS is column-major. A row-major matrix read column-major is its transpose, so
    // P^T (l x j) = N^T (l x k) * M^T (k x j) computes row-major P = M * N with no copies.
    const float alpha = 1.0f, beta = 0.0f;
    checkBlas(cublasSgemm(handle_, CUBLAS_OP_N, CUBLAS_OP_N, l, j, k, &alpha, N, l, M, k, &beta, P, l),
              "cublasSgemm");
}

}  // namespace ts::gpu::detail
