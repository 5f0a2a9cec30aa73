// The sizing rule of the Matrices and Shared memory figures (app/gui/panels/figure_fit.hpp):
// the largest cells with which a figure fits its panel, worked out here by hand for the
// textbook layout (M left of P, N above it), and the font and decimals of a cell's value.
#include <gtest/gtest.h>

#include <array>
#include <cmath>

#include "panels/figure_fit.hpp"

using namespace ts::app;

namespace {

/// M, N and P of a j x k by k x l problem as the Matrices panel lays them out: k + l cells
/// across, k + j down, 22 px of margins across and `frame` px of label lines down; labels
/// `labelM` and `labelNP` px wide.
FigureShape matrices(int j, int k, int l, float frame, float labelM = 0, float labelNP = 0)
{
    FigureShape s;
    s.across = {FigureSpan{static_cast<float>(k), labelM}, FigureSpan{static_cast<float>(l), labelNP}};
    s.down = {FigureSpan{static_cast<float>(k), 0}, FigureSpan{static_cast<float>(j), 0}};
    s.fixedWide = 22;
    s.fixedHigh = frame;
    return s;
}

}  // namespace

TEST(FigureFit, WidthBoundSquareProblem)
{
    // 4x4x4 in 550 x 1000 px: 8 cells across in 550 - 22 = 528 px are 66 px; down, 8 cells
    // and 60 px of labels need 588 px, which the height allows.
    const FigureShape s = matrices(4, 4, 4, 60);
    const float cell = fitCell(s, 550, 1000, 1000);
    EXPECT_NEAR(cell, 66.0f, 1.0f / 32);
    EXPECT_LE(figureWidth(s, cell), 550.0f);
    EXPECT_NEAR(figureHeight(s, cell), 8 * 66.0f + 60, 0.5f);
}

TEST(FigureFit, HeightBoundTallProblem)
{
    // ragged 100x37x51: 88 cells across, 137 down. In 1000 x 900 px the height binds:
    // (900 - 60) / 137 = 6.131... px, and the width 88 * 6.13 + 22 = 562 px is well inside.
    const FigureShape s = matrices(100, 37, 51, 60);
    const float cell = fitCell(s, 1000, 900, 1000);
    EXPECT_NEAR(cell, 840.0f / 137.0f, 1.0f / 32);
    EXPECT_LE(figureHeight(s, cell), 900.0f);
    EXPECT_GT(figureHeight(s, cell + 1.0f / 16), 900.0f);   // the largest that fits, to 1/64 px
}

TEST(FigureFit, WideLabelTakesWidthFromTheCells)
{
    // A 3x1x3 problem whose M label is 200 px wide: M's column is 200 px, not 1 cell, so
    // 3 cells of N and P share 400 - 22 - 200 = 178 px: 59.33 px each.
    const FigureShape s = matrices(3, 1, 3, 60, 200, 0);
    const float cell = fitCell(s, 400, 2000, 1000);
    EXPECT_NEAR(cell, 178.0f / 3.0f, 1.0f / 32);
    EXPECT_NEAR(figureWidth(s, cell), 400.0f, 0.1f);
    // Once the cells are large enough for M's one column to pass its label, it grows with them.
    EXPECT_FLOAT_EQ(figureWidth(s, 250), 22 + 250 + 3 * 250);
}

TEST(FigureFit, CappedAndImpossible)
{
    const FigureShape s = matrices(2, 2, 2, 60);
    EXPECT_FLOAT_EQ(fitCell(s, 5000, 5000, 100), 100.0f);   // the cap
    EXPECT_FLOAT_EQ(fitCell(s, 20, 5000, 100), 0.0f);       // margins wider than the room
    EXPECT_FLOAT_EQ(fitCell(s, 5000, 50, 100), 0.0f);       // labels taller than the room
    FigureShape empty;
    EXPECT_FLOAT_EQ(fitCell(empty, 500, 500, 100), 0.0f);   // nothing to draw
}

