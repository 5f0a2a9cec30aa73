// Convolution (PMPP ch. 7): the input N with the traced block's internal, halo and ghost
// cells, N_ds with the thread that loaded each slot, the mask M in constant memory and the
// output P, at the cursor; per-element use counts on hover ("N[5] is used by threads 4, 5,
// 6, 7 (4X)") and as a heatmap; the block's loads beside the textbook's reduction formula.
// Shown in place of the Matrices panel when a convolution kernel is loaded. Large inputs
// are shown as the block's neighbourhood.
#include <imgui.h>

#include <algorithm>
#include <cfloat>
#include <initializer_list>
#include <cmath>
#include <optional>
#include <string>
#include <vector>

#include "layout.hpp"
#include "panels.hpp"
#include "sim/conv_view.hpp"
#include "widgets.hpp"

namespace ts::app {
namespace {

/// Role colours (Okabe-Ito): internal blue, halo orange; ghost cells take the palette's
/// zero-fill colour, because a ghost slot is zero-filled.
constexpr ImU32 kInternal = IM_COL32(0, 114, 178, 255);
constexpr ImU32 kHalo = IM_COL32(230, 159, 0, 255);
/// Below this many pixels per element, N shows only the block's neighbourhood.
constexpr float kMinCell = 14.0f;

/// One array on the canvas: cells for rows [row0, row0 + rows), cols [col0, col0 + cols)
/// of its own coordinates (N's may start below 0: ghost cells).
struct Board {
    ImVec2 origin;
    float w = 0, h = 0;               ///< cell width and height in pixels
    int row0 = 0, col0 = 0, rows = 1, cols = 1;
    ImVec2 at(int r, int c) const { return ImVec2(origin.x + (c - col0) * w, origin.y + (r - row0) * h); }
    ImVec2 end() const { return at(row0 + rows, col0 + cols); }
    bool hit(ImVec2 m, int& r, int& c) const
    {
        r = row0 + static_cast<int>(std::floor((m.y - origin.y) / h));
        c = col0 + static_cast<int>(std::floor((m.x - origin.x) / w));
        return r >= row0 && c >= col0 && r < row0 + rows && c < col0 + cols;
    }
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
};

ImU32 roleColour(const Palette& pal, sim::ConvRole r)
{
    switch (r) {
    case sim::ConvRole::Internal: return kInternal;
    case sim::ConvRole::Halo: return kHalo;
    case sim::ConvRole::Ghost: return pal.zeroFill;
    case sim::ConvRole::Outside: break;
    }
    return pal.cell;
}

const char* roleName(sim::ConvRole r)
{
    switch (r) {
    case sim::ConvRole::Internal: return "internal: in the block's output tile";
    case sim::ConvRole::Halo: return "halo: outside the output tile, but the mask reaches it";
    case sim::ConvRole::Ghost: return "ghost cell: outside N, read as 0";
    case sim::ConvRole::Outside: break;
    }
    return "not used by the traced block";
}

/// Thread `t` of the block in words: "thread 14 (tx 6)" in 1D, "(ty 3, tx 4)" in 2D.
std::string threadName(const Ctx& c, int t)
{
    const int bdx = static_cast<int>(c.s.trace.blockDim.x);
    if (!c.v.geo.twoD) return "thread " + std::to_string(c.v.geo.outCol0 + t) + " (tx " + std::to_string(t) + ")";
    return "thread (ty " + std::to_string(t / bdx) + ", tx " + std::to_string(t % bdx) + ")";
}

/// The P element thread `t` computes, if it computes one inside P.
bool outputOf(const Ctx& c, int t, int& row, int& col)
{
    const sim::ConvGeometry& g = c.v.geo;
    const int bdx = static_cast<int>(c.s.trace.blockDim.x);
    const int ty = t / bdx, tx = t % bdx;
    if (tx >= g.outCols || ty >= g.outRows) return false;   // conv2d-tiled's loading-only threads
    row = g.outRow0 + ty;
    col = g.outCol0 + tx;
    return g.insideN(row, col);
}

bool isSelected(const Ctx& c, int row, int col)
{
    int r, cl;
    return outputOf(c, c.f.view.thread, r, cl) && r == row && cl == col;
}

/// The label above board `b`: the first of `texts` (longest first) that fits between the
/// board's left edge and `right` (the canvas's edge when 0), else the last.
void boardLabel(const Ctx& c, const Board& b, std::initializer_list<std::string> texts, float right = 0)
{
    ImFont* bold = c.f.theme.fonts.bold;
    if (right == 0) right = ImGui::GetWindowPos().x + ImGui::GetWindowContentRegionMax().x;
    const std::string* pick = nullptr;
    for (const std::string& t : texts) {
        pick = &t;
        if (b.origin.x + bold->CalcTextSizeA(bold->FontSize, FLT_MAX, 0, t.c_str()).x <= right) break;
    }
    c.dl->AddText(bold, bold->FontSize, ImVec2(b.origin.x, b.origin.y - ImGui::GetTextLineHeight() - 4),
                  c.f.theme.palette.cellText, pick->c_str());
}

float frameWidth(const Board& b, float most) { return std::min(most, std::min(b.w, b.h) / 6); }

// ---- N --------------------------------------------------------------------------------

void drawN(const Ctx& c, const Board& b)
{
    const Palette& pal = c.f.theme.palette;
    const sim::ConvGeometry& g = c.v.geo;
    const bool heat = c.f.view.heatmap;
    for (int r = b.row0; r < b.row0 + b.rows; ++r)
        for (int col = b.col0; col < b.col0 + b.cols; ++col) {
            const sim::ConvRole role = g.role(r, col);
            const bool inside = g.insideN(r, col);
            if (!inside && role != sim::ConvRole::Ghost) continue;   // nothing lies there
            const ImVec2 a = b.at(r, col), z(a.x + b.w - 1, a.y + b.h - 1);
            const sim::ConvUse* u = c.v.use(r, col);
            ImU32 fill = roleColour(pal, role);
            if (heat && inside) fill = u ? heatColour(static_cast<float>(u->uses()) / c.heatMax) : heatColour(0);
            if (!inside) fill = (fill & 0x00FFFFFF) | 0xA0000000u;
            c.dl->AddRectFilled(a, z, fill);
            if (!inside) {   // ghost cells: a dashed look, outside N's edge
                for (float x = a.x + 3; x < z.x; x += 6) c.dl->AddLine(ImVec2(x, a.y), ImVec2(x, a.y + 2), pal.grid);
            }
            std::string text;
            if (!inside) text = "0";
            else if (heat && u) text = std::to_string(u->uses());
            else text = cellValue(c.s.N[static_cast<size_t>(r) * g.width + col], true);
            if (b.w >= (heat || !inside ? 22 : 50) * c.f.theme.scale)
                centredText(c.dl, c.f.theme.fonts.cell, a, z, textOn(fill), text);
            // Loaded by the cursor step: from global memory, or a ghost slot zero-filled now.
            bool loadedNow = false, readNow = false;
            if (inside) loadedNow = c.f.replay.element(c.v.nArray, r * g.width + col).readNow;
            if (const sim::ConvSlot* sl = c.v.slotFor(r, col)) {
                const sim::SlotView& sv = c.f.replay.slots[c.v.ndsArray][sl->slot];
                loadedNow = loadedNow || (sv.writtenNow && !inside);
                readNow = sv.readNow;
            }
            if (loadedNow) stepFrame(c.dl, a, z, pal, 0, frameWidth(b, 4));
            if (readNow) {
                const float in = frameWidth(b, 5);
                stepFrame(c.dl, ImVec2(a.x + in, a.y + in), ImVec2(z.x - in, z.y - in), pal, 2, frameWidth(b, 2.5f));
            }
        }
    // N's edges, so that ghost cells read as lying outside it.
    const ImVec2 e0 = b.at(std::max(0, b.row0), std::max(0, b.col0));
    const ImVec2 e1 = b.at(std::min(g.height, b.row0 + b.rows), std::min(g.width, b.col0 + b.cols));
    c.dl->AddRect(ImVec2(e0.x - 1, e0.y - 1), e1, IM_COL32(200, 205, 215, 200), 0, 0, 1.5f);
    // The selected thread's window: the input elements its output needs.
    int pr, pc;
    if (outputOf(c, c.f.view.thread, pr, pc)) {
        const int n = g.n;
        const ImVec2 a = b.at(g.twoD ? pr - n : 0, pc - n), z = b.at(g.twoD ? pr + n + 1 : 1, pc + n + 1);
        c.dl->AddRect(ImVec2(a.x - 1, a.y - 1), ImVec2(z.x, z.y), c.f.theme.palette.selected, 2, 0, 2.0f);
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

// ---- N_ds ---------------------------------------------------------------------------------

/// N_ds, slot (sr, sc) drawn at board cell (sr, sc) of `b` (1D: under the N element it holds).
void drawNds(const Ctx& c, const Board& b, bool underN)
{
    const Palette& pal = c.f.theme.palette;
    const sim::ConvGeometry& g = c.v.geo;
    const int ndsCols = c.s.arrays[c.v.ndsArray].cols;
    for (const sim::ConvSlot& sl : c.v.slots) {
        const sim::SlotView& sv = c.f.replay.slots[c.v.ndsArray][sl.slot];
        const int r = g.twoD ? sl.slot / ndsCols : 0, col = underN ? sl.col : sl.slot % ndsCols;
        const ImVec2 a = b.at(r, col), z(a.x + b.w - 1, a.y + b.h - 1);
        const ImU32 fill = sv.written ? roleColour(pal, sl.role) : pal.cell;
        c.dl->AddRectFilled(a, z, fill);
        if (sv.written) {
            const int bdx = static_cast<int>(c.s.trace.blockDim.x);
            const std::string who = g.twoD ? std::to_string(sv.writer / bdx) + "," + std::to_string(sv.writer % bdx)
                                           : std::string("t").append(std::to_string(sv.writer));
            // Every label or none: "11,11" is the widest in 2D.
            ImFont* font = c.f.theme.fonts.cell;
            if (font->CalcTextSizeA(font->FontSize, 1e9f, 0, g.twoD ? "11,11" : "t00").x <= b.w - 4)
                centredText(c.dl, font, a, z, textOn(fill), who);
        }
        if (sv.writtenNow) stepFrame(c.dl, a, z, pal, 0, frameWidth(b, 4));
        if (sv.readNow) {
            const float in = frameWidth(b, 5);
            stepFrame(c.dl, ImVec2(a.x + in, a.y + in), ImVec2(z.x - in, z.y - in), pal, 2, frameWidth(b, 2.5f));
        }
    }
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
    for (int r = 0; r < b.rows; ++r)
        for (int col = 0; col < b.cols; ++col) {
            const int idx = r * mw + col;
            const ImVec2 a = b.at(r, col), z(a.x + b.w - 1, a.y + b.h - 1);
            const bool now = std::find(c.maskNow.begin(), c.maskNow.end(), idx) != c.maskNow.end();
            const ImU32 fill = c.maskSoFar[idx] ? IM_COL32(86, 90, 110, 255) : pal.cell;
            c.dl->AddRectFilled(a, z, fill);
            centredText(c.dl, c.f.theme.fonts.cell, a, z, textOn(fill), cellValue(c.s.M[idx], b.w < 52));
            if (now) stepFrame(c.dl, a, z, pal, 0, frameWidth(b, 4));
        }
}

void drawP(const Ctx& c, const Board& b)
{
    const Palette& pal = c.f.theme.palette;
    const sim::ConvGeometry& g = c.v.geo;
    for (int r = std::max(0, b.row0); r < std::min(g.height, b.row0 + b.rows); ++r)
        for (int col = std::max(0, b.col0); col < std::min(g.width, b.col0 + b.cols); ++col) {
            const int32_t idx = r * g.width + col;
            const sim::ElementView& e = c.f.replay.element(c.v.pArray, idx);
            const ImVec2 a = b.at(r, col), z(a.x + b.w - 1, a.y + b.h - 1);
            const ImU32 fill = e.stored ? pal.finished : pal.cell;
            c.dl->AddRectFilled(a, z, fill);
            if (e.stored && b.w >= 22) centredText(c.dl, c.f.theme.fonts.cell, a, z, textOn(fill), cellValue(e.storedValue, true));
            if (isSelected(c, r, col)) {
                const float d = std::min(10.0f, b.w / 3);
                c.dl->AddTriangleFilled(a, ImVec2(a.x + d, a.y), ImVec2(a.x, a.y + d), pal.selected);
            }
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

// ---- stats and legend ---------------------------------------------------------------------

void stats(const Ctx& c)
{
    const sim::ConvLoads& l = c.v.loads;
    const sim::Totals& now = c.f.replay.soFar;
    const sim::Uint3 b = c.s.trace.block;
    const std::string blockName = c.v.geo.twoD ? "block (" + std::to_string(b.x) + ", " + std::to_string(b.y) + ")"
                                               : "block " + std::to_string(b.x);
    const sim::KernelInfo* info = sim::findKernel(c.s.scenario.kernel);
    const std::string basic = info && info->untiled ? info->untiled : c.s.scenario.kernel;
    if (c.f.view.presentation) {
        // A slide: the block's loads so far and in all, and the reduction with its formula.
        // The formula with the numbers put in, without its names (the desk has both).
        const size_t eq = l.formulaText.find(" = ");
        const std::string formula = eq == std::string::npos ? l.formulaText : l.formulaText.substr(eq + 3);
        ImGui::TextWrapped("%s: %llu global loads so far, %llu in all; %s: %llu, %.2f\u00d7 as many (simulated). "
                           "Formula: %s%s",
                           blockName.c_str(), static_cast<unsigned long long>(now.global_loads),
                           static_cast<unsigned long long>(l.block.global_loads), basic.c_str(),
                           static_cast<unsigned long long>(l.untiled), l.reduction, formula.c_str(),
                           l.formula ? "" : " (not this kernel's)");
        return;
    }
    const ImGuiTableFlags tf = ImGuiTableFlags_BordersInnerH | ImGuiTableFlags_RowBg | ImGuiTableFlags_SizingFixedFit;
    if (ImGui::BeginTable("convloads", 4, tf)) {
        ImGui::TableSetupColumn(blockName.c_str());
        ImGui::TableSetupColumn("global");
        ImGui::TableSetupColumn("shared");
        ImGui::TableSetupColumn("constant");
        ImGui::TableHeadersRow();
        auto row = [](const char* what, const sim::Totals& t) {
            ImGui::TableNextRow();
            ImGui::TableNextColumn();
            ImGui::TextUnformatted(what);
            for (uint64_t n : {t.global_loads, t.shared_loads, t.constant_loads}) {
                ImGui::TableNextColumn();
                ImGui::Text("%llu", static_cast<unsigned long long>(n));
            }
        };
        row("loads up to this step", now);
        row("loads, whole kernel", l.block);
        ImGui::EndTable();
    }
    tooltip("Element reads by the traced block (simulated): N from global memory, N_ds from shared memory, "
            "the mask M from constant memory.");
    ImGui::TextWrapped("%s: %llu global loads for the same outputs; reduction %llu / %llu = %.2f (simulated)", basic.c_str(),
                static_cast<unsigned long long>(l.untiled), static_cast<unsigned long long>(l.untiled),
                static_cast<unsigned long long>(l.block.global_loads), l.reduction);
    tooltip("The basic kernel reads every in-range element of each output's window from global memory; "
            "ghost elements it skips (ghost cells, PMPP sec. 7.1).");
    ImGui::TextWrapped("Formula (PMPP ch. 7): %s%s", l.formulaText.c_str(), l.formula ? "" : " (not this kernel's)");
    if (!l.note.empty()) colouredText(c.f.theme.palette.dimText, l.note);
}

void legend(const Ctx& c)
{
    const Palette& pal = c.f.theme.palette;
    if (c.f.view.heatmap) {
        heatLegend("uses by the block's threads:", c.heatMax);
    } else {
        legendItem(kInternal, "internal", "In the traced block's output tile: the elements it owns (tiled convolution, PMPP sec. 7.4).", Swatch::Fill, true);
        legendItem(kHalo, "halo", "Outside the output tile but reached by the mask: the block loads them too (halo cells, PMPP sec. 7.4).");
    }
    legendItem(pal.zeroFill, "ghost cell", "Outside N (index < 0 or >= width): no element; the tiled kernel stores 0 in N_ds, "
                                           "the basic kernel skips it. Drawn outside N's white edge.", Swatch::Fill, c.f.view.heatmap);
    legendItem(pal.readNow, "loaded this step", "Read from global memory (or a ghost slot zero-filled) by the cursor step: yellow frame. "
                                                "An inner frame: read through N_ds, or M read from constant memory.", Swatch::Frame);
    legendItem(pal.finished, "P finished", "P element stored by the traced block.");
    legendItem(pal.selected, "thread's window", "White: the block's output tile in P and the selected thread's mask window in N.", Swatch::Frame);
}

/// The first and last index (exclusive) of N to draw along one dimension: all of N with the
/// block's ghost cells when it fits at kMinCell pixels, else the block's neighbourhood.
void extent(int size, int in0, int inLen, int tile, float pixels, int& first, int& count)
{
    first = std::min(0, in0);
    count = std::max(size, in0 + inLen) - first;
    if (pixels / count >= kMinCell) return;
    first = std::max(first, in0 - tile);
    count = std::min(std::max(size, in0 + inLen), in0 + inLen + tile) - first;
}

/// The canvas's height for the panel's width (elasticHeight()): in 1D the rows of N, N_ds, M
/// and P, whose cells the width sizes; in 2D N takes up to half the width and as much
/// height, and shrinks with less.
float canvasHeight(const Ctx& c)
{
    const sim::ConvGeometry& g = c.v.geo;
    const float lbl = ImGui::GetTextLineHeight() + 8;
    const float width = ImGui::GetContentRegionAvail().x;
    const float scale = c.f.theme.scale;
    if (!g.twoD) {
        int first, count;
        extent(g.width, g.inCol0, g.inCols, g.tile, width - 8, first, count);
        const float w = std::min(64.0f * scale, (width - 8) / count);
        const float h = std::clamp(w * 1.4f, 26.0f * scale, 52.0f * scale);
        const float mw = std::min(72.0f * scale, (width - 8) / g.maskWidth);
        const float rest = 5 * lbl + std::clamp(mw, 30.0f * scale, 40.0f * scale) + 22 + 2;
        return elasticHeight(rest + 3 * 26.0f * scale, rest + 3 * h);
    }
    const float want = width * 0.5f + lbl + 16;
    return elasticHeight(std::min(want, scaled(240)), want);
}

void canvas(Ctx& c)
{
    const sim::ConvGeometry& g = c.v.geo;
    const float lbl = ImGui::GetTextLineHeight() + 8;
    const ImVec2 avail = ImGui::GetContentRegionAvail();
    const ImVec2 o = ImGui::GetCursorScreenPos();
    const float scale = c.f.theme.scale;
    const ImVec2 mouse = ImGui::GetIO().MousePos;
    const bool hovered = ImGui::IsWindowHovered();
    int hr, hc;
    Board N, P, M, Nds;
    std::string nText = "N: input, " + (g.twoD ? std::to_string(g.height) + " x " + std::to_string(g.width)
                                               : std::to_string(g.width) + " elements");
    if (!g.twoD) {
        int first, count;
        extent(g.width, g.inCol0, g.inCols, g.tile, avail.x - 8, first, count);
        const float w = std::min(64.0f * scale, (avail.x - 8) / count);
        const float mw = std::min(72.0f * scale, (avail.x - 8) / g.maskWidth);
        const float mh = std::clamp(mw, 30.0f * scale, 40.0f * scale);
        // Rows as tall as the canvas allows, between 26 and 52 px (at 1x).
        const float h = std::clamp(std::min(w * 1.4f, (avail.y - 5 * lbl - mh - 24) / 3), 26.0f * scale, 52.0f * scale);
        N = Board{ImVec2(o.x + 4, o.y + lbl), w, h, 0, first, 1, count};
        Nds = Board{ImVec2(N.origin.x, N.origin.y + h + 2 * lbl + 6), w, h, 0, first, 1, count};
        M = Board{ImVec2(o.x + 4, Nds.origin.y + h + lbl + 6), mw, mh, 0, 0, 1, g.maskWidth};
        P = Board{ImVec2(N.origin.x, M.origin.y + M.h + lbl + 6), w, h, 0, first, 1, count};
        if (first > std::min(0, g.inCol0) || first + count < std::max(g.width, g.inCol0 + g.inCols))
            nText += " (showing N[" + std::to_string(first) + "..." + std::to_string(first + count - 1) + "])";
        // Index labels under N, as many as fit.
        const int every = std::max(1, static_cast<int>(std::ceil(ImGui::CalcTextSize("-000").x / w)));
        for (int col = first; col < first + count; ++col)
            if (col % every == 0) {
                const std::string t = std::to_string(col);
                const ImVec2 a = N.at(1, col);
                c.dl->AddText(ImVec2(a.x + (w - ImGui::CalcTextSize(t.c_str()).x) * 0.5f, a.y + 2),
                              c.f.theme.palette.dimText, t.c_str());
            }
    } else {
        int r0, rn, c0, cn;
        const float side = std::min(avail.x * 0.5f, avail.y - lbl - 8);
        extent(g.height, g.inRow0, g.inRows, g.tile, side, r0, rn);
        extent(g.width, g.inCol0, g.inCols, g.tile, side, c0, cn);
        const float cell = std::min(48.0f * scale, side / std::max(rn, cn));
        N = Board{ImVec2(o.x + 4, o.y + lbl), cell, cell, r0, c0, rn, cn};
        const float x1 = o.x + 4 + cn * cell + scaled(20), rightW = o.x + avail.x - 8 - x1;
        const int ndsN = c.v.ndsArray >= 0 ? g.inCols : 0;
        const float ndsCell = ndsN ? std::min(rightW / ndsN, (avail.y - 2 * lbl - 16) * 0.6f / ndsN) : 0;
        Nds = Board{ImVec2(x1, o.y + lbl), ndsCell, ndsCell, 0, 0, ndsN, ndsN};
        const float y2 = Nds.origin.y + ndsN * ndsCell + lbl + 8, h2 = o.y + avail.y - 8 - y2;
        const float mCell = std::min({58.0f * scale, h2 / g.maskWidth, rightW * 0.4f / g.maskWidth});
        M = Board{ImVec2(x1, y2), mCell, mCell, 0, 0, g.maskWidth, g.maskWidth};
        // P starts after the mask or after the mask's label, whichever is wider.
        const ImFont* bold = c.f.theme.fonts.bold;
        const float maskLabel = bold->CalcTextSizeA(bold->FontSize, 1e9f, 0, "Mc: mask").x;
        const float px = x1 + std::max(g.maskWidth * mCell, maskLabel) + scaled(20);
        const float pCell = std::min((o.x + avail.x - 8 - px) / cn, h2 / rn);
        P = Board{ImVec2(px, y2), pCell, pCell, r0, c0, rn, cn};
        const int fullRows = std::max(g.height, g.inRow0 + g.inRows) - std::min(0, g.inRow0);
        const int fullCols = std::max(g.width, g.inCol0 + g.inCols) - std::min(0, g.inCol0);
        if (rn < fullRows || cn < fullCols)
            nText += " (showing rows " + std::to_string(r0) + "..." + std::to_string(r0 + rn - 1) + ", cols " +
                     std::to_string(c0) + "..." + std::to_string(c0 + cn - 1) + ")";
    }
    drawN(c, N);
    // In 2D, N's label stops where N_ds begins, and the mask's where P begins.
    boardLabel(c, N, {nText, "N: input", "N"}, g.twoD && c.v.ndsArray >= 0 ? Nds.origin.x - scaled(8) : 0.0f);
    if (c.v.ndsArray >= 0) {
        drawNds(c, Nds, !g.twoD);
        const std::string size = std::to_string(g.inRows) + " x " + std::to_string(g.inCols);
        if (g.twoD)
            boardLabel(c, Nds, {"N_ds: " + size + " slots (hover: loader)", "N_ds: " + size, "N_ds"});
        else
            boardLabel(c, Nds, {"N_ds: " + std::to_string(c.v.slots.size()) +
                                    " slots, under the element each holds (tN: tx of the thread that loaded it)",
                                "N_ds (tN: tx of its loader)", "N_ds"});
    }
    drawM(c, M);
    if (g.twoD) boardLabel(c, M, {"Mc: mask", "Mc"}, P.origin.x - scaled(8));
    else boardLabel(c, M, {"M: mask in constant memory", "M: mask", "M"});
    drawP(c, P);
    boardLabel(c, P, {"P: output", "P"});
    ImGui::Dummy(ImVec2(avail.x - 8, std::max(N.end().y, P.end().y) - o.y + 4));
    if (!hovered) return;
    if (N.hit(mouse, hr, hc) && (g.insideN(hr, hc) || g.role(hr, hc) == sim::ConvRole::Ghost)) tooltipN(c, hr, hc);
    if (c.v.ndsArray >= 0 && Nds.hit(mouse, hr, hc)) {
        const int ndsCols = c.s.arrays[c.v.ndsArray].cols;
        for (const sim::ConvSlot& sl : c.v.slots)
            if (g.twoD ? sl.slot == hr * ndsCols + hc : sl.col == hc) tooltipSlot(c, sl);
    }
    if (M.hit(mouse, hr, hc)) {
        const int idx = hr * g.maskWidth + hc;
        ImGui::SetTooltip("%s[%d%s] = %.6g in constant memory; read %d time%s by the block so far",
                          g.twoD ? "Mc" : "M", g.twoD ? hr : hc, g.twoD ? ("][" + std::to_string(hc)).c_str() : "",
                          c.s.M[idx], c.maskSoFar[idx], c.maskSoFar[idx] == 1 ? "" : "s");
    }
    if (P.hit(mouse, hr, hc)) interactP(c, hr, hc);
}

/// The panel, shown only while a convolution is loaded; it keeps the loaded simulation's
/// ConvView (roles, N_ds slots, uses), made once per simulation.
struct ConvPanel final : Panel {
    void draw(Frame& f) override;

private:
    uint64_t generation_ = ~0ull;          ///< Loaded::generation that view_ belongs to
    std::optional<sim::ConvView> view_;
};

}  // namespace

void ConvPanel::draw(Frame& f)
{
    const sim::Simulation* s = f.loaded.sim.get();
    if (!s || sim::familyOf(s->scenario) == sim::Family::Matmul) return;
    if (generation_ != f.loaded.generation) {
        generation_ = f.loaded.generation;
        view_ = s->trace.steps.empty() ? std::nullopt : std::optional<sim::ConvView>(sim::convView(*s));
    }
    std::optional<sim::ConvView>& view = view_;
    if (beginPanel(f, id)) {
        if (!view) {
            ImGui::TextUnformatted(f.busy.simulating ? "Simulating..." : "Nothing to show.");
        } else {
            Ctx c{f, *s, *view, ImGui::GetWindowDrawList(), {}, {}, 1};
            c.maskSoFar.assign(s->M.size(), 0);
            const sim::Trace& t = s->trace;
            for (int st = 0; st <= f.view.cursor && st < static_cast<int>(t.steps.size()); ++st)
                for (int i = t.steps[st].begin; i < t.steps[st].end; ++i) {
                    const sim::Event& e = t.events[i];
                    if (e.op != sim::Op::ConstantLoad || static_cast<int>(e.array) != view->mArray) continue;
                    ++c.maskSoFar[e.index];
                    if (st == f.view.cursor) c.maskNow.push_back(e.index);
                }
            for (const sim::ConvUse& u : view->uses) c.heatMax = std::max(c.heatMax, u.uses());
            stats(c);
            ImGui::Separator();
            ImGui::Checkbox("heatmap", &f.view.heatmap);
            tooltip("Colour N by how many threads of the traced block use each element (data reuse in N_ds, "
                    "PMPP sec. 7.4); hover an element for the list.");
            ImGui::SameLine(0, scaled(20));
            legend(c);
            ImGui::BeginChild("convcanvas", ImVec2(0, canvasHeight(c)), false, ImGuiWindowFlags_HorizontalScrollbar);
            c.dl = ImGui::GetWindowDrawList();
            canvas(c);
            ImGui::EndChild();
        }
    }
    ImGui::End();
}

std::unique_ptr<Panel> makeConvPanel() { return std::make_unique<ConvPanel>(); }

}  // namespace ts::app
