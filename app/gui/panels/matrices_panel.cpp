// Matrices: M, N and P as grids of cells, laid out as in the textbook figures (N above P,
// M to its left, so a row of M and a column of N meet at their P element). At the cursor,
// colours show what the traced block loads in this phase, what sits in Mds/Nds, which tile
// slots were zero-filled past the edge, and which P elements are finished. Matrices whose
// cells are smaller than kMinCell pixels are drawn by the GPU (heatmap.hpp: one texel per
// element, a fragment shader for the colours), or, without OpenGL 3.3 shaders and in SVG
// exports, in bins of several elements; the heatmap colours M and N by global loads, the
// value mode every element by its value. P elements that differ from the CPU reference (a
// dropped barrier) are marked once shown.
#include <imgui.h>

#include <algorithm>
#include <array>
#include <cfloat>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "arrays_figure.hpp"
#include "cell_canvas.hpp"
#include "figure_fit.hpp"
#include "figure_notes.hpp"
#include "heatmap.hpp"
#include "heatmap_view.hpp"
#include "layout.hpp"
#include "matrices_geometry.hpp"
#include "meanings.hpp"
#include "panels.hpp"
#include "sim/catalogue/problem_desc.hpp"
#include "sim/teaching/kernel_view.hpp"
#include "widgets.hpp"

