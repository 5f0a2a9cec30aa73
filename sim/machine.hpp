// Runs a kernel body over a grid of simulated blocks: one cooperative fiber per thread,
// barriers that release only when every thread of the block has arrived.
#pragma once
#include <cstdint>
#include <functional>
#include <optional>

#include "context.hpp"

namespace ts::sim {

/// Which warp runs ahead between barriers. Threads are grouped into warps of 32 lanes
/// (linear thread index / 32); lanes of a warp always run in lane order.
enum class Schedule { InOrder, Reverse, Random };

/// Shape of a simulated launch and what to record.
struct LaunchConfig {
    Dim3 grid;
    Dim3 block;
    std::optional<Uint3> tracedBlock;   ///< record every event of this block
    Schedule schedule = Schedule::InOrder;
    uint64_t scheduleSeed = 1;          ///< for Schedule::Random
};

/// Runs `body` once per simulated thread of every block in `cfg.grid`, in block order
/// (z, y, x). Counters accumulate into m.counters, the traced block's events into m.events.
/// Throws KernelFault for an out-of-bounds access or a barrier that not all threads reach.
void runGrid(Machine& m, const LaunchConfig& cfg,
             const std::function<void(ThreadContext&)>& body);

/// Linear block index as used by Counters::perBlock.
inline unsigned long long linearBlock(const Dim3& grid, const Uint3& b)
{
    return (1ull * b.z * grid.y + b.y) * grid.x + b.x;
}

}  // namespace ts::sim
