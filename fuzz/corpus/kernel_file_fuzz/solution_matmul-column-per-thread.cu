// Reference solution of assets/exercises/matmul-column-per-thread (PMPP ch. 3, exercise 1b).
#define BLOCK_SIZE 16

__global__ void matmulColumnPerThread(const float* M, const float* N, float* P, int j, int k, int l)
{
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    if (col < l) {
        for (int row = 0; row < j; ++row) {
            float Pvalue = 0;
            for (int i = 0; i < k; ++i)
                Pvalue += M[row * k + i] * N[i * l + col];
            P[row * l + col] = Pvalue;
        }
    }
}
