// Practice questions, "predict, then reveal": a question about a scenario (which elements a
// thread loads in a phase, what an index expression evaluates to, which threads use an
// input element, what a dropped barrier causes, how many blocks fit on an SM, ...) with its
// answer computed from the simulator's own trace and counters, the hazard detector or the
// occupancy calculator, never from a hand-written key. Questions come from a scenario file's
// [[question]] tables (fixed, an instructor's quiz) and from a seeded generator that gives
// the same questions for the same seed on every platform. The CLI prints them (`tilescope-cli
// questions`, docs/cli.md); the app's practice mode asks the questions of a step
// (QuestionGenerator::forStep) and grades the student's answer (grade()). No UI.
#pragma once
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "sim/teaching/question_spec.hpp"
#include "sim/files/scenario_file.hpp"
#include "sim/engine/simulate.hpp"

namespace ts::sim {

/// Does `kind` apply to the scenario's kernel? Matrix multiplication: mds-loads, nds-loads,
/// block-tile and nds-slot for PMPP's tiled kernels (matmul-tiled and its Nds variants),
/// index-value for those and the naive kernels; convolution: nds-loads, block-tile and
/// nds-slot for the tiled kernels, index-value, element-readers, halo-cells and ghost-cells
/// for all; dropped-barrier-hazard where the kernel has a droppable barrier;
/// block-global-loads, occupancy-blocks and occupancy-limiter for every kernel. When it does
/// not, `why` (if given) gets one sentence saying so and naming the kinds that apply.
bool questionKindApplies(const Scenario& s, QuestionKind kind, std::string* why = nullptr);
/// The kinds that apply to the scenario's kernel, in questionKinds() order.
std::vector<QuestionKind> applicableQuestionKinds(const Scenario& s);

/// Phases of the scenario's tiled loop that questions may name: ceil(k / TILE_WIDTH) for the
/// tiled matrix multiplication, 1 for the tiled convolutions, 0 for kernels without tiles.
int questionPhases(const Scenario& s);

/// Checks a question's target against the scenario without simulating: the kind applies,
/// the targets the kind needs are there, the block lies in the grid, the thread in the
/// block, the phase below questionPhases(), the element inside N, the array and barrier
/// exist, the occupancy values fit the profile. Empty if it is fine, else one sentence
/// ending in a full stop (a scenario file prefixes "FILE, line N: "). `key`, if given, gets
/// the scenario-file key the problem lies in ("block", "phase", ...; "kind" for a kind that
/// does not apply or a target that is missing).
std::string checkQuestion(const Preset& p, const QuestionSpec& q, std::string* key = nullptr);

/// The shape of an answer.
enum class AnswerShape : uint8_t {
    Cells,    ///< a set of positions: elements of M or N, halo or ghost cells, threads
    Slot,     ///< one slot of a shared array
    Number,   ///< a value or a count
    Name,     ///< "raw", "war", "none"; a limiter ("registers", ...)
};

/// An answer. Cells are sorted row-major and distinct. JSON keys (docs/cli.md): elements
/// (mds-loads, nds-loads, block-tile), slot (nds-slot), value (index-value), threads
/// (element-readers; each cell is (row ty, col tx), written [tx, ty]), cells (halo-cells,
/// ghost-cells), hazard, count (block-global-loads), blocks (occupancy-blocks), limiter.
struct Answer {
    AnswerShape shape = AnswerShape::Number;
    std::vector<Cell> cells;   ///< Cells; Slot: the one slot
    long long number = 0;      ///< Number
    std::string name;          ///< Name
    /// Cells and slots of a 1D array (1D convolution's N and N_ds): written as an index
    /// (`5`, `[[5], [6]]`) rather than [row, col].
    bool oneD = false;
};

/// One question with its answer.
struct Question {
    QuestionSpec spec;         ///< the complete target (block, thread, phase, step, ...)
    std::string prompt;        ///< one sentence in plain words, ending in "?"
    Answer answer;
    /// One sentence for the reveal: why the answer is what it is, naming the kernel line
    /// (number and text) that decides it.
    std::string explanation;
    unsigned line = 0;         ///< that source line of the kernel file (0: none decides it)
    std::string lineText;      ///< its text, trimmed
    bool fixed = false;        ///< from the scenario file's [[question]] tables
};

/// A question that could not be answered (a fixed question whose target turned out not to
/// fit what the kernel did, e.g. a step past the block's last): "FILE, line N: problem."
struct QuestionProblem {
    int line = 0;
    std::string message;
};

/// How a student's answer compares with the computed one (grade()).
struct Grade {
    bool correct = false;
    /// Cells and Slot answers, cell by cell: given and expected, given but not expected, and
    /// expected but not given. Number and Name answers leave them empty.
    std::vector<Cell> right, wrong, missed;
};

/// Grades `given` against `q.answer`: sets of cells cell by cell (right / wrong / missed);
/// a slot, number or name is right or wrong as a whole. Only the fields of the question's
/// answer shape are read from `given`.
Grade grade(const Question& q, const Answer& given);

/// What the generator is asked for.
struct QuestionRequest {
    uint64_t seed = 1;
    /// Questions in all: the fixed ones first (those of `kinds` when it is given), then
    /// generated ones up to this count. Fewer when the scenario has fewer distinct
    /// questions of the kinds asked.
    int count = 10;
    /// Empty: every kind that applies, the occupancy kinds only where the scenario has an
    /// [occupancy] table.
    std::vector<QuestionKind> kinds;
    bool fixedQuestions = true;        ///< include the preset's [[question]] tables
};

/// Questions and answers for one scenario (a preset or a scenario file). Simulates the
/// blocks it asks about on demand (each once, with its trace) and the dropped barriers the
/// hazard questions name. Deterministic: the same preset and seed give the same questions
/// and answers on every platform (a splitmix64 generator of its own, no std distribution).
class QuestionGenerator {
public:
    /// Runs the simulator; the CLI's runner refuses a run estimated to take too long.
    using Runner = std::function<Simulation(const Scenario&, const SimOptions&)>;

