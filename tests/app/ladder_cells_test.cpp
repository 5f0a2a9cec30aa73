// The Ladder panel's registers and static shared memory columns (app/gui/panels/ladder_view.hpp):
// taken from the results file where bench --out recorded them, "—" in a file without them
// (the committed H100 file, written before bench recorded them), never invented.
#include <gtest/gtest.h>

#include <memory>

#include "panels/ladder_view.hpp"
#include "sim/results_file.hpp"

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
