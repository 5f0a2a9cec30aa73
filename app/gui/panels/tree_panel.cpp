// Reduction tree: PMPP's picture of a sum reduction (Figs. 10.7 and 10.8) drawn from the
// traced block (sim/teaching/reduction_tree.hpp). One row per level, the array's elements
// across: at each level a thread adds its partner's element into its own, a line from the
// partner, the written element coloured. Beside each row the warps at the tree's branch: a
// warp whose lanes all took it, none of them, or some (divergent, marked). Below, the
// stride-by-stride table: threads adding, warps active, warps divergent (at the desk; on a
// slide each row ends with its figures instead). Levels after the cursor are dimmed; the
// cursor's level is framed.
#include <imgui.h>

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstdio>
#include <string>

#include "figure_notes.hpp"
#include "layout.hpp"
#include "panels.hpp"
#include "sim/teaching/reduction_tree.hpp"
#include "theme.hpp"
#include "widgets.hpp"

namespace ts::app {
namespace {

/// The panel; the tree is read again for every new simulation.
struct TreePanel final : Panel {
    void draw(Frame& f) override;

private:
    uint64_t generation_ = ~0ull;
    sim::ReductionTree tree_;
};

/// "16 active, 1 diverging" for a level's warps.
std::string warpWords(const sim::TreeLevel& l)
{
    if (l.shuffle)
        return (l.lanes ? std::to_string(l.lanes) + " lanes receive a value; " : std::string()) +
               "a warp shuffle: registers, no shared memory, no barrier";
    int active = 0;
    for (const sim::TreeWarp& w : l.warps) active += w.taken != 0;
    return std::to_string(active) + " of " + std::to_string(l.warps.size()) + " warps adding, " +
           std::to_string(l.divergentWarps()) + " divergent";
}

void drawTree(Frame& f, const sim::ReductionTree& tree, int cursorLevel, bool withTable)
{
    const Palette& pal = f.theme.palette;
    const float lh = ImGui::GetTextLineHeightWithSpacing();
    const size_t levels = tree.levels.size();
    // The warps' strip beside each row: one box per warp.
    size_t maxWarps = 1;
    for (const sim::TreeLevel& l : tree.levels) maxWarps = std::max(maxWarps, l.warps.size());
    const float w = ImGui::GetContentRegionAvail().x;
    const float label = ImGui::CalcTextSize("stride 1024 ").x;
    // On a slide each row ends with its figures: "256 add, 32 div".
    const float figures = withTable ? 0.0f : ImGui::CalcTextSize(" 1024 add, 32 div").x;
    const float strip = std::min(w * 0.22f, std::max(scaled(6) * static_cast<float>(maxWarps), ImGui::CalcTextSize("warps").x));
    const float cellsW = std::max(scaled(40), w - label - strip - figures - scaled(12));
    const float cellW = cellsW / static_cast<float>(std::max(1, tree.size));
    const bool wide = cellW >= ImGui::GetFontSize() * 1.1f;   // room for each element's box
    const float rowH = std::max(lh * 1.6f, wide ? cellW * 0.9f : lh * 1.2f);
    const float gap = lh * 0.9f;   // the lines from the partners run through it
    const float want = (rowH + gap) * static_cast<float>(levels) + lh;
    // At least a text line a row with a little gap, so that the stride labels stay apart.
    const float least = std::min(want, lh * 1.15f * static_cast<float>(levels) + lh);
    // Room below for the stride table (not on a slide, where each row carries its figures):
    // a header and at least three rows; it scrolls when it has more.
    const float tableRow = ImGui::GetTextLineHeight() + 2 * ImGui::GetStyle().CellPadding.y;
    const float table = withTable ? 4 * tableRow + 1 + ImGui::GetStyle().ItemSpacing.y : 0.0f;
    // Without the table (a slide) the tree takes what the panel has left; with it, the table does.
    const float h = elasticHeight(least, withTable ? want : FLT_MAX, table);
    const ImVec2 o = ImGui::GetCursorScreenPos();
    ImGui::InvisibleButton("tree", ImVec2(w, h));
    noteFigure(o, ImVec2(o.x + w, o.y + h));
    ImDrawList* dl = ImGui::GetWindowDrawList();
    dl->PushClipRect(o, ImVec2(o.x + w, o.y + h), true);
    const float x0 = o.x + label;
    const float scale = std::min(1.0f, (h - lh) / std::max(1.0f, want - lh));
    const float rh = rowH * scale, g = gap * scale;
    dl->AddText(ImVec2(x0 + cellsW + scaled(12), o.y), pal.dimText, "warps");
    const float top = o.y + lh;
    for (size_t k = 0; k < levels; ++k) {
        const sim::TreeLevel& l = tree.levels[k];
        const float y = top + static_cast<float>(k) * (rh + g) + g;
        const bool future = cursorLevel >= 0 && static_cast<int>(k) > cursorLevel;
        // Levels still to come: veiled in the window's own colour (dark or light theme alike).
        const ImU32 fade = future ? (pal.clear & 0x00FFFFFFu) | 0xA0000000u : 0;
        if (static_cast<int>(k) == cursorLevel)
            dl->AddRectFilled(ImVec2(o.x, y - g * 0.5f), ImVec2(o.x + w, y + rh + g * 0.3f), pal.codeLine);
        char name[32];
        if (l.shuffle) std::snprintf(name, sizeof name, "shfl %d", l.stride);
        else if (l.stride > 0) std::snprintf(name, sizeof name, "stride %d", l.stride);
        else if (!l.adds.empty() && l.adds.front().fromOther) std::snprintf(name, sizeof name, "fill");   // as the table says
        else std::snprintf(name, sizeof name, "level %zu", k);
        // The row of elements: every element a box, the written ones coloured.
        if (wide)
            for (int i = 0; i < tree.size; ++i) {
                const ImVec2 a(x0 + cellW * static_cast<float>(i), y), b(a.x + cellW - 1, y + rh);
                dl->AddRectFilled(a, b, pal.cell);
            }
        else
            dl->AddRectFilled(ImVec2(x0, y + rh * 0.4f), ImVec2(x0 + cellsW, y + rh * 0.6f), pal.cell);
        for (const sim::TreeAdd& a : l.adds) {
            const bool divergent = [&] {
                for (const sim::TreeWarp& tw : l.warps)
                    if (tw.warp == a.thread / 32u) return tw.divergent();
                return false;
            }();
            const ImU32 c = divergent ? pal.loadedThisPhase : pal.finished;
            const float cx = x0 + cellW * (static_cast<float>(a.target) + 0.5f);
            if (wide) dl->AddRectFilled(ImVec2(x0 + cellW * a.target, y), ImVec2(x0 + cellW * (a.target + 1) - 1, y + rh), c);
            else dl->AddRectFilled(ImVec2(cx - std::max(1.0f, cellW * 0.5f), y), ImVec2(cx + std::max(1.0f, cellW * 0.5f), y + rh), c);
            if (k > 0 && a.source >= 0) {
                const float sx = x0 + cellW * (static_cast<float>(a.source) + 0.5f);
                const float py = y - g;   // the bottom of the row above
                dl->AddLine(ImVec2(sx, py), ImVec2(cx, y), pal.readNow, std::max(1.0f, scaled(1.5f)));
                dl->AddLine(ImVec2(cx, py), ImVec2(cx, y), pal.readNow, std::max(1.0f, scaled(1.5f)));
            }
            // (Not in a level still to come: the veil would take the label's contrast.)
            if (wide && !future && cellW > ImGui::CalcTextSize("t00").x) {
                const std::string t = "t" + std::to_string(a.thread);
                centredText(dl, f.theme.fonts.cell, ImVec2(x0 + cellW * a.target, y), ImVec2(x0 + cellW * (a.target + 1), y + rh),
                            textOn(c), t);
            }
        }
        // The warps at the tree's branch.
        const float sx0 = x0 + cellsW + scaled(12);
        const float box = std::min(scaled(14), (w - figures - (sx0 - o.x)) / static_cast<float>(std::max<size_t>(1, l.warps.size())));

        for (size_t i = 0; i < l.warps.size(); ++i) {
            const sim::TreeWarp& tw = l.warps[i];
            const ImVec2 a(sx0 + box * static_cast<float>(i), y + rh * 0.2f), b(a.x + box - 1, y + rh * 0.8f);
            const ImU32 c = tw.divergent() ? pal.loadedThisPhase : tw.taken ? pal.finished : pal.chartBg;
            dl->AddRectFilled(a, b, c);
            if (tw.divergent()) dl->AddRect(a, b, pal.error, 0, 0, std::max(1.0f, scaled(1.5f)));
        }
        // The veil goes over the drawing, never over the words (they keep their contrast).
        if (fade) dl->AddRectFilled(ImVec2(o.x, y - g * 0.5f), ImVec2(o.x + w, y + rh + g * 0.3f), fade);
        const float ty = y + (rh - ImGui::GetFontSize()) * 0.5f;
        dl->AddText(ImVec2(o.x, ty), future ? pal.dimText : pal.cellText, name);
        if (!withTable) {
            const std::string fig = std::to_string(l.adds.size()) + " add, " + std::to_string(l.divergentWarps()) + " div";
            dl->AddText(ImVec2(o.x + w - ImGui::CalcTextSize(fig.c_str()).x, ty),
                        future ? pal.dimText : l.divergentWarps() ? pal.warnText : pal.cellText, fig.c_str());
        }
        if (ImGui::IsItemHovered() && ImGui::GetMousePos().y >= y - g * 0.5f && ImGui::GetMousePos().y < y + rh + g * 0.5f)
            ImGui::SetTooltip(l.shuffle ? "%s: %zu lanes add the register of the lane %d away, handed over by "
                                          "a warp shuffle; %s."
                                        : "%s: %zu threads add their partner's element into their own (stride %d); %s "
                                          "(orange: the warp's lanes split at the tree's branch, some adding, some idle).",
                              name, l.adds.size(), l.stride, warpWords(l).c_str());
    }
    dl->PopClipRect();
}

void strideTable(Frame& f, const sim::ReductionTree& tree, int cursorLevel)
{
    const ImGuiTableFlags tf =
        ImGuiTableFlags_Borders | ImGuiTableFlags_RowBg | ImGuiTableFlags_SizingStretchProp | ImGuiTableFlags_ScrollY;
    const float row = ImGui::GetTextLineHeight() + 2 * ImGui::GetStyle().CellPadding.y;
    const float all = static_cast<float>(tree.levels.size() + 1) * row + 2;
    // Whole rows only: a row cut by the table's lower edge leaves its text on the border.
    const float given = elasticHeight(std::min(all, 4 * row + 1), FLT_MAX);
    const float h = std::min(given, std::max(std::floor((given - 2) / row), 1.0f) * row + 2);
    const ImVec2 at = ImGui::GetCursorScreenPos();
    if (!ImGui::BeginTable("strides", 4, tf, ImVec2(0, h))) return;
    markScrollingList();
    noteFigure(at, ImVec2(at.x + ImGui::GetContentRegionAvail().x, at.y + h));
    ImGui::TableSetupScrollFreeze(0, 1);
    ImGui::TableSetupColumn("stride");
    ImGui::TableSetupColumn("adding");
    ImGui::TableSetupColumn("warps");
    ImGui::TableSetupColumn("divergent");
    ImGui::TableHeadersRow();
    for (size_t k = 0; k < tree.levels.size(); ++k) {
        const sim::TreeLevel& l = tree.levels[k];
        ImGui::TableNextRow();
        if (static_cast<int>(k) == cursorLevel) ImGui::TableSetBgColor(ImGuiTableBgTarget_RowBg1, f.theme.palette.codeLine);
        ImGui::TableNextColumn();
        if (l.shuffle) ImGui::Text("shfl %d", l.stride);
        else if (l.stride > 0) ImGui::Text("%d", l.stride);
        else ImGui::Text("%s", l.adds.empty() || !l.adds.front().fromOther ? "level" : "fill");
        ImGui::TableNextColumn();
        ImGui::Text("%zu threads", l.adds.size());
        int adding = 0;
        for (const sim::TreeWarp& w : l.warps) adding += w.taken != 0;
        ImGui::TableNextColumn();
        if (l.warps.empty()) ImGui::TextUnformatted("-");
        else ImGui::Text("%d of %zu", adding, l.warps.size());
        ImGui::TableNextColumn();
        if (l.warps.empty()) ImGui::TextUnformatted("-");
        // Orange marks divergence, except on the cursor's row, whose highlight it cannot be
        // read on (3.6:1 in the dark theme): there the row's own text colour.
        else if (l.divergentWarps() && static_cast<int>(k) != cursorLevel)
            colouredText(f.theme.palette.warnText, std::to_string(l.divergentWarps()));
        else if (l.divergentWarps()) ImGui::TextUnformatted(std::to_string(l.divergentWarps()).c_str());
        else ImGui::TextUnformatted("0");
    }
    ImGui::EndTable();
}

}  // namespace

void TreePanel::draw(Frame& f)
{
    if (f.loaded.sim && f.loaded.generation != generation_) {
        generation_ = f.loaded.generation;
        tree_ = sim::reductionTree(f.loaded.sim->trace);
    }
    if (beginPanel(f, id)) {
        if (!f.loaded.sim) {
            ImGui::TextUnformatted("Simulating...");
        } else if (tree_.array < 0) {
            ImGui::TextWrapped("No reduction tree: this kernel does not add elements of one array into each other "
                               "between barriers (PMPP ch. 10's reductions do).");
        } else {
            const int level = tree_.levelAt(f.view.cursor);
            const std::string array = f.loaded.sim->trace.arrays[static_cast<size_t>(tree_.array)].name;
            const std::string legend = "The sum in " + array + " (PMPP Figs. 10.7, 10.8): a thread adds its partner's "
                                       "element into its own, orange where its warp diverged. Right, the warps: green "
                                       "all lanes add, dark none, orange some.";
            // On a slide the rows need the room: the legend is the Now line's tooltip there.
            if (!f.view.presentation) colouredText(f.theme.palette.dimText, legend);
            if (level >= 0) {
                const sim::TreeLevel& l = tree_.levels[static_cast<size_t>(level)];
                ImGui::TextWrapped("Now: %s %d, %zu threads adding; %s.",
                                   l.shuffle ? "shuffle" : l.stride > 0 ? "stride" : "level",
                                   l.stride > 0 ? l.stride : level, l.adds.size(), warpWords(l).c_str());
                if (f.view.presentation) tooltip(legend.c_str());
            }
            drawTree(f, tree_, level, !f.view.presentation);
            if (!f.view.presentation) strideTable(f, tree_, level);
        }
    }
    ImGui::End();
}

std::unique_ptr<Panel> makeTreePanel() { return std::make_unique<TreePanel>(); }

}  // namespace ts::app
