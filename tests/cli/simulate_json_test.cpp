// `tilescope-cli simulate --json` against docs/cli.md (all of its implemented keys) and the
// book's figures (preset tiled-4x4, Width 4 with TILE_WIDTH 2: 64 global loads, 128 shared
// loads, 2x fewer loads than the naive kernel, 0.5 OP/B).
#include <gtest/gtest.h>

#include <set>
#include <string>

#include "run_cli.hpp"

namespace ts::test {
namespace {

using nlohmann::json;

/// Expects `j` to have every key of `spec` (the spec allows keys to be added, never renamed).
void expectKeys(const json& j, const std::set<std::string>& spec)
{
    for (const std::string& k : spec) EXPECT_TRUE(j.contains(k)) << "missing key '" << k << "' in " << j;
}

/// Expects every key of `expected` in `j` with the same value.
void expectValues(const json& j, const json& expected)
{
    for (auto it = expected.begin(); it != expected.end(); ++it)
        EXPECT_EQ(j.value(it.key(), json()), it.value()) << "key '" << it.key() << "'";
}

TEST(CliSimulate, HasTheSpecsKeys)
{
    const json j = simulateJson("--kernel matmul-tiled --width 4 --tile 2");
    expectKeys(j, {"kernel", "params", "grid", "block", "totals", "ops_per_byte", "untiled_global_loads",
                   "reduction_vs_untiled", "hazards", "matches_reference"});
    EXPECT_FALSE(j.contains("block_stats")) << "only with --block";
    expectKeys(j["params"], {"j", "k", "l", "tile"});
    expectKeys(j["totals"], {"global_loads", "global_stores", "shared_loads", "shared_stores", "constant_loads",
                             "zero_fills", "barriers", "flops"});
    expectKeys(j["hazards"], {"raw", "war"});
    const json b = simulateJson("--kernel matmul-tiled --width 4 --tile 2 --block 1,0");
    expectKeys(b["block_stats"], {"block", "global_loads", "shared_loads", "untiled_global_loads",
                                  "reduction_vs_untiled"});
}

TEST(CliSimulate, Tiled4x4Tile2)
{
    const json j = simulateJson("--kernel matmul-tiled --width 4 --tile 2");
    EXPECT_EQ(j["kernel"], "matmul-tiled");
    expectValues(j["params"], json::parse(R"({"j": 4, "k": 4, "l": 4, "tile": 2})"));
    EXPECT_EQ(j["grid"], json::parse("[2, 2, 1]"));
    EXPECT_EQ(j["block"], json::parse("[2, 2, 1]"));
    expectValues(j["totals"], json::parse(R"({"global_loads": 64, "global_stores": 16, "shared_loads": 128,
        "shared_stores": 64, "constant_loads": 0, "zero_fills": 0, "barriers": 16, "flops": 128})"));
    EXPECT_EQ(j["ops_per_byte"], 0.5);
    EXPECT_EQ(j["untiled_global_loads"], 128);
    EXPECT_EQ(j["reduction_vs_untiled"], 2.0);
    EXPECT_EQ(j["hazards"]["raw"], 0);
    EXPECT_EQ(j["hazards"]["war"], 0);
    EXPECT_EQ(j["matches_reference"], true);
}

TEST(CliSimulate, BlockStatsOfOneBlock)
{
    const json j = simulateJson("--kernel matmul-tiled --width 4 --tile 2 --block 1,0");
    // 2 phases x 4 threads x 2 loads; the naive block reads 4 threads x 2 x 4.
    expectValues(j["block_stats"], json::parse(R"({"block": [1, 0], "global_loads": 16, "shared_loads": 32,
        "untiled_global_loads": 32, "reduction_vs_untiled": 2.0})"));
    EXPECT_EQ(simulateJson("--kernel matmul-tiled --width 4 --tile 2 --block 1")["block_stats"]["block"],
              json::parse("[1, 0]"));
}

TEST(CliSimulate, Naive4x4IsItsOwnUntiledCounterpart)
{
    const json j = simulateJson("--kernel matmul-naive --width 4 --tile 2");
    EXPECT_EQ(j["totals"]["global_loads"], 128);
    EXPECT_EQ(j["untiled_global_loads"], 128);
    EXPECT_EQ(j["reduction_vs_untiled"], 1.0);
    EXPECT_EQ(j["ops_per_byte"], 0.25);
    EXPECT_EQ(j["matches_reference"], true);
}

// Example: 3x3 boundary checks (PMPP sec. 5.5, preset boundary-3x3): 36 of the 64 tile
// slots hold existing elements, 28 are zero-filled; the naive kernel reads 2 x 9 x 3 = 54
// elements.
TEST(CliSimulate, Boundary3x3)
{
    const json j = simulateJson("--kernel matmul-tiled --width 3 --tile 2");
    EXPECT_EQ(j["totals"]["global_loads"], 36);
    EXPECT_EQ(j["totals"]["zero_fills"], 28);
    EXPECT_EQ(j["totals"]["shared_stores"], 64);
    EXPECT_EQ(j["totals"]["global_stores"], 9);
    EXPECT_EQ(j["untiled_global_loads"], 54);
    EXPECT_EQ(j["reduction_vs_untiled"], 1.5);
    EXPECT_EQ(j["matches_reference"], true);
}

TEST(CliSimulate, RectangularSizes)
{
    const json j = simulateJson("--kernel matmul-tiled --j 100 --k 37 --l 51 --tile 16");
    expectValues(j["params"], json::parse(R"({"j": 100, "k": 37, "l": 51, "tile": 16})"));
    EXPECT_EQ(j["grid"], json::parse("[4, 7, 1]"));
    EXPECT_EQ(j["untiled_global_loads"], 2 * 100 * 37 * 51);
    // Every thread runs TILE_WIDTH multiply-adds in each of ceil(37 / 16) = 3 phases, the
    // ones on zero-filled slots included.
    EXPECT_EQ(j["totals"]["flops"], 2 * 100 * 51 * 48);
    EXPECT_EQ(j["matches_reference"], true);
}

// The book's ratios (PMPP sec. 5.4) at a size that runs in a fraction of a second (the 1024
// case is in slow_test.cpp): reduction TILE_WIDTH, OP/B TILE_WIDTH x 0.25.
TEST(CliSimulate, Width256Tile16)
{
    const json j = simulateJson("--kernel matmul-tiled --width 256 --tile 16");
    EXPECT_EQ(j["ops_per_byte"], 4.0);
    EXPECT_EQ(j["reduction_vs_untiled"], 16.0);
    EXPECT_EQ(j["matches_reference"], true);
}

TEST(CliSimulate, ScheduleChangesNoCount)
{
    const json base = simulateJson("--kernel matmul-tiled --width 20 --tile 8");
    for (const char* s : {"reverse", "random"}) {
        const json j = simulateJson(std::string("--kernel matmul-tiled --width 20 --tile 8 --schedule ") + s);
        EXPECT_EQ(j["totals"], base["totals"]) << s;
        EXPECT_EQ(j["matches_reference"], true) << s;
    }
}

TEST(CliSimulate, SeedChangesInputsNotCounts)
{
    const json a = simulateJson("--kernel matmul-tiled --width 9 --tile 4 --seed 1");
    const json b = simulateJson("--kernel matmul-tiled --width 9 --tile 4 --seed 12345");
    EXPECT_EQ(a["totals"], b["totals"]);
    EXPECT_EQ(b["matches_reference"], true);
}

}  // namespace
}  // namespace ts::test
