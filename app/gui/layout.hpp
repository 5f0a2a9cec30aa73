// The default arrangement of the panels: three columns that tile the window below the
// menu and caption bars (Debian's ImGui 1.86 has no docking); only the Occupancy panel,
// closed by default, opens over the centre column.
#pragma once
#include <imgui.h>

#include "state.hpp"

namespace ts::app {

/// A panel's place in pixels.
struct Rect {
    ImVec2 pos, size;
};

/// Where `p` goes in a display of `display` pixels whose top `top` pixels hold the menu
/// and caption bars.
Rect defaultRect(Panel p, ImVec2 display, float top);

/// The panel's title, also its ImGui window name (imgui.ini keys its place by it).
const char* panelTitle(Panel p);

}  // namespace ts::app
