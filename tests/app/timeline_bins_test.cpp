// The Timeline of a long trace (timeline_bins.hpp): 1281 steps in a scrubber of a few hundred
// pixels are gathered into bins of consecutive steps, every step in exactly one bin, each bin
// counting its steps' kinds; phase labels are written only where they do not run into each
// other. The counts are checked against a second count over the steps themselves.
#include <gtest/gtest.h>

#include <numeric>

#include "timeline_bins.hpp"

using namespace ts::app;
using ts::sim::StepKind;

namespace {

/// The steps of the tiled kernel's trace at Width 64, TILE_WIDTH 16: 4 phases, each a load,
/// a barrier, 16 uses and a barrier, then the store: 4 x 19 + 1 = 77 steps.
std::vector<StepKind> tiledSteps(int phases, int tile)
{
    std::vector<StepKind> k;
    for (int p = 0; p < phases; ++p) {
        k.push_back(StepKind::LoadTile);
        k.push_back(StepKind::Barrier);
        for (int i = 0; i < tile; ++i) k.push_back(StepKind::Use);
        k.push_back(StepKind::Barrier);
    }
    k.push_back(StepKind::Store);
    return k;
}

}  // namespace

TEST(TimelineBins, OneStepABinWhenTheyFit)
{
    const std::vector<StepKind> k = tiledSteps(4, 16);
    ASSERT_EQ(k.size(), 77u);
    const std::vector<TimelineBin> bins = timelineBins(k, 200);
    ASSERT_EQ(bins.size(), 77u);
    for (size_t i = 0; i < bins.size(); ++i) {
        EXPECT_EQ(bins[i].first, static_cast<int>(i));
        EXPECT_EQ(bins[i].end, static_cast<int>(i) + 1);
        EXPECT_EQ(bins[i].kinds[static_cast<size_t>(k[i])], 1);
    }
}

TEST(TimelineBins, ALongTraceIsGatheredWithEveryStepInOneBin)
{
    // 64 phases of TILE_WIDTH 16 at 1024 x 1024: 64 x 19 + 1 = 1217 steps in 150 bins.
    const std::vector<StepKind> k = tiledSteps(64, 16);
    ASSERT_EQ(k.size(), 1217u);
    const std::vector<TimelineBin> bins = timelineBins(k, 150);
    ASSERT_EQ(bins.size(), 150u);
    EXPECT_EQ(bins.front().first, 0);
    EXPECT_EQ(bins.back().end, 1217);
    int uses = 0, loads = 0, barriers = 0, stores = 0;
    for (size_t i = 0; i < bins.size(); ++i) {
        const TimelineBin& b = bins[i];
        if (i > 0) EXPECT_EQ(b.first, bins[i - 1].end);
        // 1217 / 150 = 8.1: each bin 8 or 9 steps.
        EXPECT_GE(b.end - b.first, 8);
        EXPECT_LE(b.end - b.first, 9);
        EXPECT_EQ(std::accumulate(b.kinds.begin(), b.kinds.end(), 0), b.end - b.first);
        uses += b.kinds[static_cast<size_t>(StepKind::Use)];
        loads += b.kinds[static_cast<size_t>(StepKind::LoadTile)];
        barriers += b.kinds[static_cast<size_t>(StepKind::Barrier)];
        stores += b.kinds[static_cast<size_t>(StepKind::Store)];
    }
    // Counted from the kernel's shape: 64 phases of 16 uses, a load and two barriers.
    EXPECT_EQ(uses, 64 * 16);
    EXPECT_EQ(loads, 64);
    EXPECT_EQ(barriers, 128);
    EXPECT_EQ(stores, 1);
    // The last bin holds the store.
    EXPECT_EQ(bins.back().kinds[static_cast<size_t>(StepKind::Store)], 1);
    // Which bin a step is in.
    EXPECT_EQ(binOfStep(bins, 0), 0);
    EXPECT_EQ(binOfStep(bins, 1216), 149);
    EXPECT_EQ(binOfStep(bins, 5000), 149);
    for (int s : {7, 8, 9, 600, 1000}) {
        const int b = binOfStep(bins, s);
        EXPECT_LE(bins[b].first, s);
        EXPECT_LT(s, bins[b].end);
    }
    EXPECT_TRUE(timelineBins({}, 10).empty());
    EXPECT_EQ(binOfStep({}, 3), -1);
    EXPECT_EQ(timelineBins(k, 0).size(), 1u);   // below 1 counts as 1
}

TEST(TimelineBins, PhaseLabelsOnlyWhereTheyFitSideBySide)
{
    // Marks every 10 px, labels 25 px wide, 5 px apart at least: the first, then every third
    // (at 30 the label before ends at 25, + 5 = 30), the last label ending by the right edge.
    const std::vector<float> x = {0, 10, 20, 30, 40, 50, 60, 70, 80, 90};
    const std::vector<float> w(x.size(), 25);
    EXPECT_EQ(labelledMarks(x, w, 5, 200), (std::vector<int>{0, 3, 6, 9}));
    EXPECT_EQ(labelledMarks(x, w, 5, 100), (std::vector<int>{0, 3, 6}));   // 90 + 25 > 100
    // Room for all: every mark labelled.
    EXPECT_EQ(labelledMarks({0, 100, 200}, {25, 25, 25}, 5, 300), (std::vector<int>{0, 1, 2}));
}
