// The warp view (sim/teaching/warp_view.hpp): the lanes of one warp's memory instructions in a step,
// with expectations worked out by hand from the kernels' index expressions.
#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <string>
#include <vector>

#include "sim/catalogue/kernel_info.hpp"
#include "sim/engine/machine.hpp"
#include "sim/files/scenario_file.hpp"
#include "sim/engine/simulate.hpp"
#include "sim/teaching/warp_view.hpp"
#include "sim/engine/work_estimate.hpp"

namespace ts {
namespace {

using sim::AccessKind;

sim::Simulation run(const sim::Scenario& s)
{
    EXPECT_EQ(sim::validate(s), "");
    sim::Simulation r = sim::simulate(s);
    EXPECT_EQ(r.error, "");
    EXPECT_TRUE(r.matchesReference);
    return r;
}

/// The step labelled `label`; fails the test if there is none.
int stepLabelled(const sim::Trace& t, const std::string& label)
{
    for (size_t i = 0; i < t.steps.size(); ++i)
        if (t.steps[i].label == label) return static_cast<int>(i);
    ADD_FAILURE() << "no step '" << label << "'";
    return 0;
}

/// The instruction of `kind` on array `array` among `ws`; fails the test if there is not
/// exactly one.
const sim::WarpInstruction& only(const std::vector<sim::WarpInstruction>& ws, const sim::Trace& t, AccessKind kind,
                                 const std::string& array)
{
    const sim::WarpInstruction* found = nullptr;
    int n = 0;
    for (const sim::WarpInstruction& w : ws)
        if (w.kind == kind && t.arrays[w.array].name == array) {
            found = &w;
            ++n;
        }
    EXPECT_EQ(n, 1) << array;
    static const sim::WarpInstruction none;
    return found ? *found : none;
}

uint32_t lanes(unsigned from, unsigned to)   // lanes from..to inclusive
{
    uint32_t m = 0;
    for (unsigned l = from; l <= to; ++l) m |= 1u << l;
    return m;
}

TEST(WarpView, Tiled4x4LoadAndUse)
{
    // Block (0,0) of the 4x4 product with TILE_WIDTH 2: four threads, one warp of 4 lanes;
    // lane = ty*2 + tx. Mds occupies shared words 0..3, Nds 4..7.
    const sim::Simulation r = run(sim::findPreset("tiled-4x4").scenario);
    const sim::Trace& t = r.trace;
    EXPECT_EQ(sim::warpCount(t), 1u);
    EXPECT_EQ(sim::sharedBases(t.arrays)[r.arrayIndex("Nds")], 4u);

    const int load = stepLabelled(t, "phase 0: load M tile into Mds");
    const auto ws = sim::warpInstructions(t, load, 0);
    ASSERT_EQ(ws.size(), 2u);
    // Program order: the global load, then the shared store, both on line 34.
    EXPECT_EQ(ws[0].kind, AccessKind::GlobalLoad);
    EXPECT_EQ(ws[1].kind, AccessKind::SharedStore);
    EXPECT_EQ(ws[0].line, 34u);
    const sim::WarpInstruction& m = ws[0];
    EXPECT_EQ(m.mask, 0xFu);
    // M[Row*4 + tx]: elements 0, 1, 4, 5, all in sector 0 of line 0.
    const uint32_t words[] = {0, 1, 4, 5};
    for (unsigned l = 0; l < 4; ++l) {
        EXPECT_TRUE(m.lanes[l].active);
        EXPECT_EQ(m.lanes[l].word, words[l]);
        EXPECT_EQ(m.lanes[l].sector, 0u);
    }
    EXPECT_FALSE(m.lanes[4].active);
    EXPECT_EQ(m.transactions.sectors, 1u);
    EXPECT_EQ(m.transactions.cacheLines, 1u);
    ASSERT_EQ(m.groups.size(), 1u);
    EXPECT_EQ(m.groups[0].lanes, 0xFu);
    // Mds[ty][tx]: words 0..3, banks 0..3, one wavefront.
    const sim::WarpInstruction& st = ws[1];
    for (unsigned l = 0; l < 4; ++l) {
        EXPECT_EQ(st.lanes[l].bank, l);
        EXPECT_EQ(st.lanes[l].wavefront, 0u);
    }
    EXPECT_EQ(st.transactions.wavefronts, 1u);
    EXPECT_EQ(st.conflicts(), 0u);

    // Iteration 0: Mds[ty][0] is slot 0 for lanes 0, 1 and slot 2 for lanes 2, 3 (two
    // broadcasts); Nds[0][tx] is word 4 for lanes 0, 2 and word 5 for lanes 1, 3.
    const int use = stepLabelled(t, "phase 0: use, iteration 0");
    const auto us = sim::warpInstructions(t, use, 0);
    ASSERT_EQ(us.size(), 2u);
    const sim::WarpInstruction& mds = only(us, t, AccessKind::SharedLoad, "Mds");
    ASSERT_EQ(mds.groups.size(), 2u);
    EXPECT_EQ(mds.groups[0].unit, 0u);
    EXPECT_EQ(mds.groups[0].lanes, 0b0011u);
    EXPECT_EQ(mds.groups[1].unit, 2u);
    EXPECT_EQ(mds.groups[1].lanes, 0b1100u);
    EXPECT_EQ(mds.transactions.wavefronts, 1u);
    const sim::WarpInstruction& nds = only(us, t, AccessKind::SharedLoad, "Nds");
    ASSERT_EQ(nds.groups.size(), 2u);
    EXPECT_EQ(nds.groups[0].unit, 4u);
    EXPECT_EQ(nds.groups[0].lanes, 0b0101u);
    EXPECT_EQ(nds.groups[1].unit, 5u);
    EXPECT_EQ(nds.groups[1].lanes, 0b1010u);

    // A barrier has no memory instructions; neither has a warp the block does not have.
    EXPECT_TRUE(sim::warpInstructions(t, stepLabelled(t, "phase 0: barrier, __syncthreads()"), 0).empty());
    EXPECT_TRUE(sim::warpInstructions(t, load, 1).empty());
    EXPECT_TRUE(sim::warpInstructions(t, -1, 0).empty());
}

TEST(WarpView, Tiled64Tile16RowsAndBroadcasts)
{
    // 64x64 with TILE_WIDTH 16, block (0,0): warp w holds rows ty = 2w and 2w + 1, lanes
    // 0..15 and 16..31 with tx = lane mod 16. Mds at shared words 0..255, Nds at 256..511.
    const sim::Simulation r = run(sim::findPreset("tiled-64-tile16").scenario);
    const sim::Trace& t = r.trace;
    EXPECT_EQ(sim::warpCount(t), 8u);

    // Loading M in phase 0: M[ty*64 + tx], rows 6 and 7 for warp 3: words 384..399 and
    // 448..463, sectors 48, 49, 56, 57 in lines 12 and 14.
    const int load = stepLabelled(t, "phase 0: load M tile into Mds");
    const auto ls = sim::warpInstructions(t, load, 3);
    const sim::WarpInstruction& g = only(ls, t, AccessKind::GlobalLoad, "M");
    EXPECT_EQ(g.mask, 0xFFFFFFFFu);
    EXPECT_EQ(g.transactions.sectors, 4u);
    EXPECT_EQ(g.transactions.cacheLines, 2u);
    ASSERT_EQ(g.groups.size(), 4u);
    EXPECT_EQ(g.groups[0].unit, 48u);
    EXPECT_EQ(g.groups[0].lanes, lanes(0, 7));
    EXPECT_EQ(g.groups[1].unit, 49u);
    EXPECT_EQ(g.groups[2].unit, 56u);
    EXPECT_EQ(g.groups[2].lanes, lanes(16, 23));
    EXPECT_EQ(g.groups[3].unit, 57u);
    EXPECT_EQ(g.cacheLines, (std::vector<uint32_t>{12, 14}));
    EXPECT_EQ(g.lanes[17].word, 449u);

    // Iteration 5: Mds[ty][5] is word 101 (bank 5) for lanes 0..15 and word 117 (bank 21)
    // for lanes 16..31: two broadcasts in one wavefront.
    const int use = stepLabelled(t, "phase 0: use, iteration 5");
    const auto us = sim::warpInstructions(t, use, 3);
    const sim::WarpInstruction& mds = only(us, t, AccessKind::SharedLoad, "Mds");
    ASSERT_EQ(mds.groups.size(), 2u);
    EXPECT_EQ(mds.groups[0].unit, 101u);
    EXPECT_EQ(mds.groups[0].bank, 5u);
    EXPECT_EQ(mds.groups[0].lanes, lanes(0, 15));
    EXPECT_EQ(mds.groups[1].unit, 117u);
    EXPECT_EQ(mds.groups[1].bank, 21u);
    EXPECT_EQ(mds.groups[1].lanes, lanes(16, 31));
    EXPECT_EQ(mds.transactions.wavefronts, 1u);
    // Nds[5][tx]: a row of Nds, words 336..351 in banks 16..31, each word read by lanes tx
    // and tx + 16: one wavefront.
    const sim::WarpInstruction& nds = only(us, t, AccessKind::SharedLoad, "Nds");
    ASSERT_EQ(nds.groups.size(), 16u);
    for (unsigned tx = 0; tx < 16; ++tx) {
        EXPECT_EQ(nds.groups[tx].unit, 336u + tx);
        EXPECT_EQ(nds.groups[tx].bank, 16u + tx);
        EXPECT_EQ(nds.groups[tx].wavefront, 0u);
        EXPECT_EQ(nds.groups[tx].lanes, (1u << tx) | (1u << (tx + 16)));
    }
    EXPECT_EQ(nds.transactions.wavefronts, 1u);
    EXPECT_EQ(nds.conflicts(), 0u);
    // The barrier and the warps: every warp of the block loads M in phase 0.
    EXPECT_EQ(sim::warpsWithAccesses(t, load).size(), 8u);
}

TEST(WarpView, Conv2dTiledInternalBlockConflicts)
{
    // conv2d-tiled, 256x256, TILE_SIZE 8, Mask_Width 5, block (1,1) (no ghost cells): a
    // block of 12 x 12 threads, 5 warps. N_ds is 16 x 16 (TILE_SIZE + MAX_MASK_WIDTH - 1).
    // Warp 0: lanes 0..11 are ty 0, lanes 12..23 ty 1, lanes 24..31 ty 2 (tx 0..7).
    const sim::Simulation r = run(sim::convScenario("conv2d-tiled", 256, 256, 8, 5, sim::Uint3{1, 1, 0}));
    const sim::Trace& t = r.trace;
    EXPECT_EQ(sim::warpCount(t), 5u);
    const auto ls = sim::warpInstructions(t, 0, 0);
    // N[(6 + ty)*256 + 6 + tx]: words 1542..1553, 1798..1809, 2054..2061: sectors 192-194,
    // 224-226, 256-257 in lines 48, 56 and 64.
    const sim::WarpInstruction& g = only(ls, t, AccessKind::GlobalLoad, "N");
    EXPECT_EQ(g.transactions.sectors, 8u);
    EXPECT_EQ(g.transactions.cacheLines, 3u);
    EXPECT_EQ(g.cacheLines, (std::vector<uint32_t>{48, 56, 64}));
    EXPECT_EQ(g.groups.front().unit, 192u);
    EXPECT_EQ(g.groups.front().lanes, 0b11u);   // words 1542, 1543
    // N_ds[ty][tx]: words 0..11, 16..27, 32..39. Words 32..39 fall into banks 0..7 with
    // lanes 0..7's words 0..7: lanes 24..31 wait for a second wavefront.
    const sim::WarpInstruction& s = only(ls, t, AccessKind::SharedStore, "N_ds");
    EXPECT_EQ(s.transactions.wavefronts, 2u);
    EXPECT_EQ(s.conflicts(), 1u);
    for (unsigned l = 0; l < 32; ++l) EXPECT_EQ(s.lanes[l].wavefront, l >= 24 ? 1u : 0u) << "lane " << l;
    EXPECT_EQ(s.lanes[24].bank, 0u);
    EXPECT_EQ(s.lanes[31].bank, 7u);

    // Iteration (0, 0): only tx, ty < 8 compute: lanes 0-7, 12-19, 24-31 read N_ds[ty][tx],
    // words 0..7, 16..23, 32..39; rows ty 0 and 2 are 32 words apart, the same banks: 2
    // wavefronts. Every lane reads Mc[0][0]: one pass of the constant cache.
    const int it00 = stepLabelled(t, "use, iteration (0, 0)");
    const auto cs = sim::warpInstructions(t, it00, 0);
    const sim::WarpInstruction& nds = only(cs, t, AccessKind::SharedLoad, "N_ds");
    EXPECT_EQ(nds.mask, lanes(0, 7) | lanes(12, 19) | lanes(24, 31));
    EXPECT_EQ(nds.transactions.wavefronts, 2u);
    EXPECT_EQ(nds.lanes[24].wavefront, 1u);
    EXPECT_EQ(nds.lanes[12].wavefront, 0u);
    const sim::WarpInstruction& mc = only(cs, t, AccessKind::ConstantLoad, "M");
    EXPECT_EQ(mc.transactions.wavefronts, 1u);
    ASSERT_EQ(mc.groups.size(), 1u);
    EXPECT_EQ(mc.groups[0].lanes, nds.mask);
}

/// Every instruction of every step and warp agrees with itself: the groups cover the
/// active lanes once, the wavefronts the lanes are given match transactionsOf, and the
/// per-step figures add up to the simulator's figures for the traced block.
void checkConsistent(const sim::Simulation& r)
{
    const sim::Trace& t = r.trace;
    for (size_t step = 0; step < t.steps.size(); ++step)
        for (unsigned w = 0; w < sim::warpCount(t); ++w)
            for (const sim::WarpInstruction& in : sim::warpInstructions(t, static_cast<int>(step), w)) {
                uint32_t covered = 0;
                uint32_t most = 0;
                for (const sim::LaneGroup& g : in.groups) {
                    EXPECT_EQ(covered & g.lanes, 0u);
                    covered |= g.lanes;
                    most = std::max(most, g.wavefront + 1);
                }
                EXPECT_EQ(covered, in.mask);
                EXPECT_EQ(static_cast<uint32_t>(std::popcount(in.mask)), in.transactions.lanes);
                if (sim::spaceOf(in.kind) == sim::Space::Global)
                    EXPECT_EQ(in.groups.size(), in.transactions.sectors);
                else
                    EXPECT_EQ(most, in.transactions.wavefronts) << "step " << step << " warp " << w;
            }
    sim::Totals sum;
    for (const sim::Totals& s : sim::memoryPerStep(t)) sum += s;
    const sim::Totals& blk = r.counters.perBlock.at(sim::linearBlock(r.grid, t.block));
    EXPECT_EQ(sum.global_ld_requests, blk.global_ld_requests);
    EXPECT_EQ(sum.global_ld_sectors, blk.global_ld_sectors);
    EXPECT_EQ(sum.global_st_requests, blk.global_st_requests);
    EXPECT_EQ(sum.global_st_sectors, blk.global_st_sectors);
    EXPECT_EQ(sum.shared_ld_requests, blk.shared_ld_requests);
    EXPECT_EQ(sum.shared_ld_wavefronts, blk.shared_ld_wavefronts);
    EXPECT_EQ(sum.shared_st_requests, blk.shared_st_requests);
    EXPECT_EQ(sum.shared_st_wavefronts, blk.shared_st_wavefronts);
    EXPECT_EQ(sum.constant_ld_requests, blk.constant_ld_requests);
    EXPECT_EQ(sum.constant_ld_passes, blk.constant_ld_passes);
    EXPECT_GT(sum.global_ld_requests + sum.constant_ld_requests, 0u);
}

TEST(WarpView, AgreesWithTheSimulatorOnEveryPreset)
{
    for (const sim::Preset& p : sim::listPresets()) {
        SCOPED_TRACE(p.name);
        if (sim::estimateWork(p.scenario).seconds() > 5) continue;   // too large for a unit test
        checkConsistent(sim::simulate(p.scenario));
    }
    // Divergent branches (a boundary block: some lanes load, some zero-fill) and a block
    // with a partial last warp.
    checkConsistent(sim::simulate(sim::matmulScenario("matmul-tiled", 37, 29, 45, 16, sim::Uint3{2, 2, 0})));
    checkConsistent(sim::simulate(sim::convScenario("conv2d-tiled", 30, 30, 8, 5, sim::Uint3{3, 3, 0})));
    checkConsistent(sim::simulate(sim::convScenario("conv1d-tiled", 1, 100, 16, 5, sim::Uint3{6, 0, 0})));
    // Lanes that skip a ghost element or read the halo from global memory part inside a
    // statement (conv1d-tiled-cache reads N_ds[..] before M[j]).
    for (unsigned b : {0u, 1u, 2u})
        checkConsistent(sim::simulate(sim::convScenario("conv1d-tiled-cache", 1, 7, 2, 5, sim::Uint3{b, 0, 0})));
    for (unsigned b : {0u, 1u, 15u, 31u})
        checkConsistent(sim::simulate(sim::convScenario("conv1d-tiled-cache", 1, 1000, 32, 7, sim::Uint3{b, 0, 0})));
    checkConsistent(sim::simulate(sim::convScenario("conv1d-basic", 1, 100, 32, 9, sim::Uint3{3, 0, 0})));
    checkConsistent(sim::simulate(sim::convScenario("conv2d-basic", 40, 40, 16, 5, sim::Uint3{2, 2, 0})));
    checkConsistent(sim::simulate(sim::matmulScenario("matmul-naive-uncoalesced", 37, 29, 45, 16, sim::Uint3{2, 1, 0})));
    checkConsistent(sim::simulate(sim::matmulScenario("matmul-tiled-nds-transposed", 37, 29, 45, 16, sim::Uint3{2, 2, 0})));
    checkConsistent(sim::simulate(sim::matmulScenario("matmul-tiled-nds-padded", 37, 29, 45, 8, sim::Uint3{5, 4, 0})));
}

TEST(WarpView, LaneRanges)
{
    EXPECT_EQ(sim::laneRanges(0), "");
    EXPECT_EQ(sim::laneRanges(0xFFFFFFFFu), "0-31");
    EXPECT_EQ(sim::laneRanges(lanes(0, 7) | lanes(24, 31)), "0-7, 24-31");
    EXPECT_EQ(sim::laneRanges(0b1011u), "0, 1, 3");
    EXPECT_EQ(sim::laneRanges(1u << 31), "31");
}

TEST(WarpView, CompiledNotesFindTheirLines)
{
    // matmul-tiled at TILE_WIDTH 16: line 46 reads Mds with LDS.128; lines 34 and 36 (and 38,
    // 40) are one STS each.
    const sim::Scenario s = sim::findPreset("tiled-64-tile16").scenario;
    const std::string& text = sim::kernelSource(sim::findKernel("matmul-tiled")->sourceFile);
    auto lineWith = [&](const std::string& statement) {
        unsigned n = 1;
        for (size_t at = 0; at < text.find(statement); ++at) n += text[at] == '\n';
        return n;
    };
    const unsigned use = lineWith("Pvalue += Mds[ty][i] * Nds[i][tx];");
    ASSERT_EQ(sim::compiledNotesFor(s, use).size(), 1u);
    EXPECT_NE(std::string(sim::compiledNotesFor(s, use, "Mds").front()->brief).find("LDS.128"), std::string::npos);
    EXPECT_TRUE(sim::compiledNotesFor(s, use, "Nds").empty());
    EXPECT_EQ(sim::compiledNotesFor(s, lineWith("Mds[ty][tx] = 0;"), "Mds").size(), 1u);
    EXPECT_EQ(sim::compiledNotesFor(s, lineWith("Nds[ty][tx] = 0;"), "Nds").size(), 1u);
    EXPECT_TRUE(sim::compiledNotesFor(s, lineWith("P[Row*l + Col] = Pvalue;")).empty());
    // TILE_WIDTH 2: a 64-bit load instead.
    const sim::Scenario small = sim::findPreset("tiled-4x4").scenario;
    ASSERT_EQ(sim::compiledNotesFor(small, use).size(), 1u);
    EXPECT_NE(std::string(sim::compiledNotesFor(small, use).front()->brief).find("LDS.64"), std::string::npos);
    // Another kernel has no notes on its lines.
    const sim::Scenario conv = sim::convScenario("conv2d-tiled", 24, 24, 8, 5, sim::Uint3{1, 1, 0});
    for (unsigned line = 1; line < 70; ++line) EXPECT_TRUE(sim::compiledNotesFor(conv, line).empty());
    // Every note names a statement that its kernel's source holds on a line of its own.
    // Every note of every registry entry names a statement that the kernel's source holds on a
    // line of its own, and is found there.
    size_t notes = 0;
    for (const sim::KernelInfo& k : sim::kernelList())
        for (const sim::CompiledNote& n : k.compiledNotes) {
            ++notes;
            const std::string& src = sim::kernelSource(k.sourceFile);
            const size_t at = src.find(n.statement);
            ASSERT_NE(at, std::string::npos) << k.name << ": " << n.statement;
            unsigned line = 1;
            for (size_t i = 0; i < at; ++i) line += src[i] == '\n';
            sim::Scenario sc = s;
            sc.kernel = k.name;
            sc.tile = n.minTile;
            const auto found = sim::compiledNotesFor(sc, line, n.array);
            EXPECT_NE(std::find(found.begin(), found.end(), &n), found.end()) << k.name << ": " << n.statement;
        }
    // matmul-tiled 6, -nds-transposed 8, -nds-padded 6; the predicated tree branch of
    // reduction-shared, -segmented, -segmented-floats, -coarsened and -shuffle, 1 each;
    // reduction-shuffle's early exit, 1; histogram-contiguous's remainder loop, 1
    EXPECT_EQ(notes, 27u);
}

}  // namespace
}  // namespace ts
