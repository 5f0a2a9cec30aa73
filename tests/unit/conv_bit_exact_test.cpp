// Convolution results bit for bit (docs/design.md, principle 3): every kernel's simulated P
// equals the fmaf reference at sizes that are and are not multiples of the tile, the
// lecture's 2D example gives its 321, and the agreement rests on fused multiply-adds.
#include <gtest/gtest.h>

#include "conv_test_support.hpp"

namespace ts::test {
namespace {

TEST(ConvBitExact, EveryKernelAtManySizes)
{
    for (const char* k : {"conv1d-basic", "conv1d-tiled", "conv1d-tiled-cache"})
        for (int width : {1, 2, 7, 8, 61, 64, 333})
            for (int mask : {1, 3, 5, 7, 9})
                for (int tile : {4, 8, 32}) {
                    SCOPED_TRACE(std::string(k) + " width " + std::to_string(width) + " mask " +
                                 std::to_string(mask) + " tile " + std::to_string(tile));
                    runConv(conv1d(k, width, tile, mask), false);
                }
    for (const char* k : {"conv2d-basic", "conv2d-tiled"})
        for (auto [h, w] : {std::pair{1, 1}, std::pair{3, 5}, std::pair{8, 8}, std::pair{13, 29}, std::pair{40, 17}})
            for (int mask : {1, 3, 5, 9})
                for (int tile : {2, 8, 16}) {
                    SCOPED_TRACE(std::string(k) + " " + std::to_string(h) + "x" + std::to_string(w) + " mask " +
                                 std::to_string(mask) + " tile " + std::to_string(tile));
                    runConv(conv2d(k, h, w, tile, mask), false);
                }
}

// Example: 2D inside cell (PMPP sec. 7.1; docs/references.md): this N and this 5 x 5 mask
// give P[2][2] = 321 (the sum of the element-wise products), through both 2D kernels.
TEST(ConvBitExact, Seed2DInsideCellsExample)
{
    const std::vector<float> N = {1, 2, 3, 4, 5, 6, 7, 2, 3, 4, 5, 6, 7, 8, 3, 4, 5, 6, 7, 8, 9, 4, 5, 6, 7,
                                  8, 5, 6, 5, 6, 7, 8, 5, 6, 7, 6, 7, 8, 9, 0, 1, 2, 7, 8, 9, 0, 1, 2, 3};
    const std::vector<float> M = {1, 2, 3, 2, 1, 2, 3, 4, 3, 2, 3, 4, 5, 4, 3, 2, 3, 4, 3, 2, 1, 2, 3, 2, 1};
    const std::vector<float> ref = sim::conv2dReferenceFma(N, M, 7, 7, 5);
    EXPECT_EQ(ref[2 * 7 + 2], 321.0f);
    for (auto [kernel, tile] : {std::pair{"conv2d-basic", 4}, std::pair{"conv2d-tiled", 4}, std::pair{"conv2d-tiled", 8}}) {
        SCOPED_TRACE(std::string(kernel) + " tile " + std::to_string(tile));
        const std::vector<float> P = runOnInputs(conv2d(kernel, 7, 7, tile, 5), N, M);
        EXPECT_EQ(P[2 * 7 + 2], 321.0f);
        EXPECT_TRUE(sameBits(P, ref));
    }
}

// The 1D reference by hand: on N = 1..7 with mask 3 4 5 4 3, P[2] = 1*3 + 2*4 + 3*5 + 4*4
// + 5*3 = 57 and P[0] = 1*5 + 2*4 + 3*3 = 22 (ghost elements 0); the kernels agree.
TEST(ConvBitExact, Small1DExampleByHand)
{
    const std::vector<float> N = {1, 2, 3, 4, 5, 6, 7}, M = {3, 4, 5, 4, 3};
    const std::vector<float> ref = sim::conv1dReferenceFma(N, M, 7, 5);
    EXPECT_EQ(ref[2], 57.0f);
    EXPECT_EQ(ref[0], 22.0f);
    EXPECT_EQ(ref[6], 7 * 5.0f + 6 * 4 + 5 * 3);
    for (const char* k : {"conv1d-basic", "conv1d-tiled", "conv1d-tiled-cache"})
        EXPECT_TRUE(sameBits(runOnInputs(conv1d(k, 7, 4, 5), N, M), ref)) << k;
}

/// The 2D sum with each product rounded before the add (no fusing); `volatile` keeps the
/// compiler from contracting it.
std::vector<float> unfused2d(const std::vector<float>& N, const std::vector<float>& M, int h, int w, int mw)
{
    std::vector<float> P(static_cast<size_t>(h) * w);
    for (int r = 0; r < h; ++r)
        for (int c = 0; c < w; ++c) {
            float acc = 0;
            for (int i = 0; i < mw; ++i)
                for (int j = 0; j < mw; ++j) {
                    const int row = r - mw / 2 + i, col = c - mw / 2 + j;
                    if (row < 0 || row >= h || col < 0 || col >= w) continue;
                    volatile float product = M[i * mw + j] * N[row * w + col];
                    acc = acc + product;
                }
            P[r * w + c] = acc;
        }
    return P;
}

// The test can fail: rounding each product separately changes many elements at this size,
// and the simulator matches the fused sum, not the unfused one.
TEST(ConvBitExact, AgreementNeedsFusedMultiplyAdd)
{
    const sim::Simulation r = runConv(conv2d("conv2d-tiled", 32, 32, 8, 9), false);
    const std::vector<float> unfused = unfused2d(r.N, r.M, 32, 32, 9);
    size_t differ = 0;
    for (size_t i = 0; i < unfused.size(); ++i) differ += std::memcmp(&unfused[i], &r.reference[i], sizeof(float)) != 0;
    EXPECT_GT(differ, 100u);
    EXPECT_TRUE(sameBits(r.P, r.reference));
    EXPECT_FALSE(sameBits(r.P, unfused));
}

}  // namespace
}  // namespace ts::test
