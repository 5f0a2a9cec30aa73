// Convergent sum reduction in one block: PMPP sec. 10.4, Fig. 10.9 (presets
// reduction-convergent-16, -256 and -1024). The problem is stated in its registry row
// (sim/catalogue/kernel_registry.hpp). Single source: see kernels/context.cuh.
#pragma once
#include "context.cuh"

namespace ts::kernels {

/// output[0] = input[0] + ... + input[2*blockDim.x - 1], one block of blockDim.x threads (a
/// power of two), summed in place in `input`. Thread t owns element t; the stride starts at
/// blockDim.x and halves, and the threads below it add the element `stride` past their own.
/// The active threads stay packed at the front (Fig. 10.8), so a warp is either wholly active
/// or wholly idle until fewer than 32 threads are left: only the last five strides diverge,
/// in warp 0. Branches marked as in Fig. 10.6 (kernels/reduction_simple.cuh).
template <class X, class Input>
TS_DEVICE void convergentSumReduction(X& x, Input input, typename X::template GlobalPtr<float> output)
{
    unsigned int i = x.threadIdx.x;
    for (unsigned int stride = x.blockDim.x; x.branch(stride >= 1); stride /= 2) {
        if (x.branch(x.threadIdx.x < stride)) {
            input[i] += input[i + stride];
        }
        x.syncthreads();
    }
    if (x.threadIdx.x == 0) {
        output[0] = input[0];
    }
}

}  // namespace ts::kernels
