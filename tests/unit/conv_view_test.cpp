// The convolution view model (sim/teaching/conv_view.hpp) against the lecture's figures: internal,
// halo and ghost cells, N_ds slots with their loaders, use counts ("Element 5 is used by
// threads 4, 5, 6, 7 (4X)"), and the block's loads beside the reduction formula; the slot
// mapping checked against the replayed trace, use counts against a second count.
#include <gtest/gtest.h>

#include <stdexcept>

#include "conv_test_support.hpp"
#include "sim/teaching/conv_view.hpp"
#include "sim/engine/replay.hpp"

namespace ts::test {
namespace {

using sim::ConvRole;

// Example: tiled 1D convolution, internal block: width 64, TILE_SIZE 8, Mask_Width 5, block 1
// loads N[6] to N[17], 12 global loads where the basic kernel makes 40.
TEST(ConvView, InternalBlock1D)
{
    const sim::ConvView v = sim::convView(runConv(conv1d("conv1d-tiled", 64, 8, 5, 1)));
    EXPECT_EQ(v.loads.block.global_loads, 12u);
    EXPECT_EQ(v.loads.untiled, 40u);
    EXPECT_NEAR(v.loads.reduction, 40.0 / 12.0, 1e-12);
    ASSERT_TRUE(v.loads.formula);
    EXPECT_NEAR(*v.loads.formula, v.loads.reduction, 1e-12);
    EXPECT_EQ(v.loads.formulaText, "(TILE_SIZE*Mask_Width)/(TILE_SIZE+Mask_Width-1) = (8*5)/(8+5-1) = 40/12 = 3.33");
    EXPECT_EQ(v.loads.note, "");
    EXPECT_EQ(v.loads.block.shared_loads, 40u);     // 8 threads x 5 mask elements
    EXPECT_EQ(v.loads.block.constant_loads, 40u);
    EXPECT_TRUE(v.geo.internalBlock());

    for (int e = 4; e <= 19; ++e) {
        const ConvRole want = e < 6 || e > 17 ? ConvRole::Outside
                              : e < 8 || e > 15 ? ConvRole::Halo : ConvRole::Internal;
        EXPECT_EQ(v.geo.role(0, e), want) << e;
    }
    // N_ds[s] holds N[6 + s]; threads 6, 7 load the left halo, 0..7 the tile, 0, 1 the right halo.
    ASSERT_EQ(v.slots.size(), 12u);
    const int loaders[12] = {6, 7, 0, 1, 2, 3, 4, 5, 6, 7, 0, 1};
    for (int s = 0; s < 12; ++s) {
        EXPECT_EQ(v.slots[s].col, 6 + s);
        EXPECT_EQ(v.slots[s].loader, loaders[s]) << s;
        EXPECT_FALSE(v.slots[s].zeroFilled);
    }
    EXPECT_EQ(sim::useSentence(v, *v.use(0, 6)), "N[6] is used by thread 8 (1X)");
    EXPECT_EQ(sim::useSentence(v, *v.use(0, 7)), "N[7] is used by threads 8, 9 (2X)");
    EXPECT_EQ(sim::useSentence(v, *v.use(0, 10)), "N[10] is used by threads 8, 9, 10, 11, 12 (5X)");
    EXPECT_EQ(sim::useSentence(v, *v.use(0, 17)), "N[17] is used by thread 15 (1X)");
    // The same counts a second way: thread tx uses N[e] when |8 + tx - e| <= 2.
    uint32_t total = 0;
    for (const sim::ConvUse& u : v.uses) {
        uint32_t want = 0;
        for (int tx = 0; tx < 8; ++tx) want += std::abs(8 + tx - u.col) <= 2;
        EXPECT_EQ(u.uses(), want) << u.col;
        EXPECT_EQ(u.threads.size(), want);
        EXPECT_EQ(u.globalReads, 0u);
        EXPECT_EQ(u.gridUses, 5u);   // an element inside N of 64 serves 5 outputs
        total += u.uses();
    }
    EXPECT_EQ(total, 40u);
}

// Example: 1D reuse counts, per thread: TILE_SIZE 4, Mask_Width 5, block 1.
TEST(ConvView, SeedReuseSentences)
{
    const sim::ConvView v = sim::convView(runConv(conv1d("conv1d-tiled", 12, 4, 5, 1)));
    EXPECT_EQ(sim::useSentence(v, *v.use(0, 2)), "N[2] is used by thread 4 (1X)");
    EXPECT_EQ(sim::useSentence(v, *v.use(0, 4)), "N[4] is used by threads 4, 5, 6 (3X)");
    EXPECT_EQ(sim::useSentence(v, *v.use(0, 5)), "N[5] is used by threads 4, 5, 6, 7 (4X)");
    EXPECT_EQ(sim::useSentence(v, *v.use(0, 6)), "N[6] is used by threads 4, 5, 6, 7 (4X)");
    EXPECT_EQ(sim::useSentence(v, *v.use(0, 9)), "N[9] is used by thread 7 (1X)");
    EXPECT_EQ(sim::useSentence(v, *v.use(0, 5), 2), "N[5] is used by threads 4, 5, ... (4X)");
}

// Example: 1D boundary block: block 0 loads 10 elements where the basic kernel makes 37;
// its left halo N[-2], N[-1] are ghost cells, zero-filled by threads 6 and 7.
TEST(ConvView, Block0GhostCells)
{
    const sim::ConvView v = sim::convView(runConv(conv1d("conv1d-tiled", 64, 8, 5, 0)));
    EXPECT_EQ(v.loads.block.global_loads, 10u);
    EXPECT_EQ(v.loads.untiled, 37u);
    EXPECT_NEAR(v.loads.reduction, 3.7, 1e-12);
    EXPECT_EQ(v.geo.ghostCount(), 2);
    EXPECT_FALSE(v.geo.internalBlock());
    EXPECT_NE(v.loads.note.find("internal block"), std::string::npos);
    EXPECT_NE(v.loads.note.find("2 ghost cells"), std::string::npos);
    EXPECT_EQ(v.geo.role(0, -2), ConvRole::Ghost);
    EXPECT_EQ(v.geo.role(0, -1), ConvRole::Ghost);
    EXPECT_EQ(v.geo.role(0, -3), ConvRole::Outside);
    EXPECT_EQ(v.geo.role(0, 0), ConvRole::Internal);
    EXPECT_EQ(v.geo.role(0, 9), ConvRole::Halo);
    for (int s = 0; s < 2; ++s) {
        EXPECT_EQ(v.slots[s].col, s - 2);
        EXPECT_TRUE(v.slots[s].zeroFilled);
        EXPECT_EQ(v.slots[s].loader, 6 + s);
    }
    EXPECT_EQ(v.use(0, -1)->gridUses, 0u);
    EXPECT_EQ(sim::useSentence(v, *v.use(0, -1)), "N[-1] is used by threads 0, 1 (2X)");
    EXPECT_EQ(v.use(0, 0)->gridUses, 3u);   // P[0], P[1], P[2]
}

// The geometric slot mapping agrees with the replayed trace: every loaded slot's value came
// from the N element the mapping names; every ghost slot was zero-filled (1D and 2D).
TEST(ConvView, SlotMappingMatchesTrace)
{
    const std::vector<sim::Scenario> cases = {
        conv1d("conv1d-tiled", 20, 8, 5, 0), conv1d("conv1d-tiled", 20, 8, 5, 2),
        conv1d("conv1d-tiled-cache", 20, 8, 5, 2), conv2d("conv2d-tiled", 20, 19, 8, 5, {0, 0}),
        conv2d("conv2d-tiled", 20, 19, 8, 3, {2, 1})};
    for (const sim::Scenario& s : cases) {
        const sim::Simulation r = runConv(s);
        const sim::ConvView v = sim::convView(r);
        const sim::ReplayState st = sim::replay(r.trace, static_cast<int>(r.trace.steps.size()) - 1);
        ASSERT_FALSE(v.slots.empty());
        for (const sim::ConvSlot& sl : v.slots) {
            const sim::SlotView& sv = st.slots[v.ndsArray][sl.slot];
            ASSERT_TRUE(sl.written) << s.kernel << " slot " << sl.slot;
            EXPECT_EQ(sl.loader, sv.writer);
            EXPECT_EQ(sl.zeroFilled, sl.role == ConvRole::Ghost) << s.kernel << " slot " << sl.slot;
            if (!sl.zeroFilled) EXPECT_EQ(sv.sourceIndex, sl.row * s.width + sl.col) << s.kernel;
        }
    }
}

// conv1d-tiled-cache: the halo is read from global memory in the multiply-adds, 14 loads.
TEST(ConvView, TiledCacheHaloFromGlobal)
{
    const sim::ConvView v = sim::convView(runConv(conv1d("conv1d-tiled-cache", 24, 8, 5, 1)));
    EXPECT_EQ(v.loads.block.global_loads, 14u);
    EXPECT_FALSE(v.loads.formula);
    EXPECT_NE(v.loads.note, "");
    EXPECT_EQ(v.slots.size(), 8u);
    EXPECT_EQ(v.slots[0].col, 8);
    EXPECT_EQ(v.use(0, 6)->globalReads, 1u);
    EXPECT_EQ(v.use(0, 6)->sharedReads, 0u);
    EXPECT_EQ(v.use(0, 17)->globalReads, 1u);
    EXPECT_EQ(v.use(0, 10)->sharedReads, 5u);
    EXPECT_EQ(sim::useSentence(v, *v.use(0, 7)), "N[7] is used by threads 8, 9 (2X)");
}

// The basic kernel reads every use from global memory, so its grid-wide counters are a
// second count of the grid uses (1D and 2D).
TEST(ConvView, GridUsesEqualBasicKernelLoads)
{
    for (const sim::Scenario& s : {conv1d("conv1d-basic", 21, 8, 5, 1), conv2d("conv2d-basic", 13, 11, 4, 5, {1, 1})}) {
        const sim::Simulation r = runConv(s);
        const sim::ConvView v = sim::convView(r);
        EXPECT_FALSE(v.loads.formula);
        EXPECT_EQ(v.ndsArray, -1);
        for (const sim::ConvUse& u : v.uses) {
            if (u.role == ConvRole::Ghost) {
                EXPECT_EQ(u.uses(), 0u);
                continue;
            }
            EXPECT_EQ(u.gridUses, r.counters.elementLoads[v.nArray][u.row * s.width + u.col]) << u.row << "," << u.col;
            EXPECT_EQ(u.sharedReads, 0u);
        }
    }
}

// Example: 8x8 output tile in 2D: an internal block of 144 threads loads 144 elements where
// the basic kernel makes 1600; block (0, 0) has 12*12 - 10*10 = 44 ghost cells.
TEST(ConvView, TwoD)
{
    const sim::ConvView v = sim::convView(runConv(conv2d("conv2d-tiled", 24, 24, 8, 5, {1, 1})));
    EXPECT_EQ(v.loads.block.global_loads, 144u);
    EXPECT_EQ(v.loads.untiled, 1600u);
    ASSERT_TRUE(v.loads.formula);
    EXPECT_NEAR(*v.loads.formula, 1600.0 / 144.0, 1e-12);
    EXPECT_NEAR(v.loads.reduction, *v.loads.formula, 1e-12);
    EXPECT_EQ(v.loads.formulaText,
              "(TILE_SIZE^2*Mask_Width^2)/(TILE_SIZE+Mask_Width-1)^2 = (8^2*5^2)/(8+5-1)^2 = 1600/144 = 11.11");
    EXPECT_EQ(v.slots.size(), 144u);
    EXPECT_EQ(v.geo.role(6, 6), ConvRole::Halo);
    EXPECT_EQ(v.geo.role(8, 8), ConvRole::Internal);
    EXPECT_EQ(v.geo.role(5, 8), ConvRole::Outside);
    EXPECT_EQ(v.use(10, 10)->uses(), 25u);
    EXPECT_EQ(v.use(6, 6)->uses(), 1u);
    EXPECT_EQ(sim::useSentence(v, *v.use(6, 6)), "N[6][6] is used by thread (0, 0) (1X)");
    EXPECT_EQ(sim::useSentence(v, *v.use(6, 7)), "N[6][7] is used by threads (0, 0), (0, 1) (2X)");

    const sim::ConvView corner = sim::convView(runConv(conv2d("conv2d-tiled", 24, 24, 8, 5, {0, 0})));
    EXPECT_EQ(corner.geo.ghostCount(), 44);
    EXPECT_EQ(corner.geo.role(-1, 3), ConvRole::Ghost);
    EXPECT_NE(corner.loads.note.find("44 ghost cells"), std::string::npos);
}

TEST(ConvView, RefusesMatmul)
{
    sim::Scenario s;
    EXPECT_THROW(sim::convGeometry(s, {}), std::invalid_argument);
}

}  // namespace
}  // namespace ts::test
