// The convolution cases of `tilescope-cli verify` (spec: "Runs every kernel on random
// shapes, including sizes that are not multiples of the tile").
#pragma once
#include <random>
#include <vector>

#include "sim/catalogue/scenario.hpp"

namespace ts::cli {

/// Scenarios for every convolution kernel: compiled tiles from small to large, masks from
/// 1 to 9, sizes that are multiples of the tile, sizes that are not, and (unless `quick`)
/// size 1 and random sizes; every one passes sim::validate(). Seeds and random sizes come
/// from `rng`.
std::vector<sim::Scenario> convVerifyCases(std::mt19937& rng, bool quick);

}  // namespace ts::cli
