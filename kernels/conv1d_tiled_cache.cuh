// Tiled 1D convolution that keeps only the internal tile in shared memory and reads the
// halo elements from global memory, counting on the caches to hold them (they are the
// neighbouring blocks' internal elements). PMPP sec. 7.5 (in 2D; this 1D kernel follows the
// 3rd edition); preset conv1d-tiled-cache-tile8-mask5. Single source: kernels/context.cuh.
#pragma once
#include "context.cuh"

namespace ts::kernels {

/// P[i] = sum over j of N[i - Mask_Width/2 + j] * M[j] for the j whose element lies inside
/// N (Width elements); M (Mask_Width elements, odd) is in constant memory. Block =
/// TILE_SIZE threads, grid = ceil(Width / TILE_SIZE). Threads past the end of P load their
/// (ghost) slot and reach the barrier, but compute nothing.
template <int TILE_SIZE, class X>
TS_DEVICE void conv1dTiledCache(X& x, typename X::template GlobalPtr<const float> N,
                                typename X::template GlobalPtr<float> P, int Mask_Width,
                                int Width)
{
    auto&& M = x.mask1d();   // __constant__ float M[MAX_MASK_WIDTH]
    TS_SHARED_1D(float, N_ds, TILE_SIZE);

    int bx = x.blockIdx.x; int tx = x.threadIdx.x;   // blockDim.x is TILE_SIZE
    int i = bx*TILE_SIZE + tx;

    N_ds[tx] = (i < Width) ? N[i] : 0.0f;

    // Wait until the whole internal tile is in N_ds (true dependence: read after write)
    x.syncthreads(AFTER_LOAD);

    int This_tile_start_point = bx * TILE_SIZE;
    int Next_tile_start_point = (bx + 1) * TILE_SIZE;
    int N_start_point = i - (Mask_Width/2);
    if (i < Width) {
        float Pvalue = 0;
        for (int j = 0; j < Mask_Width; j++) {
            int N_index = N_start_point + j;
            if (N_index >= 0 && N_index < Width) {
                if ((N_index >= This_tile_start_point) && (N_index < Next_tile_start_point)) {
                    Pvalue += N_ds[tx + j - (Mask_Width/2)]*M[j];
                } else {
                    Pvalue += N[N_index]*M[j];
                }
            }
        }
        P[i] = Pvalue;
    }
}

}  // namespace ts::kernels
