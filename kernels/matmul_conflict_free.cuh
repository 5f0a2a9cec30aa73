// Matrix multiplication without most of its shared-memory bank conflicts:
// matmul-double-buffered with each thread's 8 x 8 tile of P split into four 4 x 4 quarters
// half a block tile apart, and the transposed M tile's rows padded. A warp's 128-bit reads
// of a row of Nds then cover 64 neighbouring floats (16 threads x 4) instead of every other
// group of four, which the 32 banks serve without conflict. A rung of the optimisation ladder
// (docs/ladder.md; kLadderRungs orders them); boundary checks as PMPP sec. 5.5.
#pragma once
#include "context.cuh"

namespace ts::kernels {

/// P[j x l] = M[j x k] * N[k x l], row-major. As matmulDoubleBuffered, except where a
/// thread's 64 elements of P lie: thread (tx, ty) computes rows by*BM + ty*4 + {0..3} and
/// by*BM + BM/2 + ty*4 + {0..3}, columns bx*BN + tx*4 + {0..3} and bx*BN + BN/2 + tx*4 +
/// {0..3} (Pvalue[m][n]: m < 4 the first rows, m >= 4 the second; n likewise).
/// BK, the columns of M (rows of N) a phase loads, is 8 on this rung and 16 on the next
/// (matmul-tuned: the same kernel with another tile shape).
template <int TILE, int BK, class X>
TS_DEVICE void matmulConflictFree(X& x, typename X::template GlobalPtr<const float> M,
                                    typename X::template GlobalPtr<const float> N,
                                    typename X::template GlobalPtr<float> P, int j, int k, int l)
{
    constexpr int BM = TILE, BN = TILE;   // the block's tile of P
    constexpr int TM = 8, TN = 8;         // the thread's tile of P
    constexpr int THREADS = (BN / TN) * (BM / TM);
    constexpr int M_LOADS = BM * BK / 4 / THREADS;   // float4 of M per thread and phase
    constexpr int N_LOADS = BK * BN / 4 / THREADS;   // float4 of N per thread and phase
    // Mds rows padded by 4 floats: the transposed stores of step 3 (four rows, eight
    // columns per warp) then fall into 16 banks instead of 8; 4 keeps each row 16-byte
    // aligned for the 128-bit reads
    constexpr int M_PAD = 4;
    TS_SHARED_2D(float, Mds, 2 * BK, BM + M_PAD);   // two buffers, transposed: Mds[buf*BK + c][r]
    TS_SHARED_2D(float, Nds, 2 * BK, BN);   // two buffers: Nds[buf*BK + r][c]

    int bx = x.blockIdx.x;  int by = x.blockIdx.y;
    int tx = x.threadIdx.x; int ty = x.threadIdx.y;
    int t = ty * (BN / TN) + tx;   // linear thread index, loads use it

    constexpr int HALF_M = BM / 2, HALF_N = BN / 2;   // the quarters' distance
    int rowStart = by * BM + ty * 4;
    int colStart = bx * BN + tx * 4;
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
                // Four elements of M at ty*4 and four at BM/2 + ty*4; of N likewise
                for (int m = 0; m < TM; m += 4) {
                    auto v = x.lds4(Mds[cur*BK + i], (m / 4)*HALF_M + ty*4);
                    Mreg[m] = v.x; Mreg[m + 1] = v.y; Mreg[m + 2] = v.z; Mreg[m + 3] = v.w;
                }
                for (int n = 0; n < TN; n += 4) {
                    auto v = x.lds4(Nds[cur*BK + i], (n / 4)*HALF_N + tx*4);
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
                // One 128-bit store per four elements: a warp writes 128 neighbouring floats
                x.sts4(Nds[nxt*BK + r], c, {Nnext[q][0], Nnext[q][1], Nnext[q][2], Nnext[q][3]});
            }
        }
        // 4. One barrier: buffer s % 2 is complete for step s + 1 (read after write), and
        //    buffer (s - 1) % 2 is free for step s + 1 to fill (write after read)
        x.syncthreads();
    }
    for (int m = 0; m < TM; ++m)
        for (int n = 0; n < TN; ++n) {
            const auto iteration = x.unrolled(m*TN + n);   // simulator: see matmul_coarsened.cuh
            int Row = rowStart + (m / 4)*HALF_M + m % 4;
            int Col = colStart + (n / 4)*HALF_N + n % 4;
            if (Row < j && Col < l)
                P[Row*l + Col] = Pvalue[m][n];
        }
}

}  // namespace ts::kernels
