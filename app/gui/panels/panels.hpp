// The panels of the main window, one file each. A panel reads Frame::loaded and
// Frame::replay and changes only Frame::view and Frame::requests.
#pragma once
#include "state.hpp"

namespace ts::app {

/// Begins panel `p` as an ImGui window at its default place (or the one remembered in
/// imgui.ini); `top` is the height of the menu and caption bars. Returns false when it is
/// collapsed (call ImGui::End() either way, as with ImGui::Begin).
bool beginPanel(Frame& f, Panel p, float top);

void drawMainMenu(Frame& f);          ///< File, View, Help and their dialogs
void drawCaptionBar(Frame& f, float y, float height);   ///< preset title, step, narration
/// Height the caption bar needs: the title line and the cursor step's narration wrapped to
/// the window's width.
float captionHeight(const Frame& f);

void drawScenarioPanel(Frame& f, float top);
void drawStatsPanel(Frame& f, float top);
void drawGpuPanel(Frame& f, float top);
void drawMatricesPanel(Frame& f, float top);
void drawTimelinePanel(Frame& f, float top);
void drawCodePanel(Frame& f, float top);
void drawSharedMemoryPanel(Frame& f, float top);
void drawThreadsPanel(Frame& f, float top);
void drawHazardsPanel(Frame& f, float top);
/// Keeps View::hazard on a hazard whose second access lies in the cursor step: the chosen
/// one while the cursor stays at its step, else the step's first (none if it has none).
void updateHazardFocus(Frame& f);
void drawOccupancyPanel(Frame& f, float top);
void drawConvPanel(Frame& f, float top);            ///< only while a convolution is loaded
void drawReductionTablePanel(Frame& f, float top);  ///< seed 002's reduction tables

}  // namespace ts::app
