// Code: the kernel's own source file (embedded at build time, the very text the simulator
// and nvcc compiled) with the current step's line highlighted, and for the selected thread
// every access of the step as its index expression with the thread's numbers put in,
// evaluated, next to the index the simulator recorded. Beside each droppable barrier
// (x.syncthreads(AFTER_LOAD), x.syncthreads(AFTER_COMPUTE)) a toggle re-simulates with that
// barrier dropped; the two lines of the hazard chosen in Hazards are marked.
#include <imgui.h>

#include <set>
#include <string>

#include "kernels/context.cuh"
#include "layout.hpp"
#include "panels.hpp"
#include "sim/kernel_view.hpp"
#include "widgets.hpp"

namespace ts::app {
namespace {

const char* verb(sim::Op op)
{
    switch (op) {
    case sim::Op::GlobalLoad:
    case sim::Op::SharedLoad:
    case sim::Op::ConstantLoad: return "reads ";
    case sim::Op::ZeroFill: return "zero-fills ";
    default: return "writes ";
    }
}

/// The ts::kernels::Barrier bit a source line's barrier call names, or 0.
unsigned barrierOnLine(const char* b, const char* e)
{
    const std::string line(b, e);
    if (line.find("syncthreads(AFTER_LOAD)") != std::string::npos) return kernels::AFTER_LOAD;
    if (line.find("syncthreads(AFTER_COMPUTE)") != std::string::npos) return kernels::AFTER_COMPUTE;
    return 0;
}

/// The "drop this barrier" toggle after a barrier line: re-simulates the loaded scenario
/// with the barrier's bit flipped.
void dropToggle(Frame& f, const sim::Simulation& s, unsigned bit, unsigned line)
{
    bool dropped = (s.scenario.dropBarriers & bit) != 0;
    ImGui::SameLine(0, scaled(24));
    ImGui::PushID(static_cast<int>(line));
    ImGui::PushStyleVar(ImGuiStyleVar_FramePadding, ImVec2(2, 0));
    ImGui::BeginDisabled(f.busy.simulating);
    if (ImGui::Checkbox("drop this barrier", &dropped)) {
        sim::Scenario d = s.scenario;
        d.dropBarriers ^= bit;
        f.requests.load = presetFor(f.loaded, d);
    }
    ImGui::EndDisabled();
    ImGui::PopStyleVar();
    ImGui::PopID();
    tooltip(bit == kernels::AFTER_LOAD
                ? "Re-simulate with every thread skipping this __syncthreads() (the same flag for the whole "
                  "block, as on the GPU). Without it a thread can read a tile slot before its owner has "
                  "written it: a read-after-write (RAW) hazard, a true dependence (PMPP sec. 5.4, Fig. 5.9)."
                : "Re-simulate with every thread skipping this __syncthreads() (the same flag for the whole "
                  "block, as on the GPU). Without it a thread can overwrite a slot with the next phase's tile "
                  "while others still read the old one: a write-after-read (WAR) hazard, a false dependence "
                  "(PMPP sec. 5.4, Fig. 5.9).");
}

/// "<- RAW: write by (ty, tx)" after a line that holds an access of the chosen hazard.
std::string hazardTag(const sim::Trace& t, const sim::Hazard& h, unsigned line)
{
    std::string tag;
    const int bx = static_cast<int>(t.blockDim.x);
    for (const sim::HazardAccess* a : {&h.first, &h.second}) {
        if (a->line != line) continue;
        tag += std::string(tag.empty() ? "<- " : "; ") + (a == &h.first ? "1st: " : "2nd: ") +
               (a->write ? "write" : "read") + " by (" + std::to_string(a->thread / bx) + "," +
               std::to_string(a->thread % bx) + ")";
    }
    return tag.empty() ? tag : tag + " [" + sim::hazardName(h.kind) + "]";
}

/// The step and simulation the listing was last scrolled to (it scrolls once per step, so
/// that the user may scroll away).
struct Scrolled {
    int cursor = -1;
    uint64_t generation = ~0ull;
};

void source(Frame& f, const sim::Simulation& s, const std::string& text, float height, Scrolled& scrolled)
{
    const Palette& pal = f.theme.palette;
    const sim::KernelInfo* info = sim::findKernel(s.scenario.kernel);
    const sim::Hazard* hz = focusedHazard(f.loaded, f.view);
    const sim::Step* st = f.view.cursor >= 0 ? &s.trace.steps[f.view.cursor] : nullptr;
    std::set<unsigned> threadLines;
    if (st)
        for (int i = st->begin; i < st->end; ++i)
            if (s.trace.events[i].thread == f.view.thread) threadLines.insert(s.trace.events[i].line);

    ImGui::BeginChild("source", ImVec2(0, height), true, ImGuiWindowFlags_HorizontalScrollbar);
    markScrollingList();
    // On a slide the listing takes the cell font, a little smaller, so more of each line fits.
    ImGui::PushFont(f.view.presentation ? f.theme.fonts.cell : f.theme.fonts.mono);
    const float lh = ImGui::GetTextLineHeightWithSpacing();
    if (st && (scrolled.cursor != f.view.cursor || scrolled.generation != f.loaded.generation)) {
        ImGui::SetScrollY(std::max(0.0f, (static_cast<float>(st->line) - 1) * lh - height * 0.45f));
        // Across: if the step's line does not fit but its statement would, start the view at
        // the statement's first character (past the line number and the indentation).
        size_t b = 0;
        for (unsigned n = 1; n < st->line && b != std::string::npos; ++n) b = text.find('\n', b) + 1;
        if (b != std::string::npos && b <= text.size()) {
            size_t e = text.find('\n', b);
            if (e == std::string::npos) e = text.size();
            const float numbers = ImGui::CalcTextSize("000").x + ImGui::GetStyle().ItemSpacing.x;
            const float full = numbers + ImGui::CalcTextSize(text.data() + b, text.data() + e).x;
            const size_t indent = std::min(e, text.find_first_not_of(' ', b)) - b;
            const float view = ImGui::GetWindowContentRegionMax().x - ImGui::GetWindowContentRegionMin().x;
            const float statement = ImGui::CalcTextSize(text.data() + b + indent, text.data() + e).x;
            // Only when that makes the whole statement fit; otherwise the line numbers stay.
            const bool shift = full > view && statement <= view;
            ImGui::SetScrollX(shift ? ImGui::CalcTextSize(" ").x * static_cast<float>(indent) : 0.0f);
        }
        scrolled = Scrolled{f.view.cursor, f.loaded.generation};
    }
    ImDrawList* dl = ImGui::GetWindowDrawList();
    unsigned n = 0;
    size_t b = 0;
    while (b <= text.size()) {
        size_t e = text.find('\n', b);
        if (e == std::string::npos) e = text.size();
        ++n;
        const ImVec2 p = ImGui::GetCursorScreenPos();
        const float w = ImGui::GetWindowWidth() + ImGui::GetScrollX();
        if (st && n == st->line) dl->AddRectFilled(p, ImVec2(p.x + w, p.y + lh), pal.codeLine);
        else if (threadLines.count(n)) dl->AddRectFilled(p, ImVec2(p.x + w, p.y + lh), pal.codeLineAlt);
        const std::string tag = hz ? hazardTag(s.trace, *hz, n) : std::string();
        if (!tag.empty()) dl->AddRectFilled(p, ImVec2(p.x + w, p.y + lh), pal.hazardLine);
        const unsigned bit = info ? barrierOnLine(text.data() + b, text.data() + e) & info->barriers : 0;
        const bool dropped = (bit & s.scenario.dropBarriers) != 0;
        ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(pal.dimText), "%3u", n);
        ImGui::SameLine();
        if (dropped) ImGui::PushStyleColor(ImGuiCol_Text, pal.error);
        ImGui::TextUnformatted(text.data() + b, text.data() + e);
        if (dropped) {
            ImGui::PopStyleColor();
            const ImVec2 a = ImGui::GetItemRectMin(), z = ImGui::GetItemRectMax();
            const float x0 = a.x + ImGui::CalcTextSize(" ").x * static_cast<float>(text.find_first_not_of(' ', b) - b);
            dl->AddLine(ImVec2(x0, (a.y + z.y) * 0.5f), ImVec2(z.x, (a.y + z.y) * 0.5f), pal.error, 2.0f);
        }
        if (bit) dropToggle(f, s, bit, n);
        if (!tag.empty()) {
            ImGui::SameLine(0, scaled(16));
            ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(pal.hazard), "%s", tag.c_str());
        }
        if (e == text.size()) break;
        b = e + 1;
    }
    ImGui::PopFont();
    ImGui::EndChild();
}

