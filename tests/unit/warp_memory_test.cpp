// The warp memory model (sim/engine/warp_memory.hpp): requests, 32-byte sectors, shared-memory
// wavefronts and constant-cache passes of warp memory instructions.
//
// Three kinds of check:
//   1. hand-made warps through transactionsOf(), the textbook access patterns of PMPP
//      sec. 6.1 (coalesced, misaligned, strided, one row per lane) and the bank patterns
//      of a shared array (broadcast, 2-way and 32-way conflicts, the padded stride 33);
//   2. whole simulations against figures derived by hand from the kernels' loop
//      structure (matmul-tiled 64^3, a ragged product whose edge warps are partly idle,
//      and two convolutions whose lanes diverge);
//   3. a second, independent count: the traced block's events regrouped into warp
//      instructions by the simple code of this file (maps and sets, no transactionsOf()),
//      compared with the model's per-block and per-line figures, for every kernel of the
//      registry at several sizes.
// Part 1 is here, part 2 in warp_memory_simulation_test.cpp, part 3 in
// warp_memory_independent_test.cpp.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

#include "sim/catalogue/kernel_info.hpp"
#include "sim/engine/warp_memory.hpp"
#include "trace_query.hpp"

namespace ts::test {
namespace {

using sim::AccessKind;
using sim::transactionsOf;
using sim::WarpTransactions;

constexpr uint32_t kAll = 0xFFFFFFFFu;

/// Lane L's word is f(L), for every lane.
template <class F>
std::vector<uint32_t> lanes(F f)
{
    std::vector<uint32_t> w(32);
    for (uint32_t l = 0; l < 32; ++l) w[l] = f(l);
    return w;
}

WarpTransactions of(AccessKind k, uint32_t mask, const std::vector<uint32_t>& words)
{
    return transactionsOf(k, mask, words.data());
}

// ---------------------------------------------------------------------------------------
// 1. Hand-made warps.

// 32 consecutive floats starting on a 128-byte boundary: 128 bytes, four 32-byte sectors,
// one line (PMPP sec. 6.1, the coalesced access of Fig. 6.2's row).
TEST(WarpTransactions, CoalescedAlignedRow)
{
    for (uint32_t start : {0u, 32u, 4096u}) {
        const WarpTransactions t = of(AccessKind::GlobalLoad, kAll, lanes([&](uint32_t l) { return start + l; }));
        EXPECT_EQ(t.lanes, 32u);
        EXPECT_EQ(t.sectors, 4u) << start;
        EXPECT_EQ(t.cacheLines, 1u) << start;
        EXPECT_EQ(t.wavefronts, 0u);
    }
    // A store is counted the same way.
    const WarpTransactions st = of(AccessKind::GlobalStore, kAll, lanes([](uint32_t l) { return 64 + l; }));
    EXPECT_EQ(st.sectors, 4u);
    EXPECT_EQ(st.cacheLines, 1u);
}

// Shifted by one word: words 1..32 straddle sectors 0..4 and lines 0..1.
TEST(WarpTransactions, MisalignedByOneWord)
{
    const WarpTransactions t = of(AccessKind::GlobalLoad, kAll, lanes([](uint32_t l) { return 1 + l; }));
    EXPECT_EQ(t.sectors, 5u);
    EXPECT_EQ(t.cacheLines, 2u);
    // Shifted by 7 words (still 5 sectors), by 8 (a whole sector: 4 sectors, 2 lines).
    EXPECT_EQ(of(AccessKind::GlobalLoad, kAll, lanes([](uint32_t l) { return 7 + l; })).sectors, 5u);
    const WarpTransactions s8 = of(AccessKind::GlobalLoad, kAll, lanes([](uint32_t l) { return 8 + l; }));
    EXPECT_EQ(s8.sectors, 4u);
    EXPECT_EQ(s8.cacheLines, 2u);
}

// Stride 2: words 0, 2, ..., 62 span 256 bytes, 8 sectors, 2 lines; half of each sector is
// wasted.
TEST(WarpTransactions, StrideTwo)
{
    const WarpTransactions t = of(AccessKind::GlobalLoad, kAll, lanes([](uint32_t l) { return 2 * l; }));
    EXPECT_EQ(t.sectors, 8u);
    EXPECT_EQ(t.cacheLines, 2u);
}

// One row per lane (the column walk of matmul-naive's M[Row*Width + i] read across a warp
// whose lanes have different rows): every lane its own sector and line.
TEST(WarpTransactions, ThirtyTwoRows)
{
    for (uint32_t stride : {32u, 33u, 64u, 1000u}) {
        const WarpTransactions t = of(AccessKind::GlobalLoad, kAll, lanes([&](uint32_t l) { return 5 + stride * l; }));
        EXPECT_EQ(t.sectors, 32u) << stride;
        EXPECT_EQ(t.cacheLines, 32u) << stride;
    }
    // Stride 8 words: one sector each, four per line.
    const WarpTransactions t8 = of(AccessKind::GlobalLoad, kAll, lanes([](uint32_t l) { return 8 * l; }));
    EXPECT_EQ(t8.sectors, 32u);
    EXPECT_EQ(t8.cacheLines, 8u);
}

// The lanes' order does not matter, nor do repeated words (a warp reading one element).
TEST(WarpTransactions, OrderAndRepeatsDoNotMatter)
{
    const WarpTransactions rev = of(AccessKind::GlobalLoad, kAll, lanes([](uint32_t l) { return 31 - l; }));
    EXPECT_EQ(rev.sectors, 4u);
    EXPECT_EQ(rev.cacheLines, 1u);
    const WarpTransactions one = of(AccessKind::GlobalLoad, kAll, lanes([](uint32_t) { return 77u; }));
    EXPECT_EQ(one.sectors, 1u);
    EXPECT_EQ(one.cacheLines, 1u);
    // Two halves reading the same 16 words: 2 sectors.
    const WarpTransactions halves = of(AccessKind::GlobalLoad, kAll, lanes([](uint32_t l) { return 16 + l % 16; }));
    EXPECT_EQ(halves.sectors, 2u);
}

// Shared memory, 32 banks of 4 bytes: every lane on one word is a broadcast.
TEST(WarpTransactions, SharedBroadcast)
{
    for (AccessKind k : {AccessKind::SharedLoad, AccessKind::SharedStore}) {
        const WarpTransactions t = of(k, kAll, lanes([](uint32_t) { return 45u; }));
        EXPECT_EQ(t.wavefronts, 1u);
        EXPECT_EQ(t.lanes, 32u);
        EXPECT_EQ(t.sectors, 0u);
    }
    // Consecutive words: one per bank.
    EXPECT_EQ(of(AccessKind::SharedLoad, kAll, lanes([](uint32_t l) { return 3 + l; })).wavefronts, 1u);
}

// Stride 2 words: banks 0, 2, ..., 30, two different words in each: a 2-way conflict.
TEST(WarpTransactions, SharedTwoWayConflict)
{
    EXPECT_EQ(of(AccessKind::SharedLoad, kAll, lanes([](uint32_t l) { return 2 * l; })).wavefronts, 2u);
    // Stride 4: 4-way; stride 8: 8-way; stride 16: 16-way.
    EXPECT_EQ(of(AccessKind::SharedLoad, kAll, lanes([](uint32_t l) { return 4 * l; })).wavefronts, 4u);
    EXPECT_EQ(of(AccessKind::SharedLoad, kAll, lanes([](uint32_t l) { return 8 * l; })).wavefronts, 8u);
    EXPECT_EQ(of(AccessKind::SharedStore, kAll, lanes([](uint32_t l) { return 16 * l; })).wavefronts, 16u);
}

// Stride 32 words (a column of a 32-wide float tile): every lane in bank 0, 32 wavefronts;
// padding the row to 33 words puts lane L in bank L: no conflict.
TEST(WarpTransactions, SharedColumnAndPaddedColumn)
{
    EXPECT_EQ(of(AccessKind::SharedLoad, kAll, lanes([](uint32_t l) { return 32 * l; })).wavefronts, 32u);
    EXPECT_EQ(of(AccessKind::SharedStore, kAll, lanes([](uint32_t l) { return 7 + 32 * l; })).wavefronts, 32u);
    EXPECT_EQ(of(AccessKind::SharedLoad, kAll, lanes([](uint32_t l) { return 33 * l; })).wavefronts, 1u);
    EXPECT_EQ(of(AccessKind::SharedStore, kAll, lanes([](uint32_t l) { return 33 * l; })).wavefronts, 1u);
}

// A broadcast inside a conflict: lanes sharing a word take one pass; the fullest bank
// counts its distinct words only.
TEST(WarpTransactions, SharedBroadcastInsideConflict)
{
    // Lanes 0..15 read word 0, lanes 16..31 word 32: bank 0 holds two words.
    EXPECT_EQ(of(AccessKind::SharedLoad, kAll, lanes([](uint32_t l) { return l < 16 ? 0u : 32u; })).wavefronts, 2u);
    // Lane L reads word L % 4 * 32: four words in bank 0, each read by 8 lanes.
    EXPECT_EQ(of(AccessKind::SharedLoad, kAll, lanes([](uint32_t l) { return l % 4 * 32; })).wavefronts, 4u);
}

// Idle lanes (outside the mask) count for nothing, whatever their words hold.
TEST(WarpTransactions, PartlyIdleLanes)
{
    // Lanes 0..19 active; the idle lanes hold words that would add sectors and conflicts.
    const uint32_t mask20 = (1u << 20) - 1;
    const std::vector<uint32_t> w = lanes([](uint32_t l) { return l < 20 ? l : 100000 + 32 * l; });
    const WarpTransactions g = of(AccessKind::GlobalLoad, mask20, w);
    EXPECT_EQ(g.lanes, 20u);
    EXPECT_EQ(g.sectors, 3u);     // words 0..19: sectors 0, 1, 2
    EXPECT_EQ(g.cacheLines, 1u);
    EXPECT_EQ(of(AccessKind::SharedLoad, mask20, w).wavefronts, 1u);
    // The same 20 lanes on a column: 20 words in bank 0.
    const std::vector<uint32_t> col = lanes([](uint32_t l) { return l < 20 ? 32 * l : l; });
    EXPECT_EQ(of(AccessKind::SharedLoad, mask20, col).wavefronts, 20u);
    // A scattered mask of 20 lanes (every lane but 12 spread ones), stride 2 words.
    uint32_t scattered = kAll;
    for (uint32_t l : {0u, 3u, 5u, 8u, 11u, 14u, 17u, 20u, 23u, 26u, 29u, 31u}) scattered &= ~(1u << l);
    ASSERT_EQ(__builtin_popcount(scattered), 20);
    const std::vector<uint32_t> s2 = lanes([](uint32_t l) { return 2 * l; });
    const WarpTransactions gs = of(AccessKind::GlobalLoad, scattered, s2);
    EXPECT_EQ(gs.lanes, 20u);
    // Active lanes 1,2,4,6,7,9,10,12,13,15,16,18,19,21,22,24,25,27,28,30: words 2 L, sectors
    // (2 L) / 8 = L / 4, every value 0..7 taken: 8 sectors.
    EXPECT_EQ(gs.sectors, 8u);
    // Banks 2 L mod 32: lanes L and L + 16 share a bank (different words); both are active
    // for L = 2, 6, 9, 12: 2 wavefronts.
    EXPECT_EQ(of(AccessKind::SharedLoad, scattered, s2).wavefronts, 2u);
    // No lane active: nothing.
    const WarpTransactions none = of(AccessKind::GlobalLoad, 0, s2);
    EXPECT_EQ(none.lanes, 0u);
    EXPECT_EQ(none.sectors, 0u);
}

// Constant memory: one pass per distinct address among the lanes.
TEST(WarpTransactions, ConstantPasses)
{
    const WarpTransactions one = of(AccessKind::ConstantLoad, kAll, lanes([](uint32_t) { return 3u; }));
    EXPECT_EQ(one.wavefronts, 1u);
    EXPECT_EQ(one.sectors, 0u);
    const WarpTransactions five = of(AccessKind::ConstantLoad, kAll, lanes([](uint32_t l) { return l % 5; }));
    EXPECT_EQ(five.wavefronts, 5u);
    // Five distinct addresses among 7 active lanes, the idle ones holding others.
    const uint32_t mask = 0b1010101010101u;   // lanes 0, 2, 4, ..., 12: 7 lanes
    const std::vector<uint32_t> w = lanes([](uint32_t l) { return l <= 12 ? std::min(l / 2, 4u) : 50 + l; });
    const WarpTransactions t = of(AccessKind::ConstantLoad, mask, w);
    EXPECT_EQ(t.lanes, 7u);
    EXPECT_EQ(t.wavefronts, 5u);   // lanes 0,2,4,6,8 -> 0,1,2,3,4; lanes 10,12 -> 4
}

// 128-bit accesses (x.ldg4, x.lds4, x.sts4): one request of four words a lane. The words
// given are each lane's first (a multiple of 4).
WarpTransactions wide(AccessKind k, uint32_t mask, const std::vector<uint32_t>& words)
{
    return transactionsOf(k, mask, words.data(), true);
}

// LDG.128 of 512 consecutive bytes: lane L reads words 4L .. 4L + 3, which lie in sector
// 4L / 8 = L / 2: 16 sectors (512 / 32) in 4 lines (512 / 128), one request.
TEST(WarpTransactions, WideGlobalRow)
{
    const WarpTransactions t = wide(AccessKind::GlobalLoad, kAll, lanes([](uint32_t l) { return 4 * l; }));
    EXPECT_EQ(t.lanes, 32u);
    EXPECT_EQ(t.sectors, 16u);
    EXPECT_EQ(t.cacheLines, 4u);
    // Every lane the same 16 bytes: one sector.
    EXPECT_EQ(wide(AccessKind::GlobalLoad, kAll, lanes([](uint32_t) { return 36u; })).sectors, 1u);
}

// LDS.128, each half-warp served on its own.
//  - 512 consecutive bytes: half 0 reads words 0..63, two words in every bank: 2 wavefronts,
//    and 256 bytes need 2 at least; half 1 the same: 4 wavefronts, no conflict.
//  - The M tile of matmul-conflict-free: lanes 0-15 (ty) read words 0..3, lanes 16-31
//    (ty + 1) words 4..7: one chunk a half-warp, 1 wavefront each, 2 in all, no conflict.
//  - The N tile of matmul-vectorized: lane L reads words 8 (L % 16) .. + 3; in a half-warp
//    chunks 0, 4, 8 and 12 all fall into banks 0-3 (8 x 4 = 32): 4 words in one bank, 4
//    wavefronts where 256 bytes need 2: 2 conflicts a half, 8 wavefronts and 4 conflicts.
// Nsight Compute on an H100 counts the same (matmul-conflict-free and matmul-vectorized at
// 256^3: WideRungsEqualNsightCompute below).
TEST(WarpTransactions, WideSharedHalfWarps)
{
    const WarpTransactions row = wide(AccessKind::SharedLoad, kAll, lanes([](uint32_t l) { return 4 * l; }));
    EXPECT_EQ(row.wavefronts, 4u);
    EXPECT_EQ(row.ideal, 4u);
    const WarpTransactions m = wide(AccessKind::SharedLoad, kAll, lanes([](uint32_t l) { return l < 16 ? 0u : 4u; }));
    EXPECT_EQ(m.wavefronts, 2u);
    EXPECT_EQ(m.ideal, 2u);
    const WarpTransactions n = wide(AccessKind::SharedLoad, kAll, lanes([](uint32_t l) { return 8 * (l % 16); }));
    EXPECT_EQ(n.wavefronts, 8u);
    EXPECT_EQ(n.ideal, 4u);
    // The N tile of matmul-warptiled: lane L reads words 4 (L % 8) .. + 3, so each
    // quarter-warp reads the same 128 bytes (banks 0-31 once). The two quarters of a half
    // do not share what they read: 2 wavefronts a half, 4 in all, and that is the fewest
    // (Nsight Compute on an H100: 2048 wavefronts, 2048 ideal, for 512 such LDS.128).
    const WarpTransactions quarters = wide(AccessKind::SharedLoad, kAll, lanes([](uint32_t l) { return 4 * (l % 8); }));
    EXPECT_EQ(quarters.wavefronts, 4u);
    EXPECT_EQ(quarters.ideal, 4u);
    // Its M tile: quarter q reads chunk q (words 4q .. 4q + 3), 8 lanes each: two chunks a
    // half in different banks, 1 wavefront a half (Nsight: 1024 for 512 LDS.128).
    const WarpTransactions fours = wide(AccessKind::SharedLoad, kAll, lanes([](uint32_t l) { return 4 * (l / 8); }));
    EXPECT_EQ(fours.wavefronts, 2u);
    EXPECT_EQ(fours.ideal, 2u);
    // One half-warp idle: only the other is served.
    const WarpTransactions half = wide(AccessKind::SharedStore, 0x0000FFFFu, lanes([](uint32_t l) { return 4 * l; }));
    EXPECT_EQ(half.wavefronts, 2u);
    EXPECT_EQ(half.ideal, 2u);
    // The same words as 32-bit accesses would be one wavefront: the rule is the width's.
    EXPECT_EQ(of(AccessKind::SharedLoad, kAll, lanes([](uint32_t l) { return l < 16 ? 0u : 4u; })).wavefronts, 1u);
}

// memoryByLine sums a line's arrays into one row, in line order, global before shared.
TEST(WarpTransactions, MemoryByLineGroupsArraysOfALine)
{
    std::vector<sim::AccessSite> sites(4);
    sites[0] = {20, 1, AccessKind::SharedLoad, 10, 320, 0, 0, 12, 10};
    sites[1] = {10, 0, AccessKind::GlobalLoad, 5, 160, 20, 5, 0, 0};
    sites[2] = {20, 2, AccessKind::SharedLoad, 10, 320, 0, 0, 10, 10};
    sites[3] = {10, 1, AccessKind::SharedStore, 5, 160, 0, 0, 5, 5};
    const std::vector<sim::LineMemory> lines = sim::memoryByLine(sites);
    ASSERT_EQ(lines.size(), 3u);
    EXPECT_EQ(lines[0].line, 10u);
    EXPECT_EQ(lines[0].space, sim::Space::Global);
    EXPECT_EQ(lines[0].sectors, 20u);
    EXPECT_EQ(lines[1].line, 10u);
    EXPECT_EQ(lines[1].space, sim::Space::Shared);
    EXPECT_TRUE(lines[1].store);
    EXPECT_EQ(lines[2].line, 20u);
    EXPECT_EQ(lines[2].requests, 20u);
    EXPECT_EQ(lines[2].wavefronts, 22u);
    EXPECT_EQ(lines[2].conflicts(), 2u);
    EXPECT_EQ(lines[2].arrays, (std::vector<uint8_t>{1, 2}));
}

}  // namespace
}  // namespace ts::test
