// Long and large simulations (docs/cli.md, "Long and large simulations"): a simulation
// estimated above 10 s is refused at once with status 2 and one sentence unless --yes is
// given; one that needs more memory than the machine has free is refused even with --yes.
#include <gtest/gtest.h>

#include <chrono>

#include "run_cli.hpp"
#include "tests/sanitized_build.hpp"

namespace ts::test {
namespace {

/// Runs `tilescope-cli ARGS` and how long it took, seconds.
CliRun timedRun(const std::string& args, double& seconds)
{
    const auto start = std::chrono::steady_clock::now();
    CliRun r = runCli(args);
    seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return r;
}

/// Expects a refusal: status 2, nothing on stdout, one sentence on stderr that mentions
/// each of `mentions`, within `limit` seconds.
void expectQuickRefusal(const std::string& args, const std::vector<std::string>& mentions, double limit = 5)
{
    SCOPED_TRACE("tilescope-cli " + args);
    double took = 0;
    const CliRun r = timedRun(args, took);
    EXPECT_LT(took, limit) << "a refusal must come before any simulation";
    expectOneSentenceRefusal(r, 2, mentions);
}

TEST(CliWorkCheck, NaiveWidth5000AsksForYes)
{
    // Hours of simulation in the first version, silently; now one sentence at once.
    for (const std::string extra : {"", " --json"})
        expectQuickRefusal("simulate --kernel matmul-naive --width 5000" + extra,
                           {"tilescope-cli: Simulating matmul-naive at width 5000, tile 16 takes about ",
                            " on this machine when it is idle, up to ",
                            " when it is busy (1.25e11 multiply-adds); add --yes to run it anyway."});
}

TEST(CliWorkCheck, OtherFamiliesAskToo)
{
    expectQuickRefusal("simulate --kernel matmul-tiled --j 8000 --k 8000 --l 100 --tile 32",
                       {"matmul-tiled at j 8000, k 8000, l 100, tile 32", "--yes"});
    expectQuickRefusal("simulate --kernel conv2d-basic --height 8192 --width 8192 --mask-width 9 --tile 16",
                       {"conv2d-basic at height 8192, width 8192, Mask_Width 9", "--yes"});
}

TEST(CliWorkCheck, ShortRunsAreNotAsked)
{
    const CliRun r = runCli("simulate --kernel matmul-tiled --width 64 --tile 16 --json");
    EXPECT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(r.err, "");
    EXPECT_EQ(nlohmann::json::parse(r.out)["matches_reference"], true);
}

TEST(CliWorkCheck, TooBigForMemoryIsRefusedEvenWithYes)
{
    // An address-space limit of 400 MB (ulimit -v) stands for a machine with little memory:
    // the 8000^3 product needs about 2.5 GiB for its inputs and counters.
    if (kAddressSanitized)
        GTEST_SKIP() << "ASan reserves terabytes of shadow address space at start-up, so no program "
                        "of this build starts under ulimit -v";
    SCOPED_TRACE("ulimit -v 400000; tilescope-cli simulate --kernel matmul-tiled --width 8000 --yes");
    double took = 0;
    const auto start = std::chrono::steady_clock::now();
    const std::string cmd = std::string("ulimit -v 400000 && '") + TILESCOPE_CLI +
                            "' simulate --kernel matmul-tiled --width 8000 --yes 2>&1; echo \"exit=$?\"";
    std::string out;
    FILE* p = ::popen(cmd.c_str(), "r");
    ASSERT_NE(p, nullptr);
    char buf[4096];
    for (size_t n; (n = std::fread(buf, 1, sizeof buf, p)) > 0;) out.append(buf, n);
    ::pclose(p);
    took = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    EXPECT_LT(took, 5);
    EXPECT_NE(out.find("Simulating matmul-tiled at width 8000, tile 16 needs about 2.5 GiB of memory"), std::string::npos)
        << out;
    EXPECT_NE(out.find("available on this machine; choose a smaller problem.\nexit=2"), std::string::npos) << out;
}

}  // namespace
}  // namespace ts::test

// The progress line (docs/cli.md, "Long and large simulations"): on a terminal a run longer
// than 0.3 s shows "simulating, N% after ..." on stderr, rewritten in place; --quiet and a
// stderr that is not a terminal show nothing. `script` gives the command a terminal.
namespace {

/// Runs `tilescope-cli ARGS` with a pseudo-terminal as its stdout and stderr; returns
/// what it printed there.
std::string onTerminal(const std::string& args)
{
    const std::string cmd = std::string("script -qec \"'") + TILESCOPE_CLI + "' " + args + "\" /dev/null";
    std::string out;
    FILE* p = ::popen(cmd.c_str(), "r");
    if (!p) return out;
    char buf[4096];
    for (size_t n; (n = std::fread(buf, 1, sizeof buf, p)) > 0;) out.append(buf, n);
    ::pclose(p);
    return out;
}

bool haveScript() { return std::system("command -v script >/dev/null 2>&1") == 0; }

}  // namespace

TEST(CliProgress, ShownOnATerminalForALongerRun)
{
    if (!haveScript()) GTEST_SKIP() << "no `script` (util-linux) to give the command a terminal";
    // About 1-3 s on one core: long enough for the line to appear after 0.3 s.
    const std::string out = onTerminal("simulate --kernel matmul-tiled --width 512 --tile 16");
    EXPECT_NE(out.find("tilescope-cli: simulating, "), std::string::npos) << out;
    EXPECT_NE(out.find("% after "), std::string::npos) << out;
    EXPECT_NE(out.find("global loads"), std::string::npos) << out;   // the report follows
}

TEST(CliProgress, QuietAndShortRunsShowNone)
{
    if (!haveScript()) GTEST_SKIP() << "no `script` (util-linux) to give the command a terminal";
    EXPECT_EQ(onTerminal("simulate --kernel matmul-tiled --width 512 --tile 16 --quiet").find("simulating"),
              std::string::npos);
    EXPECT_EQ(onTerminal("simulate --kernel matmul-tiled --width 8 --tile 4").find("simulating"), std::string::npos);
    // Not a terminal: nothing on stderr for a run that was not asked about.
    const ts::test::CliRun r = ts::test::runCli("simulate --kernel matmul-tiled --width 512 --tile 16");
    EXPECT_EQ(r.status, 0);
    EXPECT_EQ(r.err.find("simulating"), std::string::npos) << r.err;
}
