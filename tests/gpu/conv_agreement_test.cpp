// The convolution kernels on the GPU against the simulator (docs/design.md, principle 3): P
// bit-identical (plain and counting instantiations), per-element global loads of N equal,
// the lecture's load counts (docs/references.md) counted on the device, the mask really in
// constant memory (a mask upload changes P), and a configuration over 1024 threads refused.
#include <string>
#include <tuple>

#include "gpu_test_support.hpp"
#include "sim/engine/simulate.hpp"

namespace ts::gpu::test {
namespace {

sim::Scenario conv(const std::string& kernel, int height, int width, int tile, int mask)
{
    return sim::convScenario(kernel, height, width, tile, mask, {}, 77u + static_cast<unsigned>(width + 3 * mask + tile));
}

using Case = std::tuple<std::string, int, int, int, int>;   // kernel, height, width, tile, mask

class ConvAgreement : public ::testing::TestWithParam<Case> {};

TEST_P(ConvAgreement, PBitIdenticalAndLoadsOfNEqual)
{
    TS_REQUIRE_GPU();
    const auto& [kernel, height, width, tile, mask] = GetParam();
    const sim::Scenario s = conv(kernel, height, width, tile, mask);
    ASSERT_EQ(sim::validate(s), "");
    sim::SimOptions o;
    o.trace = false;
    const sim::Simulation r = sim::simulate(s, o);
    ASSERT_EQ(r.error, "");
    ASSERT_TRUE(r.matchesReference);
    const CountedRun c = runCounted(s, r.M, r.N);
    EXPECT_EQ(bitDifference(c.P, r.P), "");
    EXPECT_EQ(bitDifference(runPlain(s, r.M, r.N), r.P), "");
    EXPECT_EQ(c.loadsN, r.counters.elementLoads[r.arrayIndex("N")]);
}

INSTANTIATE_TEST_SUITE_P(
    Kernels, ConvAgreement,
    ::testing::Values(Case{"conv1d-basic", 1, 64, 8, 5}, Case{"conv1d-basic", 1, 1001, 256, 9},
                      Case{"conv1d-tiled", 1, 64, 8, 5}, Case{"conv1d-tiled", 1, 61, 8, 9},
                      Case{"conv1d-tiled", 1, 3000, 1024, 7}, Case{"conv1d-tiled", 1, 5, 4, 3},
                      Case{"conv1d-tiled-cache", 1, 64, 8, 5}, Case{"conv1d-tiled-cache", 1, 77, 32, 9},
                      Case{"conv2d-basic", 64, 64, 8, 5}, Case{"conv2d-basic", 13, 29, 16, 9},
                      Case{"conv2d-tiled", 64, 64, 8, 5}, Case{"conv2d-tiled", 13, 29, 16, 9},
                      Case{"conv2d-tiled", 33, 40, 32, 1}, Case{"conv2d-tiled", 1, 1, 2, 3}));

// Presets conv1d-tiled-tile8-mask5 and conv1d-tiled-ghost-block0: with TILE_SIZE 8 and
// Mask_Width 5 an internal block loads 12 elements and a boundary block 10; counted on the
// device, the 8 blocks of width 64 load 6 x 12 + 2 x 10.
TEST(ConvOnGpu, SeedLoadCountsOnTheDevice)
{
    TS_REQUIRE_GPU();
    const sim::Scenario s = conv("conv1d-tiled", 1, 64, 8, 5);
    const sim::Simulation r = sim::simulate(s);
    const CountedRun c = runCounted(s, r.M, r.N);
    uint64_t total = 0;
    for (uint32_t n : c.loadsN) total += n;
    EXPECT_EQ(total, 92u);   // 6 internal blocks x 12 + 2 boundary blocks x 10
    EXPECT_EQ(c.loadsN[6], 2u);   // internal to block 0, and in block 1's left halo
    EXPECT_EQ(c.loadsN[8], 2u);   // internal to block 1, and in block 0's right halo
    EXPECT_EQ(c.loadsN[3], 1u);   // internal to block 0 only
}

// The kernels read the mask from constant memory: running with a different mask changes P
// (a kernel that ignored the upload would not change).
TEST(ConvOnGpu, MaskComesFromConstantMemory)
{
    TS_REQUIRE_GPU();
    const sim::Scenario s = conv("conv2d-tiled", 16, 16, 8, 5);
    const sim::Simulation r = sim::simulate(s);
    std::vector<float> other = r.M;
    for (float& v : other) v *= 0.5f;
    EXPECT_EQ(bitDifference(runPlain(s, r.M, r.N), r.P), "");
    EXPECT_NE(bitDifference(runPlain(s, other, r.N), r.P), "");
}

TEST(ConvOnGpu, BlockOver1024ThreadsIsRefused)
{
    TS_REQUIRE_GPU();
    const sim::Scenario s = conv("conv2d-tiled", 64, 64, 32, 5);
    const std::vector<float> M(25, 1.0f), N(64 * 64, 1.0f);
    try {
        runPlain(s, M, N);
        FAIL() << "a block of 36 x 36 threads was launched";
    } catch (const LaunchError& e) {
        EXPECT_NE(std::string(e.what()).find("1296 threads"), std::string::npos) << e.what();
    }
}

}  // namespace
}  // namespace ts::gpu::test
