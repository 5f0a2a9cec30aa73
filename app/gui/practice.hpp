// Practice mode, "predict, then reveal" (docs/practice.md): with it on, the step the student
// is about to see is first asked about (the scenario file's [[question]] tables for that step
// first, else a question sim::QuestionGenerator::forStep makes for it, seeded by the session).
// The student answers by clicking cells in the panels (elements of M and N, slots of Mds, Nds
// and N_ds, threads) or typing a number or a name, then reveals: the answer is graded cell by
// cell (sim::grade), the cells are marked right, wrong or missed, the question's explanation
// names the kernel line, and the step is shown. A score per session counts right answers of
// those asked. The state lives in View::practice; the functions here change it, and the
// panels call practiceCellDrawn / practiceCellClicked for every cell a student can click.
#pragma once
#include <compare>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include <imgui.h>

#include "sim/teaching/questions.hpp"

namespace ts::app {

struct Loaded;
struct View;
struct Frame;
struct Palette;

/// A cell a student can click: an array the panels draw ("M", "N", "P", "Mds", "Nds", "N_ds")
/// or "thread" (the traced block's threads), and the position in it: (row, col), row 0 in a
/// 1D array, (ty, tx) for a thread. A ghost cell of a convolution has a row or column outside
/// N (below 0 or past its edge).
struct CellRef {
    std::string array;
    sim::Cell cell;
    bool operator==(const CellRef&) const = default;
    /// By array, then cell (std::map keys). Written out, not `<=> = default`: the web build's
    /// libc++ 14 has no <=> for std::string.
    bool operator<(const CellRef& o) const { return array != o.array ? array < o.array : cell < o.cell; }
};

/// "M[1][2]", "N[5]" (a 1D array, `oneD`), "thread (tx=0, ty=1)".
std::string cellRefText(const CellRef& r, bool oneD);

/// Reads "M[1][2]", "N[5]" (row 0), "N_ds[3]" or "thread[ty][tx]" (spaces allowed, indices may
/// be negative for ghost cells); none for anything else.
std::optional<CellRef> parseCellRef(std::string_view text);

/// Where a panel drew a cell: its corners in screen pixels.
struct CellRect {
    ImVec2 min, max;
    ImVec2 centre() const { return ImVec2((min.x + max.x) * 0.5f, (min.y + max.y) * 0.5f); }
};

/// How a cell is marked in practice mode: chosen for the answer before the reveal; after it,
/// right (chosen and expected), wrong (chosen, not expected) or missed (expected, not chosen).
enum class PracticeMark { None, Chosen, Right, Wrong, Missed };

/// Practice mode's state (View::practice).
struct Practice {
    bool on = false;
    /// The session's seed for generated questions: 1 when the app starts, one more at every
    /// restart, so the same session asks the same questions.
    uint64_t seed = 1;
    std::optional<sim::Question> question;   ///< the question asked now (waiting or revealed)
    int step = -1;                           ///< the step it asks about, shown at the reveal
    std::set<sim::Cell> chosen;              ///< cells of the answer, clicked or typed
    std::string typed;                       ///< a typed number, name or cell list
    bool revealed = false;
    sim::Grade grade;                        ///< the reveal's grade
    std::string given;                       ///< the answer graded, in words
    std::string notice;                      ///< one sentence: how to answer, or why input was refused
    bool noticeIsError = false;
    int right = 0, asked = 0;                ///< the session's score

    // What the questions are made from: a generator over the loaded simulation, kept while
    // it is the same (Loaded::generation).
    std::shared_ptr<sim::QuestionGenerator> generator;
    std::shared_ptr<const sim::Simulation> generatorSim;   ///< the simulation it reads
    uint64_t generatorGeneration = ~0ull;
    /// The scenario file's questions that no step after the first reveals (those of step 0,
    /// and those of no step: a dropped barrier's hazard, occupancy), asked first when Right is
    /// pressed at the first step; `openingNext` of them have been asked this session.
    std::vector<sim::Question> opening;
    size_t openingNext = 0;

    /// The scenario file's questions about another block than the traced one that the app
    /// does not ask (otherBlockKinds), one sentence each saying which and why; the Practice
    /// panel lists them while no question is asked.
    std::vector<std::string> notAsked;

