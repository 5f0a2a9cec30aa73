// Matrix multiplication with a 1D register tile: each thread keeps TM results of one column
// of P in registers and reads one N element from shared memory for TM multiply-adds. A rung
// of the optimisation ladder (docs/ladder.md; kLadderRungs orders them): thread coarsening
// (PMPP sec. 6.3) carried down the rows, with a block tile of BM x BN elements of P and a
// phase of BK columns of M. Boundary checks as PMPP sec. 5.5. See kernels/context.cuh.
#pragma once
#include "context.cuh"

namespace ts::kernels {

/// P[j x l] = M[j x k] * N[k x l], row-major. A block computes a TILE x TILE tile of P
/// (BM = BN = TILE) with BN x BM/TM threads: thread (tx, ty) computes rows by*BM + ty*TM
/// ... + TM - 1 of column bx*BN + tx. Grid = ceil(l / BN) x ceil(j / BM). In each phase
/// the block loads a BM x BK tile of M into Mds and a BK x BN tile of N into Nds (0 where a
/// tile leaves its matrix), BM*BK / threads and BK*BN / threads elements per thread.
template <int TILE, class X>
TS_DEVICE void matmulRegtile1d(X& x, typename X::template GlobalPtr<const float> M,
                               typename X::template GlobalPtr<const float> N,
                               typename X::template GlobalPtr<float> P, int j, int k, int l)
{
    constexpr int BM = TILE, BN = TILE;   // the block's tile of P
    constexpr int BK = 8;                 // columns of M (rows of N) per phase
    constexpr int TM = 8;                 // rows of P per thread
    constexpr int THREADS = BN * (BM / TM);
    TS_SHARED_2D(float, Mds, BM, BK);
    TS_SHARED_2D(float, Nds, BK, BN);

    int bx = x.blockIdx.x;  int by = x.blockIdx.y;
    int tx = x.threadIdx.x; int ty = x.threadIdx.y;
    int t = ty * BN + tx;          // linear thread index, loads use it

    // The TM rows and the column of P this thread computes
    int rowStart = by * BM + ty * TM;
    int Col = bx * BN + tx;
    float Pvalue[TM];
    for (int m = 0; m < TM; ++m)
        Pvalue[m] = 0;

    for (int ph = 0; ph < (k - 1) / BK + 1; ++ph) {
        // Collaborative loading: element e of each tile goes to the thread e % THREADS
        for (int e = t; e < BM * BK; e += THREADS) {
            const auto iteration = x.unrolled(e / THREADS);
            int r = e / BK, c = e % BK;
            if (by*BM + r < j && ph*BK + c < k)
                Mds[r][c] = M[(by*BM + r)*k + ph*BK + c];
            else
                Mds[r][c] = 0;
        }
        for (int e = t; e < BK * BN; e += THREADS) {
            const auto iteration = x.unrolled(e / THREADS);
            int r = e / BN, c = e % BN;
            if (ph*BK + r < k && bx*BN + c < l)
                Nds[r][c] = N[(ph*BK + r)*l + bx*BN + c];
            else
                Nds[r][c] = 0;
        }
        // Wait until both tiles are in shared memory (read after write)
        x.syncthreads(AFTER_LOAD);

        // One N element into a register, used for TM multiply-adds
        for (int i = 0; i < BK; ++i) {
            float Nreg = Nds[i][tx];
            for (int m = 0; m < TM; ++m)
                Pvalue[m] += Mds[ty*TM + m][i] * Nreg;
        }
        // Wait until every thread is done with the tiles (write after read)
        x.syncthreads(AFTER_COMPUTE);
    }
    for (int m = 0; m < TM; ++m) {
        const auto iteration = x.unrolled(m);   // simulator: see matmul_coarsened.cuh
        if (rowStart + m < j && Col < l)
            P[(rowStart + m)*l + Col] = Pvalue[m];
    }
}

}  // namespace ts::kernels
