// The problems on which a kernel is run on the GPU and in the simulator and the two are
// compared (tilescope-cli verify, the GPU tests): chosen from the kernel's registry entry
// alone (its size parameters and their limits, its compiled tiles or largest block edge), so
// that a kernel added to the registry is verified without being listed anywhere else.
#pragma once
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "sim/catalogue/scenario.hpp"

namespace ts::sim {

/// Scenarios that compare kernel `k` on the GPU with the simulator: at each compiled tile
/// (tiled kernels) or each power-of-two block edge from 2 to KernelInfo::maxBlockEdge
/// (untiled ones), sizes that are multiples of the tile, sizes that are not, and, unless
/// `quick`, size 1 and sizes drawn from `rng`. A parameter whose limits admit one value
/// (a 1D convolution's height) takes it; an odd-only one (Mask_Width) runs each odd value
/// of {1, 3, 5, 9} it admits ({5, 9} when `quick`). Each scenario's input seed is drawn from
/// `rng`; only scenarios that pass validate() are returned. Deterministic for `rng`'s state.
std::vector<Scenario> agreementCases(const KernelInfo& k, std::mt19937& rng, bool quick);

/// The scenario's size parameters as "j 37, k 29, l 45" or "height 13, width 29,
/// Mask_Width 9", in the kernel's order (KernelInfo::params); "" for an unknown kernel.
std::string sizeList(const Scenario& s);

}  // namespace ts::sim
