// --threads N on the commands that simulate (simulate, gpu-run, verify): the worker threads
// of the simulation. 1 to 1024; 0, more than 1024 or anything that is not a whole number is
// refused with status 2 and one sentence naming the value. The output does not depend on
// the number of threads: the JSON (counters, hazards, memory object) and the text summary
// with its per-line table are the same with 1, 3 and the default of one per core.
#include <gtest/gtest.h>

#include "run_cli.hpp"

namespace ts::test {
namespace {

/// Expects `args` to be refused with status 2 and one sentence about --threads naming `value`.
void expectRefused(const std::string& args, const std::string& value)
{
    expectRefusedRun(args, 2, {"--threads", "from 1 to 1024", "got '" + value + "'"});
}

TEST(CliThreads, OutOfRangeIsRefused)
{
    const std::string sim = "simulate --kernel matmul-tiled --width 64 --tile 16 ";
    expectRefused(sim + "--threads 0", "0");
    expectRefused(sim + "--threads 1025", "1025");
    expectRefused(sim + "--threads -2", "-2");
    expectRefused(sim + "--threads 2x", "2x");
    expectRefused(sim + "--threads 99999999999999999999", "99999999999999999999");
    // Before any GPU is looked for.
    expectRefused("verify --threads 0", "0");
    expectRefused("gpu-run --kernel matmul-tiled --width 64 --threads 2000", "2000");
}

TEST(CliThreads, LimitsAreAccepted)
{
    for (const char* n : {"1", "1024"}) {
        const CliRun r = runCli(std::string("simulate --kernel matmul-tiled --width 40 --tile 8 --json --threads ") + n);
        EXPECT_EQ(r.status, 0) << n << ": " << r.err;
    }
}

// A dropped barrier (hazards in many blocks), a ragged problem, the random schedule and
// the memory model: every key of the JSON is the same whatever the number of threads.
TEST(CliThreads, OutputDoesNotDependOnTheThreads)
{
    const std::string args = "--kernel matmul-tiled --j 100 --k 37 --l 51 --tile 8 --drop-barrier after-load "
                             "--schedule random --schedule-seed 5 --block 3,2";
    const nlohmann::json one = simulateJson(args + " --threads 1");
    EXPECT_GT(one["hazards"]["raw"].get<uint64_t>(), 0u);
    EXPECT_GT(one["memory"]["shared_ld_requests"].get<uint64_t>(), 0u);
    EXPECT_EQ(simulateJson(args + " --threads 3"), one);
    EXPECT_EQ(simulateJson(args), one);
    // The text summary, the hazard report and the per-line table too.
    const CliRun a = runCli("simulate " + args + " --hazard-report --threads 1");
    const CliRun b = runCli("simulate " + args + " --hazard-report --threads 4");
    EXPECT_EQ(a.status, 0) << a.err;
    EXPECT_EQ(b.status, 0) << b.err;
    EXPECT_NE(a.out.find("RAW hazard"), std::string::npos) << a.out;
    EXPECT_EQ(a.out, b.out);
}

}  // namespace
}  // namespace ts::test
