// Segmented sum reduction finished with warp shuffles (preset reduction-shuffle-256). Not a
// figure of PMPP: Fig. 10.13's kernel (sec. 10.7) whose shared-memory tree stops at 32
// partial sums, which the first warp then adds in registers with __shfl_down_sync (CUDA C++
// Programming Guide, "Warp Shuffle Functions"), without shared memory or barriers. The
// problem is stated in its registry row (sim/catalogue/kernel_registry.hpp). Single source:
// see kernels/context.cuh.
#pragma once
#include "context.cuh"

namespace ts::kernels {

/// The lanes of a warp, and the mask that names all of them.
inline constexpr unsigned int WARP_SIZE = 32;
inline constexpr unsigned int FULL_MASK = 0xffffffffu;

/// *output += input[0] + ... + input[N - 1] (output starts at 0), BLOCK_DIM a power of two of
/// at least 32. Block b loads its segment of 2*BLOCK_DIM elements into input_s as Fig. 10.13
/// does and runs the tree while the stride is at least WARP_SIZE, which leaves 32 partial
/// sums in input_s[0..31]. Thread t < 32 wrote input_s[t] itself, so warp 0 reads them
/// without another barrier, and five shuffles (offsets 16, 8, 4, 2, 1) add them in
/// registers: after the one at offset d, lane l holds the sum of lanes l .. l + 2d - 1.
/// Lane 0 adds the block's sum to the total with one atomicAdd. The shuffle loop has a
/// constant trip count, so nvcc unrolls it and it is no branch.
template <int BLOCK_DIM, class X>
TS_DEVICE void shuffleSumReduction(X& x, typename X::template GlobalPtr<const float> input,
                                   typename X::template GlobalPtr<float> output, unsigned int N)
{
    TS_SHARED_1D(float, input_s, BLOCK_DIM);
    unsigned int segment = 2*x.blockDim.x*x.blockIdx.x;
    unsigned int i = segment + x.threadIdx.x;
    unsigned int t = x.threadIdx.x;
    float first = i < N ? input[i] : 0.0f;
    float second = i + BLOCK_DIM < N ? input[i + BLOCK_DIM] : 0.0f;
    input_s[t] = first + second;
    for (unsigned int stride = x.blockDim.x/2; x.branch(stride >= WARP_SIZE); stride /= 2) {
        x.syncthreads(AFTER_LOAD);
        if (x.branch(t < stride)) {
            input_s[t] += input_s[t + stride];
        }
    }
    if (x.branch(t < WARP_SIZE)) {
        float sum = input_s[t];
        TS_UNROLL
        for (unsigned int offset = WARP_SIZE/2; offset > 0; offset /= 2) {
            sum += x.shfl_down_sync(FULL_MASK, sum, offset);
        }
        if (t == 0) {
            x.atomicAdd(output, sum);
        }
    }
}

}  // namespace ts::kernels
