// The ratios of PMPP sec. 5.1 and 5.4 at Width 1024 (naive 0.25 OP/B; TILE_WIDTH 16: 16x
// fewer loads, 4 OP/B), by full simulations of 1024^3 (2^30 multiply-adds each): ctest
// label `slow`, tens of seconds per case on one core, so each needs --yes (docs/cli.md, "Long
// and large simulations").
#include <gtest/gtest.h>

#include "run_cli.hpp"

namespace ts::test {
namespace {

TEST(CliSlow, Tiled1024Tile16)
{
    const nlohmann::json j = simulateJson("--kernel matmul-tiled --width 1024 --tile 16 --yes");
    EXPECT_EQ(j["ops_per_byte"], 4.0);
    EXPECT_EQ(j["reduction_vs_untiled"], 16.0);
    EXPECT_EQ(j["totals"]["global_loads"], 2ull * 1024 * 1024 * 1024 / 16);
    EXPECT_EQ(j["matches_reference"], true);
}

TEST(CliSlow, Naive1024)
{
    const nlohmann::json j = simulateJson("--kernel matmul-naive --width 1024 --tile 16 --yes");
    EXPECT_EQ(j["ops_per_byte"], 0.25);
    EXPECT_EQ(j["totals"]["global_loads"], 2ull * 1024 * 1024 * 1024);
    EXPECT_EQ(j["matches_reference"], true);
}

}  // namespace
}  // namespace ts::test
