// One thread per column of P (PMPP ch. 3, exercise 1b). Grade with
//   tilescope-cli grade --exercise matmul-column-per-thread --kernel-file matmul-column-per-thread.cu
#define BLOCK_SIZE 16

__global__ void matmulColumnPerThread(const float* M, const float* N, float* P, int j, int k, int l)
{
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    if (col < l) {
        // TODO: a loop over the rows of P; for each, the dot product of that row of M with
        //       column `col` of N, stored into P
        float Pvalue = 0;
        for (int i = 0; i < k; ++i)
            Pvalue += M[i] * N[i * l + col];
        P[col] = Pvalue;
    }
}
