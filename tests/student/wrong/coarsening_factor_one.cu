// A student's thread coarsening (PMPP sec. 6.3) with COARSE_FACTOR left at 1: P is right,
// but each thread still computes a single element, so nothing was coarsened.
// tilescope: block = TILE_WIDTH, TILE_WIDTH
// tilescope: grid = (l + TILE_WIDTH*COARSE_FACTOR - 1)/(TILE_WIDTH*COARSE_FACTOR), (j + TILE_WIDTH - 1)/TILE_WIDTH
// run: --j 33 --k 17 --l 45 --tile 16
// expect: P vs reference  bit-identical
// grade: thread-coarsening
// grade-expect: your threads compute 1.00 elements of P each on average
// grade-line: 36
#define TILE_WIDTH 16
#define COARSE_FACTOR 1

__global__ void notCoarsened(const float* M, const float* N, float* P, int j, int k, int l)
{
    __shared__ float Mds[TILE_WIDTH][TILE_WIDTH];
    __shared__ float Nds[TILE_WIDTH][TILE_WIDTH];
    int tx = threadIdx.x; int ty = threadIdx.y;
    int Row = blockIdx.y * TILE_WIDTH + ty;
    int colStart = blockIdx.x * TILE_WIDTH * COARSE_FACTOR + tx;
    float Pvalue[COARSE_FACTOR];
    for (int c = 0; c < COARSE_FACTOR; ++c) Pvalue[c] = 0;
    for (int ph = 0; ph < (k + TILE_WIDTH - 1) / TILE_WIDTH; ++ph) {
        Mds[ty][tx] = (Row < j && ph * TILE_WIDTH + tx < k) ? M[Row * k + ph * TILE_WIDTH + tx] : 0.0f;
        for (int c = 0; c < COARSE_FACTOR; ++c) {
            int Col = colStart + c * TILE_WIDTH;
            Nds[ty][tx] = (ph * TILE_WIDTH + ty < k && Col < l) ? N[(ph * TILE_WIDTH + ty) * l + Col] : 0.0f;
            __syncthreads();
            for (int i = 0; i < TILE_WIDTH; ++i)
                Pvalue[c] += Mds[ty][i] * Nds[i][tx];
            __syncthreads();
        }
    }
    for (int c = 0; c < COARSE_FACTOR; ++c) {
        int Col = colStart + c * TILE_WIDTH;
        if (Row < j && Col < l)
            P[Row * l + Col] = Pvalue[c];
    }
}
