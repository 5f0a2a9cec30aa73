// The sizing arithmetic of the Convolution panel's boards (conv_fit.hpp) and the Memory
// panel's picture (memory_fit.hpp): golden values worked out by hand for the presets' shapes,
// and the properties the pixel checks rely on (inside the canvas, no overlap, at least 70 %
// of the canvas covered, cells no more stretched than promised).
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <stdexcept>

#include "panels/conv_fit.hpp"
#include "panels/memory_fit.hpp"

namespace ts::app {
namespace {

/// conv1d-tiled-tile8-mask5 (block 1 of N[0..23], N_ds of 12 slots, Mask_Width 5).
ConvFitInput oneD(float w, float h)
{
    ConvFitInput in;
    in.width = w;
    in.height = h;
    in.label = 50;
    in.gap = 16;
    in.mostCell = 192;
    in.nCols = 24;
    in.ndsRows = 1;
    in.ndsCols = 12;
    in.mask = 5;
    return in;
}

/// conv2d-tiled-tile8-mask5 (N 24 x 24, N_ds 12 x 12, a 5 x 5 mask).
ConvFitInput twoD(float w, float h)
{
    ConvFitInput in;
    in.width = w;
    in.height = h;
    in.label = 40;
    in.gap = 10;
    in.mostCell = 100;
    in.twoD = true;
    in.nRows = in.nCols = 24;
    in.ndsRows = in.ndsCols = 12;
    in.mask = 5;
    return in;
}

/// The rectangle a board covers with its label row above it.
struct Box {
    float x0, y0, x1, y1;
};
Box withLabel(const FitBoard& b, float label) { return {b.x, b.y - label, b.right(), b.bottom()}; }
bool overlap(const Box& a, const Box& b) { return a.x0 < b.x1 && b.x0 < a.x1 && a.y0 < b.y1 && b.y0 < a.y1; }

void expectInsideAndApart(const ConvFit& f, const ConvFitInput& in)
{
    const FitBoard* boards[] = {&f.n, &f.nds, &f.m, &f.p};
    for (const FitBoard* b : boards) {
        if (b->cols == 0) continue;
        EXPECT_GE(b->x, 0);
        EXPECT_GE(b->y - in.label, -0.01f);
        EXPECT_LE(b->right(), in.width + 0.01f);
        EXPECT_LE(b->bottom(), in.height + 0.01f);
    }
    // 1D: N_ds lies under N's columns, so only the rows matter; the index row is N's.
    for (int i = 0; i < 4; ++i)
        for (int j = i + 1; j < 4; ++j) {
            if (boards[i]->cols == 0 || boards[j]->cols == 0) continue;
            Box a = withLabel(*boards[i], in.label), b = withLabel(*boards[j], in.label);
            if (boards[i] == &f.n && !in.twoD) a.y1 += in.label;   // the indices under N
            EXPECT_FALSE(overlap(a, b)) << "boards " << i << " and " << j;
        }
}

float covered(const ConvFit& f, const ConvFitInput& in) { return f.right * f.bottom / (in.width * in.height); }

TEST(ConvFit, OneDRowsShareTheHeightByHand)
{
    // 1040 x 600: cells 1040/24 wide; the labels and gaps take 2*50 + (16+50) + 2*(16+50) = 298,
    // the four rows share 302 (M's as tall as the others, being narrower than wide): 75.5 each.
    const ConvFitInput in = oneD(1040, 600);
    const ConvFit f = fitConvBoards(in);
    EXPECT_FLOAT_EQ(f.n.cellW, 1040.0f / 24);
    EXPECT_FLOAT_EQ(f.m.cellW, 208);   // 1040 / 5, under 1.125 x 192
    for (const FitBoard* b : {&f.n, &f.nds, &f.m, &f.p}) EXPECT_FLOAT_EQ(b->cellH, 75.5f);
    EXPECT_FLOAT_EQ(f.n.y, 50);
    EXPECT_FLOAT_EQ(f.indicesY, 125.5f);
    EXPECT_FLOAT_EQ(f.nds.y, 241.5f);   // 125.5 + indices 50 + gap 16 + label 50
    EXPECT_FLOAT_EQ(f.m.y, 383);
    EXPECT_FLOAT_EQ(f.p.y, 524.5f);
    EXPECT_FLOAT_EQ(f.p.bottom(), 600);
    EXPECT_EQ(f.nds.cols, 12);
    expectInsideAndApart(f, in);
    EXPECT_GE(covered(f, in), 0.99f);
}

TEST(ConvFit, OneDRowsStopAtThreeTimesTheirWidth)
{
    // 240 wide: cells of 10; rows at most 30 tall however tall the canvas; what is left goes
    // between the rows, at most two labels (100) each, then stays empty.
    const ConvFitInput in = oneD(240, 2000);
    const ConvFit f = fitConvBoards(in);
    EXPECT_FLOAT_EQ(f.n.cellW, 10);
    EXPECT_FLOAT_EQ(f.n.cellH, 30);
    EXPECT_FLOAT_EQ(f.m.cellH, 30);   // min(48, 30)
    // 298 of labels and gaps, 4 x 30 of rows, 3 x 100 of spread.
    EXPECT_FLOAT_EQ(f.p.bottom(), 298 + 120 + 300);
    expectInsideAndApart(f, in);
}

TEST(ConvFit, TwoDTallCanvasStacksTwoRowsByHand)
{
    // 480 x 1000: "N | N_ds" over "M | P" gives cells (480 - 10) / 48 wide, and the height's
    // (1000 - 2*40 - 10) / 48 = 18.96 is cut to 1.2 x the width; the wide arrangement's cells
    // would be at most (480 - 20) / 60 = 7.7 wide.
    const ConvFitInput in = twoD(480, 1000);
    const ConvFit f = fitConvBoards(in);
    EXPECT_EQ(f.arrangement, 1);
    EXPECT_FLOAT_EQ(f.n.cellW, 470.0f / 48);
    EXPECT_FLOAT_EQ(f.n.cellH, 1.2f * 470.0f / 48);
    EXPECT_FLOAT_EQ(f.p.cellW, f.n.cellW);
    EXPECT_FLOAT_EQ(f.nds.cellW, f.n.cellW);   // N_ds holds a part of N: N's cells
    EXPECT_FLOAT_EQ(f.m.cellW, f.n.cellW * 12 / 5);   // M as wide as N_ds
    EXPECT_LT(f.m.x, f.p.x);                   // M under N, P under N_ds
    EXPECT_GT(f.p.y, f.nds.bottom());
    expectInsideAndApart(f, in);
}

TEST(ConvFit, TwoDWideCanvasGoesLeftToRightAndCoversMostOfIt)
{
    for (const auto& [w, h] : {std::pair{700.0f, 560.0f}, std::pair{1000.0f, 500.0f}, std::pair{520.0f, 330.0f},
                               std::pair{1016.0f, 600.0f}}) {
        const ConvFitInput in = twoD(w, h);
        const ConvFit f = fitConvBoards(in);
        EXPECT_EQ(f.arrangement, 0) << w << " x " << h;
        EXPECT_LT(f.n.right(), f.nds.x);
        EXPECT_LT(f.nds.right(), f.p.x + 0.01f);
        EXPECT_GE(f.nds.cellW, f.n.cellW);   // N's cells, or larger where the height allows
        EXPECT_LE(f.nds.cellW, 2 * f.n.cellW + 0.01f);
        EXPECT_LE(std::max(f.n.cellH / f.n.cellW, f.n.cellW / f.n.cellH), 1.2f + 1e-4f);
        expectInsideAndApart(f, in);
        EXPECT_GE(covered(f, in), 0.8f) << w << " x " << h;
    }
}

TEST(ConvFit, WantedHeightIsWhereCellsStopGrowing)
{
    for (const ConvFitInput& base : {oneD(1040, 0), oneD(300, 0), twoD(700, 0), twoD(480, 0)}) {
        const float want = wantedConvHeight(base);
        ConvFitInput at = base, taller = base, shorter = base;
        at.height = want;
        taller.height = want * 2;
        shorter.height = want * 0.8f;
        const ConvFit a = fitConvBoards(at), t = fitConvBoards(taller), s = fitConvBoards(shorter);
        EXPECT_NEAR(a.n.cellW * a.n.cellH, t.n.cellW * t.n.cellH, 0.01f * t.n.cellW * t.n.cellH);
        EXPECT_LT(s.n.cellW * s.n.cellH, 0.98f * a.n.cellW * a.n.cellH);
    }
    // 1D at 1040: rows of 3 x 1040/24 = 130 and M's 130: 298 + 4 x 130.
    EXPECT_NEAR(wantedConvHeight(oneD(1040, 0)), 298 + 4 * 130, 1.0f);
}

TEST(ConvFit, BadInputIsRefusedWithASentence)
{
    ConvFitInput in = oneD(100, 100);
    in.nCols = 0;
    EXPECT_THROW(fitConvBoards(in), std::invalid_argument);
    in = oneD(std::numeric_limits<float>::quiet_NaN(), 100);
    EXPECT_THROW(fitConvBoards(in), std::invalid_argument);
    in = twoD(100, 100);
    in.ndsCols = 0;   // 12 x 0
    try {
        fitConvBoards(in);
        ADD_FAILURE() << "12 x 0 N_ds accepted";
    } catch (const std::invalid_argument& e) {
        EXPECT_NE(std::string(e.what()).find("12 x 0"), std::string::npos) << e.what();
    }
}

/// A picture's parts added up.
float total(const WarpPictureParts& p, int rows) { return p.lanes + p.gap + rows * (p.cell + p.perRow) + p.bottom; }

TEST(MemoryFit, SharedPictureByHand)
{
    // A slide's small font (23 px at scale 2), 600 px for 32 lanes, 2 wavefronts: least lane
    // row 23 + 12, gap 20, cells 23 + 8, bank numbers 23 + 6; most lane row 46 + 12, gap half
    // the width (300), cells 3 x 23.
    WarpPictureInput in;
    in.width = 600;
    in.font = 23;
    in.unit = 2;
    in.rows = 2;
    const WarpPictureSize s = warpPictureSize(in);
    EXPECT_FLOAT_EQ(s.min, 35 + 20 + 2 * 31 + 29);
    EXPECT_FLOAT_EQ(s.want, 58 + 300 + 2 * 69 + 29);
    for (const float h : {s.min, (s.min + s.want) / 2, s.want})
        EXPECT_FLOAT_EQ(total(splitWarpPicture(in, h), 2), h) << h;
    // Below the least the parts keep their least; beyond the wanted height the picture still
    // fills the room: want = 525, so 1000 px leave 475 more, half (237.5) to the gap and half
    // to the two rows' cells (118.75 each); the lane row keeps its most.
    EXPECT_FLOAT_EQ(total(splitWarpPicture(in, 10), 2), s.min);
    const WarpPictureParts tall = splitWarpPicture(in, 1000);
    EXPECT_FLOAT_EQ(total(tall, 2), 1000);
    EXPECT_FLOAT_EQ(tall.lanes, 58);
    EXPECT_FLOAT_EQ(tall.gap, 300 + 237.5f);
    EXPECT_FLOAT_EQ(tall.cell, 69 + 118.75f);
    const WarpPictureParts half = splitWarpPicture(in, (s.min + s.want) / 2);
    EXPECT_FLOAT_EQ(half.gap, (20 + 300) / 2.0f);
    EXPECT_FLOAT_EQ(half.cell, (31 + 69) / 2.0f);
}

TEST(MemoryFit, DeepConflictsDrawBarsAndSegmentsCarryTwoLabels)
{
    WarpPictureInput in;
    in.width = 500;
    in.font = 11.5f;
    in.rows = 16;   // a 16-way conflict: bars 8 px tall up to the wanted height
    const WarpPictureSize deep = warpPictureSize(in);
    EXPECT_FLOAT_EQ(splitWarpPicture(in, deep.want).cell, 8);
    // 32 px more: 16 to the gap, 16 over the 16 rows (1 px each).
    EXPECT_FLOAT_EQ(splitWarpPicture(in, deep.want + 32).cell, 9);
    in.global = true;
    in.rows = 3;
    in.connectors = false;
    const WarpPictureSize strip = warpPictureSize(in);
    const WarpPictureParts p = splitWarpPicture(in, strip.want + 30);
    EXPECT_FLOAT_EQ(p.perRow, 2 * (11.5f + 3) + 4);   // lanes served and the segment's name
    EXPECT_FLOAT_EQ(p.gap, 6);                      // no connectors over several rows: all to the cells
    EXPECT_FLOAT_EQ(p.cell, 3 * 11.5f + 10);        // its most (three lines of the font) + 30 / 3
    EXPECT_FLOAT_EQ(p.bottom, 0);
    in.rows = 0;
    EXPECT_THROW(warpPictureSize(in), std::invalid_argument);
    in.rows = 1;
    EXPECT_THROW(splitWarpPicture(in, -1), std::invalid_argument);
}

}  // namespace
}  // namespace ts::app
