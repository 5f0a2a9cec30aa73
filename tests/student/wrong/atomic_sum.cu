// A student's naive matrix multiplication that adds into P with atomicAdd, which TileScope
// does not simulate: the file is refused with the line of the call.
// run: --width 8 --tile 4
// expect: atomic_sum.cu:11:13: error: atomicAdd is not supported
__global__ void matmulAtomic(const float* M, const float* N, float* P, int Width)
{
    int Row = blockIdx.y * blockDim.y + threadIdx.y;
    int Col = blockIdx.x * blockDim.x + threadIdx.x;
    if (Row < Width && Col < Width)
        for (int k = 0; k < Width; ++k)
            atomicAdd(&P[Row * Width + Col], M[Row * Width + k] * N[k * Width + Col]);
}
// How tilescope-cli grade judges it (tests/student/grade_test.cpp):
// grade: tiled-matmul-boundary
// grade-line: 11
