// The GPU and the simulator run the same kernel source: their P must be bit-identical, also
// to the FMA-ordered CPU reference, and the per-element global-load counts of the counting
// instantiation must equal the simulator's and the closed-form count. docs/design.md, principle 3.
#include <string>
#include <tuple>

#include "gpu_test_support.hpp"
#include "kernels/context.cuh"
#include "sim/engine/reference.hpp"
#include "sim/engine/simulate.hpp"

namespace ts::gpu::test {
namespace {

struct Size {
    int j, k, l;
};

using Case = std::tuple<std::string, int, Size>;

class MatmulAgreement : public ::testing::TestWithParam<Case> {};

/// Loads per element by counting, independent of both the simulator and the GPU: every
/// M[r][i] is read once per column of P that its row feeds, by each block column of the
/// grid (tiled: once per block column, i.e. ceil(l/T) times; naive: l times), and every
/// N[i][c] likewise once per block row (ceil(j/T)) or once per row of P (j). The same count
/// for every element, so it holds in N's stored layout too (column-major for
/// matmul-corner-turning, whose counters are by stored index on both sides).
std::vector<uint32_t> expectedLoads(bool tiled, int tile, int rows, int cols, int readers)
{
    const int perElement = tiled ? (readers + tile - 1) / tile : readers;
    return std::vector<uint32_t>(static_cast<size_t>(rows) * cols, static_cast<uint32_t>(perElement));
}

TEST_P(MatmulAgreement, PBitIdenticalAndLoadsEqual)
{
    TS_REQUIRE_GPU();
    const auto& [kernel, tile, size] = GetParam();
    const sim::Scenario s = sim::matmulScenario(kernel, size.j, size.k, size.l, tile, {}, 1000u + tile * 7u + size.j);
    ASSERT_EQ(sim::validate(s), "");
    sim::SimOptions o;
    o.trace = false;
    const sim::Simulation r = sim::simulate(s, o);
    ASSERT_EQ(r.error, "");

    const std::vector<float> fma = sim::matmulReferenceFma(r.M, r.N, s.j, s.k, s.l);
    const std::vector<float> plain = runPlain(s, r.M, r.N);
    EXPECT_EQ(bitDifference(plain, r.P), "") << "GPU P vs simulator P";
    EXPECT_EQ(bitDifference(plain, fma), "") << "GPU P vs sim::matmulReferenceFma";

    const CountedRun c = runCounted(s, r.M, r.N);
    EXPECT_EQ(bitDifference(c.P, plain), "") << "counting instantiation's P vs plain P";
    const int iM = r.arrayIndex("M"), iN = r.arrayIndex("N");
    ASSERT_GE(iM, 0);
    ASSERT_GE(iN, 0);
    EXPECT_EQ(c.loadsM, r.counters.elementLoads[iM]) << "per-element loads of M, GPU vs simulator";
    EXPECT_EQ(c.loadsN, r.counters.elementLoads[iN]) << "per-element loads of N, GPU vs simulator";
    const bool tiled = sim::findKernel(kernel)->tiled;
    EXPECT_EQ(c.loadsM, expectedLoads(tiled, tile, s.j, s.k, s.l)) << "per-element loads of M vs formula";
    EXPECT_EQ(c.loadsN, expectedLoads(tiled, tile, s.k, s.l, s.j)) << "per-element loads of N vs formula";
}

std::string caseName(const ::testing::TestParamInfo<Case>& info)
{
    const auto& [kernel, tile, size] = info.param;
    // "matmul-tiled-nds-padded" -> "tiled_nds_padded": gtest names take no '-'.
    std::string name = kernel.substr(std::string("matmul-").size());
    for (char& ch : name)
        if (ch == '-') ch = '_';
    return name + "_tile" + std::to_string(tile) + "_" +
           std::to_string(size.j) + "x" + std::to_string(size.k) + "x" + std::to_string(size.l);
}

INSTANTIATE_TEST_SUITE_P(
    AllTilesAndShapes, MatmulAgreement,
    ::testing::Combine(::testing::Values("matmul-naive", "matmul-tiled", "matmul-naive-uncoalesced",
                                         "matmul-tiled-nds-transposed", "matmul-tiled-nds-padded",
                                         "matmul-corner-turning"),
                       ::testing::Values(2, 4, 8, 16, 32),
                       ::testing::Values(Size{1, 1, 1}, Size{3, 3, 3}, Size{17, 17, 17}, Size{100, 37, 51},
                                         Size{64, 96, 32}, Size{33, 65, 31})),
    caseName);

// The dropping instance of matmul-tiled (presets missing-barrier-*) runs the same source:
// with a single phase (k <= TILE_WIDTH) the write-after-read barrier guards nothing, so
// dropping it must leave P and the load counts exactly as the simulator has them.
TEST(MatmulDroppedBarrier, WarBarrierWithOnePhaseChangesNothing)
{
    TS_REQUIRE_GPU();
    sim::Scenario s = sim::matmulScenario("matmul-tiled", 40, 16, 40, 16);
    s.dropBarriers = kernels::AFTER_COMPUTE;
    ASSERT_EQ(sim::validate(s), "");
    sim::SimOptions o;
    o.trace = false;
    const sim::Simulation r = sim::simulate(s, o);
    ASSERT_EQ(r.error, "");
    EXPECT_EQ(bitDifference(runPlain(s, r.M, r.N), r.P), "");
    const CountedRun c = runCounted(s, r.M, r.N);
    EXPECT_EQ(bitDifference(c.P, r.P), "");
    EXPECT_EQ(c.loadsM, r.counters.elementLoads[r.arrayIndex("M")]);
    EXPECT_EQ(c.loadsN, r.counters.elementLoads[r.arrayIndex("N")]);
}

}  // namespace
}  // namespace ts::gpu::test
