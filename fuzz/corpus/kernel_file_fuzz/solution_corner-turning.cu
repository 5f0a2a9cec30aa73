// Reference solution of assets/exercises/corner-turning (PMPP sec. 6.1): N column-major,
// its tile loaded down the columns (coalesced) and stored turned, Nds[tx][ty].
#define TILE_WIDTH 16

__global__ void matmulCornerTurning(const float* M, const float* N, float* P, int j, int k, int l)
{
    __shared__ float Mds[TILE_WIDTH][TILE_WIDTH];
    __shared__ float Nds[TILE_WIDTH][TILE_WIDTH];

    int bx = blockIdx.x; int by = blockIdx.y;
    int tx = threadIdx.x; int ty = threadIdx.y;
    int Row = by * TILE_WIDTH + ty;
    int Col = bx * TILE_WIDTH + tx;
    float Pvalue = 0;

    for (int ph = 0; ph < (k + TILE_WIDTH - 1) / TILE_WIDTH; ++ph) {
        if (Row < j && ph * TILE_WIDTH + tx < k)
            Mds[ty][tx] = M[Row * k + ph * TILE_WIDTH + tx];
        else
            Mds[ty][tx] = 0;
        int nRow = ph * TILE_WIDTH + tx;
        int nCol = bx * TILE_WIDTH + ty;
        if (nRow < k && nCol < l)
            Nds[tx][ty] = N[nCol * k + nRow];
        else
            Nds[tx][ty] = 0;
        __syncthreads();
        for (int i = 0; i < TILE_WIDTH; ++i)
            Pvalue += Mds[ty][i] * Nds[i][tx];
        __syncthreads();
    }
    if (Row < j && Col < l)
        P[Row * l + Col] = Pvalue;
}
