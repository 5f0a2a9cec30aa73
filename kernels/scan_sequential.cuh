// The sequential inclusive scan that the parallel scans are measured against: PMPP sec. 11.1,
// Fig. 11.1, run by one thread (preset scan-sequential-16). The problem is stated in its
// registry row (sim/catalogue/kernel_registry.hpp). Single source: see kernels/context.cuh.
#pragma once
#include "context.cuh"

namespace ts::kernels {

/// Y[i] = X[0] + ... + X[i] for i < N, by one thread in index order: N - 1 adds, the fewest a
/// scan can do (PMPP's measure of a parallel scan's work efficiency). Launched as one block of
/// one thread; N >= 1.
template <class X>
TS_DEVICE void sequentialScan(X& x, typename X::template GlobalPtr<const float> X_in,
                              typename X::template GlobalPtr<float> Y, unsigned int N)
{
    if (x.threadIdx.x == 0) {
        Y[0] = X_in[0];
        for (unsigned int i = 1; x.branch(i < N); ++i) {
            Y[i] = Y[i - 1] + X_in[i];
        }
    }
}

}  // namespace ts::kernels
