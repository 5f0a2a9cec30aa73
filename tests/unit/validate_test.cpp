// sim::validate(): every bad scenario gets one sentence that names the wrong value and
// what is allowed; nothing is clamped.
#include <gtest/gtest.h>

#include "trace_query.hpp"

namespace ts::test {
namespace {

/// The message for `s`, checked to be one sentence on one line.
std::string refusal(const sim::Scenario& s)
{
    const std::string e = sim::validate(s);
    EXPECT_FALSE(e.empty());
    EXPECT_EQ(e.find('\n'), std::string::npos) << e;
    EXPECT_EQ(e.back(), '.') << e;
    return e;
}

TEST(Validate, AcceptsTheSeedExamples)
{
    EXPECT_EQ(sim::validate(matmul("matmul-tiled", 4, 4, 4, 2)), "");
    EXPECT_EQ(sim::validate(matmul("matmul-tiled", 3, 3, 3, 2, {1, 1, 0})), "");
    EXPECT_EQ(sim::validate(matmul("matmul-naive", 1024, 1024, 1024, 16)), "");
    EXPECT_EQ(sim::validate(matmul("matmul-tiled", 3, 5, 4, 32)), "");
}

TEST(Validate, SizeZero)
{
    const std::string e = refusal(matmul("matmul-tiled", 0, 4, 4, 2));
    EXPECT_NE(e.find("got 0"), std::string::npos) << e;
    EXPECT_NE(e.find("between 1 and 8192"), std::string::npos) << e;
    EXPECT_NE(refusal(matmul("matmul-naive", 4, 4, 0, 2)).find("got 0"), std::string::npos);
}

TEST(Validate, SizeTooLarge)
{
    EXPECT_NE(refusal(matmul("matmul-tiled", 4, 8193, 4, 2)).find("got 8193"), std::string::npos);
}

TEST(Validate, TileWidthThatIsNotCompiled)
{
    for (int tile : {3, 64, 0, -2}) {
        const std::string e = refusal(matmul("matmul-tiled", 4, 4, 4, tile));
        EXPECT_NE(e.find("TILE_WIDTH"), std::string::npos) << e;
        EXPECT_NE(e.find("2, 4, 8, 16, 32"), std::string::npos) << e;
        EXPECT_NE(e.find("got " + std::to_string(tile)), std::string::npos) << e;
    }
}

TEST(Validate, NaiveBlockEdgeOver32)
{
    const std::string e = refusal(matmul("matmul-naive", 4, 4, 4, 64));
    EXPECT_NE(e.find("1024 threads"), std::string::npos) << e;
    EXPECT_NE(e.find("got 64"), std::string::npos) << e;
    EXPECT_EQ(sim::validate(matmul("matmul-naive", 4, 4, 4, 3)), "");
}

TEST(Validate, BlockOutsideTheGrid)
{
    const std::string e = refusal(matmul("matmul-tiled", 4, 4, 4, 2, {2, 0, 0}));
    EXPECT_NE(e.find("(2, 0)"), std::string::npos) << e;
    EXPECT_NE(e.find("2 x 2"), std::string::npos) << e;
    refusal(matmul("matmul-tiled", 3, 3, 3, 2, {0, 2, 0}));
}

TEST(Validate, UnknownKernel)
{
    const std::string e = refusal(matmul("matmul-shared", 4, 4, 4, 2));
    EXPECT_NE(e.find("matmul-shared"), std::string::npos) << e;
    EXPECT_NE(e.find("matmul-tiled"), std::string::npos) << e;
}

// validate() resolves the kernel once and keeps its registry entry on the scenario; every
// later reader takes that entry, and a scenario never validated, or renamed since, still
// finds its own kernel by name.
TEST(Validate, ResolvesTheKernelOnce)
{
    sim::Scenario s = matmul("matmul-coarsened", 64, 64, 64, 16);
    EXPECT_EQ(s.info, nullptr);
    const sim::KernelInfo* byName = s.kernelInfo();   // never validated: found by name
    ASSERT_NE(byName, nullptr);
    EXPECT_STREQ(byName->name, "matmul-coarsened");
    EXPECT_EQ(sim::validate(s), "");
    EXPECT_EQ(s.info, byName);   // the registry's own entry, not a copy
    EXPECT_EQ(s.kernelInfo(), byName);
    // The launch shape reads the resolved entry: 4 P elements a thread along a row.
    EXPECT_EQ(sim::launchShape(s).grid.x, 1u);   // 64 columns / (16 x COARSE_FACTOR 4)
    // A new name wins over the stored entry until the next validate().
    s.kernel = "matmul-naive";
    ASSERT_NE(s.kernelInfo(), nullptr);
    EXPECT_STREQ(s.kernelInfo()->name, "matmul-naive");
    EXPECT_EQ(sim::launchShape(s).grid.x, 4u);   // 64 / 16: one element a thread
    EXPECT_EQ(sim::familyOf(s), sim::Family::Matmul);
    // An unknown name resolves to nothing, and validate() says so.
    s.kernel = "matmul-shared";
    EXPECT_EQ(s.kernelInfo(), nullptr);
    EXPECT_NE(sim::validate(s), "");
    EXPECT_EQ(s.info, nullptr);
    // A const scenario is checked without being changed.
    const sim::Scenario c = matmul("conv1d-tiled", 1, 1, 1, 8);
    sim::validate(c);
    EXPECT_EQ(c.info, nullptr);
    EXPECT_TRUE(sim::isConvolution(c));
    EXPECT_FALSE(sim::isConvolution(s));
}

// simulate() keeps the resolved entry on its Simulation's scenario, for the views.
TEST(Validate, SimulationCarriesTheResolvedKernel)
{
    const sim::Simulation r = sim::simulate(matmul("matmul-tiled", 4, 4, 4, 2));
    ASSERT_NE(r.scenario.info, nullptr);
    EXPECT_STREQ(r.scenario.info->name, "matmul-tiled");
    EXPECT_EQ(r.scenario.info, sim::findKernel("matmul-tiled"));
}

}  // namespace
}  // namespace ts::test
