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

// ---------------------------------------------------------------------------------------
// 2. Whole simulations against hand-derived figures.

sim::Simulation run(const sim::Scenario& s, bool trace = false, bool model = true)
{
    EXPECT_EQ(sim::validate(s), "");
    sim::SimOptions o;
    o.trace = trace;
    o.memoryModel = model;
    sim::Simulation r = sim::simulate(s, o);
    EXPECT_EQ(r.error, "");
    EXPECT_TRUE(r.matchesReference);
    return r;
}

// The ladder's 128-bit rungs against Nsight Compute's counters for the same launches on an
// NVIDIA H100 (scripts/gpu-memory.sh; docs/measurements/gpu-memory-h100.txt): LDG.128 as one
// request per warp, LDS.128 and STS.128 served by half-warps, and guarded stores matched by
// their unrolled iteration (x.unrolled) where lanes skip some at the ragged edge. The
// figures are the hardware's, not derived from the model.
TEST(WarpMemoryHardware, WideRungsEqualNsightCompute)
{
    constexpr uint64_t kNotCompared = ~uint64_t{0};
    struct Expected {
        const char* kernel;
        int j, k, l;
        uint64_t ldReq, ldSec, stReq, stSec, shLdReq, shLdWave, shLdConf, shStReq, shStWave;
    };
    const Expected cases[] = {
        // Its shared-store wavefronts are not compared: Nsight counted 12,628 and 12,657 in
        // two runs of the same launch (pipe contention), the model 12,288.
        {"matmul-vectorized", 256, 256, 256, 2048, 32768, 2048, 65536, 32768, 163840, 65536, 5120, kNotCompared},
        {"matmul-conflict-free", 256, 256, 256, 2048, 32768, 2048, 32768, 32768, 98304, 0, 5120, 8192},
        {"matmul-conflict-free", 100, 37, 51, 288, 3860, 208, 2750, 1280, 3840, 0, 200, 320},
        {"matmul-tuned", 100, 37, 51, 304, 3464, 208, 2750, 1536, 4608, 0, 240, 576},
    };
    for (const Expected& e : cases) {
        const sim::KernelInfo* k = sim::findKernel(e.kernel);
        ASSERT_NE(k, nullptr);
        const sim::Scenario s = sim::matmulScenario(e.kernel, e.j, e.k, e.l, k->defaultTile);
        SCOPED_TRACE(std::string(e.kernel) + " " + std::to_string(e.j) + "x" + std::to_string(e.k) + "x" +
                     std::to_string(e.l));
        const sim::Totals t = run(s).counters.totals;
        EXPECT_EQ(t.global_ld_requests, e.ldReq);
        EXPECT_EQ(t.global_ld_sectors, e.ldSec);
        EXPECT_EQ(t.global_st_requests, e.stReq);
        EXPECT_EQ(t.global_st_sectors, e.stSec);
        EXPECT_EQ(t.shared_ld_requests, e.shLdReq);
        EXPECT_EQ(t.shared_ld_wavefronts, e.shLdWave);
        EXPECT_EQ(t.shared_ld_conflicts, e.shLdConf);
        EXPECT_EQ(t.shared_st_requests, e.shStReq);
        if (e.shStWave != kNotCompared) EXPECT_EQ(t.shared_st_wavefronts, e.shStWave);
    }
}

const sim::Totals& blockTotals(const sim::Simulation& r, sim::Uint3 b)
{
    return r.counters.perBlock.at(sim::linearBlock(r.grid, b));
}

/// The source line of the kernel file on which `text` appears (0 if it does not): the
/// per-line figures are looked up by statement, not by a line number written here.
unsigned lineOf(const std::string& kernel, const std::string& text)
{
    const sim::KernelInfo* k = sim::findKernel(kernel);
    if (!k) return 0;
    std::istringstream in(sim::kernelSource(k->sourceFile));
    std::string l;
    for (unsigned n = 1; std::getline(in, l); ++n)
        if (l.find(text) != std::string::npos) return n;
    return 0;
}

const sim::LineMemory* findLine(const std::vector<sim::LineMemory>& lines, unsigned line, sim::Space space, bool store)
{
    for (const sim::LineMemory& l : lines)
        if (l.line == line && l.space == space && l.store == store) return &l;
    return nullptr;
}

// matmul-tiled is conflict-free at every TILE_WIDTH: Mds[ty][i] is one word per row of the
// warp (rows TILE_WIDTH words apart, in different banks, or broadcast), Nds[i][tx] is
// consecutive words, and the tile stores are consecutive words.
TEST(WarpMemorySimulation, MatmulTiledHasNoBankConflicts)
{
    for (int tile : {2, 4, 8, 16, 32}) {
        SCOPED_TRACE("TILE_WIDTH " + std::to_string(tile));
        const sim::Simulation r = run(matmul("matmul-tiled", 64, 64, 64, tile));
        const sim::Totals& t = r.counters.totals;
        EXPECT_GT(t.shared_ld_requests, 0u);
        EXPECT_EQ(t.shared_ld_wavefronts, t.shared_ld_requests);
        EXPECT_GT(t.shared_st_requests, 0u);
        EXPECT_EQ(t.shared_st_wavefronts, t.shared_st_requests);
    }
}

