#include "practice.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <initializer_list>

#include "panels/widgets.hpp"
#include "sim/catalogue/problem_desc.hpp"
#include "sim/engine/loaded_runner.hpp"
#include "sim/engine/work_estimate.hpp"
#include "sim/teaching/words.hpp"
#include "state.hpp"
#include "theme.hpp"

namespace ts::app {
namespace {

using sim::lower;
using sim::trim;

/// Simulations a question may start on the frame's thread (another block, a run without a
/// barrier): longer ones are left out, as a generated question that cannot be answered is.
constexpr double kMostQuestionSeconds = 1.0;

bool oneD(const sim::Scenario& s) { return sim::problemOf(s).dims == 1; }

/// "the elements of M", "a slot of Nds", "threads of the block": what the answer is made of.
std::string answerWords(const std::string& array, sim::QuestionKind kind)
{
    if (array == "thread") return "threads of the block";
    if (array == "Nds" || array == "N_ds" || array == "Mds") return "a slot of " + array;
    if (kind == sim::QuestionKind::HaloCells || kind == sim::QuestionKind::GhostCells) return "cells of N";
    return "elements of " + array;
}

/// The panel where the answer's cells are clicked.
std::string panelWords(const std::string& array, const sim::Scenario& s)
{
    const bool conv = sim::problemOf(s).picture == sim::Picture::Convolution;
    if (array == "thread") return conv ? "the Threads panel (or P in the Convolution panel)" : "the Threads panel";
    if (array == "N_ds") return "the Convolution or Shared memory panel";
    if (array == "Mds" || array == "Nds") return "the Shared memory panel";
    return conv ? "the Convolution panel" : "the Matrices panel";
}

/// Rows and columns of `array` in the loaded simulation (threads: the block); false if it
/// has no such array.
bool extent(const sim::Simulation& s, const std::string& array, int& rows, int& cols)
{
    if (array == "thread") {
        rows = static_cast<int>(s.trace.blockDim.y);
        cols = static_cast<int>(s.trace.blockDim.x);
        return true;
    }
    const int i = s.arrayIndex(array);
    if (i < 0) return false;
    rows = s.arrays[i].rows;
    cols = s.arrays[i].cols;
    return true;
}

/// Why cell `r` cannot be part of the answer to `p.question` (one sentence), or "".
std::string refusal(const Practice& p, const Loaded& loaded, const CellRef& r)
{
    const sim::Simulation& s = *loaded.sim;
    const bool line = oneD(s.scenario);
    const sim::Question& q = *p.question;
    const std::string want = answerArray(q, s.scenario);
    const std::string name = cellRefText(r, line && r.array != "thread");
    if (r.array != want)
        return "This question asks for " + answerWords(want, q.spec.kind) + "; " + name + " is not one, so it is not taken.";
    int rows = 0, cols = 0;
    if (!extent(s, want, rows, cols)) return "The loaded kernel has no array " + want + ".";
    // Ghost cells lie outside N, at most Mask_Width / 2 past its edge.
    const bool ghosts = q.spec.kind == sim::QuestionKind::GhostCells || q.spec.kind == sim::QuestionKind::HaloCells;
    const int n = ghosts ? s.scenario.maskWidth / 2 : 0;
    const int rowMargin = line ? 0 : n;
    const sim::Cell c = r.cell;
    if (c.row >= -rowMargin && c.row < rows + rowMargin && c.col >= -n && c.col < cols + n) return "";
    const std::string what = want == "thread" ? "the block" : want;
    std::string range;
    if (want == "thread")
        range = std::to_string(cols) + " x " + std::to_string(rows) + " threads: tx 0 to " + std::to_string(cols - 1) +
                ", ty 0 to " + std::to_string(rows - 1);
    else if (rows == 1 && line)
        range = "indices " + std::to_string(-n) + " to " + std::to_string(cols - 1 + n);
    else
        range = std::to_string(rows) + " x " + std::to_string(cols) + ": rows " + std::to_string(-rowMargin) + " to " +
                std::to_string(rows - 1 + rowMargin) + ", columns " + std::to_string(-n) + " to " +
                std::to_string(cols - 1 + n);
    return name + " lies outside " + what + " (" + range + (ghosts ? ", ghost cells included" : "") +
           "), so it is not taken and not counted.";
}

void refuse(Practice& p, std::string sentence)
{
    p.notice = std::move(sentence);
    p.noticeIsError = true;
}

std::string joinWords(const std::vector<std::string>& v, const char* last)
{
    std::string s;
    for (size_t i = 0; i < v.size(); ++i) s += (i == 0 ? "" : i + 1 == v.size() ? std::string(" ") + last + " " : ", ") + v[i];
    return s;
}

/// The generator over the loaded simulation, made again when the simulation changed.
sim::QuestionGenerator& generator(Practice& p, const Loaded& loaded)
{
    if (!p.generator || p.generatorGeneration != loaded.generation) {
        p.generatorSim = loaded.sim;
        p.generator = std::make_shared<sim::QuestionGenerator>(
            loaded.preset, p.generatorSim.get(), [](const sim::Scenario& s, const sim::SimOptions& o) {
                const sim::WorkEstimate work = sim::estimateWork(s, o);
                if (work.seconds() > kMostQuestionSeconds)
                    throw sim::QuestionError("answering it would simulate for about " + sim::durationWords(work.seconds()) + ".");
                try {
                    return sim::simulate(s, o, work);
                } catch (const sim::RunStopped& stopped) {
                    // A student's kernel whose sandboxed run gave no result.
                    throw sim::QuestionError(std::string("answering it needs a run of your kernel, which stopped: ") + stopped.what() + ".");
                }
            });
        p.generatorGeneration = loaded.generation;
        // The scenario file's questions the walk from the first step would not reach.
        p.opening.clear();
        p.openingNext = 0;
        p.notAsked.clear();
        const sim::Uint3 b = loaded.preset.scenario.block;
        for (const sim::QuestionSpec& spec : loaded.preset.questions) {
            if (spec.block && (spec.block->x != b.x || spec.block->y != b.y)) {
                // About another block: asked where the panels show what it is answered with.
                const std::string why = whyNotOtherBlock(spec.kind, loaded.preset.scenario);
                if (!why.empty()) {
                    p.notAsked.push_back("Not asked here: line " + std::to_string(spec.line) + "'s " +
                                         std::string(sim::questionKindName(spec.kind)) + " question, about block (bx=" +
                                         std::to_string(spec.block->x) + ", by=" + std::to_string(spec.block->y) +
                                         ") rather than the traced one, since " + why +
                                         "; tilescope-cli questions asks it, or trace that block.");
                    continue;
                }
            }
            try {
                sim::Question q = p.generator->answer(spec);
                if (q.spec.step && *q.spec.step != 0) continue;
                q.fixed = true;
                p.opening.push_back(std::move(q));
            } catch (const sim::QuestionError& e) {
                refuse(p, loaded.preset.file + ", line " + std::to_string(spec.line) + ": " + sim::oneLine(e.what()));
            }
        }
    }
    return *p.generator;
}

/// Puts question `q` of step `step` to the student: no answer chosen or typed yet, nothing
/// revealed, a notice that is not an error cleared.
void ask(Practice& p, sim::Question q, int step)
{
    p.question = std::move(q);
    p.step = step;
    p.chosen.clear();
    p.typed.clear();
    p.revealed = false;
    p.grade = {};
    p.given.clear();
    if (!p.noticeIsError) p.notice.clear();
}

}  // namespace

std::string cellRefText(const CellRef& r, bool oneDArray)
{
    if (r.array == "thread")
        return "thread (tx=" + std::to_string(r.cell.col) + ", ty=" + std::to_string(r.cell.row) + ")";
    if (oneDArray && r.cell.row == 0) return r.array + "[" + std::to_string(r.cell.col) + "]";
    return r.array + "[" + std::to_string(r.cell.row) + "][" + std::to_string(r.cell.col) + "]";
}

std::optional<CellRef> parseCellRef(std::string_view text)
{
    const std::string t = trim(text);
    const size_t open = t.find('[');
    if (open == std::string::npos || open == 0) return std::nullopt;
    CellRef r;
    r.array = trim(std::string_view(t).substr(0, open));
    for (char c : r.array)
        if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_') return std::nullopt;
    std::vector<int> idx;
    size_t i = open;
    while (i < t.size()) {
        if (std::isspace(static_cast<unsigned char>(t[i]))) {
            ++i;
            continue;
        }
        if (t[i] != '[' || idx.size() == 2) return std::nullopt;
        const size_t close = t.find(']', i);
        if (close == std::string::npos) return std::nullopt;
        const std::string num = trim(std::string_view(t).substr(i + 1, close - i - 1));
        char* end = nullptr;
        const long v = std::strtol(num.c_str(), &end, 10);
        if (num.empty() || *end != '\0' || v < -1000000000L || v > 1000000000L) return std::nullopt;
        idx.push_back(static_cast<int>(v));
        i = close + 1;
    }
    if (idx.empty()) return std::nullopt;
    r.cell = idx.size() == 1 ? sim::Cell{0, idx[0]} : sim::Cell{idx[0], idx[1]};
    return r;
}

std::string answerArray(const sim::Question& q, const sim::Scenario& s)
{
    switch (q.spec.kind) {
    case sim::QuestionKind::MdsLoads: return "M";
    case sim::QuestionKind::NdsLoads: return "N";
    case sim::QuestionKind::BlockTile: return q.spec.array.empty() ? "N" : q.spec.array;
    case sim::QuestionKind::NdsSlot: return sim::problemOf(s).sharedOfN;
    case sim::QuestionKind::ElementReaders: return "thread";
    case sim::QuestionKind::HaloCells:
    case sim::QuestionKind::GhostCells: return "N";
    default: return "";
    }
}

std::vector<sim::QuestionKind> otherBlockKinds(const sim::Scenario& s)
{
    using K = sim::QuestionKind;
    std::vector<K> kinds;
    for (K k : sim::applicableQuestionKinds(s))
        if (whyNotOtherBlock(k, s).empty()) kinds.push_back(k);
    return kinds;
}

std::string whyNotOtherBlock(sim::QuestionKind kind, const sim::Scenario& s)
{
    using K = sim::QuestionKind;
    const bool matmul = sim::problemOf(s).tilesOfM;
    switch (kind) {
    case K::MdsLoads:
    case K::NdsLoads:
    case K::BlockTile:
        return matmul ? "" : "the Convolution panel draws N only around the traced block";
    case K::HaloCells:
    case K::GhostCells:
        return "the Convolution panel draws N only around the traced block, and ghost cells only where it has them";
    case K::ElementReaders:
        return "the Threads panel and the Convolution panel's P choose the traced block's threads";
    default: return "";
    }
}

std::string otherBlockName(const Practice& p)
{
    if (!p.question || !p.question->spec.block || !p.generatorSim) return "";
    const sim::Uint3 t = p.generatorSim->trace.block, b = *p.question->spec.block;
    if (b.x == t.x && b.y == t.y) return "";
    return "block (bx=" + std::to_string(b.x) + ", by=" + std::to_string(b.y) + (b.z ? ", bz=" + std::to_string(b.z) : std::string()) + ")";
}

bool practiceWaiting(const Practice& p) { return p.on && p.question && !p.revealed; }

bool practiceWantsCells(const Practice& p)
{
    return practiceWaiting(p) &&
           (p.question->answer.shape == sim::AnswerShape::Cells || p.question->answer.shape == sim::AnswerShape::Slot);
}

void practiceToggle(Practice& p)
{
    p.on = !p.on;
    if (p.on) p.openingNext = 0;
    if (!p.on && practiceWaiting(p)) p.question.reset();
    p.notice.clear();
    p.noticeIsError = false;
}

void practiceFollow(Practice& p, const Loaded& loaded, View& view)
{
    if (p.generator && p.generatorGeneration != loaded.generation) {
        // Another simulation: its steps are not the ones asked about.
        p.question.reset();
        p.generator.reset();
        p.generatorSim.reset();
        p.generatorGeneration = ~0ull;
    }
    // The state before the first step is shown only while a question of it waits.
    if (view.cursor < 0 && !practiceWaiting(p) && loaded.sim && !loaded.sim->trace.steps.empty()) view.cursor = 0;
}

bool practiceNext(Practice& p, const Loaded& loaded, View& view)
{
    if (!p.on || !loaded.sim || loaded.sim->trace.steps.empty()) return false;
    practiceFollow(p, loaded, view);
    if (practiceWaiting(p)) {
        p.notice = "Answer first, then press Enter (or Reveal) to see step " + std::to_string(p.step) +
                   "; Left skips the question.";
        p.noticeIsError = false;
        return true;
    }
    p.question.reset();
    const int next = view.cursor + 1, last = static_cast<int>(loaded.sim->trace.steps.size()) - 1;
    std::vector<sim::Question> qs;
    try {
        sim::QuestionGenerator& g = generator(p, loaded);
        if (view.cursor <= 0 && p.openingNext < p.opening.size()) {
            // A question of the first step, or of none: asked with the state before the first
            // step on screen (cursor -1), so that step 0's loads do not give the answer away.
            ask(p, p.opening[p.openingNext++], 0);
            view.cursor = -1;
            return true;
        }
        if (next > last) return false;
        const size_t problems = g.problems().size();
        qs = g.forStep(next, p.seed, 1, otherBlockKinds(loaded.sim->scenario));
        if (g.problems().size() > problems) refuse(p, g.problems().back().message);
    } catch (const std::exception& e) {
        refuse(p, "No question for step " + std::to_string(next) + ": " + sim::oneLine(e.what()));
        return false;
    }
    if (qs.empty()) return false;
    ask(p, std::move(qs.front()), next);
    return true;
}

void practiceSkip(Practice& p)
{
    if (!practiceWaiting(p)) return;
    p.question.reset();
    p.notice = "Skipped the question of step " + std::to_string(p.step) + "; it is not counted.";
    p.noticeIsError = false;
}

bool practiceClickCell(Practice& p, const Loaded& loaded, const CellRef& r)
{
    if (!practiceWantsCells(p) || !loaded.sim) {
        refuse(p, p.on && p.question && !p.revealed
                      ? "This question takes a number or a name, not cells: type it, then press Enter."
                      : "No question waits for cells now: press Right for the next step's question.");
        return false;
    }
    if (std::string why = refusal(p, loaded, r); !why.empty()) {
        refuse(p, why);
        return false;
    }
    if (p.question->answer.shape == sim::AnswerShape::Slot) {
        const bool same = p.chosen.size() == 1 && *p.chosen.begin() == r.cell;
        p.chosen.clear();
        if (!same) p.chosen.insert(r.cell);
    } else if (!p.chosen.erase(r.cell)) {
        p.chosen.insert(r.cell);
    }
    p.notice.clear();
    p.noticeIsError = false;
    return true;
}

void practiceType(Practice& p, std::string text) { p.typed = std::move(text); }

std::vector<std::string> practiceChoices(const sim::Question& q)
{
    if (q.spec.kind == sim::QuestionKind::DroppedBarrierHazard) return {"raw", "war", "none"};
    if (q.spec.kind == sim::QuestionKind::OccupancyLimiter) return {"registers", "shared_memory", "threads", "blocks"};
    return {};
}

bool practiceReveal(Practice& p, const Loaded& loaded, View& view)
{
    if (!practiceWaiting(p) || !loaded.sim) return false;
    const sim::Question& q = *p.question;
    sim::Answer given;
    given.shape = q.answer.shape;
    given.oneD = q.answer.oneD;
    const std::string typed = trim(p.typed);
    switch (q.answer.shape) {
    case sim::AnswerShape::Number: {
        char* end = nullptr;
        const long long v = typed.empty() ? 0 : std::strtoll(typed.c_str(), &end, 10);
        if (typed.empty()) {
            refuse(p, "Type a whole number first (the digit keys, or the field above), then press Enter.");
            return false;
        }
        if (*end != '\0') {
            refuse(p, "'" + typed + "' is not a whole number; type one, such as 4, then press Enter.");
            return false;
        }
        given.number = v;
        break;
    }
    case sim::AnswerShape::Name: {
        const std::vector<std::string> choices = practiceChoices(q);
        const std::string name = lower(typed);
        if (std::find(choices.begin(), choices.end(), name) == choices.end()) {
            refuse(p, typed.empty() ? "Choose " + joinWords(choices, "or") + " first, then press Enter."
                                    : "Answer " + joinWords(choices, "or") + "; got '" + typed + "'.");
            return false;
        }
        given.name = name;
        break;
    }
    case sim::AnswerShape::Cells:
    case sim::AnswerShape::Slot: {
        std::set<sim::Cell> cells = p.chosen;
        // Typed cells, "M[1][2], M[1][3]", join the clicked ones.
        std::string token;
        for (size_t i = 0; i <= typed.size(); ++i) {
            if (i < typed.size() && typed[i] != ',' && typed[i] != ';') {
                token += typed[i];
                continue;
            }
            const std::string t = trim(token);
            token.clear();
            if (t.empty()) continue;
            const std::optional<CellRef> r = parseCellRef(t);
            if (!r) {
                refuse(p, "'" + t + "' is not a cell; write cells as " +
                              (answerArray(q, loaded.sim->scenario) == "thread" ? std::string("thread[ty][tx]")
                                                                                  : answerArray(q, loaded.sim->scenario) + "[1][2]") +
                              ", separated by commas.");
                return false;
            }
            if (std::string why = refusal(p, loaded, *r); !why.empty()) {
                refuse(p, why);
                return false;
            }
            cells.insert(r->cell);
        }
        if (q.answer.shape == sim::AnswerShape::Slot && cells.size() != 1) {
            refuse(p, std::string(cells.empty() ? "Choose" : "Choose only") + " one " +
                          answerWords(answerArray(q, loaded.sim->scenario), q.spec.kind) + " first (click it), then press Enter.");
            return false;
        }
        given.cells.assign(cells.begin(), cells.end());
        break;
    }
    }
    p.grade = sim::grade(q, given);
    sim::Question mine = q;
    mine.answer = given;
    p.given = sim::answerText(mine);
    p.chosen = std::set<sim::Cell>(given.cells.begin(), given.cells.end());
    ++p.asked;
    if (p.grade.correct) ++p.right;
    p.revealed = true;
    p.notice.clear();
    p.noticeIsError = false;
    view.cursor = p.step;
    return true;
}

void practiceRestart(Practice& p, View& view)
{
    p.right = p.asked = 0;
    p.openingNext = 0;
    p.question.reset();
    ++p.seed;
    p.chosen.clear();
    p.typed.clear();
    p.notice = "Restarted: score 0 of 0, from the first step; press Right for its question.";
    p.noticeIsError = false;
    if (view.cursor > 0) view.cursor = 0;
}

PracticeMark practiceMark(const Practice& p, const CellRef& r)
{
    if (!p.on || !p.question || !p.generatorSim) return PracticeMark::None;
    if (r.array != answerArray(*p.question, p.generatorSim->scenario)) return PracticeMark::None;
    auto has = [&](const std::vector<sim::Cell>& v) { return std::find(v.begin(), v.end(), r.cell) != v.end(); };
    if (!p.revealed) return p.chosen.count(r.cell) ? PracticeMark::Chosen : PracticeMark::None;
    if (has(p.grade.right)) return PracticeMark::Right;
    if (has(p.grade.wrong)) return PracticeMark::Wrong;
    if (has(p.grade.missed)) return PracticeMark::Missed;
    return PracticeMark::None;
}

std::vector<std::string> practiceLines(const Practice& p, const Loaded& loaded)
{
    std::vector<std::string> out;
    out.push_back("Score: " + std::to_string(p.right) + " of " + std::to_string(p.asked) + " right");
    if (!p.on) {
        out.push_back("Practice mode is off: press P (or View > Practice mode) to be asked about each step before "
                      "it is shown.");
        return out;
    }
    if (!p.question || !loaded.sim) {
        out.push_back("Press Right (or Page Down) for the next step's question; a step without one is shown at once.");
        out.insert(out.end(), p.notAsked.begin(), p.notAsked.end());
        return out;
    }
    const sim::Question& q = *p.question;
    const sim::Scenario& s = loaded.sim->scenario;
    const std::string array = answerArray(q, s);
    const bool line = oneD(s) && array != "thread";
    const std::string other = otherBlockName(p);
    out.push_back("Step " + std::to_string(p.step) + (q.fixed ? " (the instructor's question)" : "") +
                  (other.empty() ? "" : ", about " + other + ", not the traced block") + ": " + q.prompt);
    if (!p.revealed) {
        switch (q.answer.shape) {
        case sim::AnswerShape::Cells:
            out.push_back("Click the " + answerWords(array, q.spec.kind) + " in " + panelWords(array, s) +
                          " (again to take one back), then Enter.");
            break;
        case sim::AnswerShape::Slot:
            out.push_back("Click " + answerWords(array, q.spec.kind) + " in " + panelWords(array, s) + ", then Enter.");
            break;
        case sim::AnswerShape::Number:
            out.push_back("Type the number, then Enter.");
            break;
        case sim::AnswerShape::Name:
            out.push_back("Choose " + joinWords(practiceChoices(q), "or") + ", then Enter.");
            break;
        }
        if (q.answer.shape == sim::AnswerShape::Cells || q.answer.shape == sim::AnswerShape::Slot) {
            std::string chosen;
            for (const sim::Cell& c : p.chosen) chosen += (chosen.empty() ? "" : ", ") + cellRefText({array, c}, line);
            out.push_back("Your answer so far: " + (chosen.empty() ? std::string("nothing chosen") : chosen) + ".");
        } else {
            out.push_back("Your answer so far: " + (trim(p.typed).empty() ? std::string("nothing typed") : trim(p.typed)) +
                          ".");
        }
        return out;
    }
    out.push_back(p.grade.correct ? "Right." : "Not quite.");
    out.push_back("Your answer: " + p.given + ".");
    out.push_back("The answer: " + sim::answerText(q) + ".");
    if (q.answer.shape == sim::AnswerShape::Cells || q.answer.shape == sim::AnswerShape::Slot)
        out.push_back("Marked: " + std::to_string(p.grade.right.size()) + " right, " +
                      std::to_string(p.grade.wrong.size()) + " wrong, " + std::to_string(p.grade.missed.size()) +
                      " missed.");
    out.push_back("Why: " + q.explanation);
    return out;
}

std::string practiceCaption(const Practice& p, bool slide)
{
    if (!p.on || !p.question || !p.generatorSim) return "";
    const sim::Question& q = *p.question;
    const std::string score = slide ? " Score: " + std::to_string(p.right) + " of " + std::to_string(p.asked) + "." : "";
    if (!p.revealed) {
        std::string so = "Enter reveals";
        if (slide) {
            // What the presenter has clicked or typed for the hall.
            const std::string array = answerArray(q, p.generatorSim->scenario);
            const bool line = oneD(p.generatorSim->scenario) && array != "thread";
            std::string chosen;
            for (const sim::Cell& c : p.chosen) chosen += (chosen.empty() ? "" : ", ") + cellRefText({array, c}, line);
            if (!trim(p.typed).empty()) chosen += (chosen.empty() ? "" : ", ") + trim(p.typed);
            if (!chosen.empty()) so = "answer so far: " + chosen + "; Enter reveals";
        }
        const std::string other = otherBlockName(p);
        if (slide) {
            // Shorter for the hall: the prompt names the block itself, and Enter is the
            // presenter's key (said only with an answer so far).
            return "Question for step " + std::to_string(p.step) + (other.empty() ? "" : ", not the traced block") + ": " +
                   q.prompt + (so == "Enter reveals" ? "" : " (" + so + ")");
        }
        return "Question for step " + std::to_string(p.step) +
               (other.empty() ? "" : ", about " + other + ", not the traced block") + ": " + q.prompt + " (" + so + ")";
    }
    return (p.grade.correct ? "Step " + std::to_string(p.step) + ": right." + (p.given.empty() ? "" : " " + p.given + ".")
                            : "Step " + std::to_string(p.step) + ": not quite; the answer is " + sim::answerText(q) + ".") +
           score;
}

void practiceCellDrawn(Frame& f, ImDrawList* dl, const CellRef& r, ImVec2 a, ImVec2 b, float inset)
{
    Practice& p = f.view.practice;
    if (!p.on) return;
    p.drawing[r] = CellRect{a, b};
    const PracticeMark m = practiceMark(p, r);
    if (m == PracticeMark::None) return;
    drawPracticeMark(dl, ImVec2(a.x + inset, a.y + inset), ImVec2(b.x - inset, b.y - inset), m, f.theme.palette);
    if (std::min(b.x - a.x, b.y - a.y) < kSmallMarkCell) p.smallMarksDrawing = true;
}

void practiceCellDrawn(Frame& f, ImDrawList* dl, const CellRef& r, ImVec2 a, ImVec2 b, ImVec2 frameMin,
                       ImVec2 frameMax, const MarkPlace& place)
{
    Practice& p = f.view.practice;
    if (!p.on) return;
    p.drawing[r] = CellRect{a, b};
    const PracticeMark m = practiceMark(p, r);
    if (m == PracticeMark::None) return;
    if (std::min(b.x - a.x, b.y - a.y) < kSmallMarkCell) {
        drawPracticeMark(dl, a, b, m, f.theme.palette);
        p.smallMarksDrawing = true;
        return;
    }
    drawPracticeMark(dl, frameMin, frameMax, m, f.theme.palette, place);
}

bool practiceCellClicked(Frame& f, const CellRef& r, bool clicked)
{
    Practice& p = f.view.practice;
    if (!practiceWantsCells(p)) return false;
    if (clicked) practiceClickCell(p, f.loaded, r);
    return true;
}

CellRect smallMarkRect(ImVec2 a, ImVec2 b)
{
    const ImVec2 c((a.x + b.x) * 0.5f, (a.y + b.y) * 0.5f);
    const float h = std::max(2.5f, std::max(b.x - a.x, b.y - a.y) * 0.5f);
    return CellRect{ImVec2(std::floor(c.x - h), std::floor(c.y - h)), ImVec2(std::floor(c.x + h), std::floor(c.y + h))};
}

namespace {

ImU32 markColour(PracticeMark m, const Palette& pal)
{
    return m == PracticeMark::Chosen  ? pal.selected
           : m == PracticeMark::Right ? pal.practiceRight
           : m == PracticeMark::Wrong ? pal.practiceWrong
                                      : pal.practiceMissed;
}

/// The small form of mark `m` on `r`: `edge` draws its contrasting edge (1 px round it),
/// else its colour (missed: a 2 px outline). Two passes over many cells keep each cell's
/// colour above its neighbours' edges.
void smallMark(ImDrawList* dl, const CellRect& r, PracticeMark m, const Palette& pal, bool edge)
{
    if (edge) {
        const ImU32 e = m == PracticeMark::Chosen ? textOn(pal.selected) : pal.clear;
        dl->AddRectFilled(ImVec2(r.min.x - 1, r.min.y - 1), ImVec2(r.max.x + 1, r.max.y + 1), e);
    } else if (m == PracticeMark::Missed) {
        dl->AddRect(r.min, r.max, markColour(m, pal), 0, 0, 2.0f);
    } else {
        dl->AddRectFilled(r.min, r.max, markColour(m, pal));
    }
}

}  // namespace

void practiceSmallMarks(Frame& f, ImDrawList* dl, const std::string& array, ImVec2 origin, ImVec2 cell, int rows,
                        int cols)
{
    Practice& p = f.view.practice;
    if (!p.on || !p.question || !p.generatorSim || answerArray(*p.question, p.generatorSim->scenario) != array) return;
    const Palette& pal = f.theme.palette;
    const ImVec2 clipA = dl->GetClipRectMin(), clipB = dl->GetClipRectMax();
    std::vector<std::pair<CellRect, PracticeMark>> marks;
    auto add = [&](const std::vector<sim::Cell>& cells, PracticeMark m) {
        for (const sim::Cell& c : cells) {
            if (c.row < 0 || c.col < 0 || c.row >= rows || c.col >= cols) continue;
            const ImVec2 a(origin.x + c.col * cell.x, origin.y + c.row * cell.y), b(a.x + cell.x, a.y + cell.y);
            if (b.x < clipA.x || b.y < clipA.y || a.x > clipB.x || a.y > clipB.y) continue;
            marks.emplace_back(smallMarkRect(a, b), m);
            p.drawing[CellRef{array, c}] = marks.back().first;
        }
    };
    if (!p.revealed) {
        add(std::vector<sim::Cell>(p.chosen.begin(), p.chosen.end()), PracticeMark::Chosen);
    } else {
        add(p.grade.missed, PracticeMark::Missed);
        add(p.grade.wrong, PracticeMark::Wrong);
        add(p.grade.right, PracticeMark::Right);
    }
    if (marks.empty()) return;
    p.smallMarksDrawing = true;
    for (bool edge : {true, false})
        for (const auto& [r, m] : marks) smallMark(dl, r, m, pal, edge);
}

namespace {

/// The glyph of mark `m` in the square [c0, c1]: strokes `gw` wide in `colour` over the
/// contrasting `edge` 1 px round them.
void markGlyph(ImDrawList* dl, ImVec2 c0, ImVec2 c1, PracticeMark m, ImU32 colour, ImU32 edge, float gw)
{
    auto stroke = [&](std::initializer_list<ImVec2> pts) {
        std::vector<ImVec2> v(pts);
        dl->AddPolyline(v.data(), static_cast<int>(v.size()), edge, 0, gw + 2);
        dl->AddPolyline(v.data(), static_cast<int>(v.size()), colour, 0, gw);
    };
    const float w = c1.x - c0.x, h = c1.y - c0.y;
    const ImVec2 mid((c0.x + c1.x) * 0.5f, (c0.y + c1.y) * 0.5f);
    switch (m) {
    case PracticeMark::Right:
        stroke({ImVec2(c0.x + 0.1f * w, c0.y + 0.55f * h), ImVec2(c0.x + 0.4f * w, c0.y + 0.85f * h),
                ImVec2(c0.x + 0.95f * w, c0.y + 0.15f * h)});
        break;
    case PracticeMark::Wrong:
        stroke({ImVec2(c0.x + 0.1f * w, c0.y + 0.1f * h), ImVec2(c1.x - 0.1f * w, c1.y - 0.1f * h)});
        stroke({ImVec2(c1.x - 0.1f * w, c0.y + 0.1f * h), ImVec2(c0.x + 0.1f * w, c1.y - 0.1f * h)});
        break;
    case PracticeMark::Missed:
        dl->AddCircle(mid, w * 0.5f - gw * 0.5f - 1, edge, 0, gw + 2);
        dl->AddCircle(mid, w * 0.5f - gw * 0.5f - 1, colour, 0, gw);
        break;
    case PracticeMark::Chosen:
        dl->AddCircleFilled(mid, w * 0.3f + 1, edge);
        dl->AddCircleFilled(mid, w * 0.3f, colour);
        break;
    case PracticeMark::None: break;
    }
}

}  // namespace

void drawPracticeMark(ImDrawList* dl, ImVec2 a, ImVec2 b, PracticeMark m, const Palette& pal, const MarkPlace& place)
{
    if (m == PracticeMark::None) return;
    const float t = std::max(1.0f, place.thickness);
    const ImU32 colour = markColour(m, pal);
    const ImU32 edge = m == PracticeMark::Chosen ? textOn(pal.selected) : pal.clear;
    const ImVec2 in(a.x + t * 0.5f, a.y + t * 0.5f), out(b.x - t * 0.5f, b.y - t * 0.5f);
    if (m == PracticeMark::Missed) {
        dl->AddRect(ImVec2(a.x + t, a.y + t), ImVec2(b.x - t, b.y - t), edge, 0, 0, 1.0f);
        dashedRect(dl, a, b, colour, t);
    } else {
        dl->AddRect(in, out, edge, 0, 0, t + 2);
        dl->AddRect(in, out, colour, 0, 0, t);
    }
    if (place.glyphMax.x - place.glyphMin.x < 3) return;
    const float g = place.glyphMax.x - place.glyphMin.x;
    markGlyph(dl, place.glyphMin, place.glyphMax, m, colour, edge, std::max(1.5f, g * 0.14f));
}

void drawPracticeMark(ImDrawList* dl, ImVec2 a, ImVec2 b, PracticeMark m, const Palette& pal)
{
    if (m == PracticeMark::None) return;
    const float side = std::min(b.x - a.x, b.y - a.y);
    if (side < kSmallMarkCell) {
        // Too small for a frame and a glyph: a square about the cell in the mark's colour.
        const CellRect r = smallMarkRect(a, b);
        smallMark(dl, r, m, pal, true);
        smallMark(dl, r, m, pal, false);
        return;
    }
    const float t = std::clamp(side / 9.0f, 1.5f, 4.0f * std::max(1.0f, side / 48.0f));
    const ImU32 colour = m == PracticeMark::Chosen  ? pal.selected
                         : m == PracticeMark::Right ? pal.practiceRight
                         : m == PracticeMark::Wrong ? pal.practiceWrong
                                                    : pal.practiceMissed;
    // The contrasting edge: the window's clear colour (near-black, or near-white in the light theme).
    const ImU32 edge = m == PracticeMark::Chosen ? textOn(pal.selected) : pal.clear;
    const ImVec2 in(a.x + t * 0.5f + 1, a.y + t * 0.5f + 1), out(b.x - t * 0.5f - 1, b.y - t * 0.5f - 1);
    if (m == PracticeMark::Missed) {
        dl->AddRect(ImVec2(in.x - 1, in.y - 1), ImVec2(out.x + 1, out.y + 1), edge, 0, 0, 1.0f);
        dashedRect(dl, ImVec2(a.x + 1, a.y + 1), ImVec2(b.x - 1, b.y - 1), colour, t);
    } else {
        dl->AddRect(in, out, edge, 0, 0, t + 2);
        dl->AddRect(in, out, colour, 0, 0, t);
    }
    // The glyph in the top right corner, above the band of the cell's value (centred, at
    // most the mono font's 16 px at 1x high), so that the value stays readable; where the
    // corner has no room for a glyph of 5 px (at 1x), the frame alone (its colour and, for
    // "missed", its dashes) marks the cell.
    const float band = scaled(16) + 2;
    const float g = std::min(std::max(6.0f, side * 0.3f), (side - band) * 0.5f - t - 1);
    if (g < scaled(5)) return;
    const ImVec2 c0(b.x - t - g - 1, a.y + t + 1), c1(b.x - t - 1, a.y + t + 1 + g);
    const float gw = std::max(1.5f, t * 0.8f);
    auto stroke = [&](std::initializer_list<ImVec2> pts) {
        std::vector<ImVec2> v(pts);
        dl->AddPolyline(v.data(), static_cast<int>(v.size()), edge, 0, gw + 2);
        dl->AddPolyline(v.data(), static_cast<int>(v.size()), colour, 0, gw);
    };
    const float w = c1.x - c0.x, h = c1.y - c0.y;
    switch (m) {
    case PracticeMark::Right:
        stroke({ImVec2(c0.x + 0.1f * w, c0.y + 0.55f * h), ImVec2(c0.x + 0.4f * w, c0.y + 0.85f * h),
                ImVec2(c0.x + 0.95f * w, c0.y + 0.15f * h)});
        break;
    case PracticeMark::Wrong:
        stroke({ImVec2(c0.x + 0.1f * w, c0.y + 0.1f * h), ImVec2(c1.x - 0.1f * w, c1.y - 0.1f * h)});
        stroke({ImVec2(c1.x - 0.1f * w, c0.y + 0.1f * h), ImVec2(c0.x + 0.1f * w, c1.y - 0.1f * h)});
        break;
    case PracticeMark::Missed:
        dl->AddCircle(ImVec2((c0.x + c1.x) * 0.5f, (c0.y + c1.y) * 0.5f), w * 0.4f, edge, 0, gw + 2);
        dl->AddCircle(ImVec2((c0.x + c1.x) * 0.5f, (c0.y + c1.y) * 0.5f), w * 0.4f, colour, 0, gw);
        break;
    case PracticeMark::Chosen:
        dl->AddCircleFilled(ImVec2((c0.x + c1.x) * 0.5f, (c0.y + c1.y) * 0.5f), w * 0.3f + 1, edge);
        dl->AddCircleFilled(ImVec2((c0.x + c1.x) * 0.5f, (c0.y + c1.y) * 0.5f), w * 0.3f, colour);
        break;
    case PracticeMark::None: break;
    }
}

}  // namespace ts::app
