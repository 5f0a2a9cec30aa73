// Internal to the Matrices panel (app/gui/panels/matrices_panel.cpp); not for other callers.
// What the panel's files share: the panel itself, the frame's context, the grids, and the
// functions one file draws with for another. matrices_panel.cpp chooses the legend's place
// and sizes the canvas, matrices_canvas.cpp lays out, zooms and draws the canvas,
// matrices_cells.cpp draws the cells with their values and tooltips, matrices_heat.cpp large
// matrices (heatmap shaders, bins), matrices_marks.cpp the tiles' lines and frames and the
// labels, matrices_legend.cpp the legend and the zoom slider.
#pragma once
#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <imgui.h>

#include "cell_canvas.hpp"
#include "figure_fit.hpp"
#include "heatmap.hpp"
#include "matrices_geometry.hpp"
#include "meanings.hpp"
#include "panels.hpp"

namespace ts::app::matrices_detail {

/// Below this many pixels per element, elements are drawn in bins.
constexpr float kMinCell = 6.0f;
/// Pixels per bin in bin mode.
constexpr float kBinPx = 4.0f;

/// One matrix on the canvas, all of it from (0, 0): its elements `cell.x` pixels wide and
/// `cell.y` high (square, or a little stretched where the panel's shape leaves room: kStretch).
struct Grid : CellGrid {
    int array = -1;
    std::string name;
};

/// What one frame of the panel needs.
struct Ctx {
    Frame& f;
    const sim::Simulation& s;
    ImDrawList* dl;
    TileGrid tiles;                             ///< the tiles of M, N and P (tileGrid)
    std::vector<std::pair<int, int32_t>> selectedTouches;   ///< selected thread, cursor step
    std::vector<std::pair<int, int32_t>> sharedReads;       ///< sources of slots read now
    uint32_t heatMax = 1;
    std::optional<sim::TileRect> blockP;        ///< the traced block's part of P (blockRectInP)
    /// The phase tiles of M and N met so far, by (phase, array): MatricesPanel's cache.
    std::map<std::pair<int, int>, std::optional<sim::TileRect>>* phaseTiles = nullptr;
    bool clicked = false;                       ///< a click (press and release, no drag) on the canvas
    std::optional<sim::Uint3> traceBlock;       ///< interact(): a click on P asks to trace this block
    /// The elements of P the selected thread holds in registers (a ladder rung's Pvalue), from
    /// the trace of its stores (registerElementsOfP); empty for PMPP's kernels.
    const std::vector<RegisterElement>* registers = nullptr;
    FigureContents has;                         ///< what the trace holds (shared arrays, phases, ...)
    /// The largest magnitude of the values of M, N and P and whether any is negative
    /// (MatricesPanel::largest_), for valueFormat.
    std::array<float, 3> largest{};
    std::array<bool, 3> negative{};
    /// The first step at which the traced block stores to P (-1: none): from it on, the
    /// other blocks' tiles of P show their values (pShown).
    int firstStoreP = -1;
};

/// Binned colours of a large matrix, rebuilt when the state they show changes.
struct Bins {
    uint64_t generation = ~0ull;
    int cursor = -2;
    bool heat = false;
    int binsR = 0, binsC = 0;
    std::vector<ImU32> colour;
    std::vector<uint8_t> now;   ///< a bin holds an element touched by the cursor step (a frame)
};

/// The canvas's extent in cells: M, N and P with their ghost cells (the zero-filled slots past
/// a tiled kernel's last whole tile, TileGrid), N above P and M left of P, and the pixels the
/// labels take above N and P. The panel sizes its canvas and lays out the picture from it.
struct CanvasCells {
    int ghostK = 0, ghostJ = 0, ghostL = 0;
    float high = 0;             ///< rows of N and P, in cells
    float label = 0;            ///< pixels of one label line with its gap
    float frame = 0;            ///< pixels of both label lines and the margin
};

/// Largest cell of the fit picture, in pixels at UI scale 1: a problem of a few elements
/// fills its panel without its cells growing past a sixth of a 1080p screen.
constexpr float kMostCell = 180.0f;

/// Whether P element `idx` as shown at the cursor differs from the CPU reference, bit for bit.
bool wrongP(const Ctx& c, int32_t idx, bool stored, float storedValue, bool inBlock);
/// Draws every element of `g` as a cell with its value where it fits, and the cells' own marks.
void drawCells(const Ctx& c, const Grid& g);
/// Hover tooltips, the click on P, and practice mode's clicks on cells of `g`.
void interact(Ctx& c, const Grid& g);
/// Draws `g` in bins of several elements (a large matrix, without the heatmap shaders).
void drawBins(const Ctx& c, const Grid& g, Bins& bins);
/// Draws the visible part of `g` through the heatmap shaders; false (and `why`) when the GPU cannot.
bool drawHeat(const Ctx& c, const Grid& g, HeatGrid& gg, HeatmapRenderer& renderer, std::string& why);
/// Thin lines between whole tiles of `g`.
void tileLines(const Ctx& c, const Grid& g);
/// The tile of the current phase on M or N, with its ghost cells.
void phaseTile(const Ctx& c, const Grid& g);
/// A faint frame round the traced block's rows of M or columns of N where its tiles are too small to read.
void blockBand(const Ctx& c, const Grid& g);
/// The traced block's tile of P and the selected thread's elements.
void blockOutline(const Ctx& c, const Grid& g);
/// The label above `g`: its name and `dims` in `font`.
void label(const Ctx& c, const Grid& g, const char* dims, ImFont* font);
/// The canvas's extent in cells for scenario `sc` and tiles `tiles` (CanvasCells).
CanvasCells canvasCells(const sim::Scenario& sc, const TileGrid& tiles);

/// The panel, shown while a matrix multiplication is loaded; it keeps the binned colours and
/// the GPU textures of M, N and P for matrices too large for one shape per element, and the
/// canvas's zoom and pan between frames.
struct MatricesPanel final : Panel {
    void draw(Frame& f) override;

private:
    /// The canvas: fit layout, zoom and pan (mouse and View), grids, interaction.
    /// `shape` is figureShape()'s, with room for the legend in the corner above M and left of N
    /// where `corner`.
    void canvas(Ctx& c, const FigureShape& shape, bool corner);
    /// The legend, then the zoom slider (on the legend's last line where it fits).
    void legendAndZoom(const Ctx& c);
    /// legendAndZoom() in a column of its own (beside the figure, or in its corner), measured
    /// into legendColumn_.
    void legendColumn();
    const Ctx* ctx_ = nullptr;        ///< the frame's context while it is drawn
    /// The font of the matrices' labels: bold, or the small font where bold labels wider
    /// than their matrices (64 x 64 in a narrow slide column) would make the cells smaller.
    ImFont* labelFont_ = nullptr;

