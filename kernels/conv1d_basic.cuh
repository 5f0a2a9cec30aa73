// Basic 1D convolution: one thread per output element, every input element read from global
// memory; ghost elements (outside N) count as 0 and are skipped. The 1D basic kernel of the
// 3rd edition's PMPP ch. 7 (the 4th edition's sec. 7.2 shows it in 2D only), with the mask
// M in constant memory (sec. 7.3), so that global loads count N alone.
// Single source: see kernels/context.cuh.
#pragma once
#include "context.cuh"

namespace ts::kernels {

/// P[i] = sum over j of N[i - Mask_Width/2 + j] * M[j] for the j whose element lies inside
/// N (Width elements); M (Mask_Width elements, odd) is in constant memory. One thread per
/// element of P, blocks of blockDim.x threads; threads past the end of P do nothing.
template <class X>
TS_DEVICE void conv1dBasic(X& x, typename X::template GlobalPtr<const float> N,
                           typename X::template GlobalPtr<float> P, int Mask_Width, int Width)
{
    auto&& M = x.mask1d();   // __constant__ float M[MAX_MASK_WIDTH]

    int i = x.blockIdx.x*x.blockDim.x + x.threadIdx.x;

    if (i < Width) {
        float Pvalue = 0;
        int N_start_point = i - (Mask_Width/2);
        for (int j = 0; j < Mask_Width; j++) {
            if (N_start_point + j >= 0 && N_start_point + j < Width) {
                Pvalue += N[N_start_point + j]*M[j];
            }
        }
        P[i] = Pvalue;
    }
}

}  // namespace ts::kernels