// matmul-tiled, 64 x 64 x 64, TILE_WIDTH 16. Grid 4 x 4 = 16 blocks of 256 threads = 8 warps;
// warp w holds rows ty = 2w and 2w + 1, 16 lanes (tx = 0..15) each. 64 / 16 = 4 phases.
//   M load  M[Row*64 + ph*16 + tx]: per warp and phase one request; each row's 16 floats are
//           64 bytes starting on a 64-byte boundary (Row*64 words = 256 bytes, ph*16 words =
//           64 bytes): 2 sectors a row, 4 per request.
//   N load  N[(ph*16 + ty)*64 + bx*16 + tx]: the same, 4 sectors per request.
//   => global_ld_requests = 16 blocks x 8 warps x 4 phases x 2 = 1024, sectors 4 x 1024.
//   Mds[ty][tx] / Nds[ty][tx] stores: the warp's 32 lanes on 32 consecutive words (Nds
//           starts 256 words after Mds): one wavefront. 1024 requests, 1024 wavefronts.
//   Mds[ty][i]: 2 words 16 apart (banks 16 apart); Nds[i][tx]: 16 consecutive words, read
//           by both rows (broadcast): one wavefront each. 16 iterations x 2 arrays x 4
//           phases x 8 warps x 16 blocks = 16384 requests and wavefronts.
//   P store P[Row*64 + bx*16 + tx]: 16 blocks x 8 warps = 128 requests, 4 sectors each.
//   Compulsory bytes: M and N read whole, 2 x 4096 x 4 B; P written whole, 4096 x 4 B.
TEST(WarpMemorySimulation, MatmulTiled64Tile16ByHand)
{
    const sim::Simulation r = run(matmul("matmul-tiled", 64, 64, 64, 16));
    const sim::Totals& t = r.counters.totals;
    EXPECT_EQ(t.global_ld_requests, 1024u);
    EXPECT_EQ(t.global_ld_sectors, 4096u);
    EXPECT_EQ(t.global_st_requests, 128u);
    EXPECT_EQ(t.global_st_sectors, 512u);
    EXPECT_EQ(t.shared_st_requests, 1024u);
    EXPECT_EQ(t.shared_st_wavefronts, 1024u);
    EXPECT_EQ(t.shared_ld_requests, 16384u);
    EXPECT_EQ(t.shared_ld_wavefronts, 16384u);
    EXPECT_EQ(t.constant_ld_requests, 0u);
    EXPECT_EQ(t.constant_ld_passes, 0u);
    EXPECT_EQ(sim::requestedBytes(t), 32u * (4096 + 512));
    EXPECT_EQ(sim::compulsoryReadBytes(r), 2u * 4096 * 4);
    EXPECT_EQ(sim::compulsoryWriteBytes(r), 4096u * 4);
    EXPECT_EQ(sim::compulsoryBytes(r), 3u * 4096 * 4);
    // Every block alike: an eighth of a sixteenth.
    for (const sim::Totals& b : r.counters.perBlock) {
        EXPECT_EQ(b.global_ld_requests, 64u);
        EXPECT_EQ(b.global_ld_sectors, 256u);
        EXPECT_EQ(b.shared_ld_requests, 1024u);
        EXPECT_EQ(b.global_st_requests, 8u);
    }
    // Per line: the M load, the Mds store (same line), the N load, the Nds store, the use
    // line (Mds and Nds together), the P store.
    const std::vector<sim::LineMemory> lines = sim::memoryByLine(r.accessSites);
    const unsigned mLine = lineOf("matmul-tiled", "Mds[ty][tx] = M[");
    const unsigned nLine = lineOf("matmul-tiled", "Nds[ty][tx] = N[");
    const unsigned useLine = lineOf("matmul-tiled", "Pvalue += Mds[ty][i] * Nds[i][tx]");
    const unsigned pLine = lineOf("matmul-tiled", "P[Row*l + Col] = Pvalue");
    ASSERT_TRUE(mLine && nLine && useLine && pLine);
    ASSERT_EQ(lines.size(), 6u);
    const sim::LineMemory* m = findLine(lines, mLine, sim::Space::Global, false);
    ASSERT_TRUE(m);
    EXPECT_EQ(m->requests, 512u);
    EXPECT_EQ(m->sectors, 2048u);
    EXPECT_EQ(m->cacheLines, 1024u);   // two rows, two lines
    EXPECT_EQ(m->lanes, 16u * 256 * 4);
    const sim::LineMemory* mds = findLine(lines, mLine, sim::Space::Shared, true);
    ASSERT_TRUE(mds);
    EXPECT_EQ(mds->requests, 512u);
    EXPECT_EQ(mds->conflicts(), 0u);
    const sim::LineMemory* use = findLine(lines, useLine, sim::Space::Shared, false);
    ASSERT_TRUE(use);
    EXPECT_EQ(use->requests, 16384u);
    EXPECT_EQ(use->arrays.size(), 2u);
    const sim::LineMemory* p = findLine(lines, pLine, sim::Space::Global, true);
    ASSERT_TRUE(p);
    EXPECT_EQ(p->requests, 128u);
    EXPECT_EQ(p->sectors, 512u);
    // The lanes of every line add up to the element counts.
    uint64_t globalLanes = 0, sharedLoadLanes = 0;
    for (const sim::LineMemory& l : lines) {
        if (l.space == sim::Space::Global && !l.store) globalLanes += l.lanes;
        if (l.space == sim::Space::Shared && !l.store) sharedLoadLanes += l.lanes;
    }
    EXPECT_EQ(globalLanes, t.global_loads);
    EXPECT_EQ(sharedLoadLanes, t.shared_loads);
}

// TILE_WIDTH 32 on 64^3: 2 x 2 blocks of 32 warps, warp w = row ty = w; 2 phases. Each warp
// load is one 128-byte row (4 sectors): 4 x 32 x 2 x 2 = 512 requests, 2048 sectors.
// Mds[ty][i] is one word for the whole warp (broadcast), Nds[i][tx] 32 consecutive words:
// 4 x 32 x 2 x 32 x 2 = 16384 shared requests, as many wavefronts; P: 128 requests x 4.
TEST(WarpMemorySimulation, MatmulTiled64Tile32ByHand)
{
    const sim::Simulation r = run(matmul("matmul-tiled", 64, 64, 64, 32));
    const sim::Totals& t = r.counters.totals;
    EXPECT_EQ(t.global_ld_requests, 512u);
    EXPECT_EQ(t.global_ld_sectors, 2048u);
    EXPECT_EQ(t.shared_st_requests, 512u);
    EXPECT_EQ(t.shared_ld_requests, 16384u);
    EXPECT_EQ(t.shared_ld_wavefronts, 16384u);
    EXPECT_EQ(t.global_st_requests, 128u);
    EXPECT_EQ(t.global_st_sectors, 512u);
}

// The naive kernel at 64^3 with 16 x 16 blocks: per warp (two rows of 16 lanes) and
// iteration i, M[Row*64 + i] is two words in two rows (2 sectors) and N[i*64 + Col] 16
// consecutive words on a 64-byte boundary (2 sectors). 16 blocks x 8 warps x 64 iterations
// x 2 = 16384 requests, 32768 sectors.
TEST(WarpMemorySimulation, MatmulNaive64ByHand)
{
    const sim::Simulation r = run(matmul("matmul-naive", 64, 64, 64, 16));
    const sim::Totals& t = r.counters.totals;
    EXPECT_EQ(t.global_ld_requests, 16384u);
    EXPECT_EQ(t.global_ld_sectors, 32768u);
    EXPECT_EQ(t.global_st_requests, 128u);
    EXPECT_EQ(t.shared_ld_requests + t.shared_st_requests, 0u);
}

