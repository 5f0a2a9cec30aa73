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

/// Marks the window being drawn (a child window, a list box, a table with a scrolling body)
/// as a list: a region whose length grows with the problem (presets, source lines, threads,
/// hazard pairs) and that may therefore scroll vertically at the desk. Call it right after
/// the Begin of that region, every frame. Presentation mode allows no scrolling at all.
void markScrollingList();

/// What clippedContent() found: one panel region whose content does not fit where it is shown.
struct Clipped {
    std::string panel;   ///< the panel's title ("Code"), or "caption bar"
    std::string what;    ///< what does not fit, and by how many pixels
};

/// Every shown panel (and the caption bar) whose content is cut off in the frame just
/// built (call after ImGui::Render()): a window or child window whose content is wider or
/// taller than its visible area (ImGui's ScrollMax), except a list (markScrollingList())
/// that scrolls vertically at the desk; a table column whose content or header is wider
/// than the column; a panel reaching past the display or under the menu and caption bars;
/// two panels on top of each other. `presentation`: lists may not scroll either.
std::vector<Clipped> clippedContent(ImVec2 display, bool presentation);

}  // namespace ts::app
