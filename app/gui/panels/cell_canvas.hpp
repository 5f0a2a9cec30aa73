// The drawing of arrays as cells that the Matrices and Convolution panels share: a grid of
// cells placed on the canvas (its corner, a cell's size, the cell under the mouse); the flags
// of what the traced block did with each element at the cursor (HeatFlag, heatmap.hpp); a
// picture drawn by the heatmap shaders, with what its textures were made from; and, without
// the shaders (or in SVG exports), bins of many elements, each coloured by the most telling
// state of its elements.
#pragma once
#include <algorithm>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include <imgui.h>

#include "heatmap.hpp"
#include "sim/teaching/kernel_view.hpp"
#include "sim/engine/replay.hpp"
#include "theme.hpp"

namespace ts::app {

/// An array's cells on the canvas: rows [row0, row0 + rows) and columns [col0, col0 + cols)
/// of the array's own coordinates (a convolution's N may start below 0: ghost cells), cell
/// (row0, col0)'s top-left corner at `origin` (screen pixels), each cell `cell.x` pixels wide
/// and `cell.y` high.
struct CellGrid {
    ImVec2 origin;
    ImVec2 cell{0, 0};
    int row0 = 0, col0 = 0;
    int rows = 1, cols = 1;
    /// The shorter side of a cell: what frames, marks and the choice of cells or bins go by.
    float side() const { return std::min(cell.x, cell.y); }
    /// The screen point of cell (r, c)'s top-left corner (fractions give points inside it).
    ImVec2 at(float r, float c) const { return ImVec2(origin.x + (c - col0) * cell.x, origin.y + (r - row0) * cell.y); }
    /// The bottom-right corner of the last cell.
    ImVec2 end() const { return at(static_cast<float>(row0 + rows), static_cast<float>(col0 + cols)); }
    bool contains(int r, int c) const { return r >= row0 && c >= col0 && r < row0 + rows && c < col0 + cols; }
    /// The cell (r, c) under screen point `m` (the mouse); false when `m` lies off the grid.
    bool hit(ImVec2 m, int& r, int& c) const;
};

/// One array's picture through the heatmap shaders, kept between frames: its textures and
/// what they were made from (a texture is uploaded again only when that changed).
struct HeatGrid {
    HeatImage image;
    uint64_t flagsGeneration = ~0ull;         ///< Loaded::generation of the flags on the GPU
    int flagsCursor = -2;                     ///< and their cursor
    uint64_t scalarGeneration = ~0ull;        ///< Loaded::generation of the scalars on the GPU
    HeatMode scalarMode = HeatMode::State;    ///< what they are (Loads or Values)
    float lo = 0, hi = 1;                     ///< their smallest and largest value
    std::vector<uint8_t> base;                ///< P: the flags that do not change with the cursor
    uint64_t baseGeneration = ~0ull;

