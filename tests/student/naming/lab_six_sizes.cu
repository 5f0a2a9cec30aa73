// Naming scheme 3 of 4 (tests/student/naming/): the six-size signature many courses hand
// out for this lab, each size given as the problem's term it receives.
// tilescope: args = A = M, B = N, C = P, numARows = j, numAColumns = k, numBRows = k, numBColumns = l, numCRows = j, numCColumns = l
#define TILE_WIDTH 16

__global__ void matmulTiled(float* A, float* B, float* C, int numARows, int numAColumns, int numBRows, int numBColumns, int numCRows, int numCColumns)
{
    __shared__ float Mds[TILE_WIDTH][TILE_WIDTH];
    __shared__ float Nds[TILE_WIDTH][TILE_WIDTH];

    int tx = threadIdx.x; int ty = threadIdx.y;
    int Row = blockIdx.y * TILE_WIDTH + ty;
    int Col = blockIdx.x * TILE_WIDTH + tx;
    float Pvalue = 0;

    for (int ph = 0; ph < (numAColumns + TILE_WIDTH - 1) / TILE_WIDTH; ++ph) {
        if (Row < numARows && ph * TILE_WIDTH + tx < numAColumns)
            Mds[ty][tx] = A[Row * numAColumns + ph * TILE_WIDTH + tx];
        else
            Mds[ty][tx] = 0;
        if (ph * TILE_WIDTH + ty < numAColumns && Col < numBColumns)
            Nds[ty][tx] = B[(ph * TILE_WIDTH + ty) * numBColumns + Col];
        else
            Nds[ty][tx] = 0;
        __syncthreads();
        for (int i = 0; i < TILE_WIDTH; ++i)
            Pvalue += Mds[ty][i] * Nds[i][tx];
        __syncthreads();
    }
    if (Row < numCRows && Col < numCColumns)
        C[Row * numCColumns + Col] = Pvalue;
}
