// Which shared reads of a run with a dropped barrier got a wrong value: one that differs
// from what the same read gets with every barrier in place. Without the barrier after the
// load that is an old or never-written value (PMPP sec. 5.4: RAW, reads before the tile is
// loaded); without the barrier after the use it is the next phase's value, written over the
// slot before this thread read it (WAR). No UI.
#pragma once
#include <cstdint>
#include <vector>

#include "sim/engine/trace.hpp"

namespace ts::sim {

/// One flag per event of `dropped` (1: a shared read whose value differs, bit for bit, from
/// the same read in `intact`). Reads are paired by thread and by their order among that
/// thread's shared reads (Event::seq order): the kernels' control flow never depends on a
/// shared value, so both runs make the same reads. `intact` is the trace of the same
/// scenario and block with every barrier in place. Throws std::invalid_argument if a
/// thread's shared reads do not pair up (different scenarios).
std::vector<uint8_t> wrongReads(const Trace& dropped, const Trace& intact);

}  // namespace ts::sim
