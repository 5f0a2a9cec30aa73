// Tiled matrix multiplication with boundary checks: PMPP sec. 5.4, Fig. 5.9, with the
// checks of sec. 5.5, Fig. 5.13, for M (j x k) times N (k x l) (presets tiled-4x4,
// boundary-3x3 and rectangular-3x5x4; docs/references.md). Single source: see
// kernels/context.cuh.
#pragma once
#include "context.cuh"

namespace ts::kernels {

/// P[j x l] = M[j x k] * N[k x l], row-major. Block = TILE_WIDTH x TILE_WIDTH threads,
/// grid = ceil(l / TILE_WIDTH) x ceil(j / TILE_WIDTH). In each phase the block loads one
/// TILE_WIDTH-square tile of M into Mds and one of N into Nds (0 where the tile leaves
/// the matrix), waits at a barrier, accumulates TILE_WIDTH products, and waits again.
template <int TILE_WIDTH, class X>
TS_DEVICE void matmulTiled(X& x, typename X::template GlobalPtr<const float> M,
                           typename X::template GlobalPtr<const float> N,
                           typename X::template GlobalPtr<float> P, int j, int k, int l)
{
    TS_SHARED_2D(float, Mds, TILE_WIDTH, TILE_WIDTH);
    TS_SHARED_2D(float, Nds, TILE_WIDTH, TILE_WIDTH);

    int bx = x.blockIdx.x;  int by = x.blockIdx.y;
    int tx = x.threadIdx.x; int ty = x.threadIdx.y;

    // Identify the row and column of the P element to work on
    int Row = by * TILE_WIDTH + ty;
    int Col = bx * TILE_WIDTH + tx;
    float Pvalue = 0;

    // Loop over the M and N tiles required to compute the P element
    for (int ph = 0; ph < (k - 1) / TILE_WIDTH + 1; ++ph) {
        // Collaborative loading of M and N tiles into shared memory
        if (Row < j && ph*TILE_WIDTH + tx < k)
            Mds[ty][tx] = M[Row*k + ph*TILE_WIDTH + tx];
        else
            Mds[ty][tx] = 0;
        if (ph*TILE_WIDTH + ty < k && Col < l)
            Nds[ty][tx] = N[(ph*TILE_WIDTH + ty)*l + Col];
        else
            Nds[ty][tx] = 0;
        // Wait until the whole tile is in shared memory (true dependence: read after write)
        x.syncthreads(AFTER_LOAD);

        if (Row < j && Col < l)
            for (int i = 0; i < TILE_WIDTH; ++i)
                Pvalue += Mds[ty][i] * Nds[i][tx];
        // Wait until every thread is done with the tile before it is overwritten in the
        // next phase (false dependence: write after read)
        x.syncthreads(AFTER_COMPUTE);
    }
    if (Row < j && Col < l)
        P[Row*l + Col] = Pvalue;
}

}  // namespace ts::kernels
