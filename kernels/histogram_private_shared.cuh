// The histogram privatized in shared memory: PMPP sec. 9.4, Fig. 9.10 (preset
// histogram-private-shared-256). The problem is stated in its registry row
// (sim/catalogue/kernel_registry.hpp). Single source: see kernels/context.cuh.
#pragma once
#include "histogram_bins.cuh"

namespace ts::kernels {

/// Each block counts its characters into histo_s, its bins in shared memory, and then adds
/// each non-empty bin to histo in global memory with one atomicAdd: a block makes at most
/// NUM_BINS global atomics instead of one a letter.
template <class X>
TS_DEVICE void histoPrivateSharedKernel(X& x, typename X::template GlobalPtr<const char> data, unsigned int length,
                                        typename X::template GlobalPtr<unsigned int> histo)
{
    // Initialize privatized bins
    TS_SHARED_1D(unsigned int, histo_s, NUM_BINS);
    for (unsigned int bin = x.threadIdx.x; x.branch(bin < NUM_BINS); bin += x.blockDim.x) {
        histo_s[bin] = 0u;
    }
    x.syncthreads();
    // Histogram
    unsigned int i = x.blockIdx.x*x.blockDim.x + x.threadIdx.x;
    if (x.branch(i < length)) {
        int alphabet_position = data[i] - 'a';
        if (x.branch(alphabet_position >= 0 && alphabet_position < 26)) {
            x.atomicAdd(&histo_s[alphabet_position/4], 1);
        }
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
