// The caption bar under the menu: the preset's title, the current step, and the preset's
// narration for that step (lecture presets carry one line per step).
#include <imgui.h>

#include "panels.hpp"
#include "widgets.hpp"

namespace ts::app {

void drawCaptionBar(Frame& f, float y, float height)
{
    const ImVec2 display = ImGui::GetIO().DisplaySize;
    ImGui::SetNextWindowPos(ImVec2(0, y));
    ImGui::SetNextWindowSize(ImVec2(display.x, height));
    const ImGuiWindowFlags flags = ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoMove |
                                   ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoFocusOnAppearing |
                                   ImGuiWindowFlags_NoBringToFrontOnFocus;
    ImGui::PushStyleColor(ImGuiCol_WindowBg, f.theme.palette.captionBg);
    ImGui::PushStyleVar(ImGuiStyleVar_WindowRounding, 0);
    ImGui::Begin("##caption", nullptr, flags);
    const Palette& pal = f.theme.palette;
    const sim::Preset& p = f.loaded.preset;
    ImGui::PushFont(f.theme.fonts.bold);
    ImGui::TextUnformatted(p.title.empty() ? "TileScope" : p.title.c_str());
    ImGui::PopFont();
    const sim::Simulation* s = f.loaded.sim.get();
    const int cursor = f.view.cursor;
    if (s && cursor >= 0 && cursor < static_cast<int>(s->trace.steps.size())) {
        ImGui::SameLine(0, 24);
        ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(pal.readNow), "Step %d of %d", cursor,
                           static_cast<int>(s->trace.steps.size()) - 1);
        ImGui::SameLine();
        ImGui::TextUnformatted(s->trace.steps[cursor].label.c_str());
        ImGui::SameLine(0, 24);
        ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(pal.dimText), "block (bx=%u, by=%u)",
                           s->trace.block.x, s->trace.block.y);
    } else if (f.busy.simulating) {
        ImGui::SameLine(0, 24);
        ImGui::TextUnformatted("simulating...");
    }
    if (!f.view.notice.empty()) {
        const float w = ImGui::CalcTextSize(f.view.notice.c_str()).x;
        ImGui::SameLine(std::max(ImGui::GetCursorPosX() + 24, ImGui::GetWindowWidth() - w - 16));
        ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(f.view.noticeIsError ? pal.error : pal.finished), "%s",
                           f.view.notice.c_str());
    }
    if (s && cursor >= 0 && cursor < static_cast<int>(p.narration.size()) && !p.narration[cursor].empty()) {
        ImGui::TextUnformatted(p.narration[cursor].c_str());
    } else {
        ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(pal.dimText),
                           "Space plays, Left/Right step, Home/End jump. Hover any cell for its index, "
                           "value and loads; click a tile of P to trace that block.");
    }
    ImGui::End();
    ImGui::PopStyleVar();
    ImGui::PopStyleColor();
}

}  // namespace ts::app
