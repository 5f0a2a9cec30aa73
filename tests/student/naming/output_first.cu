// Naming scheme 4 of 4 (tests/student/naming/): the output first and the sizes in another
// order, bound by position.
// tilescope: args = P, l, M, k, N, j
#define TILE_WIDTH 16

__global__ void matmulTiled(float* out, int cols, const float* left, int depth, const float* right, int rows)
{
    __shared__ float Mds[TILE_WIDTH][TILE_WIDTH];
    __shared__ float Nds[TILE_WIDTH][TILE_WIDTH];

    int tx = threadIdx.x; int ty = threadIdx.y;
    int Row = blockIdx.y * TILE_WIDTH + ty;
    int Col = blockIdx.x * TILE_WIDTH + tx;
    float Pvalue = 0;

    for (int ph = 0; ph < (depth + TILE_WIDTH - 1) / TILE_WIDTH; ++ph) {
        if (Row < rows && ph * TILE_WIDTH + tx < depth)
            Mds[ty][tx] = left[Row * depth + ph * TILE_WIDTH + tx];
        else
            Mds[ty][tx] = 0;
        if (ph * TILE_WIDTH + ty < depth && Col < cols)
            Nds[ty][tx] = right[(ph * TILE_WIDTH + ty) * cols + Col];
        else
            Nds[ty][tx] = 0;
        __syncthreads();
        for (int i = 0; i < TILE_WIDTH; ++i)
            Pvalue += Mds[ty][i] * Nds[i][tx];
        __syncthreads();
    }
    if (Row < rows && Col < cols)
        out[Row * cols + Col] = Pvalue;
}
