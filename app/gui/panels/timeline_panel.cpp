// Timeline: first, back, play/pause, forward, last, speed, and a scrubber of the trace's
// steps with the phases marked (Trace::phaseStarts); a long trace is drawn in bins of steps
// (timeline_bins.hpp), and its legend: what each colour means, each word a link to the
// glossary (glossary.hpp). Keys are handled by the app.
#include <imgui.h>

#include <algorithm>
#include <string>
#include <vector>

#include "glossary.hpp"
#include "panels.hpp"
#include "timeline_bins.hpp"
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

/// The scrubber: one column per step coloured by kind where each step gets a few pixels,
/// else one column per bin of steps with the shares of its kinds stacked (timeline_bins.hpp),
/// phase marks with as many labels as fit, the cursor.
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
    // A column at least 4 px wide (scaled), so that a long trace reads as its phases' pattern.
    std::vector<sim::StepKind> kinds;
    kinds.reserve(t.steps.size());
    for (const sim::Step& st : t.steps) kinds.push_back(st.kind);
    const std::vector<TimelineBin> bins = timelineBins(kinds, static_cast<int>(w / scaled(4)));
    const float top = barTop + 4, bottom = barBottom - 4;
    for (const TimelineBin& b : bins) {
        const float x0 = p.x + b.first * seg, x1 = p.x + b.end * seg;
        const float inset = std::min(2.0f, (x1 - x0) * 0.15f);
        const bool done = b.first <= f.view.cursor;
        // The kinds stacked bottom to top in the bin's share of each (one step: its kind).
        float y = bottom;
        const float steps = static_cast<float>(b.end - b.first);
        for (sim::StepKind k : {sim::StepKind::Use, sim::StepKind::LoadTile, sim::StepKind::Barrier,
                                sim::StepKind::Store, sim::StepKind::Other}) {
            const int c = b.kinds[static_cast<size_t>(k)];
            if (!c) continue;
            const float y1 = y - (bottom - top) * static_cast<float>(c) / steps;
            const ImU32 colour = (kindColour(pal, k) & 0x00FFFFFF) | (done ? 0xE0000000u : 0x60000000u);
            dl->AddRectFilled(ImVec2(x0 + inset, y1), ImVec2(x1 - inset, y), colour, bins.size() == kinds.size() ? 2.0f : 0.0f);
            y = y1;
        }
    }
    // Phase marks: a line at each phase's first step; labels where they fit side by side.
    const std::vector<int> starts = t.phaseStarts();
    std::vector<float> markX, labelW;
    std::vector<std::string> labels;
    for (int s : starts) {
        markX.push_back(p.x + s * seg);
        labels.push_back((s == 0 ? "phase " : "") + std::to_string(t.steps[s].phase));
        labelW.push_back(ImGui::CalcTextSize(labels.back().c_str()).x + 4);
    }
    // Phases closer than 12 px (scaled): a tick above the bar each, so that the marks do not
    // turn the bar into a comb; else a line across it.
    const bool dense = static_cast<float>(starts.size()) * scaled(12) > w;
    const float markWidth = dense ? 1.0f : 2.0f;
    for (size_t i = 0; i < markX.size(); ++i)
        dl->AddLine(ImVec2(markX[i], barTop - h * 0.35f), ImVec2(markX[i], dense ? barTop : barBottom), pal.cellText,
                    markWidth);
    for (int i : labelledMarks(markX, labelW, ImGui::GetFontSize() * 0.5f, p.x + w)) {
        dl->AddLine(ImVec2(markX[i], p.y + 2), ImVec2(markX[i], barTop), pal.cellText, markWidth);
        dl->AddText(ImVec2(markX[i] + 4, p.y), pal.cellText, labels[i].c_str());
    }
    if (f.view.cursor >= 0) {
        // At least a few pixels wide, so that the cursor shows on a long trace.
        const float x0 = p.x + f.view.cursor * seg, x1 = std::max(x0 + seg, x0 + scaled(3));
        stepFrame(dl, ImVec2(x0, barTop), ImVec2(x1, barBottom), pal, 3, 3.0f);
    }
    if (hovered) {
        const int i = stepAt(ImGui::GetIO().MousePos.x);
        ImGui::SetTooltip("step %d: %s (line %u)\nclick or drag to go there", i, t.steps[i].label.c_str(),
                          t.steps[i].line);
    }
}

