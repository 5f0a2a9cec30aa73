// A student's naive matrix multiplication that adds its products into a __shared__ sum with
// atomicAdd, which TileScope does not simulate yet: the file is refused with the call's line.
// run: --width 8 --tile 4
// expect: atomic_sum.cu:11:13: error: atomicAdd here takes an element of a global float array
__global__ void matmulAtomic(const float* M, const float* N, float* P, int Width)
{
    __shared__ float Psum[4][4];
    int Row = blockIdx.y * blockDim.y + threadIdx.y;
    int Col = blockIdx.x * blockDim.x + threadIdx.x;
    for (int k = 0; k < Width; ++k)
            atomicAdd(&Psum[threadIdx.y][threadIdx.x], M[Row * Width + k] * N[k * Width + Col]);
    P[Row * Width + Col] = Psum[threadIdx.y][threadIdx.x];
}
// How tilescope-cli grade judges it (tests/student/grade_test.cpp):
// grade: tiled-matmul-boundary
// grade-line: 11