    std::array<Bins, 3> bins_;        ///< M, N, P
    std::array<HeatGrid, 3> gpu_;      ///< M, N, P
    uint64_t heatGeneration_ = ~0ull; ///< Loaded::generation heatMax_ belongs to
    /// tileGrid, blockRectInP and the phase tiles met so far (sim::phaseTileOf, by phase and
    /// array) of the simulation of geometryGeneration_.
    TileGrid tiles_;
    std::optional<sim::TileRect> blockP_;
    std::map<std::pair<int, int>, std::optional<sim::TileRect>> phaseTiles_;
    uint64_t geometryGeneration_ = ~0ull;
    int firstStoreP_ = -1;            ///< Ctx::firstStoreP of geometryGeneration_
    uint32_t heatMax_ = 1;            ///< most global loads of an element of M or N
    /// The selected thread's registers of P (registerElementsOfP), for registersGeneration_
    /// and registersThread_.
    std::vector<RegisterElement> registers_;
    uint64_t registersGeneration_ = ~0ull;
    int registersThread_ = -1;
    float shownZoom_ = 1.0f;          ///< the zoom the canvas was last drawn at
    /// The canvas follows the lesson's tiles (focusRect) while the matrices' cells are too
    /// small to read at the fit, until the user zooms or pans; set for each new simulation.
    bool autoFocus_ = true;
    uint64_t focusGeneration_ = ~0ull;
    float mostZoom_ = 8.0f;           ///< largest zoom: the smallest matrix's cells at 64 px
    bool doubleClick_ = false;        ///< the mouse button went down as a double click
    /// A click on P outside the traced block, waiting out the double-click time: the block
    /// to trace and when the click was made (ImGui::GetTime()).
    std::optional<std::pair<sim::Uint3, double>> pendingTrace_;
    bool gpuRefused_ = false;         ///< the heatmap failed on this machine: bins from now on
    /// Where the legend goes: above the figure, or beside it where the panel is too short
    /// for the figure at its full width and that gives larger cells; the legend's height
    /// above and its size beside, as drawn last (pixels).
    enum class Legend { Above, Beside, Corner };
    float legendAbove_ = 0;
    ImVec2 legendColumn_{0, 0};
    /// The largest magnitude of the values of M, N and P (final and CPU reference) and
    /// whether any is negative, for the font of the cells' values; of valuesGeneration_.
    std::array<float, 3> largest_{};
    std::array<bool, 3> negative_{};
    uint64_t valuesGeneration_ = ~0ull;
};

}  // namespace ts::app::matrices_detail
