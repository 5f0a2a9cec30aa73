#include <imgui.h>

#include "layout.hpp"
#include "panels.hpp"

namespace ts::app {

bool beginPanel(Frame& f, Panel p, float top)
{
    const Rect r = defaultRect(p, ImGui::GetIO().DisplaySize, top);
    const ImGuiCond cond = f.view.resetLayout ? ImGuiCond_Always : ImGuiCond_FirstUseEver;
    ImGui::SetNextWindowPos(r.pos, cond);
    ImGui::SetNextWindowSize(r.size, cond);
    return ImGui::Begin(panelTitle(p), &f.view.open[static_cast<int>(p)],
                        ImGuiWindowFlags_NoCollapse);
}

}  // namespace ts::app
