// Matrix multiplication with a 2D register tile and 128-bit memory accesses: matmul-regtile-2d
// with M's tile stored transposed in shared memory, so that a thread's TM elements of a
// column of the M tile lie side by side, and every load of four neighbouring floats from
// global or shared memory one 128-bit instruction (float4). A rung of the optimisation
// ladder (docs/ladder.md; kLadderRungs orders them); boundary checks as PMPP sec. 5.5, with
// four scalar loads where a float4 would leave the matrix or start off a 16-byte boundary.
// Single source: see kernels/context.cuh.
#pragma once
#include "context.cuh"

namespace ts::kernels {

/// P[j x l] = M[j x k] * N[k x l], row-major. As matmulRegtile2d: a block computes a
/// TILE x TILE tile of P with (TILE/8)^2 threads, thread (tx, ty) an 8 x 8 tile at rows
/// by*BM + ty*TM and columns bx*BN + tx*TN; phases of BK = 8. Mds is BK x BM (transposed:
/// Mds[c][r] holds element (r, c) of the M tile). Each thread loads BM*BK / 4 / threads
/// float4 of M and as many of N per phase.
template <int TILE, class X>
TS_DEVICE void matmulVectorized(X& x, typename X::template GlobalPtr<const float> M,
                                typename X::template GlobalPtr<const float> N,
                                typename X::template GlobalPtr<float> P, int j, int k, int l)
{
    constexpr int BM = TILE, BN = TILE;   // the block's tile of P
    constexpr int BK = 8;                 // columns of M (rows of N) per phase
    constexpr int TM = 8, TN = 8;         // the thread's tile of P
    constexpr int THREADS = (BN / TN) * (BM / TM);
    TS_SHARED_2D(float, Mds, BK, BM);     // transposed: Mds[c][r]
    TS_SHARED_2D(float, Nds, BK, BN);

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

    for (int ph = 0; ph < (k - 1) / BK + 1; ++ph) {
        // M tile: float4 number e covers row e / (BK/4), columns 4*(e % (BK/4)) .. + 3
        for (int e = t; e < BM * BK / 4; e += THREADS) {
            const auto iteration = x.unrolled(e / THREADS);
            int r = e / (BK / 4), c = 4 * (e % (BK / 4));
            int Row = by*BM + r, Col = ph*BK + c;
            if (k % 4 == 0 && Row < j && Col + 3 < k) {
                auto v = x.ldg4(M, Row*k + Col);
                Mds[c][r] = v.x; Mds[c + 1][r] = v.y; Mds[c + 2][r] = v.z; Mds[c + 3][r] = v.w;
            } else {
                for (int q = 0; q < 4; ++q) {
                    const auto element = x.unrolled(e / THREADS * 4 + q);
                    if (Row < j && Col + q < k)
                        Mds[c + q][r] = M[Row*k + Col + q];
                    else
                        Mds[c + q][r] = 0;
                }
            }
        }
        // N tile: float4 number e covers row e / (BN/4), columns 4*(e % (BN/4)) .. + 3
        for (int e = t; e < BK * BN / 4; e += THREADS) {
            const auto iteration = x.unrolled(e / THREADS);
            int r = e / (BN / 4), c = 4 * (e % (BN / 4));
            int Row = ph*BK + r, Col = bx*BN + c;
            if (l % 4 == 0 && Row < k && Col + 3 < l) {
                x.sts4(Nds[r], c, x.ldg4(N, Row*l + Col));
            } else {
                for (int q = 0; q < 4; ++q) {
                    const auto element = x.unrolled(e / THREADS * 4 + q);
                    if (Row < k && Col + q < l)
                        Nds[r][c + q] = N[Row*l + Col + q];
                    else
                        Nds[r][c + q] = 0;
                }
            }
        }
        // Wait until both tiles are in shared memory (read after write)
        x.syncthreads(AFTER_LOAD);

        for (int i = 0; i < BK; ++i) {
            // Two 128-bit loads for the TM elements of M, two for the TN of N
            for (int m = 0; m < TM; m += 4) {
                auto v = x.lds4(Mds[i], ty*TM + m);
                Mreg[m] = v.x; Mreg[m + 1] = v.y; Mreg[m + 2] = v.z; Mreg[m + 3] = v.w;
            }
            for (int n = 0; n < TN; n += 4) {
                auto v = x.lds4(Nds[i], tx*TN + n);
                Nreg[n] = v.x; Nreg[n + 1] = v.y; Nreg[n + 2] = v.z; Nreg[n + 3] = v.w;
            }
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
