#include "figure_notes.hpp"

#include <imgui_internal.h>

#include <algorithm>

namespace ts::app {
namespace {

std::vector<FigureNote> gFigures;
std::vector<LabelNote> gLabels;

/// The panel's own window: a child window ("Matrices/canvas_1234") belongs to its root.
std::string panelWindow()
{
    const ImGuiWindow* w = ImGui::GetCurrentWindow();
    return w && w->RootWindow ? w->RootWindow->Name : "";
}

}  // namespace

void noteFigure(ImVec2 min, ImVec2 max)
{
    const std::string window = panelWindow();
    auto it = std::find_if(gFigures.begin(), gFigures.end(), [&](const FigureNote& n) { return n.window == window; });
    if (it == gFigures.end()) {
        gFigures.push_back({window, min, max});
        return;
    }
    it->min = ImVec2(std::min(it->min.x, min.x), std::min(it->min.y, min.y));
    it->max = ImVec2(std::max(it->max.x, max.x), std::max(it->max.y, max.y));
}

void noteChartLabel(ImVec2 min, ImVec2 max, const std::string& text)
{
    gLabels.push_back({panelWindow(), text, min, max});
}

void clearFigureNotes()
{
    gFigures.clear();
    gLabels.clear();
}

const std::vector<FigureNote>& figureNotes() { return gFigures; }

const std::vector<LabelNote>& labelNotes() { return gLabels; }

}  // namespace ts::app
