// Where the Convolution panel puts its boards (N, N_ds, the mask M and P) so that they fill
// the canvas it has: pure arithmetic in pixels, no ImGui, so that a unit test can hold it to
// the room it was given (tests/app/figure_fit_test.cpp).
//
// 1D: four rows, one above the other (N with its indices, N_ds under the N elements it
// holds, M, P), cells as wide as the canvas allows and rows as tall as it allows, up to
// three times their width. 2D: the arrangement, of a few, whose cells come out largest:
// "N | N_ds over M | P" on a wide canvas (N_ds and M there with N's cells or up to twice
// as large where the height allows), "N | N_ds" over "M | P" on a tall one (N_ds with N's
// cells: it holds a part of N); M is as wide as N_ds, and cells may be up to a fifth taller
// or wider than square to fill the room.
#pragma once

namespace ts::app {

/// What the boards need: the canvas and the number of cells of each board.
struct ConvFitInput {
    float width = 0, height = 0;   ///< the canvas, pixels
    float label = 0;               ///< a board's label row above it (text line and gap), pixels
    float gap = 0;                 ///< the least space between two boards, pixels
    float mostCell = 0;            ///< the largest cell side (1D: width), pixels
    bool twoD = false;
    int nRows = 1, nCols = 1;      ///< N's cells shown (ghost cells included); P has as many
    int ndsRows = 0, ndsCols = 0;  ///< N_ds's slots; 0 x 0: the kernel has no N_ds
    int mask = 1;                  ///< Mask_Width (M is mask x mask in 2D, mask in 1D)
};

/// One board: its top-left cell corner (its label is drawn above it), relative to the
/// canvas's top-left corner, and its cells.
struct FitBoard {
    float x = 0, y = 0;
    float cellW = 0, cellH = 0;
    int rows = 1, cols = 1;
    float right() const { return x + cols * cellW; }
    float bottom() const { return y + rows * cellH; }
};

/// Where the boards go. In 1D, N_ds's cells are N's, under the N elements they hold (the
/// caller shifts its column); `indices` is the row of N's indices under N.
struct ConvFit {
    FitBoard n, nds, m, p;
    float indicesY = 0;            ///< 1D: the top of the index row under N
    int arrangement = 0;           ///< 2D: 0 "N | N_ds over M | P", 1 "N | N_ds" over "M | P"
    /// The rectangle the boards and their labels cover, relative to the canvas.
    float left = 0, top = 0, right = 0, bottom = 0;
};

/// The least side of a cell, pixels: a smaller canvas keeps cells this large and the boards
/// reach past it (the canvas scrolls).
inline constexpr float kLeastFitCell = 4.0f;

/// The boards' places for `in`. Every board lies inside the canvas when it is large enough
/// for cells of kLeastFitCell. Throws std::invalid_argument, with a sentence that names the
/// value, when a count is below 1 (ndsRows and ndsCols below 0, or only one of them 0) or a
/// size is negative or not a number.
ConvFit fitConvBoards(const ConvFitInput& in);

/// The least canvas height (in.height is ignored) at which the boards' cells at in.width are
/// as large as any taller canvas would make them: what the canvas asks the layout for.
/// Throws as fitConvBoards does.
float wantedConvHeight(const ConvFitInput& in);

/// The smaller side of the smallest cell of N, N_ds and P in `f`: what decides whether values
/// fit.
float smallestCell(const ConvFit& f);

}  // namespace ts::app
