// The welcome window (Help > Getting started): the lecture presets as lessons in the order
// of PMPP's chapters (sim/teaching/lessons.hpp), each with its sentence and a small drawing
// of its figure; a click opens the preset. Shown at the first start (settings.toml keeps
// welcome_seen) and with tilescope --welcome; never otherwise in the command-line modes.
#pragma once
#include <string>

#include "sim/files/scenario_file.hpp"

struct ImDrawList;
struct ImVec2;

namespace ts::app {

struct Frame;
struct Palette;

/// What a lesson's thumbnail draws, chosen from its preset (kernel family, the panel that
/// carries the lesson, dropped barriers, the kernel's variant).
enum class Thumbnail {
    Naive,          ///< a row of M times a column of N gives one element of P
    Tiled,          ///< tiles of M and N copied into Mds and Nds
    MissingBarrier, ///< the tiles with the barrier between them struck out
    Boundary,       ///< tiles reaching past the edge of a matrix, their slots zero-filled
    Coalesced,      ///< a warp's lanes reading neighbouring addresses
    Uncoalesced,    ///< the lanes scattered over memory
    BankConflict,   ///< the lanes' shared reads piling into one bank
    Padded,         ///< the same reads spread over the banks by padding
    Occupancy,      ///< an SM's registers shared out between blocks
    Conv1D,         ///< an output tile and its halo cells in 1D
    Conv1DGhost,    ///< the same with ghost cells before the start of N
    Conv2D,         ///< a 2D output tile and its halo ring
};

/// The thumbnail of preset `p`.
Thumbnail thumbnailOf(const sim::Preset& p);

/// Draws thumbnail `t` into the rectangle `a`..`b` (screen pixels) in palette `pal`.
void drawThumbnail(ImDrawList* dl, Thumbnail t, ImVec2 a, ImVec2 b, const Palette& pal);

/// The welcome window while View::showWelcome: the lessons of Loaded::presets (already in
/// chapter order) grouped by chapter; a click on one asks to open it (Requests::open) and
/// closes the window. Each lesson row is recorded as the cell lesson[i] for --keys
/// click:lesson[i], and for welcomeReport().
void drawWelcome(Frame& f);

/// --print-layout's lines for the welcome drawn in the last frame: "welcome X Y W H", then
/// "lesson I CHAPTER NAME X Y W H" for each lesson in the order listed (I from 0), the
/// rectangle of its row in pixels ("hidden" after it where it is scrolled out of view).
/// "" when the welcome was not drawn.
std::string welcomeReport();

}  // namespace ts::app
