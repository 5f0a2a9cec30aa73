// The Code panel's explanations (app/gui/panels/code_panel.cpp): each access of the step by the
// selected thread as its index expression with the thread's numbers put in, evaluated, next to
// the index the simulator recorded; and the tallest they get over the run.
#include <imgui.h>
#include <imgui_internal.h>

#include <algorithm>
#include <string>

#include "code_panel_internal.hpp"
#include "sim/catalogue/loaded_kernels.hpp"
#include "sim/teaching/kernel_view.hpp"
#include "widgets.hpp"

namespace ts::app::code_panel_detail {

void explanations(Frame& f, const sim::Simulation& s, const std::string& text)
{
    const Palette& pal = f.theme.palette;
    const sim::Trace& t = s.trace;
    if (f.view.cursor < 0) return;
    const sim::Step& st = t.steps[f.view.cursor];
    const sim::Variables v = sim::threadVariables(s.scenario, t, f.view.thread, f.view.cursor);
    ImGui::PushFont(f.theme.fonts.bold);
    if (v.count("Width"))   // a 1D convolution: thread i computes P[i]
        ImGui::TextWrapped("Thread (tx=%lld), i = %lld, computes P[%lld]:", v.at("tx"), v.at("i"), v.at("i"));
    else if (v.count("tz"))   // a 3D block (PMPP's stencil)
        ImGui::TextWrapped("Thread (tz=%lld, ty=%lld, tx=%lld):", v.at("tz"), v.at("ty"), v.at("tx"));
    else if (v.count("Row") && v.count("Col"))
        ImGui::TextWrapped("Thread (ty=%lld, tx=%lld), Row %lld, Col %lld:", v.at("ty"), v.at("tx"), v.at("Row"), v.at("Col"));
    else   // a rung whose threads compute several elements: Row and Col change along a loop
        ImGui::TextWrapped("Thread (ty=%lld, tx=%lld):", v.at("ty"), v.at("tx"));
    ImGui::PopFont();
    tooltip("The selected thread (click one in Threads, Shared memory or P). Its variables are put into "
            "the index expressions of the source lines it ran in this step.");
    if (st.kind == sim::StepKind::Barrier) {
        ImGui::TextWrapped("waits at __syncthreads() (line %u) until every thread of the block has arrived.", st.line);
        return;
    }
    const auto xs = sim::explainAccesses(s.scenario, t, f.view.thread, f.view.cursor, text);
    if (xs.empty()) {
        colouredText(pal.dimText, "does nothing in this step (its bounds check is false, or it has no access here).");
        return;
    }
    // Many accesses in one step (PMPP's stencil reads seven): each one line, its value and
    // element in a tooltip, so that the listing keeps its room.
    const bool compact = xs.size() > 4;
    // A 3D array's element by its three indices (the simulation stores its planes stacked).
    const std::shared_ptr<const sim::ArraySpec> spec = sim::arraySpecOf(s.scenario.kernel);
    auto element = [&](const sim::ArrayInfo& a, long long flat) {
        const sim::ArrayDecl* d = spec ? spec->find(a.name) : nullptr;
        sim::ArrayShape sh;
        std::string error;
        if (d && spec->shape(*d, spec->sizeValues(s.scenario), sh, error) && sh.dims == 3)
            return a.name + "[" + std::to_string(flat / (1ll * sh.rows * sh.cols)) + "][" + std::to_string(flat / sh.cols % sh.rows) +
                   "][" + std::to_string(flat % sh.cols) + "]";
        return a.name + "[" + std::to_string(a.rowCol(flat).row) + "][" + std::to_string(a.rowCol(flat).col) + "]";
    };
    ImGui::PushFont(f.theme.fonts.mono);
    for (const sim::AccessExplanation& x : xs) {
        ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(pal.dimText), "%3u", x.line);
        ImGui::SameLine();
        // An atomic that left its element as it was reads it (a wait on a flag, PMPP sec. 11.7).
        ImGui::TextUnformatted(x.op == sim::Op::Atomic && x.before && *x.before == x.value ? "reads atomically " : verb(x.op));
        ImGui::SameLine(0, 0);
        if (x.written.empty()) {
            ImGui::PopFont();
            colouredText(pal.error, x.error);
            ImGui::PushFont(f.theme.fonts.mono);
            continue;
        }
        std::string chain = x.written + " = " + x.substituted;
        if (!x.evaluated.empty() && x.evaluated != x.substituted) chain += " = " + x.evaluated;
        ImGui::TextWrapped("%s", chain.c_str());
        const sim::ArrayInfo* a = nullptr;
        for (const sim::ArrayInfo& ai : t.arrays)
            if (ai.name == x.array) a = &ai;
        std::string detail = x.before ? "value " + cellValue(*x.before, false) + " before, " + cellValue(x.value, false) + " after"
                                      : "value " + cellValue(x.value, false);
        // A slide gives the value; the desk also the element and that the simulator agrees.
        if (a && a->space == sim::Space::Global && a->rows > 1 && !f.view.presentation)
            detail += ", i.e. " + element(*a, x.recorded);
        if (!x.unknown.empty()) {
            // Not a disagreement: the kernel's own variable, which the panel does not follow.
            ImGui::PopFont();
            // (A slide says it in fewer words: the back row reads the index and value.)
            colouredText(pal.dimText, f.view.presentation
                                          ? "'" + x.unknown + "' is not followed here: index " + std::to_string(x.recorded) +
                                                ", value " + cellValue(x.value, false) + "."
                                          : "'" + x.unknown + "' is this kernel's own variable, which the Code panel does not "
                                                "follow; the simulator recorded index " + std::to_string(x.recorded) +
                                                ", value " + cellValue(x.value, false) + ".");
            ImGui::PushFont(f.theme.fonts.mono);
        } else if (x.agrees() && compact) {
            tooltip(detail + (f.view.presentation ? "" : ", the index the simulator recorded"));
        } else if (x.agrees()) {
            if (!f.view.presentation) detail += ", the index the simulator recorded";
            const float indent = ImGui::CalcTextSize("    ").x;
            ImGui::Indent(indent);
            ImGui::PushStyleColor(ImGuiCol_Text, pal.dimText);
            ImGui::TextWrapped("%s", detail.c_str());
            ImGui::PopStyleColor();
            ImGui::Unindent(indent);
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

/// The tallest the selected thread's explanations (explanations()) are over every step of the
/// trace, at the width of the panel being drawn, in pixels (without the spacing after them):
/// each step's are drawn into a window of the panel's width that is laid out, never shown.
float tallestExplanations(Frame& f, const sim::Simulation& s, const std::string& text)
{
    const float width = ImGui::GetWindowWidth();
    const ImGuiWindowFlags flags = ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoInputs | ImGuiWindowFlags_NoNav |
                                   ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoFocusOnAppearing |
                                   ImGuiWindowFlags_NoBringToFrontOnFocus;
    ImGui::SetNextWindowPos(ImVec2(-100000, -100000), ImGuiCond_Always);
    ImGui::SetNextWindowSize(ImVec2(width, 100000), ImGuiCond_Always);
    ImGui::Begin("##code explanations measured", nullptr, flags);
    ImGui::GetCurrentWindow()->Hidden = true;   // laid out, not drawn
    const int cursor = f.view.cursor;
    const float spacing = ImGui::GetStyle().ItemSpacing.y;
    float tallest = 0;
    for (int step = 0; step < static_cast<int>(s.trace.steps.size()); ++step) {
        f.view.cursor = step;
        const float y0 = ImGui::GetCursorPosY();
        explanations(f, s, text);
        tallest = std::max(tallest, ImGui::GetCursorPosY() - y0 - spacing);
    }
    f.view.cursor = cursor;
    ImGui::End();
    return tallest;
}

}  // namespace ts::app::code_panel_detail
