// The caption bar under the menu: the preset's title, the current step, and the preset's
// narration for that step (lecture presets carry one line per step).
#include <imgui.h>

#include <algorithm>

#include "panels.hpp"
#include "widgets.hpp"

namespace ts::app {
namespace {

/// The narration of the cursor step, or "" when the preset has none for it.
const std::string& narrationNow(const Frame& f)
{
    static const std::string none;
    const sim::Preset& p = f.loaded.preset;
    const int cursor = f.view.cursor;
    if (!f.loaded.sim || cursor < 0 || cursor >= static_cast<int>(p.narration.size())) return none;
    return p.narration[cursor];
}

constexpr const char* kHint = "Space plays, Left/Right step, Home/End jump. Hover any cell for its index, "
                              "value and loads; click a tile of P to trace that block.";

}  // namespace

float captionHeight(const Frame& f)
{
    // The title line plus the narration wrapped to the window's width (a long one takes
    // several lines; in presentation mode even a short one may). The tallest line of the
    // preset sets the height, so that the panels below stay put while stepping.
    // Measured again only when the loaded preset, the width or the font size changes.
    static struct {
        uint64_t generation = ~0ull;
        float wrap = -1, fontSize = -1, text = 0;
    } cache;
    const ImGuiStyle& st = ImGui::GetStyle();
    const float wrap = ImGui::GetIO().DisplaySize.x - 2 * st.WindowPadding.x;
    if (cache.generation != f.loaded.generation || cache.wrap != wrap || cache.fontSize != ImGui::GetFontSize()) {
        float text = ImGui::CalcTextSize(kHint, nullptr, false, wrap).y;
        if (f.loaded.sim)
            for (const std::string& n : f.loaded.preset.narration)
                text = std::max(text, ImGui::CalcTextSize(n.c_str(), nullptr, false, wrap).y);
        cache = {f.loaded.generation, wrap, ImGui::GetFontSize(), text};
    }
    return ImGui::GetTextLineHeightWithSpacing() + cache.text + st.ItemSpacing.y + 2 * st.WindowPadding.y;
}

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
        ImGui::SameLine(0, scaled(24));
        ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(pal.stepText), "Step %d of %d", cursor,
                           static_cast<int>(s->trace.steps.size()) - 1);
        ImGui::SameLine();
        ImGui::TextUnformatted(s->trace.steps[cursor].label.c_str());
        ImGui::SameLine(0, scaled(24));
        ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(pal.dimText), "block (bx=%u, by=%u)",
                           s->trace.block.x, s->trace.block.y);
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
    if (const std::string& n = narrationNow(f); !n.empty()) {
        ImGui::PushTextWrapPos(0.0f);
        ImGui::TextUnformatted(n.c_str());
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
