// conv1d-basic as PMPP prints it (3rd ed. Fig. 7.6, with the mask in constant memory as in
// Fig. 7.8): one thread per output element, every input element read from global memory,
// ghost elements skipped.
#define MAX_MASK_WIDTH 9
__constant__ float M[MAX_MASK_WIDTH];

__global__ void convolution_1D_basic_kernel(const float* N, float* P, int Mask_Width, int Width)
{
    int i = blockIdx.x*blockDim.x + threadIdx.x;

    if (i < Width) {
        float Pvalue = 0;
        int N_start_point = i - (Mask_Width/2);
        for (int j = 0; j < Mask_Width; j++) {
            if (N_start_point + j >= 0 && N_start_point + j < Width) {
                Pvalue += N[N_start_point + j]*M[j];
            }
        }
        P[i] = Pvalue;
    }
}
