// Tiled matrix multiplication (PMPP sec. 5.4). Fill in the TODOs; grade with
//   tilescope-cli grade --exercise tiled-matmul --kernel-file tiled-matmul.cu
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
        // TODO: load this phase's element of M into Mds[ty][tx] and of N into Nds[ty][tx]
        // TODO: wait until the whole tile is loaded
        // TODO: Pvalue += Mds[ty][i] * Nds[i][tx] for i from 0 to TILE_WIDTH - 1
        // TODO: wait before the next phase overwrites the tiles
    }
    P[Row * l + Col] = Pvalue;
}
