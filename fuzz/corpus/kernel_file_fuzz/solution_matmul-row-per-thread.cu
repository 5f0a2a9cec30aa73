// Reference solution of assets/exercises/matmul-row-per-thread (PMPP ch. 3, exercise 1a).
#define BLOCK_SIZE 16

__global__ void matmulRowPerThread(const float* M, const float* N, float* P, int j, int k, int l)
{
    int row = blockIdx.x * blockDim.x + threadIdx.x;
    if (row < j) {
        for (int col = 0; col < l; ++col) {
            float Pvalue = 0;
            for (int i = 0; i < k; ++i)
                Pvalue += M[row * k + i] * N[i * l + col];
            P[row * l + col] = Pvalue;
        }
    }
}
