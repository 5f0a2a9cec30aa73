// Tiled matrix multiplication with corner turning: PMPP sec. 6.1 (memory coalescing). The
// input N is stored column-major, so element (r, c) of N sits at N[c*k + r] and a column
// of N, not a row, is contiguous in memory. matmul-tiled's N load, thread (tx, ty) fetching
// element (ph*TILE_WIDTH + ty, Col), would send the lanes of a warp, consecutive in tx, to
// consecutive columns, k elements apart: one 32-byte sector per lane. Here the block turns
// the corner instead: thread (tx, ty) fetches element (ph*TILE_WIDTH + tx,
// bx*TILE_WIDTH + ty), so consecutive lanes walk down one column, through consecutive
// addresses (a coalesced read), and writes it to Nds[tx][ty]. Nds[r][c] then holds element
// (r, c) of the phase's tile of N, as in matmul-tiled, and the multiply-add loop is
// unchanged. Everything else (M's tile, the boundary checks with zero fill of sec. 5.5, the
// two barriers) is matmul-tiled's, and P comes out the same, bit for bit. The price is
// paid in shared memory, once per phase: the store to Nds[tx][ty] puts consecutive lanes
// TILE_WIDTH words apart, a bank conflict (sim/engine/warp_memory.hpp), cheaper than a sector per
// lane of global memory. Preset
// corner-turning-64-tile16 (docs/references.md). Single source: see kernels/context.cuh.
#pragma once
#include "context.cuh"

namespace ts::kernels {

/// P[j x l] = M[j x k] * N[k x l]; M and P row-major, N column-major (element (r, c) at
/// N[c*k + r]). Block = TILE_WIDTH x TILE_WIDTH threads, grid = ceil(l / TILE_WIDTH) x
/// ceil(j / TILE_WIDTH), one phase per TILE_WIDTH columns of M, 0 where a tile leaves the
/// matrix, barriers AFTER_LOAD and AFTER_COMPUTE. Nds[r][c] holds element (r, c) of the
/// phase's N tile; thread (tx, ty) loads it for r = tx, c = ty (the corner turned).
template <int TILE_WIDTH, class X>
TS_DEVICE void matmulCornerTurning(X& x, typename X::template GlobalPtr<const float> M,
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
        // Collaborative loading of M and N tiles into shared memory. M as in matmul-tiled;
        // for the column-major N, tx runs down a column of the tile (consecutive addresses)
        // and ty across its columns, and the element lands in Nds[tx][ty]
        if (Row < j && ph*TILE_WIDTH + tx < k)
            Mds[ty][tx] = M[Row*k + ph*TILE_WIDTH + tx];
        else
            Mds[ty][tx] = 0;
        if (ph*TILE_WIDTH + tx < k && bx*TILE_WIDTH + ty < l)
            Nds[tx][ty] = N[(bx*TILE_WIDTH + ty)*k + ph*TILE_WIDTH + tx];
        else
            Nds[tx][ty] = 0;
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
