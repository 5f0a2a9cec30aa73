// matmul-regtile-1d as a student writes it for nvcc: thread coarsening (PMPP sec. 6.3)
// carried down the rows into registers. A block computes a BM x BN tile of P; each thread
// keeps TM results of one column in registers, so one Nds element read into a register
// serves TM multiply-adds. A phase brings BK columns of M and BK rows of N into shared
// memory (0 outside the matrices, as in sec. 5.5). The same kernel as
// kernels/matmul_regtile_1d.cuh, in plain CUDA (tests/student/student_kernel_test.cpp
// compares the two).
// tilescope: block = BN, BM/TM
// tilescope: grid = (l + BN - 1)/BN, (j + BM - 1)/BM
#define BM 64
#define BN 64
#define BK 8
#define TM 8
#define THREADS (BN * (BM / TM))

__global__ void matmulRegtile1d(const float* M, const float* N, float* P, int j, int k, int l)
{
    __shared__ float Mds[BM][BK];
    __shared__ float Nds[BK][BN];

    int bx = blockIdx.x;  int by = blockIdx.y;
    int tx = threadIdx.x; int ty = threadIdx.y;
    int t = ty * BN + tx;   // the thread's number in the block, for the tile loads

    // This thread's TM rows of P, all in column Col
    int rowStart = by * BM + ty * TM;
    int Col = bx * BN + tx;
    float Pvalue[TM];
    for (int m = 0; m < TM; ++m)
        Pvalue[m] = 0;

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
            // one shared read, TM multiply-adds
            float Nreg = Nds[i][tx];
            for (int m = 0; m < TM; ++m)
                Pvalue[m] += Mds[ty*TM + m][i] * Nreg;
        }
        // Everyone must be done with the tiles before the next phase overwrites them
        __syncthreads();
    }
    for (int m = 0; m < TM; ++m) {
        if (rowStart + m < j && Col < l)
            P[(rowStart + m)*l + Col] = Pvalue[m];
    }
}
