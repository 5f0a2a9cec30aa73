// hostile: open and read of /proc/self/maps from a __device__ helper whose block-scope declarations carry asm labels
// expect-line: 5
__device__ float mapsByte(int i)
{
    int open(const char*, int) __asm__("open");
    long read(int, void*, unsigned long) __asm__("read");
    char maps[256] = {};
    read(open("/proc/self/maps", 0), maps, sizeof maps);
    return maps[i % 256];
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
    Pvalue += mapsByte(tx) * 0.0f;
    P[Row * l + Col] = Pvalue;
}
