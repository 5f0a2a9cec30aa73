// Convolution (PMPP ch. 7): the input N with the traced block's internal, halo and ghost
// cells, N_ds with the thread that loaded each slot, the mask M in constant memory and the
// output P, at the cursor; per-element use counts on hover ("N[5] is used by threads 4, 5,
// 6, 7 (4X)") and as a heatmap; the block's loads beside the textbook's reduction formula.
// Shown in place of the Matrices panel when a convolution kernel is loaded. Large inputs
// are shown as the block's neighbourhood, with an overview of the whole N and P above it
// (1D: strips, 2D: squares) drawn by the heatmap shaders (heatmap.hpp), or in a few hundred
// bins without them; a white frame on the overview marks where the close-up lies.
#include <imgui.h>

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstring>
#include <initializer_list>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "cell_canvas.hpp"
#include "conv_fit.hpp"
#include "figure_notes.hpp"
#include "heatmap.hpp"
#include "layout.hpp"
#include "meanings.hpp"
#include "panels.hpp"
#include "sim/catalogue/problem_desc.hpp"
#include "sim/teaching/conv_view.hpp"
#include "widgets.hpp"

namespace ts::app {
namespace {

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

ImU32 roleColour(const Palette& pal, sim::ConvRole r)
{
    switch (r) {
    // One colour a meaning (meanings.hpp), as in the Shared memory panel's N_ds.
    case sim::ConvRole::Internal: return colourOf(Meaning::Internal, pal);
    case sim::ConvRole::Halo: return colourOf(Meaning::Halo, pal);
    case sim::ConvRole::Ghost: return colourOf(Meaning::ZeroFill, pal);
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

/// Practice mode: what a click on P element (row, col) answers. The thread that computes it
/// (ty, tx) while a question asks for threads and the element is the block's, else the
/// element itself.
CellRef practicePCell(const Ctx& c, int row, int col)
{
    const sim::ConvGeometry& g = c.v.geo;
    const Practice& p = c.f.view.practice;
    const bool threads = p.question && answerArray(*p.question, c.s.scenario) == "thread";
    if (threads && row >= g.outRow0 && row < g.outRow0 + g.outRows && col >= g.outCol0 && col < g.outCol0 + g.outCols)
        return CellRef{"thread", sim::Cell{row - g.outRow0, col - g.outCol0}};
    return CellRef{"P", sim::Cell{row, col}};
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

float frameWidth(const Board& b, float most) { return std::min(most, b.side() / 6); }

// ---- N --------------------------------------------------------------------------------

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

// ---- stats and legend ---------------------------------------------------------------------

void stats(const Ctx& c)
{
    const sim::ConvLoads& l = c.v.loads;
    const sim::Totals& now = c.f.replay.soFar;
    const sim::Uint3 b = c.s.trace.block;
    const std::string blockName = c.v.geo.twoD ? "block (" + std::to_string(b.x) + ", " + std::to_string(b.y) + ")"
                                               : "block " + std::to_string(b.x);
    const sim::KernelInfo* info = c.s.scenario.kernelInfo();
    const std::string basic = info && info->untiled ? info->untiled : c.s.scenario.kernel;
    // The block's loads so far and in all, and the reduction with its formula with the
    // numbers put in, in one paragraph, so that the figure keeps the panel's room; at the
    // desk the formula with its names, the table of loads and the kernel's note on hover.
    const size_t eq = l.formulaText.find(" = ");
    const std::string formula = eq == std::string::npos ? l.formulaText : l.formulaText.substr(eq + 3);
    // A slide says it in two lines: "N of M global loads", the formula without the numbers it
    // gives (said before it), and not "simulated", which the desk says (a third line there
    // left the figure under 70% of the panel at 1920x1080).
    if (c.f.view.presentation) {
        const size_t tail = formula.find(" = ");
        ImGui::TextWrapped("%s: %llu of %llu global loads; %s: %llu, %.2f\u00d7 as many: %s%s", blockName.c_str(),
                           static_cast<unsigned long long>(now.global_loads),
                           static_cast<unsigned long long>(l.block.global_loads), basic.c_str(),
                           static_cast<unsigned long long>(l.untiled), l.reduction, formula.substr(0, tail).c_str(),
                           l.formula ? "" : " (not this kernel's)");
        return;
    }
    ImGui::TextWrapped("%s: %llu global loads so far, %llu in all; %s: %llu, %.2f\u00d7 as many (simulated): %s%s",
                       blockName.c_str(),
                       static_cast<unsigned long long>(now.global_loads), static_cast<unsigned long long>(l.block.global_loads),
                       basic.c_str(), static_cast<unsigned long long>(l.untiled), l.reduction, formula.c_str(),
                       l.formula ? "" : " (not this kernel's)");
    if (ImGui::IsItemHovered()) {
        ImGui::BeginTooltip();
        ImGui::Text("Formula (PMPP ch. 7): %s%s", l.formulaText.c_str(), l.formula ? "" : " (not this kernel's)");
        ImGui::Text("%s: %llu global loads for the same outputs (simulated)", basic.c_str(),
                    static_cast<unsigned long long>(l.untiled));
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
        ImGui::TextUnformatted("Element reads by the traced block (simulated): N from global memory, N_ds from shared\n"
                               "memory, the mask M from constant memory. The basic kernel reads every in-range element\n"
                               "of each output's window from global memory; ghost elements it skips (PMPP sec. 7.1).");
        if (!l.note.empty()) {
            ImGui::PushTextWrapPos(ImGui::GetFontSize() * 36);
            colouredText(c.f.theme.palette.dimText, l.note);
            ImGui::PopTextWrapPos();
        }
        ImGui::EndTooltip();
    }
}

/// The legend: the table's entries for what this block's figure holds (meanings.hpp).
void legend(const Ctx& c)
{
    bool first = true;
    auto entry = [&](Meaning m, const char* more = nullptr) {
        legendEntry(m, first, more);
        first = false;
    };
    auto has = [&](sim::ConvRole r) {
        return std::any_of(c.v.uses.begin(), c.v.uses.end(), [r](const sim::ConvUse& u) { return u.role == r; });
    };
    if (c.f.view.heatmap) {
        heatLegend("uses by the block's threads:", c.heatMax);
        first = false;
    } else {
        entry(Meaning::Internal, c.v.slots.empty() ? nullptr : "The same blue in N_ds (Shared memory panel).");
        if (has(sim::ConvRole::Halo)) entry(Meaning::Halo, "The same colour in N_ds (Shared memory panel).");
    }
    if (has(sim::ConvRole::Ghost))
        entry(Meaning::ZeroFill, c.v.slots.empty() ? "The basic kernel skips them; drawn outside N's edge."
                                                   : "The tiled kernel stores 0 in N_ds; drawn outside N's edge.");
    entry(Meaning::ThisStep, "Here: read from global memory (or a ghost slot zero-filled) by the cursor step; an inner "
                             "frame: read through N_ds, or M read from constant memory.");
    if (contentsOf(c.s.trace, c.f.loaded.generation).stores) entry(Meaning::Finished);
    entry(Meaning::Selected, "Here also a frame round the block's output tile in P and the selected thread's mask "
                             "window in N.");
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

// ---- the overview of the whole N and P (large inputs) ---------------------------------

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

/// Whether P element `idx` as shown at the cursor differs from the CPU reference, bit for
/// bit: the traced block's elements once stored, the others' final values.
bool wrongP(const Ctx& c, int32_t idx, const sim::ElementView* e, bool inBlock)
{
    if (inBlock && !(e && e->stored)) return false;
    const float v = e && e->stored ? e->storedValue : c.s.P[idx];
    return static_cast<size_t>(idx) < c.s.reference.size() && std::memcmp(&v, &c.s.reference[idx], sizeof v) != 0;
}

/// Whether (row, col) of P is one of the traced block's outputs.
bool inBlockP(const sim::ConvGeometry& g, int row, int col)
{
    return row >= g.outRow0 && row < g.outRow0 + g.outRows && col >= g.outCol0 && col < g.outCol0 + g.outCols;
}

/// The flags (HeatFlag per element, row-major, height x width) of N or P at the cursor. N:
/// what the traced block loaded (this phase, this step, earlier) and what sits in N_ds, an
/// element read through its N_ds slot by this step counting as read now. P: the block's
/// outputs, stored ones, and elements that differ from the CPU reference.
std::vector<uint8_t> overviewFlags(const Ctx& c, bool isP, OverviewImage& oi)
{
    const sim::ConvGeometry& g = c.v.geo;
    const size_t n = static_cast<size_t>(g.height) * g.width;
    std::vector<uint8_t> flags;
    if (isP)
        flags = pBaseFlags(oi, c.f.loaded.generation, g.height, g.width,
                           sim::TileRect{g.outRow0, g.outCol0, g.outRows, g.outCols}, c.s.matchesReference,
                           [&](int32_t idx) { return wrongP(c, idx, nullptr, false); });
    else
        flags.assign(n, 0);
    WrongAtCursor wrong;
    if (isP)
        wrong = [&](int32_t idx, const sim::ElementView& e, uint8_t b) {
            return wrongP(c, idx, &e, (b & kInBlock) != 0);
        };
    addReplayFlags(flags, c.f.replay.elements[isP ? c.v.pArray : c.v.nArray], true, wrong);
    if (!isP && c.v.ndsArray >= 0)
        for (const sim::SlotView& sv : c.f.replay.slots[c.v.ndsArray])
            if (sv.readNow && sv.sourceArray == c.v.nArray && sv.sourceIndex >= 0 && static_cast<size_t>(sv.sourceIndex) < n)
                flags[sv.sourceIndex] |= kReadNow;
    return flags;
}

/// Level `level` of a pyramid of `rows` x `cols` elements, its row repeated `repeat` times
/// (1D strips; `rows` is then 1).
template <class T>
std::vector<T> texels(const std::vector<std::vector<T>>& pyramid, int level, int repeat)
{
    const std::vector<T>& row = pyramid[std::min<size_t>(level, pyramid.size() - 1)];
    std::vector<T> out;
    out.reserve(row.size() * repeat);
    for (int i = 0; i < repeat; ++i) out.insert(out.end(), row.begin(), row.end());
    return out;
}

int log2Of(int powerOfTwo)
{
    int l = 0;
    while ((1 << l) < powerOfTwo) ++l;
    return l;
}

/// Draws overview `p` through the heatmap shaders. Returns false when the GPU cannot draw it
/// (the caller draws bins instead); `why` then says why.
bool drawOverviewGpu(const Ctx& c, const Overview& p, OverviewImage& oi, HeatmapRenderer& renderer, std::string& why)
{
    const sim::ConvGeometry& g = c.v.geo;
    const float fb = framebufferScale();
    const int wPx = std::max(1, static_cast<int>(std::lround(p.w * fb)));
    const int hPx = std::max(1, static_cast<int>(std::lround(p.h * fb)));
    // 1D: about one texel per pixel across, repeated down the strip.
    int factor = 1, repeat = 1;
    if (!g.twoD) {
        while (g.width / (factor * 2) >= wPx) factor *= 2;
        const int texCols = (g.width + factor - 1) / factor;
        repeat = std::max(1, static_cast<int>(std::ceil(hPx / (static_cast<float>(wPx) / texCols))));
    } else {
        factor = oi.factor;   // 1 unless the driver refused the whole array before
    }
    const uint64_t gen = c.f.loaded.generation;
    const int texCols0 = (g.width + factor - 1) / factor;
    if (oi.flagsStale(g.twoD ? (g.height + factor - 1) / factor : repeat, texCols0, gen, c.f.view.cursor) ||
        oi.factor != factor || oi.repeat != repeat) {
        const std::vector<uint8_t> flags = overviewFlags(c, p.isP, oi);
        std::vector<std::vector<uint8_t>> pyramid;
        for (;;) {
            const int texRows = g.twoD ? (g.height + factor - 1) / factor : repeat;
            const int texCols = (g.width + factor - 1) / factor;
            bool ok;
            if (factor == 1 && repeat == 1) {
                ok = oi.image.setFlags(texRows, texCols, flags);
            } else {
                if (pyramid.empty()) pyramid = flagPyramid(flags, g.twoD ? g.height : 1, g.width);
                ok = oi.image.setFlags(texRows, texCols, texels(pyramid, log2Of(factor), repeat));
            }
            if (ok) break;
            if (!g.twoD || factor >= (1 << 10)) {
                why = "an array of " + std::to_string(g.height) + " x " + std::to_string(g.width) +
                      " elements is larger than the OpenGL driver's largest texture";
                return false;
            }
            factor *= 2;   // a smaller picture of the same array
        }
        if (oi.factor != factor || oi.repeat != repeat) oi.scalarGeneration = ~0ull;
        oi.factor = factor;
        oi.repeat = repeat;
        oi.flagsUploaded(gen, c.f.view.cursor);
    }
    const HeatMode mode = c.f.view.heatmap && !p.isP ? HeatMode::Loads : HeatMode::State;
    if (mode == HeatMode::Loads && oi.scalarGeneration != gen) {
        const std::vector<uint32_t>& n = c.s.counters.elementLoads[c.v.nArray];
        std::vector<float> v(n.begin(), n.end());
        v.resize(static_cast<size_t>(g.height) * g.width, 0.0f);
        if (factor == 1 && repeat == 1) oi.image.setScalars(v, true);
        else oi.image.setScalars(texels(scalarPyramid(v, g.twoD ? g.height : 1, g.width, true), log2Of(factor), repeat), true);
        oi.scalarGeneration = gen;
    }
    HeatView v;
    // 1D: square texels across the strip, repeated down it.
    const float across1D = static_cast<float>(wPx) / ((g.width + factor - 1) / factor);
    v.cellW = g.twoD ? p.cellW() * fb * factor : across1D;
    v.cellH = g.twoD ? p.cellH() * fb * factor : across1D;
    v.width = wPx;
    v.height = hPx;
    v.mode = mode;
    v.isP = p.isP;
    v.lo = 0;
    v.hi = static_cast<float>(c.ov->loadsMax);
    return showHeatPicture(c.dl, renderer, oi.image, v, c.f.theme.palette, p.origin,
                           ImVec2(p.origin.x + wPx / fb, p.origin.y + hPx / fb), why);
}

/// Draws overview `p` in bins of many elements with ImGui rectangles (at most 14 x 14 in 2D,
/// 128 in 1D), each showing the most telling state of its elements, or the most global loads
/// of one of them with the heatmap on; never a rectangle per element.
void drawOverviewBins(const Ctx& c, const Overview& p, OverviewBins& bins)
{
    const Palette& pal = c.f.theme.palette;
    const sim::ConvGeometry& g = c.v.geo;
    const int br = std::min(p.rows, g.twoD ? 14 : 1), bc = std::min(p.cols, g.twoD ? 14 : 128);
    auto binOf = [&](int32_t idx) {
        const long long r = idx / g.width, col = idx % g.width;
        return static_cast<size_t>(r * br / p.rows * bc + col * bc / p.cols);
    };
    if (bins.generation != c.f.loaded.generation || bins.rows != br || bins.cols != bc) {
        bins = OverviewBins{c.f.loaded.generation, br, bc, {}, {}};
        bins.loads.assign(static_cast<size_t>(br) * bc, 0);
        bins.wrong.assign(bins.loads.size(), 0);
        if (p.isP) {
            if (!c.s.matchesReference)
                for (int32_t idx = 0; idx < g.height * g.width; ++idx)
                    if (!inBlockP(g, idx / g.width, idx % g.width) && wrongP(c, idx, nullptr, false)) bins.wrong[binOf(idx)] = 1;
        } else {
            const std::vector<uint32_t>& n = c.s.counters.elementLoads[c.v.nArray];
            for (size_t i = 0; i < n.size(); ++i) {
                uint32_t& m = bins.loads[binOf(static_cast<int32_t>(i))];
                m = std::max(m, n[i]);
            }
        }
    }
    const bool heat = c.f.view.heatmap && !p.isP;
    std::vector<ImU32> colour(bins.loads.size(), pal.cell);
    std::vector<int> prio(colour.size(), 0);
    std::vector<uint8_t> now(colour.size(), 0);
    for (size_t b = 0; b < colour.size(); ++b) {
        if (heat) colour[b] = heatColour(static_cast<float>(bins.loads[b]) / static_cast<float>(c.ov->loadsMax));
        if (bins.wrong[b]) {
            prio[b] = 5;
            colour[b] = pal.error;
        }
    }
    for (const auto& [idx, e] : c.f.replay.elements[p.isP ? c.v.pArray : c.v.nArray]) {
        if (idx < 0 || idx >= g.height * g.width) continue;
        const size_t b = binOf(idx);
        const bool wrong = p.isP && wrongP(c, idx, &e, true);
        const BinState st = binState(e, wrong, true, heat, pal);
        if (st.priority > prio[b]) {
            prio[b] = st.priority;
            colour[b] = st.colour;
        }
        // "This step" is a frame round the bin over its fill, never a fill (meanings.hpp).
        if (e.readNow && !wrong) now[b] = 1;
    }
    drawBinGrid(c.dl, colour, now, bc, 0, br, 0, bc, pal.readNow, [&](int r, int col) {
        return std::pair(ImVec2(p.origin.x + col * p.w / bc, p.origin.y + r * p.h / br),
                         ImVec2(p.origin.x + (col + 1) * p.w / bc, p.origin.y + (r + 1) * p.h / br));
    });
}

/// The white frame round elements [row0, row0 + rows) x [col0, col0 + cols) of overview
/// `p` (clipped to the array), grown about its centre to at least kMinMarker pixels a side,
/// with a dark line either side so that it reads on the colour map's yellow as on grey.
void overviewFrame(const Ctx& c, const Overview& p, int row0, int rows, int col0, int cols)
{
    const int r0 = std::max(0, row0), r1 = std::min(p.rows, row0 + rows);
    const int c0 = std::max(0, col0), c1 = std::min(p.cols, col0 + cols);
    if (r1 <= r0 || c1 <= c0) return;
    ImVec2 a = p.at(static_cast<float>(r0), static_cast<float>(c0)), b = p.at(static_cast<float>(r1), static_cast<float>(c1));
    a = ImVec2(a.x - 2, a.y - 2);
    b = ImVec2(b.x + 2, b.y + 2);
    growToAtLeast(a, b, kMinMarker * c.f.theme.scale);
    // Inside the picture's edge (2 px out) where the picture is large enough: a frame at a
    // corner of N stays off the label.
    auto inside = [](float& lo, float& hi, float first, float last) {
        if (hi - lo > last - first) return;
        if (lo < first) { hi += first - lo; lo = first; }
        if (hi > last) { lo -= hi - last; hi = last; }
    };
    inside(a.x, b.x, p.origin.x - 2, p.origin.x + p.w + 2);
    inside(a.y, b.y, p.origin.y - 2, p.origin.y + p.h + 2);
    const ImU32 shade = IM_COL32(0, 0, 0, 200);
    const float t = 2.5f * std::max(1.0f, c.f.theme.scale * 0.75f);
    c.dl->AddRect(ImVec2(a.x - 1.5f, a.y - 1.5f), ImVec2(b.x + 1.5f, b.y + 1.5f), shade, 0, 0, t + 2.0f);
    c.dl->AddRect(a, b, c.f.theme.palette.selected, 0, 0, t);
}

/// The tooltip of an element of N on the overview: its name, value and global loads.
void tooltipOverviewN(const Ctx& c, int r, int col)
{
    const sim::ConvGeometry& g = c.v.geo;
    const int32_t idx = r * g.width + col;
    const sim::Uint3 b = c.s.trace.block;
    ImGui::BeginTooltip();
    ImGui::PushFont(c.f.theme.fonts.mono);
    ImGui::TextUnformatted(sim::convElementName(g, r, col).c_str());
    ImGui::PopFont();
    ImGui::Text("value %.6g", c.s.N[idx]);
    ImGui::Text("global loads by the whole grid, all steps: %u (simulated)", c.s.counters.elementLoads[c.v.nArray][idx]);
    const sim::ElementView& e = c.f.replay.element(c.v.nArray, idx);
    if (g.twoD) ImGui::Text("global loads by block (%u, %u) up to this step: %u", b.x, b.y, e.loadsSoFar);
    else ImGui::Text("global loads by block %u up to this step: %u", b.x, e.loadsSoFar);
    if (g.role(r, col) != sim::ConvRole::Outside) ImGui::TextUnformatted(roleName(g.role(r, col)));
    if (e.readNow) ImGui::TextUnformatted("read from global memory by this step");
    ImGui::EndTooltip();
}

/// Where the overviews go: filled in by layoutOverview, drawn by drawOverviews.
struct OverviewLayout {
    Overview N, P;
    float height = 0;                 ///< pixels of the canvas the overviews take, labels included
    ImVec2 notePos;                   ///< 2D: the explanation beside the pictures
    float noteW = 0, noteH = 0;
};

/// The 1D strips' height in pixels (at the current scale): the most, and the least drawn.
float stripHeight() { return scaled(18); }
float leastStripHeight() { return scaled(8); }

/// The 2D overview's side the canvas asks for at `width` pixels across, and the least drawn.
float wantedOverviewSide(float width) { return std::clamp(width * 0.3f, scaled(80), scaled(220)); }
float leastOverviewSide() { return scaled(36); }

/// Whether N needs the overview: its whole (with the block's ghost cells) does not fit at
/// kMinCell pixels per element in the width the close-up would have. Decided on the width
/// alone, so that canvasHeight() and canvas() agree.
bool needsOverview(const sim::ConvGeometry& g, float width)
{
    int first, count;
    if (!g.twoD) {
        extent(g.width, g.inCol0, g.inCols, g.tile, width - 8, first, count);
        return first > std::min(0, g.inCol0) || first + count < std::max(g.width, g.inCol0 + g.inCols);
    }
    int r0, rn;
    extent(g.height, g.inRow0, g.inRows, g.tile, width * 0.5f, r0, rn);
    extent(g.width, g.inCol0, g.inCols, g.tile, width * 0.5f, first, count);
    return rn < std::max(g.height, g.inRow0 + g.inRows) - std::min(0, g.inRow0) ||
           count < std::max(g.width, g.inCol0 + g.inCols) - std::min(0, g.inCol0);
}

/// The pixels the overviews want above the close-up (canvasHeight() asks for them; the least
/// height it asks for is the close-up's alone, so that a short canvas keeps its close-up).
float overviewHeight(const sim::ConvGeometry& g, float width)
{
    const float lbl = ImGui::GetTextLineHeight() + 8;
    if (!g.twoD) return 2 * (lbl + stripHeight()) + scaled(10);
    return lbl + wantedOverviewSide(width) + scaled(12);
}

/// Places the overviews at the top of the canvas (corner `o`, `avail` pixels), leaving the
/// close-up below at least `closeUp` pixels (its least height; 2D: and 70 % of the rest);
/// nothing when that leaves the overview too small to draw or the close-up too little.
std::optional<OverviewLayout> layoutOverview(const Ctx& c, ImVec2 o, ImVec2 avail, float closeUp)
{
    const sim::ConvGeometry& g = c.v.geo;
    const float lbl = ImGui::GetTextLineHeight() + 8;
    OverviewLayout l;
    const float x = std::floor(o.x + 4);
    if (!g.twoD) {
        const float h = std::floor(std::min(stripHeight(), (avail.y - closeUp - 2 * lbl - scaled(10)) / 2));
        if (h < leastStripHeight()) return std::nullopt;
        const float w = std::floor(avail.x - 8);
        l.N = Overview{false, ImVec2(x, std::floor(o.y + lbl)), w, h, 1, g.width};
        l.P = Overview{true, ImVec2(x, std::floor(l.N.origin.y + h + lbl + scaled(2))), w, h, 1, g.width};
        l.height = l.P.origin.y + h + scaled(8) - o.y;
        return l;
    }
    const float side = std::floor(std::min(wantedOverviewSide(avail.x), (avail.y - 2 * lbl - scaled(20)) * 0.3f));
    if (side < leastOverviewSide()) return std::nullopt;
    const float cell = side / std::max(g.height, g.width);
    const float w = std::max(1.0f, std::round(g.width * cell)), h = std::max(1.0f, std::round(g.height * cell));
    l.N = Overview{false, ImVec2(x, std::floor(o.y + lbl)), w, h, g.height, g.width};
    l.P = Overview{true, ImVec2(std::floor(x + side + scaled(24)), l.N.origin.y), w, h, g.height, g.width};
    l.notePos = ImVec2(l.P.origin.x + side + scaled(20), l.N.origin.y - lbl + 4);
    l.noteW = o.x + avail.x - 8 - l.notePos.x;
    l.noteH = side + lbl - 4;
    l.height = l.N.origin.y + side + scaled(12) - o.y;
    if (avail.y - l.height < closeUp) return std::nullopt;   // the close-up first
    return l;
}

/// The overviews of the whole N and P, with white frames round the close-up's part
/// (rows [row0, row0 + rows), columns [col0, col0 + cols)), labels, a note, hover and click.
void drawOverviews(Ctx& c, const OverviewLayout& l, int row0, int rows, int col0, int cols)
{
    const sim::ConvGeometry& g = c.v.geo;
    Overviews& ov = *c.ov;
    if (ov.loadsGeneration != c.f.loaded.generation) {
        ov.loadsMax = 1;
        for (uint32_t n : c.s.counters.elementLoads[c.v.nArray]) ov.loadsMax = std::max(ov.loadsMax, n);
        ov.loadsGeneration = c.f.loaded.generation;
    }
    std::string why;
    HeatmapRenderer* renderer = nullptr;
    if (!c.f.view.vectorOnly && !ov.gpuRefused) {
        renderer = sharedHeatmapRenderer(&why);
        if (!renderer) ov.gpuRefused = true;
    }
    for (int k = 0; k < 2; ++k) {
        const Overview& p = k ? l.P : l.N;
        if (!renderer || !drawOverviewGpu(c, p, ov.gpu[k], *renderer, why)) drawOverviewBins(c, p, ov.bins[k]);
        if (renderer && !why.empty()) renderer = nullptr;   // the P picture in bins as well
    }
    if (!why.empty()) {
        // Said once: from now on the overviews are drawn in bins, as without OpenGL 3.3.
        ov.gpuRefused = true;
        c.f.view.notice = "The convolution's overview is drawn in bins, without the heatmap shaders: " + why + ".";
        c.f.view.noticeIsError = true;
    }
    // N's edge, faint, where the picture is dark.
    for (const Overview* p : {&l.N, &l.P})
        c.dl->AddRect(ImVec2(p->origin.x - 1, p->origin.y - 1), ImVec2(p->origin.x + p->w + 1, p->origin.y + p->h + 1),
                      c.f.theme.palette.dimText, 0, 0, 1.0f);
    overviewFrame(c, l.N, row0, rows, col0, cols);
    overviewFrame(c, l.P, row0, rows, col0, cols);
    const std::string size = g.twoD ? std::to_string(g.height) + " x " + std::to_string(g.width)
                                    : std::to_string(g.width) + " elements";
    const std::string loads = "global loads 0-" + std::to_string(ov.loadsMax);
    const float pRight = g.twoD ? l.notePos.x - scaled(8) : 0.0f;
    if (c.f.view.heatmap)
        boardLabel(c, Board{l.N.origin}, {"N, whole: " + size + ", " + loads + " (whole grid)", "N, whole: " + loads, "N, whole", "N"},
                   g.twoD ? l.P.origin.x - scaled(8) : 0.0f);
    else
        boardLabel(c, Board{l.N.origin}, {"N, whole: " + size + " (white frame: the part below)", "N, whole: " + size, "N, whole", "N"},
                   g.twoD ? l.P.origin.x - scaled(8) : 0.0f);
    boardLabel(c, Board{l.P.origin}, {"P, whole: " + size, "P, whole", "P"}, pRight);
    if (g.twoD && l.noteW >= scaled(110)) {
        // The note beside the pictures, the longest that fits.
        const std::string colour = c.f.view.heatmap ? "N is coloured by its global loads over the whole grid (0 to " +
                                                          std::to_string(ov.loadsMax) + "). "
                                                    : "";
        for (const std::string& t : {"The whole input and output. " + colour +
                                         "The white frames mark the part shown below: the traced block's tile with "
                                         "its halo. Hover for an element; click P to trace its block.",
                                     "Whole N and P. " + colour + "White frames: the part shown below.",
                                     std::string("White frames: the part below.")}) {
            const ImVec2 sz = ImGui::CalcTextSize(t.c_str(), nullptr, false, l.noteW);
            if (sz.y > l.noteH) continue;
            c.dl->AddText(ImGui::GetFont(), ImGui::GetFontSize(), l.notePos, c.f.theme.palette.dimText, t.c_str(), nullptr,
                          l.noteW);
            break;
        }
    }
    if (!ImGui::IsWindowHovered()) return;
    int r, col;
    const ImVec2 m = ImGui::GetIO().MousePos;
    if (l.N.hit(m, r, col)) tooltipOverviewN(c, r, col);
    if (l.P.hit(m, r, col)) interactP(c, r, col);
}

/// The close-up's cells: N's extent (rows [r0, r0 + rn), columns [c0, c0 + cn), ghost cells
/// included) and the boards' fit in a canvas of `width` x `height` pixels.
struct CloseUp {
    int r0 = 0, rn = 1, c0 = 0, cn = 1;
    ConvFitInput in;   ///< what the fit was asked (conv_fit.hpp)
    ConvFit fit;
};

CloseUp closeUp(const Ctx& c, float width, float height)
{
    const sim::ConvGeometry& g = c.v.geo;
    CloseUp u;
    // N's extent: all of it when it fits at kMinCell, else the block's neighbourhood.
    extent(g.width, g.inCol0, g.inCols, g.tile, g.twoD ? width * 0.5f : width - 8, u.c0, u.cn);
    if (g.twoD) extent(g.height, g.inRow0, g.inRows, g.tile, width * 0.5f, u.r0, u.rn);
    ConvFitInput& in = u.in;
    in.width = std::max(0.0f, width - 8);
    in.height = std::max(0.0f, height);
    in.label = ImGui::GetTextLineHeight() + 8;
    in.gap = scaled(8);
    in.mostCell = scaled(96);
    in.twoD = g.twoD;
    in.nRows = u.rn;
    in.nCols = u.cn;
    if (c.v.ndsArray >= 0) {
        in.ndsRows = g.twoD ? g.inRows : 1;
        in.ndsCols = g.inCols;
    }
    in.mask = g.maskWidth;
    u.fit = fitConvBoards(in);
    return u;
}

/// The close-up's least height: 1D rows 12 px tall at 1x, 2D N's rows 4 px tall (the
/// wide arrangement: N, then N_ds over M, then P).
float leastCloseUp(const Ctx& c, float width)
{
    const float lbl = ImGui::GetTextLineHeight() + 8;
    // The boards as fitted into no height at all have their smallest cells: canvas() draws at
    // least that much, whatever height it is given.
    const CloseUp u = closeUp(c, width, 0);
    const float drawn = u.fit.bottom + 4;
    if (!c.v.geo.twoD) return std::max(drawn, 5 * lbl + 4 * scaled(12) + 3 * scaled(8) + 4);   // conv_fit's labels, gaps and rows
    return std::max(drawn, lbl + u.rn * scaled(4) + 4);
}

/// The canvas's height for the panel's width (elasticHeight()): at least the close-up's
/// least, and as much as makes its cells as large as the width allows (conv_fit.hpp), with the
/// overview of a large N above it.
float canvasHeight(const Ctx& c)
{
    const sim::ConvGeometry& g = c.v.geo;
    const float width = ImGui::GetContentRegionAvail().x;
    // The boards as closeUp() fits them, asked for a canvas of no height: wantedConvHeight()
    // says the height that their width allows.
    const ConvFitInput in = closeUp(c, width, 0).in;
    const float over = needsOverview(g, width) ? overviewHeight(g, width) : 0.0f;
    const float least = leastCloseUp(c, width);
    return elasticHeight(least, std::max(least, wantedConvHeight(in)) + over + 4);
}

void canvas(Ctx& c)
{
    const sim::ConvGeometry& g = c.v.geo;
    // A large N: the overview of the whole N and P at the top, the close-up below it.
    const ImVec2 avail0 = ImGui::GetContentRegionAvail();
    const ImVec2 o0 = ImGui::GetCursorScreenPos();
    std::optional<OverviewLayout> over;
    if (c.ov && needsOverview(g, avail0.x)) over = layoutOverview(c, o0, avail0, leastCloseUp(c, avail0.x));
    const float top = over ? over->height : 0.0f;
    const ImVec2 avail(avail0.x, avail0.y - top);
    const ImVec2 o(o0.x + 4, o0.y + top);
    const ImVec2 mouse = ImGui::GetIO().MousePos;
    const bool hovered = ImGui::IsWindowHovered();
    int hr, hc;
    // The boards fill the canvas (conv_fit.hpp).
    const CloseUp u = closeUp(c, avail.x, avail.y - 4);
    const ConvFit& fit = u.fit;
    auto board = [&](const FitBoard& b, int row0, int col0) {
        return Board{ImVec2(std::floor(o.x + b.x), std::floor(o.y + b.y)), ImVec2(b.cellW, b.cellH), row0, col0, b.rows,
                     b.cols};
    };
    Board N = board(fit.n, u.r0, u.c0), P = board(fit.p, u.r0, u.c0), M = board(fit.m, 0, 0), Nds;
    std::string nText = "N: input, " + (g.twoD ? std::to_string(g.height) + " x " + std::to_string(g.width)
                                               : std::to_string(g.width) + " elements");
    if (!g.twoD) {
        const int first = u.c0, count = u.cn;
        const float w = N.cell.x;
        // In 1D N_ds is drawn under N, slot under the element it holds: N's columns.
        Nds = Board{ImVec2(N.origin.x, std::floor(o.y + fit.nds.y)), ImVec2(w, fit.nds.cellH), 0, first, 1, count};
        if (first > std::min(0, g.inCol0) || first + count < std::max(g.width, g.inCol0 + g.inCols))
            nText += " (showing N[" + std::to_string(first) + "..." + std::to_string(first + count - 1) + "])";
        // Index labels under N, as many as fit.
        // Every `every`-th index, so that the widest ("-000" or the largest shown) fits with a gap.
        const float widest = std::max(ImGui::CalcTextSize("-000").x,
                                      ImGui::CalcTextSize((std::to_string(first + count - 1) + "0").c_str()).x);
        const int every = std::max(1, static_cast<int>(std::ceil(widest / w)));
        for (int col = first; col < first + count; ++col)
            if (col % every == 0) {
                const std::string t = std::to_string(col);
                const ImVec2 a = N.at(1, col);
                c.dl->AddText(ImVec2(a.x + (w - ImGui::CalcTextSize(t.c_str()).x) * 0.5f, a.y + 2),
                              c.f.theme.palette.dimText, t.c_str());
            }
    } else {
        Nds = board(fit.nds, 0, 0);
        const int fullRows = std::max(g.height, g.inRow0 + g.inRows) - std::min(0, g.inRow0);
        const int fullCols = std::max(g.width, g.inCol0 + g.inCols) - std::min(0, g.inCol0);
        if (u.rn < fullRows || u.cn < fullCols)
            nText += " (showing rows " + std::to_string(u.r0) + "..." + std::to_string(u.r0 + u.rn - 1) + ", cols " +
                     std::to_string(u.c0) + "..." + std::to_string(u.c0 + u.cn - 1) + ")";
    }
    // The figure for the pixel checks: the boards with their labels, and the overview.
    noteFigure(ImVec2(o.x + fit.left, o.y + fit.top), ImVec2(o.x + fit.right, o.y + fit.bottom));
    if (over) noteFigure(o0, ImVec2(o0.x + avail0.x - 4, o0.y + over->height));
    drawN(c, N);
    // In 2D, N's label stops where N_ds begins, and the mask's where P begins.
    boardLabel(c, N, {nText, "N: input", "N"}, g.twoD && c.v.ndsArray >= 0 ? Nds.origin.x - scaled(8) : 0.0f);
    if (c.v.ndsArray >= 0) {
        drawNds(c, Nds, !g.twoD);
        const std::string size = std::to_string(g.inRows) + " x " + std::to_string(g.inCols);
        if (g.twoD)
            boardLabel(c, Nds, {"N_ds: " + size + " slots (hover: loader)", "N_ds: " + size, "N_ds"},
                       fit.arrangement == 0 ? P.origin.x - scaled(8) : 0.0f);
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
    if (over) drawOverviews(c, *over, N.row0, N.rows, N.col0, N.cols);
    ImGui::Dummy(ImVec2(avail.x - 8, o.y + fit.bottom - o0.y + 4));
    if (!hovered) return;
    // While a practice question waits for cells, a click on N, N_ds or P goes to the answer.
    const bool click = ImGui::IsMouseClicked(ImGuiMouseButton_Left);
    if (N.hit(mouse, hr, hc) && (g.insideN(hr, hc) || g.role(hr, hc) == sim::ConvRole::Ghost)) {
        tooltipN(c, hr, hc);
        practiceCellClicked(c.f, CellRef{"N", sim::Cell{hr, hc}}, click);
    }
    if (c.v.ndsArray >= 0 && Nds.hit(mouse, hr, hc)) {
        const int ndsCols = c.s.arrays[c.v.ndsArray].cols;
        for (const sim::ConvSlot& sl : c.v.slots)
            if (g.twoD ? sl.slot == hr * ndsCols + hc : sl.col == hc) {
                tooltipSlot(c, sl);
                practiceCellClicked(c.f, CellRef{"N_ds", sim::Cell{sl.slot / ndsCols, sl.slot % ndsCols}}, click);
            }
    }
    if (M.hit(mouse, hr, hc)) {
        const int idx = hr * g.maskWidth + hc;
        ImGui::SetTooltip("%s[%d%s] = %.6g in constant memory; read %d time%s by the block so far",
                          g.twoD ? "Mc" : "M", g.twoD ? hr : hc, g.twoD ? ("][" + std::to_string(hc)).c_str() : "",
                          c.s.M[idx], c.maskSoFar[idx], c.maskSoFar[idx] == 1 ? "" : "s");
    }
    if (P.hit(mouse, hr, hc) && !practiceCellClicked(c.f, practicePCell(c, hr, hc), click)) interactP(c, hr, hc);
}

/// The panel, shown only while a convolution is loaded; it keeps the loaded simulation's
/// ConvView (roles, N_ds slots, uses), made once per simulation.
struct ConvPanel final : Panel {
    void draw(Frame& f) override;

private:
    uint64_t generation_ = ~0ull;          ///< Loaded::generation that view_ belongs to
    std::optional<sim::ConvView> view_;
    Overviews overviews_;                  ///< the overview's textures and bins (large inputs)
};

}  // namespace

void ConvPanel::draw(Frame& f)
{
    const sim::Simulation* s = f.loaded.sim.get();
    if (!s || sim::problemOf(s->scenario).picture != sim::Picture::Convolution) return;
    if (generation_ != f.loaded.generation) {
        generation_ = f.loaded.generation;
        view_ = s->trace.steps.empty() ? std::nullopt : std::optional<sim::ConvView>(sim::convView(*s));
    }
    std::optional<sim::ConvView>& view = view_;
    if (beginPanel(f, id)) {
        if (!view) {
            ImGui::TextUnformatted(f.busy.simulating ? "Simulating..." : "Nothing to show.");
        } else {
            Ctx c{f, *s, *view, ImGui::GetWindowDrawList(), {}, {}, 1, &overviews_};
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
            // The legend belongs to the figure (the pixel checks measure both).
            const ImVec2 legendTop = ImGui::GetCursorScreenPos();
            ImGui::Checkbox("heatmap", &f.view.heatmap);
            tooltip("Colour N by how many threads of the traced block use each element (data reuse in N_ds, "
                    "PMPP sec. 7.4); hover an element for the list.");
            ImGui::SameLine(0, scaled(20));
            legend(c);
            noteFigure(legendTop, ImVec2(ImGui::GetWindowPos().x + ImGui::GetWindowContentRegionMax().x,
                                         ImGui::GetItemRectMax().y));
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
