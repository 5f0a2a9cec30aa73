// The Matrices panel's legend (app/gui/panels/matrices_panel.cpp): the meanings of what the
// figure holds, the value mode's colour map, and the zoom slider after them.
#include <imgui.h>

#include <cstdio>

#include "figure_notes.hpp"
#include "matrices_panel_internal.hpp"
#include "meanings.hpp"
#include "widgets.hpp"

namespace ts::app::matrices_detail {

namespace {

/// The legend of the value mode: the colour map from each matrix's smallest to its largest value.
void valueLegend()
{
    const float w = ImGui::GetFontSize() * 6, h = ImGui::GetTextLineHeight();
    ImGui::TextUnformatted("value: smallest");
    ImGui::SameLine();
    const ImVec2 p = ImGui::GetCursorScreenPos();
    ImDrawList* dl = ImGui::GetWindowDrawList();
    for (int i = 0; i < 24; ++i)
        dl->AddRectFilled(ImVec2(p.x + i * w / 24, p.y + 2), ImVec2(p.x + (i + 1) * w / 24 + 1, p.y + h - 2),
                          heatColour(i / 23.0f));
    ImGui::Dummy(ImVec2(w, h));
    ImGui::SameLine();
    ImGui::TextUnformatted("largest");
    tooltip("Each element's value through the colour map, from the smallest to the largest value of its own "
            "matrix (hover an element for its value). P is shown final outside the traced block; inside it, "
            "once stored.");
}

/// The legend: the table's entries for what this trace's figure holds (meanings.hpp).
void legend(const Ctx& c)
{
    bool first = true;
    auto entry = [&](Meaning m, const char* more = nullptr) {
        legendEntry(m, first, more);
        first = false;
    };
    if (c.f.view.heatmap) {
        heatLegend("global loads, whole grid:", c.heatMax);
        first = false;
    } else if (c.f.view.values) {
        valueLegend();
        first = false;
    } else {
        if (c.has.shared) entry(Meaning::InShared, "Here: Mds or Nds.");
        entry(Meaning::LoadedEarlier);
    }
    if (c.has.phases) entry(Meaning::LoadedThisPhase, "The orange outline is the phase's tile.");
    entry(Meaning::ThisStep);
    if (c.has.zeroFills) entry(Meaning::ZeroFill);
    if (c.has.stores) entry(Meaning::Finished);
    if (!c.s.matchesReference) entry(Meaning::WrongP, "Marked once it is stored.");
    entry(Meaning::Selected, "The traced block's tile of P has the frame; where a tile is only a few pixels wide, "
                             "its frame is drawn larger than the tile, and a faint frame marks the rows of M and the "
                             "columns of N the block reads. On a rung of the ladder, a frame inside every element the "
                             "thread holds in its Pvalue registers (hover one for the register).");
}

}  // namespace

void MatricesPanel::legendAndZoom(const Ctx& c)
{
    legend(c);
    // The zoom slider ends the legend's line if it fits there. Its value is written beside it,
    // not on it: the grab would sit under the figures at a large zoom, white on light blue.
    char label[32];
    std::snprintf(label, sizeof label, "zoom %.1fx###zoom", c.f.view.zoom);
    const float zoomWidth = ImGui::GetFontSize() * 5 + ImGui::GetStyle().ItemInnerSpacing.x + ImGui::CalcTextSize("zoom 88.8x").x;
    if (ImGui::GetItemRectMax().x + scaled(20) + zoomWidth <= ImGui::GetWindowPos().x + ImGui::GetWindowContentRegionMax().x)
        ImGui::SameLine(0, scaled(20));
    ImGui::SetNextItemWidth(ImGui::GetFontSize() * 5);
    ImGui::SliderFloat(label, &c.f.view.zoom, 0.5f, mostZoom_, "", ImGuiSliderFlags_Logarithmic);
    tooltip("Cell size, 1x: the matrices fit the panel. Large matrices open zoomed to the traced block's tiles. "
            "On the matrices the mouse wheel zooms at the cursor (or + and -), a drag pans, a double click (or 0) "
            "fits, and a right click chooses the colours (states, global loads, values).");
}

void MatricesPanel::legendColumn()
{
    // In the small font, so that the legend fits the corner of small problems; on a slide
    // that is 23 px at the default scale of 2.
    ImGui::PushFont(ctx_->f.theme.fonts.small);
    ImGui::BeginGroup();
    legendAndZoom(*ctx_);
    ImGui::EndGroup();
    ImGui::PopFont();
    legendColumn_ = ImGui::GetItemRectSize();
    // The legend keys the figure's colours: part of the figure the pixel checks measure.
    noteFigure(ImGui::GetItemRectMin(), ImGui::GetItemRectMax());
}

}  // namespace ts::app::matrices_detail