/// The scrubber's legend: a swatch and the words for each kind of step the trace has
/// (glossary.hpp's timelineLegend), and the phase mark; a click on the words opens the
/// glossary at their term. Each entry's words are recorded as the cell timeline_legend[i]
/// (i counted over the entries shown) for --keys click:timeline_legend[i].
void legend(Frame& f, const sim::Trace& t)
{
    const Palette& pal = f.theme.palette;
    bool has[5] = {};
    for (const sim::Step& st : t.steps) has[static_cast<size_t>(st.kind)] = true;
    const float h = ImGui::GetTextLineHeight();
    const float right = ImGui::GetWindowPos().x + ImGui::GetWindowContentRegionMax().x;
    bool first = true;
    int shown = 0;
    auto entry = [&](const char* words, const char* means, const char* term, auto swatch) {
        const float width = h * 1.1f + scaled(4) + ImGui::CalcTextSize(words).x;
        if (!first && ImGui::GetItemRectMax().x + scaled(10) + width <= right) ImGui::SameLine(0, scaled(10));
        first = false;
        const ImVec2 p = ImGui::GetCursorScreenPos();
        swatch(ImGui::GetWindowDrawList(), ImVec2(p.x, p.y + h * 0.15f), ImVec2(p.x + h * 1.1f, p.y + h * 0.85f));
        ImGui::Dummy(ImVec2(h * 1.1f, h));
        ImGui::SameLine(0, scaled(4));
        ImGui::PushID(words);
        const bool clicked = ImGui::InvisibleButton("##term", ImGui::CalcTextSize(words));
        ImGui::PopID();
        const bool hovered = ImGui::IsItemHovered();
        ImGui::GetWindowDrawList()->AddText(ImGui::GetItemRectMin(), hovered ? pal.stepText : pal.cellText, words);
        if (hovered)
            ImGui::GetWindowDrawList()->AddLine(ImVec2(ImGui::GetItemRectMin().x, ImGui::GetItemRectMax().y),
                                                ImGui::GetItemRectMax(), pal.stepText);
        if (clicked) openGlossaryAt(term);
        f.view.practice.drawing[CellRef{"timeline_legend", sim::Cell{0, shown++}}] =
            CellRect{ImGui::GetItemRectMin(), ImGui::GetItemRectMax()};
        tooltip(std::string(means) + "\nClick: '" + term + "' in the glossary.");
    };
    for (const TimelineLegendEntry& e : timelineLegend()) {
        if (!has[static_cast<size_t>(e.kind)]) continue;
        const ImU32 colour = (kindColour(pal, e.kind) & 0x00FFFFFF) | 0xE0000000u;
        entry(e.words, e.means, e.term, [&](ImDrawList* dl, ImVec2 a, ImVec2 b) { dl->AddRectFilled(a, b, colour, 2.0f); });
    }
    if (t.phaseStarts().size() > 1)
        entry("phase", "A line at the first step of each phase of the tiled loop, with its number.", "phase",
              [&](ImDrawList* dl, ImVec2 a, ImVec2 b) {
                  dl->AddLine(ImVec2((a.x + b.x) * 0.5f, a.y - 2), ImVec2((a.x + b.x) * 0.5f, b.y + 2), pal.cellText, 2.0f);
              });
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
            // The speed slider beside the buttons, narrower where the panel is (at least 6 font
            // heights), else on a row of its own.
            ImGui::SameLine(0, scaled(20));
            // The speed is written beside the slider, not on it: no grab colour keeps text at
            // 4.5:1 while the grab keeps 3:1 against the dark frame.
            const float label = ImGui::CalcTextSize("20.0 steps/s").x + ImGui::GetStyle().ItemInnerSpacing.x;
            if (ImGui::GetContentRegionAvail().x - label < ImGui::GetFontSize() * 6) ImGui::NewLine();
            ImGui::SetNextItemWidth(std::min(ImGui::GetFontSize() * 10, ImGui::GetContentRegionAvail().x - label));
            ImGui::SliderFloat("##speed", &v.speed, 0.5f, 20.0f, "", ImGuiSliderFlags_Logarithmic | ImGuiSliderFlags_NoRoundToFormat);
            tooltip("Steps per second while playing");
            ImGui::SameLine(0, ImGui::GetStyle().ItemInnerSpacing.x);
            ImGui::Text("%.1f steps/s", v.speed);
            tooltip("Steps per second while playing");
            scrubber(f, s->trace);
            legend(f, s->trace);
            // The step, its label and its line are the caption bar's first row; the legend
            // takes the row under the scrubber instead. Practice mode asks about the first step
            // before showing it (practice.hpp), which the caption does not say.
            if (v.cursor < 0) ImGui::Text("Before step 0 of %d", last);
        }
    }
    ImGui::End();
}

std::unique_ptr<Panel> makeTimelinePanel() { return std::make_unique<TimelinePanel>(); }

}  // namespace ts::app
