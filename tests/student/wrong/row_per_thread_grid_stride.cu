// A student's answer to PMPP ch. 3's exercise 1a (one thread per row of P) that walks the
// elements of P with a grid-stride loop: P is right, but a row's elements are spread over
// many threads, which is not what the exercise asks.
// tilescope: block = BLOCK_SIZE
// tilescope: grid = (j + BLOCK_SIZE - 1)/BLOCK_SIZE
// run: --j 33 --k 17 --l 45 --tile 16
// expect: P vs reference  bit-identical
// grade: matmul-row-per-thread
// grade-expect: this exercise asks for one thread per whole row of P
// grade-line: 22
#define BLOCK_SIZE 16

__global__ void gridStride(const float* M, const float* N, float* P, int j, int k, int l)
{
    int threads = gridDim.x * blockDim.x;
    for (int e = blockIdx.x * blockDim.x + threadIdx.x; e < j * l; e += threads) {
        int row = e / l;
        int col = e % l;
        float Pvalue = 0;
        for (int i = 0; i < k; ++i)
            Pvalue += M[row * k + i] * N[i * l + col];
        P[row * l + col] = Pvalue;
    }
}
