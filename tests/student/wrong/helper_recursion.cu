// A student's kernel whose __device__ helper sums a row by calling itself: recursion is
// outside what TileScope simulates (and costly on a GPU), so the file is refused at the call.
// run: --width 4 --tile 4
// expect: helper_recursion.cu:7:68: error: __device__ function rowSum calls itself: recursion is not supported
__device__ float rowSum(const float* M, const float* N, int Row, int Col, int k, int Width)
{
    return k == Width ? 0.0f : M[Row*Width + k]*N[k*Width + Col] + rowSum(M, N, Row, Col, k + 1, Width);
}

__global__ void recursiveMatmul(const float* M, const float* N, float* P, int Width)
{
    int Row = blockIdx.y*blockDim.y + threadIdx.y;
    int Col = blockIdx.x*blockDim.x + threadIdx.x;
    if (Row < Width && Col < Width) P[Row*Width + Col] = rowSum(M, N, Row, Col, 0, Width);
}
// How tilescope-cli grade judges it (tests/student/grade_test.cpp):
// grade: tiled-matmul-boundary
// grade-line: 7
