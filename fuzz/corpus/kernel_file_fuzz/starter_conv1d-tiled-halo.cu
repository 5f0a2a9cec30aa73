// Tiled 1D convolution with halo cells (PMPP 3rd ed. sec. 7.4). Grade with
//   tilescope-cli grade --exercise conv1d-tiled-halo --kernel-file conv1d-tiled-halo.cu
#define MAX_MASK_WIDTH 9
#define TILE_SIZE 8
__constant__ float M[MAX_MASK_WIDTH];

__global__ void conv1dTiled(const float* N, float* P, int Mask_Width, int Width)
{
    __shared__ float N_ds[TILE_SIZE + MAX_MASK_WIDTH - 1];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int n = Mask_Width / 2;

    // The internal elements: one per thread
    N_ds[n + threadIdx.x] = (i < Width) ? N[i] : 0.0f;
    // TODO: the left halo (the last n threads) and the right halo (the first n threads),
    //       0 for ghost elements
    // TODO: wait until the whole input tile is in N_ds

    float Pvalue = 0;
    for (int jj = 0; jj < Mask_Width; jj++)
        Pvalue += N_ds[threadIdx.x + jj] * M[jj];
    if (i < Width) P[i] = Pvalue;
}
