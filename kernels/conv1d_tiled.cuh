// Tiled 1D convolution with halo: the block loads its input tile, TILE_SIZE internal
// elements plus Mask_Width/2 halo elements on each side, into N_ds, then computes from
// shared memory. PMPP 3rd ed. ch. 7 (the 4th edition's sec. 7.4 tiles in 2D only); preset
// conv1d-tiled-tile8-mask5 (docs/references.md). Ghost elements (halo or internal
// elements outside N) are 0. Single source: see kernels/context.cuh.
#pragma once
#include "context.cuh"

namespace ts::kernels {

/// P[i] = sum over j of N[i - Mask_Width/2 + j] * M[j], ghost elements 0; N and P have
/// Width elements, M (Mask_Width elements, odd, at most MAX_MASK_WIDTH) is in constant
/// memory. Block = TILE_SIZE threads, grid = ceil(Width / TILE_SIZE); needs TILE_SIZE >=
/// Mask_Width/2 (the halo is loaded by the last and the first Mask_Width/2 threads).
template <int TILE_SIZE, class X>
TS_DEVICE void conv1dTiled(X& x, typename X::template GlobalPtr<const float> N,
                           typename X::template GlobalPtr<float> P, int Mask_Width, int Width)
{
    auto&& M = x.mask1d();   // __constant__ float M[MAX_MASK_WIDTH]
    TS_SHARED_1D(float, N_ds, TILE_SIZE + MAX_MASK_WIDTH - 1);

    int bx = x.blockIdx.x; int tx = x.threadIdx.x;   // blockDim.x is TILE_SIZE
    int i = bx*TILE_SIZE + tx;

    int n = Mask_Width/2;

    // Left halo: the last n threads load the n elements before the tile (0 left of N)
    int halo_index_left = (bx - 1)*TILE_SIZE + tx;
    if (tx >= TILE_SIZE - n) {
        N_ds[tx - (TILE_SIZE - n)] = (halo_index_left < 0) ? 0.0f : N[halo_index_left];
    }

    // Internal elements: one per thread (0 past the end of N)
    N_ds[n + tx] = (i < Width) ? N[i] : 0.0f;

    // Right halo: the first n threads load the n elements after the tile (0 right of N)
    int halo_index_right = (bx + 1)*TILE_SIZE + tx;
    if (tx < n) {
        N_ds[n + TILE_SIZE + tx] = (halo_index_right >= Width) ? 0.0f : N[halo_index_right];
    }

    // Wait until the whole input tile is in N_ds (true dependence: read after write)
    x.syncthreads(AFTER_LOAD);

    float Pvalue = 0;
    for (int j = 0; j < Mask_Width; j++) {
        Pvalue += N_ds[tx + j]*M[j];
    }
    if (i < Width) P[i] = Pvalue;
}

}  // namespace ts::kernels
