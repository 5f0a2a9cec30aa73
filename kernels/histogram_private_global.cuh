// The histogram privatized in global memory: PMPP sec. 9.4, Fig. 9.9 (preset
// histogram-private-global-256). The problem is stated in its registry row
// (sim/catalogue/kernel_registry.hpp). Single source: see kernels/context.cuh.
#pragma once
#include "histogram_bins.cuh"

namespace ts::kernels {

/// Block b counts its characters into its own copy of the bins, histo[b*NUM_BINS ..
/// b*NUM_BINS + NUM_BINS - 1]; then every block but block 0 adds its copy into block 0's,
/// histo[0 .. NUM_BINS - 1], which ends as the whole histogram. histo has gridDim.x*NUM_BINS
/// elements, all 0 before the launch. Only the threads of one block contend for a copy.
template <class X>
TS_DEVICE void histoPrivateGlobalKernel(X& x, typename X::template GlobalPtr<const char> data, unsigned int length,
                                        typename X::template GlobalPtr<unsigned int> histo)
{
    unsigned int i = x.blockIdx.x*x.blockDim.x + x.threadIdx.x;
    if (x.branch(i < length)) {
        int alphabet_position = data[i] - 'a';
        if (x.branch(alphabet_position >= 0 && alphabet_position < 26)) {
            x.atomicAdd(&histo[x.blockIdx.x*NUM_BINS + alphabet_position/4], 1);
        }
    }
    if (x.blockIdx.x > 0) {
        x.syncthreads();
        for (unsigned int bin = x.threadIdx.x; x.branch(bin < NUM_BINS); bin += x.blockDim.x) {
            unsigned int binValue = histo[x.blockIdx.x*NUM_BINS + bin];
            if (x.branch(binValue > 0)) {
                x.atomicAdd(&histo[bin], binValue);
            }
        }
    }
}

}  // namespace ts::kernels
