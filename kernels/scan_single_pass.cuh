// Single-pass scan of any length: PMPP sec. 11.7 (preset scan-single-pass-64). Each block
// scans its section as Fig. 11.3 does, then the blocks hand their running sums on, one to
// the next, through flags in global memory. The problem is stated in its registry row
// (sim/catalogue/kernel_registry.hpp). Single source: see kernels/context.cuh.
#pragma once
#include "context.cuh"

namespace ts::kernels {

/// Y[i] = X[0] + ... + X[i] for any N, one thread an element, SECTION_SIZE = blockDim.x
/// elements a block, in one launch.
///
/// A block takes its place in the chain, `bid`, from blockCounter in the order blocks start
/// (the dynamic block index of sec. 11.7): a block waits only for blocks that started before
/// it, so the wait ends even when the GPU cannot hold every block at once. After its local
/// Kogge-Stone scan, thread 0 waits until flags[bid] is set, reads the sum of every section
/// before this one from scan_value[bid] (a `volatile` pointer: from L2, never a stale L1 copy),
/// stores the sum up to this section's end in scan_value[bid + 1], and sets flags[bid + 1].
/// The __threadfence() between that store and the flag (FENCE) makes the GPU show the sum to
/// the next block before the flag; `--drop-barrier fence` removes it. flags, scan_value and
/// blockCounter start at 0; flags[0] and scan_value[0] are never used (block 0 waits for
/// nobody). Elements past N are 0.
template <int SECTION_SIZE, class X>
TS_DEVICE void singlePassScan(X& x, typename X::template GlobalPtr<const float> X_in,
                              typename X::template GlobalPtr<float> Y, unsigned int N,
                              typename X::template GlobalPtr<unsigned int> flags,
                              typename X::template GlobalPtr<volatile float> scan_value,
                              typename X::template GlobalPtr<unsigned int> blockCounter)
{
    // Dynamic block index
    TS_SHARED_1D(unsigned int, bid_s, 1);
    if (x.threadIdx.x == 0) {
        bid_s[0] = x.atomicAdd(blockCounter, 1u);
    }
    x.syncthreads();
    unsigned int bid = bid_s[0];
    // Local scan of this block's section (Fig. 11.3)
    TS_SHARED_1D(float, XY, SECTION_SIZE);
    unsigned int i = bid*x.blockDim.x + x.threadIdx.x;
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
    x.syncthreads();
    // Hand-over: the sum of the sections before this one, then this one's end, on to bid + 1
    TS_SHARED_1D(float, previous_sum, 1);
    if (x.threadIdx.x == 0) {
        if (bid > 0) {
            while (x.branch(x.atomicAdd(&flags[bid], 0u) == 0)) {
            }
            previous_sum[0] = scan_value[bid];
        } else {
            previous_sum[0] = 0.0f;
        }
        scan_value[bid + 1] = previous_sum[0] + XY[x.blockDim.x - 1];
        x.threadfence(FENCE);
        x.atomicAdd(&flags[bid + 1], 1u);
    }
    x.syncthreads();
    if (i < N) {
        Y[i] = XY[x.threadIdx.x] + previous_sum[0];
    }
}

}  // namespace ts::kernels
