// Scan network: PMPP's picture of a parallel scan (Figs. 11.2, 11.4 and 11.6) drawn from the
// traced block (sim/teaching/scan_network.hpp). One row per level (a barrier interval that
// writes the scan's array), the section's slots across: each add a line from every slot it
// read in the row above to the slot it wrote, the written slot coloured and labelled with its
// thread; a double buffer's rows say which half they write. Beside each row its adds and
// active threads. Below, at the desk, the work table: this kernel's adds so far and in all,
// its steps, against the sequential scan's n - 1 and PMPP's Kogge-Stone and Brent-Kung
// formulas at the same n (work efficiency, PMPP sec. 11.3). Levels after the cursor are
// dimmed; the cursor's level is framed.
#include <imgui.h>

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstdio>
#include <string>

#include "figure_notes.hpp"
#include "layout.hpp"
#include "panels.hpp"
#include "sim/teaching/scan_network.hpp"
#include "theme.hpp"
#include "widgets.hpp"

namespace ts::app {
namespace {

/// The panel; the network is read again for every new simulation.
struct ScanPanel final : Panel {
    void draw(Frame& f) override;

private:
    uint64_t generation_ = ~0ull;
    sim::ScanNetwork net_;
};

/// "stride 4", "load" (a level that only copies), or "level 3".
std::string levelName(const sim::ScanLevel& l, size_t k)
{
    if (l.adds == 0) return "load";
    if (l.stride > 0) return "stride " + std::to_string(l.stride);
    return "level " + std::to_string(k);
}

/// A row's figures: "15 adds" (its threads: the tooltip), or "16 loads".
std::string rowFigures(const sim::ScanLevel& l)
{
    return l.adds ? std::to_string(l.adds) + (l.adds == 1 ? " add" : " adds") : std::to_string(l.ops.size()) + " loads";
}

/// The section slot (column) of array slot `i`: a double buffer's two rows share columns.
int column(const sim::ScanNetwork& net, int i) { return net.doubleBuffer ? i % std::max(1, net.section) : i; }

void drawNetwork(Frame& f, const sim::ScanNetwork& net, int cursorLevel, bool withTable)
{
    const Palette& pal = f.theme.palette;
    const float lh = ImGui::GetTextLineHeightWithSpacing();
    const size_t levels = net.levels.size();
    const float w = ImGui::GetContentRegionAvail().x;
    // The row labels and figures as wide as the longest this network has, so that the slots
    // get the rest (16 slots on a slide are wide enough to carry their threads' numbers).
    float label = 0, figures = 0;
    for (size_t k = 0; k < levels; ++k) {
        const sim::ScanLevel& l = net.levels[k];
        label = std::max(label, ImGui::CalcTextSize((levelName(l, k) + (net.doubleBuffer ? " [0] " : " ")).c_str()).x);
        figures = std::max(figures, ImGui::CalcTextSize((" " + rowFigures(l)).c_str()).x);
    }
    const float cellsW = std::max(scaled(40), w - label - figures - scaled(8));
    const float cellW = cellsW / static_cast<float>(std::max(1, net.section));
    const bool wide = cellW >= ImGui::GetFontSize() * 1.1f;   // room for each slot's box
    const float rowH = std::max(lh * 1.4f, wide ? std::min(cellW * 0.8f, lh * 2.2f) : lh * 1.1f);
    const float gap = lh * 1.1f;   // the lines from the operands run through it
    const float want = (rowH + gap) * static_cast<float>(levels) + lh;
    const float least = std::min(want, lh * 1.15f * static_cast<float>(levels) + lh);
    const float tableRow = ImGui::GetTextLineHeight() + 2 * ImGui::GetStyle().CellPadding.y;
    const float table = withTable ? 5 * tableRow + 2 + ImGui::GetStyle().ItemSpacing.y : 0.0f;
    const float h = elasticHeight(least, FLT_MAX, table);
    const ImVec2 o = ImGui::GetCursorScreenPos();
    ImGui::InvisibleButton("network", ImVec2(w, h));
    noteFigure(o, ImVec2(o.x + w, o.y + h));
    const bool hovered = ImGui::IsItemHovered();
    ImDrawList* dl = ImGui::GetWindowDrawList();
    dl->PushClipRect(o, ImVec2(o.x + w, o.y + h), true);
    const float x0 = o.x + label;
    const float scale = std::min(1.0f, (h - lh) / std::max(1.0f, want - lh));
    const float rh = rowH * scale, g = std::max(gap * scale, (h - lh) / std::max<float>(1, levels) - rh);
    // The slots' numbers across the top, as PMPP's figures number x0, x1, ...
    const int every = std::max(1, static_cast<int>(std::ceil(ImGui::CalcTextSize("0000").x / std::max(1.0f, cellW))));
    for (int i = 0; i < net.section; i += every) {
        const std::string n = std::to_string(i);
        dl->AddText(ImVec2(x0 + cellW * (static_cast<float>(i) + 0.5f) - ImGui::CalcTextSize(n.c_str()).x * 0.5f, o.y),
                    pal.dimText, n.c_str());
    }
    const float top = o.y + lh;
    const float rowStep = (h - lh) / static_cast<float>(std::max<size_t>(1, levels));
    for (size_t k = 0; k < levels; ++k) {
        const sim::ScanLevel& l = net.levels[k];
        const float y = top + static_cast<float>(k) * rowStep + (rowStep - rh) * 0.75f;
        const bool future = cursorLevel >= 0 && static_cast<int>(k) > cursorLevel;
        const ImU32 fade = future ? (pal.clear & 0x00FFFFFFu) | 0xA0000000u : 0;
        if (static_cast<int>(k) == cursorLevel)
            dl->AddRectFilled(ImVec2(o.x, y - (rowStep - rh) * 0.6f), ImVec2(o.x + w, y + rh + (rowStep - rh) * 0.2f), pal.codeLine);
        std::string name = levelName(l, k);
        if (net.doubleBuffer && !l.ops.empty()) name += l.ops.front().target >= net.section ? " [1]" : " [0]";
        if (wide)
            for (int i = 0; i < net.section; ++i)
                dl->AddRectFilled(ImVec2(x0 + cellW * static_cast<float>(i), y), ImVec2(x0 + cellW * static_cast<float>(i + 1) - 1, y + rh),
                                  pal.cell);
        else
            dl->AddRectFilled(ImVec2(x0, y + rh * 0.4f), ImVec2(x0 + cellsW, y + rh * 0.6f), pal.cell);
        const float py = y - (rowStep - rh);   // the bottom of the row above
        for (const sim::ScanOp& op : l.ops) {
            const int c = column(net, op.target);
            const ImU32 fill = op.add() ? pal.finished : pal.loadedThisPhase;
            const float cx = x0 + cellW * (static_cast<float>(c) + 0.5f);
            if (wide) dl->AddRectFilled(ImVec2(x0 + cellW * c, y), ImVec2(x0 + cellW * (c + 1) - 1, y + rh), fill);
            else dl->AddRectFilled(ImVec2(cx - std::max(1.0f, cellW * 0.5f), y), ImVec2(cx + std::max(1.0f, cellW * 0.5f), y + rh), fill);
            if (k > 0 && op.add())
                for (int src : op.sources) {
                    const float sx = x0 + cellW * (static_cast<float>(column(net, src)) + 0.5f);
                    // The code bar's yellow: the same hue, dark enough on the light theme's white
                    // (Palette::codeBar keeps 3:1 there) for a thin line to read from the back.
                    dl->AddLine(ImVec2(sx, py), ImVec2(cx, y), pal.codeBar, std::max(1.0f, scaled(1.5f)));
                }
            if (wide && !future && cellW > ImGui::CalcTextSize("t00").x)
                centredText(dl, f.theme.fonts.cell, ImVec2(x0 + cellW * c, y), ImVec2(x0 + cellW * (c + 1), y + rh), textOn(fill),
                            "t" + std::to_string(op.thread));
        }
        if (fade) dl->AddRectFilled(ImVec2(o.x, y - (rowStep - rh) * 0.6f), ImVec2(o.x + w, y + rh + (rowStep - rh) * 0.2f), fade);
        const float ty = y + (rh - ImGui::GetFontSize()) * 0.5f;
        dl->AddText(ImVec2(o.x, ty), future ? pal.dimText : pal.cellText, name.c_str());
        const std::string fig = rowFigures(l);
        dl->AddText(ImVec2(o.x + w - ImGui::CalcTextSize(fig.c_str()).x, ty), future ? pal.dimText : pal.cellText, fig.c_str());
        if (hovered && ImGui::GetMousePos().y >= y - (rowStep - rh) * 0.6f && ImGui::GetMousePos().y < y + rh + (rowStep - rh) * 0.4f)
            ImGui::SetTooltip(l.adds ? "%s: %d threads add, %d adds (green: a slot written with a sum, its thread inside; a "
                                       "line from each slot it read in the level above)."
                                     : "%s: %d threads fill %zu slots from the input (orange).",
                              name.c_str(), l.activeThreads, l.adds ? l.adds : static_cast<int>(l.ops.size()), l.ops.size());
    }
    dl->PopClipRect();
}

/// The work table: this kernel's adds (so far and in all) and steps against PMPP's formulas.
void workTable(Frame& f, const sim::ScanNetwork& net, uint64_t addsSoFar)
{
    const ImGuiTableFlags tf = ImGuiTableFlags_Borders | ImGuiTableFlags_RowBg | ImGuiTableFlags_SizingStretchProp;
    if (!ImGui::BeginTable("work", 4, tf)) return;
    const ImVec2 at = ImGui::GetCursorScreenPos();
    const std::string first = "scan of n = " + std::to_string(net.section);
    ImGui::TableSetupColumn(first.c_str());
    ImGui::TableSetupColumn("adds");
    ImGui::TableSetupColumn("steps");
    ImGui::TableSetupColumn("work efficiency");
    ImGui::TableHeadersRow();
    const uint64_t n = static_cast<uint64_t>(net.section);
    const uint64_t seq = sim::sequentialScanAdds(n);
    const bool pow2 = n && (n & (n - 1)) == 0;
    int log2n = 0;
    for (uint64_t v = n; v > 1; v >>= 1) ++log2n;
    auto row = [&](const std::string& what, const std::string& adds, const std::string& steps, uint64_t total, bool mine) {
        ImGui::TableNextRow();
        if (mine) ImGui::TableSetBgColor(ImGuiTableBgTarget_RowBg1, f.theme.palette.codeLine);
        ImGui::TableNextColumn();
        ImGui::TextUnformatted(what.c_str());
        ImGui::TableNextColumn();
        ImGui::TextUnformatted(adds.c_str());
        ImGui::TableNextColumn();
        ImGui::TextUnformatted(steps.c_str());
        ImGui::TableNextColumn();
        char e[32];
        std::snprintf(e, sizeof e, "%.2f", total ? static_cast<double>(seq) / static_cast<double>(total) : 0.0);
        ImGui::TextUnformatted(total ? e : "-");
    };
    row("this kernel", std::to_string(addsSoFar) + " of " + std::to_string(net.adds), std::to_string(net.steps), net.adds, true);
    row("sequential, n - 1", std::to_string(seq), std::to_string(seq), seq, false);
    if (pow2) {
        row("Kogge-Stone, n log2 n - (n - 1)", std::to_string(sim::koggeStoneAdds(n)), std::to_string(log2n), sim::koggeStoneAdds(n), false);
        row("Brent-Kung, 2n - 2 - log2 n", std::to_string(sim::brentKungAdds(n)), std::to_string(std::max(0, 2 * log2n - 1)),
            sim::brentKungAdds(n), false);
    }
    ImGui::EndTable();
    noteFigure(at, ImVec2(at.x + ImGui::GetContentRegionAvail().x, ImGui::GetItemRectMax().y));
}

}  // namespace

void ScanPanel::draw(Frame& f)
{
    if (f.loaded.sim && f.loaded.generation != generation_) {
        generation_ = f.loaded.generation;
        net_ = sim::scanNetwork(f.loaded.sim->trace);
    }
    if (beginPanel(f, id)) {
        if (!f.loaded.sim) {
            ImGui::TextUnformatted("Simulating...");
        } else if (net_.array < 0) {
            ImGui::TextWrapped("No scan network: no thread of this block stores a sum of elements of one array into it "
                               "(PMPP ch. 11's scans do).");
        } else {
            const int level = net_.levelAt(f.view.cursor);
            const std::string array = f.loaded.sim->trace.arrays[static_cast<size_t>(net_.array)].name;
            const std::string legend = "The scan in " + array + " (PMPP Figs. 11.2, 11.4): a green slot holds a new sum, "
                                       "written by the thread inside it from the slots whose lines reach it; orange, a "
                                       "load from the input. Right, each level's adds.";
            if (!f.view.presentation) colouredText(f.theme.palette.dimText, legend);
            // A row of several launches (PMPP sec. 11.6's hierarchical scan): this network is one
            // launch's block; the counters elsewhere add up every launch.
            const sim::Scenario& sc = f.loaded.sim->scenario;
            if (const int launches = sim::launchCount(sc); launches > 1)
                ImGui::TextWrapped("Launch %d of %d, block %u of %llu. The other panels' counters add up all %d launches.",
                                   sc.launch, launches, sc.block.x, static_cast<unsigned long long>(f.loaded.sim->grid.count()),
                                   launches);
            const uint64_t soFar = net_.addsBefore(f.view.cursor);
            if (level >= 0) {
                const sim::ScanLevel& l = net_.levels[static_cast<size_t>(level)];
                ImGui::TextWrapped("Now: %s, %d %s; %llu of %llu adds done (the sequential scan makes %d).",
                                   levelName(l, static_cast<size_t>(level)).c_str(), l.activeThreads,
                                   l.activeThreads == 1 ? "thread adds" : "threads add",
                                   static_cast<unsigned long long>(soFar), static_cast<unsigned long long>(net_.adds),
                                   std::max(0, net_.section - 1));
                if (f.view.presentation) tooltip(legend.c_str());
            }
            drawNetwork(f, net_, level, !f.view.presentation);
            if (!f.view.presentation) workTable(f, net_, soFar);
        }
    }
    ImGui::End();
}

std::unique_ptr<Panel> makeScanPanel() { return std::make_unique<ScanPanel>(); }

}  // namespace ts::app
