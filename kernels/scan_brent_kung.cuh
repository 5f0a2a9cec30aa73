// Brent-Kung inclusive scan of one section: PMPP sec. 11.4, Fig. 11.7 (preset
// scan-brent-kung-16). The problem is stated in its registry row
// (sim/catalogue/kernel_registry.hpp). Single source: see kernels/context.cuh.
#pragma once
#include "context.cuh"

namespace ts::kernels {

/// Y[i] = X[0] + ... + X[i] over a section of SECTION_SIZE = 2 * blockDim.x elements, two a
/// thread. The reduction tree (strides 1, 2, ..., blockDim.x) leaves partial sums at the
/// positions 2^k * m - 1, SECTION_SIZE - 1 adds; the distribution tree (strides
/// SECTION_SIZE/4 down to 1) pushes them to the positions between, SECTION_SIZE - 1 -
/// log2(SECTION_SIZE) adds: 2 * SECTION_SIZE - 2 - log2(SECTION_SIZE) in all, against
/// Kogge-Stone's SECTION_SIZE * log2(SECTION_SIZE) - (SECTION_SIZE - 1). Elements past N are 0
/// (PMPP leaves them unset; the trees read them).
template <int SECTION_SIZE, class X>
TS_DEVICE void brentKungScan(X& x, typename X::template GlobalPtr<const float> X_in,
                             typename X::template GlobalPtr<float> Y, unsigned int N)
{
    TS_SHARED_1D(float, XY, SECTION_SIZE);
    unsigned int i = 2*x.blockIdx.x*x.blockDim.x + x.threadIdx.x;
    if (i < N) XY[x.threadIdx.x] = X_in[i];
    else XY[x.threadIdx.x] = 0.0f;
    if (i + x.blockDim.x < N) XY[x.threadIdx.x + x.blockDim.x] = X_in[i + x.blockDim.x];
    else XY[x.threadIdx.x + x.blockDim.x] = 0.0f;
    // Reduction tree
    for (unsigned int stride = 1; x.branch(stride <= x.blockDim.x); stride *= 2) {
        x.syncthreads(AFTER_LOAD);
        unsigned int index = (x.threadIdx.x + 1)*2*stride - 1;
        if (x.branch(index < SECTION_SIZE)) {
            XY[index] += XY[index - stride];
        }
    }
    // Distribution tree
    for (unsigned int stride = SECTION_SIZE/4; x.branch(stride > 0); stride /= 2) {
        x.syncthreads(AFTER_LOAD);
        unsigned int index = (x.threadIdx.x + 1)*stride*2 - 1;
        if (x.branch(index + stride < SECTION_SIZE)) {
            XY[index + stride] += XY[index];
        }
    }
    x.syncthreads(AFTER_LOAD);
    if (i < N) Y[i] = XY[x.threadIdx.x];
    if (i + x.blockDim.x < N) Y[i + x.blockDim.x] = XY[x.threadIdx.x + x.blockDim.x];
}

}  // namespace ts::kernels
