// A student's tiled 2D convolution that indexes its mask as Mc[j][i] instead of Mc[i][j]: every
// sum uses the transposed mask. The grader names the mask as the file does, Mc, and the line
// that read the wrong element of it.
// run: --exercise conv2d-tiled
// expect: P vs reference  DIFFERS
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

    if (row_i >= 0 && row_i < height && col_i >= 0 && col_i < width)
        N_ds[ty][tx] = N[row_i * width + col_i];
    else
        N_ds[ty][tx] = 0.0f;
    __syncthreads();

    if (ty < TILE_SIZE && tx < TILE_SIZE) {
        float output = 0.0f;
        for (int i = 0; i < Mask_Width; i++)
            for (int j = 0; j < Mask_Width; j++)
                output += Mc[j][i] * N_ds[i + ty][j + tx];
        if (row_o < height && col_o < width)
            P[row_o * width + col_o] = output;
    }
}
// How tilescope-cli grade judges it (tests/student/grade_test.cpp):
// grade: conv2d-tiled
// grade-expect: line 29 read Mc[3][2] for term 2 of the sum; the reference's term 2 is Mc[2][3] * N[0][1]
// grade-line: 29
