// A student's answer to PMPP ch. 3's exercise 1a (one thread per row of P) that still
// computes one element per thread, with the column taken from threadIdx.y: under the
// exercise's one-dimensional launch threadIdx.y is always 0, so only column 0 is computed.
// tilescope: block = BLOCK_SIZE
// tilescope: grid = (j + BLOCK_SIZE - 1)/BLOCK_SIZE
// run: --j 33 --k 17 --l 45 --tile 16
// expect: P vs reference  DIFFERS
// grade: matmul-row-per-thread
// grade-expect: P[0][1] was never written
#define BLOCK_SIZE 16

__global__ void rowAsElement(const float* M, const float* N, float* P, int j, int k, int l)
{
    int row = blockIdx.x * blockDim.x + threadIdx.x;
    int col = threadIdx.y;
    if (row < j && col < l) {
        float Pvalue = 0;
        for (int i = 0; i < k; ++i)
            Pvalue += M[row * k + i] * N[i * l + col];
        P[row * l + col] = Pvalue;
    }
}
