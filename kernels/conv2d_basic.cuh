// Basic 2D convolution: one thread per output element, every input element read from global
// memory; ghost cells (outside N) count as 0 and are skipped. PMPP sec. 7.2 (the basic
// kernel) and sec. 7.1 (ghost cells), with the mask in constant memory (sec. 7.3) as in the
// tiled kernel; the untiled counterpart of preset conv2d-tiled-tile8-mask5.
// Single source: see kernels/context.cuh.
#pragma once
#include "context.cuh"

namespace ts::kernels {

/// P[r][c] = sum over i, j of Mc[i][j] * N[r - Mask_Width/2 + i][c - Mask_Width/2 + j] for
/// the cells inside N; N and P are height x width, row-major; Mc (Mask_Width squared, odd)
/// is in constant memory. One thread per element of P, blocks of blockDim.x by blockDim.y
/// threads; threads outside P do nothing.
template <class X>
TS_DEVICE void conv2dBasic(X& x, typename X::template GlobalPtr<const float> N,
                           typename X::template GlobalPtr<float> P, int Mask_Width, int height,
                           int width)
{
    auto&& Mc = x.mask2d();   // __constant__ float Mc[MAX_MASK_WIDTH][MAX_MASK_WIDTH]

    int Row = x.blockIdx.y*x.blockDim.y + x.threadIdx.y;
    int Col = x.blockIdx.x*x.blockDim.x + x.threadIdx.x;

    if (Row < height && Col < width) {
        float Pvalue = 0;
        int N_start_row = Row - (Mask_Width/2);
        int N_start_col = Col - (Mask_Width/2);
        for (int i = 0; i < Mask_Width; i++) {
            for (int j = 0; j < Mask_Width; j++) {
                int row_i = N_start_row + i;
                int col_i = N_start_col + j;
                if (row_i >= 0 && row_i < height && col_i >= 0 && col_i < width) {
                    Pvalue += Mc[i][j]*N[row_i*width + col_i];
                }
            }
        }
        P[Row*width + Col] = Pvalue;
    }
}

}  // namespace ts::kernels
