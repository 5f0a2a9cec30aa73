// Segmented sum reduction with thread coarsening: PMPP sec. 10.8, Fig. 10.15 (presets
// reduction-coarsened-*). The problem is stated in its registry row
// (sim/catalogue/kernel_registry.hpp). Single source: see kernels/context.cuh.
#pragma once
#include "context.cuh"

namespace ts::kernels {

/// Input elements each thread adds up serially before the tree starts (PMPP's COARSE_FACTOR:
/// a block covers COARSE_FACTOR*2*BLOCK_DIM elements).
inline constexpr unsigned int COARSE_FACTOR = 2;

/// *output += input[0] + ... + input[N - 1] (output starts at 0). Block b's segment is
/// COARSE_FACTOR*2*BLOCK_DIM elements; each thread first sums its COARSE_FACTOR*2 elements,
/// BLOCK_DIM apart (coalesced), in a register, then the block runs Fig. 10.11's tree over
/// input_s and thread 0 adds the block's sum to the total with atomicAdd. Elements past the
/// end count as 0, as in kernels/reduction_segmented.cuh. nvcc unrolls the coarsening loop
/// (a constant trip count); x.unrolled names its iterations for the simulator's warp model.
template <int BLOCK_DIM, class X>
TS_DEVICE void coarsenedSumReduction(X& x, typename X::template GlobalPtr<const float> input,
                                     typename X::template GlobalPtr<float> output, unsigned int N)
{
    TS_SHARED_1D(float, input_s, BLOCK_DIM);
    unsigned int segment = COARSE_FACTOR*2*x.blockDim.x*x.blockIdx.x;
    unsigned int i = segment + x.threadIdx.x;
    unsigned int t = x.threadIdx.x;
    float sum = i < N ? input[i] : 0.0f;
    TS_UNROLL
    for (unsigned int tile = 1; tile < COARSE_FACTOR*2; ++tile) {
        const auto iteration = x.unrolled(tile);
        sum += i + tile*BLOCK_DIM < N ? input[i + tile*BLOCK_DIM] : 0.0f;
    }
    input_s[t] = sum;
    for (unsigned int stride = x.blockDim.x/2; x.branch(stride >= 1); stride /= 2) {
        x.syncthreads(AFTER_LOAD);
        if (x.branch(t < stride)) {
            input_s[t] += input_s[t + stride];
        }
    }
    if (t == 0) {
        x.atomicAdd(output, input_s[0]);
    }
}

}  // namespace ts::kernels
