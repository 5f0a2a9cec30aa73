// Ladder: the optimisation ladder's timings as horizontal bars (docs/roofline.md, "The Ladder
// panel"): one bar per result of the loaded results file, its GFLOPS and its share of cuBLAS,
// cuBLAS the 100% bar; beside each bar the counts that explain the step, from one simulation
// of each kernel on the same 256^3 problem (sim::countRung, sim::ladderCountEdge): global load requests and
// sectors, shared-memory wavefronts and bank conflicts, multiply-adds per element read from
// shared memory, threads per block, and registers per thread and static shared memory per
// block where the file gives them (bench --out records them).
// Without a results file the rungs are listed with their counts and no bars. Where the panel
// is too narrow for one row per rung, the counts go on a line of their own under the bar.
#include <imgui.h>

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <string>
#include <vector>

#include "figure_notes.hpp"
#include "ladder_view.hpp"
#include "layout.hpp"
#include "panels.hpp"
#include "sim/catalogue/kernel_info.hpp"
#include "sim/catalogue/kernel_registry.hpp"
#include "widgets.hpp"

namespace ts::app {
namespace {

/// The count columns beside the bars.
struct Column {
    const char* head;
    const char* tip;
};
constexpr Column kColumns[] = {
    {"ld req", "Global load requests: warp load instructions, the whole grid (simulated)."},
    {"sectors", "32-byte sectors those requests touch: the traffic they ask of the memory system."},
    {"wavefr.", "Shared-memory wavefronts, loads and stores: passes through the 32 banks."},
    {"confl.", "Shared-memory bank conflicts: wavefronts beyond the fewest the requests' bytes need (one per request "
               "for 32-bit accesses, one per 128 bytes of each half-warp for 128-bit ones), as Nsight Compute counts them."},
    {"FMA/ld", "Multiply-adds per element read from shared memory (data reuse from registers)."},
    {"thr", "Threads per block."},
    {"regs", "Registers per thread as compiled (ptxas -v), from the results file; \u2014 where it has none."},
    {"smem", "Static shared memory per block as compiled (the kernel's __shared__ arrays), from the results file; "
             "\u2014 where it has none."},
    {"occ.", "Warps resident per SM and their share of the most the SM holds, from the occupancy model of the results "
             "file's GPU with these threads, registers and shared memory (tilescope-cli occupancy); the fastest rung "
             "need not have the most."},
};
constexpr int kColumnCount = static_cast<int>(std::size(kColumns));
static_assert(kColumnCount == kLadderColumns, "a head and a tip for every cell of ladderCells");


/// The words after the bar: "41,802 GFLOPS  82.5 %" (on a slide "41,802  82.5 %", the
/// heading naming the unit).
std::string valueText(const LadderRow& r, bool slide)
{
    if (!r.gflops) return "\u2014";
    std::string s = thousands(*r.gflops) + (slide ? "" : " GFLOPS");
    if (r.percent) s += "  " + thousands(*r.percent, 1) + " %";
    return s;
}

std::string problemText(int j, int k, int l)
{
    return std::to_string(j) + " x " + std::to_string(k) + " x " + std::to_string(l);
}

/// The tooltip of a row: the kernel in words, its timing and what the counts mean.
std::string rowTip(const LadderRow& r, int edge)
{
    std::string s = r.kernel;
    if (r.kernel != "cublas" && r.tile) s += " (tile " + std::to_string(r.tile) + ")";
    if (const sim::KernelInfo* k = sim::findKernel(r.kernel)) s += ": " + std::string(k->summary) + ".";
    else if (r.kernel == "cublas") s += ": cuBLAS SGEMM in pure FP32, the 100 % bar.";
    if (r.gflops) {
        s += "\nMeasured";
        if (r.j) s += " at " + problemText(r.j, r.k, r.l);
        s += ": " + thousands(*r.gflops) + " GFLOPS";
        if (r.ms) s += " (" + thousands(*r.ms, 3) + " ms a launch)";
        if (r.percent) s += ", " + thousands(*r.percent, 1) + " % of cuBLAS";
        s += ".";
    } else {
        s += "\nNot measured: open a results file (File > Open results...).";
    }
    if (r.counts && r.counts->error.empty()) {
        const sim::Totals& t = r.counts->totals;
        s += "\nSimulated at " + problemText(edge, edge, edge) + ": " + thousands(double(t.global_ld_requests)) +
             " global load requests, " + thousands(double(t.global_ld_sectors)) + " sectors (" +
             thousands(t.global_ld_requests ? double(t.global_ld_sectors) / double(t.global_ld_requests) : 0, 2) +
             " a request); " + thousands(double(t.shared_ld_wavefronts + t.shared_st_wavefronts)) +
             " shared wavefronts, " + thousands(double(r.counts->sharedBankConflicts())) + " bank conflicts; " +
             ladderFmaText(*r.counts) + " multiply-adds per shared load; " + std::to_string(r.counts->threadsPerBlock) +
             " threads a block. A 128-bit access is one request of four elements a lane, as on the GPU.";
    } else if (r.counts) {
        s += "\nNo counts: " + r.counts->error;
    }
    if (r.registers || r.staticSharedBytes) {
        s += "\nCompiled instance (results file):";
        if (r.registers) s += " " + std::to_string(*r.registers) + " registers a thread" + (r.staticSharedBytes ? "," : ".");
        if (r.staticSharedBytes) s += " " + kibibytesText(*r.staticSharedBytes) + " of static shared memory a block.";
    }
    return s;
}

struct LadderPanel final : Panel {
    void draw(Frame& f) override;
};

void LadderPanel::draw(Frame& f)
{
    if (beginPanel(f, id)) {
        const Palette& pal = f.theme.palette;
        const bool slide = f.view.presentation;
        const bool measured = f.loaded.results != nullptr;
        const std::vector<LadderRow> rows = ladderRows(f.loaded);
        const bool counting = !f.loaded.ladder || f.loaded.ladder->resultsGeneration != f.loaded.resultsGeneration;
        const int edge = f.loaded.ladder && !f.loaded.ladder->counts.empty() ? f.loaded.ladder->counts.front().edge
                                                                             : sim::kRungCountEdge;
        // What the bars are and where they were measured; where the figures come from behind
        // a (?) beside it.
        std::string heading = "No timings loaded: File > Open results...";
        if (measured) {
            bool same = !rows.empty() && rows.front().j;
            for (const LadderRow& r : rows) same = same && r.j == rows.front().j && r.k == rows.front().k && r.l == rows.front().l;
            heading = std::string(slide ? "GFLOPS and share of cuBLAS" : "GFLOPS") +
                      (same ? " at " + problemText(rows.front().j, rows.front().k, rows.front().l) : "") + ", " +
                      f.loaded.results->measuredOn();
        }
        const std::string counted = "the simulator on " + problemText(edge, edge, edge) + ", every kernel the same problem";
        headingWithHelp(f.theme.fonts.bold, heading,
                        std::string(measured ? "Bars: the results file's GFLOPS, cuBLAS the 100 % bar. "
                                             : "GFLOPS come from a results file measured on a GPU (tilescope-cli bench "
                                               "--kernel ladder --out FILE). ") +
                            "Counts: " + counted + (counting ? " (counting...)" : "") +
                            ". Hover a row for its figures in words, a column's head for what it counts.");
        ImGui::Spacing();

        // One line per row whatever the width, so that the panel's height does not depend on
        // it: the name, the bar, its figures, then as many count columns as fit, in the order
        // of kPriority (all at the desk where there is room; on a slide at most the three that
        // tell the most); where even the bar does not fit, short names and figures.
        const float gap = scaled(10), lh = ImGui::GetTextLineHeight();
        const float avail = ImGui::GetContentRegionAvail().x;
        // Without timings no bars: "not measured" where they would be.
        const char* unmeasured = "not measured";
        const float minBar = measured ? ImGui::GetFontSize() * (slide ? 4 : 6) : ImGui::CalcTextSize(unmeasured).x;
        bool compact = slide;
        auto name = [&](const LadderRow& r) { return compact ? shortName(r.kernel) : r.kernel; };
        // Each name after its kernel's marker, the key to the Roofline's points (with timings).
        const float markW = measured ? lh + scaled(6) : 0;
        float nameW = 0, valueW = 0;
        auto measure = [&] {
            nameW = 0;
            valueW = ImGui::CalcTextSize("\u2014").x;
            for (const LadderRow& r : rows) {
                nameW = std::max(nameW, markW + ImGui::CalcTextSize(name(r).c_str()).x);
                valueW = std::max(valueW, ImGui::CalcTextSize(valueText(r, compact).c_str()).x);
            }
            if (!measured) valueW = 0;
        };
        measure();
        if (!compact && nameW + gap + minBar + gap + valueW > avail) {
            compact = true;
            measure();
        }
        std::vector<std::vector<std::string>> text;
        for (const LadderRow& r : rows) text.push_back(ladderCells(r, counting, compact));
        float colW[kColumnCount] = {};
        for (int c = 0; c < kColumnCount; ++c) {
            colW[c] = ImGui::CalcTextSize(kColumns[c].head).x;
            for (const auto& t : text) colW[c] = std::max(colW[c], ImGui::CalcTextSize(t[c].c_str()).x);
        }
        constexpr int kPriority[] = {1, 3, 4, 0, 2, 5, 6, 8, 7};   // sectors, confl., FMA/ld, ld req, wavefr., thr, regs, occ., smem
        std::vector<int> shown;
        float countsW = 0;
        const float fixed = nameW + gap + minBar + (measured ? gap + valueW : 0);
        for (int c : kPriority) {
            if (slide && shown.size() == 3) break;
            if (fixed + countsW + gap + colW[c] > avail) break;
            shown.push_back(c);
            countsW += gap + colW[c];
        }
        std::sort(shown.begin(), shown.end());   // in kColumns order on screen
        const float barX = nameW + gap;
        const float barW = measured ? std::max(scaled(20), avail - barX - gap - valueW - countsW - 2) : minBar;
        const float countsX = avail - countsW + gap;
        double scale = 0;
        for (const LadderRow& r : rows)
            if (r.gflops) scale = std::max(scale, *r.gflops);

        const float x0 = ImGui::GetCursorPosX();
        // Where the counts come from, in the room left of the columns' heads.
        std::string source = "counts: " + counted + (counting ? " (counting...)" : "");
        if (ImGui::CalcTextSize(source.c_str()).x > countsX - gap)
            source = "counts: simulated on " + problemText(edge, edge, edge) + (counting ? "..." : "");
        const bool sourceShown = !slide && ImGui::CalcTextSize(source.c_str()).x <= countsX - gap;
        if (sourceShown) ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(pal.dimText), "%s", source.c_str());
        // The columns' heads, right-aligned over their figures.
        float hx = countsX;
        bool first = !sourceShown;
        for (int c : shown) {
            const float tw = ImGui::CalcTextSize(kColumns[c].head).x;
            if (!first) ImGui::SameLine(x0 + hx + colW[c] - tw, 0);
            else ImGui::SetCursorPosX(x0 + hx + colW[c] - tw);
            first = false;
            ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(pal.dimText), "%s", kColumns[c].head);
            tooltip(kColumns[c].tip);
            hx += colW[c] + gap;
        }
        ImDrawList* dl = ImGui::GetWindowDrawList();
        // The rows share the height the panel has (each at least a line), the bars two thirds
        // of their row, the text centred on them.
        const float rowMin = lh + ImGui::GetStyle().ItemSpacing.y;
        const float n = static_cast<float>(std::max<size_t>(rows.size(), 1));
        const float rowsH = elasticHeight(n * rowMin, FLT_MAX);
        const float rowH = std::max(rowMin, rowsH / n);
        const float barH = std::max(lh, std::min(rowH - scaled(4), rowH * 0.67f));
        const ImVec2 top = ImGui::GetCursorScreenPos();
        const ImVec2 headsTop(top.x, top.y - ImGui::GetTextLineHeightWithSpacing());
        const ImU32 textColour = ImGui::GetColorU32(ImGuiCol_Text);
        const ImU32 markEdge = (pal.cellText & 0x00FFFFFF) | 0xE0000000u;
        for (size_t i = 0; i < rows.size(); ++i) {
            const LadderRow& r = rows[i];
            ImGui::PushID(static_cast<int>(i));
            const ImVec2 rowStart(top.x, top.y + rowH * static_cast<float>(i));
            const float mid = rowStart.y + rowH / 2, ty = mid - lh / 2;
            ImGui::SetCursorScreenPos(rowStart);
            ImGui::InvisibleButton("row", ImVec2(avail, rowH));
            const bool hovered = ImGui::IsItemHovered();
            const KernelMark mark = kernelMark(r.kernel, pal);
            // The marker is the key to the Roofline's points, which are the results file's.
            if (measured) drawMark(dl, ImVec2(rowStart.x + lh / 2, mid), lh * 0.36f, mark.shape, mark.colour, true, markEdge, 1.5f);
            dl->AddText(ImVec2(rowStart.x + markW, ty), textColour, name(r).c_str());
            const float bx = rowStart.x + barX;
            if (measured) {
                dl->AddRectFilled(ImVec2(bx, mid - barH / 2), ImVec2(bx + barW, mid + barH / 2), pal.chartBg, 2);
                if (r.gflops && scale > 0) {
                    const float w = static_cast<float>(std::clamp(*r.gflops / scale, 0.0, 1.0)) * barW;
                    dl->AddRectFilled(ImVec2(bx, mid - barH / 2 + 1), ImVec2(bx + std::max(w, 2.0f), mid + barH / 2 - 1),
                                      mark.colour, 2);
                }
                dl->AddText(ImVec2(bx + barW + gap, ty), textColour, valueText(r, compact).c_str());
            } else {
                dl->AddText(ImVec2(bx, ty), pal.dimText, unmeasured);
            }
            float x = countsX;
            for (int c : shown) {
                const float tw = ImGui::CalcTextSize(text[i][c].c_str()).x;
                dl->AddText(ImVec2(rowStart.x + x + colW[c] - tw, ty), textColour, text[i][c].c_str());
                x += colW[c] + gap;
            }
            if (hovered) {
                dl->AddRect(ImVec2(rowStart.x - 2, rowStart.y), ImVec2(rowStart.x + avail, rowStart.y + rowH), pal.chartLine, 2);
                ImGui::BeginTooltip();
                ImGui::PushTextWrapPos(ImGui::GetFontSize() * 30.0f);
                ImGui::TextUnformatted(rowTip(r, edge).c_str());
                ImGui::PopTextWrapPos();
                ImGui::EndTooltip();
            }
            ImGui::PopID();
        }
        ImGui::SetCursorScreenPos(top);
        ImGui::Dummy(ImVec2(avail, rowH * n));
        // The figure: the columns' heads and the rows (the pixel checks measure it).
        noteFigure(headsTop, ImVec2(top.x + avail, top.y + rowH * n));
    }
    ImGui::End();
}

}  // namespace

std::unique_ptr<Panel> makeLadderPanel() { return std::make_unique<LadderPanel>(); }

}  // namespace ts::app
