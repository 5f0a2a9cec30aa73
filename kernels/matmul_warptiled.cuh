// Matrix multiplication with warp tiles: matmul-conflict-free's double buffer and 128-bit
// accesses, with the block's tile of P cut into 64 x 64 warp tiles and each lane's 16 x 8
// elements placed inside its warp's tile. Per column of the tiles a warp's reads take 16
// shared-memory wavefronts for 128 multiply-adds a lane, where matmul-conflict-free's take
// 12 for 64: a third fewer per multiply-add. The taller block (2T x T) reads each element of
// N once for 2T rows of P. A rung of the optimisation ladder (docs/ladder.md; kLadderRungs
// orders them); boundary checks as PMPP sec. 5.5, made once per block where it can
// (matmulWarptiled). Single source: see kernels/context.cuh.
#pragma once
#include "context.cuh"

namespace ts::kernels {

/// P[j x l] = M[j x k] * N[k x l], row-major. A block of (T / 8) x (2T / 16) threads
/// computes a BM x BN = 2T x T tile of P, in warp tiles of WM x WN = 64 x 64 (the block's
/// warps in BM/64 rows of BN/64). Lane (ly, lx) = (lane / 8, lane % 8) of a warp whose tile
/// starts at (wr, wc) computes, in Pvalue[m][n], rows wr + (m / 4)*16 + ly*4 + m % 4
/// (m < 16) and columns wc + (n / 4)*32 + lx*4 + n % 4 (n < 8) of the block's tile: four
/// 4 x 4 pieces 16 rows apart, twice, 32 columns apart. Phases of BK = 8 columns of M.
/// CHECKED: with PMPP's boundary checks (sec. 5.5) on every load and store; without them
/// for a block whose tiles lie wholly inside M, N and P (matmulWarptiled picks).
template <int TILE, bool CHECKED, class X>
TS_DEVICE void matmulWarptiledBlock(X& x, typename X::template GlobalPtr<const float> M,
                                    typename X::template GlobalPtr<const float> N,
                                    typename X::template GlobalPtr<float> P, int j, int k, int l)
{
    constexpr int BM = 2 * TILE, BN = TILE, BK = 8;   // the block's tile of P, a phase's depth
    constexpr int TM = 16, TN = 8;                     // the lane's tile of P
    constexpr int WM = 64, WN = 64;                    // the warp's tile of P
    constexpr int WARPS_N = BN / WN;                   // warps side by side in a block
    constexpr int LX = WN / TN;                        // lanes side by side in a warp (8)
    constexpr int THREADS = (BN / TN) * (BM / TM);
    constexpr int M_LOADS = BM * BK / 4 / THREADS;     // float4 of M per thread and phase
    constexpr int N_LOADS = BK * BN / 4 / THREADS;     // float4 of N per thread and phase
    // Mds rows padded by 4 floats, as on matmul-conflict-free: the transposed stores of a
    // warp (sixteen rows, two groups of four columns) land in 32 different banks
    constexpr int M_PAD = 4;
    TS_SHARED_2D(float, Mds, 2 * BK, BM + M_PAD);   // two buffers, transposed: Mds[buf*BK + c][r]
    TS_SHARED_2D(float, Nds, 2 * BK, BN);           // two buffers: Nds[buf*BK + r][c]

    int bx = x.blockIdx.x;  int by = x.blockIdx.y;
    int tx = x.threadIdx.x; int ty = x.threadIdx.y;
    int t = ty * (BN / TN) + tx;   // linear thread index: loads and warps use it
    int warp = t / 32, lane = t % 32;
    int wr = (warp / WARPS_N) * WM, wc = (warp % WARPS_N) * WN;   // the warp's tile in the block's
    int ly = lane / LX, lx = lane % LX;                             // the lane's place in the warp's

    constexpr int ROW_STEP = WM / (TM / 4), COL_STEP = WN / (TN / 4);   // 16 and 32: the pieces' distance
    float Pvalue[TM][TN];
    for (int m = 0; m < TM; ++m)
        for (int n = 0; n < TN; ++n)
            Pvalue[m][n] = 0;
    float Mreg[TM], Nreg[TN];
    float Mnext[M_LOADS][4], Nnext[N_LOADS][4];   // the next phase's elements, in flight

    // Phase s's tiles from global memory into registers, float4 where it can
    auto loadPhase = [&](int s) {
        for (int q = 0; q < M_LOADS; ++q) {
            const auto iteration = x.unrolled(q);
            int e = t + q * THREADS;
            int Row = by*BM + e / (BK / 4), Col = s*BK + 4 * (e % (BK / 4));
            if (!CHECKED || (k % 4 == 0 && Row < j && Col + 3 < k)) {
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
            if (!CHECKED || (l % 4 == 0 && Row < k && Col + 3 < l)) {
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
    };
    // The registers into buffer buf: M transposed, N in 128-bit stores
    auto storePhase = [&](int buf) {
        for (int q = 0; q < M_LOADS; ++q) {
            int e = t + q * THREADS;
            int r = e / (BK / 4), c = 4 * (e % (BK / 4));
            for (int d = 0; d < 4; ++d)
                Mds[buf*BK + c + d][r] = Mnext[q][d];
        }
        for (int q = 0; q < N_LOADS; ++q) {
            int e = t + q * THREADS;
            int r = e / (BN / 4), c = 4 * (e % (BN / 4));
            x.sts4(Nds[buf*BK + r], c, {Nnext[q][0], Nnext[q][1], Nnext[q][2], Nnext[q][3]});
        }
    };

    int phases = (k - 1) / BK + 1;
    loadPhase(0);
    storePhase(0);
    x.syncthreads();
    for (int ph = 0; ph < phases; ++ph) {
        // 1. The next phase's tiles start their way from global memory into registers
        if (ph + 1 < phases)
            loadPhase(ph + 1);
        // 2. This phase's tiles, in buffer ph % 2, multiplied: per column i of the M tile,
        //    four pieces of 4 elements of M and two of 4 elements of N
        int cur = ph % 2;
        TS_UNROLL
        for (int i = 0; i < BK; ++i) {
            for (int m = 0; m < TM; m += 4) {
                auto v = x.lds4(Mds[cur*BK + i], wr + (m / 4)*ROW_STEP + ly*4);
                Mreg[m] = v.x; Mreg[m + 1] = v.y; Mreg[m + 2] = v.z; Mreg[m + 3] = v.w;
            }
            for (int n = 0; n < TN; n += 4) {
                auto v = x.lds4(Nds[cur*BK + i], wc + (n / 4)*COL_STEP + lx*4);
                Nreg[n] = v.x; Nreg[n + 1] = v.y; Nreg[n + 2] = v.z; Nreg[n + 3] = v.w;
            }
            for (int m = 0; m < TM; ++m)
                for (int n = 0; n < TN; ++n)
                    Pvalue[m][n] = x.fmaf(Mreg[m], Nreg[n], Pvalue[m][n]);
        }
        // 3. The next phase's registers into the other buffer, which nobody reads in this
        //    phase (its tiles were multiplied in the phase before, ended by the barrier)
        if (ph + 1 < phases)
            storePhase((ph + 1) % 2);
        // 4. One barrier: the other buffer complete (read after write), this one free
        //    (write after read)
        x.syncthreads();
    }
    // P written four elements at a time where the row has them (128-bit stores), else
    // element by element with PMPP's check
    for (int m = 0; m < TM; ++m)
        for (int n = 0; n < TN; n += 4) {
            const auto iteration = x.unrolled(m*TN + n);   // simulator: see matmul_coarsened.cuh
            int Row = by*BM + wr + (m / 4)*ROW_STEP + ly*4 + m % 4;
            int Col = bx*BN + wc + (n / 4)*COL_STEP + lx*4;
            if (!CHECKED || (l % 4 == 0 && Row < j && Col + 3 < l)) {
                x.stg4(P, Row*l + Col, {Pvalue[m][n], Pvalue[m][n + 1], Pvalue[m][n + 2], Pvalue[m][n + 3]});
            } else {
                for (int c = 0; c < 4; ++c) {
                    const auto element = x.unrolled(m*TN + n + c);
                    if (Row < j && Col + c < l)
                        P[Row*l + Col + c] = Pvalue[m][n + c];
                }
            }
        }
}

/// P[j x l] = M[j x k] * N[k x l], row-major, as described above. A block whose 2T x T tile
/// of P lies inside P, in a problem whose k is a multiple of BK and whose rows of M and N
/// hold whole float4, skips the boundary checks: one test per block instead of one per
/// element, which the GPU otherwise pays on every load of every phase.
template <int TILE, class X>
TS_DEVICE void matmulWarptiled(X& x, typename X::template GlobalPtr<const float> M,
                               typename X::template GlobalPtr<const float> N,
                               typename X::template GlobalPtr<float> P, int j, int k, int l)
{
    const int BM = 2 * TILE, BN = TILE, BK = 8;
    int bx = x.blockIdx.x; int by = x.blockIdx.y;
    const bool inside = k % BK == 0 && l % 4 == 0 && (by + 1)*BM <= j && (bx + 1)*BN <= l;
    if (inside)
        matmulWarptiledBlock<TILE, false>(x, M, N, P, j, k, l);
    else
        matmulWarptiledBlock<TILE, true>(x, M, N, P, j, k, l);
}

}  // namespace ts::kernels
