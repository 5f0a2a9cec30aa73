// The basic text histogram: PMPP sec. 9.2, Fig. 9.6 (presets histogram-basic-*). The
// problem is stated in its registry row (sim/catalogue/kernel_registry.hpp). Single
// source: see kernels/context.cuh.
#pragma once
#include "histogram_bins.cuh"

namespace ts::kernels {

/// histo[b] += the letters of data[0 .. length - 1] that fall in bin b (four letters a bin).
/// One thread per character; each letter is one atomicAdd on a bin in global memory, and
/// the lanes of a warp that hit one bin are serialised (output interference, PMPP sec. 9.3).
template <class X>
TS_DEVICE void histoKernel(X& x, typename X::template GlobalPtr<const char> data, unsigned int length,
                           typename X::template GlobalPtr<unsigned int> histo)
{
    unsigned int i = x.blockIdx.x*x.blockDim.x + x.threadIdx.x;
    if (x.branch(i < length)) {
        int alphabet_position = data[i] - 'a';
        if (x.branch(alphabet_position >= 0 && alphabet_position < 26)) {
            x.atomicAdd(&histo[alphabet_position/4], 1);
        }
    }
}

}  // namespace ts::kernels
