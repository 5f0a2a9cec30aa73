// Matrix multiplication with a 2D register tile: each thread computes a TM x TN block of P
// as outer products of TM elements of M and TN elements of N held in registers, so that
// TM + TN shared-memory reads feed TM * TN multiply-adds. A rung of the optimisation ladder
// (docs/ladder.md; kLadderRungs orders them); boundary checks as PMPP sec. 5.5.
// Single source: see kernels/context.cuh.
#pragma once
#include "context.cuh"

namespace ts::kernels {

/// P[j x l] = M[j x k] * N[k x l], row-major. A block computes a TILE x TILE tile of P
/// (BM = BN = TILE) with BN/TN x BM/TM threads: thread (tx, ty) computes rows by*BM + ty*TM
/// ... + TM - 1 of columns bx*BN + tx*TN ... + TN - 1. Grid = ceil(l / BN) x ceil(j / BM).
/// In each phase the block loads a BM x BK tile of M into Mds and a BK x BN tile of N into
/// Nds (0 where a tile leaves its matrix).
template <int TILE, class X>
TS_DEVICE void matmulRegtile2d(X& x, typename X::template GlobalPtr<const float> M,
                               typename X::template GlobalPtr<const float> N,
                               typename X::template GlobalPtr<float> P, int j, int k, int l)
{
    constexpr int BM = TILE, BN = TILE;   // the block's tile of P
    constexpr int BK = 8;                 // columns of M (rows of N) per phase
    constexpr int TM = 8, TN = 8;         // the thread's tile of P
    constexpr int THREADS = (BN / TN) * (BM / TM);
    TS_SHARED_2D(float, Mds, BM, BK);
    TS_SHARED_2D(float, Nds, BK, BN);

    int bx = x.blockIdx.x;  int by = x.blockIdx.y;
    int tx = x.threadIdx.x; int ty = x.threadIdx.y;
    int t = ty * (BN / TN) + tx;   // linear thread index, loads use it

    // The thread's TM x TN tile of P starts at (rowStart, colStart)
    int rowStart = by * BM + ty * TM;
    int colStart = bx * BN + tx * TN;
    float Pvalue[TM][TN];
    for (int m = 0; m < TM; ++m)
        for (int n = 0; n < TN; ++n)
            Pvalue[m][n] = 0;
    float Mreg[TM], Nreg[TN];

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

        for (int i = 0; i < BK; ++i) {
            // TM elements of column i of Mds and TN of row i of Nds into registers...
            for (int m = 0; m < TM; ++m)
                Mreg[m] = Mds[ty*TM + m][i];
            for (int n = 0; n < TN; ++n)
                Nreg[n] = Nds[i][tx*TN + n];
            // ...and their outer product added to the thread's tile of P
            for (int m = 0; m < TM; ++m)
                for (int n = 0; n < TN; ++n)
                    Pvalue[m][n] = x.fmaf(Mreg[m], Nreg[n], Pvalue[m][n]);
        }
        // Wait until every thread is done with the tiles (write after read)
        x.syncthreads(AFTER_COMPUTE);
    }
    for (int m = 0; m < TM; ++m)
        for (int n = 0; n < TN; ++n) {
            const auto iteration = x.unrolled(m*TN + n);   // simulator: see matmul_coarsened.cuh
            if (rowStart + m < j && colStart + n < l)
                P[(rowStart + m)*l + colStart + n] = Pvalue[m][n];
        }
}

}  // namespace ts::kernels
