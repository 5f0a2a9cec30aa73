// The Convolution panel's other boards (app/gui/panels/conv_panel.cpp): N_ds with the thread
// that loaded each slot, the mask M in constant memory, and the output P, with their
// tooltips and the click on P.
#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <string>
#include <utility>

#include "cell_canvas.hpp"
#include "conv_panel_internal.hpp"
#include "sim/teaching/conv_view.hpp"
#include "widgets.hpp"

namespace ts::app::conv_detail {

// ---- N_ds ---------------------------------------------------------------------------------

/// N_ds, slot (sr, sc) drawn at board cell (sr, sc) of `b` (1D: under the N element it holds).
void drawNds(const Ctx& c, const Board& b, bool underN)
{
    const Palette& pal = c.f.theme.palette;
    const sim::ConvGeometry& g = c.v.geo;
    const int ndsCols = c.s.arrays[c.v.ndsArray].cols;
    // The text keeps inside the band this step's outline takes (no bar crosses a digit).
    const float keep = std::max(cellBand(b.side()).outer, 1.5f) + 1;
    // Which board cell holds which slot: the slots written now get one outline round them.
    std::map<std::pair<int, int>, int> slotAt;
    for (const sim::ConvSlot& sl : c.v.slots) {
        const sim::SlotView& sv = c.f.replay.slots[c.v.ndsArray][sl.slot];
        const int r = g.twoD ? sl.slot / ndsCols : 0, col = underN ? sl.col : sl.slot % ndsCols;
        slotAt[{r, col}] = sl.slot;
        const ImVec2 a = b.at(r, col), z(a.x + b.cell.x - 1, a.y + b.cell.y - 1);
        const ImU32 fill = sv.written ? roleColour(pal, sl.role) : pal.cell;
        c.dl->AddRectFilled(a, z, fill);
        if (sv.written) {
            const ImVec2 a0 = a, z0 = z;
            const ImVec2 a(a0.x + keep, a0.y + keep), z(z0.x - keep, z0.y - keep);
            // The slot's value and the thread that loaded it: both where the cell is two
            // lines tall, else the value, else the loader, each for every slot or none
            // ("11,11" is the widest loader in 2D).
            const int bdx = static_cast<int>(c.s.trace.blockDim.x);
            const std::string who = g.twoD ? std::to_string(sv.writer / bdx) + "," + std::to_string(sv.writer % bdx)
                                           : std::string("t").append(std::to_string(sv.writer));
            ImFont* small = c.f.theme.fonts.small;
            const bool whoFits =
                small->CalcTextSizeA(small->FontSize, 1e9f, 0, g.twoD ? "11,11" : "t00").x <= z.x - a.x - 2 &&
                z.y - a.y >= small->FontSize;
            const CellText ct = cellText({c.f.theme.fonts.cell, small}, z.x - a.x + 1);
            const bool valueFits = ct.font && z.y - a.y >= ct.font->FontSize;
            if (valueFits && whoFits && z.y - a.y >= ct.font->FontSize + small->FontSize + 4) {
                const float mid = std::floor((a.y + z.y) * 0.5f);
                centredText(c.dl, ct.font, a, ImVec2(z.x, mid), textOn(fill), cellValue(sv.value, ct.decimals));
                centredText(c.dl, small, ImVec2(a.x, mid), z, textOn(fill), who);
            } else if (valueFits) {
                centredText(c.dl, ct.font, a, z, textOn(fill), cellValue(sv.value, ct.decimals));
            } else if (whoFits) {
                centredText(c.dl, small, a, z, textOn(fill), who);
            }
        }
        if (sv.readNow && b.side() >= scaled(kReadableCell)) {
            const float in = frameWidth(b, 5);
            stepFrame(c.dl, ImVec2(a.x + in, a.y + in), ImVec2(z.x - in, z.y - in), pal, 2, frameWidth(b, 2.5f));
        }
        practiceCellDrawn(c.f, c.dl, CellRef{"N_ds", sim::Cell{sl.slot / ndsCols, sl.slot % ndsCols}}, a, z);
    }
    auto slotNow = [&](int r, int col, bool written) {
        const auto it = slotAt.find({r, col});
        if (it == slotAt.end()) return false;
        const sim::SlotView& sv = c.f.replay.slots[c.v.ndsArray][it->second];
        return written ? sv.writtenNow : sv.readNow;
    };
    const int r0 = b.row0, r1 = b.row0 + b.rows, c0 = b.col0, c1 = b.col0 + b.cols;
    regionOutline(c.dl, b, r0, r1, c0, c1, [&](int r, int col) { return slotNow(r, col, true); }, pal.readNow,
                  pal.stepOutline, keep - 1, false);
    if (b.side() < scaled(kReadableCell))
        regionOutline(c.dl, b, r0, r1, c0, c1, [&](int r, int col) { return slotNow(r, col, false); }, pal.readNow, 0, 1.0f,
                      true);
}

void tooltipSlot(const Ctx& c, const sim::ConvSlot& sl)
{
    const sim::SlotView& sv = c.f.replay.slots[c.v.ndsArray][sl.slot];
    const int ndsCols = c.s.arrays[c.v.ndsArray].cols;
    ImGui::BeginTooltip();
    ImGui::PushFont(c.f.theme.fonts.mono);
    if (c.v.geo.twoD) ImGui::Text("N_ds[%d][%d]", sl.slot / ndsCols, sl.slot % ndsCols);
    else ImGui::Text("N_ds[%d]", sl.slot);
    ImGui::PopFont();
    ImGui::Text("holds %s (%s)", sim::convElementName(c.v.geo, sl.row, sl.col).c_str(), roleName(sl.role));
    if (sv.written)
        ImGui::Text("%s by %s; value %.6g", sv.zeroFilled ? "zero-filled" : "loaded", threadName(c, sv.writer).c_str(),
                    sv.value);
    else
        ImGui::Text("not written yet; %s will %s it", threadName(c, sl.loader).c_str(), sl.zeroFilled ? "zero-fill" : "load");
    std::string readers;
    for (size_t i = 0; i < sl.readers.size() && i < 12; ++i)
        readers += (i ? ", " : "") + std::to_string(c.v.geo.twoD ? sl.readers[i] : c.v.geo.outCol0 + sl.readers[i]);
    if (sl.readers.size() > 12) readers += ", ...";
    if (!sl.readers.empty())
        ImGui::Text("read by %zu thread%s%s: %s", sl.readers.size(), sl.readers.size() == 1 ? "" : "s",
                    c.v.geo.twoD ? " (linear index)" : "", readers.c_str());
    if (sv.readNow) ImGui::TextUnformatted("read by this step");
    ImGui::EndTooltip();
}

// ---- M and P ------------------------------------------------------------------------------

void drawM(const Ctx& c, const Board& b)
{
    const Palette& pal = c.f.theme.palette;
    const int mw = c.v.geo.maskWidth;
    const float keep = std::max(cellBand(b.side()).outer, 1.5f) + 1;
    for (int r = 0; r < b.rows; ++r)
        for (int col = 0; col < b.cols; ++col) {
            const int idx = r * mw + col;
            const ImVec2 a = b.at(r, col), z(a.x + b.cell.x - 1, a.y + b.cell.y - 1);
            const ImU32 fill = c.maskSoFar[idx] ? pal.loadedEarlier : pal.cell;
            c.dl->AddRectFilled(a, z, fill);
            // Inside the band of the outline of the mask elements read now, so that no bar
            // crosses a digit.
            const ImVec2 ta(a.x + keep, a.y + keep), tz(z.x - keep, z.y - keep);
            centredText(c.dl, c.f.theme.fonts.cell, ta, tz, textOn(fill), cellValue(c.s.M[idx], b.cell.x < 52));
        }
    // The mask elements read now: one outline round them (a window of the mask), in the band.
    regionOutline(c.dl, b, 0, b.rows, 0, b.cols,
                  [&](int r, int col) {
                      return r >= 0 && col >= 0 && r < b.rows && col < b.cols &&
                             std::find(c.maskNow.begin(), c.maskNow.end(), r * mw + col) != c.maskNow.end();
                  },
                  pal.readNow, pal.stepOutline, keep - 1, false);
}

void drawP(const Ctx& c, const Board& b)
{
    const Palette& pal = c.f.theme.palette;
    const sim::ConvGeometry& g = c.v.geo;
    for (int r = std::max(0, b.row0); r < std::min(g.height, b.row0 + b.rows); ++r)
        for (int col = std::max(0, b.col0); col < std::min(g.width, b.col0 + b.cols); ++col) {
            const int32_t idx = r * g.width + col;
            const sim::ElementView& e = c.f.replay.element(c.v.pArray, idx);
            const ImVec2 a = b.at(r, col), z(a.x + b.cell.x - 1, a.y + b.cell.y - 1);
            const ImU32 fill = e.stored ? pal.finished : pal.cell;
            c.dl->AddRectFilled(a, z, fill);
            if (const CellText ct = cellText({c.f.theme.fonts.cell, c.f.theme.fonts.small}, b.cell.x - 2);
                e.stored && ct.font && b.cell.y >= ct.font->FontSize + 2)
                centredText(c.dl, ct.font, a, z, textOn(fill), cellValue(e.storedValue, ct.decimals));
            if (isSelected(c, r, col)) {
                const float d = std::min(10.0f, b.cell.x / 3);
                c.dl->AddTriangleFilled(a, ImVec2(a.x + d, a.y), ImVec2(a.x, a.y + d), pal.selected);
            }
            practiceCellDrawn(c.f, c.dl, practicePCell(c, r, col), a, z);
        }
    const ImVec2 a = b.at(g.outRow0, g.outCol0);
    const ImVec2 z = b.at(std::min(g.height, g.outRow0 + g.outRows), std::min(g.width, g.outCol0 + g.outCols));
    c.dl->AddRect(ImVec2(a.x - 2, a.y - 2), ImVec2(z.x + 1, z.y + 1), pal.selected, 3, 0, 2.5f);
}

/// Tooltip and click of P: select a thread of the block, or trace another block.
void interactP(Ctx& c, int r, int col)
{
    const sim::ConvGeometry& g = c.v.geo;
    if (!g.insideN(r, col)) return;
    const int32_t idx = r * g.width + col;
    const bool inBlock = g.role(r, col) == sim::ConvRole::Internal;
    ImGui::BeginTooltip();
    ImGui::PushFont(c.f.theme.fonts.mono);
    ImGui::TextUnformatted(g.twoD ? ("P[" + std::to_string(r) + "][" + std::to_string(col) + "]").c_str()
                                  : ("P[" + std::to_string(col) + "]").c_str());
    ImGui::PopFont();
    ImGui::Text("final value %.6g (CPU reference %.6g)", c.s.P[idx], c.s.reference[idx]);
    if (c.f.replay.element(c.v.pArray, idx).stored) ImGui::TextUnformatted("stored by the traced block: finished");
    ImGui::TextDisabled(inBlock ? "click: select its thread" : "click: trace its block");
    ImGui::EndTooltip();
    if (!ImGui::IsMouseClicked(ImGuiMouseButton_Left)) return;
    const int bdx = static_cast<int>(c.s.trace.blockDim.x);
    if (inBlock) {
        c.f.view.thread = (r - g.outRow0) * bdx + (col - g.outCol0);
    } else if (!c.f.busy.simulating) {
        sim::Scenario s = c.s.scenario;
        s.block = sim::Uint3{static_cast<unsigned>(col / g.tile), static_cast<unsigned>(g.twoD ? r / g.tile : 0), 0};
        c.f.requests.load = presetFor(c.f.loaded, s);
    }
}

}  // namespace ts::app::conv_detail
