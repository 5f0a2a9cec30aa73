// A student's tiled matrix multiplication that stores the N tile as Nds[tx][ty] but reads
// it as Nds[i][tx]: the sum multiplies the wrong elements of N. The cause is the store into
// Nds, not the store of P, and the grader names it first.
// run: --width 8 --tile 4
// expect: P vs reference  DIFFERS
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

    for (int ph = 0; ph < (k - 1) / TILE_WIDTH + 1; ++ph) {
        if (Row < j && ph*TILE_WIDTH + tx < k)
            Mds[ty][tx] = M[Row*k + ph*TILE_WIDTH + tx];
        else
            Mds[ty][tx] = 0;
        if (ph*TILE_WIDTH + ty < k && Col < l)
            Nds[tx][ty] = N[(ph*TILE_WIDTH + ty)*l + Col];
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
// grade-expect: line 25 stored N[0][1] into Nds[1][0], which line 32 read for term 2 of the sum
// grade-line: 25
