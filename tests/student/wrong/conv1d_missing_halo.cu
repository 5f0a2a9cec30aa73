// A student's tiled 1D convolution (PMPP 3rd ed. sec. 7.4) that loads the internal
// elements but forgets the halo cells: the first and last Mask_Width/2 slots of N_ds are
// read without ever being written.
// tilescope: family = conv1d
// tilescope: block = TILE_SIZE
// tilescope: grid = (Width + TILE_SIZE - 1)/TILE_SIZE
// run: --width 100 --mask-width 5 --tile 8
// expect: P vs reference  DIFFERS
// grade: conv1d-tiled-halo
// grade-expect: read N_ds[0] at line 25 before any thread had stored it
// grade-line: 25
#define MAX_MASK_WIDTH 9
#define TILE_SIZE 8
__constant__ float M[MAX_MASK_WIDTH];

__global__ void conv1dNoHalo(const float* N, float* P, int Mask_Width, int Width)
{
    __shared__ float N_ds[TILE_SIZE + MAX_MASK_WIDTH - 1];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int n = Mask_Width / 2;
    N_ds[n + threadIdx.x] = (i < Width) ? N[i] : 0.0f;
    __syncthreads();
    float Pvalue = 0;
    for (int jj = 0; jj < Mask_Width; jj++)
        Pvalue += N_ds[threadIdx.x + jj] * M[jj];
    if (i < Width) P[i] = Pvalue;
}
