// What PMPP ch. 9's text histograms share: the bins (26 letters, four to a bin, so seven bins;
// PMPP sec. 9.2) and the coarsening factor of Figs. 9.12 to 9.15. Single source: see
// kernels/context.cuh.
#pragma once
#include "context.cuh"

namespace ts::kernels {

/// Bins of the letter histogram: a-d, e-h, ..., u-x, y-z (PMPP sec. 9.2).
inline constexpr unsigned int NUM_BINS = 7;
/// Characters per thread of the coarsened histograms (PMPP sec. 9.5; the book leaves it open).
inline constexpr unsigned int CFACTOR = 4;

/// The smaller of two unsigned ints, as CUDA's min(unsigned int, unsigned int) (PMPP Fig. 9.12's
/// `min((tid + 1)*CFACTOR, length)`), in both compilers.
TS_DEVICE unsigned int min(unsigned int a, unsigned int b)
{
    return a < b ? a : b;
}

}  // namespace ts::kernels