    /// `p` must pass validate(). `traced`: the simulation of p.scenario's own block that the
    /// caller already has (the app's, with its trace), to be used instead of a second run;
    /// it must outlive the generator. `run`: the simulator (default sim::simulate).
    explicit QuestionGenerator(Preset p, const Simulation* traced = nullptr, Runner run = {});
    ~QuestionGenerator();

    /// The fixed questions (kinds filtered), then generated ones. Fixed questions that cannot
    /// be answered are left out and reported in problems().
    std::vector<Question> generate(const QuestionRequest& r);

    /// Up to `count` questions about the traced block (the preset's own block) to ask at step
    /// `step` of its trace, before the step is shown: the preset's fixed questions for that
    /// block and step, then generated ones whose answer that step reveals (the loads of a
    /// load step, an index expression of the step's line, ...), chosen with `seed`.
    /// `otherBlocks`: kinds that may also ask about another block of the grid (one chosen with
    /// `seed` and the step; the fixed questions about any block, after those about the traced
    /// block), where the same step of that
    /// block's trace reveals the answer: the tiles a load step loads (mds-loads, nds-loads,
    /// block-tile, nds-slot), an index expression of the step's line (index-value), the
    /// block's global loads at the last step. With them, one step in four asks about the
    /// other block first. Empty: only the traced block, as before.
    std::vector<Question> forStep(int step, uint64_t seed = 1, int count = 3,
                                  const std::vector<QuestionKind>& otherBlocks = {});

    /// Answers one question; throws QuestionError (one sentence) when its target does not
    /// fit the scenario or what the kernel did.
    Question answer(const QuestionSpec& q);

    /// Fixed questions generate() or forStep() could not answer, in file order.
    const std::vector<QuestionProblem>& problems() const { return problems_; }

    const Preset& preset() const { return preset_; }

private:
    struct Impl;
    Preset preset_;
    std::unique_ptr<Impl> impl_;
    std::vector<QuestionProblem> problems_;
};

/// A question's target does not fit the scenario (what() is one sentence).
struct QuestionError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

/// The answer as its JSON value's text for people: "M[1][2], M[1][3]", "none", "Nds[1][0]",
/// "2", "threads (tx=0, ty=0), ...", "raw", "registers". `arrayName` names the cells' array
/// ("M", "N", "Nds", "N_ds").
std::string answerText(const Question& q);

}  // namespace ts::sim
