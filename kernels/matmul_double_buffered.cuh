// Matrix multiplication with double-buffered shared tiles: matmul-vectorized with two copies
// of Mds and Nds, so that the block loads the next phase's tiles from global memory while it
// multiplies the current ones, and waits at one barrier per phase instead of two. A rung of
// the optimisation ladder (docs/ladder.md; kLadderRungs orders them); boundary checks as
// PMPP sec. 5.5. Single source: see kernels/context.cuh.
#pragma once
#include "context.cuh"

namespace ts::kernels {

/// P[j x l] = M[j x k] * N[k x l], row-major. Work as matmulVectorized: a block computes a
/// TILE x TILE tile of P with (TILE/8)^2 threads, thread (tx, ty) an 8 x 8 tile at rows
/// by*BM + ty*TM and columns bx*BN + tx*TN; phases of BK = 8. Mds (transposed) and Nds hold
/// two buffers each, rows [0, BK) and [BK, 2*BK). Step s of the loop (0 .. phases) reads the
/// tiles of phase s from global memory into registers, multiplies the tiles of phase s - 1
/// from buffer (s - 1) % 2, writes the registers into buffer s % 2 and waits at the barrier.
template <int TILE, class X>
TS_DEVICE void matmulDoubleBuffered(X& x, typename X::template GlobalPtr<const float> M,
                                    typename X::template GlobalPtr<const float> N,
                                    typename X::template GlobalPtr<float> P, int j, int k, int l)
{
    constexpr int BM = TILE, BN = TILE;   // the block's tile of P
    constexpr int BK = 8;                 // columns of M (rows of N) per phase
    constexpr int TM = 8, TN = 8;         // the thread's tile of P
    constexpr int THREADS = (BN / TN) * (BM / TM);
    constexpr int M_LOADS = BM * BK / 4 / THREADS;   // float4 of M per thread and phase
    constexpr int N_LOADS = BK * BN / 4 / THREADS;   // float4 of N per thread and phase
    TS_SHARED_2D(float, Mds, 2 * BK, BM);   // two buffers, transposed: Mds[buf*BK + c][r]
    TS_SHARED_2D(float, Nds, 2 * BK, BN);   // two buffers: Nds[buf*BK + r][c]

    int bx = x.blockIdx.x;  int by = x.blockIdx.y;
    int tx = x.threadIdx.x; int ty = x.threadIdx.y;
    int t = ty * (BN / TN) + tx;   // linear thread index, loads use it

    int rowStart = by * BM + ty * TM;
    int colStart = bx * BN + tx * TN;
    float Pvalue[TM][TN];
    for (int m = 0; m < TM; ++m)
        for (int n = 0; n < TN; ++n)
            Pvalue[m][n] = 0;
    float Mreg[TM], Nreg[TN];
    float Mnext[M_LOADS][4], Nnext[N_LOADS][4];   // the next phase's elements, in flight

    int phases = (k - 1) / BK + 1;
    for (int s = 0; s <= phases; ++s) {
        // 1. The tiles of phase s from global memory into registers (float4 where it can)
        if (s < phases) {
            for (int q = 0; q < M_LOADS; ++q) {
                const auto iteration = x.unrolled(q);
                int e = t + q * THREADS;
                int Row = by*BM + e / (BK / 4), Col = s*BK + 4 * (e % (BK / 4));
                if (k % 4 == 0 && Row < j && Col + 3 < k) {
                    auto v = x.ldg4(M, Row*k + Col);
                    Mnext[q][0] = v.x; Mnext[q][1] = v.y; Mnext[q][2] = v.z; Mnext[q][3] = v.w;
                } else {
                    for (int c = 0; c < 4; ++c) {
                        const auto element = x.unrolled(q * 4 + c);
                        if (Row < j && Col + c < k)
                            Mnext[q][c] = M[Row*k + Col + c];
                        else
                            Mnext[q][c] = 0;
                    }
                }
            }
            for (int q = 0; q < N_LOADS; ++q) {
                const auto iteration = x.unrolled(q);
                int e = t + q * THREADS;
                int Row = s*BK + e / (BN / 4), Col = bx*BN + 4 * (e % (BN / 4));
                if (l % 4 == 0 && Row < k && Col + 3 < l) {
                    auto v = x.ldg4(N, Row*l + Col);
                    Nnext[q][0] = v.x; Nnext[q][1] = v.y; Nnext[q][2] = v.z; Nnext[q][3] = v.w;
                } else {
                    for (int c = 0; c < 4; ++c) {
                        const auto element = x.unrolled(q * 4 + c);
                        if (Row < k && Col + c < l)
                            Nnext[q][c] = N[Row*l + Col + c];
                        else
                            Nnext[q][c] = 0;
                    }
                }
            }
        }
        // 2. The tiles of phase s - 1, loaded at the step before, multiplied from their buffer
        if (s > 0) {
            int cur = (s - 1) % 2;
            for (int i = 0; i < BK; ++i) {
                for (int m = 0; m < TM; m += 4) {
                    auto v = x.lds4(Mds[cur*BK + i], ty*TM + m);
                    Mreg[m] = v.x; Mreg[m + 1] = v.y; Mreg[m + 2] = v.z; Mreg[m + 3] = v.w;
                }
                for (int n = 0; n < TN; n += 4) {
                    auto v = x.lds4(Nds[cur*BK + i], tx*TN + n);
                    Nreg[n] = v.x; Nreg[n + 1] = v.y; Nreg[n + 2] = v.z; Nreg[n + 3] = v.w;
                }
                for (int m = 0; m < TM; ++m)
                    for (int n = 0; n < TN; ++n)
                        Pvalue[m][n] = x.fmaf(Mreg[m], Nreg[n], Pvalue[m][n]);
            }
        }
        // 3. The registers into the other buffer, which nobody reads in this step (its tiles
        //    were multiplied in the step before, ended by the barrier)
        if (s < phases) {
            int nxt = s % 2;
            for (int q = 0; q < M_LOADS; ++q) {
                int e = t + q * THREADS;
                int r = e / (BK / 4), c = 4 * (e % (BK / 4));
                for (int d = 0; d < 4; ++d)
                    Mds[nxt*BK + c + d][r] = Mnext[q][d];
            }
            for (int q = 0; q < N_LOADS; ++q) {
                int e = t + q * THREADS;
                int r = e / (BN / 4), c = 4 * (e % (BN / 4));
                for (int d = 0; d < 4; ++d)
                    Nds[nxt*BK + r][c + d] = Nnext[q][d];
            }
        }
        // 4. One barrier: buffer s % 2 is complete for step s + 1 (read after write), and
        //    buffer (s - 1) % 2 is free for step s + 1 to fill (write after read)
        x.syncthreads();
    }
    for (int m = 0; m < TM; ++m)
        for (int n = 0; n < TN; ++n) {
            const auto iteration = x.unrolled(m*TN + n);   // simulator: see matmul_coarsened.cuh
            if (rowStart + m < j && colStart + n < l)
                P[(rowStart + m)*l + colStart + n] = Pvalue[m][n];
        }
}

}  // namespace ts::kernels
