// CPU references the simulator and the GPU are checked against.
#pragma once
#include <vector>

#include "sim/engine/progress.hpp"

namespace ts::sim {

/// P (j x l) = M (j x k) * N (k x l), row-major, each P element accumulated from 0 with
/// std::fmaf in increasing k order: the order and rounding of both project kernels and of
/// nvcc's fused multiply-add, so a correct kernel matches it bit for bit. Rows run on the
/// threads of the caller's oneTBB arena (every core, unless sim::withThreads says fewer);
/// the result does not depend on how many. Reports to `progress` as it goes and throws
/// Cancelled when that is asked to stop.
std::vector<float> matmulReferenceFma(const std::vector<float>& M, const std::vector<float>& N,
                                      int j, int k, int l, const Progress& progress = {});

/// The same product accumulated in double precision, for error figures (max |GPU - ref|).
std::vector<double> matmulReferenceDouble(const std::vector<float>& M,
                                          const std::vector<float>& N, int j, int k, int l);

}  // namespace ts::sim
