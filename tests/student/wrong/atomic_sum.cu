// A student's naive matrix multiplication that adds its products into a local variable with
// atomicAdd: an atomic on a register means nothing (no other thread can reach it), and
// TileScope simulates atomics on global and __shared__ arrays only, so the file is refused
// with the call's line.
// run: --width 8 --tile 4
// expect: atomic_sum.cu:13:13: error: atomicAdd here takes an element of a global array
__global__ void matmulAtomic(const float* M, const float* N, float* P, int Width)
{
    float Psum = 0.0f;
    int Row = blockIdx.y * blockDim.y + threadIdx.y;
    int Col = blockIdx.x * blockDim.x + threadIdx.x;
    for (int k = 0; k < Width; ++k)
            atomicAdd(&Psum, M[Row * Width + k] * N[k * Width + Col]);
    P[Row * Width + Col] = Psum;
}
// How tilescope-cli grade judges it (tests/student/grade_test.cpp):
// grade: tiled-matmul-boundary
// grade-line: 13
