// hostile: a per-thread local array of 17 000 floats (68 000 B) in a __device__ helper
// expect-limit: KiB|KB|bytes
// may-run: yes
// expect-name: scratch
__device__ float scratchZero(int seed)
{
    float scratch[17000];
    for (int i = 0; i < 17000; ++i) scratch[i] = (float)(i ^ seed);
    int pick = (seed * 37) % 17000;
    return scratch[pick] - scratch[pick];
}

#define TILE_WIDTH 16

__global__ void matmulTiled(const float* M, const float* N, float* P, int j, int k, int l)
{
    __shared__ float Mds[TILE_WIDTH][TILE_WIDTH];
    __shared__ float Nds[TILE_WIDTH][TILE_WIDTH];
    int tx = threadIdx.x; int ty = threadIdx.y;
    int Row = blockIdx.y * TILE_WIDTH + ty;
    int Col = blockIdx.x * TILE_WIDTH + tx;
    float Pvalue = 0;
    for (int ph = 0; ph < k / TILE_WIDTH; ++ph) {
        Mds[ty][tx] = M[Row * k + ph * TILE_WIDTH + tx];
        Nds[ty][tx] = N[(ph * TILE_WIDTH + ty) * l + Col];
        __syncthreads();
        for (int i = 0; i < TILE_WIDTH; ++i)
            Pvalue += Mds[ty][i] * Nds[i][tx];
        __syncthreads();
    }
    Pvalue += scratchZero(Row * 64 + Col);
    P[Row * l + Col] = Pvalue;
}
