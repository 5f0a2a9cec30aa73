// Exit statuses of docs/cli.md: 2 for bad arguments, 3 for GPU work without a
// usable CUDA device; in both cases one sentence on stderr and nothing on stdout.
#include <gtest/gtest.h>

#include "gpu/gpu.hpp"
#include "run_cli.hpp"

namespace ts::test {
namespace {

/// Expects `args` to fail with `status`, one sentence on stderr, nothing on stdout.
void expectRefused(const std::string& args, int status, const std::string& mention = "")
{
    expectRefusedRun(args, status, {mention});
}

TEST(CliExitStatus, BadArgumentsExit2)
{
    const std::string sim = "simulate --kernel matmul-tiled ";
    expectRefused(sim + "--width 4 --tile 3", 2, "got 3");
    expectRefused(sim + "--width 4 --tile 64", 2, "got 64");
    expectRefused(sim + "--width 0 --tile 2", 2, "got 0");
    expectRefused(sim + "--width 9000 --tile 2", 2, "got 9000");
    expectRefused("simulate --kernel matmul-shared --width 4 --tile 2", 2, "matmul-shared");
    expectRefused(sim + "--width 4 --j 4 --tile 2", 2, "--width");
    expectRefused(sim + "--j 4 --k 4 --tile 2", 2, "--l");
    expectRefused(sim + "--width 4 --tile 2 --block 1,x", 2, "1,x");
    expectRefused(sim + "--width 4 --tile 2 --block -1", 2, "-1");
    expectRefused(sim + "--width 4 --tile 2 --block 1,2,3,4", 2, "1,2,3,4");
    // A third index is a block of a 3D grid: this grid has one plane.
    expectRefused(sim + "--width 4 --tile 2 --block 1,1,3", 2, "Block (1, 1, 3) is outside the grid of 2 x 2 x 1 blocks.");
    expectRefused(sim + "--width 4 --tile 2 --block 2,0", 2, "(2, 0)");
    expectRefused(sim + "--width 4 --tile 2 --schedule sideways", 2, "sideways");
    expectRefused(sim + "--width four --tile 2", 2, "four");
    expectRefused("simulate --width 4 --tile 2", 2, "--kernel");
    expectRefused("simulate --kernel matmul-naive --width 4 --tile 33", 2, "got 33");
    expectRefused("transpose --width 4", 2);
    // Bad arguments are refused before the GPU is looked for.
    expectRefused("bench --kernel matmul-tiled --width 64 --tile 3", 2, "got 3");
    expectRefused("bench --kernel matmul-shared --width 64", 2, "matmul-shared");
    // A results file whose folder is missing is refused before any timing.
    expectRefused("bench --kernel matmul-tiled --width 64 --out /nonexistent-folder/results.json", 2,
                  "/nonexistent-folder");
    // The ladder's rungs refuse a tile they were not compiled for, naming it.
    expectRefused("bench --kernel ladder --width 64 --tile 16", 2, "got 16");
}

TEST(CliExitStatus, GpuWorkWithoutDeviceExits3)
{
    const gpu::DeviceInfo d = gpu::queryDevice();
    if (d.available) GTEST_SKIP() << "this machine has a usable CUDA device (" << d.name << ")";
    expectRefused("bench --kernel matmul-tiled --width 64 --tile 16", 3);
    expectRefused("bench --kernel matmul-naive,matmul-tiled,cublas --width 64", 3);
    expectRefused("verify", 3);
    // The reason the CLI gives is the device query's own sentence.
    EXPECT_NE(runCli("verify").err.find(d.why), std::string::npos);
}

}  // namespace
}  // namespace ts::test

// Found by the argument fuzzer (fuzz/cli_args_fuzz.cpp): an argument with a newline in it
// was echoed as it is, and the one-sentence error ran over two lines; it is now quoted as \n.
TEST(CliExitStatus, ArgumentWithANewlineIsQuotedOnOneLine)
{
    const ts::test::CliRun r = ts::test::runCli("simulate --kernel matmul-tiled --width 4 \"$(printf 'a\\nb')\"");
    EXPECT_EQ(r.status, 2);
    EXPECT_EQ(r.err.find('\n'), r.err.size() - 1) << r.err;
    EXPECT_NE(r.err.find("a\\nb"), std::string::npos) << r.err;
}
