// What a frame drew that the checks measure on the pixels (tests/gui/layout_check): the
// rectangle each panel's main figure covers and the boxes of a chart's labels. A panel notes
// its figure while drawing it; the notes of the frame before stay readable until the next
// frame begins. Nothing here changes what is drawn.
#pragma once
#include <imgui.h>

#include <string>
#include <vector>

namespace ts::app {

/// The main figure of one panel in one frame: the union of the rectangles noted for it, in
/// screen pixels.
struct FigureNote {
    std::string window;   ///< the panel's window name (its title, PanelInfo::title)
    ImVec2 min, max;
};

/// One label of a chart (a point's name on the Roofline, a bar's value): its text box in
/// screen pixels, for the check that no two labels of a chart overlap.
struct LabelNote {
    std::string window;   ///< the panel's window name
    std::string text;
    ImVec2 min, max;
};

/// Notes that the window being drawn (ImGui's current window, a child window counting as
/// the panel it sits in) drew part of its main figure over [min, max]: matrices, tiles, a
/// chart's plot area with its axes and labels, a bank diagram. Several calls in one frame
/// grow the one rectangle of that panel. Call between beginPanel() and ImGui::End().
void noteFigure(ImVec2 min, ImVec2 max);

/// Notes a chart label drawn by the window being drawn over [min, max].
void noteChartLabel(ImVec2 min, ImVec2 max, const std::string& text);

/// Forgets the notes of the frame before (App::renderFrame calls it before the panels draw).
void clearFigureNotes();

/// The figures noted in the frame drawn last, one per panel that noted one.
const std::vector<FigureNote>& figureNotes();

/// The chart labels noted in the frame drawn last, in drawing order.
const std::vector<LabelNote>& labelNotes();

}  // namespace ts::app
