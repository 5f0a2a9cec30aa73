// Naive matrix multiplication: one thread per element of P, every operand read from global
// memory. PMPP sec. 3.4 (the basic kernel, revisited in sec. 5.1), generalised to
// M (j x k) times N (k x l) (presets naive-4x4 and rectangular-3x5x4; docs/references.md).
// Single source: see kernels/context.cuh.
#pragma once
#include "context.cuh"

namespace ts::kernels {

/// P[j x l] = M[j x k] * N[k x l], row-major, one thread per P element; the block is
/// blockDim.x by blockDim.y threads. Threads outside P do nothing.
template <class X>
TS_DEVICE void matmulNaive(X& x, typename X::template GlobalPtr<const float> M,
                           typename X::template GlobalPtr<const float> N,
                           typename X::template GlobalPtr<float> P, int j, int k, int l)
{
    // Calculate the row index of the P element and M
    int Row = x.blockIdx.y * x.blockDim.y + x.threadIdx.y;
    // Calculate the column index of P and N
    int Col = x.blockIdx.x * x.blockDim.x + x.threadIdx.x;

    if ((Row < j) && (Col < l)) {
        float Pvalue = 0;
        // each thread computes one element of P
        for (int i = 0; i < k; ++i) {
            Pvalue += M[Row*k + i] * N[i*l + Col];
        }
        P[Row*l + Col] = Pvalue;
    }
}

}  // namespace ts::kernels
