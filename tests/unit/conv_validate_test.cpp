// Convolution scenarios that could not run are refused with one sentence naming the value
// and what is allowed (spec: "more than 1024 threads per block ... refused"); nothing is
// clamped.
#include <gtest/gtest.h>

#include "conv_test_support.hpp"
#include "kernels/context.cuh"

namespace ts::test {
namespace {

/// validate()'s message for `s`, checked to be one sentence on one line that contains `part`.
void refused(const sim::Scenario& s, const std::string& part)
{
    const std::string e = sim::validate(s);
    ASSERT_FALSE(e.empty()) << s.kernel;
    EXPECT_EQ(e.find('\n'), std::string::npos) << e;
    EXPECT_EQ(e.back(), '.') << e;
    EXPECT_NE(e.find(part), std::string::npos) << e;
}

TEST(ConvValidate, AcceptsTheSeedExamples)
{
    EXPECT_EQ(sim::validate(conv1d("conv1d-tiled", 64, 8, 5, 1)), "");
    EXPECT_EQ(sim::validate(conv1d("conv1d-tiled-cache", 64, 8, 5, 7)), "");
    EXPECT_EQ(sim::validate(conv1d("conv1d-basic", 1 << 24, 256, 9)), "");
    EXPECT_EQ(sim::validate(conv2d("conv2d-tiled", 64, 64, 8, 5, {1, 1, 0})), "");
    EXPECT_EQ(sim::validate(conv2d("conv2d-tiled", 64, 64, 32, 1)), "");   // 32 x 32 = 1024 threads
    EXPECT_EQ(sim::validate(conv2d("conv2d-basic", 8192, 8192, 32, 9)), "");
}

TEST(ConvValidate, BlockOver1024Threads)
{
    refused(conv2d("conv2d-tiled", 64, 64, 32, 5), "(32 + 5 - 1)^2 = 1296 threads, more than the 1024");
    refused(conv2d("conv2d-tiled", 64, 64, 32, 9), "1600 threads");
    refused(conv2d("conv2d-tiled", 64, 64, 64, 5), "4624 threads");
    refused(conv2d("conv2d-tiled", 64, 64, 32, 3), "1156 threads");
    refused(conv2d("conv2d-basic", 64, 64, 33, 5), "got 33");
    refused(conv1d("conv1d-basic", 64, 1025, 5), "got 1025");
}

TEST(ConvValidate, MaskWidth)
{
    for (int mask : {0, 4, 11, -3}) {
        refused(conv1d("conv1d-tiled", 64, 8, mask), "got " + std::to_string(mask));
        refused(conv2d("conv2d-tiled", 64, 64, 8, mask), "odd and between 1 and 9");
    }
}

TEST(ConvValidate, TileSize)
{
    refused(conv1d("conv1d-tiled", 64, 24, 5), "got 24");
    refused(conv1d("conv1d-tiled-cache", 64, 0, 5), "2, 4, 8, 16, 32, 64, 128, 256, 512 or 1024");
    refused(conv2d("conv2d-tiled", 64, 64, 12, 5), "2, 4, 8, 16 or 32");
    // The halo is loaded by Mask_Width/2 threads on each side.
    refused(conv1d("conv1d-tiled", 64, 2, 9), "at least 4 for Mask_Width 9; got 2");
    EXPECT_EQ(sim::validate(conv1d("conv1d-tiled-cache", 64, 2, 9)), "");
}

TEST(ConvValidate, Sizes)
{
    refused(conv1d("conv1d-basic", 0, 8, 5), "got 0");
    refused(conv1d("conv1d-tiled", (1 << 24) + 1, 8, 5), "between 1 and 16777216");
    refused(conv2d("conv2d-basic", 0, 8, 8, 5), "height");
    refused(conv2d("conv2d-tiled", 8, 8193, 8, 5), "got 8193");
    refused(conv2d("conv1d-tiled", 2, 64, 8, 5), "height must be 1; got 2");
}

TEST(ConvValidate, BlockOutsideTheGrid)
{
    refused(conv1d("conv1d-tiled", 64, 8, 5, 8), "outside the grid of 8 x 1 blocks");
    refused(conv2d("conv2d-tiled", 20, 20, 8, 5, {0, 3, 0}), "outside the grid of 3 x 3 blocks");
}

TEST(ConvValidate, DroppingABarrier)
{
    sim::Scenario s = conv1d("conv1d-basic", 64, 8, 5);
    s.dropBarriers = kernels::AFTER_LOAD;
    refused(s, "no barriers to drop");
    s.kernel = "conv1d-tiled";
    EXPECT_EQ(sim::validate(s), "");
    s.dropBarriers = kernels::AFTER_COMPUTE;
    refused(s, "only its after-load barrier");
}

}  // namespace
}  // namespace ts::test