namespace ts::app {
namespace {

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

/// The register of the selected thread that holds P element (r, col), or nullptr.
const RegisterElement* registerAt(const Ctx& c, int r, int col)
{
    if (!c.registers) return nullptr;
    for (const RegisterElement& e : *c.registers)
        if (e.row == r && e.col == col) return &e;
    return nullptr;
}

/// Binned colours of a large matrix, rebuilt when the state they show changes.
struct Bins {
    uint64_t generation = ~0ull;
    int cursor = -2;
    bool heat = false;
    int binsR = 0, binsC = 0;
    std::vector<ImU32> colour;
    std::vector<uint8_t> now;   ///< a bin holds an element touched by the cursor step (a frame)
};

/// How elements are coloured now.
HeatMode heatMode(const View& v) { return v.heatmap ? HeatMode::Loads : v.values ? HeatMode::Values : HeatMode::State; }

/// Whether P element `idx` as shown at the cursor (stored by the traced block, or the final
/// value of another block) differs from the CPU reference, bit for bit.
bool wrongP(const Ctx& c, int32_t idx, bool stored, float storedValue, bool inBlock)
{
    if (!stored && inBlock) return false;
    const float v = stored ? storedValue : c.s.P[idx];
    return static_cast<size_t>(idx) < c.s.reference.size() && std::memcmp(&v, &c.s.reference[idx], sizeof v) != 0;
}

/// Whether P element (r, col) shows its value at the cursor: the traced block's once it has
/// stored it; another block's once the traced block has stored its own tile (the blocks run
/// the same steps, so every block stores its tile of P at that step; before it no block has
/// computed anything, and its final value would read as an input).
bool pShown(const Ctx& c, int r, int col, const sim::ElementView& e)
{
    if (e.stored) return true;
    if (rectContains(c.blockP, r, col)) return false;
    return c.firstStoreP >= 0 && c.f.view.cursor >= c.firstStoreP;
}

bool listed(const std::vector<std::pair<int, int32_t>>& list, int array, int32_t idx)
{
    for (auto [a, i] : list)
        if (a == array && i == idx) return true;
    return false;
}

/// The flat index (offset in memory) of element (r, col) of `g`, by which the trace, the
/// replay and the counters know it: r*cols + col, or column by column for a column-major
/// N (sim::ArrayInfo::flat). The inputs' values (Simulation::M, N) are row-major whatever
/// the layout: index them with r*cols + col.
int32_t flatIndex(const Ctx& c, const Grid& g, int r, int col)
{
    return static_cast<int32_t>(c.s.arrays[g.array].flat(r, col));
}

ImU32 elementFill(const Ctx& c, const Grid& g, int32_t idx)
{
    const Palette& pal = c.f.theme.palette;
    const sim::ElementView& e = c.f.replay.element(g.array, idx);
    if (g.name == "P") return e.stored ? pal.finished : pal.cell;
    if (c.f.view.heatmap) {
        const uint32_t n = c.s.counters.elementLoads[g.array][idx];
        return heatColour(static_cast<float>(n) / static_cast<float>(c.heatMax));
    }
    if (e.inShared()) return pal.inShared;
    if (e.loadsSoFar > 0) return pal.loadedEarlier;
    return pal.cell;
}

std::string elementName(const Grid& g, int r, int c)
{
    return g.name + "[" + std::to_string(r) + "][" + std::to_string(c) + "]";
}

void tooltipFor(const Ctx& c, const Grid& g, int r, int col)
{
    const int32_t idx = flatIndex(c, g, r, col);
    const sim::ElementView& e = c.f.replay.element(g.array, idx);
    const sim::Trace& t = c.s.trace;
    ImGui::BeginTooltip();
    ImGui::PushFont(c.f.theme.fonts.mono);
    ImGui::Text("%s  (flat index %d)", elementName(g, r, col).c_str(), idx);
    ImGui::PopFont();
    if (g.name == "P") {
        // Who computed it: the thread whose store of it the simulator recorded.
        const POwner o = ownerOfP(c.s, r, col).value_or(POwner{sim::Uint3{~0u, ~0u, 0}, -1, -1});
        const int bx = static_cast<int>(o.block.x), by = static_cast<int>(o.block.y);
        ImGui::Text("final value %.6g", c.s.P[idx]);
        if (static_cast<size_t>(idx) < c.s.reference.size() && !c.s.matchesReference &&
            std::memcmp(&c.s.P[idx], &c.s.reference[idx], sizeof(float)) != 0)
            ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(c.f.theme.palette.error),
                               "differs from the CPU reference %.6g: a race gave it a stale operand", c.s.reference[idx]);
        if (o.tx >= 0) ImGui::Text("computed by block (bx=%d, by=%d), thread (ty=%d, tx=%d)", bx, by, o.ty, o.tx);
        else ImGui::TextUnformatted("no thread stored it");
        if (const RegisterElement* reg = registerAt(c, r, col))
            ImGui::Text("held by the selected thread in register %s until its store", reg->name.c_str());
        if (!pShown(c, r, col, e) && !rectContains(c.blockP, r, col))
            ImGui::Text("not computed yet at this step: every block stores its tile of P at step %d, as the traced "
                        "block does", c.firstStoreP);
        if (e.stored) ImGui::Text("stored by the traced block at this step or before: finished");
        else if (bx == static_cast<int>(t.block.x) && by == static_cast<int>(t.block.y))
            ImGui::TextUnformatted("not stored yet: its thread is still accumulating Pvalue");
        ImGui::TextDisabled(bx == static_cast<int>(t.block.x) && by == static_cast<int>(t.block.y)
                                ? "click: select this thread"
                                : "click: trace this block");
    } else {
        const std::vector<float>& v = g.name == "M" ? c.s.M : c.s.N;
        ImGui::Text("value %.6g", v[static_cast<size_t>(r) * g.cols + col]);
        ImGui::Text("global loads by block (%u, %u) up to this step: %u", t.block.x, t.block.y, e.loadsSoFar);
        ImGui::Text("global loads by the whole grid, all steps: %u (simulated)",
                    c.s.counters.elementLoads[g.array][idx]);
        if (e.loadedThisPhase) ImGui::TextUnformatted("loaded in this phase");
        if (e.readNow) ImGui::TextUnformatted("read from global memory by this step");
        if (e.inShared()) ImGui::TextUnformatted("its value sits in shared memory now");
    }
    ImGui::EndTooltip();
}

/// Draws every element of `g` as a cell with its value where it fits. The value keeps
/// inside the cell's band (CellBand): "this step" and "loaded this phase" are one outline
/// round each tile of such cells in the band's outer part, a cell's own marks (a shared
/// read, a practice verdict, a wrong P) lie in its inner part, and a practice glyph has a
/// corner the value keeps clear of, so that no mark covers a digit or a minus sign.
void drawCells(const Ctx& c, const Grid& g)
{
    const Palette& pal = c.f.theme.palette;
    const Fonts& fonts = c.f.theme.fonts;
    const float side = g.side();
    const CellBand band = cellBand(side);
    // Practice mode marks the cells of the answer's array: their glyphs need a corner.
    const Practice& pr = c.f.view.practice;
    const bool glyphs = pr.on && pr.question && pr.generatorSim &&
                        answerArray(*pr.question, pr.generatorSim->scenario) == g.name;
    const float leastGlyph = scaled(7);
    // Values in the largest of the code, cell and small fonts in which every value of the
    // matrix fits its cell (fewer decimals first), never smaller than the small font; a cell
    // whose marks leave its value less room takes a smaller font, then drops a decimal.
    const int k = g.name == "M" ? 0 : g.name == "N" ? 1 : 2;
    ImFont* const candidates[3] = {fonts.mono, fonts.cell, fonts.small};
    std::array<float, 3> advances{};
    for (int i = 0; i < 3; ++i)
        advances[i] = candidates[i] ? candidates[i]->CalcTextSizeA(candidates[i]->FontSize, FLT_MAX, 0, "0").x : 1e9f;
    // (On a slide the largest font first, with the decimals it holds: the back row reads it.)
    ValueFormat text = valueFormat(g.cell.x - 1, 3 + scaled(2), advances, c.largest[k], c.negative[k], c.f.view.presentation);
    // A wide, low cell: the font must fit its height too (the next smaller one that does).
    while (text.font >= 0 && candidates[text.font]->FontSize + 2 > g.cell.y - 1)
        text.font = text.font + 1 < 3 ? text.font + 1 : -1;
    const ImVec2 clipA = ImGui::GetWindowDrawList()->GetClipRectMin();
    const ImVec2 clipB = ImGui::GetWindowDrawList()->GetClipRectMax();
    const int r0 = std::max(0, static_cast<int>((clipA.y - g.origin.y) / g.cell.y));
    const int r1 = std::min(g.rows, static_cast<int>((clipB.y - g.origin.y) / g.cell.y) + 1);
    const int c0 = std::max(0, static_cast<int>((clipA.x - g.origin.x) / g.cell.x));
    const int c1 = std::min(g.cols, static_cast<int>((clipB.x - g.origin.x) / g.cell.x) + 1);
    const bool isP = g.name == "P";
    DrawnCells& record = recordCells();
    if (record.record) record.grids.push_back(DrawnGrid{g.name, g});
    // Fills first, then the outlines of this step's and this phase's tiles over them.
    for (int r = r0; r < r1; ++r)
        for (int col = c0; col < c1; ++col) {
            const ImVec2 a = g.at(r, col), b(a.x + g.cell.x - 1, a.y + g.cell.y - 1);
            c.dl->AddRectFilled(a, b, elementFill(c, g, flatIndex(c, g, r, col)));
        }
    auto readNow = [&](int r, int col) {
        return r >= 0 && col >= 0 && r < g.rows && col < g.cols && c.f.replay.element(g.array, flatIndex(c, g, r, col)).readNow;
    };
    auto thisPhase = [&](int r, int col) {
        if (!c.has.phases || r < 0 || col < 0 || r >= g.rows || col >= g.cols) return false;
        const sim::ElementView& e = c.f.replay.element(g.array, flatIndex(c, g, r, col));
        return e.loadedThisPhase && !e.readNow;
    };
    const ImU32 edge = pal.stepOutline;
    if (c.has.phases) regionOutline(c.dl, g, r0, r1, c0, c1, thisPhase, pal.loadedThisPhase, edge, band.outer, true);
    regionOutline(c.dl, g, r0, r1, c0, c1, readNow, pal.readNow, edge, band.outer, false);
    const float innerAt = band.outer + 1;   // where a cell's own marks begin, inside the outlines
    for (int r = r0; r < r1; ++r)
        for (int col = c0; col < c1; ++col) {
            const int32_t idx = flatIndex(c, g, r, col);
            const ImVec2 a = g.at(r, col), b(a.x + g.cell.x - 1, a.y + g.cell.y - 1);
            // Which sides carry a tile's outline (regionOutline above): left, top, right, bottom.
            const bool outlined[4] = {
                (readNow(r, col) && !readNow(r, col - 1)) || (thisPhase(r, col) && !thisPhase(r, col - 1)),
                (readNow(r, col) && !readNow(r - 1, col)) || (thisPhase(r, col) && !thisPhase(r - 1, col)),
                (readNow(r, col) && !readNow(r, col + 1)) || (thisPhase(r, col) && !thisPhase(r, col + 1)),
                (readNow(r, col) && !readNow(r + 1, col)) || (thisPhase(r, col) && !thisPhase(r + 1, col))};
            // The cell's own marks go just inside the outlines (at the edge where a side has none).
            auto edge = [&](bool bar) { return bar ? innerAt : 1.0f; };
            const ImVec2 ia(a.x + edge(outlined[0]), a.y + edge(outlined[1])),
                ib(b.x - edge(outlined[2]), b.y - edge(outlined[3]));
            const ImVec2 ma(ia.x + band.inner * 0.5f, ia.y + band.inner * 0.5f), mb(ib.x - band.inner * 0.5f, ib.y - band.inner * 0.5f);
            const ImU32 fill = elementFill(c, g, idx);
            const sim::ElementView& e = c.f.replay.element(g.array, idx);
            // The cell's own marks, each a frame in the inner band.
            const CellRef ref{g.name, sim::Cell{r, col}};
            const bool marked = glyphs && practiceMark(pr, ref) != PracticeMark::None;
            const bool shared = listed(c.sharedReads, g.array, idx);
            const bool wrong = isP && !c.s.matchesReference && pShown(c, r, col, e) &&
                               wrongP(c, idx, e.stored, e.storedValue, rectContains(c.blockP, r, col));
            if (shared) stepFrame(c.dl, ma, mb, pal, 0, band.inner);
            if (wrong) markFrame(c.dl, ma, mb, pal.error, pal, band.inner);
            // What the value keeps clear of: the outlines on the cell's sides and its own marks.
            const bool own = marked || shared || wrong || (pr.on && practiceMark(pr, ref) != PracticeMark::None);
            auto inset = [&](bool bar) { return (bar ? band.outer + 1 : 1.0f) + (own ? band.inner + 1 : 1.0f); };
            const ImVec2 lo(inset(outlined[0]), inset(outlined[1])), hi(inset(outlined[2]), inset(outlined[3]));
            // The value: the matrix's format, else a decimal fewer, else a smaller font, that fits.
            std::string value;
            ImFont* font = nullptr;
            std::optional<ValuePlace> place;
            const bool hasValue = !isP || pShown(c, r, col, e);
            const float v = isP ? (e.stored ? e.storedValue : c.s.P[idx])
                                : (g.name == "M" ? c.s.M : c.s.N)[static_cast<size_t>(r) * g.cols + col];
            // A smaller font first: a decimal fewer can turn -0.04 into "-0.0".
            // Beside a practice glyph the value is placed by its ink (digits, sign and point:
            // the line's empty top is room for the glyph in a low cell).
            float inkTop = 0;
            for (int d = text.decimals; hasValue && text.font >= 0 && d >= std::max(1, text.decimals - 1) && !place; --d)
                for (int fi = text.font; fi < 3 && !place; ++fi) {
                    font = candidates[fi];
                    value = cellValue(v, d);
                    ImVec2 size = font->CalcTextSizeA(font->FontSize, FLT_MAX, 0, value.c_str());
                    const InkRows ink = marked ? numberInk(font) : InkRows{0, size.y};
                    size.y = ink.bottom - ink.top;
                    inkTop = ink.top;
                    place = placeValue(a, b, lo, hi, size, marked, leastGlyph);
                }
            // The practice mark in the inner band, its glyph in the corner the value left free
            // (in the middle of a cell with no room for its value).
            MarkPlace mp;
            mp.thickness = band.inner;
            if (place && place->hasGlyph()) {
                mp.glyphMin = place->glyphMin;
                mp.glyphMax = place->glyphMax;
            } else if (marked) {
                const ImVec2 m((a.x + b.x) * 0.5f, (a.y + b.y) * 0.5f);
                const float h = std::max(0.0f, std::min(b.x - a.x, b.y - a.y) * 0.5f - band.band);
                mp.glyphMin = ImVec2(m.x - h, m.y - h);
                mp.glyphMax = ImVec2(m.x + h, m.y + h);
                place.reset();
            }
            practiceCellDrawn(c.f, c.dl, ref, a, b, ia, ib, mp);
            // The selected thread's corner, as large as the room above the value allows.
            if (listed(c.selectedTouches, g.array, idx)) {
                float d = std::min(scaled(10.0f), side / 4);
                if (place) d = std::min(d, std::max(std::max(lo.x, lo.y), place->text.y - a.y - 1));
                c.dl->AddTriangleFilled(a, ImVec2(a.x + d, a.y), ImVec2(a.x, a.y + d), pal.selected);
            }
            if (!place) continue;
            const ImVec2 at = place->text, sz = place->size;
            c.dl->AddRectFilled(ImVec2(at.x - 1, at.y), ImVec2(at.x + sz.x + 1, at.y + sz.y), fill);
            c.dl->AddText(font, font->FontSize, ImVec2(at.x, at.y - inkTop), textOn(fill), value.c_str());
            if (record.record)
                record.values.push_back(DrawnValue{elementName(g, r, col), value, at, ImVec2(at.x + sz.x, at.y + sz.y),
                                                   place->glyphMin, place->glyphMax});
        }
}

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

/// Thin lines between whole tiles: a block's rows of P and M, a phase's columns of M and
/// rows of N, a block's columns of N and P (tileGrid: BM, BK, BN on the register-tiled rungs).
void tileLines(const Ctx& c, const Grid& g)
{
    const bool isM = g.name == "M", isN = g.name == "N";
    const int down = isN ? c.tiles.depth : c.tiles.rows, across = isM ? c.tiles.depth : c.tiles.cols;
    const ImU32 line = IM_COL32(150, 160, 180, 110);
    if (g.cell.y * down >= 12)
        for (int r = down; r < g.rows; r += down) c.dl->AddLine(g.at(r, 0), g.at(r, g.cols), line, 1.5f);
    if (g.cell.x * across >= 12)
        for (int col = across; col < g.cols; col += across) c.dl->AddLine(g.at(0, col), g.at(g.rows, col), line, 1.5f);
}

/// The canvas's extent in cells: M, N and P with their ghost cells (the zero-filled slots past
/// a tiled kernel's last whole tile, TileGrid), N above P and M left of P, and the pixels the
/// labels take above N and P. The panel sizes its canvas and lays out the picture from it.
struct CanvasCells {
    int ghostK = 0, ghostJ = 0, ghostL = 0;
    float high = 0;             ///< rows of N and P, in cells
    float label = 0;            ///< pixels of one label line with its gap
    float frame = 0;            ///< pixels of both label lines and the margin
};

CanvasCells canvasCells(const sim::Scenario& sc, const TileGrid& tiles)
{
    CanvasCells cc;
    cc.ghostK = tiles.ghostK;
    cc.ghostJ = tiles.ghostJ;
    cc.ghostL = tiles.ghostL;
    cc.high = static_cast<float>(sc.k + cc.ghostK + sc.j + cc.ghostJ);
    cc.label = ImGui::GetTextLineHeight() + scaled(10);
    cc.frame = 2 * cc.label + scaled(10);
    return cc;
}

/// Largest cell of the fit picture, in pixels at UI scale 1: a problem of a few elements
/// fills its panel without its cells growing past a sixth of a 1080p screen.
constexpr float kMostCell = 180.0f;

/// The fit picture as figure_fit.hpp sees it: M's column, then N's and P's, across; N's
/// rows, then P's, down. M's column is at least as wide as M's label and N's and P's as
/// wide as theirs (in the font `bold`), so that the labels of M and P never run into each
/// other on small matrices at a large UI scale; the margins and the two label lines do not
/// scale.
FigureShape figureShape(const sim::Scenario& sc, const CanvasCells& cc, const ImFont* bold)
{
    auto labelWidth = [&](const char* name, int rows, int cols) {
        const std::string t = std::string(name) + "  (" + std::to_string(rows) + " x " + std::to_string(cols) + ")";
        return bold->CalcTextSizeA(bold->FontSize, 1e9f, 0, t.c_str()).x;
    };
    FigureShape s;
    s.across = {FigureSpan{static_cast<float>(sc.k + cc.ghostK), labelWidth("M", sc.j, sc.k)},
                FigureSpan{static_cast<float>(sc.l + cc.ghostL),
                           std::max(labelWidth("N", sc.k, sc.l), labelWidth("P", sc.j, sc.l))}};
    s.down = {FigureSpan{static_cast<float>(sc.k + cc.ghostK), 0}, FigureSpan{static_cast<float>(sc.j + cc.ghostJ), 0}};
    s.fixedWide = scaled(22);
    s.fixedHigh = cc.frame;
    return s;
}

/// Frame [a, b] grown about its centre to at least kMinMarker (scaled) pixels a side.
void markerFrame(const Ctx& c, ImVec2 a, ImVec2 b, ImU32 colour, float thickness)
{
    growToAtLeast(a, b, kMinMarker * c.f.theme.scale);
    markFrame(c.dl, a, b, colour, c.f.theme.palette, thickness, 3);   // with the edge: 3:1 on any cell
}

/// The tile of the current phase on M or N, with ghost cells where it leaves the matrix and
/// its slots were zero-filled.
void phaseTile(const Ctx& c, const Grid& g)
{
    const sim::Trace& t = c.s.trace;
    if (c.f.view.cursor < 0) return;
    const Palette& pal = c.f.theme.palette;
    const int phase = t.steps[c.f.view.cursor].phase;
    const int source = c.s.arrayIndex(g.name);
    if (source < 0) return;
    auto it = c.phaseTiles->find({phase, source});
    if (it == c.phaseTiles->end()) it = c.phaseTiles->emplace(std::pair{phase, source}, sim::phaseTileOf(t, phase, source)).first;
    const std::optional<sim::TileRect>& tile = it->second;
    if (!tile) return;
    // Ghost cells: zero-filled slots of the tile arrays whose element lies outside the matrix,
    // placed as their load step placed the elements it loaded (an Nds stored transposed too).
    // The slots zero-filled by this step get one outline round them (not a frame on each).
    const std::vector<GhostCell> ghosts = ghostCells(t, c.f.replay, g.name, g.rows, g.cols);
    const CellBand band = cellBand(g.side());
    std::set<std::pair<int, int>> now;
    int r0 = 0, r1 = 0, c0 = 0, c1 = 0;
    for (const GhostCell& gc : ghosts) {
        const ImVec2 p0 = g.at(gc.row, gc.col), p1(p0.x + g.cell.x - 1, p0.y + g.cell.y - 1);
        const ImU32 ghost = (pal.zeroFill & 0x00FFFFFF) | 0x90000000u;
        c.dl->AddRectFilled(p0, p1, ghost);
        const float in = band.outer + 2;
        centredText(c.dl, c.f.theme.fonts.cell, ImVec2(p0.x + in, p0.y + in), ImVec2(p1.x - in, p1.y - in),
                    textOn(over(ghost, ImGui::GetColorU32(ImGuiCol_ChildBg))), "0");
        if (!gc.writtenNow) continue;
        if (now.empty()) r0 = r1 = gc.row, c0 = c1 = gc.col;
        now.insert({gc.row, gc.col});
        r0 = std::min(r0, gc.row), r1 = std::max(r1, gc.row), c0 = std::min(c0, gc.col), c1 = std::max(c1, gc.col);
    }
    if (!now.empty())
        regionOutline(c.dl, g, r0, r1 + 1, c0, c1 + 1, [&](int r, int col) { return now.count({r, col}) > 0; }, pal.readNow,
                      pal.stepOutline, band.outer, false);
    const ImVec2 a = g.at(tile->row0, tile->col0), b = g.at(tile->row0 + tile->rows, tile->col0 + tile->cols);
    markerFrame(c, ImVec2(a.x - 2, a.y - 2), ImVec2(b.x + 1, b.y + 1), pal.loadedThisPhase, 2.0f);
}

/// On matrices whose tiles are too small to read (a tile under kMinMarker pixels), a faint
/// frame round the traced block's rows of M and columns of N: what its phases walk along.
void blockBand(const Ctx& c, const Grid& g)
{
    if (!c.blockP || g.name == "P") return;
    const sim::TileRect& bp = *c.blockP;
    if (static_cast<float>(bp.rows) * g.cell.y >= kMinMarker * c.f.theme.scale) return;
    const bool isM = g.name == "M";
    const ImVec2 a = isM ? g.at(bp.row0, 0) : g.at(0, bp.col0);
    const ImVec2 b = isM ? g.at(bp.row0 + bp.rows, g.cols) : g.at(g.rows, bp.col0 + bp.cols);
    c.dl->AddRect(ImVec2(a.x - 1, a.y - 1), ImVec2(b.x + 1, b.y + 1), (c.f.theme.palette.selected & 0x00FFFFFF) | 0x90000000u,
                  0, 0, 1.0f);
}

/// The traced block's tile of P and the selected thread's element.
void blockOutline(const Ctx& c, const Grid& g)
{
    const Palette& pal = c.f.theme.palette;
    if (!c.blockP) return;
    const sim::TileRect& bp = *c.blockP;
    const ImVec2 a = g.at(bp.row0, bp.col0), b = g.at(bp.row0 + bp.rows, bp.col0 + bp.cols);
    markerFrame(c, ImVec2(a.x - 2, a.y - 2), ImVec2(b.x + 1, b.y + 1), pal.selected, 2.5f);
    if (c.registers && !c.registers->empty()) {
        // A rung's thread holds several elements in Pvalue: a frame on each that it stores.
        if (g.side() < kMinCell) return;
        for (const RegisterElement& e : *c.registers) {
            if (!g.contains(e.row, e.col)) continue;
            const ImVec2 p = g.at(static_cast<float>(e.row), static_cast<float>(e.col));
            c.dl->AddRect(ImVec2(p.x + 3, p.y + 3), ImVec2(p.x + g.cell.x - 4, p.y + g.cell.y - 4), pal.selected, 2, 0, 1.5f);
        }
        return;
    }
    const std::optional<sim::PElement> first = threadPElement(c.s.trace, c.f.view.thread);
    if (!first) return;
    const sim::PElement e = *first;
    if (g.contains(static_cast<int>(e.row), static_cast<int>(e.col)) && g.side() >= kMinCell) {
        const ImVec2 p = g.at(static_cast<float>(e.row), static_cast<float>(e.col));
        c.dl->AddRect(ImVec2(p.x + 3, p.y + 3), ImVec2(p.x + g.cell.x - 4, p.y + g.cell.y - 4), pal.selected, 2, 0, 1.5f);
    }
}

void label(const Ctx& c, const Grid& g, const char* dims, ImFont* font)
{
    const std::string text = g.name + "  (" + dims + ")";
    c.dl->AddText(font, font->FontSize,
                  ImVec2(g.origin.x, g.origin.y - ImGui::GetTextLineHeight() - scaled(4)), c.f.theme.palette.cellText, text.c_str());
}

/// Hover tooltips, the click on P, and practice mode's clicks on cells.
void interact(Ctx& c, const Grid& g)
{
    // The canvas's button is active from the press on, which a plain hover test refuses.
    if (!ImGui::IsWindowHovered(ImGuiHoveredFlags_AllowWhenBlockedByActiveItem)) return;
    int r, col;
    if (!g.hit(ImGui::GetIO().MousePos, r, col)) return;
    const bool hovered = ImGui::IsWindowHovered();
    if (hovered && !ImGui::IsMouseDragging(ImGuiMouseButton_Left)) tooltipFor(c, g, r, col);
    // While a practice question waits for cells, a press on a cell adds it to the answer.
    if (practiceCellClicked(c.f, CellRef{g.name, sim::Cell{r, col}}, ImGui::IsMouseClicked(ImGuiMouseButton_Left))) return;
    if (!hovered || g.name != "P" || !c.clicked) return;
    // A thread of the traced block is selected at once; another block is traced by the
    // caller once the click has not become a double click (which fits instead).
    const sim::Trace& t = c.s.trace;
    const std::optional<POwner> o = ownerOfP(c.s, r, col);
    if (!o) return;
    if (o->block.x == t.block.x && o->block.y == t.block.y) c.f.view.thread = linearThread(t.blockDim, o->tx, o->ty);
    else c.traceBlock = sim::Uint3{o->block.x, o->block.y, 0};
}

/// The legend of the value mode: the colour map from each matrix's smallest to its largest value.
void valueLegend()
{
    const float w = ImGui::GetFontSize() * 6, h = ImGui::GetTextLineHeight();
    ImGui::TextUnformatted("value: smallest");
    ImGui::SameLine();
    const ImVec2 p = ImGui::GetCursorScreenPos();
    ImDrawList* dl = ImGui::GetWindowDrawList();
    for (int i = 0; i < 24; ++i)
        dl->AddRectFilled(ImVec2(p.x + i * w / 24, p.y + 2), ImVec2(p.x + (i + 1) * w / 24 + 1, p.y + h - 2),
                          heatColour(i / 23.0f));
    ImGui::Dummy(ImVec2(w, h));
    ImGui::SameLine();
    ImGui::TextUnformatted("largest");
    tooltip("Each element's value through the colour map, from the smallest to the largest value of its own "
            "matrix (hover an element for its value). P is shown final outside the traced block; inside it, "
            "once stored.");
}

/// The legend: the table's entries for what this trace's figure holds (meanings.hpp).
void legend(const Ctx& c)
{
    bool first = true;
    auto entry = [&](Meaning m, const char* more = nullptr) {
        legendEntry(m, first, more);
        first = false;
    };
    if (c.f.view.heatmap) {
        heatLegend("global loads, whole grid:", c.heatMax);
        first = false;
    } else if (c.f.view.values) {
        valueLegend();
        first = false;
    } else {
        if (c.has.shared) entry(Meaning::InShared, "Here: Mds or Nds.");
        entry(Meaning::LoadedEarlier);
    }
    if (c.has.phases) entry(Meaning::LoadedThisPhase, "The orange outline is the phase's tile.");
    entry(Meaning::ThisStep);
    if (c.has.zeroFills) entry(Meaning::ZeroFill);
    if (c.has.stores) entry(Meaning::Finished);
    if (!c.s.matchesReference) entry(Meaning::WrongP, "Marked once it is stored.");
    entry(Meaning::Selected, "The traced block's tile of P has the frame; where a tile is only a few pixels wide, "
                             "its frame is drawn larger than the tile, and a faint frame marks the rows of M and the "
                             "columns of N the block reads. On a rung of the ladder, a frame inside every element the "
                             "thread holds in its Pvalue registers (hover one for the register).");
}

/// Cells smaller than this (pixels at UI scale 1) are too small to read a value in: a large
/// matrix opens zoomed to its lesson instead (focusRect), and its tiles are outlined, not
/// its cells framed.
constexpr float kReadableCell = 20.0f;

/// A matrix side above which a problem is large: it opens zoomed to its lesson where its
/// cells are too small to read (focusRect); the lecture presets of 4x4 and 8x8 never do.
constexpr int kLargeSide = 16;

/// What a large problem opens zoomed to, in fit-picture pixels (the canvas's fit layout:
/// M's corner `fitM`, P's `fitP`, cells `cell`): the traced block's tile of M in the phase
/// at the cursor, with its zero-filled slots past M's edge, and its tile of P beside it where
/// both fit the canvas `avail` at kReadableCell; else the tile of M alone (the tile of P
/// before the first phase and for an untiled kernel). A margin of a sixteenth of a tile, at
/// least a cell, round it. Empty when there is no traced block.
std::optional<std::pair<ImVec2, ImVec2>> focusRect(const Ctx& c, ImVec2 fitM, ImVec2 fitP, ImVec2 cell, ImVec2 avail)
{
    if (!c.blockP) return std::nullopt;
    auto rect = [&](ImVec2 corner, int row0, int col0, int rows, int cols) {
        return std::pair(ImVec2(corner.x + col0 * cell.x, corner.y + row0 * cell.y),
                         ImVec2(corner.x + (col0 + cols) * cell.x, corner.y + (row0 + rows) * cell.y));
    };
    const sim::TileRect& bp = *c.blockP;
    const auto pTile = rect(fitP, bp.row0, bp.col0, c.tiles.rows, c.tiles.cols);
    std::optional<std::pair<ImVec2, ImVec2>> mTile;
    const int arrM = c.s.arrayIndex("M");
    if (c.f.view.cursor >= 0 && arrM >= 0) {
        const int phase = c.s.trace.steps[c.f.view.cursor].phase;
        auto it = c.phaseTiles->find({phase, arrM});
        if (it == c.phaseTiles->end())
            it = c.phaseTiles->emplace(std::pair{phase, arrM}, sim::phaseTileOf(c.s.trace, phase, arrM)).first;
        if (it->second) mTile = rect(fitM, it->second->row0, it->second->col0, c.tiles.rows, c.tiles.depth);
    }
    const float margin = std::max(1.0f, std::max(c.tiles.rows, c.tiles.cols) / 16.0f);
    auto grow = [&](std::pair<ImVec2, ImVec2> r) {
        return std::pair(ImVec2(r.first.x - margin * cell.x, r.first.y - margin * cell.y),
                         ImVec2(r.second.x + margin * cell.x, r.second.y + margin * cell.y));
    };
    if (!mTile) return grow(pTile);
    const std::pair<ImVec2, ImVec2> both(ImVec2(std::min(mTile->first.x, pTile.first.x), std::min(mTile->first.y, pTile.first.y)),
                                         ImVec2(std::max(mTile->second.x, pTile.second.x),
                                                std::max(mTile->second.y, pTile.second.y)));
    const auto b = grow(both);
    const float zoom = std::min(avail.x / (b.second.x - b.first.x), avail.y / (b.second.y - b.first.y));
    if (std::min(cell.x, cell.y) * zoom >= kReadableCell * scaled(1)) return b;
    return grow(*mTile);
}

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

}  // namespace

