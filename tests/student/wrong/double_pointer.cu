// A student's kernel on double matrices: the simulator models float arrays, as PMPP's
// kernels use.
// run: --width 4 --tile 4
// expect: double_pointer.cu:5:40: error: parameter M points to const double: the simulator models arrays of float
__global__ void inDouble(const double* M, const double* N, double* P, int Width)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < Width * Width) P[i] = M[i] * N[i];
}
// How tilescope-cli grade judges it (tests/student/grade_test.cpp):
// grade: tiled-matmul-boundary
// grade-line: 5
