// Tiled 2D convolution (PMPP sec. 7.4). Grade with
//   tilescope-cli grade --exercise conv2d-tiled --kernel-file conv2d-tiled.cu
#define MAX_MASK_WIDTH 9
#define TILE_SIZE 8
__constant__ float Mc[MAX_MASK_WIDTH][MAX_MASK_WIDTH];

__global__ void conv2dTiled(const float* N, float* P, int Mask_Width, int height, int width)
{
    __shared__ float N_ds[TILE_SIZE + MAX_MASK_WIDTH - 1][TILE_SIZE + MAX_MASK_WIDTH - 1];
    int tx = threadIdx.x; int ty = threadIdx.y;
    int row_o = blockIdx.y * TILE_SIZE + ty;
    int col_o = blockIdx.x * TILE_SIZE + tx;
    int row_i = row_o - Mask_Width / 2;
    int col_i = col_o - Mask_Width / 2;

    // TODO: load N[row_i][col_i] into N_ds[ty][tx], 0 for a ghost cell outside N
    // TODO: wait until the input tile is loaded
    // TODO: threads of the output tile sum Mc[i][j] * N_ds[i + ty][j + tx] and store P
    if (row_o < height && col_o < width)
        P[row_o * width + col_o] = 0.0f;
}
