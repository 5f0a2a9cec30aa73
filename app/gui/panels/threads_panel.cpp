// Threads: every thread of the traced block with (ty, tx), Pvalue so far, its P element
// P[Row][Col] (green once stored) and what it does in the current step. Threads that
// compute no P element (Row or Col past the matrix) but still load their tile elements are
// greyed and say why. A thread whose shared
// read in this step got a wrong value (a dropped barrier) is marked, and the two threads of
// the hazard shown in Hazards are highlighted.
#include <imgui.h>
#include <imgui_internal.h>

#include <algorithm>
#include <string>
#include <vector>

#include "layout.hpp"
#include "panels.hpp"
#include "sim/teaching/kernel_view.hpp"
#include "widgets.hpp"

namespace ts::app {
namespace {

/// An element as the kernel's source indexes it, as the Code panel writes it: a 2D array the
/// source subscripts twice (Mds[ty][tx], conv2d's mask Mc[i][j]) by row and column, a global
/// array by its flat index (M[Row*Width + k] is M[6]).
std::string indexText(const sim::Scenario& s, const sim::Trace& t, const sim::Event& e)
{
    const sim::ArrayInfo& a = t.arrays[e.array];
    const std::string name = sim::writtenArrayName(s, a);
    if (a.rows > 1 && a.space != sim::Space::Global)
        return name + "[" + std::to_string(e.index / a.cols) + "][" + std::to_string(e.index % a.cols) + "]";
    return name + "[" + std::to_string(e.index) + "]";
}

/// What a thread did in the step, from its events: "M[6] -> Mds[1][0]", "Mds[0][1] * Nds[1][0]"
/// (the operands of a multiply-add), "input[8], input[12] -> input[8]" (what a store's
/// statement read), "atomic output[0]", "branch not taken".
std::string doing(const sim::Scenario& s, const sim::Trace& t, const std::vector<const sim::Event*>& ev)
{
    std::string out, pending, listed;   // the loads so far, joined as a product and as a list
    for (const sim::Event* e : ev) {
        switch (e->op) {
        case sim::Op::GlobalLoad:
        case sim::Op::SharedLoad:
        case sim::Op::ConstantLoad:
            pending += (pending.empty() ? "" : " * ") + indexText(s, t, *e);
            listed += (listed.empty() ? "" : ", ") + indexText(s, t, *e);
            break;
        case sim::Op::Atomic:
            out += (out.empty() ? "" : "; ") + (listed.empty() ? std::string("register") : listed) + " -> atomic " +
                   indexText(s, t, *e);
            pending.clear();
            listed.clear();
            break;
        case sim::Op::Branch:
            if (e->value == 0.0f && out.empty() && pending.empty()) out = "branch not taken";
            break;
        case sim::Op::Shuffle:
            out += (out.empty() ? "" : "; ") + std::string("lane ") + std::to_string(e->index) + " -> register (shuffle)";
            pending.clear();
            listed.clear();
            break;
        case sim::Op::SharedStore:
        case sim::Op::GlobalStore:
            // With nothing read in the step, the value comes from a register: Pvalue for a
            // store of P, the registers that carried a phase's tile on the double-buffered rungs.
            out += (out.empty() ? "" : "; ") +
                   (!listed.empty()                   ? listed
                    : e->op == sim::Op::GlobalStore ? std::string("Pvalue")
                                                       : std::string("register")) +
                   " -> " + indexText(s, t, *e);
            pending.clear();
            listed.clear();
            break;
        case sim::Op::ZeroFill:
            out += (out.empty() ? "" : "; ") + std::string("0 -> ") + indexText(s, t, *e) + " (zero fill)";
            pending.clear();
            listed.clear();
            break;
        case sim::Op::Fma:
            out += (out.empty() ? "" : "; ") + std::string("Pvalue += ") + pending;
            pending.clear();
            listed.clear();
            break;
        case sim::Op::Barrier: break;
        }
    }
    return out;
}

/// The shared slots a thread read wrong in the step (Loaded::wrongReads), "Mds[0][1],
/// Nds[1][0]"; empty if none.
std::string wrongText(const Frame& f, const sim::Trace& t, const std::vector<const sim::Event*>& ev)
{
    std::string out;
    if (f.loaded.wrongReads.size() != t.events.size()) return out;
    for (const sim::Event* e : ev)
        if (f.loaded.wrongReads[e - t.events.data()])
            out += (out.empty() ? "" : ", ") + indexText(f.loaded.sim->scenario, t, *e);
    return out;
}

/// The panel; it keeps the height of its rows.
struct ThreadsPanel final : Panel {
    void draw(Frame& f) override;

private:
    float contentHeight_ = 0;   ///< the rows' height in the frame before
};

}  // namespace

void ThreadsPanel::draw(Frame& f)
{
    if (beginPanel(f, id)) {
        const sim::Simulation* s = f.loaded.sim.get();
        if (!s || f.replay.threads.empty()) {
            ImGui::TextUnformatted(f.busy.simulating ? "Simulating..." : "No threads to show.");
        } else {
            const sim::Trace& t = s->trace;
            const Palette& pal = f.theme.palette;
            const int n = static_cast<int>(f.replay.threads.size());
            std::vector<std::vector<const sim::Event*>> byThread(n);
            const bool barrier = f.view.cursor >= 0 && t.steps[f.view.cursor].kind == sim::StepKind::Barrier;
            if (f.view.cursor >= 0) {
                const sim::Step& st = t.steps[f.view.cursor];
                for (int i = st.begin; i < st.end; ++i)
                    if (t.events[i].thread < n) byThread[t.events[i].thread].push_back(&t.events[i]);
            }
            const sim::Hazard* hz = focusedHazard(f.loaded, f.view);
            // A list of every thread: as tall as its rows where there is room, else it scrolls.
            // Rows wrap what does not fit their column, so they are drawn without a clipper
            // (a block has at most 1024 threads).
            const ImGuiTableFlags tf = ImGuiTableFlags_BordersInnerH | ImGuiTableFlags_RowBg |
                                       ImGuiTableFlags_ScrollY | ImGuiTableFlags_SizingFixedFit;
            const float row = ImGui::GetTextLineHeight() + 2 * ImGui::GetStyle().CellPadding.y;
            const float least = std::min(5.0f, static_cast<float>(n + 1)) * row + 1;
            const float want = std::max(least, contentHeight_ + 2);   // the header row included
            if (ImGui::BeginTable("threads", 4, tf, ImVec2(0, elasticHeight(least, want)))) {
                markScrollingList();
                contentHeight_ = ImGui::GetCurrentWindow()->ContentSize.y;
                ImGui::TableSetupScrollFreeze(0, 1);
                ImGui::TableSetupColumn("(ty, tx)");
                ImGui::TableSetupColumn("Pvalue");
                ImGui::TableSetupColumn("P element", ImGuiTableColumnFlags_WidthFixed, ImGui::CalcTextSize("P[000][000]").x);
                ImGui::TableSetupColumn("this step", ImGuiTableColumnFlags_WidthStretch);
                ImGui::TableHeadersRow();
                for (int th = 0; th < n; ++th) {
                    const sim::ThreadView& tv = f.replay.threads[th];
                    const sim::Variables v = sim::threadVariables(s->scenario, t, th, f.view.cursor);
                    ImGui::TableNextRow();
                    const char* role = !hz ? nullptr
                                       : hz->first.thread == th && hz->second.thread == th ? " 1st+2nd"
                                       : hz->first.thread == th                           ? " 1st"
                                       : hz->second.thread == th                          ? " 2nd"
                                                                                          : nullptr;
                    if (role) ImGui::TableSetBgColor(ImGuiTableBgTarget_RowBg1, pal.hazardLine);
                    ImGui::TableNextColumn();
                    if (!tv.hasOutput) ImGui::PushStyleColor(ImGuiCol_Text, pal.noOutput);
                    std::string id = "(" + std::to_string(v.at("ty")) + ", " + std::to_string(v.at("tx")) + ")";
                    if (role) id += role;
                    // While a practice question asks for threads, a click adds the thread to the answer.
                    const CellRef thread{"thread", sim::Cell{static_cast<int>(v.at("ty")), static_cast<int>(v.at("tx"))}};
                    if (ImGui::Selectable(id.c_str(), f.view.thread == th, ImGuiSelectableFlags_SpanAllColumns) &&
                        !practiceCellClicked(f, thread, true))
                        f.view.thread = th;
                    practiceCellDrawn(f, ImGui::GetWindowDrawList(), thread, ImGui::GetItemRectMin(), ImGui::GetItemRectMax());
                    tooltip(practiceWantsCells(f.view.practice)
                                ? "Click to add this thread to the answer, or to take it back."
                                : "Click to select this thread: the Code panel shows its index expressions.");
                    ImGui::TableNextColumn();
                    ImGui::Text("%.4g", tv.pvalue);
                    tooltip("Pvalue = " + cellValue(tv.pvalue, 6) + " after " + std::to_string(tv.fmas) +
                            " fused multiply-adds (a register of the thread)");
                    ImGui::TableNextColumn();
                    // A 1D convolution's thread i computes P[i]: one index, as the 1D lecture writes it.
                    const bool oneD = v.count("Width") > 0;
                    // Row and Col are unknown where they change along the kernel's loop (a rung
                    // whose threads compute several elements, sim::threadVariables).
                    auto named = [&](const char* n) {
                        const auto it = v.find(n);
                        return it == v.end() ? std::string("?") : std::to_string(it->second);
                    };
                    auto past = [&](const char* n, long long size) {
                        const auto it = v.find(n);
                        return it != v.end() && it->second >= size;
                    };
                    const std::string rowCol = oneD ? "element i = " + named("Col")
                                                    : "Row " + named("Row") + ", Col " + named("Col");
                    if (tv.hasOutput) {
                        // A 1D output (conv1d's P) by its index alone, as its source writes it.
                        const sim::ArrayInfo& out = t.arrays[tv.outputArray];
                        const int cols = out.cols;
                        const std::string e = out.rows > 1 ? "P[" + std::to_string(tv.outputIndex / cols) + "][" +
                                                                 std::to_string(tv.outputIndex % cols) + "]"
                                                           : "P[" + std::to_string(tv.outputIndex) + "]";
                        if (tv.stored) ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(pal.okText), "%s", e.c_str());
                        else ImGui::TextUnformatted(e.c_str());
                        tooltip("The thread's P element (" + rowCol + ")" +
                                (tv.stored ? ", stored: finished (green, as in Matrices)" : ", not stored yet"));
                    } else {
                        std::string why = "none";
                        if (oneD) why += ": i = " + named("Col") + " >= Width";
                        else if (past("Row", s->scenario.j)) why += ": Row " + named("Row") + " >= j";
                        else if (past("Col", s->scenario.l)) why += ": Col " + named("Col") + " >= l";
                        ImGui::TextWrapped("%s", why.c_str());
                        tooltip("This thread (" + rowCol + ") computes no P element, yet it still loads its elements "
                                "of the M and N tiles (or zero-fills them) for the other threads of its block.");
                    }
                    ImGui::TableNextColumn();
                    const std::string wrong = wrongText(f, t, byThread[th]);
                    if (barrier) ImGui::TextWrapped("waits at __syncthreads()");
                    else if (byThread[th].empty()) ImGui::TextDisabled("-");
                    else if (wrong.empty()) ImGui::TextWrapped("%s", doing(s->scenario, t, byThread[th]).c_str());
                    else {
                        ImGui::PushStyleColor(ImGuiCol_Text, pal.wrongReadText);
                        ImGui::TextWrapped("%s  [wrong: %s]", doing(s->scenario, t, byThread[th]).c_str(), wrong.c_str());
                        ImGui::PopStyleColor();
                        tooltip("This thread read a shared slot and got a different value than it gets with every "
                                "barrier in place: a stale one (old, or never written: NaN) when the barrier "
                                "after the load is missing, the next phase's when the one after the use is.");
                    }
                    if (!tv.hasOutput) ImGui::PopStyleColor();
                }
                ImGui::EndTable();
            }
        }
    }
    ImGui::End();
}

std::unique_ptr<Panel> makeThreadsPanel() { return std::make_unique<ThreadsPanel>(); }

}  // namespace ts::app