void MatricesPanel::legendAndZoom(const Ctx& c)
{
    legend(c);
    // The zoom slider ends the legend's line if it fits there. Its value is written beside it,
    // not on it: the grab would sit under the figures at a large zoom, white on light blue.
    char label[32];
    std::snprintf(label, sizeof label, "zoom %.1fx###zoom", c.f.view.zoom);
    const float zoomWidth = ImGui::GetFontSize() * 5 + ImGui::GetStyle().ItemInnerSpacing.x + ImGui::CalcTextSize("zoom 88.8x").x;
    if (ImGui::GetItemRectMax().x + scaled(20) + zoomWidth <= ImGui::GetWindowPos().x + ImGui::GetWindowContentRegionMax().x)
        ImGui::SameLine(0, scaled(20));
    ImGui::SetNextItemWidth(ImGui::GetFontSize() * 5);
    ImGui::SliderFloat(label, &c.f.view.zoom, 0.5f, mostZoom_, "", ImGuiSliderFlags_Logarithmic);
    tooltip("Cell size, 1x: the matrices fit the panel. Large matrices open zoomed to the traced block's tiles. "
            "On the matrices the mouse wheel zooms at the cursor (or + and -), a drag pans, a double click (or 0) "
            "fits, and a right click chooses the colours (states, global loads, values).");
}

