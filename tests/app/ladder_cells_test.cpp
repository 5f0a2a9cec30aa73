// The Ladder panel's registers and static shared memory columns (app/gui/panels/ladder_view.hpp):
// taken from the results file where bench --out recorded them, "—" in a file without them
// (the committed H100 file, written before bench recorded them), never invented.
#include <gtest/gtest.h>

#include <memory>

#include "panels/ladder_view.hpp"
#include "sim/files/results_file.hpp"

using namespace ts::app;

namespace {

const char* kDash = "\u2014";

/// A Loaded holding the results file `text` (no counts: the simulator's columns stay "—").
Loaded loadedWith(const std::string& text)
{
    Loaded l;
    l.results = std::make_shared<const ts::sim::ResultsFile>(ts::sim::parseResultsText(text, "ladder.json"));
    return l;
}

TEST(LadderCells, RegistersAndStaticSharedMemoryFromTheResultsFile)
{
    const Loaded l = loadedWith(R"({"device": "GPU", "results": [
        {"kernel": "matmul-naive", "params": {"j": 256, "k": 256, "l": 256, "tile": 16}, "gflops": 100,
         "registers": 32, "static_shared_bytes": 0},
        {"kernel": "matmul-conflict-free", "params": {"j": 256, "k": 256, "l": 256, "tile": 128}, "gflops": 900,
         "registers": 125, "static_shared_bytes": 16640},
        {"kernel": "matmul-tiled", "params": {"j": 256, "k": 256, "l": 256, "tile": 16}, "gflops": 200,
         "static_shared_bytes": 2048},
        {"kernel": "cublas", "params": {"j": 256, "k": 256, "l": 256, "tile": 16}, "gflops": 1000}]})");
    const std::vector<LadderRow> rows = ladderRows(l);
    ASSERT_EQ(rows.size(), 4u);
    EXPECT_EQ(rows[1].registers, 125);
    EXPECT_EQ(rows[1].staticSharedBytes, 16640);
    const auto naive = ladderCells(rows[0], false, false), cf = ladderCells(rows[1], false, false),
               tiled = ladderCells(rows[2], false, false), blas = ladderCells(rows[3], false, false);
    ASSERT_EQ(static_cast<int>(cf.size()), kLadderColumns);
    EXPECT_EQ(naive[6], "32");
    EXPECT_EQ(naive[7], "0") << "no shared memory is a figure, not a missing one";
    EXPECT_EQ(cf[6], "125");
    EXPECT_EQ(cf[7], "16.25 KiB");
    EXPECT_EQ(tiled[6], kDash) << "registers the file does not give";
    EXPECT_EQ(tiled[7], "2 KiB");
    EXPECT_EQ(blas[6], kDash);
    EXPECT_EQ(blas[7], kDash);
    // The same on a slide's compact cells.
    EXPECT_EQ(ladderCells(rows[1], false, true)[7], "16.25 KiB");
}

TEST(LadderCells, AFileWithoutTheKeysShowsDashes)
{
    // A file written before bench recorded the keys (as the committed H100 file was).
    const Loaded l = loadedWith(R"({"device": "GPU", "results": [
        {"kernel": "matmul-tiled", "params": {"j": 64, "k": 64, "l": 64, "tile": 16}, "gflops": 10}]})");
    const auto cells = ladderCells(ladderRows(l)[0], false, false);
    EXPECT_EQ(cells[6], kDash);
    EXPECT_EQ(cells[7], kDash);
}

// The occupancy column on the H100 (the sm_90 profile: 65,536 registers and 64 warps an SM,
// registers given out 256 a warp), worked out by hand:
//  - matmul-conflict-free, 256 threads of 125 registers: 125 x 32 = 4,000, rounded up to
//    4,096 a warp, 8 warps 32,768 a block: 2 blocks, 16 warps, 16 / 64 = 25 %;
//  - matmul-warptiled, 256 threads of 213 registers: 6,816, rounded to 6,912 a warp, 55,296 a
//    block: 1 block, 8 warps, 12.5 % (its 24,832 bytes of shared memory would allow 9).
// The fastest rung runs at half the occupancy of the one before it.
TEST(LadderCells, OccupancyFromTheResultsFilesDevice)
{
    ts::sim::RungCounts counts;
    counts.threadsPerBlock = 256;
    LadderRow cf;
    cf.kernel = "matmul-conflict-free";
    cf.registers = 125;
    cf.staticSharedBytes = 16640;
    cf.computeCapability = "9.0";
    cf.counts = &counts;
    ASSERT_TRUE(ladderOccupancy(cf).has_value());
    EXPECT_EQ(ladderOccupancy(cf)->blocksPerSm, 2);
    EXPECT_EQ(ladderOccupancy(cf)->limiter, ts::sim::Limiter::Registers);
    EXPECT_EQ(ladderCells(cf, false, false)[8], "16 w 25 %");
    LadderRow wt = cf;
    wt.kernel = "matmul-warptiled";
    wt.registers = 213;
    wt.staticSharedBytes = 24832;
    EXPECT_EQ(ladderOccupancy(wt)->blocksPerSm, 1);
    EXPECT_EQ(ladderCells(wt, false, false)[8], "8 w 12.5 %");
    // No figure without the device, the registers or a profile of that device.
    LadderRow noDevice = cf;
    noDevice.computeCapability = "";
    EXPECT_FALSE(ladderOccupancy(noDevice).has_value());
    EXPECT_EQ(ladderCells(noDevice, false, false)[8], kDash);
    LadderRow unknown = cf;
    unknown.computeCapability = "12.0";
    EXPECT_FALSE(ladderOccupancy(unknown).has_value());
    LadderRow noRegisters = cf;
    noRegisters.registers.reset();
    EXPECT_EQ(ladderCells(noRegisters, false, false)[8], kDash);
}

TEST(LadderCells, KibibytesText)
{
    EXPECT_EQ(kibibytesText(0), "0");
    EXPECT_EQ(kibibytesText(2048), "2 KiB");
    EXPECT_EQ(kibibytesText(8192), "8 KiB");
    EXPECT_EQ(kibibytesText(16640), "16.25 KiB");
    EXPECT_EQ(kibibytesText(33280), "32.5 KiB");
    EXPECT_EQ(kibibytesText(100), "0.1 KiB");
}

}  // namespace