TEST(FigureFit, StretchedCellsFillTheLongerAxis)
{
    // 4x4x4 in 1000 x 400 px: the height binds the square, (400 - 60) / 8 = 42.5 px. Across,
    // (1000 - 22) / 8 = 122.25 px would fit, but a stretch of 1.3 allows 55.25 px.
    const FigureShape s = matrices(4, 4, 4, 60);
    CellSize c = fitCells(s, 1000, 400, 1000, 1.3f);
    EXPECT_NEAR(c.h, 42.5f, 1.0f / 32);
    EXPECT_NEAR(c.w, 42.5f * 1.3f, 1.0f / 32);
    // Where the width is the shorter room: (600 - 22) / 8 = 72.25 px across binds before the
    // stretch does, so the cells are 72.25 x 42.5 px and the figure is as wide as the room.
    c = fitCells(s, 600, 400, 1000, 2.0f);
    EXPECT_NEAR(c.w, 578.0f / 8, 1.0f / 32);
    EXPECT_NEAR(figureWidth(s, c.w), 600.0f, 0.5f);
    EXPECT_NEAR(c.h, 42.5f, 1.0f / 32);
    // A tall room stretches the height: 300 x 1000 px gives (300 - 22) / 8 = 34.75 px wide
    // cells, and 1.5 times that down, 52.125 px (the labels then take 60 of 477 px).
    c = fitCells(s, 300, 1000, 1000, 1.5f);
    EXPECT_NEAR(c.w, 34.75f, 1.0f / 32);
    EXPECT_NEAR(c.h, 52.125f, 1.0f / 32);
    EXPECT_LE(figureHeight(s, c.h), 1000.0f);
    // No stretch (1, or less) is the square of fitCell; the cap bounds the longer side too.
    c = fitCells(s, 1000, 400, 1000, 0.5f);
    EXPECT_FLOAT_EQ(c.w, c.h);
    c = fitCells(s, 1000, 400, 50, 2.0f);
    EXPECT_NEAR(c.h, 42.5f, 1.0f / 32);
    EXPECT_FLOAT_EQ(c.w, 50.0f);
    // Nothing fits: no cells at all.
    c = fitCells(s, 20, 400, 1000, 2.0f);
    EXPECT_FLOAT_EQ(c.w, 0.0f);
    EXPECT_FLOAT_EQ(c.h, 0.0f);
}

TEST(FigureFit, ValueCharacters)
{
    EXPECT_EQ(valueChars(0.5f, false, 3), 5);      // 0.500
    EXPECT_EQ(valueChars(0.5f, true, 3), 6);       // -0.500
    EXPECT_EQ(valueChars(9.9996f, true, 3), 7);    // -10.000: rounding adds a digit
    EXPECT_EQ(valueChars(12.3f, false, 1), 4);     // 12.3
    EXPECT_EQ(valueChars(NAN, false, 2), 4);       // counts as 0.00
}

TEST(FigureFit, ValueFormatPrefersTwoDecimalsToALargerFont)
{
    // Advances of three monospaced fonts (code, cell, small) at scale 2: 19.2, 16.8, 13.8 px.
    const std::array<float, 3> adv{19.2f, 16.8f, 13.8f};
    // Values in (-1, 1): "-0.000" is 6 characters, "-0.00" 5, "-0.0" 4. An 80 px cell less
    // 7 px margin holds 73 px: 6 x 19.2, 5 x 19.2, 6 x 16.8 and 5 x 16.8 = 84 do not fit,
    // 6 x 13.8 = 82.8 does not, 5 x 13.8 = 69 does: the small font with 2 decimals, rather
    // than the code font's 4 x 19.2 = 76.8 (which would not fit either) or 1 decimal.
    const ValueFormat v = valueFormat(80, 7, adv, 0.95f, true);
    EXPECT_EQ(v.font, 2);
    EXPECT_EQ(v.decimals, 2);
    // 130 px: 6 x 19.2 = 115.2 fits 123: the code font with 3 decimals.
    const ValueFormat w = valueFormat(130, 7, adv, 0.95f, true);
    EXPECT_EQ(w.font, 0);
    EXPECT_EQ(w.decimals, 3);
    // 64x64 P values up to 15.3 ("-15.30" is 6 characters): at 60 px (53 usable) no font
    // holds 2 decimals (6 x 13.8 = 82.8); with 1 decimal "-15.3" is 5: 5 x 19.2 = 96,
    // 5 x 16.8 = 84, 5 x 13.8 = 69, none fit; nothing is drawn.
    EXPECT_EQ(valueFormat(60, 7, adv, 15.3f, true).font, -1);
    // At 77 px (70 usable) the small font holds 1 decimal (69 px).
    const ValueFormat x = valueFormat(77, 7, adv, 15.3f, true);
    EXPECT_EQ(x.font, 2);
    EXPECT_EQ(x.decimals, 1);
}

TEST(FigureFit, ValueFormatOnASlidePrefersTheLargerFont)
{
    const std::array<float, 3> adv{19.2f, 16.8f, 13.8f};
    // The 80 px cell above: on a slide "-0.0" in the code font, 4 x 19.2 = 76.8 > 73, does not
    // fit; in the cell font 4 x 16.8 = 67.2 does: font 1 with 1 decimal, not font 2 with 2.
    const ValueFormat v = valueFormat(80, 7, adv, 0.95f, true, true);
    EXPECT_EQ(v.font, 1);
    EXPECT_EQ(v.decimals, 1);
    // 130 px: the code font with 3 decimals either way.
    const ValueFormat w = valueFormat(130, 7, adv, 0.95f, true, true);
    EXPECT_EQ(w.font, 0);
    EXPECT_EQ(w.decimals, 3);
    EXPECT_EQ(valueFormat(60, 7, adv, 15.3f, true, true).font, -1);
}