void MatricesPanel::legendColumn()
{
    // In the small font, so that the legend fits the corner of small problems; on a slide
    // that is 23 px at the default scale of 2.
    ImGui::PushFont(ctx_->f.theme.fonts.small);
    ImGui::BeginGroup();
    legendAndZoom(*ctx_);
    ImGui::EndGroup();
    ImGui::PopFont();
    legendColumn_ = ImGui::GetItemRectSize();
    // The legend keys the figure's colours: part of the figure the pixel checks measure.
    noteFigure(ImGui::GetItemRectMin(), ImGui::GetItemRectMax());
}

void MatricesPanel::canvas(Ctx& c, const FigureShape& shape, bool corner)
{
    Frame& f = c.f;
    const sim::Simulation* s = &c.s;
    const int arrM = s->arrayIndex("M"), arrN = s->arrayIndex("N"), arrP = s->arrayIndex("P");
    const sim::Scenario& sc = s->scenario;
    const CanvasCells cc = canvasCells(sc, c.tiles);
    const int ghostK = cc.ghostK, ghostJ = cc.ghostJ, ghostL = cc.ghostL;
    const float lbl = cc.label;
    c.dl = ImGui::GetWindowDrawList();
    const ImVec2 avail(std::max(1.0f, ImGui::GetContentRegionAvail().x), std::max(1.0f, ImGui::GetContentRegionAvail().y));
    const ImVec2 o = ImGui::GetCursorScreenPos();

    // The fit picture (zoom 1, no pan): cells as large as the canvas allows (figure_fit.hpp),
    // labels wider than their matrices taking width from the cells.
    const std::string jk = std::to_string(sc.j) + " x " + std::to_string(sc.k);
    const std::string kl = std::to_string(sc.k) + " x " + std::to_string(sc.l);
    const std::string jl = std::to_string(sc.j) + " x " + std::to_string(sc.l);
    // Cells square, or up to kCellStretch times longer along the axis the panel has room on.
    const CellSize fit = fitCells(shape, avail.x, avail.y, kMostCell * f.theme.scale, kCellStretch);
    const float cw = std::max(0.05f, fit.w), ch = std::max(0.05f, fit.h);
    const float leftW = std::max((sc.k + ghostK) * cw, shape.across[0].least);
    const float rightW = std::max((sc.l + ghostL) * cw, shape.across[1].least);
    const float bandN = std::max((sc.k + ghostK) * ch, shape.down[0].least);   // N sits at its band's foot
    const float total = figureWidth(shape, cw);
    // Fit-picture corners, in pixels from the canvas's top-left corner.
    const float x0 = std::max(0.0f, (avail.x - total) * 0.5f);
    const ImVec2 fitN(x0 + scaled(4) + leftW + scaled(14), lbl + bandN - (sc.k + ghostK) * ch);
    const ImVec2 fitP(fitN.x, lbl + bandN + lbl);
    const ImVec2 fitM(x0 + scaled(4), fitP.y);
    const ImVec2 fitLo(x0, 0), fitHi(fitP.x + std::max((sc.l + ghostL) * cw, rightW) + 2, fitP.y + (sc.j + ghostJ) * ch + 2);
    mostZoom_ = std::max(8.0f, 64.0f * f.theme.scale / std::min(cw, ch));

    // Zoom and pan: the slider (about the canvas's centre), the wheel (at the cursor), a drag,
    // a double click (fit), then limits that keep some of the picture in sight.
    ImGui::InvisibleButton("##canvas", avail);
    const bool hovered = ImGui::IsItemHovered();
    const ImGuiIO& io = ImGui::GetIO();
    CanvasTransform t;
    t.origin = o;
    t.zoom = shownZoom_;
    t.pan = ImVec2(f.view.panX, f.view.panY);
    const ImVec2 centre(o.x + avail.x * 0.5f, o.y + avail.y * 0.5f);
    // A new simulation opens zoomed to the lesson (focusRect) until the user zooms or pans.
    if (focusGeneration_ != f.loaded.generation) {
        focusGeneration_ = f.loaded.generation;
        autoFocus_ = true;
    }
    if (f.view.zoom != shownZoom_) {
        t = zoomAt(t, centre, f.view.zoom / shownZoom_, 0.5f, mostZoom_);
        autoFocus_ = false;
    }
    if (t.zoom > mostZoom_ || t.zoom < 0.5f) t = zoomAt(t, centre, 1.0f, 0.5f, mostZoom_);   // another problem
    if (hovered && io.MouseWheel != 0.0f) {
        t = zoomAt(t, io.MousePos, std::pow(1.25f, io.MouseWheel), 0.5f, mostZoom_);
        autoFocus_ = false;
    }
    // Keys over the canvas: + (or =) and - zoom about its centre, 0 fits (not while a practice
    // question takes typed digits and minus signs).
    if (hovered && !practiceWaiting(f.view.practice))
        for (ImWchar ch : io.InputQueueCharacters) {
            if (ch == '+' || ch == '=') t = zoomAt(t, centre, 1.25f, 0.5f, mostZoom_);
            else if (ch == '-') t = zoomAt(t, centre, 0.8f, 0.5f, mostZoom_);
            else if (ch == '0') t = fitted(t);
            else continue;
            autoFocus_ = false;
        }
    if (ImGui::IsItemActive() && ImGui::IsMouseDragging(ImGuiMouseButton_Left)) {
        t = dragBy(t, io.MouseDelta);
        autoFocus_ = false;
    }
    // While a practice question waits for cells, clicks choose cells: no double click fits.
    const bool choosing = practiceWantsCells(f.view.practice);
    if (hovered && ImGui::IsMouseDoubleClicked(ImGuiMouseButton_Left) && !choosing) {
        t = fitted(t);
        autoFocus_ = false;
        doubleClick_ = true;
        pendingTrace_.reset();   // its first click was not meant to trace a block
    }
    // The legend in the corner: while the matrices are zoomed or panned it keeps a strip of
    // the canvas to itself, where no cell is drawn, so that it never covers one: the strip
    // right of it or the band below it, whichever leaves the cells more room. The rest runs
    // from `keepLo` to the canvas's far corner (canvas pixels); the lesson's tiles fit it.
    ImVec2 keepLo(0, 0);
    if (corner) {
        const float right = x0 + scaled(4) + std::max(legendColumn_.x, ImGui::GetFontSize() * 4) + scaled(8);
        const float below = lbl + bandN + scaled(4);
        if ((avail.x - right) * avail.y >= avail.x * (avail.y - below)) keepLo.x = std::min(right, avail.x - 1);
        else keepLo.y = std::min(below, avail.y - 1);
    }
    // Only a large problem (a side over kLargeSide) opens zoomed: a small one is its lesson
    // whole, even where a narrow column makes its cells small.
    const bool large = std::max({sc.j, sc.k, sc.l}) > kLargeSide;
    if (autoFocus_ && (!large || std::min(cw, ch) >= kReadableCell * f.theme.scale)) {
        t = fitted(t);   // readable at the fit (the canvas may have grown since the first frames)
    } else if (autoFocus_) {
        // Cells too small to read at the fit: the lesson's tiles at a readable size instead, in
        // the canvas the legend leaves. Zooming to them pays only where it enlarges
        // them at least twice (a small problem on a slide, whose cells are a little under the
        // readable size at the fit, is better seen whole).
        const ImVec2 room(avail.x - keepLo.x, avail.y - keepLo.y);
        const auto focus = focusRect(c, fitM, fitP, ImVec2(cw, ch), room);
        const float z = focus ? std::min({room.x / (focus->second.x - focus->first.x),
                                           room.y / (focus->second.y - focus->first.y), mostZoom_})
                              : 1.0f;
        if (z < 2.0f) {
            t = fitted(t);
        } else {
            const ImVec2 lo = focus->first, hi = focus->second;
            t.zoom = z;
            t.pan = ImVec2((lo.x + hi.x) * 0.5f * z - (keepLo.x + room.x * 0.5f), (lo.y + hi.y) * 0.5f * z - (keepLo.y + room.y * 0.5f));
            // The tiles as near the middle as the picture allows without leaving part of the
            // canvas empty beyond the picture's edge (block (0, 0) sits in its corner).
            if ((fitHi.x - fitLo.x) * z >= room.x) t.pan.x = std::clamp(t.pan.x, fitLo.x * z - keepLo.x, fitHi.x * z - avail.x);
            if ((fitHi.y - fitLo.y) * z >= room.y) t.pan.y = std::clamp(t.pan.y, fitLo.y * z - keepLo.y, fitHi.y * z - avail.y);
        }
    }
    // A click is a press and release without a drag; the second click of a double click fits only.
    const bool dragged = io.MouseDragMaxDistanceSqr[ImGuiMouseButton_Left] >= io.MouseDragThreshold * io.MouseDragThreshold;
    c.clicked = ImGui::IsItemDeactivated() && !doubleClick_ && !dragged && !choosing;
    if (ImGui::IsItemDeactivated()) doubleClick_ = false;
    t = clampPan(t, fitLo, fitHi, avail, scaled(40));
    const bool zoomed = t.zoom != 1.0f || t.pan.x != 0.0f || t.pan.y != 0.0f;
    f.view.zoom = shownZoom_ = t.zoom;
    f.view.panX = t.pan.x;
    f.view.panY = t.pan.y;
    if (ImGui::BeginPopupContextItem("##canvas-menu")) {
        if (ImGui::MenuItem("State colours", nullptr, !f.view.heatmap && !f.view.values)) f.view.heatmap = f.view.values = false;
        if (ImGui::MenuItem("Heatmap of global loads", nullptr, f.view.heatmap)) {
            f.view.heatmap = true;
            f.view.values = false;
        }
        if (ImGui::MenuItem("Values", nullptr, !f.view.heatmap && f.view.values)) {
            f.view.heatmap = false;
            f.view.values = true;
        }
        ImGui::Separator();
        if (ImGui::MenuItem("Fit (double click, 0)")) {
            autoFocus_ = false;
            f.view.zoom = shownZoom_ = 1.0f;
            f.view.panX = f.view.panY = 0;
        }
        ImGui::EndPopup();
    }

    const bool legendStrip = corner && zoomed;
    if (legendStrip) ImGui::PushClipRect(ImVec2(o.x + keepLo.x, o.y + keepLo.y), ImVec2(o.x + avail.x, o.y + avail.y), true);
    auto grid = [&](int array, const char* name, int rows, int cols, ImVec2 at) {
        const ScreenGrid sg = onScreen(t, GridPlace{at, ImVec2(cw, ch), rows, cols});
        return Grid{{sg.corner, sg.cell, 0, 0, rows, cols}, array, name};
    };
    Grid M = grid(arrM, "M", sc.j, sc.k, fitM);
    Grid N = grid(arrN, "N", sc.k, sc.l, fitN);
    Grid P = grid(arrP, "P", sc.j, sc.l, fitP);
    std::string why;
    HeatmapRenderer* renderer = nullptr;
    if (!f.view.vectorOnly && !gpuRefused_ && M.side() < kMinCell) {
        renderer = sharedHeatmapRenderer(&why);
        if (!renderer) gpuRefused_ = true;
    }
    for (Grid* g : {&M, &N, &P}) {
        const int k = g == &M ? 0 : g == &N ? 1 : 2;
        if (g->side() >= kMinCell) drawCells(c, *g);
        else if (!renderer || !drawHeat(c, *g, gpu_[k], *renderer, why)) drawBins(c, *g, bins_[k]);
        tileLines(c, *g);
    }
    if (!why.empty()) {
        // Said once: from now on the matrices are drawn in bins, as without OpenGL 3.3.
        gpuRefused_ = true;
        f.view.notice = "Large matrices are drawn in bins, without the heatmap shaders: " + why + ".";
        f.view.noticeIsError = true;
    }
    blockBand(c, M);
    blockBand(c, N);
    phaseTile(c, M);
    phaseTile(c, N);
    blockOutline(c, P);
    // Practice mode's marks on cells too small for a frame (drawCells marks larger ones), over
    // the tiles' frames (their edges would cover a mark on a tile's corner).
    for (Grid* g : {&M, &N, &P})
        if (g->side() < kMinCell) practiceSmallMarks(f, c.dl, g->name, g->origin, g->cell, g->rows, g->cols);
    label(c, M, jk.c_str(), labelFont_);
    label(c, N, kl.c_str(), labelFont_);
    label(c, P, jl.c_str(), labelFont_);
    // The figure the pixel checks measure: the three matrices with their labels and ghost
    // cells, as far as the canvas shows them (its clip rectangle, inside the panel's).
    {
        const ImVec2 a = t.toScreen(fitLo), b = t.toScreen(fitHi);
        const ImVec2 clipA = c.dl->GetClipRectMin(), clipB = c.dl->GetClipRectMax();
        const ImVec2 lo(std::max(a.x, clipA.x), std::max(a.y, clipA.y)), hi(std::min(b.x, clipB.x), std::min(b.y, clipB.y));
        if (lo.x < hi.x && lo.y < hi.y) noteFigure(lo, hi);
    }
    if (legendStrip) ImGui::PopClipRect();
    if (corner) {
        // The legend in the corner the figure leaves empty, above M and left of N (where the
        // fit picture has it; it stays there while the matrices are zoomed and panned).
        ImGui::SetCursorScreenPos(ImVec2(o.x + x0 + scaled(4), o.y));
        // As wide as it was measured, so that its items wrap as they did then.
        ImGui::BeginChild("legend", ImVec2(std::max(legendColumn_.x, ImGui::GetFontSize() * 4), lbl + bandN - scaled(4)), false,
                          ImGuiWindowFlags_NoScrollbar | ImGuiWindowFlags_NoScrollWithMouse);
        legendColumn();
        ImGui::EndChild();
    }
    for (Grid* g : {&M, &N, &P}) interact(c, *g);
    if (c.traceBlock) pendingTrace_ = std::pair(*c.traceBlock, ImGui::GetTime());
    if (pendingTrace_ && ImGui::GetTime() - pendingTrace_->second > io.MouseDoubleClickTime) {
        if (!f.busy.simulating) {
            sim::Scenario sc2 = sc;
            sc2.block = pendingTrace_->first;
            f.requests.load = presetFor(f.loaded, sc2);
        }
        pendingTrace_.reset();
    }
}

