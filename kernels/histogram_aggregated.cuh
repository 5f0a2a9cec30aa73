// The shared-memory histogram with interleaved coarsening and aggregation: PMPP sec. 9.6,
// Fig. 9.15 (preset histogram-aggregated-256). The problem is stated in its registry row
// (sim/catalogue/kernel_registry.hpp). Single source: see kernels/context.cuh.
#pragma once
#include "histogram_bins.cuh"

namespace ts::kernels {

/// Fig. 9.14 whose threads add a run of characters of one bin with one atomicAdd: each
/// thread keeps the bin of its last letter (prevBinIdx) and how many letters in a row fell
/// in it (accumulator), and adds the count when the bin changes and at the end. Text with
/// long runs of one bin (skewed text) saves atomics; text that changes bin at every letter
/// adds a branch for nothing.
template <class X>
TS_DEVICE void histoAggregatedKernel(X& x, typename X::template GlobalPtr<const char> data, unsigned int length,
                                     typename X::template GlobalPtr<unsigned int> histo)
{
    // Initialize privatized bins
    TS_SHARED_1D(unsigned int, histo_s, NUM_BINS);
    for (unsigned int bin = x.threadIdx.x; x.branch(bin < NUM_BINS); bin += x.blockDim.x) {
        histo_s[bin] = 0u;
    }
    x.syncthreads();
    // Histogram
    unsigned int accumulator = 0;
    int prevBinIdx = -1;
    unsigned int tid = x.blockIdx.x*x.blockDim.x + x.threadIdx.x;
    for (unsigned int i = tid; x.branch(i < length); i += x.blockDim.x*x.gridDim.x) {
        int alphabet_position = data[i] - 'a';
        if (x.branch(alphabet_position >= 0 && alphabet_position < 26)) {
            int bin = alphabet_position/4;
            if (x.branch(bin == prevBinIdx)) {
                ++accumulator;
            } else {
                if (x.branch(accumulator > 0)) {
                    x.atomicAdd(&histo_s[prevBinIdx], accumulator);
                }
                accumulator = 1;
                prevBinIdx = bin;
            }
        }
    }
    if (x.branch(accumulator > 0)) {
        x.atomicAdd(&histo_s[prevBinIdx], accumulator);
    }
    x.syncthreads();
    // Commit to global memory
    for (unsigned int bin = x.threadIdx.x; x.branch(bin < NUM_BINS); bin += x.blockDim.x) {
        unsigned int binValue = histo_s[bin];
        if (x.branch(binValue > 0)) {
            x.atomicAdd(&histo[bin], binValue);
        }
    }
}

}  // namespace ts::kernels
