// Per-element use counts as the lecture lists them ("Example: 1D reuse counts" and "Example:
// 8x8 output tile in 2D" in docs/references.md), read from the traced block, and the same
// counts a second way: from the basic kernel's global loads.
#include <gtest/gtest.h>

#include "conv_test_support.hpp"

namespace ts::test {
namespace {

using Threads = std::set<int>;

// TILE_SIZE 4, Mask_Width 5, block 1 (threads 4 to 7); N_ds slot s holds element s + 2.
// "Element 2 is used by thread 4 (1X) ... Element 5 is used by threads 4, 5, 6, 7 (4X) ...
// Element 9 is used by thread 7 (1X)".
TEST(ConvReuse, SeedSharedMemoryDataReuse)
{
    const sim::Simulation r = runConv(conv1d("conv1d-tiled", 12, 4, 5, 1));
    const std::map<int, Threads> seed = {{2, {4}},          {3, {4, 5}},       {4, {4, 5, 6}},
                                         {5, {4, 5, 6, 7}}, {6, {4, 5, 6, 7}}, {7, {5, 6, 7}},
                                         {8, {6, 7}},       {9, {7}}};
    std::map<int, Threads> got;
    for (const auto& [slot, threads] : sharedReaders(r))
        for (int t : threads) got[slot + 2].insert(4 + t);
    EXPECT_EQ(got, seed);
}

// TILE_SIZE 8, Mask_Width 5, block 1: "N[6] is used by P[8] (1X), N[7] by P[8], P[9] (2X) ...
// N[10] by P[8] ... P[12] (5X) ... N[15] by P[13], P[14], P[15] (3X)", 1 + 2 + 3 + 4 + 5 *
// (8 - 5 + 1) + 4 + 3 + 2 + 1 = 40 uses in all.
TEST(ConvReuse, SeedAnotherWayToLookAtReuse)
{
    const sim::Simulation r = runConv(conv1d("conv1d-tiled", 64, 8, 5, 1));
    std::map<int, Threads> users;   // N element -> outputs P[i] that used it
    for (const auto& [slot, threads] : sharedReaders(r))
        for (int t : threads) users[6 + slot].insert(8 + t);
    EXPECT_EQ(users[6], (Threads{8}));
    EXPECT_EQ(users[7], (Threads{8, 9}));
    EXPECT_EQ(users[8], (Threads{8, 9, 10}));
    EXPECT_EQ(users[9], (Threads{8, 9, 10, 11}));
    EXPECT_EQ(users[10], (Threads{8, 9, 10, 11, 12}));
    EXPECT_EQ(users[14], (Threads{12, 13, 14, 15}));
    EXPECT_EQ(users[15], (Threads{13, 14, 15}));
    const std::vector<size_t> seedCounts = {1, 2, 3, 4, 5, 5, 5, 5, 4, 3, 2, 1};
    size_t total = 0;
    for (int e = 6; e <= 17; ++e) {
        EXPECT_EQ(users[e].size(), seedCounts[e - 6]) << "N[" << e << "]";
        total += users[e].size();
    }
    EXPECT_EQ(total, 40u);
    // "P[8] uses N[6], N[7], N[8], N[9], N[10]" ... "P[15] uses N[13] ... N[17]".
    for (int p = 8; p <= 15; ++p)
        for (int e = 6; e <= 17; ++e) EXPECT_EQ(users[e].count(p) == 1, e >= p - 2 && e <= p + 2) << p << " " << e;
}

// The same use counts a second way: conv1d-basic reads N[e] from global memory once per
// output that uses it, so block 1's global loads per element are the tiled kernel's uses.
TEST(ConvReuse, BasicKernelGlobalLoadsEqualTiledSharedUses)
{
    for (int mask : {3, 5, 9}) {
        const sim::Simulation basic = runConv(conv1d("conv1d-basic", 64, 8, mask, 1));
        const sim::Simulation tiled = runConv(conv1d("conv1d-tiled", 64, 8, mask, 1));
        std::map<int, size_t> loads, uses;
        const int n = basic.arrayIndex("N");
        for (const sim::Event& e : basic.trace.events)
            if (e.op == sim::Op::GlobalLoad && e.array == n) ++loads[e.index];
        for (const auto& [slot, threads] : sharedReaders(tiled)) uses[8 - mask / 2 + slot] = threads.size();
        EXPECT_EQ(loads, uses) << "mask " << mask;
    }
}

// "Each N element is used in calculating up to KERNEL_SIZE * KERNEL_SIZE P elements": in
// an internal 2D block the most-used slots serve 25 outputs, (8 - 5 + 1)^2 slots of them.
TEST(ConvReuse, Seed2DElementUsedByUpToKernelSizeSquaredOutputs)
{
    const sim::Simulation r = runConv(conv2d("conv2d-tiled", 24, 24, 8, 5, {1, 1, 0}));
    const std::map<int, Threads> readers = sharedReaders(r);
    size_t most = 0, atMost = 0;
    for (const auto& [slot, threads] : readers) most = std::max(most, threads.size());
    for (const auto& [slot, threads] : readers) atMost += threads.size() == most;
    EXPECT_EQ(most, 25u);
    EXPECT_EQ(atMost, 16u);
}

// The halo is loaded by the last n and the first n threads ("Loading Left Halo", "Loading
// Right Halo"): which thread wrote each N_ds slot of block 1, TILE_SIZE 8, Mask_Width 5.
TEST(ConvReuse, HaloSlotsAreLoadedByTheEdgeThreads)
{
    const sim::Simulation r = runConv(conv1d("conv1d-tiled", 64, 8, 5, 1));
    std::map<int, int> writer;
    const int nds = r.arrayIndex("N_ds");
    for (const sim::Event& e : r.trace.events)
        if (e.op == sim::Op::SharedStore && e.array == nds) writer[e.index] = e.thread;
    const std::map<int, int> expected = {{0, 6}, {1, 7}, {2, 0}, {3, 1}, {4, 2},  {5, 3},
                                         {6, 4}, {7, 5}, {8, 6}, {9, 7}, {10, 0}, {11, 1}};
    EXPECT_EQ(writer, expected);
}

}  // namespace
}  // namespace ts::test