void MatricesPanel::draw(Frame& f)
{
    // A convolution has its own panel (conv_panel.cpp).
    const sim::Picture picture = f.loaded.sim ? sim::problemOf(f.loaded.sim->scenario).picture : sim::Picture::Matrices;
    if (picture == sim::Picture::Convolution) return;
    // An array problem (a student's element-wise, 1D or 2D kernel): its own arrays.
    if (picture == sim::Picture::Arrays) {
        if (beginPanel(f, id)) {
            if (f.loaded.sim->trace.steps.empty()) ImGui::TextUnformatted(f.busy.simulating ? "Simulating..." : "Nothing to show.");
            else drawArrayFigure(f, *f.loaded.sim);
        }
        ImGui::End();
        return;
    }
    if (beginPanel(f, id)) {
        const sim::Simulation* s = f.loaded.sim.get();
        if (!s || s->trace.steps.empty()) {
            ImGui::TextUnformatted(f.busy.simulating ? "Simulating..." : "Nothing to show.");
        } else {
            Ctx c{f, *s, ImGui::GetWindowDrawList(), {}, {}, {}, 1, {}, nullptr, false, {}, nullptr, {}};
            if (geometryGeneration_ != f.loaded.generation) {
                // Both read the trace or the whole of P: once per simulation.
                tiles_ = tileGrid(*s);
                blockP_ = blockRectInP(*s, s->trace.block);
                phaseTiles_.clear();
                firstStoreP_ = -1;
                const int arrP = s->arrayIndex("P");
                for (size_t i = 0; i < s->trace.steps.size() && firstStoreP_ < 0; ++i)
                    for (int e = s->trace.steps[i].begin; e < s->trace.steps[i].end; ++e)
                        if (s->trace.events[e].op == sim::Op::GlobalStore && s->trace.events[e].array == arrP) {
                            firstStoreP_ = static_cast<int>(i);
                            break;
                        }
                geometryGeneration_ = f.loaded.generation;
            }
            c.firstStoreP = firstStoreP_;
            c.tiles = tiles_;
            c.blockP = blockP_;
            c.phaseTiles = &phaseTiles_;
            const int arrM = s->arrayIndex("M"), arrN = s->arrayIndex("N");
            if (heatGeneration_ != f.loaded.generation) {
                heatMax_ = 1;
                for (int a : {arrM, arrN})
                    for (uint32_t n : s->counters.elementLoads[a]) heatMax_ = std::max(heatMax_, n);
                heatGeneration_ = f.loaded.generation;
            }
            c.heatMax = heatMax_;
            c.has = contentsOf(s->trace, f.loaded.generation);
            if (valuesGeneration_ != f.loaded.generation) {
                const std::vector<float>* of[3][2] = {{&s->M, nullptr}, {&s->N, nullptr}, {&s->P, &s->reference}};
                for (int k = 0; k < 3; ++k) {
                    largest_[k] = 0;
                    negative_[k] = false;
                    for (const std::vector<float>* v : of[k])
                        if (v)
                            for (float x : *v)
                                if (std::isfinite(x)) {
                                    largest_[k] = std::max(largest_[k], std::abs(x));
                                    negative_[k] = negative_[k] || x < 0;
                                }
                }
                valuesGeneration_ = f.loaded.generation;
            }
            c.largest = largest_;
            c.negative = negative_;
            if (registersGeneration_ != f.loaded.generation || registersThread_ != f.view.thread) {
                registers_ = registerElementsOfP(s->trace, s->arrayIndex("P"), f.view.thread);
                registersGeneration_ = f.loaded.generation;
                registersThread_ = f.view.thread;
            }
            c.registers = &registers_;
            if (f.view.cursor >= 0) {
                const sim::Step& st = s->trace.steps[f.view.cursor];
                for (int i = st.begin; i < st.end; ++i) {
                    const sim::Event& e = s->trace.events[i];
                    if (e.thread == f.view.thread && e.array != sim::kNoArray) c.selectedTouches.emplace_back(e.array, e.index);
                }
            }
            for (size_t a = 0; a < f.replay.slots.size(); ++a)
                for (const sim::SlotView& sl : f.replay.slots[a])
                    if (sl.readNow && sl.sourceIndex >= 0) c.sharedReads.emplace_back(sl.sourceArray, sl.sourceIndex);
            const CanvasCells cc = canvasCells(s->scenario, c.tiles);
            const ImVec2 room(ImGui::GetContentRegionAvail().x, ImGui::GetContentRegionAvail().y);
            const float gap = scaled(16), most = kMostCell * f.theme.scale;

            // The legend as a column in the small font (measured when drawn so; at first seven
            // lines of 15 characters and the zoom slider): beside the figure, or in the corner
            // above M and left of N that the figure leaves empty, there making M's column and
            // N's rows at least as large as the legend.
            const ImFont* small = f.theme.fonts.small;
            const ImGuiStyle& style = ImGui::GetStyle();
            const ImVec2 column = legendColumn_.x > 0 ? legendColumn_
                                                      : ImVec2(small->FontSize * (0.6f * 15 + 1.3f) + scaled(5),
                                                               7 * (small->FontSize + style.ItemSpacing.y) +
                                                                   small->FontSize + 2 * style.FramePadding.y);
            // The legend above the figure as drawn last (at first three lines).
            const float above = legendAbove_ > 0 ? legendAbove_ : ImGui::GetFrameHeightWithSpacing() * 3;
            auto corner = [&](const FigureShape& sh) {
                FigureShape c = sh;
                c.across[0].least = std::max(sh.across[0].least, column.x);
                c.down[0].least = column.y - cc.label + scaled(8);
                return c;
            };
            // Labels in bold unless the small font gives the cells a tenth more room (64 x 64
            // in a narrow slide column, where bold labels are wider than their matrices).
            auto bestCell = [&](const FigureShape& sh) {
                return std::max({fitCell(sh, room.x, room.y - above, most), fitCell(corner(sh), room.x, room.y, most),
                                 column.y <= room.y ? fitCell(sh, room.x - column.x - gap, room.y, most) : 0.0f});
            };
            labelFont_ = bestCell(figureShape(s->scenario, cc, f.theme.fonts.small)) >
                                 1.1f * bestCell(figureShape(s->scenario, cc, f.theme.fonts.bold))
                             ? f.theme.fonts.small
                             : f.theme.fonts.bold;
            const FigureShape shape = figureShape(s->scenario, cc, labelFont_);
            const FigureShape cornered = corner(shape);
            // Each place's cells with the room the panel has now, and with the panel's width
            // and any height (what the panel asks the layout for: the height of its best).
            auto cellAt = [&](Legend at, float h) {
                switch (at) {
                case Legend::Above: return fitCell(shape, room.x, h - above, most);
                case Legend::Beside: return column.y <= h ? fitCell(shape, room.x - column.x - gap, h, most) : 0.0f;
                case Legend::Corner: return fitCell(cornered, room.x, h, most);
                }
                return 0.0f;
            };
            auto heightAt = [&](Legend at, float cell) {
                return at == Legend::Above ? above + figureHeight(shape, cell)
                       : at == Legend::Beside ? std::max(column.y, figureHeight(shape, cell)) : figureHeight(cornered, cell);
            };
            const Legend places[3] = {Legend::Above, Legend::Corner, Legend::Beside};
            Legend best = Legend::Above;
            for (Legend at : places)
                if (cellAt(at, FLT_MAX) > cellAt(best, FLT_MAX) * 1.001f) best = at;
            const float want = heightAt(best, cellAt(best, FLT_MAX)) + 1;
            float least = above + cc.frame + std::max(scaled(140), std::min(cc.high * scaled(10), scaled(200)));
            if (f.view.presentation) {
                // A slide cannot scroll: the least is that of cells of 10 px (at most 200 px of
                // rows) with the legend where it takes the least height, above or in the corner.
                const float cell10 = std::min(cc.high * scaled(10), scaled(200)) / std::max(1.0f, cc.high);
                least = heightAt(Legend::Above, cell10);
                if (figureWidth(cornered, cell10) <= room.x) least = std::min(least, heightAt(Legend::Corner, cell10));
            }
            least = std::min(want, least);
            // Where the panel has less than that, the place with the largest cells (the first
            // of above, corner, beside that has them: the choice depends on the room alone, not
            // on where the legend was drawn before, so that a view looks the same however it was
            // reached). The legend is measured in the first frames: above, then as a column where
            // a column may do better.
            Legend at = Legend::Above;
            for (Legend p : places)
                if (cellAt(p, room.y) > 1.001f * cellAt(at, room.y)) at = p;
            if (legendAbove_ <= 0) {
                at = Legend::Above;
            } else if (legendColumn_.x <= 0) {
                const Legend col = cellAt(Legend::Corner, room.y) > cellAt(Legend::Beside, room.y) ? Legend::Corner
                                                                                                : Legend::Beside;
                if (cellAt(col, room.y) > 0.8f * cellAt(Legend::Above, room.y)) at = col;
            }
            // Where the height bounds the cells (a wide panel), the legend beside them costs
            // them nothing, or a few percent, and the figure spreads over the panel's width:
            // beside, not in the corner.
            if (at == Legend::Corner && cellAt(Legend::Beside, room.y) >= 0.96f * cellAt(Legend::Corner, room.y))
                at = Legend::Beside;
            ctx_ = &c;
            const ImGuiWindowFlags canvasFlags = ImGuiWindowFlags_NoScrollbar | ImGuiWindowFlags_NoScrollWithMouse;
            if (at == Legend::Above) {
                const float y0 = ImGui::GetCursorPosY();
                ImGui::BeginGroup();
                legendAndZoom(c);
                ImGui::EndGroup();
                noteFigure(ImGui::GetItemRectMin(), ImGui::GetItemRectMax());   // the figure's key, as in legendColumn()
                legendAbove_ = ImGui::GetCursorPosY() - y0;
                ImGui::BeginChild("canvas", ImVec2(0, elasticHeight(least - legendAbove_, want - legendAbove_)), false,
                                  canvasFlags);
                canvas(c, shape, false);
                ImGui::EndChild();
            } else if (at == Legend::Corner) {
                ImGui::BeginChild("canvas", ImVec2(0, elasticHeight(least, want)), false, canvasFlags);
                canvas(c, cornered, true);
                ImGui::EndChild();
            } else {
                const float h = elasticHeight(least, want);
                const float width = std::max(1.0f, room.x - column.x - gap);
                const float figure = std::min(width, figureWidth(shape, fitCells(shape, width, h, most, kCellStretch).w) + 1);
                ImGui::SetCursorPosX(ImGui::GetCursorPosX() + std::max(0.0f, (room.x - figure - gap - column.x) * 0.5f));
                ImGui::BeginChild("canvas", ImVec2(figure, h), false, canvasFlags);
                canvas(c, shape, false);
                ImGui::EndChild();
                ImGui::SameLine(0, gap);
                ImGui::BeginChild("legend", ImVec2(std::max(column.x, ImGui::GetFontSize() * 4), h), false, canvasFlags);
                legendColumn();
                ImGui::EndChild();
            }
            ctx_ = nullptr;
        }
    }
    ImGui::End();
}

std::unique_ptr<Panel> makeMatricesPanel() { return std::make_unique<MatricesPanel>(); }

}  // namespace ts::app