    /// Where the panels drew each clickable cell in the last frame drawn, for scripted clicks
    /// (`--keys click:M[1][2]`) and tests; filled only in practice mode. Cells under 6 px
    /// (practiceSmallMarks) are kept only where they carry a mark, at the mark's rectangle.
    std::map<CellRef, CellRect> drawn;
    std::map<CellRef, CellRect> drawing;     ///< the same, while a frame is being drawn
    /// Whether the last frame drew a mark on cells under 6 px (the Practice panel then says
    /// how they look); `smallMarksDrawing` while a frame is being drawn.
    bool smallMarks = false, smallMarksDrawing = false;
};

/// Cells narrower than this many pixels get the small form of their mark (drawPracticeMark).
constexpr float kSmallMarkCell = 6.0f;

/// The kinds practice mode asks about another block than the traced one, where the panels
/// show what a student answers with: matrix multiplication: the elements a block or thread
/// loads (the Matrices panel draws all of M and N), the slot a thread writes (slots are the
/// same in every block), an index expression and the block's global loads (typed);
/// convolution: the slot, the index expression and the global loads only (the Convolution
/// panel draws N only around the traced block, and its threads and P are the traced block's).
std::vector<sim::QuestionKind> otherBlockKinds(const sim::Scenario& s);

/// Why practice mode does not ask a question of `kind` about another block (one clause, for
/// Practice::notAsked); empty when it does.
std::string whyNotOtherBlock(sim::QuestionKind kind, const sim::Scenario& s);

/// The block a question asks about when it is not the traced one ("block (bx=1, by=0)");
/// empty for the traced block or a question of no block.
std::string otherBlockName(const Practice& p);

/// The array the question's answer cells lie in: "M", "N", "Nds", "N_ds" or "thread"; empty
/// for a number or a name.
std::string answerArray(const sim::Question& q, const sim::Scenario& s);

/// Whether a question waits for its answer (asked, not revealed yet).
bool practiceWaiting(const Practice& p);
/// Whether a question waits for cells (elements, slots, threads): clicks on cells then go to
/// the answer instead of their usual action.
bool practiceWantsCells(const Practice& p);

/// Switches practice mode on or off (key P, View > Practice mode). Off drops a waiting
/// question without counting it; the score stays until Restart.
void practiceToggle(Practice& p);

/// Drops the question and the generator when the loaded simulation is not the one they were
/// made from (another preset, block or problem); puts the cursor back on the first step when
/// it was held before it (practiceNext) and no question waits any more. Every frame.
void practiceFollow(Practice& p, const Loaded& loaded, View& view);

/// Next step (Right, Page Down) in practice mode. A waiting question holds the step (the
/// reveal waits for Enter; a notice says so). At the first step the scenario file's
/// questions of that step and of no step are asked first, one a press (Practice::opening),
/// with the cursor at -1, the state before the first step, so that step 0's effects are not
/// seen before the answer. Otherwise the question of the step after the cursor is asked and
/// the cursor stays, so the step is not seen before the answer. Returns false when the step
/// has no question (or there is no next step): the caller steps as usual. Questions are
/// about the traced block, a block of no question, or another block for the kinds of
/// otherBlockKinds.
bool practiceNext(Practice& p, const Loaded& loaded, View& view);

/// Drops a waiting question without counting it (Left, Page Up); practiceFollow then puts a
/// cursor held before the first step back on it.
void practiceSkip(Practice& p);

/// A click on cell `r` while a question waits for cells: toggles it in the answer (a slot
/// replaces the slot chosen before). A cell of another array than the answer's, or one
/// outside its array, is refused with one sentence in Practice::notice and not taken.
/// Returns whether it was taken.
bool practiceClickCell(Practice& p, const Loaded& loaded, const CellRef& r);

/// Sets the typed answer (a number, a name, or cells written as "M[1][2], M[1][3]").
void practiceType(Practice& p, std::string text);

/// Enter, or the Reveal button: grades the answer (the cells chosen and typed, the typed
/// number or name), counts it, marks the cells and shows the question's step. An answer
/// that cannot be graded (no number typed, a name that is not one of the choices, a typed
/// cell outside its array) is refused with one sentence and not counted. Returns whether
/// the answer was graded.
bool practiceReveal(Practice& p, const Loaded& loaded, View& view);

/// Restart (R, the Restart button): score 0 of 0, no question, the first step, the next seed.
void practiceRestart(Practice& p, View& view);

/// How cell `r` is marked now.
PracticeMark practiceMark(const Practice& p, const CellRef& r);

/// The names a question of `q`'s kind takes as its answer ("raw", "war", "none"; the
/// occupancy limiters); empty for other shapes.
std::vector<std::string> practiceChoices(const sim::Question& q);

/// The Practice panel's sentences for the state now, in order: the score; then, while a
/// question waits, "Step N: PROMPT", how to answer and the answer so far; once revealed,
/// "Step N: PROMPT", "Right." or "Not quite.", the answer given, the answer, "Marked: R right,
/// W wrong, M missed." (cells only) and "Why: EXPLANATION". The panel draws them (on a slide
/// it leaves out the prompt, which the caption shows large); tests read them.
std::vector<std::string> practiceLines(const Practice& p, const Loaded& loaded);

/// The caption bar's practice line: the question while it waits, the verdict and the answer
/// once revealed (the explanation is the Practice panel's); empty when there is none. On a
/// `slide`, which shows no Practice panel unless asked to, it also gives the answer chosen so
/// far and the score.
std::string practiceCaption(const Practice& p, bool slide = false);

/// Panels: cell `r` is drawn at [a, b] this frame. In practice mode it is remembered for
/// scripted clicks and marked (PracticeMark) on `dl`, the mark `inset` pixels inside the
/// cell's edge (inside a frame the panel draws there).
void practiceCellDrawn(Frame& f, ImDrawList* dl, const CellRef& r, ImVec2 a, ImVec2 b, float inset = 0);

/// Where a panel that keeps its values clear of marks (cell_canvas.hpp's CellBand and
/// placeValue) wants a mark: the frame `thickness` pixels wide just inside the rectangle it
/// is given, and the glyph (tick, cross, ring, dot) in the square [glyphMin, glyphMax],
/// which no digit covers.
struct MarkPlace {
    float thickness = 1;
    ImVec2 glyphMin{0, 0}, glyphMax{0, 0};
};

/// practiceCellDrawn with the mark placed by the panel: cell `r` is remembered at [a, b];
/// its mark's frame lies just inside [frameMin, frameMax] and its glyph where `place` says.
void practiceCellDrawn(Frame& f, ImDrawList* dl, const CellRef& r, ImVec2 a, ImVec2 b, ImVec2 frameMin,
                       ImVec2 frameMax, const MarkPlace& place);

/// Panels: the mouse is over cell `r` and `clicked` says whether the panel saw a click on
/// it. While a question waits for cells, the click goes to the answer (practiceClickCell) and
/// this returns true: the panel then skips its own action for the click.
bool practiceCellClicked(Frame& f, const CellRef& r, bool clicked);

/// Draws mark `m` on the cell [a, b]: chosen, a frame in the selection colour with a dot;
/// right, a solid frame with a tick; wrong, a solid frame with a cross; missed, a dashed
/// frame with a ring. Each frame has a contrasting edge, so it shows on any fill. A cell
/// narrower than kSmallMarkCell gets the small form: a square of at least 5 px about its
/// centre, filled in the mark's colour (missed: a 2 px outline of it), with a 1 px edge in
/// the contrasting colour.
void drawPracticeMark(ImDrawList* dl, ImVec2 a, ImVec2 b, PracticeMark m, const Palette& pal);

/// drawPracticeMark with the frame and glyph where `place` says (the frame just inside [a, b]).
void drawPracticeMark(ImDrawList* dl, ImVec2 a, ImVec2 b, PracticeMark m, const Palette& pal, const MarkPlace& place);

/// The square the small form of a mark covers for the cell [a, b] (at least 5 px a side).
CellRect smallMarkRect(ImVec2 a, ImVec2 b);

/// Panels drawing a matrix whose cells are under kSmallMarkCell pixels (a heatmap or bins,
/// not one shape per cell): the marks of practice mode on `array`, whose cell (r, c) lies at
/// origin + (c * cell.x, r * cell.y). Chosen cells before the reveal; after it, missed, then wrong, then
/// right ones on top. Each marked cell is remembered (Practice::drawn) at its mark's square.
void practiceSmallMarks(Frame& f, ImDrawList* dl, const std::string& array, ImVec2 origin, ImVec2 cell, int rows,
                        int cols);

}  // namespace ts::app
