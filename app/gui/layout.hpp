// The default arrangement of the panels: three columns that tile the window below the
// menu and caption bars (Debian's ImGui 1.86 has no docking); only the Occupancy panel,
// closed by default, opens over the centre column.
#pragma once
#include <imgui.h>

#include <array>
#include <string>
#include <vector>

#include "state.hpp"

namespace ts::app {

/// A panel's place in pixels.
struct Rect {
    ImVec2 pos, size;
};

/// Where `p` goes in a display of `display` pixels whose top `top` pixels hold the menu
/// and caption bars: three columns, or in presentation mode two (the picture on the left,
/// the code and shared memory on the right), for the few panels a slide shows.
/// `slideOpen`: the panels shown in presentation mode (null at the desk); the right column
/// gives a third row to Threads or Hazards only when one of them is shown.
Rect defaultRect(Panel p, ImVec2 display, float top, const std::array<bool, kPanelCount>* slideOpen = nullptr);

/// The open/closed state a list of panel names (sim::kPanelNames) describes.
std::array<bool, kPanelCount> panelsNamed(const std::vector<std::string>& names);

/// The names (sim::kPanelNames) of the panels open in `open`.
std::vector<std::string> panelNames(const std::array<bool, kPanelCount>& open);

/// The panels presentation mode shows for preset `p`: the preset's own list if it has one,
/// else the picture (Matrices or Convolution), Code and Shared memory (and Hazards when the
/// preset drops a barrier, Occupancy when it asks an occupancy question). The caption bar says the step and PageDown/PageUp move it, so the Timeline,
/// like Scenario, Stats and GPU, waits in the View menu.
std::array<bool, kPanelCount> presentationPanels(const sim::Preset& p);

/// The panel's title, also its ImGui window name (imgui.ini keys its place by it).
const char* panelTitle(Panel p);

}  // namespace ts::app
