// Tiled matrix multiplication with the N tile stored transposed: matmul-tiled (PMPP sec. 5.4,
// Fig. 5.9, with the boundary checks of sec. 5.5, Fig. 5.13) except that thread (tx, ty)
// puts its element of N into Nds[tx][ty] and reads Nds[tx][i]. Storing a tile with its axes
// swapped is what PMPP sec. 6.1 calls corner turning (there it makes the global reads of a
// column-major input coalesced); here the global reads stay coalesced as in matmul-tiled,
// and the cost shows in shared memory instead. Shared memory is 32 banks of 4-byte words
// (the model of sim/engine/warp_memory.hpp): the lanes of a warp, consecutive in tx, read words
// TILE_WIDTH apart, which fall into 2 banks at TILE_WIDTH 16 and into 1 at 32, so each read
// is served one word of a bank at a time, a bank conflict. P comes out the same, bit for
// bit. Preset nds-transposed-64-tile16 (docs/references.md); matmul_tiled_nds_padded.cuh
// removes the conflict. Single source: see kernels/context.cuh.
#pragma once
#include "context.cuh"

namespace ts::kernels {

/// P[j x l] = M[j x k] * N[k x l], row-major, as matmulTiled computes it: block =
/// TILE_WIDTH x TILE_WIDTH threads, grid = ceil(l / TILE_WIDTH) x ceil(j / TILE_WIDTH),
/// one phase per TILE_WIDTH columns of M, 0 where a tile leaves the matrix, barriers
/// AFTER_LOAD and AFTER_COMPUTE. Nds[c][r] holds element (r, c) of the phase's N tile.
template <int TILE_WIDTH, class X>
TS_DEVICE void matmulTiledNdsTransposed(X& x, typename X::template GlobalPtr<const float> M,
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
        // Collaborative loading of M and N tiles into shared memory; the global reads are
        // those of matmul-tiled (coalesced), only the N tile is stored with its axes swapped
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

        // Lanes tx and tx + 1 read Nds[tx][i] and Nds[tx + 1][i], TILE_WIDTH words apart:
        // at TILE_WIDTH 16 a warp's 16 words fall into 2 banks (8-way conflict), at 32 into 1
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
