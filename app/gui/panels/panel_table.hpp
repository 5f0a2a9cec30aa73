// The panel table: every panel of the main window in one list, with its name (the
// `--panel` and scenario-file name), its title, whether it is shown by default, its place at
// the desk and on a slide (presentation mode), and how to make it. A panel is its own file
// (a struct with its cached state and a draw(Frame&)) plus one row of this table
// (panel_table.cpp); the View menu lists the panels in table order.
#pragma once
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace ts::app {

struct Frame;

/// A panel's row in panelTable() (0 .. panelTable().size() - 1).
using PanelId = int;

/// Which panels are shown, one flag per row of panelTable().
using PanelFlags = std::vector<bool>;

/// A panel of the main window, in the style of Dear ImGui's demo: the state it keeps
/// between frames (caches keyed on Loaded::generation, scroll positions, worker jobs) lives
/// in the struct, not in function-level statics.
class Panel {
public:
    virtual ~Panel() = default;
    /// Every frame before any panel draws, whether this one is shown or not.
    virtual void update(Frame&) {}
    /// Draws the panel while it is shown (View::open): begins its window with beginPanel()
    /// (or leaves it out when it has nothing for the loaded kernel) and ends it.
    virtual void draw(Frame& f) = 0;

    PanelId id = -1;   ///< its row in panelTable(), set by makePanels()
};

/// Columns of the desk layout, left to right. A column holds its panels top to bottom; its
/// width starts from a share of the window (left 21.5%, centre 43%, right the rest) and
/// grows to the widest minimum width of its panels; an empty column gives its width away.
enum class DeskColumn { Left, Centre, Right };
/// Columns of a slide: the picture (Matrices, Convolution, Occupancy) on the left, and one
/// or two columns of text panels (Code, Shared memory, Hazards, ...) beside it.
enum class SlideColumn { Picture, Text };

/// A panel's place in a layout: its column and its rank in that column (top to bottom).
template <class Column>
struct Place {
    Column column;
    int rank;
};

/// When presentation mode shows a panel for a preset that names no panels of its own
/// (IfNoConvolutionPicture: not for a convolution).
enum class OnSlide { No, Yes, IfBarrierDropped, IfOccupancyQuestion, IfNoConvolutionPicture };

/// One row of the panel table.
struct PanelInfo {
    const char* name;      ///< --panel NAME and a scenario file's `panels`, e.g. "shared-memory"
    const char* title;     ///< window title and imgui.ini key, e.g. "Shared memory"
    bool open;             ///< shown by default
    Place<DeskColumn> desk;
    Place<SlideColumn> slide;
    /// The narrowest the panel may be, in font heights (ImGui::GetFontSize()): its widest
    /// row that cannot wrap (a form, a table, a row of buttons). 0: anything.
    float minWidth;
    /// The narrowest the panel may be at the desk when it carries the preset's lesson
    /// (layout.hpp, lessonPanels), in font heights: wide enough to show everything it has for
    /// the lesson (Code: its memory columns beside 24 characters of source). 0: minWidth.
    float lessonWidth;
    /// When the window is too small for every shown panel, the layout folds panels to their
    /// title bar, highest `fold` first (0: never folds). Clicking a folded panel's arrow
    /// opens it again and folds another.
    int fold;
    OnSlide onSlide;
    std::unique_ptr<Panel> (*make)();   ///< a new panel with empty caches
};

/// Every panel, in View-menu order.
std::span<const PanelInfo> panelTable();

/// The number of panels.
inline int panelCount() { return static_cast<int>(panelTable().size()); }

/// The row of the panel called `name`, or -1.
PanelId findPanel(std::string_view name);

/// The row of the panel called `name`; throws std::logic_error when there is none (a
/// misspelt name in the app's own code).
PanelId panelId(std::string_view name);

/// Every panel's name, in table order (what scenario files and --panel may name).
std::vector<std::string> panelNameList();

/// "scenario, stats, ...": the names for a sentence.
std::string panelNameSentence();

/// The panels shown by default.
PanelFlags defaultPanels();

/// One new panel per row of the table, its id set.
std::vector<std::unique_ptr<Panel>> makePanels();

}  // namespace ts::app
