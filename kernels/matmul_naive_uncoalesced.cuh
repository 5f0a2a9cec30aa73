// Naive matrix multiplication with the thread axes turned round: threadIdx.x walks the rows
// of P instead of its columns. It computes exactly what matmul-naive (PMPP sec. 3.4,
// Fig. 3.11) computes, in the same order along k, but the 32 lanes of a warp, which differ
// mostly in threadIdx.x, now sit in different rows: their reads of M and their writes of P
// are k and l elements apart, so every row a warp touches costs a 32-byte sector of its
// own where matmul-naive's lanes share a few. Memory coalescing is PMPP sec. 5.3 (why the naive kernel's global traffic is the
// bottleneck) and sec. 6.1 (how the lanes of a warp should touch neighbouring addresses).
// Presets coalescing-naive-64 and coalescing-uncoalesced-64 compare the two (docs/
// references.md). Single source: see kernels/context.cuh.
#pragma once
#include "context.cuh"

namespace ts::kernels {

/// P[j x l] = M[j x k] * N[k x l], row-major, one thread per P element, with Row taken
/// from the x axis: block = blockDim.x by blockDim.y threads, grid = ceil(j / blockDim.x)
/// by ceil(l / blockDim.y), and thread (tx, ty) of block (bx, by) computes
/// P[bx*blockDim.x + tx][by*blockDim.y + ty]. Threads outside P do nothing.
template <class X>
TS_DEVICE void matmulNaiveUncoalesced(X& x, typename X::template GlobalPtr<const float> M,
                                      typename X::template GlobalPtr<const float> N,
                                      typename X::template GlobalPtr<float> P, int j, int k, int l)
{
    // The row index of the P element and M now comes from the x axis: neighbouring lanes
    // of a warp get neighbouring rows, k elements of M apart
    int Row = x.blockIdx.x * x.blockDim.x + x.threadIdx.x;
    // ...and the column index of P and N from the y axis
    int Col = x.blockIdx.y * x.blockDim.y + x.threadIdx.y;

    if ((Row < j) && (Col < l)) {
        float Pvalue = 0;
        // each thread computes one element of P; a warp's M reads hit one sector per row
        for (int i = 0; i < k; ++i) {
            Pvalue += M[Row*k + i] * N[i*l + Col];
        }
        P[Row*l + Col] = Pvalue;
    }
}

}  // namespace ts::kernels
