// Naming scheme 2 of 4 (tests/student/naming/): a student's own names, bound by position
// through the header's argument list.
// tilescope: args = M, N, P, j, k, l
#define TILE_WIDTH 16

__global__ void matmulTiled(const float* A, const float* B, float* C, int rowsA, int inner, int colsB)
{
    __shared__ float Mds[TILE_WIDTH][TILE_WIDTH];
    __shared__ float Nds[TILE_WIDTH][TILE_WIDTH];

    int tx = threadIdx.x; int ty = threadIdx.y;
    int Row = blockIdx.y * TILE_WIDTH + ty;
    int Col = blockIdx.x * TILE_WIDTH + tx;
    float Pvalue = 0;

    for (int ph = 0; ph < (inner + TILE_WIDTH - 1) / TILE_WIDTH; ++ph) {
        if (Row < rowsA && ph * TILE_WIDTH + tx < inner)
            Mds[ty][tx] = A[Row * inner + ph * TILE_WIDTH + tx];
        else
            Mds[ty][tx] = 0;
        if (ph * TILE_WIDTH + ty < inner && Col < colsB)
            Nds[ty][tx] = B[(ph * TILE_WIDTH + ty) * colsB + Col];
        else
            Nds[ty][tx] = 0;
        __syncthreads();
        for (int i = 0; i < TILE_WIDTH; ++i)
            Pvalue += Mds[ty][i] * Nds[i][tx];
        __syncthreads();
    }
    if (Row < rowsA && Col < colsB)
        C[Row * colsB + Col] = Pvalue;
}
