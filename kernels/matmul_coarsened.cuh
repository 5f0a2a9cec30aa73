// Tiled matrix multiplication with thread coarsening: PMPP sec. 6.3 (Fig. 6.13), with the
// boundary checks of sec. 5.5 (Fig. 5.13), for M (j x k) times N (k x l). A rung of the
// optimisation ladder (docs/ladder.md; kLadderRungs orders them). Single source: see
// kernels/context.cuh.
#pragma once
#include "context.cuh"

namespace ts::kernels {

/// P[j x l] = M[j x k] * N[k x l], row-major. Block = TILE_WIDTH x TILE_WIDTH threads, each
/// computing COARSE_FACTOR elements of P in one row, TILE_WIDTH columns apart; grid =
/// ceil(l / (TILE_WIDTH * COARSE_FACTOR)) x ceil(j / TILE_WIDTH). In each phase the block
/// loads its tile of M into Mds once and reuses it for COARSE_FACTOR tiles of N, loaded into
/// Nds one after the other: the M tile is read from global memory once instead of
/// COARSE_FACTOR times (by COARSE_FACTOR blocks).
template <int TILE_WIDTH, int COARSE_FACTOR, class X>
TS_DEVICE void matmulCoarsened(X& x, typename X::template GlobalPtr<const float> M,
                               typename X::template GlobalPtr<const float> N,
                               typename X::template GlobalPtr<float> P, int j, int k, int l)
{
    TS_SHARED_2D(float, Mds, TILE_WIDTH, TILE_WIDTH);
    TS_SHARED_2D(float, Nds, TILE_WIDTH, TILE_WIDTH);

    int bx = x.blockIdx.x;  int by = x.blockIdx.y;
    int tx = x.threadIdx.x; int ty = x.threadIdx.y;

    // Identify the row and the first column of the P elements to work on
    int Row = by * TILE_WIDTH + ty;
    int colStart = bx * TILE_WIDTH * COARSE_FACTOR + tx;

    // One running sum per P element of this thread
    float Pvalue[COARSE_FACTOR];
    for (int c = 0; c < COARSE_FACTOR; ++c)
        Pvalue[c] = 0;

    // Loop over the M and N tiles required to compute the P elements
    for (int ph = 0; ph < (k - 1) / TILE_WIDTH + 1; ++ph) {
        // Collaborative loading of the M tile into shared memory, once per phase
        if (Row < j && ph*TILE_WIDTH + tx < k)
            Mds[ty][tx] = M[Row*k + ph*TILE_WIDTH + tx];
        else
            Mds[ty][tx] = 0;

        for (int c = 0; c < COARSE_FACTOR; ++c) {
            int Col = colStart + c * TILE_WIDTH;
            // Collaborative loading of the c-th N tile into shared memory
            if (ph*TILE_WIDTH + ty < k && Col < l)
                Nds[ty][tx] = N[(ph*TILE_WIDTH + ty)*l + Col];
            else
                Nds[ty][tx] = 0;
            // Wait until both tiles are in shared memory (read after write)
            x.syncthreads(AFTER_LOAD);

            if (Row < j && Col < l)
                for (int i = 0; i < TILE_WIDTH; ++i)
                    Pvalue[c] += Mds[ty][i] * Nds[i][tx];
            // Wait until every thread is done with Nds (and, after the last c, with Mds)
            // before they are overwritten (write after read)
            x.syncthreads(AFTER_COMPUTE);
        }
    }
    for (int c = 0; c < COARSE_FACTOR; ++c) {
        // For the simulator: this iteration's store is an instruction of its own, as in the
        // loop nvcc unrolls, so lanes that skip one store do not shift the next (see
        // x.unrolled in docs/design.md; nothing on the GPU)
        const auto iteration = x.unrolled(c);
        int Col = colStart + c * TILE_WIDTH;
        if (Row < j && Col < l)
            P[Row*l + Col] = Pvalue[c];
    }
}

}  // namespace ts::kernels
