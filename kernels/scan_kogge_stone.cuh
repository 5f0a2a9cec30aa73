// Kogge-Stone inclusive scan of one section: PMPP sec. 11.2, Fig. 11.3 (presets
// scan-kogge-stone-16 and scan-kogge-stone-race-16). The problem is stated in its registry
// row (sim/catalogue/kernel_registry.hpp). Single source: see kernels/context.cuh.
#pragma once
#include "context.cuh"

namespace ts::kernels {

/// Y[i] = X[0] + ... + X[i] over the block's section of SECTION_SIZE = blockDim.x elements,
/// one thread an element. At the step of stride s every thread t >= s adds XY[t - s] into
/// XY[t], so after log2(SECTION_SIZE) steps XY[t] holds the sum of its 2^k predecessors:
/// SECTION_SIZE * log2(SECTION_SIZE) - (SECTION_SIZE - 1) adds in all. Elements past N are
/// 0, the identity of +.
///
/// The sum goes through `temp` with a barrier between the reads and the write (AFTER_COMPUTE):
/// without it, thread t could overwrite XY[t] before thread t + s has read it for the same
/// step (a write after read, WAR), and t + s would add a sum from the next step. The barrier
/// at the top of the loop (AFTER_LOAD) makes the previous step's writes visible (RAW).
template <int SECTION_SIZE, class X>
TS_DEVICE void koggeStoneScan(X& x, typename X::template GlobalPtr<const float> X_in,
                              typename X::template GlobalPtr<float> Y, unsigned int N)
{
    TS_SHARED_1D(float, XY, SECTION_SIZE);
    unsigned int i = x.blockIdx.x*x.blockDim.x + x.threadIdx.x;
    if (i < N) {
        XY[x.threadIdx.x] = X_in[i];
    } else {
        XY[x.threadIdx.x] = 0.0f;
    }
    for (unsigned int stride = 1; x.branch(stride < x.blockDim.x); stride *= 2) {
        x.syncthreads(AFTER_LOAD);
        float temp = 0.0f;
        if (x.branch(x.threadIdx.x >= stride)) {
            temp = XY[x.threadIdx.x] + XY[x.threadIdx.x - stride];
        }
        x.syncthreads(AFTER_COMPUTE);
        if (x.branch(x.threadIdx.x >= stride)) {
            XY[x.threadIdx.x] = temp;
        }
    }
    if (i < N) {
        Y[i] = XY[x.threadIdx.x];
    }
}

}  // namespace ts::kernels
