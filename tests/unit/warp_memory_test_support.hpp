// What the warp memory model's tests share (tests/unit/warp_memory_*_test.cpp): a simulation
// run with its checks, and a block's totals.
#pragma once
#include "sim/engine/simulate.hpp"

namespace ts::test::warp_memory_detail {

/// Simulates `s` (with its trace if `trace`, the warp memory model if `model`), expecting no error
/// and P equal to the reference.
sim::Simulation run(const sim::Scenario& s, bool trace = false, bool model = true);
/// The totals of block `b` of simulation `r`.
const sim::Totals& blockTotals(const sim::Simulation& r, sim::Uint3 b);

}  // namespace ts::test::warp_memory_detail
