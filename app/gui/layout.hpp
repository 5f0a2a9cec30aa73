// The default arrangement of the panels (Debian's ImGui 1.86 has no docking): three columns
// that tile the window below the menu and caption bars, or in presentation mode two; each
// panel's place is its row of the panel table (panels/panel_table.hpp).
#pragma once
#include <imgui.h>

#include <string>
#include <vector>

#include "state.hpp"

namespace ts::app {

/// A panel's place in pixels.
struct Rect {
    ImVec2 pos, size;
};

/// Where panel `p` goes in a display of `display` pixels whose top `top` pixels hold the
/// menu and caption bars: its desk place, or with `slideOpen` (the panels shown in
/// presentation mode; null at the desk) its slide place, squeezed when a third-row panel
/// (Threads, Hazards) is shown.
Rect defaultRect(PanelId p, ImVec2 display, float top, const PanelFlags* slideOpen = nullptr);

/// The open/closed state a list of panel names (PanelInfo::name) describes.
PanelFlags panelsNamed(const std::vector<std::string>& names);

/// The names (PanelInfo::name) of the panels open in `open`.
std::vector<std::string> panelNames(const PanelFlags& open);

/// The panels presentation mode shows for preset `p`: the preset's own list if it has one,
/// else those whose PanelInfo::onSlide asks for it (the picture, Code and Shared memory;
/// Hazards when the preset drops a barrier, Occupancy when it asks an occupancy question).
/// The caption bar says the step and PageDown/PageUp move it, so the Timeline, like
/// Scenario, Stats and GPU, waits in the View menu.
PanelFlags presentationPanels(const sim::Preset& p);

}  // namespace ts::app
