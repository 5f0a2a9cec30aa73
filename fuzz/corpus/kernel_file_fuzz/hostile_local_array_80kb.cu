// hostile: a per-thread local array of 20 000 floats (80 000 B) filled and read in the kernel
// expect-limit: KiB|KB|bytes
// may-run: yes
// expect-name: big
#define TILE_WIDTH 16

__global__ void matmulTiled(const float* M, const float* N, float* P, int j, int k, int l)
{
    __shared__ float Mds[TILE_WIDTH][TILE_WIDTH];
    __shared__ float Nds[TILE_WIDTH][TILE_WIDTH];
    int tx = threadIdx.x; int ty = threadIdx.y;
    int Row = blockIdx.y * TILE_WIDTH + ty;
    int Col = blockIdx.x * TILE_WIDTH + tx;
    float Pvalue = 0;
    float big[20000];
    for (int i = 0; i < 20000; ++i) big[i] = (float)(i * (tx + 1));
    for (int ph = 0; ph < k / TILE_WIDTH; ++ph) {
        Mds[ty][tx] = M[Row * k + ph * TILE_WIDTH + tx];
        Nds[ty][tx] = N[(ph * TILE_WIDTH + ty) * l + Col];
        __syncthreads();
        for (int i = 0; i < TILE_WIDTH; ++i)
            Pvalue += Mds[ty][i] * Nds[i][tx];
        __syncthreads();
    }
    int pick = (Row * 131 + Col * 7) % 20000;
    Pvalue += big[pick] - big[pick];
    P[Row * l + Col] = Pvalue;
}