    /// Whether the flags on the GPU are not those of a rows x cols texture of `generation` at
    /// `cursor`.
    bool flagsStale(int rows, int cols, uint64_t generation, int cursor) const
    {
        return !image.holds(rows, cols) || flagsGeneration != generation || flagsCursor != cursor;
    }
    /// Records an upload of the flags; the scalars count as gone when a new size dropped them.
    void flagsUploaded(uint64_t generation, int cursor);
};

/// The elements of one array the replay holds at the cursor (sim::Replay::elements[array]).
using ReplayElements = std::unordered_map<int32_t, sim::ElementView>;

/// P's flags that hold at every cursor, made once per `generation` into `g.base` (rows x
/// cols, row-major): kInBlock over the traced block's part `block` (clipped to P), and
/// kWrong on the other elements for which `wrongElsewhere(idx)` holds (asked only when P
/// does not match the CPU reference).
const std::vector<uint8_t>& pBaseFlags(HeatGrid& g, uint64_t generation, int rows, int cols,
                                       const std::optional<sim::TileRect>& block, bool matchesReference,
                                       const std::function<bool(int32_t idx)>& wrongElsewhere);

/// Whether P element `idx`, as the replay shows it (`e`) with the flags gathered so far, differs
/// from the CPU reference.
using WrongAtCursor = std::function<bool(int32_t idx, const sim::ElementView& e, uint8_t flags)>;

/// ORs into `flags` (one HeatFlag byte per element, row-major) what the traced block did with
/// the elements the replay holds: loaded in this phase (`phases`: the kernel loads in
/// phases), read by this step, in shared memory, loaded earlier, stored; and kWrong where
/// `wrong` (P only; empty for M and N) says so. Indices outside `flags` are passed over.
/// `layout`: the array, whose elements the replay counts by their offset in memory (a
/// column-major N, ArrayInfo::columnMajor); null for a row-major one.
void addReplayFlags(std::vector<uint8_t>& flags, const ReplayElements& elements, bool phases, const WrongAtCursor& wrong,
                    const sim::ArrayInfo* layout = nullptr);

/// The framebuffer's pixels per screen pixel (DisplayFramebufferScale: 1, or 2 on a HiDPI
/// screen), at least 1: heatmap pictures are drawn at the framebuffer's pixels.
float framebufferScale();

/// Draws `view` of `image` with the palette's state colours and shows the picture on screen
/// in the rectangle [a, b). False, drawing nothing, when the renderer refuses; `why` then
/// says why.
bool showHeatPicture(ImDrawList* dl, HeatmapRenderer& renderer, HeatImage& image, const HeatView& view,
                     const Palette& pal, ImVec2 a, ImVec2 b, std::string& why);

/// The most telling state of an element, for a bin of many: a priority (the highest in a
/// bin gives its colour) and the colour. 5: differs from the reference (`wrong`); 3: stored
/// or in shared memory; 2: loaded in this phase (`phases`: the kernel loads in phases); 1:
/// loaded earlier (not with the heatmap of loads `heat`, whose colour says more); 0: none.
struct BinState {
    int priority = 0;
    ImU32 colour = 0;
};
BinState binState(const sim::ElementView& e, bool wrong, bool phases, bool heat, const Palette& pal);

/// Draws bins [r0, r1) x [c0, c1) of a grid of bins `binCols` wide: each bin's fill
/// (`colour`, row-major), then, over every fill, a 1-pixel frame of `frame` round each bin
/// whose `now` is set (touched by the cursor step). `rect(r, c)`: the bin's screen corners.
void drawBinGrid(ImDrawList* dl, const std::vector<ImU32>& colour, const std::vector<uint8_t>& now, int binCols,
                 int r0, int r1, int c0, int c1, ImU32 frame,
                 const std::function<std::pair<ImVec2, ImVec2>(int r, int c)>& rect);

// ---- Marks beside the values --------------------------------------------------------------
//
// A cell's value sits inside a band kept clear along its edge: the outer part of the band
// carries the outlines of regions (this step, loaded this phase: one outline round each
// tile of such cells, never a frame through every cell), the inner part the marks of one
// cell (a practice verdict, a shared read, a wrong P), and a practice glyph (tick, cross,
// ring) has a corner of its own. No mark crosses a digit.

/// The widths of a cell's band (pixels): `outer` for region outlines, `inner` for one cell's
/// marks, `band` the whole margin a value keeps from the cell's edge (both, and 1 px each).
struct CellBand {
    float outer = 1, inner = 1, band = 4;
};

/// The band of a cell whose shorter side is `side` pixels (at the UI scale of the theme).
CellBand cellBand(float side);

/// Where a cell's value and its practice glyph go: the value's top-left corner and size,
/// and the glyph's square (empty size when the cell has no glyph).
struct ValuePlace {
    ImVec2 text, size;
    ImVec2 glyphMin{0, 0}, glyphMax{0, 0};
    bool hasGlyph() const { return glyphMax.x > glyphMin.x; }
};

/// The rows a number's glyphs (digits, '-', '.') cover in a line of `font`, in pixels from
/// the line's top: its ink is [top, bottom), within the line's FontSize.
struct InkRows {
    float top = 0, bottom = 0;
};
InkRows numberInk(const ImFont* font);

/// Places a value of `size` pixels in the cell [a, b] inside `lo` and `hi` (pixels kept
/// clear of the left and top, right and bottom edges: the band where marks lie there):
/// centred, and, with a `glyph` (a practice mark's sign, at least `leastGlyph` pixels a
/// side, at most half the room's shorter side), moved left or down out of the glyph's square
/// in the inner top-right corner, whichever leaves the larger glyph. Empty when the value
/// does not fit, or when a glyph is asked for and no `leastGlyph` square fits beside or
/// above it.
std::optional<ValuePlace> placeValue(ImVec2 a, ImVec2 b, ImVec2 lo, ImVec2 hi, ImVec2 size, bool glyph, float leastGlyph);

/// The outline of the region of cells of `g` for which `in(r, c)` holds, rows [r0, r1) and
/// columns [c0, c1): a bar `thickness` pixels wide inside each cell along each side whose
/// neighbour is outside the region, so that a tile of such cells gets one frame round it
/// and none between its cells. In `colour`, `dashed` or solid, with a 1 px `edge` (where not
/// transparent) round each bar so that it keeps 3:1 against any fill.
void regionOutline(ImDrawList* dl, const CellGrid& g, int r0, int r1, int c0, int c1,
                   const std::function<bool(int r, int c)>& in, ImU32 colour, ImU32 edge, float thickness, bool dashed);

/// What the panels drew into cells in the last frame, for the pixel checks of tests
/// (tests/gui/marks_check.cpp): recorded only while recordCells() is set, and cleared by
/// whoever set it.
struct DrawnValue {
    std::string cell;            ///< "M[0][2]", "P[3][1]", "N[5]"
    std::string text;            ///< the value as drawn, "-0.280"
    ImVec2 min, max;             ///< the text's box on screen
    ImVec2 glyphMin{0, 0}, glyphMax{0, 0};   ///< a practice glyph's square, if any
};
/// One grid of cells drawn in the last frame (its name, corner and cell size on screen).
struct DrawnGrid {
    std::string name;
    CellGrid grid;
};
struct DrawnCells {
    bool record = false;
    std::vector<DrawnValue> values;
    std::vector<DrawnGrid> grids;
};
/// The record of the cells drawn (tests set `record` and clear the lists between frames).
DrawnCells& recordCells();

}  // namespace ts::app
