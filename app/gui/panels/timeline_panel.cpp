// Timeline: first, back, play/pause, forward, last, speed, and a scrubber of the trace's
// steps with the phases marked (Trace::phaseStarts). Keys are handled by the app.
#include <imgui.h>

#include <algorithm>
#include <string>

#include "panels.hpp"
#include "widgets.hpp"

namespace ts::app {
namespace {

ImU32 kindColour(const Palette& pal, sim::StepKind k)
{
    switch (k) {
    case sim::StepKind::LoadTile: return pal.loadedThisPhase;
    case sim::StepKind::Use: return pal.inShared;
    case sim::StepKind::Barrier: return pal.selected;
    case sim::StepKind::Store: return pal.finished;
    case sim::StepKind::Other: break;
    }
    return pal.dimText;
}

/// The scrubber: one segment per step coloured by kind, phase marks, the cursor.
void scrubber(Frame& f, const sim::Trace& t)
{
    const Palette& pal = f.theme.palette;
    const int n = static_cast<int>(t.steps.size());
    const float h = ImGui::GetTextLineHeight();
    const ImVec2 p = ImGui::GetCursorScreenPos();
    const float w = ImGui::GetContentRegionAvail().x;
    const ImVec2 size(w, h * 2.6f);
    ImGui::InvisibleButton("##scrub", size);
    const bool active = ImGui::IsItemActive();
    const bool hovered = ImGui::IsItemHovered();
    ImDrawList* dl = ImGui::GetWindowDrawList();
    const float barTop = p.y + h * 1.1f, barBottom = p.y + size.y;
    const float seg = w / static_cast<float>(n);
    auto stepAt = [&](float x) { return std::clamp(static_cast<int>((x - p.x) / seg), 0, n - 1); };
    if (active) f.view.cursor = stepAt(ImGui::GetIO().MousePos.x);

    dl->AddRectFilled(ImVec2(p.x, barTop), ImVec2(p.x + w, barBottom), f.theme.palette.chartBg, 3);
    for (int i = 0; i < n; ++i) {
        const float x0 = p.x + i * seg, x1 = p.x + (i + 1) * seg;
        const ImU32 c = kindColour(pal, t.steps[i].kind);
        const float inset = std::min(2.0f, seg * 0.15f);
        const ImU32 faded = (c & 0x00FFFFFF) | (i <= f.view.cursor ? 0xE0000000u : 0x60000000u);
        dl->AddRectFilled(ImVec2(x0 + inset, barTop + 4), ImVec2(x1 - inset, barBottom - 4), faded, 2);
    }
    for (int s : t.phaseStarts()) {
        const float x = p.x + s * seg;
        dl->AddLine(ImVec2(x, p.y + 2), ImVec2(x, barBottom), pal.cellText, 2.0f);
        const std::string label = "phase " + std::to_string(t.steps[s].phase);
        if (s == 0 || seg * 3 > ImGui::CalcTextSize(label.c_str()).x * 0.5f)
            dl->AddText(ImVec2(x + 4, p.y), pal.cellText, label.c_str());
    }
    if (f.view.cursor >= 0) {
        const float x0 = p.x + f.view.cursor * seg, x1 = x0 + seg;
        stepFrame(dl, ImVec2(x0, barTop), ImVec2(x1, barBottom), pal, 3, 3.0f);
    }
    if (hovered) {
        const int i = stepAt(ImGui::GetIO().MousePos.x);
        ImGui::SetTooltip("step %d: %s (line %u)\nclick or drag to go there", i, t.steps[i].label.c_str(),
                          t.steps[i].line);
    }
}

/// The panel; it keeps no state of its own.
struct TimelinePanel final : Panel {
    void draw(Frame& f) override;
};

}  // namespace

void TimelinePanel::draw(Frame& f)
{
    if (beginPanel(f, id)) {
        const sim::Simulation* s = f.loaded.sim.get();
        if (!s || s->trace.steps.empty()) {
            ImGui::TextUnformatted(f.busy.simulating ? "Simulating..." : "No trace to show.");
        } else {
            View& v = f.view;
            const int last = static_cast<int>(s->trace.steps.size()) - 1;
            if (ImGui::Button("|<")) v.cursor = 0;
            tooltip("First step (Home)");
            ImGui::SameLine();
            if (ImGui::Button("<")) v.cursor = std::max(0, v.cursor - 1);
            tooltip("Back one step (Left, Page Up)");
            ImGui::SameLine();
            if (ImGui::Button(v.playing ? "Pause" : "Play", ImVec2(ImGui::GetFontSize() * 4, 0)))
                v.playing = !v.playing && v.cursor < last;
            tooltip("Play or pause (Space): steps forward at the chosen speed");
            ImGui::SameLine();
            if (ImGui::Button(">")) v.cursor = std::min(last, v.cursor + 1);
            tooltip("Forward one step (Right, Page Down)");
            ImGui::SameLine();
            if (ImGui::Button(">|")) v.cursor = last;
            tooltip("Last step (End)");
            ImGui::SameLine(0, scaled(20));
            ImGui::SetNextItemWidth(ImGui::GetFontSize() * 10);
            ImGui::SliderFloat("speed", &v.speed, 0.5f, 20.0f, "%.1f steps/s", ImGuiSliderFlags_Logarithmic);
            tooltip("Steps per second while playing");
            scrubber(f, s->trace);
            if (v.cursor < 0) {
                // Practice mode asks about the first step before showing it (practice.hpp).
                ImGui::Text("Before step 0 of %d", last);
            } else {
                const sim::Step& st = s->trace.steps[v.cursor];
                ImGui::Text("Step %d of %d", v.cursor, last);
                ImGui::SameLine();
                ImGui::PushFont(f.theme.fonts.bold);
                ImGui::TextUnformatted(st.label.c_str());
                ImGui::PopFont();
                ImGui::SameLine();
                ImGui::TextDisabled("(source line %u)", st.line);
            }
        }
    }
    ImGui::End();
}

std::unique_ptr<Panel> makeTimelinePanel() { return std::make_unique<TimelinePanel>(); }

}  // namespace ts::app
