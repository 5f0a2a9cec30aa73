// Hierarchical scan of any length: PMPP sec. 11.6 (presets scan-hierarchical-64 and
// scan-hierarchical-sums-64). Three kernels, launched one after the other on the same
// arrays: each block scans its section and writes the section's sum to S; one block scans S;
// each block after the first adds the sum of the sections before it. The problem and the
// three launches are stated in its registry row (sim/catalogue/kernel_registry.hpp,
// KernelInfo::laterGrids). Single source: see kernels/context.cuh.
#pragma once
#include "context.cuh"

namespace ts::kernels {

/// Launch 1, grid (N + SECTION_SIZE - 1) / SECTION_SIZE: Y[i] = the inclusive scan of X within
/// the block's section of SECTION_SIZE = blockDim.x elements (Fig. 11.3's Kogge-Stone loop),
/// and S[blockIdx.x] = the section's sum, which the block's last thread holds in XY. Elements
/// past N are 0, so the last, ragged section's sum is that of its elements.
template <int SECTION_SIZE, class X>
TS_DEVICE void scanSectionsKernel(X& x, typename X::template GlobalPtr<const float> X_in,
                                  typename X::template GlobalPtr<float> Y, unsigned int N,
                                  typename X::template GlobalPtr<float> S)
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
    x.syncthreads();
    if (x.threadIdx.x == x.blockDim.x - 1) {
        S[x.blockIdx.x] = XY[SECTION_SIZE - 1];
    }
}

/// Launch 2, one block: S[0 .. numSections - 1] scanned in place with the same loop, so that
/// S[b] becomes the sum of sections 0 to b. numSections is at most SECTION_SIZE (the row's
/// validation: N at most BLOCK_DIM x BLOCK_DIM).
template <int SECTION_SIZE, class X>
TS_DEVICE void scanBlockSumsKernel(X& x, typename X::template GlobalPtr<float> S, unsigned int numSections)
{
    TS_SHARED_1D(float, XY, SECTION_SIZE);
    if (x.threadIdx.x < numSections) {
        XY[x.threadIdx.x] = S[x.threadIdx.x];
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
    if (x.threadIdx.x < numSections) {
        S[x.threadIdx.x] = XY[x.threadIdx.x];
    }
}

/// Launch 3, the grid of launch 1: every element of section b > 0 gets S[b - 1], the sum of
/// every section before it; section 0 is already final.
template <class X>
TS_DEVICE void addBlockSumsKernel(X& x, typename X::template GlobalPtr<float> Y, unsigned int N,
                                  typename X::template GlobalPtr<float> S)
{
    unsigned int i = x.blockIdx.x*x.blockDim.x + x.threadIdx.x;
    if (x.blockIdx.x > 0 && i < N) {
        Y[i] += S[x.blockIdx.x - 1];
    }
}

}  // namespace ts::kernels
