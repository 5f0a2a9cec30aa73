// Internal to the Code panel (app/gui/panels/code_panel.cpp); not for other callers. What the
// panel's files share: the panel itself, the state of its listing and memory columns, and
// the functions one file draws with for another. code_panel.cpp lays out and draws the
// listing, code_panel_memory.cpp the memory columns, code_panel_explanations.cpp the
// selected thread's accesses.
#pragma once
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include <imgui.h>

#include "panels.hpp"
#include "sim/teaching/warp_view.hpp"

namespace ts::app::code_panel_detail {

/// One source line's memory figures for the whole run, summed over its spaces and arrays.
struct LineFigures {
    uint64_t requests = 0;                      ///< warp memory requests, every space
    uint64_t globalRequests = 0, sectors = 0;   ///< global loads and stores
    uint64_t sharedRequests = 0, wavefronts = 0, conflicts = 0;
    std::vector<sim::LineMemory> rows;          ///< by space, loads before stores (tooltip)
    std::vector<const sim::CompiledNote*> notes;
};

/// The per-line columns of the listing: on or off, the figures by line, and where the
/// columns end (the right edge of the text region, in screen pixels, set by source()).
struct MemoryColumns {
    bool on = false;
    std::map<unsigned, LineFigures> lines;
    float right = 0;
    float charWidth = 0;                        ///< of the columns' font
    ImFont* font = nullptr;                     ///< the columns' font (the cell font, else the small one)
    ImFont* listing = nullptr;                  ///< the source's font (CodePanel::memoryHeader chooses both)
    /// The line numbers are shown: memoryHeader drops them (and the memory columns, unless the
    /// Memory panel is open) where the code would otherwise wrap.
    bool numbers = true;
    /// Each level of indentation takes two spaces instead of four (on a slide, and at the desk
    /// where four would make the code wrap).
    bool compact = false;
    static constexpr int kColumn = 5;           ///< characters a column
    static constexpr int kChars = 4 * kColumn + 3 + 2;   ///< with gaps and the note mark
};

/// The step and simulation the listing was last scrolled to (it scrolls when the step
/// changes, so that the user may scroll away), and for how many more frames it asks again
/// (a new listing learns its height in its first frames, and clamps the scroll to it).
struct Scrolled {
    int cursor = -1;
    uint64_t generation = ~0ull;
    int again = 0;
    float height = 0;   ///< the listing's height when it last scrolled: a new height scrolls again
    int frames = 0;     ///< frames drawn since the step changed
    /// A new run scrolls to this line rather than the step's alone (the dropped barrier, else
    /// the line of the run's mistake), until the step changes; 0: none.
    unsigned target = 0;
};

/// "reads ", "zero-fills " or "writes ": what an access of kind `op` does.
const char* verb(sim::Op op);
/// The width of each line of code in `text` in characters, from line `from` on.
std::vector<int> codeWidths(const std::string& text, unsigned from, bool compact);
/// How many of `widths` are wider than `cols`.
int wrapping(const std::vector<int>& widths, int cols);
/// The memory figures of every line of `s` that accesses memory.
std::map<unsigned, LineFigures> lineFigures(const sim::Simulation& s);
/// Draws `l`'s memory columns on the row at `y`, with a tooltip when hovered.
void drawColumns(const Frame& f, const sim::Simulation& s, const MemoryColumns& m, const LineFigures& l, float y);
/// The selected thread's accesses of the step, each as its index expression evaluated.
void explanations(Frame& f, const sim::Simulation& s, const std::string& text);
/// The tallest explanations() gets over every step of the trace, in pixels.
float tallestExplanations(Frame& f, const sim::Simulation& s, const std::string& text);

/// The panel: the kernel's source with the step's line, then the selected thread's accesses.
struct CodePanel final : Panel {
    void draw(Frame& f) override;

private:
    void memoryHeader(Frame& f, const sim::Simulation& s, const std::string& text);
    void memoryColumnNames(const Frame& f);
    float namesY_ = -1;    ///< where the column names go (screen y), -1: nowhere this frame
    Scrolled scrolled_;
    MemoryColumns memory_;
    uint64_t memoryGeneration_ = ~0ull;
    /// The tallest the selected thread's explanations are over all steps of the loaded
    /// simulation (tallestExplanations), and for which simulation, thread, width and font:
    /// the listing leaves that much room under it at every step, so that stepping moves
    /// neither the listing nor the panels.
    float explain_ = 0;
    std::string explainFor_;
    /// The listing's text (cudaText of a built-in kernel's source) and the source it was made from.
    const std::string* shownFrom_ = nullptr;
    std::string shown_;
};

}  // namespace ts::app::code_panel_detail
