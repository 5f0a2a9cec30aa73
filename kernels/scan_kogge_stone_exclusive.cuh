// Kogge-Stone exclusive scan of one section: PMPP sec. 11.2 (its exclusive scan, Fig. 11.3's
// network on the input shifted by one). The problem is stated in its registry row
// (sim/catalogue/kernel_registry.hpp). Single source: see kernels/context.cuh.
#pragma once
#include "context.cuh"

namespace ts::kernels {

/// The exclusive scan by the same network (PMPP sec. 11.2, end): Y[i] = X[0] + ... + X[i - 1],
/// Y[0] = 0. Thread t loads X[i - 1] instead of X[i], and thread 0 loads the identity 0, so
/// the inclusive network leaves each element the sum of those before it.
template <int SECTION_SIZE, class X>
TS_DEVICE void koggeStoneExclusiveScan(X& x, typename X::template GlobalPtr<const float> X_in,
                                       typename X::template GlobalPtr<float> Y, unsigned int N)
{
    TS_SHARED_1D(float, XY, SECTION_SIZE);
    unsigned int i = x.blockIdx.x*x.blockDim.x + x.threadIdx.x;
    if (i < N && x.threadIdx.x != 0) {
        XY[x.threadIdx.x] = X_in[i - 1];
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