// Ragged: j = 100, k = 37, l = 51, TILE_WIDTH 16. Grid ceil(51/16) = 4 by ceil(100/16) = 7
// blocks of 8 warps (warp w: rows ty = 2w, 2w + 1); (37 - 1)/16 + 1 = 3 phases. Only warps
// with an active lane issue a request.
//   M load, guarded by Row < 100 && ph*16 + tx < 37: in block row by = 6 the rows are
//     96 + ty, so only warps 0 and 1 (ty 0..3) have a lane; phase 2 has tx 0..4 active
//     (a request still). Per block column: (6 x 8 + 2) warps x 3 phases = 150; x 4 = 600.
//   N load, guarded by ph*16 + ty < 37 && Col < 51: phases 0 and 1 all 8 warps; phase 2
//     ty 0..4, warps 0, 1, 2. Block column bx = 3 has tx 0..2 in every warp. Per block
//     8 + 8 + 3 = 19; 28 blocks: 532. Together 1132.
//   Tile stores: every thread stores, a value in the if branch or a zero in the else
//     branch, and the two branches are two source accesses (two lines): a warp with lanes
//     in both issues two requests. Mds: block rows 0..5 have 8 warps with 1 + 1 + 2
//     requests (in phase 2 tx 0..4 load, the rest zero), block row 6 has warps 0, 1 so and
//     warps 2..7 with one zero store a phase: 6 x 32 + 2 x 4 + 6 x 3 = 218 per block
//     column, 872 in all. Nds: in block columns 0..2, 8 + 8 + (1 + 1 + 2 + 5) = 25 per
//     block (phase 2: warp 2 has ty 4 loading and ty 5 not); in block column 3 (tx 0..2
//     load) every warp splits in phases 0 and 1, 16 + 16 + (2 + 2 + 2 + 5) = 43. 7 block
//     rows x (3 x 25 + 43) = 826. Together 1698, each a run of consecutive words: no
//     conflict.
//   Use loop, guarded by Row < 100 && Col < 51: warps with a lane inside P, 4 x (6 x 8 +
//     2) = 200; x 3 phases x 16 iterations x 2 arrays = 19200, no conflicts.
//   P store: the same 200 warps, 200 requests.
// Block (3, 6), the corner: rows 96..99, columns 48..50, 6 lanes active in warp 0 and 1.
//   M: 2 warps x 3 phases = 6; N: 19; shared loads 2 x 3 x 32 = 192; stores 26 + 43 = 69.
//   P: warp 0 writes P[96*51 + 48..50] = words 4944..4946 (sector 618) and
//   P[97*51 + 48..50] = 4995..4997 (sector 624): 2 sectors; warp 1 writes 5046..5048
//   (sectors 630, 631) and 5097..5099 (sector 637): 3 sectors. 2 requests, 5 sectors.
TEST(WarpMemorySimulation, RaggedEdgeWarpsArePartlyIdle)
{
    const sim::Simulation r = run(matmul("matmul-tiled", 100, 37, 51, 16));
    ASSERT_EQ(r.grid.x, 4u);
    ASSERT_EQ(r.grid.y, 7u);
    const sim::Totals& t = r.counters.totals;
    EXPECT_EQ(t.global_ld_requests, 1132u);
    EXPECT_EQ(t.shared_st_requests, 1698u);
    EXPECT_EQ(t.shared_st_wavefronts, 1698u);
    EXPECT_EQ(t.shared_ld_requests, 19200u);
    EXPECT_EQ(t.shared_ld_wavefronts, 19200u);
    EXPECT_EQ(t.global_st_requests, 200u);
    // Fewer than one request per warp, phase and input (28 x 8 x 3 x 2 = 1344): the warps
    // with no active lane issue none.
    EXPECT_LT(t.global_ld_requests, 28u * 8 * 3 * 2);
    const sim::Totals& corner = blockTotals(r, {3, 6, 0});
    EXPECT_EQ(corner.global_ld_requests, 25u);
    EXPECT_EQ(corner.shared_ld_requests, 192u);
    EXPECT_EQ(corner.shared_st_requests, 69u);
    EXPECT_EQ(corner.global_st_requests, 2u);
    EXPECT_EQ(corner.global_st_sectors, 5u);
    EXPECT_EQ(corner.global_stores, 12u);   // 4 rows x 3 columns
    // An inner block: every warp active in every phase but the last (N, warps 0..2).
    const sim::Totals& inner = blockTotals(r, {1, 2, 0});
    EXPECT_EQ(inner.global_ld_requests, 8u * 3 + 19);
    EXPECT_EQ(inner.shared_ld_requests, 8u * 3 * 32);
}

