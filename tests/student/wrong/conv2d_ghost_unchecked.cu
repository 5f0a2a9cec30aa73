// A student's tiled 2D convolution (PMPP sec. 7.4) that loads its input tile without
// checking for ghost cells: the blocks at the image's edge read before the start of N.
// tilescope: family = conv2d
// tilescope: block = TILE_SIZE + Mask_Width - 1, TILE_SIZE + Mask_Width - 1
// tilescope: grid = (width + TILE_SIZE - 1)/TILE_SIZE, (height + TILE_SIZE - 1)/TILE_SIZE
// run: --height 20 --width 37 --mask-width 5 --tile 8
// expect: accessed N[-76] at line 21
// grade: conv2d-tiled
// grade-expect: accessed N[-76] at line 21
// grade-line: 21
#define MAX_MASK_WIDTH 9
#define TILE_SIZE 8
__constant__ float Mc[MAX_MASK_WIDTH][MAX_MASK_WIDTH];

__global__ void conv2dNoGhost(const float* N, float* P, int Mask_Width, int height, int width)
{
    __shared__ float N_ds[TILE_SIZE + MAX_MASK_WIDTH - 1][TILE_SIZE + MAX_MASK_WIDTH - 1];
    int tx = threadIdx.x; int ty = threadIdx.y;
    int row_o = blockIdx.y * TILE_SIZE + ty;
    int col_o = blockIdx.x * TILE_SIZE + tx;
    N_ds[ty][tx] = N[(row_o - Mask_Width / 2) * width + col_o - Mask_Width / 2];
    __syncthreads();
    if (ty < TILE_SIZE && tx < TILE_SIZE) {
        float output = 0.0f;
        for (int i = 0; i < Mask_Width; i++)
            for (int j = 0; j < Mask_Width; j++)
                output += Mc[i][j] * N_ds[i + ty][j + tx];
        if (row_o < height && col_o < width)
            P[row_o * width + col_o] = output;
    }
}
