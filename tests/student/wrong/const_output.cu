// A student's kernel that declares its output const: it could not store P.
// run: --width 4 --tile 4
// expect: const_output.cu:4: error: parameter P is the output P, so it cannot be const float*
__global__ void constOut(const float* M, const float* N, const float* P, int Width)
{
}
// How tilescope-cli grade judges it (tests/student/grade_test.cpp):
// grade: tiled-matmul-boundary
// grade-line: 4
