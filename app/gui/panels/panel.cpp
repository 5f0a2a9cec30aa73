#include <imgui.h>

#include <algorithm>

#include "layout.hpp"
#include "panels.hpp"

namespace ts::app {

bool beginPanel(Frame& f, PanelId p)
{
    const float top = f.top;
    const Rect r = defaultRect(p, ImGui::GetIO().DisplaySize, top, f.view.presentation ? &f.view.open : nullptr);
    const ImGuiCond cond = f.view.resetLayout ? ImGuiCond_Always : ImGuiCond_FirstUseEver;
    ImGui::SetNextWindowPos(r.pos, cond);
    ImGui::SetNextWindowSize(r.size, cond);
    // View::open holds flags, not bools ImGui could point at: the close button's choice is
    // copied back.
    bool shown = f.view.open[p];
    const bool open = ImGui::Begin(panelTable()[p].title, &shown, ImGuiWindowFlags_NoCollapse);
    f.view.open[p] = shown;
    // Never under the menu and caption bars: when they grow (a preset with a longer
    // narration, a larger UI scale) a panel reaching above them moves down and gives up
    // that much height, so its bottom edge and the panels below stay where they are.
    const ImVec2 pos = ImGui::GetWindowPos(), size = ImGui::GetWindowSize();
    if (pos.y < top - 0.5f) {
        ImGui::SetWindowPos(ImVec2(pos.x, top));
        ImGui::SetWindowSize(ImVec2(size.x, std::max(ImGui::GetFrameHeight() * 3, size.y - (top - pos.y))));
    }
    return open;
}

}  // namespace ts::app
