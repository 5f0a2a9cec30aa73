// Sum reduction in shared memory, one block: PMPP sec. 10.5, Fig. 10.11 (presets
// reduction-shared-16, -256 and -1024). The problem is stated in its registry row
// (sim/catalogue/kernel_registry.hpp). Single source: see kernels/context.cuh.
#pragma once
#include "context.cuh"

namespace ts::kernels {

/// output[0] = input[0] + ... + input[2*BLOCK_DIM - 1], one block of BLOCK_DIM threads (a
/// power of two). Each thread adds its two input elements, t and t + BLOCK_DIM, into
/// input_s[t]: global memory is read once and never written (`input` is read-only here, where
/// PMPP declares `float*`); the tree then runs in shared
/// memory as Fig. 10.9's does in global memory. The barrier at the top of the loop makes every
/// partial sum of the previous stride visible before it is read (a true dependence, RAW);
/// dropping it (AFTER_LOAD) is the race the hazard detector and compute-sanitizer's racecheck
/// both report.
template <int BLOCK_DIM, class X>
TS_DEVICE void sharedMemorySumReduction(X& x, typename X::template GlobalPtr<const float> input,
                                        typename X::template GlobalPtr<float> output)
{
    TS_SHARED_1D(float, input_s, BLOCK_DIM);
    unsigned int t = x.threadIdx.x;
    input_s[t] = input[t] + input[t + BLOCK_DIM];
    for (unsigned int stride = x.blockDim.x/2; x.branch(stride >= 1); stride /= 2) {
        x.syncthreads(AFTER_LOAD);
        if (x.branch(x.threadIdx.x < stride)) {
            input_s[t] += input_s[t + stride];
        }
    }
    if (x.threadIdx.x == 0) {
        output[0] = input_s[0];
    }
}

}  // namespace ts::kernels
