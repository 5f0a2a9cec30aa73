// PMPP sec. 11.6's hierarchical scan (registry row scan-hierarchical): a row of three
// launches on the same arrays. The scans are checked against a scan added here element by
// element, the block sums S against the output's section ends, the adds against a count of
// each launch's network made here (not the simulator's), and the trace of a later launch
// against what that launch's kernel does.
#include <gtest/gtest.h>

#include <bit>
#include <string>
#include <vector>

#include "sim/engine/simulate.hpp"

namespace ts::sim {
namespace {

Scenario hierarchical(int n, int tile, int launch = 1)
{
    Scenario s;
    s.kernel = "scan-hierarchical";
    s.height = 1;
    s.width = n;
    s.tile = tile;
    s.launch = launch;
    return s;
}

Simulation run(const Scenario& s, unsigned threads = 1)
{
    SimOptions o;
    o.trace = true;
    o.threads = threads;
    return simulate(s, o);
}

/// Adds of Fig. 11.3's loop over a whole block of `b` threads (a power of two): at stride s,
/// b - s threads add, for s = 1, 2, ..., b/2.
uint64_t koggeStoneAdds(uint64_t b)
{
    uint64_t adds = 0;
    for (uint64_t stride = 1; stride < b; stride *= 2) adds += b - stride;
    return adds;
}

TEST(HierarchicalScan, ScansAnyLengthUpToABlockOfSections)
{
    // One element, a block, a block and one more, ragged lengths, the longest at BLOCK_DIM 16
    // (16 sections of 16), and a long input of many sections.
    for (const auto& [n, tile] : std::vector<std::pair<int, int>>{
             {1, 16}, {16, 16}, {17, 16}, {200, 16}, {256, 16}, {1025, 1024}, {100000, 1024}}) {
        SCOPED_TRACE("N = " + std::to_string(n) + ", BLOCK_DIM " + std::to_string(tile));
        const Simulation r = run(hierarchical(n, tile));
        ASSERT_EQ(r.error, "");
        ASSERT_EQ(r.M.size(), static_cast<size_t>(n));
        const int sections = (n + tile - 1) / tile;
        EXPECT_EQ(r.grid.x, static_cast<unsigned>(sections));
        float sum = 0.0f;
        for (int i = 0; i < n; ++i) {
            ASSERT_GE(r.M[i], 1.0f);
            ASSERT_LE(r.M[i], 8.0f);
            sum += r.M[i];
            ASSERT_EQ(r.P[i], sum) << "Y[" << i << "]";
        }
        EXPECT_TRUE(r.matchesReference);
        // After the second launch S[b] is the sum of sections 0 to b: the output at b's end.
        ASSERT_EQ(r.scratch.size(), 1u);
        ASSERT_EQ(r.scratch[0].size(), static_cast<size_t>(sections));
        for (int b = 0; b < sections; ++b)
            EXPECT_EQ(r.scratch[0][b], r.P[std::min((b + 1) * tile, n) - 1]) << "S[" << b << "]";
        // Every launch's adds: a network per section, one over the sums, one add per element
        // past the first section.
        const uint64_t expected = sections * koggeStoneAdds(tile) + koggeStoneAdds(tile) + (n - std::min(n, tile));
        EXPECT_EQ(r.counters.totals.fadds, expected);
    }
}

TEST(HierarchicalScan, SumsOverLaunchesMatchOnWorkerThreads)
{
    const Simulation serial = run(hierarchical(3000, 64), 1);
    const Simulation parallel = run(hierarchical(3000, 64), 3);
    ASSERT_EQ(serial.error, "");
    ASSERT_EQ(parallel.error, "");
    EXPECT_EQ(parallel.P, serial.P);
    EXPECT_EQ(parallel.counters.totals.fadds, serial.counters.totals.fadds);
    EXPECT_EQ(parallel.counters.totals.global_loads, serial.counters.totals.global_loads);
    EXPECT_EQ(parallel.counters.totals.global_stores, serial.counters.totals.global_stores);
    EXPECT_EQ(parallel.counters.totals.shared_loads, serial.counters.totals.shared_loads);
    // The loads of every launch: X once (launch 1), S once a section (launch 2), Y and S once
    // an element past the first section (launch 3's Y[i] += S[blockIdx.x - 1]).
    EXPECT_EQ(serial.counters.totals.global_loads, 3000u + 47u + 2u * (3000u - 64u));
    // Shared loads: two an add of each network (Fig. 11.3's temp = XY[t] + XY[t - stride]),
    // launch 1's read of each element for Y and its last thread's for S, launch 2's read of
    // each sum for S. Launch 2's XY is launch 1's by name: its loads are counted once.
    const uint64_t ks = koggeStoneAdds(64);
    EXPECT_EQ(serial.counters.totals.shared_loads, 47u * 2u * ks + 3000u + 47u + 2u * ks + 47u);
}

TEST(HierarchicalScan, TracesTheLaunchItIsAskedFor)
{
    // Launch 2: one block scans the 4 sums of N = 64 at BLOCK_DIM 16, in place in S.
    const Simulation sums = run(hierarchical(64, 16, 2));
    ASSERT_EQ(sums.error, "");
    EXPECT_EQ(sums.grid.x, 1u);
    EXPECT_EQ(sums.counters.perBlock.size(), 1u);
    const int s = sums.arrayIndex("S");
    ASSERT_GE(s, 0);
    EXPECT_EQ(sums.trace.outputArray, s);
    unsigned storesToS = 0, storesElsewhere = 0;
    for (const Event& e : sums.trace.events)
        if (e.op == Op::GlobalStore) (e.array == s ? storesToS : storesElsewhere)++;
    EXPECT_EQ(storesToS, 4u);
    EXPECT_EQ(storesElsewhere, 0u);

    // Launch 3, block 2: each of its 16 threads adds S[1] into its element.
    Scenario add = hierarchical(64, 16, 3);
    add.block = Uint3{2, 0, 0};
    const Simulation r = run(add);
    ASSERT_EQ(r.error, "");
    EXPECT_EQ(r.grid.x, 4u);
    unsigned loadsOfS1 = 0, storesToY = 0;
    for (const Event& e : r.trace.events) {
        if (e.op == Op::GlobalLoad && e.array == r.arrayIndex("S")) {
            EXPECT_EQ(e.index, 1u);
            ++loadsOfS1;
        }
        if (e.op == Op::GlobalStore && e.array == r.arrayIndex("Y")) ++storesToY;
    }
    EXPECT_EQ(loadsOfS1, 16u);
    EXPECT_EQ(storesToY, 16u);
    // The same output whichever launch is traced.
    EXPECT_EQ(r.P, sums.P);
    EXPECT_TRUE(r.matchesReference);
}

TEST(HierarchicalScan, RefusesWhatItCannotScan)
{
    // 17 sections of 16 do not fit the one block of launch 2.
    EXPECT_EQ(validate(hierarchical(257, 16)),
              "scan-hierarchical scans the sums of its 17 sections in one block of 16 threads (its second launch), so N "
              "must be at most 16 x 16 = 256; got 257.");
    EXPECT_EQ(validate(hierarchical(64, 16, 4)),
              "The traced launch (--launch) of scan-hierarchical must be from 1 to 3 (its launches); got 4.");
    EXPECT_EQ(validate(hierarchical(64, 16, 0)),
              "The traced launch (--launch) of scan-hierarchical must be from 1 to 3 (its launches); got 0.");
    Scenario one = hierarchical(64, 16, 2);
    one.kernel = "scan-single-pass";
    EXPECT_EQ(validate(one), "scan-single-pass is one launch, so the traced launch (--launch) must be 1; got 2.");
    // Launch 2 has one block: block 1 is outside it.
    Scenario outside = hierarchical(64, 16, 2);
    outside.block = Uint3{1, 0, 0};
    EXPECT_EQ(validate(outside), "Block (1, 0) is outside the grid of 1 x 1 blocks.");
}

}  // namespace
}  // namespace ts::sim
