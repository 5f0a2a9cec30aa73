// The Matrices panel's cells (app/gui/panels/matrices_panel.cpp): each element's fill, value
// and own marks (drawCells), its tooltip, and the hover and clicks on the grids (interact).
#include <imgui.h>

#include <algorithm>
#include <array>
#include <cfloat>
#include <cstring>
#include <optional>
#include <string>
#include <vector>

#include "cell_canvas.hpp"
#include "figure_fit.hpp"
#include "matrices_geometry.hpp"
#include "matrices_panel_internal.hpp"
#include "widgets.hpp"

namespace ts::app::matrices_detail {

namespace {

/// The register of the selected thread that holds P element (r, col), or nullptr.
const RegisterElement* registerAt(const Ctx& c, int r, int col)
{
    if (!c.registers) return nullptr;
    for (const RegisterElement& e : *c.registers)
        if (e.row == r && e.col == col) return &e;
    return nullptr;
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

}  // namespace

/// Whether P element `idx` as shown at the cursor (stored by the traced block, or the final
/// value of another block) differs from the CPU reference, bit for bit.
bool wrongP(const Ctx& c, int32_t idx, bool stored, float storedValue, bool inBlock)
{
    if (!stored && inBlock) return false;
    const float v = stored ? storedValue : c.s.P[idx];
    return static_cast<size_t>(idx) < c.s.reference.size() && std::memcmp(&v, &c.s.reference[idx], sizeof v) != 0;
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

}  // namespace ts::app::matrices_detail
