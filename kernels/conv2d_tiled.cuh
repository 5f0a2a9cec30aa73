// Tiled 2D convolution: a block as large as the input tile, (TILE_SIZE + Mask_Width - 1)
// squared threads; every thread loads one input element into N_ds (0 for ghost cells),
// the TILE_SIZE x TILE_SIZE threads of the output tile compute. PMPP sec. 7.4 (tiled
// convolution with halo cells: a block per input tile, the threads outside the output
// tile idle while computing); preset conv2d-tiled-tile8-mask5, "Example: 8x8 output tile
// in 2D" in docs/references.md. Single source: see kernels/context.cuh.
#pragma once
#include "context.cuh"

namespace ts::kernels {

/// P[r][c] = sum over i, j of Mc[i][j] * N[r - Mask_Width/2 + i][c - Mask_Width/2 + j],
/// ghost cells 0; N and P are height x width, row-major; Mc (Mask_Width squared, odd, at
/// most MAX_MASK_WIDTH per side) is in constant memory. Block = (TILE_SIZE + Mask_Width -
/// 1) squared threads, grid = ceil(width / TILE_SIZE) x ceil(height / TILE_SIZE).
template <int TILE_SIZE, class X>
TS_DEVICE void conv2dTiled(X& x, typename X::template GlobalPtr<const float> N,
                           typename X::template GlobalPtr<float> P, int Mask_Width, int height,
                           int width)
{
    auto&& Mc = x.mask2d();   // __constant__ float Mc[MAX_MASK_WIDTH][MAX_MASK_WIDTH]
    TS_SHARED_2D(float, N_ds, TILE_SIZE + MAX_MASK_WIDTH - 1, TILE_SIZE + MAX_MASK_WIDTH - 1);

    int tx = x.threadIdx.x;
    int ty = x.threadIdx.y;
    int row_o = x.blockIdx.y*TILE_SIZE + ty;
    int col_o = x.blockIdx.x*TILE_SIZE + tx;

    int row_i = row_o - Mask_Width/2;
    int col_i = col_o - Mask_Width/2;

    float output = 0.0f;

    // Every thread loads one element of the input tile; threads that load halos outside N
    // store 0 (ghost cells)
    if ((row_i >= 0) && (row_i < height) && (col_i >= 0) && (col_i < width)) {
        N_ds[ty][tx] = N[row_i*width + col_i];
    } else {
        N_ds[ty][tx] = 0.0f;
    }

    // Wait until the whole input tile is in N_ds (true dependence: read after write)
    x.syncthreads(AFTER_LOAD);

    // Only the TILE_SIZE x TILE_SIZE threads of the output tile compute
    if (ty < TILE_SIZE && tx < TILE_SIZE) {
        for (int i = 0; i < Mask_Width; i++) {
            for (int j = 0; j < Mask_Width; j++) {
                output += Mc[i][j]*N_ds[i + ty][j + tx];
            }
        }
        // and only those inside P write
        if (row_o < height && col_o < width) {
            P[row_o*width + col_o] = output;
        }
    }
}

}  // namespace ts::kernels