void explanations(Frame& f, const sim::Simulation& s, const std::string& text)
{
    const Palette& pal = f.theme.palette;
    const sim::Trace& t = s.trace;
    if (f.view.cursor < 0) return;
    const sim::Step& st = t.steps[f.view.cursor];
    const sim::Variables v = sim::threadVariables(s.scenario, t, f.view.thread, f.view.cursor);
    ImGui::PushFont(f.theme.fonts.bold);
    ImGui::Text("Thread (ty=%lld, tx=%lld), Row %lld, Col %lld:", v.at("ty"), v.at("tx"), v.at("Row"), v.at("Col"));
    ImGui::PopFont();
    tooltip("The selected thread (click one in Threads, Shared memory or P). Its variables are put into "
            "the index expressions of the source lines it ran in this step.");
    if (st.kind == sim::StepKind::Barrier) {
        ImGui::TextWrapped("waits at __syncthreads() (line %u) until every thread of the block has arrived.", st.line);
        return;
    }
    const auto xs = sim::explainAccesses(s.scenario, t, f.view.thread, f.view.cursor, text);
    if (xs.empty()) {
        ImGui::TextDisabled("does nothing in this step (its bounds check is false, or it has no access here).");
        return;
    }
    ImGui::PushFont(f.theme.fonts.mono);
    for (const sim::AccessExplanation& x : xs) {
        ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(pal.dimText), "%3u", x.line);
        ImGui::SameLine();
        ImGui::TextUnformatted(verb(x.op));
        ImGui::SameLine(0, 0);
        if (x.written.empty()) {
            ImGui::PopFont();
            colouredText(pal.error, x.error);
            ImGui::PushFont(f.theme.fonts.mono);
            continue;
        }
        std::string chain = x.written + " = " + x.substituted;
        if (!x.evaluated.empty() && x.evaluated != x.substituted) chain += " = " + x.evaluated;
        ImGui::TextUnformatted(chain.c_str());
        const sim::ArrayInfo* a = nullptr;
        for (const sim::ArrayInfo& ai : t.arrays)
            if (ai.name == x.array) a = &ai;
        std::string detail = "value " + cellValue(x.value, false);
        if (a && a->space == sim::Space::Global && a->rows > 1)
            detail += ", i.e. " + x.array + "[" + std::to_string(x.recorded / a->cols) + "][" +
                      std::to_string(x.recorded % a->cols) + "]";
        if (x.agrees()) {
            detail += ", the index the simulator recorded";
            ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(pal.dimText), "    %s", detail.c_str());
        } else {
            ImGui::PopFont();
            colouredText(pal.error, x.error.empty()
                                        ? "The simulator recorded flat index " + std::to_string(x.recorded) +
                                              " but the expression gives " + std::to_string(x.flat.value_or(-1)) +
                                              ": a bug."
                                        : x.error + " The simulator recorded flat index " + std::to_string(x.recorded) + ".");
            ImGui::PushFont(f.theme.fonts.mono);
        }
    }
    ImGui::PopFont();
}

/// The panel: the kernel's source with the step's line, then the selected thread's accesses.
struct CodePanel final : Panel {
    void draw(Frame& f) override;

private:
    Scrolled scrolled_;
};

}  // namespace

void CodePanel::draw(Frame& f)
{
    if (beginPanel(f, id)) {
        const sim::Simulation* s = f.loaded.sim.get();
        const sim::KernelInfo* info = s ? sim::findKernel(s->scenario.kernel) : nullptr;
        if (!s || !info) {
            ImGui::TextUnformatted(f.busy.simulating ? "Simulating..." : "No kernel loaded.");
        } else {
            const std::string& text = sim::kernelSource(info->sourceFile);
            ImGui::TextDisabled("kernels/%s: the source the simulator and the GPU both compile", info->sourceFile);
            const float explain = 7.5f * ImGui::GetTextLineHeightWithSpacing();
            source(f, *s, text, std::max(scaled(120), ImGui::GetContentRegionAvail().y - explain), scrolled_);
            explanations(f, *s, text);
        }
    }
    ImGui::End();
}

std::unique_ptr<Panel> makeCodePanel() { return std::make_unique<CodePanel>(); }

}  // namespace ts::app