// Divergence inside a loop: conv1d-basic, Width 40, Mask_Width 5, blocks of 32.
// `if (N_start_point + j >= 0 && N_start_point + j < Width)` skips ghost elements, so lanes
// execute the N[...]*M[j] line different numbers of times. The mask element M[j] read on
// the same line names the iteration: the model matches the lanes' accesses by it, so
// iteration j of every lane that runs it is one instruction, as on the GPU, where the
// guard is a predicate of iteration j.
//   Block 0: lane L (i = L) reads N[L - 2 + j]; j = 0 runs in lanes 2..31 (words 0..29,
//     sectors 0..3: 4), j = 1 in lanes 1..31 (0..30: 4), j = 2 in all (0..31: 4), j = 3
//     (1..32: 5), j = 4 (2..33: 5). => 5 requests, 22 sectors; M[j]: 5 requests, 1 pass each.
//   Block 1: lanes 0..7 (i = 32..39) active, lane L reads N[30 + L + j]; lanes 6 and 7 stop
//     after j = 3 and j = 2. j = 0: 30..37 (2 sectors), 1: 31..38 (2), 2: 32..39 (1),
//     3: 33..39 (1), 4: 34..39 (1). => 5 requests, 7 sectors; M[j]: 5 requests, 5 passes.
//   P stores: block 0 P[0..31], 1 request, 4 sectors; block 1 P[32..39], 1 request, 1 sector.
// (Matching the n-th execution of each lane instead would pair lane 0's j = 2 with lane 2's
// j = 0 and count 3 passes for that M read.)
TEST(WarpMemorySimulation, DivergentLoopMatchesIterations)
{
    const sim::Simulation r = run(sim::convScenario("conv1d-basic", 1, 40, 32, 5));
    ASSERT_EQ(r.grid.x, 2u);
    const sim::Totals& b0 = blockTotals(r, {0, 0, 0});
    EXPECT_EQ(b0.global_ld_requests, 5u);
    EXPECT_EQ(b0.global_ld_sectors, 22u);
    EXPECT_EQ(b0.constant_ld_requests, 5u);
    EXPECT_EQ(b0.constant_ld_passes, 5u);
    EXPECT_EQ(b0.global_st_requests, 1u);
    EXPECT_EQ(b0.global_st_sectors, 4u);
    const sim::Totals& b1 = blockTotals(r, {1, 0, 0});
    EXPECT_EQ(b1.global_ld_requests, 5u);
    EXPECT_EQ(b1.global_ld_sectors, 7u);
    EXPECT_EQ(b1.constant_ld_requests, 5u);
    EXPECT_EQ(b1.constant_ld_passes, 5u);
    EXPECT_EQ(b1.global_st_requests, 1u);
    EXPECT_EQ(b1.global_st_sectors, 1u);
    const sim::Totals& t = r.counters.totals;
    EXPECT_EQ(t.global_loads, 3u + 4 + 30 * 5 + 6 * 5 + 4 + 3);
    EXPECT_EQ(t.constant_ld_passes, t.constant_ld_requests);
}

// Divergence between two branches of a loop: conv1d-tiled-cache, Width 1000, TILE_SIZE 2,
// Mask_Width 5, block 0 (lanes 0 and 1, the tile N[0..1]). In the loop over j:
//   lane 0 (i = 0): j = 0, 1 ghosts (skipped); j = 2, 3 in the tile: N_ds[0], N_ds[1] with
//     M[2], M[3] on the shared line; j = 4: N[2] with M[4] on the global line.
//   lane 1 (i = 1): j = 0 ghost; j = 1, 2 in the tile: N_ds[0], N_ds[1] with M[1], M[2];
//     j = 3, 4 outside: N[2], N[3] with M[3], M[4].
// By iteration: shared line j = 1 (lane 1), 2 (both: N_ds[0], N_ds[1], 1 wavefront),
// 3 (lane 0): 3 requests, 3 wavefronts, and its M reads 3 requests of one address each;
// global line j = 3 (lane 1: N[2]), j = 4 (N[2], N[3]: one sector): 2 requests, 2 sectors,
// its M reads 2 requests, 1 pass each. With the tile load N[0..1] (1 request, 1 sector):
// 3 global load requests and sectors, 5 constant requests and 5 passes. (The two lanes'
// logs start alike, shared load then M read, and part at the first M read, M[2] against
// M[1]: the shared load before it belongs to the same iteration as that M read.)
TEST(WarpMemorySimulation, DivergentBranchesMatchIterations)
{
    sim::Scenario s = sim::convScenario("conv1d-tiled-cache", 1, 1000, 2, 5);
    const sim::Simulation r = run(s);
    const sim::Totals& b = blockTotals(r, {0, 0, 0});
    EXPECT_EQ(b.shared_ld_requests, 3u);
    EXPECT_EQ(b.shared_ld_wavefronts, 3u);
    EXPECT_EQ(b.global_ld_requests, 3u);
    EXPECT_EQ(b.global_ld_sectors, 3u);
    EXPECT_EQ(b.constant_ld_requests, 5u);
    EXPECT_EQ(b.constant_ld_passes, 5u);
    EXPECT_EQ(b.constant_loads, 7u);
}

// Divergence by branch: conv1d-tiled, Width 64, TILE_SIZE 32, Mask_Width 5 (n = 2).
//   Block 0: left halo, lanes 30 and 31 (tx >= 30): index -32 + tx < 0, a zero fill into
//     N_ds[0..1]: a shared store request of 2 lanes, no global load. Internal: N[0..31]
//     (1 request, 4 sectors) into N_ds[2..33] (banks 2..31, 0, 1: 1 wavefront). Right
//     halo, lanes 0 and 1: N[32..33] (1 request, 1 sector) into N_ds[34..35].
//   Block 1: left halo N[30..31] (1 request, sector 3) into N_ds[0..1]; internal N[32..63]
//     (4 sectors); right halo 64 + tx >= 64: zero fill.
//   Both: after the barrier, j = 0..4: N_ds[tx + j] 32 consecutive words (1 wavefront),
//     M[j] one address (1 pass); P[i] 1 request, 4 sectors.
TEST(WarpMemorySimulation, DivergentHaloBranches)
{
    const sim::Simulation r = run(sim::convScenario("conv1d-tiled", 1, 64, 32, 5));
    ASSERT_EQ(r.grid.x, 2u);
    for (unsigned bx : {0u, 1u}) {
        SCOPED_TRACE("block " + std::to_string(bx));
        const sim::Totals& b = blockTotals(r, {bx, 0, 0});
        EXPECT_EQ(b.global_ld_requests, 2u);
        EXPECT_EQ(b.global_ld_sectors, 5u);
        EXPECT_EQ(b.shared_st_requests, 3u);
        EXPECT_EQ(b.shared_st_wavefronts, 3u);
        EXPECT_EQ(b.shared_ld_requests, 5u);
        EXPECT_EQ(b.shared_ld_wavefronts, 5u);
        EXPECT_EQ(b.constant_ld_requests, 5u);
        EXPECT_EQ(b.constant_ld_passes, 5u);
        EXPECT_EQ(b.global_st_requests, 1u);
        EXPECT_EQ(b.global_st_sectors, 4u);
        EXPECT_EQ(b.zero_fills, 2u);
    }
    // The halo lines: two lanes per request.
    const std::vector<sim::LineMemory> lines = sim::memoryByLine(r.accessSites);
    const unsigned left = lineOf("conv1d-tiled", "N_ds[tx - (TILE_SIZE - n)]");
    ASSERT_NE(left, 0u);
    const sim::LineMemory* leftStore = findLine(lines, left, sim::Space::Shared, true);
    ASSERT_TRUE(leftStore);
    EXPECT_EQ(leftStore->requests, 2u);
    EXPECT_EQ(leftStore->lanes, 4u);
    const sim::LineMemory* leftLoad = findLine(lines, left, sim::Space::Global, false);
    ASSERT_TRUE(leftLoad);
    EXPECT_EQ(leftLoad->requests, 1u);   // block 1 only
    EXPECT_EQ(leftLoad->lanes, 2u);
    EXPECT_EQ(leftLoad->sectors, 1u);
}

