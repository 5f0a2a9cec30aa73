// The code view's explanations for the convolution kernels (sim/teaching/kernel_view.hpp): the
// kernels' own variables (i, n, halo_index_left, row_o, col_i, ...) put into every index
// expression give the very element the simulator recorded, for every access of every
// thread in every step; and two worked examples of preset conv1d-tiled-tile8-mask5.
#include <gtest/gtest.h>

#include "conv_test_support.hpp"
#include "sim/teaching/kernel_view.hpp"

namespace ts::test {
namespace {

std::vector<sim::AccessExplanation> explain(const sim::Simulation& r, int thread, int step)
{
    const std::string& src = sim::kernelSource(sim::findKernel(r.scenario.kernel)->sourceFile);
    return sim::explainAccesses(r.scenario, r.trace, thread, step, src);
}

int stepLabelled(const sim::Simulation& r, const std::string& label)
{
    for (size_t i = 0; i < r.trace.steps.size(); ++i)
        if (r.trace.steps[i].label == label) return static_cast<int>(i);
    return -1;
}

TEST(ConvKernelView, EveryAccessAgreesWithTheTrace)
{
    const std::vector<sim::Scenario> cases = {
        conv1d("conv1d-basic", 20, 8, 5, 0),        conv1d("conv1d-tiled", 20, 8, 5, 0),
        conv1d("conv1d-tiled", 20, 8, 5, 2),        conv1d("conv1d-tiled-cache", 20, 8, 5, 1),
        conv1d("conv1d-tiled-cache", 20, 8, 5, 2),  conv2d("conv2d-basic", 10, 9, 4, 3, {1, 1}),
        conv2d("conv2d-tiled", 10, 9, 4, 5, {0, 0}), conv2d("conv2d-tiled", 10, 9, 4, 3, {2, 1})};
    for (const sim::Scenario& s : cases) {
        const sim::Simulation r = runConv(s);
        const int threads = static_cast<int>(r.trace.blockDim.count());
        size_t checked = 0;
        for (int step = 0; step < static_cast<int>(r.trace.steps.size()); ++step)
            for (int t = 0; t < threads; ++t)
                for (const sim::AccessExplanation& x : explain(r, t, step)) {
                    EXPECT_TRUE(x.agrees()) << s.kernel << " step " << step << " thread " << t << ": " << x.written
                                            << " = " << x.substituted << " " << x.error << " recorded " << x.recorded;
                    ++checked;
                }
        EXPECT_GT(checked, 0u) << s.kernel;
    }
}

// The left halo of preset conv1d-tiled-tile8-mask5: block 1 of TILE_SIZE 8, Mask_Width 5;
// thread 6 loads N[(1 - 1)*8 + 6] = N[6] into N_ds[6 - (8 - 2)] = N_ds[0].
TEST(ConvKernelView, LeftHaloLoadOfThread6)
{
    const sim::Simulation r = runConv(conv1d("conv1d-tiled", 24, 8, 5, 1));
    const sim::Variables v = sim::threadVariables(r.scenario, r.trace, 6, 0);
    EXPECT_EQ(v.at("halo_index_left"), 6);
    EXPECT_EQ(v.at("halo_index_right"), 22);
    EXPECT_EQ(v.at("i"), 14);
    EXPECT_EQ(v.at("n"), 2);
    const auto x = explain(r, 6, 0);
    ASSERT_EQ(x.size(), 2u);
    EXPECT_EQ(x[0].written, "N[halo_index_left]");
    EXPECT_EQ(x[0].evaluated, "N[6]");
    EXPECT_EQ(x[1].written, "N_ds[tx - (TILE_SIZE - n)]");
    EXPECT_EQ(x[1].substituted, "N_ds[6 - (8 - 2)]");
    EXPECT_EQ(x[1].evaluated, "N_ds[0]");
    EXPECT_TRUE(x[0].agrees() && x[1].agrees());
}

// conv2d-tiled, block (1,1) of 8x8 tiles and a 5x5 mask, iteration (1, 2): thread
// (ty=3, tx=4) multiplies Mc[1][2] by N_ds[1 + 3][2 + 4]. The mask is written Mc.
TEST(ConvKernelView, TwoDUseStep)
{
    const sim::Simulation r = runConv(conv2d("conv2d-tiled", 24, 24, 8, 5, {1, 1}));
    const int step = stepLabelled(r, "use, iteration (1, 2)");
    ASSERT_GE(step, 0);
    const int thread = 3 * 12 + 4;
    const sim::Variables v = sim::threadVariables(r.scenario, r.trace, thread, step);
    EXPECT_EQ(v.at("row_o"), 11);
    EXPECT_EQ(v.at("col_o"), 12);
    EXPECT_EQ(v.at("i"), 1);
    EXPECT_EQ(v.at("j"), 2);
    const auto x = explain(r, thread, step);
    ASSERT_EQ(x.size(), 2u);
    EXPECT_EQ(x[0].written, "Mc[i][j]");
    EXPECT_EQ(x[0].evaluated, "Mc[1][2]");
    EXPECT_EQ(x[1].written, "N_ds[i + ty][j + tx]");
    EXPECT_EQ(x[1].substituted, "N_ds[1 + 3][2 + 4]");
    EXPECT_TRUE(x[0].agrees() && x[1].agrees());
}

}  // namespace
}  // namespace ts::test
