// Kogge-Stone with a double buffer: PMPP sec. 11.2 (the second barrier traded for a second
// array; preset scan-kogge-stone-double-buffer-16). The problem is stated in its registry row
// (sim/catalogue/kernel_registry.hpp). Single source: see kernels/context.cuh.
#pragma once
#include "context.cuh"

namespace ts::kernels {

/// Fig. 11.3's scan with XY in two halves: each step reads one half, XY[src], and writes the
/// other, XY[1 - src], then the halves swap roles. No thread writes a slot another thread
/// reads in the same step, so one barrier a step suffices (the RAW one, AFTER_LOAD); the
/// price is twice the shared memory and a copy by the threads below the stride. Same adds
/// as Fig. 11.3.
template <int SECTION_SIZE, class X>
TS_DEVICE void koggeStoneDoubleBufferScan(X& x, typename X::template GlobalPtr<const float> X_in,
                                          typename X::template GlobalPtr<float> Y, unsigned int N)
{
    TS_SHARED_2D(float, XY, 2, SECTION_SIZE);
    unsigned int i = x.blockIdx.x*x.blockDim.x + x.threadIdx.x;
    unsigned int src = 0;
    if (i < N) {
        XY[src][x.threadIdx.x] = X_in[i];
    } else {
        XY[src][x.threadIdx.x] = 0.0f;
    }
    for (unsigned int stride = 1; x.branch(stride < x.blockDim.x); stride *= 2) {
        x.syncthreads(AFTER_LOAD);
        if (x.branch(x.threadIdx.x >= stride)) {
            XY[1 - src][x.threadIdx.x] = XY[src][x.threadIdx.x] + XY[src][x.threadIdx.x - stride];
        } else {
            XY[1 - src][x.threadIdx.x] = XY[src][x.threadIdx.x];
        }
        src = 1 - src;
    }
    if (i < N) {
        Y[i] = XY[src][x.threadIdx.x];
    }
}

}  // namespace ts::kernels