// A 2D tile whose rows are not 32 words wide has bank conflicts: conv2d-tiled with
// TILE_SIZE 8 and Mask_Width 5 has blocks of 12 x 12 threads and N_ds rows of
// 8 + 9 - 1 = 16 words. Warp 0 holds rows ty = 0, 1 (tx 0..11) and ty = 2 (tx 0..7): its
// lanes store words 0..11, 16..27 and 32..39, so that a bank such as bank 0 gets two words
// (0 and 32) from lanes 0 and 24.
TEST(WarpMemorySimulation, Conv2dTiledTileStoreConflicts)
{
    const sim::Simulation r = run(sim::convScenario("conv2d-tiled", 16, 16, 8, 5));
    const sim::Totals& t = r.counters.totals;
    EXPECT_GT(t.shared_st_wavefronts, t.shared_st_requests);
    // Blocks of 144 threads = 5 warps (the last of 16 lanes). The load `N_ds[ty][tx] = N[...]`
    // and the ghost store `N_ds[ty][tx] = 0.0f` are two source accesses; on this 16 x 16
    // input every warp has lanes of both but warp 4 (rows ty 10, 11) of the blocks with
    // by = 1, whose rows lie below N: 4 blocks x 5 warps x 2 - 2 = 38 requests.
    EXPECT_EQ(t.shared_st_requests, 4u * 5 * 2 - 2);
    // Each block's 12 x 12 input tile has 10 x 10 elements inside N (two ghost rows and two
    // ghost columns at the image's edge): 4 x (144 - 100) zero fills.
    EXPECT_EQ(t.zero_fills, 4u * (144 - 100));
    // Block (0, 0), warp 0: the two requests are the ghost rows ty 0, 1 and ty 2, tx 0, 1
    // (words 0..11, 16..27, 32, 33: banks 0, 1 twice: 2 wavefronts) and ty 2, tx 2..7
    // (words 34..39: 1 wavefront).
    EXPECT_GT(blockTotals(r, {0, 0, 0}).shared_st_wavefronts, blockTotals(r, {0, 0, 0}).shared_st_requests);
    EXPECT_EQ(t.constant_ld_requests, 4u * 25 * 3);   // warps 0..2 hold the 8 x 8 outputs
}

// The per-block figures add up to the totals, field by field.
TEST(WarpMemorySimulation, PerBlockFiguresSumToTotals)
{
    for (const sim::Scenario& s : {matmul("matmul-tiled", 100, 37, 51, 16), matmul("matmul-naive", 33, 20, 70, 8),
                                   sim::convScenario("conv2d-tiled", 40, 50, 8, 5),
                                   sim::convScenario("conv1d-tiled-cache", 1, 1000, 32, 7)}) {
        SCOPED_TRACE(s.kernel);
        const sim::Simulation r = run(s);
        sim::Totals sum;
        for (const sim::Totals& b : r.counters.perBlock) sum += b;
        const sim::Totals& t = r.counters.totals;
        EXPECT_GT(t.global_ld_requests, 0u);
        EXPECT_EQ(sum.global_ld_requests, t.global_ld_requests);
        EXPECT_EQ(sum.global_ld_sectors, t.global_ld_sectors);
        EXPECT_EQ(sum.global_st_requests, t.global_st_requests);
        EXPECT_EQ(sum.global_st_sectors, t.global_st_sectors);
        EXPECT_EQ(sum.shared_ld_requests, t.shared_ld_requests);
        EXPECT_EQ(sum.shared_ld_wavefronts, t.shared_ld_wavefronts);
        EXPECT_EQ(sum.shared_st_requests, t.shared_st_requests);
        EXPECT_EQ(sum.shared_st_wavefronts, t.shared_st_wavefronts);
        EXPECT_EQ(sum.constant_ld_requests, t.constant_ld_requests);
        EXPECT_EQ(sum.constant_ld_passes, t.constant_ld_passes);
        // And the sites (whole grid, per source access) add up to them as well.
        sim::Totals bySite;
        for (const sim::AccessSite& a : r.accessSites) {
            switch (a.kind) {
            case AccessKind::GlobalLoad: bySite.global_ld_requests += a.requests; bySite.global_ld_sectors += a.sectors; bySite.global_loads += a.lanes; break;
            case AccessKind::GlobalStore: bySite.global_st_requests += a.requests; bySite.global_st_sectors += a.sectors; bySite.global_stores += a.lanes; break;
            case AccessKind::SharedLoad: bySite.shared_ld_requests += a.requests; bySite.shared_ld_wavefronts += a.wavefronts; bySite.shared_loads += a.lanes; break;
            case AccessKind::SharedStore: bySite.shared_st_requests += a.requests; bySite.shared_st_wavefronts += a.wavefronts; bySite.shared_stores += a.lanes; break;
            case AccessKind::ConstantLoad: bySite.constant_ld_requests += a.requests; bySite.constant_ld_passes += a.wavefronts; bySite.constant_loads += a.lanes; break;
            }
        }
        EXPECT_EQ(bySite.global_ld_requests, t.global_ld_requests);
        EXPECT_EQ(bySite.global_ld_sectors, t.global_ld_sectors);
        EXPECT_EQ(bySite.global_st_sectors, t.global_st_sectors);
        EXPECT_EQ(bySite.shared_ld_wavefronts, t.shared_ld_wavefronts);
        EXPECT_EQ(bySite.shared_st_wavefronts, t.shared_st_wavefronts);
        EXPECT_EQ(bySite.constant_ld_passes, t.constant_ld_passes);
        EXPECT_EQ(bySite.global_loads, t.global_loads);
        EXPECT_EQ(bySite.global_stores, t.global_stores);
        EXPECT_EQ(bySite.shared_loads, t.shared_loads);
        EXPECT_EQ(bySite.shared_stores, t.shared_stores);
        EXPECT_EQ(bySite.constant_loads, t.constant_loads);
    }
}

