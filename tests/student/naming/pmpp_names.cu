// Naming scheme 1 of 4 (tests/student/naming/): PMPP's own names, M, N, P and j, k, l,
// bound by name; the same kernel as tests/student/solutions/tiled-matmul-boundary.cu.
// (no header line: the names say what each parameter receives)
#define TILE_WIDTH 16

__global__ void matmulTiled(const float* M, const float* N, float* P, int j, int k, int l)
{
    __shared__ float Mds[TILE_WIDTH][TILE_WIDTH];
    __shared__ float Nds[TILE_WIDTH][TILE_WIDTH];

    int tx = threadIdx.x; int ty = threadIdx.y;
    int Row = blockIdx.y * TILE_WIDTH + ty;
    int Col = blockIdx.x * TILE_WIDTH + tx;
    float Pvalue = 0;

    for (int ph = 0; ph < (k + TILE_WIDTH - 1) / TILE_WIDTH; ++ph) {
        if (Row < j && ph * TILE_WIDTH + tx < k)
            Mds[ty][tx] = M[Row * k + ph * TILE_WIDTH + tx];
        else
            Mds[ty][tx] = 0;
        if (ph * TILE_WIDTH + ty < k && Col < l)
            Nds[ty][tx] = N[(ph * TILE_WIDTH + ty) * l + Col];
        else
            Nds[ty][tx] = 0;
        __syncthreads();
        for (int i = 0; i < TILE_WIDTH; ++i)
            Pvalue += Mds[ty][i] * Nds[i][tx];
        __syncthreads();
    }
    if (Row < j && Col < l)
        P[Row * l + Col] = Pvalue;
}
