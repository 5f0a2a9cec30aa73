// One thread per row of P (PMPP ch. 3, exercise 1a). Grade with
//   tilescope-cli grade --exercise matmul-row-per-thread --kernel-file matmul-row-per-thread.cu
#define BLOCK_SIZE 16

__global__ void matmulRowPerThread(const float* M, const float* N, float* P, int j, int k, int l)
{
    int row = blockIdx.x * blockDim.x + threadIdx.x;
    if (row < j) {
        // TODO: a loop over the columns of P; for each, the dot product of row `row` of M
        //       with that column of N, stored into P
        float Pvalue = 0;
        for (int i = 0; i < k; ++i)
            Pvalue += M[row * k + i] * N[i * l];
        P[row * l] = Pvalue;
    }
}
