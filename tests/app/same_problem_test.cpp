// sameProblem: a new request keeps the step only when it is the same problem. Every field
// of sim::Scenario that changes the simulation counts; the traced block does not (another
// block of the same problem keeps the step).
#include <gtest/gtest.h>

#include "kernels/context.cuh"
#include "sim/catalogue/scenario.hpp"
#include "state.hpp"

using namespace ts;

namespace {

/// The conv1d-tiled-tile8-mask5 preset's problem: N of 64 elements, TILE_SIZE 8, Mask_Width 5.
sim::Scenario conv() { return sim::convScenario("conv1d-tiled", 1, 64, 8, 5); }

}  // namespace

TEST(SameProblem, IdenticalScenariosAreTheSameProblem)
{
    EXPECT_TRUE(app::sameProblem(conv(), conv()));
    EXPECT_TRUE(app::sameProblem(sim::matmulScenario("matmul-tiled", 4, 4, 4, 2),
                                 sim::matmulScenario("matmul-tiled", 4, 4, 4, 2)));
}

TEST(SameProblem, AnotherTracedBlockIsTheSameProblem)
{
    EXPECT_TRUE(app::sameProblem(sim::matmulScenario("matmul-tiled", 4, 4, 4, 2, {1, 1, 0}),
                                 sim::matmulScenario("matmul-tiled", 4, 4, 4, 2, {0, 0, 0})));
    EXPECT_TRUE(app::sameProblem(sim::convScenario("conv1d-tiled", 1, 64, 8, 5, {3, 0, 0}), conv()));
}

TEST(SameProblem, ConvolutionsDifferingInOneFieldAreNot)
{
    sim::Scenario b = conv();
    b.width = 32;
    EXPECT_FALSE(app::sameProblem(conv(), b)) << "width";
    b = sim::convScenario("conv2d-tiled", 64, 64, 8, 5);
    sim::Scenario c = b;
    c.height = 32;
    EXPECT_FALSE(app::sameProblem(b, c)) << "height";
    b = conv();
    b.maskWidth = 3;
    EXPECT_FALSE(app::sameProblem(conv(), b)) << "Mask_Width";
    b = conv();
    b.seed = 2;
    EXPECT_FALSE(app::sameProblem(conv(), b)) << "input seed";
    b = conv();
    b.tile = 16;
    EXPECT_FALSE(app::sameProblem(conv(), b)) << "TILE_SIZE";
    b = conv();
    b.kernel = "conv1d-basic";
    EXPECT_FALSE(app::sameProblem(conv(), b)) << "kernel";
}

TEST(SameProblem, MatrixProductsDifferingInOneFieldAreNot)
{
    const sim::Scenario a = sim::matmulScenario("matmul-tiled", 4, 4, 4, 2);
    sim::Scenario b = a;
    b.dropBarriers = kernels::AFTER_LOAD;
    EXPECT_FALSE(app::sameProblem(a, b)) << "dropped barrier";
    b = a;
    b.seed = 7;
    EXPECT_FALSE(app::sameProblem(a, b)) << "input seed";
    for (int* field : {&b.j, &b.k, &b.l, &b.tile}) {
        b = a;
        *field = 8;
        EXPECT_FALSE(app::sameProblem(a, b));
    }
}
