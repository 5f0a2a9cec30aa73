// A student's kernel that puts __syncthreads() inside a branch only half of the block takes:
// the other half never arrives, which CUDA leaves undefined (PMPP sec. 4.3).
// run: --width 4 --tile 4
// expect: 8 of 16 threads wait at the barrier on line 12 while the others have finished
#define TILE_WIDTH 4

__global__ void divergent(const float* M, const float* N, float* P, int j, int k, int l)
{
    __shared__ float Mds[TILE_WIDTH][TILE_WIDTH];
    int tx = threadIdx.x, ty = threadIdx.y;
    Mds[ty][tx] = M[ty * k + tx];
    if (tx < 2) __syncthreads();
    P[ty * l + tx] = Mds[tx][ty];
}
// How tilescope-cli grade judges it (tests/student/grade_test.cpp):
// grade: tiled-matmul-boundary
// grade-line: 12
