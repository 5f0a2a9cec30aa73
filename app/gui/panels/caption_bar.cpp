// The caption bar under the menu: the preset's title, the current step, and the preset's
// narration for that step (lecture presets carry one line per step).
#include <imgui.h>

#include <algorithm>
#include <sstream>

#include "panels.hpp"
#include "widgets.hpp"

namespace ts::app {
namespace {

constexpr const char* kHint = "Space plays, Left/Right step, Home/End jump. Hover any cell for its index, "
                              "value and loads; click a tile of P to trace that block.";

}  // namespace

CaptionText captionText(const Loaded& loaded, const View& view)
{
    CaptionText c;
    const sim::Preset& p = loaded.preset;
    c.title = p.title.empty() ? "TileScope" : p.title;
    if (view.presentation) c.presentation = view.presentationScale;
    const sim::Simulation* s = loaded.sim.get();
    if (!s) return c;
    const int cursor = view.cursor;
    const int steps = static_cast<int>(s->trace.steps.size());
    c.lastStep = steps - 1;
    c.blockX = s->trace.block.x;
    c.blockY = s->trace.block.y;
    if (cursor >= 0 && cursor < steps) {
        c.step = cursor;
        c.label = s->trace.steps[cursor].label;
    }
    if (cursor >= 0 && cursor < static_cast<int>(p.narration.size())) c.narration = p.narration[cursor];
    return c;
}

std::string captionLine(const CaptionText& c)
{
    std::ostringstream o;
    o << c.title << " | step " << c.step.value_or(-1) << " of " << c.lastStep << " | " << c.label << " | "
      << c.narration.value_or("(no narration)");
    if (c.presentation) o << " | presentation " << *c.presentation << "x";
    return o.str();
}

float CaptionBar::height(const Frame& f)
{
    // The title line plus the narration wrapped to the window's width (a long one takes
    // several lines; in presentation mode even a short one may). The tallest line of the
    // preset sets the height, so that the panels below stay put while stepping.
    const ImGuiStyle& st = ImGui::GetStyle();
    const float wrap = ImGui::GetIO().DisplaySize.x - 2 * st.WindowPadding.x;
    if (generation_ != f.loaded.generation || wrap_ != wrap || fontSize_ != ImGui::GetFontSize()) {
        float text = ImGui::CalcTextSize(kHint, nullptr, false, wrap).y;
        if (f.loaded.sim)
            for (const std::string& n : f.loaded.preset.narration)
                text = std::max(text, ImGui::CalcTextSize(n.c_str(), nullptr, false, wrap).y);
        generation_ = f.loaded.generation;
        wrap_ = wrap;
        fontSize_ = ImGui::GetFontSize();
        text_ = text;
    }
    return ImGui::GetTextLineHeightWithSpacing() + text_ + st.ItemSpacing.y + 2 * st.WindowPadding.y;
}

void CaptionBar::draw(Frame& f, float y, float height)
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
    const CaptionText c = captionText(f.loaded, f.view);
    ImGui::PushFont(f.theme.fonts.bold);
    ImGui::TextUnformatted(c.title.c_str());
    ImGui::PopFont();
    if (c.step) {
        ImGui::SameLine(0, scaled(24));
        ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(pal.stepText), "Step %d of %d", *c.step, c.lastStep);
        ImGui::SameLine();
        ImGui::TextUnformatted(c.label.c_str());
        ImGui::SameLine(0, scaled(24));
        ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(pal.dimText), "block (bx=%u, by=%u)", c.blockX, c.blockY);
    } else if (f.busy.simulating) {
        ImGui::SameLine(0, scaled(24));
        ImGui::TextUnformatted("simulating...");
    }
    if (!f.view.notice.empty()) {
        const float w = ImGui::CalcTextSize(f.view.notice.c_str()).x;
        ImGui::SameLine(std::max(ImGui::GetCursorPosX() + scaled(24), ImGui::GetWindowWidth() - w - scaled(16)));
        ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(f.view.noticeIsError ? pal.error : pal.finished), "%s",
                           f.view.notice.c_str());
    }
    if (f.busy.exporting) {
        ImGui::SameLine();
        ImGui::ProgressBar(f.busy.exportProgress, ImVec2(ImGui::GetFontSize() * 6, 0));
    }
    if (c.narration && !c.narration->empty()) {
        ImGui::PushTextWrapPos(0.0f);
        ImGui::TextUnformatted(c.narration->c_str());
        ImGui::PopTextWrapPos();
    } else {
        ImGui::PushStyleColor(ImGuiCol_Text, pal.dimText);
        ImGui::TextWrapped("%s", kHint);
        ImGui::PopStyleColor();
    }
    ImGui::End();
    ImGui::PopStyleVar();
    ImGui::PopStyleColor();
}

}  // namespace ts::app
