// matmul-tiled (PMPP Fig. 5.9 with the boundary checks of Fig. 5.13) as a student writes
// it for nvcc: M (j x k) times N (k x l), row-major. The same kernel as
// kernels/matmul_tiled.cuh, without the single-source prefixes.
#define TILE_WIDTH 16

__global__ void matmulTiled(const float* M, const float* N, float* P, int j, int k, int l)
{
    __shared__ float Mds[TILE_WIDTH][TILE_WIDTH];
    __shared__ float Nds[TILE_WIDTH][TILE_WIDTH];

    int bx = blockIdx.x;  int by = blockIdx.y;
    int tx = threadIdx.x; int ty = threadIdx.y;

    // Identify the row and column of the P element to work on
    int Row = by * TILE_WIDTH + ty;
    int Col = bx * TILE_WIDTH + tx;
    float Pvalue = 0;

    // Loop over the M and N tiles required to compute the P element
    for (int ph = 0; ph < (k - 1) / TILE_WIDTH + 1; ++ph) {
        // Collaborative loading of M and N tiles into shared memory
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
