// The trace of a convolution block as a lecture steps through it: the left halo, internal
// and right halo loads are separate steps in source order (preset conv1d-tiled-tile8-mask5,
// steps 0 to 2), then the barrier, one step per mask
// element, and the store.
#include <gtest/gtest.h>

#include "conv_test_support.hpp"
#include "sim/teaching/kernel_view.hpp"

namespace ts::test {
namespace {

std::vector<std::string> labels(const sim::Simulation& r)
{
    std::vector<std::string> out;
    for (const sim::Step& s : r.trace.steps) out.push_back(s.label);
    return out;
}

TEST(ConvSteps, TiledInternalBlockHaloLoadsAreTheirOwnSteps)
{
    const sim::Simulation r = runConv(conv1d("conv1d-tiled", 64, 8, 5, 1));
    const std::vector<std::string> expected = {
        "load N into N_ds[0..1]", "load N into N_ds[2..9]", "load N into N_ds[10..11]", "barrier, __syncthreads()",
        "use, iteration 0",       "use, iteration 1",       "use, iteration 2",         "use, iteration 3",
        "use, iteration 4",       "store P"};
    EXPECT_EQ(labels(r), expected);
    // Each load step points at its own statement of the kernel.
    const std::string& src = sim::kernelSource("conv1d_tiled.cuh");
    EXPECT_NE(sim::sourceLine(src, r.trace.steps[0].line).find("N[halo_index_left]"), std::string::npos);
    EXPECT_NE(sim::sourceLine(src, r.trace.steps[1].line).find("N[i]"), std::string::npos);
    EXPECT_NE(sim::sourceLine(src, r.trace.steps[2].line).find("N[halo_index_right]"), std::string::npos);
}

TEST(ConvSteps, GhostHaloIsAZeroFillStep)
{
    EXPECT_EQ(labels(runConv(conv1d("conv1d-tiled", 64, 8, 5, 0)))[0], "zero-fill N_ds[0..1]");
    const std::vector<std::string> last = labels(runConv(conv1d("conv1d-tiled", 61, 8, 5, 7)));
    EXPECT_EQ(last[1], "load N into N_ds[2..9] (3 zero-filled)");
    EXPECT_EQ(last[2], "zero-fill N_ds[10..11]");
}

// Threads that skip ghost elements meet the others at the same iteration, and the store
// comes after every multiply-add (program order of every thread).
TEST(ConvSteps, BasicKernelIterationsFollowTheMaskElement)
{
    const sim::Simulation r = runConv(conv1d("conv1d-basic", 64, 8, 5, 0));
    const std::vector<std::string> expected = {"multiply-add, iteration 0", "multiply-add, iteration 1",
                                               "multiply-add, iteration 2", "multiply-add, iteration 3",
                                               "multiply-add, iteration 4", "store P"};
    EXPECT_EQ(labels(r), expected);
    for (const sim::Step& st : r.trace.steps)
        for (int i = st.begin; i < st.end; ++i)
            if (r.trace.events[i].op == sim::Op::ConstantLoad) EXPECT_EQ(r.trace.events[i].index, st.iteration);
}

TEST(ConvSteps, TwoDimensionalTileIsOneLoadStep)
{
    const std::vector<std::string> l = labels(runConv(conv2d("conv2d-tiled", 24, 24, 8, 3, {1, 1, 0})));
    ASSERT_EQ(l.size(), 1u + 1u + 9u + 1u);
    EXPECT_EQ(l[0], "load N tile into N_ds");
    EXPECT_EQ(l[1], "barrier, __syncthreads()");
    EXPECT_EQ(l[2], "use, iteration (0, 0)");
    EXPECT_EQ(l[10], "use, iteration (2, 2)");
    EXPECT_EQ(l[11], "store P");
}

}  // namespace
}  // namespace ts::test
