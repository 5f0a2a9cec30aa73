// The shared-memory histogram with thread coarsening, contiguous partitioning: PMPP sec. 9.5,
// Fig. 9.12 (preset histogram-contiguous-256). The problem is stated in its registry row
// (sim/catalogue/kernel_registry.hpp). Single source: see kernels/context.cuh.
#pragma once
#include "histogram_bins.cuh"

namespace ts::kernels {

/// Fig. 9.10 with CFACTOR characters a thread: thread tid counts data[tid*CFACTOR ..
/// (tid + 1)*CFACTOR - 1], a contiguous run. Neighbouring lanes read characters CFACTOR bytes
/// apart, so each warp load touches CFACTOR times the sectors of a coalesced one.
template <class X>
TS_DEVICE void histoCoarsenedContiguousKernel(X& x, typename X::template GlobalPtr<const char> data, unsigned int length,
                                              typename X::template GlobalPtr<unsigned int> histo)
{
    // Initialize privatized bins
    TS_SHARED_1D(unsigned int, histo_s, NUM_BINS);
    for (unsigned int bin = x.threadIdx.x; x.branch(bin < NUM_BINS); bin += x.blockDim.x) {
        histo_s[bin] = 0u;
    }
    x.syncthreads();
    // Histogram
    unsigned int tid = x.blockIdx.x*x.blockDim.x + x.threadIdx.x;
    for (unsigned int i = tid*CFACTOR; x.branch(i < min((tid + 1)*CFACTOR, length)); ++i) {
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
