// Thread coarsening (PMPP sec. 6.3). The launch already gives each block COARSE_FACTOR
// tiles of P in a row; this kernel still computes only the first. Grade with
//   tilescope-cli grade --exercise thread-coarsening --kernel-file thread-coarsening.cu
#define TILE_WIDTH 16
#define COARSE_FACTOR 4

__global__ void matmulCoarsened(const float* M, const float* N, float* P, int j, int k, int l)
{
    __shared__ float Mds[TILE_WIDTH][TILE_WIDTH];
    __shared__ float Nds[TILE_WIDTH][TILE_WIDTH];

    int tx = threadIdx.x; int ty = threadIdx.y;
    int Row = blockIdx.y * TILE_WIDTH + ty;
    int colStart = blockIdx.x * TILE_WIDTH * COARSE_FACTOR + tx;
    // TODO: one Pvalue per coarsened element: float Pvalue[COARSE_FACTOR]
    float Pvalue = 0;

    for (int ph = 0; ph < (k + TILE_WIDTH - 1) / TILE_WIDTH; ++ph) {
        if (Row < j && ph * TILE_WIDTH + tx < k)
            Mds[ty][tx] = M[Row * k + ph * TILE_WIDTH + tx];
        else
            Mds[ty][tx] = 0;
        // TODO: a loop over the COARSE_FACTOR tiles of N, column colStart + c * TILE_WIDTH
        int Col = colStart;
        if (ph * TILE_WIDTH + ty < k && Col < l)
            Nds[ty][tx] = N[(ph * TILE_WIDTH + ty) * l + Col];
        else
            Nds[ty][tx] = 0;
        __syncthreads();
        for (int i = 0; i < TILE_WIDTH; ++i)
            Pvalue += Mds[ty][i] * Nds[i][tx];
        __syncthreads();
    }
    if (Row < j && colStart < l)
        P[Row * l + colStart] = Pvalue;
}
