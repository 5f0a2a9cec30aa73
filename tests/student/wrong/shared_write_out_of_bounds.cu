// A student's tile load that shifts every store one slot to the right: the last thread of
// each row writes past the end of its row of Mds.
// run: --width 4 --tile 4
// expect: thread (tx=3, ty=0) of block (0, 0) accessed Mds[0][4] at line 11, outside its 4x4 elements
#define TILE_WIDTH 4

__global__ void shifted(const float* M, const float* N, float* P, int j, int k, int l)
{
    __shared__ float Mds[TILE_WIDTH][TILE_WIDTH];
    int tx = threadIdx.x, ty = threadIdx.y;
    Mds[ty][tx + 1] = M[ty * k + tx];
    __syncthreads();
    P[ty * l + tx] = Mds[ty][tx] * N[ty * l + tx];
}
// How tilescope-cli grade judges it (tests/student/grade_test.cpp):
// grade: tiled-matmul-boundary
// grade-line: 11
