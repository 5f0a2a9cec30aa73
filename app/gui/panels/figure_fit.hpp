// How large a figure made of square (or a little stretched) cells can be drawn in the room a panel has, and which
// font a value fits in such a cell. The Matrices and Shared memory panels size their grids
// with it so that the figure fills its panel at every window size and UI scale (issue 25:
// "figures sized for the room"). No ImGui, so that the unit tests can check it without a
// window.
#pragma once
#include <span>
#include <vector>

namespace ts::app {

/// One run of a figure along one axis: `cells` cells that scale with the cell size, taking
/// at least `least` pixels (a label wider than its matrix keeps its column that wide).
struct FigureSpan {
    float cells = 0;
    float least = 0;
};

/// A figure of square cells: its runs across (left to right) and down (top to bottom), and
/// the pixels of gaps and label lines along each axis that do not scale with the cells.
struct FigureShape {
    std::vector<FigureSpan> across, down;
    float fixedWide = 0, fixedHigh = 0;
};

/// The figure's width in pixels with cells `cell` pixels a side.
float figureWidth(const FigureShape& s, float cell);

/// The figure's height in pixels with cells `cell` pixels a side.
float figureHeight(const FigureShape& s, float cell);

/// The largest cell size (pixels, to 1/64 px) with which the figure fits `width` x `height`
/// pixels, at most `most`; 0 when not even cells of 0 px fit (the fixed parts are larger
/// than the room) or the figure has no cells along an axis.
float fitCell(const FigureShape& s, float width, float height, float most);

/// How much longer one side of a cell of the Matrices and Shared memory figures may be than
/// the other (fitCells' `stretch`): cells stay close to PMPP's squares while the figure fills
/// a panel of another shape than its own.
constexpr float kCellStretch = 1.5f;

/// A cell's width and height in pixels.
struct CellSize {
    float w = 0, h = 0;
};

/// The largest cells with which the figure fits `width` x `height` pixels: the square cell
/// of fitCell(), then, along the axis with room left over (a wide panel's width, a tall
/// one's height), as much longer as fits, up to `stretch` times the square's side and at
/// most `most`. {0, 0} where fitCell() gives 0. `stretch` below 1 counts as 1 (square).
CellSize fitCells(const FigureShape& s, float width, float height, float most, float stretch);

/// How values are written in cells: which of the candidate fonts (0: the first, the
/// largest) and how many decimals. font -1: no value fits.
struct ValueFormat {
    int font = -1;
    int decimals = 3;
};

/// The first of (font 0, 3 decimals), (font 0, 2), (font 1, 3), (font 1, 2), ..., then
/// (font 0, 1 decimal), (font 1, 1), ... in which
/// every value of magnitude up to `largest` (a negative one when `negative`) fits a cell
/// `cell` pixels wide less `margin` pixels, for monospaced fonts whose characters are
/// `advances` pixels wide, largest font first. {-1, 3} when none fits. A non-finite or
/// negative `largest` counts as 0. With `largestFont` (a slide, read from the back row) the
/// font goes first: (font 0, 3), (font 0, 2), (font 0, 1), (font 1, 3), ...
ValueFormat valueFormat(float cell, float margin, std::span<const float> advances, float largest, bool negative,
                        bool largestFont = false);

/// Characters of the widest of the values of magnitude up to `largest` written with
/// `decimals` decimals, a minus sign included when `negative`.
int valueChars(float largest, bool negative, int decimals);

}  // namespace ts::app
