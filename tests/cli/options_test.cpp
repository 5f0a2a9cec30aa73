// tilescope-cli --version, and seeds: a negative --seed, --schedule-seed or verify --seed is
// refused (status 2, one sentence naming the value) instead of wrapping round to a huge
// unsigned number; the largest seed, 2^64 - 1, is accepted.
#include <gtest/gtest.h>

#include <regex>

#include "run_cli.hpp"

namespace ts::test {
namespace {

TEST(CliOptions, VersionPrintsTheProjectVersion)
{
    const CliRun r = runCli("--version");
    EXPECT_EQ(r.status, 0) << r.err;
    // TILESCOPE_VERSION: project(VERSION) of CMakeLists.txt, as the tool was built with it.
    EXPECT_EQ(r.out, std::string("tilescope-cli ") + TILESCOPE_VERSION + "\n");
    EXPECT_TRUE(std::regex_match(r.out, std::regex("tilescope-cli [0-9]+\\.[0-9]+\\.[0-9]+\n"))) << r.out;
    EXPECT_EQ(r.err, "");
}

/// Expects `args` to be refused with status 2 and one sentence on stderr that contains `mention`.
void expectRefused(const std::string& args, const std::string& mention)
{
    expectRefusedRun(args, 2, {mention, "cannot be negative"});
}

TEST(CliOptions, NegativeSeedsAreRefused)
{
    const std::string sim = "simulate --kernel matmul-tiled --width 4 --tile 2 ";
    expectRefused(sim + "--seed -5", "got '-5'");
    expectRefused(sim + "--seed=-5", "got '-5'");
    expectRefused(sim + "--schedule random --schedule-seed -1", "got '-1'");
    expectRefused("bench --kernel matmul-tiled --width 64 --seed -2", "got '-2'");   // before the GPU is looked for
    expectRefused("verify --seed -3", "got '-3'");
}

TEST(CliOptions, SeedsUpTo2To64Minus1AreAccepted)
{
    const std::string sim = "simulate --kernel matmul-tiled --width 4 --tile 2 --json ";
    for (const char* seed : {"0", "5", "18446744073709551615"}) {
        SCOPED_TRACE(seed);
        const CliRun r = runCli(sim + "--seed " + seed);
        EXPECT_EQ(r.status, 0) << r.err;
        EXPECT_TRUE(nlohmann::json::parse(r.out)["matches_reference"].get<bool>());
    }
}

}  // namespace
}  // namespace ts::test
