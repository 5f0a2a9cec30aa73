// Wrong shared reads of a run with a dropped barrier (sim/engine/wrong_reads.hpp), against counts
// derived by hand from the simulator's order (one warp of 16 lanes; each thread runs on in
// lane order until it meets a barrier) and, without the barrier after the load, against
// the detector's stale-read marks, a second independent way.
#include <gtest/gtest.h>

#include "kernels/context.cuh"
#include "sim/engine/simulate.hpp"
#include "sim/engine/wrong_reads.hpp"
#include "trace_query.hpp"

namespace ts::test {
namespace {

/// Wrong reads per linear thread of the traced block.
std::vector<int> perThread(const sim::Trace& t, const std::vector<uint8_t>& wrong)
{
    std::vector<int> n(t.blockDim.count(), 0);
    for (size_t i = 0; i < wrong.size(); ++i)
        if (wrong[i]) ++n.at(t.events[i].thread);
    return n;
}

sim::Simulation run(unsigned drop)
{
    sim::Scenario s = matmul("matmul-tiled", 8, 8, 8, 4);
    s.dropBarriers = drop;
    return sim::simulate(s);
}

TEST(WrongReads, NoneWithEveryBarrier)
{
    const sim::Simulation a = run(0);
    for (uint8_t w : sim::wrongReads(a.trace, a.trace)) EXPECT_EQ(w, 0);
}

TEST(WrongReads, WithoutTheLoadBarrierTheyAreTheStaleReads)
{
    const sim::Simulation intact = run(0), dropped = run(kernels::AFTER_LOAD);
    const std::vector<uint8_t> wrong = sim::wrongReads(dropped.trace, intact.trace);
    // Thread (ty, tx) reads Mds[ty][i] before its owner (ty, i) has run for i > tx, and
    // Nds[i][tx] before (i, tx) for i > ty: (3 - tx) + (3 - ty) wrong reads per phase.
    const std::vector<int> n = perThread(dropped.trace, wrong);
    int total = 0;
    for (unsigned ty = 0; ty < 4; ++ty)
        for (unsigned tx = 0; tx < 4; ++tx) {
            EXPECT_EQ(n[tid(ty, tx, 4)], 2 * static_cast<int>((3 - tx) + (3 - ty))) << ty << "," << tx;
            total += n[tid(ty, tx, 4)];
        }
    EXPECT_EQ(total, 96);
    for (size_t i = 0; i < wrong.size(); ++i)
        EXPECT_EQ(wrong[i] != 0, (dropped.trace.events[i].flags & sim::kStale) != 0) << "event " << i;
}

TEST(WrongReads, WithoutTheComputeBarrierTheNextPhaseIsRead)
{
    const sim::Simulation intact = run(0), dropped = run(kernels::AFTER_COMPUTE);
    const std::vector<uint8_t> wrong = sim::wrongReads(dropped.trace, intact.trace);
    // In phase 0 thread (ty, tx) reads Mds[ty][i] after (ty, i) has overwritten it with phase
    // 1's tile for i < tx, and Nds[i][tx] after (i, tx) has for i < ty; phase 1 is clean (its
    // load barrier is in place): tx + ty wrong reads.
    const std::vector<int> n = perThread(dropped.trace, wrong);
    for (unsigned ty = 0; ty < 4; ++ty)
        for (unsigned tx = 0; tx < 4; ++tx) EXPECT_EQ(n[tid(ty, tx, 4)], static_cast<int>(tx + ty)) << ty << "," << tx;
    // Thread (0, 1)'s one wrong read is its first: Mds[0][0], holding M[0][4] of phase 1.
    const int mds = dropped.arrayIndex("Mds");
    for (size_t i = 0; i < wrong.size(); ++i) {
        if (!wrong[i] || dropped.trace.events[i].thread != tid(0, 1, 4)) continue;
        EXPECT_EQ(dropped.trace.events[i].array, mds);
        EXPECT_EQ(dropped.trace.events[i].index, 0);
        EXPECT_EQ(dropped.trace.events[i].value, dropped.M[4]);
    }
}

TEST(WrongReads, DifferentScenariosAreRefused)
{
    const sim::Simulation a = run(0);
    const sim::Simulation b = sim::simulate(matmul("matmul-tiled", 8, 8, 8, 2));
    EXPECT_THROW(sim::wrongReads(a.trace, b.trace), std::invalid_argument);
}

}  // namespace
}  // namespace ts::test
