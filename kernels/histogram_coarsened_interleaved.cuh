// The shared-memory histogram with thread coarsening, interleaved partitioning: PMPP sec. 9.5,
// Fig. 9.14 (preset histogram-interleaved-256). The problem is stated in its registry row
// (sim/catalogue/kernel_registry.hpp). Single source: see kernels/context.cuh.
#pragma once
#include "histogram_bins.cuh"

namespace ts::kernels {

/// Fig. 9.10 with several characters a thread, interleaved: thread tid counts data[tid],
/// data[tid + blockDim.x*gridDim.x], ..., so at every step the lanes of a warp read 32
/// consecutive characters, one sector, as in Fig. 9.6. The grid has a quarter of Fig. 9.6's
/// blocks (CFACTOR characters a thread on average).
template <class X>
TS_DEVICE void histoCoarsenedInterleavedKernel(X& x, typename X::template GlobalPtr<const char> data, unsigned int length,
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
    for (unsigned int i = tid; x.branch(i < length); i += x.blockDim.x*x.gridDim.x) {
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
