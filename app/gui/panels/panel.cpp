#include <imgui.h>

#include <algorithm>

#include "layout.hpp"
#include "panels.hpp"
#include "shown_text.hpp"

namespace ts::app {

bool beginPanel(Frame& f, PanelId p, ImGuiWindowFlags extra)
{
    const float top = f.top;
    const Placement placed = placePanel(p, f);
    if (placed.managed) {
        ImGui::SetNextWindowPos(placed.rect.pos, ImGuiCond_Always);
        ImGui::SetNextWindowSize(placed.rect.size, ImGuiCond_Always);
        ImGui::SetNextWindowCollapsed(placed.folded, ImGuiCond_Always);
    }
    // View::open holds flags, not bools ImGui could point at: the close button's choice is
    // copied back. A slide is arranged by the layout alone, and does not scroll: no scrollbar
    // (one that came and went would change the width text wraps at, and the height it takes).
    bool shown = f.view.open[p];
    const ImGuiWindowFlags flags = f.view.presentation ? ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoResize |
                                                             ImGuiWindowFlags_NoScrollbar | ImGuiWindowFlags_NoScrollWithMouse
                                                       : 0;
    const bool open = ImGui::Begin(panelTable()[p].title, &shown, flags | extra);
    logWindowText(panelTable()[p].title);   // --print-text
    f.view.open[p] = shown;
    panelBegun(p, f, placed);
    if (placed.managed) return open;
    // Arranged by hand, yet never under the menu and caption bars: when they grow (a preset
    // with a longer narration, a larger UI scale) a panel reaching above them moves down and
    // gives up that much height, so its bottom edge and the panels below stay where they are.
    const ImVec2 pos = ImGui::GetWindowPos(), size = ImGui::GetWindowSize();
    if (pos.y < top - 0.5f) {
        ImGui::SetWindowPos(ImVec2(pos.x, top));
        ImGui::SetWindowSize(ImVec2(size.x, std::max(ImGui::GetFrameHeight() * 3, size.y - (top - pos.y))));
    }
    return open;
}

}  // namespace ts::app
