// Runs a kernel body over a grid of simulated blocks: one cooperative fiber per thread,
// barriers that release only when every thread of the block has arrived.
#pragma once
#include <cstdint>
#include <functional>
#include <optional>

#include "sim/engine/context.hpp"

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
    /// For Schedule::Random. Each block draws its warp order from a generator seeded with
    /// this seed and the block's linear index, so a block runs the same whichever thread
    /// runs it and whatever blocks ran before it.
    uint64_t scheduleSeed = 1;
    /// Worker threads that run blocks at once: 1 runs every block on the calling thread in
    /// block order; 0 means one per core (hardwareThreads()); N > 1 at most N (fewer when
    /// the grid has fewer blocks). The results are the same whatever the number.
    unsigned threads = 1;
    /// Bytes of each simulated thread's fiber stack; 0: kFiberStackBytes (sim/engine/fiber.hpp).
    /// A student's kernel with large per-thread local arrays asks for more
    /// (KernelInfo::stackBytes).
    size_t stackBytes = 0;
    /// Run the blocks in the schedule's order, not in block order: Reverse from the last
    /// block to the first, Random in an order shuffled with scheduleSeed. Only with one worker
    /// (threads 1; runGrid refuses it otherwise): a kernel whose blocks meet at atomics
    /// (KernelInfo::atomics), where the order of the blocks is the order of their atomics on
    /// one address, so a float sum's bits depend on it as they do on the GPU (PMPP sec. 10.7).
    bool blocksInScheduleOrder = false;
};

/// The simulated body of one thread, bound to the arrays and counters of one Machine.
using ThreadBody = std::function<void(ThreadContext&)>;
/// Binds the kernel to machine `m` (its GlobalPtrs, constant memory) and returns the body.
/// runGrid calls it once per worker thread, with that worker's own Machine, possibly from
/// several threads at once.
using BodyBinder = std::function<ThreadBody(Machine& m)>;

/// Runs the body once per simulated thread of every block in `cfg.grid`. Counters
/// accumulate into m.counters (per element, per block, totals), hazards into m.hazards,
/// warp memory figures into *m.memory, the traced block's events into m.events, exactly as
/// if the blocks had run one after the other in block order (z, y, x) on one thread:
/// with cfg.threads other than 1 each worker thread runs blocks on a Machine of its own
/// (copied from m: arrays, constant memory, drop mask, detector and memory-model switches;
/// `bind` gives it its body) and the partial results are merged in block order.
/// Throws KernelFault for an out-of-bounds access or a barrier that not all threads reach:
/// the fault of the lowest-numbered faulting block, with perBlock, hazards, memory figures
/// and events as the serial run leaves them (element counts and P may then also hold work
/// of later blocks that ran at the same time). What the body throws otherwise (Cancelled)
/// stops every worker after its current block and is rethrown. With
/// cfg.blocksInScheduleOrder the blocks run one after the other in the schedule's order
/// instead (cfg.threads must be 1; std::invalid_argument otherwise); a fault is then the
/// first one in that order.
void runGrid(Machine& m, const LaunchConfig& cfg, const BodyBinder& bind);

/// The linear indices of cfg.grid's blocks in the order cfg.blocksInScheduleOrder runs them:
/// block order (InOrder), its reverse (Reverse), or shuffled (Random) by a generator seeded
/// from cfg.scheduleSeed alone, so that seeds give different orders and one seed the same.
std::vector<uint64_t> scheduledBlockOrder(const LaunchConfig& cfg);

/// runGrid with a body already bound to `m`: always on the calling thread, in block order
/// (cfg.threads is ignored).
void runGrid(Machine& m, const LaunchConfig& cfg, const ThreadBody& body);

/// Worker threads that LaunchConfig::threads = 0 stands for: the cores this process may
/// run on (oneTBB's default concurrency, which follows the CPU affinity mask), at least 1.
unsigned hardwareThreads();

/// Runs `f` on the calling thread inside a oneTBB arena of `threads` threads (0: one per
/// core, hardwareThreads()), so that the oneTBB algorithms `f` calls (the CPU reference,
/// sim/engine/reference.cpp) use at most that many; with 1 they run on the calling thread alone.
/// More threads than cores are allowed when asked for. What `f` throws is rethrown.
void withThreads(unsigned threads, const std::function<void()>& f);

/// Linear block index as used by Counters::perBlock.
inline unsigned long long linearBlock(const Dim3& grid, const Uint3& b)
{
    return (1ull * b.z * grid.y + b.y) * grid.x + b.x;
}

}  // namespace ts::sim
