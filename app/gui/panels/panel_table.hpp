// The panel table: every panel of the main window in one list, with its name (the
// `--panel` and scenario-file name), its title, whether it is shown by default, its place at
// the desk and on a slide (presentation mode), and how to make it. A panel is its own file
// (a struct with its cached state and a draw(Frame&)) plus one row of this table
// (panel_table.cpp); the View menu lists the panels in table order.
#pragma once
#include <memory>
#include <optional>
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

/// Columns of the desk layout: left 21.5% of the width, centre 43%, right the rest.
enum class DeskColumn { Left, Centre, Right };
/// Columns of the slide layout: left (the picture) 55% of the width, right the rest.
enum class SlideColumn { Left, Right };

/// Rows as fractions of the height below the menu and caption bars (0 top, 1 bottom).
struct Span {
    float top, bottom;
};

/// A panel's place at the desk.
struct DeskPlace {
    DeskColumn column;
    Span rows;
};

/// A panel's place on a slide. The right column gives a third row to the panels marked
/// `thirdRow` while one of them is shown; the panels above it then take `squeezed`.
struct SlidePlace {
    SlideColumn column;
    Span rows;
    std::optional<Span> squeezed = std::nullopt;   ///< rows while a third-row panel is shown
    bool thirdRow = false;
};

/// When presentation mode shows a panel for a preset that names no panels of its own.
enum class OnSlide { No, Yes, IfBarrierDropped, IfOccupancyQuestion };

/// One row of the panel table.
struct PanelInfo {
    const char* name;      ///< --panel NAME and a scenario file's `panels`, e.g. "shared-memory"
    const char* title;     ///< window title and imgui.ini key, e.g. "Shared memory"
    bool open;             ///< shown by default
    DeskPlace desk;
    SlidePlace slide;
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
