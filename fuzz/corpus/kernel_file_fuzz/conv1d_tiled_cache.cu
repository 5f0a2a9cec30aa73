// conv1d-tiled-cache as PMPP 3rd ed. Fig. 7.13 prints it: N_ds holds the block's internal
// elements only; the halo is read from global memory, where the caches serve it.
#define MAX_MASK_WIDTH 9
#define TILE_SIZE 8
__constant__ float M[MAX_MASK_WIDTH];

__global__ void convolution_1D_tiled_caching_kernel(const float* N, float* P, int Mask_Width, int Width)
{
    int i = blockIdx.x*blockDim.x + threadIdx.x;
    __shared__ float N_ds[TILE_SIZE];

    N_ds[threadIdx.x] = (i < Width) ? N[i] : 0.0f;

    __syncthreads();

    int This_tile_start_point = blockIdx.x * blockDim.x;
    int Next_tile_start_point = (blockIdx.x + 1) * blockDim.x;
    int N_start_point = i - (Mask_Width/2);
    if (i < Width) {
        float Pvalue = 0;
        for (int j = 0; j < Mask_Width; j++) {
            int N_index = N_start_point + j;
            if (N_index >= 0 && N_index < Width) {
                if ((N_index >= This_tile_start_point) && (N_index < Next_tile_start_point)) {
                    Pvalue += N_ds[threadIdx.x + j - (Mask_Width/2)]*M[j];
                } else {
                    Pvalue += N[N_index]*M[j];
                }
            }
        }
        P[i] = Pvalue;
    }
}
