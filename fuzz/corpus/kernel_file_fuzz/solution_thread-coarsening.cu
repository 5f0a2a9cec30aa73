// Reference solution of assets/exercises/thread-coarsening (PMPP sec. 6.3, Fig. 6.13 with
// the boundary checks of sec. 5.5).
#define TILE_WIDTH 16
#define COARSE_FACTOR 4

__global__ void matmulCoarsened(const float* M, const float* N, float* P, int j, int k, int l)
{
    __shared__ float Mds[TILE_WIDTH][TILE_WIDTH];
    __shared__ float Nds[TILE_WIDTH][TILE_WIDTH];

    int tx = threadIdx.x; int ty = threadIdx.y;
    int Row = blockIdx.y * TILE_WIDTH + ty;
    int colStart = blockIdx.x * TILE_WIDTH * COARSE_FACTOR + tx;
    float Pvalue[COARSE_FACTOR];
    for (int c = 0; c < COARSE_FACTOR; ++c)
        Pvalue[c] = 0;

    for (int ph = 0; ph < (k + TILE_WIDTH - 1) / TILE_WIDTH; ++ph) {
        if (Row < j && ph * TILE_WIDTH + tx < k)
            Mds[ty][tx] = M[Row * k + ph * TILE_WIDTH + tx];
        else
            Mds[ty][tx] = 0;
        for (int c = 0; c < COARSE_FACTOR; ++c) {
            int Col = colStart + c * TILE_WIDTH;
            if (ph * TILE_WIDTH + ty < k && Col < l)
                Nds[ty][tx] = N[(ph * TILE_WIDTH + ty) * l + Col];
            else
                Nds[ty][tx] = 0;
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
