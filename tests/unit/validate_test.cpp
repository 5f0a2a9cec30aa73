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

}  // namespace
}  // namespace ts::test