// The warp schedule changes which warp runs ahead, not what a warp's instructions are.
TEST(WarpMemorySimulation, ScheduleDoesNotChangeTheFigures)
{
    const sim::Scenario s = matmul("matmul-tiled", 100, 37, 51, 16);
    const sim::Simulation a = run(s);
    for (sim::Schedule sch : {sim::Schedule::Reverse, sim::Schedule::Random}) {
        sim::SimOptions o;
        o.trace = false;
        o.schedule = sch;
        o.scheduleSeed = 7;
        const sim::Simulation b = sim::simulate(s, o);
        ASSERT_EQ(b.error, "");
        EXPECT_EQ(b.counters.totals.global_ld_sectors, a.counters.totals.global_ld_sectors);
        EXPECT_EQ(b.counters.totals.shared_ld_requests, a.counters.totals.shared_ld_requests);
        EXPECT_EQ(b.counters.totals.shared_st_wavefronts, a.counters.totals.shared_st_wavefronts);
        EXPECT_EQ(b.counters.totals.global_st_sectors, a.counters.totals.global_st_sectors);
    }
}

// With the memory model off the new fields stay zero, and nothing else changes: P, the
// element counts, barriers, flops, the per-element counters.
TEST(WarpMemorySimulation, ModelOffLeavesFieldsZeroAndChangesNothingElse)
{
    for (const sim::Scenario& s : {matmul("matmul-tiled", 100, 37, 51, 16), sim::convScenario("conv2d-tiled", 40, 50, 8, 5),
                                   sim::convScenario("conv1d-tiled-cache", 1, 500, 32, 5)}) {
        SCOPED_TRACE(s.kernel);
        const sim::Simulation on = run(s, true, true);
        const sim::Simulation off = run(s, true, false);
        EXPECT_TRUE(off.accessSites.empty());
        EXPECT_FALSE(on.accessSites.empty());
        ASSERT_EQ(on.P.size(), off.P.size());
        EXPECT_EQ(std::memcmp(on.P.data(), off.P.data(), on.P.size() * sizeof(float)), 0);
        std::vector<sim::Totals> blocks = off.counters.perBlock;
        blocks.push_back(off.counters.totals);
        for (const sim::Totals& t : blocks) {
            EXPECT_EQ(t.global_ld_requests + t.global_ld_sectors + t.global_st_requests + t.global_st_sectors +
                          t.shared_ld_requests + t.shared_ld_wavefronts + t.shared_st_requests +
                          t.shared_st_wavefronts + t.constant_ld_requests + t.constant_ld_passes,
                      0u);
        }
        EXPECT_GT(on.counters.totals.global_ld_requests, 0u);
        const sim::Totals& a = on.counters.totals;
        const sim::Totals& b = off.counters.totals;
        EXPECT_EQ(a.global_loads, b.global_loads);
        EXPECT_EQ(a.global_stores, b.global_stores);
        EXPECT_EQ(a.shared_loads, b.shared_loads);
        EXPECT_EQ(a.shared_stores, b.shared_stores);
        EXPECT_EQ(a.constant_loads, b.constant_loads);
        EXPECT_EQ(a.zero_fills, b.zero_fills);
        EXPECT_EQ(a.barriers, b.barriers);
        EXPECT_EQ(a.flops, b.flops);
        EXPECT_EQ(on.counters.elementLoads, off.counters.elementLoads);
        EXPECT_EQ(on.counters.elementStores, off.counters.elementStores);
        EXPECT_EQ(on.trace.events.size(), off.trace.events.size());
        // compulsory bytes come from the element counters: the same either way.
        EXPECT_EQ(sim::compulsoryBytes(on), sim::compulsoryBytes(off));
    }
}

// ---------------------------------------------------------------------------------------
// 3. A second, independent count from the trace.

/// Requests, sectors and passes of one direction of one memory space.
struct Figures {
    uint64_t requests = 0, lanes = 0, sectors = 0, passes = 0;
    bool operator==(const Figures&) const = default;
};

/// The figures of a traced block (or a set of them) by kind of access, and by (line, space,
/// store) for the per-line table.
struct Regrouped {
    std::map<AccessKind, Figures> byKind;
    std::map<std::tuple<unsigned, sim::Space, bool>, Figures> byLine;
};

AccessKind kindOf(sim::Op op)
{
    switch (op) {
    case sim::Op::GlobalLoad: return AccessKind::GlobalLoad;
    case sim::Op::GlobalStore: return AccessKind::GlobalStore;
    case sim::Op::SharedLoad: return AccessKind::SharedLoad;
    case sim::Op::ConstantLoad: return AccessKind::ConstantLoad;
    default: return AccessKind::SharedStore;   // SharedStore and ZeroFill
    }
}

/// One access of a thread, in its program order.
struct Access {
    unsigned line, array;
    AccessKind kind;
    uint64_t word;
    bool wide;         // a 128-bit access: word is the first of the lane's four
    unsigned tag;      // the thread's x.unrolled() tag
};

