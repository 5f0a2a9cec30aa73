// Tiled matrix multiplication with the N tile stored transposed in a padded array: the
// kernel of matmul_tiled_nds_transposed.cuh (matmul-tiled, PMPP sec. 5.4, Fig. 5.9 and
// sec. 5.5, Fig. 5.13, with the N tile corner-turned as in sec. 6.1), but Nds has one
// column more than the tile needs. A row of Nds is then TILE_WIDTH + 1 words long, an odd
// number, so the words Nds[tx][i] that consecutive lanes read lie in consecutive banks of
// shared memory (32 banks of 4-byte words, the model of sim/engine/warp_memory.hpp) and a warp's
// read is served in one pass. The extra column is never written or read. Preset
// nds-padded-64-tile16 (docs/references.md). Single source: see kernels/context.cuh.
#pragma once
#include "context.cuh"

namespace ts::kernels {

/// P[j x l] = M[j x k] * N[k x l], row-major, as matmulTiled computes it: block =
/// TILE_WIDTH x TILE_WIDTH threads, grid = ceil(l / TILE_WIDTH) x ceil(j / TILE_WIDTH),
/// one phase per TILE_WIDTH columns of M, 0 where a tile leaves the matrix, barriers
/// AFTER_LOAD and AFTER_COMPUTE. Nds is TILE_WIDTH x (TILE_WIDTH + 1); Nds[c][r] holds
/// element (r, c) of the phase's N tile and column TILE_WIDTH is padding.
template <int TILE_WIDTH, class X>
TS_DEVICE void matmulTiledNdsPadded(X& x, typename X::template GlobalPtr<const float> M,
                                    typename X::template GlobalPtr<const float> N,
                                    typename X::template GlobalPtr<float> P, int j, int k, int l)
{
    TS_SHARED_2D(float, Mds, TILE_WIDTH, TILE_WIDTH);
    // One padding column: row tx of Nds starts tx*(TILE_WIDTH + 1) words in, so lane tx
    // lands in bank (tx*(TILE_WIDTH + 1) + i) mod 32, a different bank for every tx
    TS_SHARED_2D(float, Nds, TILE_WIDTH, TILE_WIDTH + 1);

    int bx = x.blockIdx.x;  int by = x.blockIdx.y;
    int tx = x.threadIdx.x; int ty = x.threadIdx.y;

    // Identify the row and column of the P element to work on
    int Row = by * TILE_WIDTH + ty;
    int Col = bx * TILE_WIDTH + tx;
    float Pvalue = 0;

    // Loop over the M and N tiles required to compute the P element
    for (int ph = 0; ph < (k - 1) / TILE_WIDTH + 1; ++ph) {
        // Collaborative loading of M and N tiles into shared memory, N transposed
        if (Row < j && ph*TILE_WIDTH + tx < k)
            Mds[ty][tx] = M[Row*k + ph*TILE_WIDTH + tx];
        else
            Mds[ty][tx] = 0;
        if (ph*TILE_WIDTH + ty < k && Col < l)
            Nds[tx][ty] = N[(ph*TILE_WIDTH + ty)*l + Col];
        else
            Nds[tx][ty] = 0;
        // Wait until the whole tile is in shared memory (true dependence: read after write)
        x.syncthreads(AFTER_LOAD);

        // The same reads as the transposed kernel, now one bank per lane: no conflict
        if (Row < j && Col < l)
            for (int i = 0; i < TILE_WIDTH; ++i)
                Pvalue += Mds[ty][i] * Nds[tx][i];
        // Wait until every thread is done with the tile before it is overwritten in the
        // next phase (false dependence: write after read)
        x.syncthreads(AFTER_COMPUTE);
    }
    if (Row < j && Col < l)
        P[Row*l + Col] = Pvalue;
}

}  // namespace ts::kernels
