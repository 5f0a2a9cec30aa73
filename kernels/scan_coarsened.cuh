// The three-phase scan with thread coarsening: PMPP sec. 11.5 (preset
// scan-coarsened-16). The problem is stated in its registry row
// (sim/catalogue/kernel_registry.hpp). Single source: see kernels/context.cuh.
#pragma once
#include "context.cuh"

namespace ts::kernels {

/// Elements a thread of the coarsened scan owns: its subsection of XY.
inline constexpr unsigned int SCAN_COARSE_FACTOR = 4;

/// Y[i] = X[0] + ... + X[i] over a section of SECTION_SIZE = SCAN_COARSE_FACTOR * blockDim.x
/// elements. The block loads the section coalesced (consecutive threads, consecutive
/// elements), then:
///  1. each thread scans its own subsection of SCAN_COARSE_FACTOR elements sequentially;
///  2. the block scans the subsections' last elements with Fig. 11.3's Kogge-Stone network;
///  3. each thread but the first adds the previous subsection's last element to its elements
///     but its last.
/// Adds: blockDim.x * (CF - 1) in phase 1, blockDim.x * log2(blockDim.x) - (blockDim.x - 1)
/// in phase 2, (blockDim.x - 1) * (CF - 1) in phase 3: near the sequential N - 1 when the
/// subsections are long, with the parallel network over blockDim.x elements only.
template <int SECTION_SIZE, class X>
TS_DEVICE void coarsenedScan(X& x, typename X::template GlobalPtr<const float> X_in,
                             typename X::template GlobalPtr<float> Y, unsigned int N)
{
    TS_SHARED_1D(float, XY, SECTION_SIZE);
    unsigned int segment = SECTION_SIZE*x.blockIdx.x;
    for (unsigned int j = 0; j < SCAN_COARSE_FACTOR; ++j) {
        unsigned int s = j*x.blockDim.x + x.threadIdx.x;
        if (segment + s < N) XY[s] = X_in[segment + s];
        else XY[s] = 0.0f;
    }
    x.syncthreads(AFTER_LOAD);
    // Phase 1: a sequential scan of the thread's own subsection
    unsigned int first = x.threadIdx.x*SCAN_COARSE_FACTOR;
    for (unsigned int k = 1; k < SCAN_COARSE_FACTOR; ++k) {
        XY[first + k] += XY[first + k - 1];
    }
    // Phase 2: Kogge-Stone over the subsections' last elements
    unsigned int last = first + SCAN_COARSE_FACTOR - 1;
    for (unsigned int stride = 1; x.branch(stride < x.blockDim.x); stride *= 2) {
        x.syncthreads(AFTER_LOAD);
        float temp = 0.0f;
        if (x.branch(x.threadIdx.x >= stride)) {
            temp = XY[last] + XY[last - stride*SCAN_COARSE_FACTOR];
        }
        x.syncthreads(AFTER_COMPUTE);
        if (x.branch(x.threadIdx.x >= stride)) {
            XY[last] = temp;
        }
    }
    x.syncthreads(AFTER_LOAD);
    // Phase 3: add the previous subsection's total to every element but the last
    if (x.branch(x.threadIdx.x > 0)) {
        for (unsigned int k = 0; k < SCAN_COARSE_FACTOR - 1; ++k) {
            XY[first + k] += XY[first - 1];
        }
    }
    x.syncthreads(AFTER_LOAD);
    for (unsigned int j = 0; j < SCAN_COARSE_FACTOR; ++j) {
        unsigned int s = j*x.blockDim.x + x.threadIdx.x;
        if (segment + s < N) Y[segment + s] = XY[s];
    }
}

}  // namespace ts::kernels
