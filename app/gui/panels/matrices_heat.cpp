// Large matrices in the Matrices panel (app/gui/panels/matrices_panel.cpp): drawn through the
// heatmap shaders (drawHeat), or in bins of several elements without them (drawBins).
#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <optional>
#include <string>
#include <vector>

#include "cell_canvas.hpp"
#include "heatmap.hpp"
#include "heatmap_view.hpp"
#include "matrices_geometry.hpp"
#include "matrices_panel_internal.hpp"

namespace ts::app::matrices_detail {

namespace {

/// How elements are coloured now.
HeatMode heatMode(const View& v) { return v.heatmap ? HeatMode::Loads : v.values ? HeatMode::Values : HeatMode::State; }

/// The flags of matrix `g` at the cursor (HeatFlag per element, row-major): what the bins
/// show, element by element.
std::vector<uint8_t> heatFlags(const Ctx& c, const Grid& g, HeatGrid& gg)
{
    const size_t n = static_cast<size_t>(g.rows) * g.cols;
    const bool isP = g.name == "P";
    std::vector<uint8_t> flags;
    if (isP) {
        // P's flags that hold at every cursor: the traced block's part, other blocks' wrong elements.
        flags = pBaseFlags(gg, c.f.loaded.generation, g.rows, g.cols, c.blockP, c.s.matchesReference,
                           [&](int32_t idx) { return wrongP(c, idx, false, 0, false); });
    } else {
        flags.assign(n, 0);
    }
    WrongAtCursor wrong;
    if (isP)
        wrong = [&](int32_t idx, const sim::ElementView& e, uint8_t) {
            return wrongP(c, idx, e.stored, e.storedValue, true);
        };
    addReplayFlags(flags, c.f.replay.elements[g.array], c.has.phases, wrong, &c.s.arrays[g.array]);
    return flags;
}

}  // namespace

/// Draws `g` in bins of several elements (a large matrix), each bin showing the most
/// telling state of its elements.
void drawBins(const Ctx& c, const Grid& g, Bins& bins)
{
    const Palette& pal = c.f.theme.palette;
    const int br = std::max(1, std::min(g.rows, static_cast<int>(g.rows * g.cell.y / kBinPx)));
    const int bc = std::max(1, std::min(g.cols, static_cast<int>(g.cols * g.cell.x / kBinPx)));
    const bool heat = c.f.view.heatmap && g.name != "P";
    if (bins.generation != c.f.loaded.generation || bins.cursor != c.f.view.cursor || bins.heat != heat ||
        bins.binsR != br || bins.binsC != bc) {
        bins = Bins{c.f.loaded.generation, c.f.view.cursor, heat, br, bc, {}, {}};
        bins.colour.assign(static_cast<size_t>(br) * bc, pal.cell);
        bins.now.assign(bins.colour.size(), 0);
        auto binOf = [&, &info = c.s.arrays[g.array]](int32_t idx) {
            const auto [r, col] = info.rowCol(idx);
            return static_cast<size_t>(static_cast<long long>(r) * br / g.rows) * bc +
                   static_cast<size_t>(static_cast<long long>(col) * bc / g.cols);
        };
        if (heat) {
            std::vector<uint32_t> mx(bins.colour.size(), 0);
            const std::vector<uint32_t>& n = c.s.counters.elementLoads[g.array];
            for (size_t i = 0; i < n.size(); ++i) mx[binOf(static_cast<int32_t>(i))] = std::max(mx[binOf(static_cast<int32_t>(i))], n[i]);
            for (size_t i = 0; i < mx.size(); ++i)
                bins.colour[i] = heatColour(static_cast<float>(mx[i]) / static_cast<float>(c.heatMax));
        }
        std::vector<int> prio(bins.colour.size(), 0);
        // Other blocks' P is shown final: mark its wrong elements (the traced block's below,
        // once stored).
        if (g.name == "P" && !c.s.matchesReference && c.firstStoreP >= 0 && c.f.view.cursor >= c.firstStoreP) {
            for (int32_t idx = 0; idx < g.rows * g.cols; ++idx) {
                const bool inBlock = rectContains(c.blockP, idx / g.cols, idx % g.cols);
                if (inBlock || !wrongP(c, idx, false, 0, false)) continue;
                prio[binOf(idx)] = 5;
                bins.colour[binOf(idx)] = pal.error;
            }
        }
        for (const auto& [idx, e] : c.f.replay.elements[g.array]) {
            const BinState st = binState(e, g.name == "P" && wrongP(c, idx, e.stored, e.storedValue, true),
                                         c.has.phases, heat, pal);
            const size_t b = binOf(idx);
            // "This step" is a frame round the bin, over its fill (the legend's mark).
            if (e.readNow) bins.now[b] = 1;
            if (st.priority > prio[b]) {
                prio[b] = st.priority;
                bins.colour[b] = st.colour;
            }
        }
    }
    const float h = g.rows * g.cell.y / br, w = g.cols * g.cell.x / bc;
    // Only the bins inside the canvas's clip rectangle (a zoomed matrix reaches far past it).
    const ImVec2 clipA = c.dl->GetClipRectMin(), clipB = c.dl->GetClipRectMax();
    const int r0 = std::clamp(static_cast<int>(std::floor((clipA.y - g.origin.y) / h)), 0, br);
    const int r1 = std::clamp(static_cast<int>(std::ceil((clipB.y - g.origin.y) / h)), r0, br);
    const int c0 = std::clamp(static_cast<int>(std::floor((clipA.x - g.origin.x) / w)), 0, bc);
    const int c1 = std::clamp(static_cast<int>(std::ceil((clipB.x - g.origin.x) / w)), c0, bc);
    drawBinGrid(c.dl, bins.colour, bins.now, bc, r0, r1, c0, c1, pal.readNow, [&](int r, int col) {
        const ImVec2 a(g.origin.x + col * w, g.origin.y + r * h);
        return std::pair(a, ImVec2(a.x + w, a.y + h));
    });
}

/// Draws the part of `g` inside the canvas through the heatmap shaders. Returns false when
/// the GPU cannot draw it (the caller draws bins instead); `why` then says why, once.
bool drawHeat(const Ctx& c, const Grid& g, HeatGrid& gg, HeatmapRenderer& renderer, std::string& why)
{
    const ImVec2 clipA = c.dl->GetClipRectMin(), clipB = c.dl->GetClipRectMax();
    const std::optional<VisiblePart> part = visiblePart(g.origin, g.cell, g.rows, g.cols, clipA, clipB);
    if (!part) return true;   // nothing of it on screen
    const uint64_t gen = c.f.loaded.generation;
    if (gg.flagsStale(g.rows, g.cols, gen, c.f.view.cursor)) {
        if (!gg.image.setFlags(g.rows, g.cols, heatFlags(c, g, gg))) {
            why = "a " + std::to_string(g.rows) + " x " + std::to_string(g.cols) +
                  " matrix is larger than the OpenGL driver's largest texture";
            return false;
        }
        gg.flagsUploaded(gen, c.f.view.cursor);
    }
    const bool isP = g.name == "P";
    HeatMode mode = heatMode(c.f.view);
    if (mode == HeatMode::Loads && isP) mode = HeatMode::State;   // P is stored, never loaded
    if (mode != HeatMode::State && (gg.scalarGeneration != gen || gg.scalarMode != mode)) {
        std::vector<float> v;
        if (mode == HeatMode::Loads) {
            // Counted by flat index; the picture is row-major.
            const std::vector<uint32_t> n = c.s.arrays[g.array].rowMajor(c.s.counters.elementLoads[g.array]);
            v.assign(n.begin(), n.end());
            gg.lo = 0;
            gg.hi = static_cast<float>(c.heatMax);
        } else {
            v = isP ? c.s.P : g.name == "M" ? c.s.M : c.s.N;
            const auto [lo, hi] = std::minmax_element(v.begin(), v.end());
            gg.lo = v.empty() ? 0.0f : *lo;
            gg.hi = v.empty() ? 1.0f : *hi;
        }
        v.resize(static_cast<size_t>(g.rows) * g.cols, 0.0f);
        gg.image.setScalars(v, mode == HeatMode::Loads);
        gg.scalarGeneration = gen;
        gg.scalarMode = mode;
    }
    const float fb = framebufferScale();
    HeatView v;
    v.firstCol = part->firstCol;
    v.firstRow = part->firstRow;
    v.cellW = g.cell.x * fb;
    v.cellH = g.cell.y * fb;
    v.width = static_cast<int>(std::ceil(part->width * fb));
    v.height = static_cast<int>(std::ceil(part->height * fb));
    v.mode = mode;
    v.isP = isP;
    v.lo = gg.lo;
    v.hi = gg.hi;
    // Frames where a 1 px frame leaves the fill most of the cell: 4 px in value mode (the
    // value is the fill), 8 px for the states (else "in Mds/Nds" drowns in frames).
    v.band = g.side() >= (mode == HeatMode::State ? 8.0f : 4.0f) ? 1.0f * fb : 0.0f;
    const ImVec2 a(static_cast<float>(part->x), static_cast<float>(part->y));
    const ImVec2 b(a.x + part->width, a.y + part->height);
    return showHeatPicture(c.dl, renderer, gg.image, v, c.f.theme.palette, a, b, why);
}

}  // namespace ts::app::matrices_detail
