// The launch each registry row states as expressions (KernelInfo::grid, block, blockOutput;
// issue 39) against the launch computed the way it was before, from the row's counts (a
// block's part of P in tiles, elements per thread, grid x over rows; a convolution's input
// tile): the same grid, block and block output for every kernel, compiled tile and size.
#include <gtest/gtest.h>

#include <algorithm>

#include "sim/catalogue/scenario.hpp"

namespace ts::sim {
namespace {

/// The launch from the row's counts, as sim::launchShape computed it before the expressions.
LaunchShape fromCounts(const KernelInfo& k, const Scenario& s)
{
    LaunchShape sh;
    const unsigned t = static_cast<unsigned>(std::max(1, s.tile));
    if (k.family != Family::Matmul) {
        const unsigned gx = (static_cast<unsigned>(std::max(1, s.width)) + t - 1) / t;
        if (k.family == Family::Conv1D) {
            sh.block = Dim3{t, 1, 1};
            sh.grid = Dim3{gx, 1, 1};
            return sh;
        }
        const unsigned gy = (static_cast<unsigned>(std::max(1, s.height)) + t - 1) / t;
        const unsigned edge = k.blockIsInputTile ? t + static_cast<unsigned>(std::max(1, s.maskWidth)) - 1 : t;
        sh.block = Dim3{edge, edge, 1};
        sh.grid = Dim3{gx, gy, 1};
        return sh;
    }
    const unsigned rows = t * k.blockRowsFactor, cols = t * k.blockColsFactor;
    sh.block = Dim3{std::max(1u, cols / k.threadCols), std::max(1u, rows / k.threadRows), 1};
    sh.pRows = rows;
    sh.pCols = cols;
    const unsigned rowBlocks = (static_cast<unsigned>(s.j) + rows - 1) / rows;
    const unsigned colBlocks = (static_cast<unsigned>(s.l) + cols - 1) / cols;
    sh.grid = k.gridXOverRows ? Dim3{rowBlocks, colBlocks, 1} : Dim3{colBlocks, rowBlocks, 1};
    return sh;
}

TEST(LaunchExpressions, EveryRowStatesTheLaunchItsCountsGive)
{
    int compared = 0;
    for (const KernelInfo& k : kernelList()) {
        ASSERT_NE(*k.grid, '\0') << k.name << " states no launch";
        // A described problem (PMPP's stencil) never had counts: its launch is only its expressions.
        if (k.family == Family::Array) continue;
        std::vector<int> tiles(k.tiles.begin(), k.tiles.end());
        if (!k.tiled) tiles = {1, 2, 7, 16, 32};
        for (int t : tiles)
            for (int size : {1, 3, 37, 64, 129, 300})
                for (int mask : {1, 5, 9}) {
                    Scenario s;
                    s.kernel = k.name;
                    s.tile = t;
                    s.j = size, s.k = size + 2, s.l = 2 * size + 1;
                    s.width = 2 * size + 1, s.height = size, s.maskWidth = mask;
                    const LaunchShape want = fromCounts(k, s), got = launchShape(s);
                    const std::string at = std::string(k.name) + " tile " + std::to_string(t) + " size " +
                                           std::to_string(size) + " mask " + std::to_string(mask);
                    EXPECT_EQ(got.grid.x, want.grid.x) << at;
                    EXPECT_EQ(got.grid.y, want.grid.y) << at;
                    EXPECT_EQ(got.grid.z, want.grid.z) << at;
                    EXPECT_EQ(got.block.x, want.block.x) << at;
                    EXPECT_EQ(got.block.y, want.block.y) << at;
                    EXPECT_EQ(got.block.z, want.block.z) << at;
                    EXPECT_EQ(got.pRows, want.pRows) << at;
                    EXPECT_EQ(got.pCols, want.pCols) << at;
                    ++compared;
                }
    }
    EXPECT_GT(compared, 1000);
}

TEST(LaunchExpressions, ReadLikeTheKernelFiles)
{
    // PMPP Fig. 5.9's launch, and Fig. 7.12's block of the input tile.
    EXPECT_STREQ(findKernel("matmul-tiled")->grid, "(l + TILE_WIDTH - 1) / TILE_WIDTH, (j + TILE_WIDTH - 1) / TILE_WIDTH");
    EXPECT_STREQ(findKernel("conv2d-tiled")->block, "TILE_SIZE + Mask_Width - 1, TILE_SIZE + Mask_Width - 1");
    Scenario s;
    s.kernel = "conv2d-tiled";
    s.tile = 8, s.width = 37, s.height = 29, s.maskWidth = 5;
    const LaunchShape sh = launchShape(s);
    EXPECT_EQ(sh.block.x, 12u);
    EXPECT_EQ(sh.grid.x, 5u);
    EXPECT_EQ(sh.grid.y, 4u);
}

}  // namespace
}  // namespace ts::sim
