// The cells-to-heatmap drawing the Matrices and Convolution panels share
// (app/gui/panels/cell_canvas.hpp): a grid's cells on screen and the cell under the mouse,
// the flags of the replayed elements, P's flags that hold at every cursor, and the state a
// bin of many elements shows.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

#include "panels/cell_canvas.hpp"

using namespace ts;
using namespace ts::app;

namespace {

/// A palette whose state colours are all different, so that a colour names its state.
Palette numberedPalette()
{
    Palette p;
    ImU32 n = 1;
    for (ImU32* c : {&p.error, &p.finished, &p.inShared, &p.loadedThisPhase, &p.loadedEarlier, &p.cell}) *c = n++;
    return p;
}

sim::ElementView element(uint32_t loads, bool thisPhase, bool now, uint16_t copies, bool stored)
{
    return sim::ElementView{.loadsSoFar = loads, .loadedThisPhase = thisPhase, .readNow = now, .sharedCopies = copies,
                            .stored = stored};
}

}  // namespace

TEST(CellCanvas, HitFindsTheCellWhoseRectangleHoldsThePoint)
{
    // A convolution's N from ghost cell (-2, -3): 4 rows and 6 columns of 7.5 x 5 pixels.
    CellGrid g{ImVec2(100.25f, 40.0f), ImVec2(7.5f, 5.0f), -2, -3, 4, 6};
    for (int r = -2; r < 2; ++r)
        for (int c = -3; c < 3; ++c) {
            // The cell's corners by hand: (c - col0) cells right of the origin, (r - row0) down.
            const float x0 = 100.25f + (c + 3) * 7.5f, y0 = 40.0f + (r + 2) * 5.0f;
            EXPECT_FLOAT_EQ(g.at(static_cast<float>(r), static_cast<float>(c)).x, x0);
            EXPECT_FLOAT_EQ(g.at(static_cast<float>(r), static_cast<float>(c)).y, y0);
            for (ImVec2 m : {ImVec2(x0 + 0.01f, y0 + 0.01f), ImVec2(x0 + 3.75f, y0 + 2.5f), ImVec2(x0 + 7.4f, y0 + 4.9f)}) {
                int hr = 99, hc = 99;
                ASSERT_TRUE(g.hit(m, hr, hc)) << m.x << ", " << m.y;
                EXPECT_EQ(hr, r);
                EXPECT_EQ(hc, c);
            }
        }
    const ImVec2 e = g.end();
    EXPECT_FLOAT_EQ(e.x, 100.25f + 6 * 7.5f);
    EXPECT_FLOAT_EQ(e.y, 40.0f + 4 * 5.0f);
    int r = 0, c = 0;
    EXPECT_FALSE(g.hit(ImVec2(100.0f, 41.0f), r, c));   // left of the first column
    EXPECT_FALSE(g.hit(ImVec2(110.0f, 39.9f), r, c));   // above the first row
    EXPECT_FALSE(g.hit(ImVec2(e.x + 0.1f, 41.0f), r, c));
    EXPECT_FALSE(g.hit(ImVec2(110.0f, e.y + 0.1f), r, c));
    EXPECT_FLOAT_EQ(g.side(), 5.0f);
    EXPECT_TRUE(g.contains(-2, -3));
    EXPECT_FALSE(g.contains(2, 0));
}

