// Convolution (PMPP ch. 7): the input N with the traced block's internal, halo and ghost
// cells, N_ds with the thread that loaded each slot, the mask M in constant memory and the
// output P, at the cursor; per-element use counts on hover ("N[5] is used by threads 4, 5,
// 6, 7 (4X)") and as a heatmap; the block's loads beside the textbook's reduction formula.
// Shown in place of the Matrices panel when a convolution kernel is loaded. Large inputs
// are shown as the block's neighbourhood, with an overview of the whole N and P above it
// (1D: strips, 2D: squares) drawn by the heatmap shaders (heatmap.hpp), or in a few hundred
// bins without them; a white frame on the overview marks where the close-up lies.
// This file draws the stats, the legend and the close-up's canvas; N, the other boards and the
// overview are drawn in conv_panel_halo.cpp, conv_panel_boards.cpp and conv_panel_overview.cpp
// (conv_panel_internal.hpp).
#include <imgui.h>

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <initializer_list>
#include <optional>
#include <string>
#include <vector>

#include "conv_fit.hpp"
#include "conv_panel_internal.hpp"
#include "figure_notes.hpp"
#include "layout.hpp"
#include "meanings.hpp"
#include "panels.hpp"
#include "sim/catalogue/problem_desc.hpp"
#include "sim/teaching/conv_view.hpp"
#include "widgets.hpp"

namespace ts::app {

using namespace conv_detail;

namespace conv_detail {

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
void boardLabel(const Ctx& c, const Board& b, std::initializer_list<std::string> texts, float right)
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

}  // namespace conv_detail

namespace {

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
