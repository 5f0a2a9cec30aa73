// Small queries over a simulated trace, shared by the unit tests.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "sim/engine/simulate.hpp"

namespace ts::test {

/// Linear thread index of (ty, tx) in a block of `blockDimX` threads per row, as
/// sim::Event::thread stores it.
inline uint16_t tid(unsigned ty, unsigned tx, unsigned blockDimX)
{
    return static_cast<uint16_t>(ty * blockDimX + tx);
}

/// The events of thread `thread` in the steps of `phase` (every phase if phase < 0), in
/// trace order.
inline std::vector<sim::Event> threadEvents(const sim::Simulation& r, uint16_t thread, int phase = -1)
{
    std::vector<sim::Event> out;
    for (const sim::Step& s : r.trace.steps) {
        if (phase >= 0 && s.phase != phase) continue;
        for (int i = s.begin; i < s.end; ++i)
            if (r.trace.events[i].thread == thread) out.push_back(r.trace.events[i]);
    }
    return out;
}

/// Does `events` hold an event with this op on array `name` (any index if index < 0)?
inline bool has(const sim::Simulation& r, const std::vector<sim::Event>& events, sim::Op op,
                const std::string& name, long long index = -1)
{
    const int array = r.arrayIndex(name);
    for (const sim::Event& e : events)
        if (e.op == op && e.array == array && (index < 0 || e.index == index)) return true;
    return false;
}

/// A matrix multiplication scenario.
inline sim::Scenario matmul(const std::string& kernel, int j, int k, int l, int tile,
                            sim::Uint3 block = {})
{
    return sim::matmulScenario(kernel, j, k, l, tile, block);
}

}  // namespace ts::test