TEST(CellCanvas, ReplayFlagsSetOneBitPerState)
{
    std::vector<uint8_t> flags(6, 0);
    flags[4] = kInBlock;   // a P element of the traced block, from the base flags
    ReplayElements elements;
    elements[0] = element(1, true, false, 0, false);   // loaded in this phase
    elements[1] = element(2, false, true, 1, false);   // read now, in shared memory, loaded earlier
    elements[4] = element(0, false, false, 0, true);   // stored
    elements[9] = element(1, true, true, 1, true);     // outside the array: passed over
    elements[-1] = element(1, true, true, 1, true);
    std::vector<uint8_t> seen;
    addReplayFlags(flags, elements, true, [&](int32_t idx, const sim::ElementView&, uint8_t b) {
        seen.push_back(b);
        return idx == 4;   // element 4 differs from the reference
    });
    EXPECT_EQ(flags[0], kLoadedThisPhase | kLoadedEarlier);
    EXPECT_EQ(flags[1], kReadNow | kInShared | kLoadedEarlier);
    EXPECT_EQ(flags[2], 0);
    EXPECT_EQ(flags[4], kInBlock | kStored | kWrong);
    EXPECT_EQ(seen.size(), 3u);   // asked once per element inside the array
    // Element 4 was asked with its flags so far: the base's kInBlock and kStored.
    EXPECT_NE(std::find(seen.begin(), seen.end(), static_cast<uint8_t>(kInBlock | kStored)), seen.end());

    // Without phases "loaded in this phase" is no state; without a test nothing is wrong.
    std::vector<uint8_t> plain(6, 0);
    addReplayFlags(plain, elements, false, {});
    EXPECT_EQ(plain[0], kLoadedEarlier);
    EXPECT_EQ(plain[4], kStored);
}

TEST(CellCanvas, PBaseFlagsMarkTheBlockClippedAndWrongElementsElsewhere)
{
    HeatGrid g;
    int asked = 0;
    // A 4 x 5 P; the block's tile reaches past the right and bottom edges.
    const std::vector<uint8_t>& base =
        pBaseFlags(g, 7, 4, 5, sim::TileRect{2, 3, 4, 4}, false, [&](int32_t idx) {
            ++asked;
            return idx % 2 == 0;
        });
    ASSERT_EQ(base.size(), 20u);
    int inBlock = 0;
    for (int r = 0; r < 4; ++r)
        for (int c = 0; c < 5; ++c) {
            const uint8_t b = base[static_cast<size_t>(r) * 5 + c];
            const bool in = r >= 2 && c >= 3;   // rows 2-3, columns 3-4: 4 elements
            inBlock += in;
            EXPECT_EQ(b, in ? kInBlock : ((r * 5 + c) % 2 == 0 ? kWrong : 0)) << r << ", " << c;
        }
    EXPECT_EQ(inBlock, 4);
    EXPECT_EQ(asked, 16);   // the elements outside the block only
    // The same generation: kept, nothing asked again.
    pBaseFlags(g, 7, 4, 5, sim::TileRect{2, 3, 4, 4}, false, [&](int32_t) { return ++asked, true; });
    EXPECT_EQ(asked, 16);
    // A P that matches the reference: no element is asked about.
    HeatGrid h;
    const std::vector<uint8_t>& right = pBaseFlags(h, 1, 2, 2, std::nullopt, true, [&](int32_t) { return ++asked, true; });
    EXPECT_EQ(asked, 16);
    EXPECT_EQ(right, std::vector<uint8_t>(4, 0));
}

TEST(CellCanvas, BinStateShowsTheMostTellingState)
{
    const Palette pal = numberedPalette();
    const sim::ElementView everything = element(3, true, true, 1, true);
    EXPECT_EQ(binState(everything, true, true, false, pal).priority, 5);
    EXPECT_EQ(binState(everything, true, true, false, pal).colour, pal.error);
    EXPECT_EQ(binState(everything, false, true, false, pal).colour, pal.finished);
    EXPECT_EQ(binState(element(3, true, false, 1, false), false, true, false, pal).colour, pal.inShared);
    EXPECT_EQ(binState(element(3, true, false, 1, false), false, true, false, pal).priority, 3);
    EXPECT_EQ(binState(element(3, true, false, 0, false), false, true, false, pal).colour, pal.loadedThisPhase);
    EXPECT_EQ(binState(element(3, true, false, 0, false), false, true, false, pal).priority, 2);
    // Without phases, or with the heatmap of loads, a load earlier or now says less.
    EXPECT_EQ(binState(element(3, true, false, 0, false), false, false, false, pal).colour, pal.loadedEarlier);
    EXPECT_EQ(binState(element(3, true, false, 0, false), false, false, true, pal).priority, 0);
    EXPECT_EQ(binState(element(0, false, true, 0, false), false, true, false, pal).priority, 0);
}
