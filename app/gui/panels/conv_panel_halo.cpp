// The Convolution panel's N (app/gui/panels/conv_panel.cpp): the close-up of the input with
// the traced block's internal, halo and ghost cells, this step's loads, the selected
// thread's window, and the tooltip of an element.
#include <imgui.h>

#include <algorithm>
#include <cfloat>
#include <optional>
#include <string>

#include "cell_canvas.hpp"
#include "conv_panel_internal.hpp"
#include "sim/teaching/conv_view.hpp"
#include "widgets.hpp"

namespace ts::app::conv_detail {

namespace {

/// Whether N element (r, col) of the close-up was loaded by the cursor step: from global
/// memory, or its ghost slot zero-filled now.
bool loadedNowN(const Ctx& c, int r, int col)
{
    const sim::ConvGeometry& g = c.v.geo;
    const bool inside = g.insideN(r, col);
    if (!inside && g.role(r, col) != sim::ConvRole::Ghost) return false;
    if (inside && c.f.replay.element(c.v.nArray, r * g.width + col).readNow) return true;
    const sim::ConvSlot* sl = c.v.slotFor(r, col);
    return sl && !inside && c.f.replay.slots[c.v.ndsArray][sl->slot].writtenNow;
}

/// This step's loads into N_ds as one outline round each tile of N they form (in the
/// cells' outer band, cell_canvas.hpp's regionOutline), never a frame through every cell:
/// at 24 x 24 a frame on each of 144 small cells reads as hatching. Slots read now, where
/// cells are too small for a frame inside each, get one thin outline round their window.
void stepOutlines(const Ctx& c, const Board& b)
{
    const Palette& pal = c.f.theme.palette;
    const CellBand band = cellBand(b.side());
    const int r0 = b.row0, r1 = b.row0 + b.rows, c0 = b.col0, c1 = b.col0 + b.cols;
    auto inBoard = [&](int r, int col) { return r >= r0 && r < r1 && col >= c0 && col < c1; };
    regionOutline(c.dl, b, r0, r1, c0, c1, [&](int r, int col) { return inBoard(r, col) && loadedNowN(c, r, col); },
                  pal.readNow, pal.stepOutline, std::max(band.outer, 1.5f), false);
    if (b.side() >= scaled(kReadableCell)) return;
    auto readNow = [&](int r, int col) {
        if (!inBoard(r, col)) return false;
        const sim::ConvSlot* sl = c.v.slotFor(r, col);
        return sl && c.f.replay.slots[c.v.ndsArray][sl->slot].readNow;
    };
    regionOutline(c.dl, b, r0, r1, c0, c1, readNow, pal.readNow, 0, 1.0f, true);
}

}  // namespace

void drawN(const Ctx& c, const Board& b)
{
    if (recordCells().record) recordCells().grids.push_back(DrawnGrid{"N", b});
    const CellBand band = cellBand(b.side());
    const float keep = std::max(band.outer, 1.5f) + 1;   // the outline's band
    const Palette& pal = c.f.theme.palette;
    const sim::ConvGeometry& g = c.v.geo;
    const bool heat = c.f.view.heatmap;
    for (int r = b.row0; r < b.row0 + b.rows; ++r)
        for (int col = b.col0; col < b.col0 + b.cols; ++col) {
            const sim::ConvRole role = g.role(r, col);
            const bool inside = g.insideN(r, col);
            if (!inside && role != sim::ConvRole::Ghost) continue;   // nothing lies there
            const ImVec2 a = b.at(r, col), z(a.x + b.cell.x - 1, a.y + b.cell.y - 1);
            const sim::ConvUse* u = c.v.use(r, col);
            ImU32 fill = roleColour(pal, role);
            if (heat && inside) fill = u ? heatColour(static_cast<float>(u->uses()) / c.heatMax) : heatColour(0);
            if (!inside) fill = (fill & 0x00FFFFFF) | 0xA0000000u;
            c.dl->AddRectFilled(a, z, fill);
            if (!inside) {   // ghost cells: a dashed look, outside N's edge
                for (float x = a.x + 3; x < z.x; x += 6) c.dl->AddLine(ImVec2(x, a.y), ImVec2(x, a.y + 2), pal.grid);
            }
            // A slot read now and a practice mark are frames in the cell's inner band
            // (cell_canvas.hpp); the text keeps inside them and the outline's band, and a
            // practice sign has the top-right corner.
            bool readNow = false;
            if (const sim::ConvSlot* sl = c.v.slotFor(r, col)) readNow = c.f.replay.slots[c.v.ndsArray][sl->slot].readNow;
            readNow = readNow && b.side() >= scaled(kReadableCell);   // else one outline round them (stepOutlines)
            const CellRef ref{"N", sim::Cell{r, col}};
            const bool marked = c.f.view.practice.on && practiceMark(c.f.view.practice, ref) != PracticeMark::None &&
                                b.side() >= kSmallMarkCell;
            const float in = readNow || marked ? keep + band.inner + 1 : keep;
            const ImVec2 ia(a.x + keep, a.y + keep), ib(z.x - keep, z.y - keep);
            if (readNow)
                stepFrame(c.dl, ImVec2(ia.x + band.inner * 0.5f, ia.y + band.inner * 0.5f),
                          ImVec2(ib.x - band.inner * 0.5f, ib.y - band.inner * 0.5f), pal, 0, band.inner);
            // A ghost's 0 or a use count where the cell holds two digits; a value where
            // every value of N would fit (cellText), so that no cell shows one alone (a cell
            // with a mark takes the small font, then drops a decimal, where it must).
            std::string text;
            ImFont* font = nullptr;
            ImU32 ink = textOn(fill);
            std::optional<ValuePlace> place;
            auto placeText = [&](ImFont* f, const std::string& t) {
                font = f;
                text = t;
                place = placeValue(a, z, ImVec2(in, in), ImVec2(in, in), f->CalcTextSizeA(f->FontSize, FLT_MAX, 0, t.c_str()),
                                   marked, scaled(7));
            };
            if (!inside || heat) {
                // A ghost's fill is translucent: the text is chosen against what it makes over the canvas.
                ink = textOn(over(fill, ImGui::GetColorU32(ImGuiCol_ChildBg)));
                const std::string t = !inside ? "0" : u ? std::to_string(u->uses()) : "";
                if (b.cell.x >= scaled(22) && !t.empty()) placeText(c.f.theme.fonts.cell, t);
            } else if (const CellText ct = cellText({c.f.theme.fonts.cell, c.f.theme.fonts.small}, b.cell.x - 2 - 2 * keep);
                       ct.font && b.cell.y >= ct.font->FontSize + 2 + 2 * keep) {
                const float v = c.s.N[static_cast<size_t>(r) * g.width + col];
                placeText(ct.font, cellValue(v, ct.decimals));
                if (!place && ct.font != c.f.theme.fonts.small) placeText(c.f.theme.fonts.small, cellValue(v, ct.decimals));
                if (!place && ct.decimals > 1) placeText(c.f.theme.fonts.small, cellValue(v, ct.decimals - 1));
            }
            // Practice mode: the cell remembered for scripted clicks, and its mark.
            MarkPlace mp;
            mp.thickness = band.inner;
            if (place && place->hasGlyph()) {
                mp.glyphMin = place->glyphMin;
                mp.glyphMax = place->glyphMax;
            } else if (marked) {
                const ImVec2 m((a.x + z.x) * 0.5f, (a.y + z.y) * 0.5f);
                const float h = std::max(0.0f, std::min(z.x - a.x, z.y - a.y) * 0.5f - in);
                mp.glyphMin = ImVec2(m.x - h, m.y - h);
                mp.glyphMax = ImVec2(m.x + h, m.y + h);
                place.reset();
            }
            practiceCellDrawn(c.f, c.dl, ref, a, z, ia, ib, mp);
            if (place) {
                c.dl->AddText(font, font->FontSize, place->text, ink, text.c_str());
                if (recordCells().record)
                    recordCells().values.push_back(DrawnValue{sim::convElementName(g, r, col), text, place->text,
                                                              ImVec2(place->text.x + place->size.x, place->text.y + place->size.y),
                                                              place->glyphMin, place->glyphMax});
            }
        }
    stepOutlines(c, b);
    // N's edges, so that ghost cells read as lying outside it.
    const ImVec2 e0 = b.at(std::max(0, b.row0), std::max(0, b.col0));
    const ImVec2 e1 = b.at(std::min(g.height, b.row0 + b.rows), std::min(g.width, b.col0 + b.cols));
    c.dl->AddRect(ImVec2(e0.x - 1, e0.y - 1), e1, c.f.theme.palette.dimText, 0, 0, 1.5f);
    // The selected thread's window: the input elements its output needs.
    int pr, pc;
    if (outputOf(c, c.f.view.thread, pr, pc)) {
        const int n = g.n;
        const ImVec2 a = b.at(g.twoD ? pr - n : 0, pc - n), z = b.at(g.twoD ? pr + n + 1 : 1, pc + n + 1);
        markFrame(c.dl, ImVec2(a.x - 1, a.y - 1), ImVec2(z.x, z.y), c.f.theme.palette.selected, c.f.theme.palette, 2.0f, 2);
    }
}

void tooltipN(const Ctx& c, int r, int col)
{
    const sim::ConvGeometry& g = c.v.geo;
    const sim::ConvUse* u = c.v.use(r, col);
    ImGui::BeginTooltip();
    ImGui::PushFont(c.f.theme.fonts.mono);
    ImGui::TextUnformatted(sim::convElementName(g, r, col).c_str());
    ImGui::PopFont();
    ImGui::TextUnformatted(roleName(g.role(r, col)));
    if (g.insideN(r, col)) {
        const int32_t idx = r * g.width + col;
        ImGui::Text("value %.6g", c.s.N[idx]);
        const sim::ElementView& e = c.f.replay.element(c.v.nArray, idx);
        ImGui::Text("global loads by the traced block up to this step: %u", e.loadsSoFar);
        if (e.readNow) ImGui::TextUnformatted("read from global memory by this step");
    }
    if (u) {
        ImGui::TextUnformatted(sim::useSentence(c.v, *u).c_str());
        ImGui::Text("(traced block, whole kernel: %u reads of its N_ds slot, %u from global memory)", u->sharedReads,
                    u->globalReads);
        if (g.insideN(r, col))
            ImGui::Text("threads of the whole grid whose mask covers it: %u", u->gridUses);
    }
    if (const sim::ConvSlot* sl = c.v.slotFor(r, col)) {
        const sim::SlotView& sv = c.f.replay.slots[c.v.ndsArray][sl->slot];
        if (sv.written)
            ImGui::Text("held in N_ds slot %d, %s by %s", sl->slot, sv.zeroFilled ? "zero-filled" : "loaded",
                        threadName(c, sv.writer).c_str());
        else
            ImGui::Text("goes to N_ds slot %d (not loaded yet), by %s", sl->slot, threadName(c, sl->loader).c_str());
    }
    ImGui::EndTooltip();
}

}  // namespace ts::app::conv_detail
