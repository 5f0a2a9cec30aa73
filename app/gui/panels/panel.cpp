#include <imgui.h>

#include <algorithm>

#include "layout.hpp"
#include "panels.hpp"

namespace ts::app {

bool beginPanel(Frame& f, Panel p, float top)
{
    const Rect r = defaultRect(p, ImGui::GetIO().DisplaySize, top, f.view.presentation ? &f.view.open : nullptr);
    const ImGuiCond cond = f.view.resetLayout ? ImGuiCond_Always : ImGuiCond_FirstUseEver;
    ImGui::SetNextWindowPos(r.pos, cond);
    ImGui::SetNextWindowSize(r.size, cond);
    const bool open = ImGui::Begin(panelTitle(p), &f.view.open[static_cast<int>(p)], ImGuiWindowFlags_NoCollapse);
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
