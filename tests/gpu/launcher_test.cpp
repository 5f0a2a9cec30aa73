// The launchers refuse what a GPU could not run, with one sentence naming the value, and
// the device query describes the device.
#include "gpu_test_support.hpp"
#include "sim/catalogue/scenario.hpp"

namespace ts::gpu::test {
namespace {

sim::Scenario scenario(const char* kernel, int tile, int j = 8, int k = 8, int l = 8)
{
    return sim::matmulScenario(kernel, j, k, l, tile);
}

/// The message of the LaunchError that `f` throws, or "" if it throws none.
template <class F>
std::string launchError(F f)
{
    try {
        f();
    } catch (const LaunchError& e) {
        return e.what();
    }
    return {};
}

const std::vector<float> kInput = sim::randomInput(64, 5, 1);

TEST(Launcher, RefusesTileWithoutCompiledInstance)
{
    TS_REQUIRE_GPU();
    const std::string e = launchError([] { runPlain(scenario("matmul-tiled", 3), kInput, kInput); });
    EXPECT_NE(e.find("TILE_WIDTH 3"), std::string::npos) << e;
    const BenchRequest r{sim::matmulScenario("matmul-tiled", 8, 8, 8, 3)};
    EXPECT_NE(launchError([&] { bench(r); }), "");
    EXPECT_NE(launchError([] { runCounted(scenario("matmul-tiled", 3), kInput, kInput); }), "");
}

TEST(Launcher, RefusesBlockOverDeviceLimit)
{
    TS_REQUIRE_GPU();
    // 33 x 33 = 1089 threads: more than any CUDA device allows in one block.
    const std::string e = launchError([] { runPlain(scenario("matmul-naive", 33), kInput, kInput); });
    EXPECT_NE(e.find("1089 threads"), std::string::npos) << e;
}

TEST(Launcher, RefusesEmptyAndMismatchedSizes)
{
    TS_REQUIRE_GPU();
    const std::string zero = launchError([] { runPlain(scenario("matmul-tiled", 2, 0, 8, 8), {}, kInput); });
    EXPECT_NE(zero.find("got 0"), std::string::npos) << zero;
    const std::string mismatch =
        launchError([] { runPlain(scenario("matmul-tiled", 2, 8, 8, 9), kInput, kInput); });
    EXPECT_NE(mismatch.find("N has 64 elements"), std::string::npos) << mismatch;
}

TEST(Launcher, RefusesUnknownKernelAndCountingCublas)
{
    TS_REQUIRE_GPU();
    EXPECT_NE(launchError([] { runPlain(scenario("matmul-magic", 2), kInput, kInput); }).find("matmul-magic"),
              std::string::npos);
    EXPECT_NE(launchError([] { runCounted(scenario("cublas", 2), kInput, kInput); }), "");
    const BenchRequest r{sim::matmulScenario("matmul-naive", 8, 8, 8, 16), 0};
    EXPECT_NE(launchError([&] { bench(r); }).find("got 0"), std::string::npos);
}

TEST(DeviceQuery, DescribesTheDevice)
{
    TS_REQUIRE_GPU();
    const DeviceInfo d = queryDevice();
    EXPECT_TRUE(d.why.empty()) << d.why;
    EXPECT_FALSE(d.name.empty());
    EXPECT_GE(d.ccMajor * 10 + d.ccMinor, 75);
    EXPECT_GT(d.smCount, 0);
    EXPECT_GT(d.clockGHz, 0.1);
    EXPECT_GT(d.globalMemBytes, 1ull << 30);
    EXPECT_GE(d.maxThreadsPerBlock, 1024);
    EXPECT_GE(d.sharedMemPerBlock, 48 * 1024);
    EXPECT_GE(d.maxGridY, 65535);
}

}  // namespace
}  // namespace ts::gpu::test
