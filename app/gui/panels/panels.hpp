// What the panels share: beginPanel for their windows, the main menu and the caption bar.
// A panel reads Frame::loaded and Frame::replay and changes only Frame::view and
// Frame::requests; the panels themselves are listed in panel_table.hpp.
#pragma once
#include <optional>
#include <string>

#include "panel_table.hpp"
#include "state.hpp"

namespace ts::app {

/// Begins panel `p` as an ImGui window at the place the layout gives it (layout.hpp), below
/// Frame::top, folded when the layout folds it; at the desk after the user has arranged the
/// panels by hand, where they are. Returns false when it is folded (call ImGui::End()
/// either way, as with ImGui::Begin). `extra`: window flags the panel adds (on a slide no
/// panel scrolls or shows a scrollbar).
bool beginPanel(Frame& f, PanelId p, ImGuiWindowFlags extra = 0);

void drawMainMenu(Frame& f);          ///< File, View, Help and their dialogs

/// What the caption bar says: the preset's title, the cursor step and its narration. One
/// source for the bar and for `tilescope --print-caption`.
struct CaptionText {
    std::string title;                    ///< the preset's title ("TileScope" if it has none)
    std::optional<int> step;              ///< the cursor step, if a trace is loaded and has it
    int lastStep = -1;                    ///< the trace's last step
    std::string label;                    ///< the step's label ("phase 0: load Mds, Nds")
    unsigned blockX = 0, blockY = 0, blockZ = 0;   ///< the traced block (bx, by, bz)
    /// The step's narration: the preset's hand-written line where one lands on the step,
    /// else the line generated from the trace (sim/teaching/narration.hpp); unset without a step.
    std::optional<std::string> narration;
    bool handWritten = false;             ///< narration is the preset's own line
    /// The preset's hand-written lines that land on no step, as one sentence ("" if none):
    /// the first problem and how many there are (sim::placeNarration).
    std::string narrationProblem;
    bool simulating = false;              ///< no simulation yet: the first one is running
    std::optional<float> presentation;    ///< the UI scale setting (at 1080p), in presentation mode
    float presentationDrawn = 0;          ///< the scale it draws at in this window (presentationScaleFor)
    float screenHeight = 0;               ///< the window's height it follows, screen pixels
    std::string practice;                 ///< practice mode's caption line (practiceCaption), or ""
};

/// The caption for the loaded preset at the view's cursor.
CaptionText captionText(const Loaded& loaded, const View& view);

/// The caption as one line: "TITLE | step N of LAST | LABEL | NARRATION", "(no narration)"
/// for a step without one (only before the first step), "TITLE | simulating..." while the
/// first simulation runs, " | presentation Sx" in presentation mode (S the setting, the
/// scale at 1080p; " (Dx at H px high)" after it where the window's height H makes it draw
/// at another scale D), and
/// " | practice: LINE" while practice mode has a question (the slide's practice line).
std::string captionLine(const CaptionText& c);

/// The caption bar under the menu: the caption, the notice and export progress. It keeps
/// its measured height, measured again only when the loaded preset, the width or the font
/// size changes.
class CaptionBar {
public:
    /// Height the bar needs: the title line (title, step, label, block and notice, on more
    /// rows when they do not fit one) with the preset's widest step label, and its tallest
    /// narration of all its steps (or the hint) wrapped to the window's width, so that the
    /// panels below stay put while stepping. The narration is made once per simulation.
    float height(const Frame& f);
    /// Draws the bar at `y`, `height` pixels high, across the window.
    void draw(Frame& f, float y, float height);

private:
    uint64_t generation_ = ~0ull;
    float wrap_ = -1, fontSize_ = -1, text_ = 0;
    int rows_ = 1;            ///< rows of the title line
    std::string notice_;      ///< the notice the height was measured with
    std::string practice_;    ///< the practice line it was measured with (practiceCaption)
};

}  // namespace ts::app
