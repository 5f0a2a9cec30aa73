// Internal to the Convolution panel (app/gui/panels/conv_panel.cpp); not for other callers.
// What the panel's files share: the frame's context, the boards and the overviews' state,
// and the functions one file draws with for another. conv_panel.cpp draws the stats, the
// legend and the close-up's canvas, conv_panel_halo.cpp N with its halo and ghost cells,
// conv_panel_boards.cpp N_ds, the mask M and P, conv_panel_overview.cpp the overview of the
// whole N and P above the close-up of a large input.
#pragma once
#include <algorithm>
#include <cstdint>
#include <initializer_list>
#include <optional>
#include <string>
#include <vector>

#include <imgui.h>

#include "cell_canvas.hpp"
#include "panels.hpp"
#include "sim/teaching/conv_view.hpp"

namespace ts::app::conv_detail {

/// Below this many pixels per element, N shows only the block's neighbourhood.
constexpr float kMinCell = 14.0f;
/// Below this many pixels a side, a cell is too small for a frame inside it: the slots read
/// now get one outline round them instead (stepOutlines).
constexpr float kReadableCell = 20.0f;

/// One array on the canvas (cell_canvas.hpp): N's cells may start below 0 (ghost cells).
using Board = CellGrid;

/// One overview picture (N or P, whole) on the GPU: its textures and what they were made
/// from. A 1D strip is reduced on the CPU to about a texel per pixel and its one row repeated
/// into as many rows as the strip is tall (the shader's elements are square); a 2D array too
/// large for the driver's textures is reduced by 2, 4, ... elements a side.
struct OverviewImage : HeatGrid {
    int factor = 1;                     ///< elements per texel along a side (a power of 2)
    int repeat = 1;                     ///< 1D: texture rows holding the strip's one row
};

/// An overview drawn in bins with ImGui rectangles (no shaders, SVG export): per bin what
/// does not change with the cursor.
struct OverviewBins {
    uint64_t generation = ~0ull;
    int rows = 0, cols = 0;             ///< bins down and across
    std::vector<uint32_t> loads;        ///< N: most global loads of an element of the bin
    std::vector<uint8_t> wrong;         ///< P: an element of another block differs from the reference
};

/// What the panel keeps for the overviews between frames.
struct Overviews {
    OverviewImage gpu[2];               ///< N, P
    OverviewBins bins[2];               ///< N, P
    uint64_t loadsGeneration = ~0ull;   ///< Loaded::generation loadsMax belongs to
    uint32_t loadsMax = 1;              ///< most global loads of an element of N, whole grid
    bool gpuRefused = false;            ///< the heatmap failed here: bins from now on
};

/// What one frame of the panel needs.
struct Ctx {
    Frame& f;
    const sim::Simulation& s;
    const sim::ConvView& v;
    ImDrawList* dl = nullptr;
    std::vector<int> maskNow;         ///< M elements read by the cursor step
    std::vector<int> maskSoFar;       ///< constant loads of each M element by the block so far
    uint32_t heatMax = 1;
    Overviews* ov = nullptr;          ///< the panel's overview state
};

/// One overview on the canvas: the whole array (N or P, height x width elements) in the
/// rectangle [origin, origin + (w, h)) of whole pixels; 1D: one row, a strip h pixels tall.
struct Overview {
    bool isP = false;
    ImVec2 origin;
    float w = 0, h = 0;
    int rows = 1, cols = 1;
    float cellW() const { return w / cols; }
    float cellH() const { return h / rows; }
    ImVec2 at(float r, float c) const { return ImVec2(origin.x + c * cellW(), origin.y + r * cellH()); }
    bool hit(ImVec2 m, int& r, int& c) const
    {
        if (m.x < origin.x || m.y < origin.y || m.x >= origin.x + w || m.y >= origin.y + h) return false;
        r = std::min(rows - 1, static_cast<int>((m.y - origin.y) / cellH()));
        c = std::min(cols - 1, static_cast<int>((m.x - origin.x) / cellW()));
        return true;
    }
};

/// Where the overviews go: filled in by layoutOverview, drawn by drawOverviews.
struct OverviewLayout {
    Overview N, P;
    float height = 0;                 ///< pixels of the canvas the overviews take, labels included
    ImVec2 notePos;                   ///< 2D: the explanation beside the pictures
    float noteW = 0, noteH = 0;
};

/// The colour of a cell of N in role `r` (internal, halo, ghost; the plain cell otherwise).
ImU32 roleColour(const Palette& pal, sim::ConvRole r);
/// Role `r` in words, for the tooltips.
const char* roleName(sim::ConvRole r);
/// Thread `t` of the block in words: "thread 14 (tx 6)" in 1D, "(ty 3, tx 4)" in 2D.
std::string threadName(const Ctx& c, int t);
/// The P element (`row`, `col`) thread `t` computes, if it computes one inside P.
bool outputOf(const Ctx& c, int t, int& row, int& col);
/// Whether P element (row, col) is the selected thread's output.
bool isSelected(const Ctx& c, int row, int col);
/// Practice mode: what a click on P element (row, col) answers (its thread, or the element).
CellRef practicePCell(const Ctx& c, int row, int col);
/// The label above board `b`: the first of `texts` that fits left of `right` (the canvas's edge when 0).
void boardLabel(const Ctx& c, const Board& b, std::initializer_list<std::string> texts, float right = 0);
/// The width of a frame inside a cell of `b`: a sixth of its side, at most `most`.
float frameWidth(const Board& b, float most);
/// The first index and count of N to draw along one dimension (all of it, else the block's neighbourhood).
void extent(int size, int in0, int inLen, int tile, float pixels, int& first, int& count);

/// Draws N's close-up board `b`: roles, values or uses, this step's loads, the selected thread's window.
void drawN(const Ctx& c, const Board& b);
/// The tooltip of N element (r, col) of the close-up.
void tooltipN(const Ctx& c, int r, int col);
/// Draws N_ds on board `b` (1D: `underN`, each slot under the element it holds).
void drawNds(const Ctx& c, const Board& b, bool underN);
/// The tooltip of N_ds slot `sl`.
void tooltipSlot(const Ctx& c, const sim::ConvSlot& sl);
/// Draws the mask M on board `b`, with the elements read now.
void drawM(const Ctx& c, const Board& b);
/// Draws P on board `b`, with the block's output tile and the selected thread's element.
void drawP(const Ctx& c, const Board& b);
/// Tooltip and click of P element (r, col): select a thread of the block, or trace another block.
void interactP(Ctx& c, int r, int col);

/// Whether N needs the overview at `width` pixels across.
bool needsOverview(const sim::ConvGeometry& g, float width);
/// The pixels the overviews want above the close-up at `width` pixels across.
float overviewHeight(const sim::ConvGeometry& g, float width);
/// Places the overviews at the top of the canvas; nothing where they or the close-up would be too small.
std::optional<OverviewLayout> layoutOverview(const Ctx& c, ImVec2 o, ImVec2 avail, float closeUp);
/// Draws the overviews of the whole N and P with frames round the close-up's part, labels, hover and click.
void drawOverviews(Ctx& c, const OverviewLayout& l, int row0, int rows, int col0, int cols);

}  // namespace ts::app::conv_detail
