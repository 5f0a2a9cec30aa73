// hostile: a __constant__ mask of 2^28 floats (1 GiB; a GPU has 64 KiB of constant memory)
// expect-line: 7
// exercise: conv1d-tiled-halo
// simulate-args: --width 64 --mask-width 5
#define MAX_MASK_WIDTH 9
#define TILE_SIZE 8
__constant__ float M[268435456];

__global__ void conv1dTiled(const float* N, float* P, int Mask_Width, int Width)
{
    __shared__ float N_ds[TILE_SIZE + MAX_MASK_WIDTH - 1];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int n = Mask_Width / 2;

    int halo_index_left = (blockIdx.x - 1) * blockDim.x + threadIdx.x;
    if (threadIdx.x >= blockDim.x - n)
        N_ds[threadIdx.x - (blockDim.x - n)] = (halo_index_left < 0) ? 0.0f : N[halo_index_left];
    N_ds[n + threadIdx.x] = (i < Width) ? N[i] : 0.0f;
    int halo_index_right = (blockIdx.x + 1) * blockDim.x + threadIdx.x;
    if (threadIdx.x < n)
        N_ds[n + blockDim.x + threadIdx.x] = (halo_index_right >= Width) ? 0.0f : N[halo_index_right];
    __syncthreads();

    float Pvalue = 0;
    for (int jj = 0; jj < Mask_Width; jj++)
        Pvalue += N_ds[threadIdx.x + jj] * M[jj];
    if (i < Width) P[i] = Pvalue;
}
