// Simple sum reduction in one block: PMPP sec. 10.3, Fig. 10.6 (presets reduction-simple-16,
// -256 and -1024). The problem it solves, output[0] = the sum of input[N], is stated in its
// registry row (sim/catalogue/kernel_registry.hpp). Single source: see kernels/context.cuh.
#pragma once
#include "context.cuh"

namespace ts::kernels {

/// output[0] = input[0] + ... + input[2*blockDim.x - 1], one block of blockDim.x threads (a
/// power of two), summed in place in `input`. Thread t owns element 2t; at stride s the
/// threads whose index is a multiple of s add the element s past their own, so the active
/// threads spread out and every warp keeps some lanes busy while the stride is below 32:
/// those warps diverge at the `if` (Fig. 10.7). Both branches are marked with x.branch, which
/// counts per warp; the last `if` is left unmarked because nvcc compiles its single store to a
/// predicated instruction, not a branch. `input` is `float*` on the GPU.
template <class X, class Input>
TS_DEVICE void simpleSumReduction(X& x, Input input, typename X::template GlobalPtr<float> output)
{
    unsigned int i = 2*x.threadIdx.x;
    for (unsigned int stride = 1; x.branch(stride <= x.blockDim.x); stride *= 2) {
        if (x.branch(x.threadIdx.x % stride == 0)) {
            input[i] += input[i + stride];
        }
        x.syncthreads();
    }
    if (x.threadIdx.x == 0) {
        output[0] = input[0];
    }
}

}  // namespace ts::kernels
