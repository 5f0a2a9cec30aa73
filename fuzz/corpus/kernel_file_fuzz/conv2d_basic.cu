// conv2d-basic as PMPP prints it (sec. 7.2-7.3, with the mask in constant memory): one
// thread per output element, the input read from global memory, ghost cells skipped.
#define MAX_MASK_WIDTH 9
__constant__ float Mc[MAX_MASK_WIDTH][MAX_MASK_WIDTH];

__global__ void convolution_2D_basic_kernel(const float* N, float* P, int Mask_Width, int height, int width)
{
    int Row = blockIdx.y*blockDim.y + threadIdx.y;
    int Col = blockIdx.x*blockDim.x + threadIdx.x;

    if (Row < height && Col < width) {
        float Pvalue = 0;
        int N_start_row = Row - (Mask_Width/2);
        int N_start_col = Col - (Mask_Width/2);
        for (int i = 0; i < Mask_Width; i++) {
            for (int j = 0; j < Mask_Width; j++) {
                int row_i = N_start_row + i;
                int col_i = N_start_col + j;
                if (row_i >= 0 && row_i < height && col_i >= 0 && col_i < width) {
                    Pvalue += Mc[i][j]*N[row_i*width + col_i];
                }
            }
        }
        P[Row*width + Col] = Pvalue;
    }
}
