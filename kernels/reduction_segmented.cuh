// Segmented sum reduction over many blocks with atomicAdd: PMPP sec. 10.7, Fig. 10.13
// (presets reduction-segmented-*). The problem is stated in its registry row
// (sim/catalogue/kernel_registry.hpp). Single source: see kernels/context.cuh.
#pragma once
#include "context.cuh"

namespace ts::kernels {

/// *output += input[0] + ... + input[N - 1] (output starts at 0). Block b sums its segment of
/// 2*BLOCK_DIM elements from 2*BLOCK_DIM*b as Fig. 10.11 does in shared memory, and its
/// thread 0 adds the block's sum to the total with one atomicAdd. An element past the end of
/// the input counts as 0, the identity of +, so N need not be a multiple of 2*BLOCK_DIM (PMPP
/// assumes it is); nvcc makes those two guarded loads predicated loads, not branches.
template <int BLOCK_DIM, class X>
TS_DEVICE void segmentedSumReduction(X& x, typename X::template GlobalPtr<const float> input,
                                     typename X::template GlobalPtr<float> output, unsigned int N)
{
    TS_SHARED_1D(float, input_s, BLOCK_DIM);
    unsigned int segment = 2*x.blockDim.x*x.blockIdx.x;
    unsigned int i = segment + x.threadIdx.x;
    unsigned int t = x.threadIdx.x;
    float first = i < N ? input[i] : 0.0f;
    float second = i + BLOCK_DIM < N ? input[i + BLOCK_DIM] : 0.0f;
    input_s[t] = first + second;
    for (unsigned int stride = x.blockDim.x/2; x.branch(stride >= 1); stride /= 2) {
        x.syncthreads(AFTER_LOAD);
        if (x.branch(t < stride)) {
            input_s[t] += input_s[t + stride];
        }
    }
    if (t == 0) {
        x.atomicAdd(output, input_s[0]);
    }
}

}  // namespace ts::kernels
