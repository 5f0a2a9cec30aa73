// How the panels are arranged (Debian's ImGui 1.86 has no docking): a layout computed every
// frame from what the panels hold. Each panel reports its content: the height of its fixed
// part (text, forms, tables, measured from the frame before) and of its elastic regions
// (a picture that grows with its room, a list that scrolls), each with a least and a wanted
// height (elasticHeight()). The layout puts the panels into columns (the desk's three, or a
// slide's picture and text columns; panels/panel_table.hpp says which and in what order),
// stacks each column top to bottom, every panel at least as tall as its content, moves a
// panel that does not fit to the column with the most room, and, when the window is too
// small for all of them, folds the panels of lowest importance to their title bar. Widths
// start from shares of the window and grow to the panels' minimum widths. What it shows is a
// function of the view, not of the frames before: a new view starts it afresh, and the frames
// it takes to settle are not shown (App::renderFrame; docs/design.md, "Panel layout").
//
// At the desk a panel moved or resized by hand leaves the layout to the user until
// View > Reset layout; presentation mode is always arranged by the layout.
#pragma once
#include <imgui.h>

#include <cfloat>
#include <string>
#include <vector>

#include "state.hpp"

namespace ts::app {

/// A panel's place in pixels.
struct Rect {
    ImVec2 pos, size;
};

/// What the layout knows of one shown panel: window heights in pixels (title bar and
/// padding included) and its narrowest width.
struct PanelNeed {
    PanelId id = -1;
    float min = 0;          ///< fixed content plus the least of its elastic regions
    float want = FLT_MAX;   ///< fixed content plus all of its elastic regions (FLT_MAX: grows with any room)
    float minWidth = 0;
    int fold = -1;          ///< PanelInfo::fold to use instead of the table's (-1: the table's)
    bool pinned = false;    ///< opened again by hand after the layout folded it: never folds
    bool folded = false;    ///< folded by hand: stays folded
    /// Its place in the preset's lesson (lessonPanels(): 0 the main figure), -1: not in it.
    /// The lesson's panels get their wanted height before the others in their column and
    /// fold after every other panel (the main one never); on a slide the main one takes the
    /// picture column.
    int lesson = -1;
    /// The width it shows everything it has for the lesson at (PanelInfo::lessonWidth), in
    /// pixels: given after every column has its minimum width, from the others' spare. 0: none.
    float lessonWidth = 0;
};

/// The arrangement of the shown panels: a place for each panel id (unused ids keep an empty
/// Rect) and which ones are folded to their title bar.
struct Arrangement {
    std::vector<Rect> rects;
    std::vector<bool> folded;
    /// Panels whose least height did not fit even after folding (they will have to scroll).
    std::vector<PanelId> squeezed;
    /// The column each panel is in, counted from the left among all of the arrangement's
    /// columns (the desk's three, a slide's two or three); -1 where it is not shown.
    std::vector<int> column;
};

/// Arranges `needs` (each a shown panel, PanelNeed::id a row of the panel table) in a
/// display of `display` pixels whose top `top` pixels hold the menu and caption bars, as
/// the desk or, with `slides`, as presentation mode's slide; a folded panel is `titleBar`
/// pixels high. Columns, ranks, minimum widths and the order of folding come from the
/// panel table.
Arrangement arrange(const std::vector<PanelNeed>& needs, ImVec2 display, float top, bool slides, float titleBar);

/// Where the layout puts panel `p` this frame (computed at the first call of a frame from
/// the panels' content measured in the frame before) and whether it is folded.
struct Placement {
    Rect rect;
    bool folded = false;
    bool managed = true;    ///< false: the user arranged the desk by hand; leave the window be
};
Placement placePanel(PanelId p, const Frame& f);

/// How many frames in a row the layout has placed every panel where it placed it the frame
/// before, from the same measured needs: the command-line modes take their pictures once it is 2 or more (the layout
/// measures content in one frame and places the panels in the next).
int layoutSteadyFrames();

/// Where the layout placed the shown panels in the frame just drawn, a line each, left to
/// right and top to bottom: "NAME x y width height" in pixels, "folded" after a folded one
/// (--print-layout; the tests compare it between views reached in different ways), then
/// textReport()'s lines.
std::string layoutReport();

/// The smallest font each role of a slide was drawn in, in the frame just built (after
/// ImGui::Render()), found from the glyphs in its draw lists: the caption bar's narration
/// (role caption; its title line in the ui fonts is role caption-title), the source listing
/// of the Code panel, and the values in the cells of the Matrices, Convolution
/// and Shared memory figures (texts such as "-0.280" or "nan"). A line each,
/// "text ROLE PANEL SIZE px cap CAP px in N texts" (the font's pixel size and the drawn height
/// of its capital H, theme.hpp's capHeight), or "text ROLE PANEL none" where a shown panel
/// drew none; a figure's panel not shown has no line. Then, where the Roofline drew its
/// chart this frame, "plot roofline W x H px" (its plot box). Appended to layoutReport().
std::string textReport();

/// Tells the layout that panel `p` has just begun its window (ImGui::Begin) with the
/// placement `placed`: it notices a panel moved, resized, folded or opened by hand, and
/// starts collecting the panel's elastic regions.
void panelBegun(PanelId p, const Frame& f, const Placement& placed);

/// The height of an elastic region of the panel being drawn, at the cursor: what is left of
/// the panel below the cursor less `below` pixels (for what follows the region), at least
/// `min` and at most `want` (FLT_MAX: all there is). The layout learns `min` and `want`
/// for the next frame. A picture asks for what its width allows; a list for all its rows.
float elasticHeight(float min, float want, float below = 0);

/// The open/closed state a list of panel names (PanelInfo::name) describes.
PanelFlags panelsNamed(const std::vector<std::string>& names);

/// The names (PanelInfo::name) of the panels open in `open`.
std::vector<std::string> panelNames(const PanelFlags& open);

/// The panels presentation mode shows for preset `p`: its lesson's panels (lessonPanels)
/// and the preset's own list if it has one, else those whose PanelInfo::onSlide asks for it
/// (the picture, Code and Shared memory; Hazards when the preset drops a barrier, Occupancy
/// when it asks an occupancy question).
/// The caption bar says the step and PageDown/PageUp move it, so the Timeline, like
/// Scenario, Stats and GPU, waits in the View menu.
PanelFlags presentationPanels(const sim::Preset& p);

/// The panels that carry preset `p`'s lesson, most important first: the scenario file's
/// `lesson` list (sim::Preset::lesson; a name the panel table lacks is skipped), else the
/// picture of the kernel's family (Convolution for a convolution, Matrices otherwise), or,
/// where the preset's `panels` leave that picture out, none (then no figure is measured). The
/// first one's figure is the main figure that tests/gui/layout_check measures (at least 70%
/// of its panel). The layout gives these panels their room before the others, at the desk
/// and on a slide, and folds them last.
std::vector<PanelId> lessonPanels(const sim::Preset& p);

/// `open` with the panels of preset `p`'s lesson opened too (the app opens a preset so at the
/// desk, whatever the user had open).
PanelFlags withLesson(const sim::Preset& p, PanelFlags open);

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
/// two panels on top of each other; a part of the window below the bars that no panel
/// covers (a hole; reported as panel "layout"). A folded panel is cut off nowhere.
/// `presentation`: lists may not scroll either.
std::vector<Clipped> clippedContent(ImVec2 display, bool presentation);

}  // namespace ts::app
