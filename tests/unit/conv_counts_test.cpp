// Global, shared and constant loads of the convolution kernels: the lecture figures
// (docs/references.md: tiled 1D convolution, internal block; 1D boundary block; 8x8 output
// tile in 2D) and the untiled count as a formula against the basic kernel's simulation.
#include <gtest/gtest.h>

#include "conv_test_support.hpp"

namespace ts::test {
namespace {

// TILE_SIZE 8, Mask_Width 5, block 1: 8 + 5 - 1 = 12 elements loaded, 8 * 5 = 40 accesses
// of the basic kernel replaced, "a bandwidth reduction of 40/12 = 3.3".
TEST(ConvCounts, SeedSmall1DExampleInternalBlock)
{
    const sim::Scenario s = conv1d("conv1d-tiled", 64, 8, 5, 1);
    const sim::Simulation r = runConv(s, false);
    const sim::Totals& b = blockTotals(r, {1, 0, 0});
    EXPECT_EQ(b.global_loads, 12u);
    EXPECT_EQ(sim::untiledGlobalLoads(s, {1, 0, 0}), 40u);
    EXPECT_EQ(b.shared_loads, 40u);   // "A total of 8 * 5 N elements are used for the output tile"
    EXPECT_EQ(b.zero_fills, 0u);
    EXPECT_EQ(b.barriers, 1u);
}

// "For a boundary tile, we load TILE_SIZE + (Mask_Width - 1)/2 elements, 10 in our
// example"; "Total accesses is 3 + 4 + 6 * 5 = 37"; the reduction is 37/10 = 3.7. The last
// block is the mirror image of block 0.
TEST(ConvCounts, SeedGhostElementsBoundaryBlocks)
{
    const sim::Scenario s = conv1d("conv1d-tiled", 64, 8, 5);
    const sim::Simulation r = runConv(s, false);
    for (unsigned bx : {0u, 7u}) {
        SCOPED_TRACE("block " + std::to_string(bx));
        const sim::Totals& b = blockTotals(r, {bx, 0, 0});
        EXPECT_EQ(b.global_loads, 10u);
        EXPECT_EQ(b.zero_fills, 2u);
        EXPECT_EQ(sim::untiledGlobalLoads(s, {bx, 0, 0}), 37u);
    }
}

// "12 x 12 = 144 N elements need to be loaded into shared memory"; "8 x 8 x 25 = 1600
// global memory accesses are converted into shared memory accesses".
TEST(ConvCounts, Seed8x8OutputTileMask5)
{
    const sim::Scenario s = conv2d("conv2d-tiled", 64, 64, 8, 5, {1, 1, 0});
    const sim::Simulation r = runConv(s, false);
    EXPECT_EQ(r.block.x, 12u);
    EXPECT_EQ(r.block.y, 12u);
    const sim::Totals& b = blockTotals(r, {1, 1, 0});
    EXPECT_EQ(b.global_loads, 144u);
    EXPECT_EQ(b.shared_loads, 1600u);
    EXPECT_EQ(b.zero_fills, 0u);
    EXPECT_EQ(sim::untiledGlobalLoads(s, {1, 1, 0}), 1600u);
}

// convUntiledGlobalLoads() is a formula; the basic kernels count the same loads one by
// one, whole grid and block by block, at sizes that are and are not multiples of the block.
TEST(ConvCounts, UntiledFormulaEqualsBasicSimulation)
{
    std::vector<sim::Scenario> cases;
    for (int width : {64, 61, 7, 1, 300})
        for (int mask : {1, 3, 5, 9}) cases.push_back(conv1d("conv1d-basic", width, 8, mask));
    cases.push_back(conv1d("conv1d-basic", 1000, 128, 7));
    for (auto [h, w] : {std::pair{13, 29}, std::pair{16, 16}, std::pair{5, 3}, std::pair{1, 1}})
        for (int mask : {1, 5, 9}) cases.push_back(conv2d("conv2d-basic", h, w, 4, mask));
    for (const sim::Scenario& s : cases) {
        SCOPED_TRACE(s.kernel + " " + std::to_string(s.height) + "x" + std::to_string(s.width) + " mask " +
                     std::to_string(s.maskWidth));
        const sim::Simulation r = runConv(s, false);
        EXPECT_EQ(sim::untiledGlobalLoads(s), r.counters.totals.global_loads);
        for (unsigned by = 0; by < r.grid.y; ++by)
            for (unsigned bx = 0; bx < r.grid.x; ++bx)
                EXPECT_EQ(sim::untiledGlobalLoads(s, {bx, by, 0}), blockTotals(r, {bx, by, 0}).global_loads)
                    << "block (" << bx << ", " << by << ")";
    }
}

// A tiled 1D block loads each element of its input tile that lies inside N once: a second
// count, element by element, at sizes that are not multiples of the tile.
TEST(ConvCounts, TiledLoadsAreTheInputTileInsideN)
{
    for (int width : {64, 61, 9, 3})
        for (int mask : {1, 5, 9}) {
            const sim::Scenario s = conv1d("conv1d-tiled", width, 8, mask);
            SCOPED_TRACE("width " + std::to_string(width) + " mask " + std::to_string(mask));
            const sim::Simulation r = runConv(s, false);
            for (unsigned bx = 0; bx < r.grid.x; ++bx) {
                uint64_t inside = 0;
                for (int e = int(bx) * 8 - mask / 2; e < int(bx + 1) * 8 + mask / 2; ++e) inside += e >= 0 && e < width;
                EXPECT_EQ(blockTotals(r, {bx, 0, 0}).global_loads, inside) << "block " << bx;
                EXPECT_EQ(blockTotals(r, {bx, 0, 0}).zero_fills, uint64_t(8 + mask - 1) - inside) << "block " << bx;
            }
        }
}

// conv1d-tiled-cache reads its internal elements once and every halo element from global
// memory as often as a thread's window reaches it: counted here output by output.
TEST(ConvCounts, TiledCacheReadsHaloFromGlobalMemory)
{
    for (int width : {64, 61, 5})
        for (int mask : {3, 5, 9}) {
            const sim::Scenario s = conv1d("conv1d-tiled-cache", width, 8, mask);
            SCOPED_TRACE("width " + std::to_string(width) + " mask " + std::to_string(mask));
            const sim::Simulation r = runConv(s, false);
            for (unsigned bx = 0; bx < r.grid.x; ++bx) {
                const int first = int(bx) * 8, next = first + 8;
                uint64_t loads = 0;
                for (int i = first; i < next && i < width; ++i) {
                    ++loads;   // the internal element N[i] into N_ds
                    for (int e = i - mask / 2; e <= i + mask / 2; ++e) loads += e >= 0 && e < width && (e < first || e >= next);
                }
                EXPECT_EQ(blockTotals(r, {bx, 0, 0}).global_loads, loads) << "block " << bx;
            }
        }
    // Preset conv1d-tiled-cache-tile8-mask5: an internal block of TILE_SIZE 8 and
    // Mask_Width 5 reads 8 internal elements plus 1 + 2 halo reads on each side.
    EXPECT_EQ(blockTotals(runConv(conv1d("conv1d-tiled-cache", 64, 8, 5), false), {1, 0, 0}).global_loads, 14u);
}

// Every multiply-add reads one mask element from constant memory, and the mask is never
// read from global memory; in a tiled 1D kernel every thread reads each M[j] once.
TEST(ConvCounts, MaskReadsAreConstantLoads)
{
    for (const sim::Scenario& s : {conv1d("conv1d-basic", 61, 8, 5), conv1d("conv1d-tiled", 61, 8, 5),
                                   conv1d("conv1d-tiled-cache", 61, 8, 5), conv2d("conv2d-basic", 13, 29, 8, 5),
                                   conv2d("conv2d-tiled", 13, 29, 8, 5)}) {
        SCOPED_TRACE(s.kernel);
        const sim::Simulation r = runConv(s, false);
        EXPECT_EQ(r.arrays[r.arrayIndex("M")].space, sim::Space::Constant);
        EXPECT_EQ(r.counters.totals.constant_loads * 2, r.counters.totals.flops);
        EXPECT_GT(r.counters.totals.constant_loads, 0u);
    }
    const sim::Simulation r = runConv(conv1d("conv1d-tiled", 64, 8, 5), false);
    for (uint32_t c : r.counters.elementLoads[r.arrayIndex("M")]) EXPECT_EQ(c, 64u);
}

}  // namespace
}  // namespace ts::test