/// Regroups the traced block's events into warp memory instructions with plain maps.
/// Within a barrier interval, each thread's accesses are taken in its program order (by
/// Event::seq). An instruction is (warp = thread / 32, line, array, kind, anchor, n): the
/// n-th access of the thread with that (line, array, kind, anchor). The anchor ties a
/// statement's operands to the iteration of the mask loop that they belong to: scanning
/// left to right, a constant load and a load or store of another space next to each other
/// on one line form a pair whose anchor is the constant element (M[j], Mc[i][j]); every
/// other access has no anchor. An access made under an x.unrolled() tag is matched by the
/// tag too, and a 128-bit access (x.ldg4, x.lds4, x.sts4: its first event flagged
/// kVectorHead, the other three kVectorTail) is one access of four words. Shared words are
/// offset by the sizes of the shared arrays declared before (in the order of
/// Simulation::arrays). Adds into `out`.
void regroup(const sim::Simulation& r, Regrouped& out)
{
    std::vector<sim::Event> ev = r.trace.events;
    std::sort(ev.begin(), ev.end(), [](const sim::Event& a, const sim::Event& b) { return a.seq < b.seq; });
    std::vector<uint64_t> base(r.arrays.size(), 0);
    uint64_t sharedWords = 0;
    for (size_t a = 0; a < r.arrays.size(); ++a)
        if (r.arrays[a].space == sim::Space::Shared) {
            base[a] = sharedWords;
            sharedWords += static_cast<uint64_t>(r.arrays[a].size());
        }
    constexpr uint64_t kNone = ~uint64_t{0};
    std::map<unsigned, std::vector<Access>> byThread;   // this interval's accesses
    auto flush = [&] {
        using Key = std::tuple<unsigned, unsigned, unsigned, AccessKind, bool, unsigned, uint64_t, unsigned>;
        std::map<Key, std::vector<std::pair<unsigned, uint64_t>>> instructions;   // (lane, word)
        for (const auto& [thread, acc] : byThread) {
            std::vector<uint64_t> anchor(acc.size(), kNone);
            for (size_t i = 0; i + 1 < acc.size(); ++i) {
                const bool c0 = acc[i].kind == AccessKind::ConstantLoad, c1 = acc[i + 1].kind == AccessKind::ConstantLoad;
                if (acc[i].line == acc[i + 1].line && c0 != c1) {
                    anchor[i] = anchor[i + 1] = c0 ? acc[i].word : acc[i + 1].word;
                    ++i;
                }
            }
            std::map<std::tuple<unsigned, unsigned, AccessKind, bool, unsigned, uint64_t>, unsigned> occurrence;
            for (size_t i = 0; i < acc.size(); ++i) {
                const Access& a = acc[i];
                const unsigned n = occurrence[{a.line, a.array, a.kind, a.wide, a.tag, anchor[i]}]++;
                instructions[{thread / 32u, a.line, a.array, a.kind, a.wide, a.tag, anchor[i], n}].push_back(
                    {thread % 32u, a.word});
            }
        }
        for (const auto& [key, lanes] : instructions) {
            const unsigned line = std::get<1>(key);
            const AccessKind kind = std::get<3>(key);
            const bool wide = std::get<4>(key);
            const unsigned width = wide ? 4 : 1;   // words a lane touches
            Figures f;
            f.requests = 1;
            f.lanes = lanes.size() * width;
            if (kind == AccessKind::GlobalLoad || kind == AccessKind::GlobalStore) {
                std::set<uint64_t> sectors;
                for (const auto& [lane, w] : lanes)
                    for (uint64_t x = w; x < w + width; ++x) sectors.insert(x * 4 / 32);
                f.sectors = sectors.size();
            } else if (kind == AccessKind::ConstantLoad) {
                std::set<uint64_t> words;
                for (const auto& [lane, w] : lanes) words.insert(w);
                f.passes = words.size();
            } else {
                // Each half-warp on its own for 128-bit accesses; the whole warp for 32-bit.
                // A 128-bit half also needs one pass per 128 bytes its two quarter-warps
                // take, each quarter's distinct 16-byte pieces counted on their own.
                for (unsigned half = 0; half < (wide ? 2u : 1u); ++half) {
                    std::map<uint64_t, std::set<uint64_t>> bank;
                    std::set<std::pair<unsigned, uint64_t>> quarterPieces;
                    for (const auto& [lane, w] : lanes)
                        if (!wide || lane / 16 == half) {
                            for (uint64_t x = w; x < w + width; ++x) bank[x % 32].insert(x);
                            quarterPieces.insert({lane / 8, w});
                        }
                    uint64_t most = 0;
                    for (const auto& [b, ws] : bank) most = std::max<uint64_t>(most, ws.size());
                    if (wide) most = std::max<uint64_t>(most, (quarterPieces.size() * 16 + 127) / 128);
                    f.passes += most;
                }
            }
            for (Figures* dst : {&out.byKind[kind], &out.byLine[{line, sim::spaceOf(kind), sim::isStore(kind)}]}) {
                dst->requests += f.requests;
                dst->lanes += f.lanes;
                dst->sectors += f.sectors;
                dst->passes += f.passes;
            }
        }
        byThread.clear();
    };
    for (const sim::Event& e : ev) {
        if (e.op == sim::Op::Barrier) {
            flush();
            continue;
        }
        if (e.op == sim::Op::Fma) continue;
        const AccessKind kind = kindOf(e.op);
        const uint64_t word = static_cast<uint64_t>(e.index) + (sim::spaceOf(kind) == sim::Space::Shared ? base.at(e.array) : 0);
        if (e.flags & sim::kVectorTail) continue;   // the first element stands for the four
        byThread[e.thread].push_back({e.line, e.array, kind, word, (e.flags & sim::kVectorHead) != 0, e.unrolled});
    }
    flush();
}

/// The model's figures of one block, in the same shape.
std::map<AccessKind, Figures> modelFigures(const sim::Totals& b)
{
    std::map<AccessKind, Figures> m;
    m[AccessKind::GlobalLoad] = {b.global_ld_requests, b.global_loads, b.global_ld_sectors, 0};
    m[AccessKind::GlobalStore] = {b.global_st_requests, b.global_stores, b.global_st_sectors, 0};
    m[AccessKind::SharedLoad] = {b.shared_ld_requests, b.shared_loads, 0, b.shared_ld_wavefronts};
    m[AccessKind::SharedStore] = {b.shared_st_requests, b.shared_stores, 0, b.shared_st_wavefronts};
    m[AccessKind::ConstantLoad] = {b.constant_ld_requests, b.constant_loads, 0, b.constant_ld_passes};
    return m;
}

const char* kindName(AccessKind k)
{
    switch (k) {
    case AccessKind::GlobalLoad: return "global load";
    case AccessKind::GlobalStore: return "global store";
    case AccessKind::SharedLoad: return "shared load";
    case AccessKind::SharedStore: return "shared store";
    case AccessKind::ConstantLoad: return "constant load";
    }
    return "?";
}

std::string describe(const sim::Scenario& s)
{
    std::ostringstream o;
    o << s.kernel << " j,k,l " << s.j << "," << s.k << "," << s.l << " h,w " << s.height << "," << s.width << " mask "
      << s.maskWidth << " tile " << s.tile;
    return o.str();
}

