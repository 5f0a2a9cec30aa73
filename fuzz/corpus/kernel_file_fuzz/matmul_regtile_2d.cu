// matmul-regtile-2d as a student writes it for nvcc: each thread computes a TM x TN tile of
// P in registers, as the outer product of TM elements of a column of Mds and TN elements of
// a row of Nds, read into registers first: 16 shared reads feed 64 multiply-adds. A block
// computes a BM x BN tile of P; a phase brings BK columns of M and BK rows of N into shared
// memory (0 outside the matrices, PMPP sec. 5.5). The same kernel as
// kernels/matmul_regtile_2d.cuh, in plain CUDA (tests/student/student_kernel_test.cpp
// compares the two).
// tilescope: block = BN/TN, BM/TM
// tilescope: grid = (l + BN - 1)/BN, (j + BM - 1)/BM
#define BM 64
#define BN 64
#define BK 8
#define TM 8
#define TN 8
#define THREADS ((BN / TN) * (BM / TM))

__global__ void matmulRegtile2d(const float* M, const float* N, float* P, int j, int k, int l)
{
    __shared__ float Mds[BM][BK];
    __shared__ float Nds[BK][BN];

    int bx = blockIdx.x;  int by = blockIdx.y;
    int tx = threadIdx.x; int ty = threadIdx.y;
    int t = ty * (BN / TN) + tx;   // the thread's number in the block, for the tile loads

    // This thread's TM x TN tile of P starts at row rowStart, column colStart
    int rowStart = by * BM + ty * TM;
    int colStart = bx * BN + tx * TN;
    float Pvalue[TM][TN];
    for (int m = 0; m < TM; ++m)
        for (int n = 0; n < TN; ++n)
            Pvalue[m][n] = 0;
    float Mreg[TM], Nreg[TN];

    for (int ph = 0; ph < (k - 1) / BK + 1; ++ph) {
        // Every thread loads elements t, t + THREADS, ... of each tile
        for (int e = t; e < BM * BK; e += THREADS) {
            int r = e / BK, c = e % BK;
            if (by*BM + r < j && ph*BK + c < k)
                Mds[r][c] = M[(by*BM + r)*k + ph*BK + c];
            else
                Mds[r][c] = 0;
        }
        for (int e = t; e < BK * BN; e += THREADS) {
            int r = e / BN, c = e % BN;
            if (ph*BK + r < k && bx*BN + c < l)
                Nds[r][c] = N[(ph*BK + r)*l + bx*BN + c];
            else
                Nds[r][c] = 0;
        }
        // The tiles must be complete before anyone reads them
        __syncthreads();

        for (int i = 0; i < BK; ++i) {
            // A column piece of Mds and a row piece of Nds into registers...
            for (int m = 0; m < TM; ++m)
                Mreg[m] = Mds[ty*TM + m][i];
            for (int n = 0; n < TN; ++n)
                Nreg[n] = Nds[i][tx*TN + n];
            // ...and their outer product added to the thread's tile of P
            for (int m = 0; m < TM; ++m)
                for (int n = 0; n < TN; ++n)
                    Pvalue[m][n] += Mreg[m] * Nreg[n];
        }
        // Everyone must be done with the tiles before the next phase overwrites them
        __syncthreads();
    }
    for (int m = 0; m < TM; ++m)
        for (int n = 0; n < TN; ++n)
            if (rowStart + m < j && colStart + n < l)
                P[(rowStart + m)*l + colStart + n] = Pvalue[m][n];
}
