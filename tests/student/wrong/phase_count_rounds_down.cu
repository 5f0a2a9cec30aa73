// A student's tiled matrix multiplication whose phase count rounds down, k / TILE_WIDTH:
// when k is not a multiple of the tile the last partial phase is never run and every sum
// misses its last terms. The cause is the loop's bound, and the grader names that line.
// run: --width 8 --tile 4
// expect: P vs reference  bit-identical
#define TILE_WIDTH 4

__global__ void matmulTiled(const float* M, const float* N, float* P, int j, int k, int l)
{
    __shared__ float Mds[TILE_WIDTH][TILE_WIDTH];
    __shared__ float Nds[TILE_WIDTH][TILE_WIDTH];

    int bx = blockIdx.x;  int by = blockIdx.y;
    int tx = threadIdx.x; int ty = threadIdx.y;
    int Row = by * TILE_WIDTH + ty;
    int Col = bx * TILE_WIDTH + tx;
    float Pvalue = 0;

    for (int ph = 0; ph < k / TILE_WIDTH; ++ph) {
        if (Row < j && ph*TILE_WIDTH + tx < k)
            Mds[ty][tx] = M[Row*k + ph*TILE_WIDTH + tx];
        else
            Mds[ty][tx] = 0;
        if (ph*TILE_WIDTH + ty < k && Col < l)
            Nds[ty][tx] = N[(ph*TILE_WIDTH + ty)*l + Col];
        else
            Nds[ty][tx] = 0;

        __syncthreads();
        if (Row < j && Col < l)
            for (int i = 0; i < TILE_WIDTH; ++i)
                Pvalue += Mds[ty][i] * Nds[i][tx];
        __syncthreads();
    }
    if (Row < j && Col < l)
        P[Row*l + Col] = Pvalue;
}
// How tilescope-cli grade judges it (tests/student/grade_test.cpp):
// grade: tiled-matmul-boundary
// grade-expect: the loop on line 19 stopped early, it summed 16 terms where the reference sums 17
// grade-line: 19