/// Sizes to try for every kernel of a family; the ones validate() refuses are skipped.
std::vector<sim::Scenario> scenariosFor(const sim::KernelInfo& k)
{
    std::vector<int> tiles(k.tiles.begin(), k.tiles.end());
    if (tiles.empty())
        for (int t : {8, 16, 32, 100, 256})
            if (t <= k.maxBlockEdge) tiles.push_back(t);
    std::vector<sim::Scenario> out;
    auto add = [&](const sim::Scenario& s) {
        if (sim::validate(s).empty()) out.push_back(s);
    };
    for (int tile : tiles) {
        if (k.family == sim::Family::Matmul) {
            for (auto [j, kk, l] : {std::tuple{64, 64, 64}, std::tuple{100, 37, 51}, std::tuple{33, 70, 45}})
                add(sim::matmulScenario(k.name, j, kk, l, tile));
        } else if (k.family == sim::Family::Conv1D) {
            if (tile > 256) continue;
            for (int width : {1000, 77})
                for (int mask : {1, 5, 9}) add(sim::convScenario(k.name, 1, width, tile, mask));
        } else if (k.family == sim::Family::Conv2D) {
            for (auto [h, w] : {std::pair{40, 50}, std::pair{17, 33}})
                for (int mask : {3, 5, 9}) add(sim::convScenario(k.name, h, w, tile, mask));
        }
    }
    return out;
}

/// The traced blocks: the first, the last (a ragged edge) and one in the middle.
std::vector<sim::Uint3> blocksOf(const sim::Dim3& g)
{
    std::vector<sim::Uint3> b = {{0, 0, 0}, {g.x - 1, g.y - 1, 0}, {g.x / 2, g.y / 2, 0}};
    std::sort(b.begin(), b.end(), [](const sim::Uint3& a, const sim::Uint3& c) { return std::tie(a.x, a.y) < std::tie(c.x, c.y); });
    b.erase(std::unique(b.begin(), b.end(), [](const sim::Uint3& a, const sim::Uint3& c) { return a.x == c.x && a.y == c.y; }),
            b.end());
    return b;
}

// For every kernel of the registry, several sizes and tiles, and three traced blocks each:
// the independent regrouping gives the model's requests, lanes, sectors and wavefronts.
TEST(WarpMemoryIndependent, TracedBlocksOfEveryKernelAgree)
{
    for (const sim::KernelInfo& k : sim::kernelList()) {
        const std::vector<sim::Scenario> scenarios = scenariosFor(k);
        EXPECT_GE(scenarios.size(), 2u) << k.name << ": no scenario of this test fits the kernel";
        uint64_t requests = 0, constantRequests = 0, sharedRequests = 0;
        for (sim::Scenario s : scenarios) {
            const sim::LaunchShape shape = sim::launchShape(s);
            for (const sim::Uint3& b : blocksOf(shape.grid)) {
                s.block = b;
                SCOPED_TRACE(describe(s) + " block " + std::to_string(b.x) + "," + std::to_string(b.y));
                const sim::Simulation r = run(s, true);
                if (!r.error.empty()) continue;
                Regrouped mine;
                regroup(r, mine);
                const std::map<AccessKind, Figures> model = modelFigures(blockTotals(r, b));
                for (const auto& [kind, f] : model) {
                    const Figures m = mine.byKind[kind];
                    EXPECT_EQ(m.requests, f.requests) << kindName(kind) << " requests";
                    EXPECT_EQ(m.lanes, f.lanes) << kindName(kind) << " lanes";
                    EXPECT_EQ(m.sectors, f.sectors) << kindName(kind) << " sectors";
                    EXPECT_EQ(m.passes, f.passes) << kindName(kind) << " wavefronts / passes";
                    requests += f.requests;
                }
                constantRequests += model.at(AccessKind::ConstantLoad).requests;
                sharedRequests += model.at(AccessKind::SharedLoad).requests;
            }
        }
        EXPECT_GT(requests, 0u) << k.name;
        if (k.family != sim::Family::Matmul) EXPECT_GT(constantRequests, 0u) << k.name;
        if (k.tiled) EXPECT_GT(sharedRequests, 0u) << k.name;
    }
}

// The per-line figures of the whole grid (memoryByLine of the sites) against the
// regrouping of every block, each traced in a run of its own, for small grids of every kernel.
TEST(WarpMemoryIndependent, PerLineFiguresOfEveryBlockAgree)
{
    for (const sim::KernelInfo& k : sim::kernelList()) {
        std::vector<sim::Scenario> cases;
        if (k.family == sim::Family::Matmul) {
            cases = {sim::matmulScenario(k.name, 40, 37, 45, 16), sim::matmulScenario(k.name, 33, 20, 17, 8)};
            // The register-tiled rungs have no tile of 8 or 16: their smallest, on a grid of
            // 2 x 2 blocks with ragged edges.
            if (k.tiled && k.tiles.front() > 16) {
                const int t = k.tiles.front();
                cases = {sim::matmulScenario(k.name, t + 9, 37, t + 5, t)};
            }
        } else if (k.family == sim::Family::Conv1D) {
            cases = {sim::convScenario(k.name, 1, 300, 64, 7), sim::convScenario(k.name, 1, 100, 32, 5)};
        } else {
            cases = {sim::convScenario(k.name, 20, 27, 8, 5), sim::convScenario(k.name, 9, 40, 16, 3)};
        }
        size_t ran = 0;
        for (const sim::Scenario& base : cases) {
            if (!sim::validate(base).empty()) continue;
            ++ran;
            SCOPED_TRACE(describe(base));
            const sim::Simulation whole = run(base);
            Regrouped mine;
            const sim::Dim3 g = whole.grid;
            for (unsigned by = 0; by < g.y; ++by)
                for (unsigned bx = 0; bx < g.x; ++bx) {
                    sim::Scenario s = base;
                    s.block = {bx, by, 0};
                    regroup(run(s, true), mine);
                }
            const std::vector<sim::LineMemory> lines = sim::memoryByLine(whole.accessSites);
            EXPECT_EQ(lines.size(), mine.byLine.size());
            for (const sim::LineMemory& l : lines) {
                SCOPED_TRACE("line " + std::to_string(l.line));
                const Figures& f = mine.byLine[{l.line, l.space, l.store}];
                EXPECT_EQ(l.requests, f.requests);
                EXPECT_EQ(l.lanes, f.lanes);
                EXPECT_EQ(l.sectors, f.sectors);
                EXPECT_EQ(l.wavefronts, f.passes);
                EXPECT_GT(l.requests, 0u);
            }
        }
        EXPECT_GT(ran, 0u) << k.name;
    }
}

}  // namespace
}  // namespace ts::test
