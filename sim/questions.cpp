// Practice questions (sim/questions.hpp). Every answer is read from a simulation of the
// block asked about: its trace (which thread loaded what, which slot it wrote, which
// threads read an element), its counters, the hazard detector of a run without the named
// barrier, or the occupancy calculator. Index expressions are evaluated with the Code
// panel's evaluator and the thread's variables at the step, and checked against the index
// the trace recorded where the expression is a whole subscript.
#include "questions.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <set>
#include <sstream>

#include "conv_view.hpp"
#include "expression.hpp"
#include "kernel_view.hpp"
#include "kernels/context.cuh"
#include "occupancy.hpp"

namespace ts::sim {

namespace {

constexpr std::array<const char*, 12> kKindNames = {
    "mds-loads",         "nds-loads",          "block-tile",       "nds-slot",
    "index-value",       "element-readers",    "halo-cells",       "ghost-cells",
    "dropped-barrier-hazard", "block-global-loads", "occupancy-blocks", "occupancy-limiter"};

/// splitmix64 (Steele, Lea, Flood 2014): the same numbers from a seed on every platform,
/// unlike std::uniform_int_distribution, whose output the standard leaves to the library.
struct SplitMix64 {
    uint64_t state;
    uint64_t next()
    {
        uint64_t z = (state += 0x9E3779B97F4A7C15ull);
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
        return z ^ (z >> 31);
    }
    /// A number in [0, n) (n > 0); the modulo's bias is irrelevant here.
    uint64_t below(uint64_t n) { return next() % n; }
    template <class T>
    void shuffle(std::vector<T>& v)
    {
        for (size_t i = v.size(); i > 1; --i) std::swap(v[i - 1], v[below(i)]);
    }
};

/// How a kernel lays out its work, as far as the questions care.
enum class Shape { TiledMatmul, NaiveMatmul, OtherMatmul, ConvBasic, ConvTiled, Unknown };

Shape shapeOf(const Scenario& s)
{
    const KernelInfo* k = findKernel(s.kernel);
    if (!k) return Shape::Unknown;
    if (k->family == Family::Matmul) {
        if (!k->tiled) return Shape::NaiveMatmul;
        // PMPP's tiled kernel and its Nds variants: one P element per thread, square tiles,
        // two barriers a phase (the ladder's rungs reshape all three).
        if (k->threadRows == 1 && k->threadCols == 1 && k->blockColsFactor == 1 && k->tileK == 0 &&
            k->barriersPerPhase == 2)
            return Shape::TiledMatmul;
        return Shape::OtherMatmul;
    }
    return k->tiled ? Shape::ConvTiled : Shape::ConvBasic;
}

bool isConv(Shape sh) { return sh == Shape::ConvBasic || sh == Shape::ConvTiled; }

bool kindFits(const Scenario& s, QuestionKind k)
{
    const Shape sh = shapeOf(s);
    const KernelInfo* info = findKernel(s.kernel);
    switch (k) {
    case QuestionKind::MdsLoads: return sh == Shape::TiledMatmul;
    case QuestionKind::NdsLoads:
    case QuestionKind::BlockTile:
    case QuestionKind::NdsSlot: return sh == Shape::TiledMatmul || sh == Shape::ConvTiled;
    case QuestionKind::IndexValue: return sh != Shape::OtherMatmul && sh != Shape::Unknown;
    case QuestionKind::ElementReaders:
    case QuestionKind::HaloCells:
    case QuestionKind::GhostCells: return isConv(sh);
    case QuestionKind::DroppedBarrierHazard: return info && info->barriers != 0;
    case QuestionKind::BlockGlobalLoads:
    case QuestionKind::OccupancyBlocks:
    case QuestionKind::OccupancyLimiter: return sh != Shape::Unknown;
    }
    return false;
}

/// Why a kind does not fit a kernel, after "it": "has no Mds tile".
const char* notFitting(QuestionKind k)
{
    switch (k) {
    case QuestionKind::MdsLoads:
        return "loads no Mds tile of M (PMPP's tiled matrix multiplications, matmul-tiled and its Nds variants, do)";
    case QuestionKind::NdsLoads:
    case QuestionKind::BlockTile:
    case QuestionKind::NdsSlot:
        return "loads no tile of N into shared memory phase by phase (PMPP's tiled matrix multiplications and the "
               "tiled convolutions do)";
    case QuestionKind::IndexValue: return "has index variables the code view does not follow (a rung of the ladder)";
    case QuestionKind::ElementReaders:
    case QuestionKind::HaloCells:
    case QuestionKind::GhostCells: return "is not a convolution";
    case QuestionKind::DroppedBarrierHazard: return "has no barrier that can be dropped";
    default: return "is not a known kernel";
    }
}

std::string trim(std::string_view t)
{
    size_t b = 0, e = t.size();
    while (b < e && std::isspace(static_cast<unsigned char>(t[b]))) ++b;
    while (e > b && std::isspace(static_cast<unsigned char>(t[e - 1]))) --e;
    return std::string(t.substr(b, e - b));
}

/// `t` without white space, for comparing expressions as written.
std::string squeezed(std::string_view t)
{
    std::string out;
    for (char c : t)
        if (!std::isspace(static_cast<unsigned char>(c))) out += c;
    return out;
}

bool identStart(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_'; }
bool identChar(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

/// The identifiers of an expression, in order, once each.
std::vector<std::string> identifiers(std::string_view e)
{
    std::vector<std::string> out;
    for (size_t i = 0; i < e.size();) {
        if (identStart(e[i])) {
            size_t j = i;
            while (j < e.size() && identChar(e[j])) ++j;
            std::string id(e.substr(i, j - i));
            if (std::find(out.begin(), out.end(), id) == out.end()) out.push_back(id);
            i = j;
        } else if (std::isdigit(static_cast<unsigned char>(e[i]))) {
            while (i < e.size() && identChar(e[i])) ++i;
        } else {
            ++i;
        }
    }
    return out;
}

bool containsWord(std::string_view text, std::string_view word)
{
    for (size_t p = text.find(word); p != std::string_view::npos; p = text.find(word, p + 1)) {
        const bool before = p > 0 && identChar(text[p - 1]);
        const bool after = p + word.size() < text.size() && identChar(text[p + word.size()]);
        if (!before && !after) return true;
    }
    return false;
}

std::string joinList(const std::vector<std::string>& items)
{
    std::string out;
    for (size_t i = 0; i < items.size(); ++i)
        out += (i == 0 ? "" : i + 1 == items.size() ? " and " : ", ") + items[i];
    return out;
}

std::string capitalised(std::string s)
{
    if (!s.empty()) s[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(s[0])));
    return s;
}

std::string barrierName(unsigned bit) { return bit == kernels::AFTER_COMPUTE ? "after-compute" : "after-load"; }
std::string barrierMacro(unsigned bit) { return bit == kernels::AFTER_COMPUTE ? "AFTER_COMPUTE" : "AFTER_LOAD"; }

bool oneD(const Scenario& s) { return familyOf(s) == Family::Conv1D; }

std::string blockName(const Scenario& s, const Uint3& b)
{
    if (oneD(s)) return "block bx=" + std::to_string(b.x);
    return "block (bx=" + std::to_string(b.x) + ", by=" + std::to_string(b.y) + ")";
}

std::string threadName(const Scenario& s, const Uint3& t)
{
    if (oneD(s)) return "thread tx=" + std::to_string(t.x);
    return "thread (ty=" + std::to_string(t.y) + ", tx=" + std::to_string(t.x) + ")";
}

/// "M[1][2]" or, for a 1D array, "N[5]".
std::string cellName(const std::string& array, const Cell& c, bool oneDim)
{
    if (oneDim) return array + "[" + std::to_string(c.col) + "]";
    return array + "[" + std::to_string(c.row) + "][" + std::to_string(c.col) + "]";
}

/// The resolved occupancy question of `q` on preset `p`: each value the question leaves out
/// comes from the preset's [occupancy] table, else textbook / the kernel's own block;
/// `kernelSmem` is the kernel's static shared memory (-1: not known yet, taken as 0).
struct OccupancyAsk {
    std::string profile;
    OccupancyInput input;
};

OccupancyAsk occupancyAsk(const Preset& p, const QuestionSpec& q, int kernelSmem)
{
    OccupancyAsk a;
    const bool table = p.occupancy && p.occupancy->profile != "current";
    a.profile = !q.profile.empty() ? q.profile : table ? p.occupancy->profile : "textbook";
    a.input.blockThreads = q.blockThreads ? *q.blockThreads
                           : table        ? p.occupancy->input.blockThreads
                                          : static_cast<int>(launchShape(p.scenario).block.count());
    a.input.regsPerThread = q.regsPerThread ? *q.regsPerThread : table ? p.occupancy->input.regsPerThread : 0;
    a.input.smemPerBlock = q.smemPerBlock ? *q.smemPerBlock
                           : table        ? p.occupancy->input.smemPerBlock
                                          : std::max(0, kernelSmem);
    return a;
}

/// The shared array a tile of N goes into: "Nds" (matrix multiplication) or "N_ds".
std::string sharedOfN(const Scenario& s) { return familyOf(s) == Family::Matmul ? "Nds" : "N_ds"; }

bool sameTarget(const QuestionSpec& a, const QuestionSpec& b)
{
    auto same3 = [](const std::optional<Uint3>& x, const std::optional<Uint3>& y) {
        return x.has_value() == y.has_value() && (!x || (x->x == y->x && x->y == y->y && x->z == y->z));
    };
    return a.kind == b.kind && same3(a.block, b.block) && same3(a.thread, b.thread) && a.phase == b.phase &&
           (a.kind != QuestionKind::IndexValue || a.step == b.step) && a.element == b.element &&
           a.barrier == b.barrier && a.array == b.array && squeezed(a.expression) == squeezed(b.expression) &&
           a.profile == b.profile && a.blockThreads == b.blockThreads && a.regsPerThread == b.regsPerThread &&
           a.smemPerBlock == b.smemPerBlock;
}

}  // namespace

// ---------------------------------------------------------------------------------------
// Kinds and static checks

const std::vector<QuestionKind>& questionKinds()
{
    static const std::vector<QuestionKind> all = [] {
        std::vector<QuestionKind> v;
        for (size_t i = 0; i < kKindNames.size(); ++i) v.push_back(static_cast<QuestionKind>(i));
        return v;
    }();
    return all;
}

const char* questionKindName(QuestionKind k) { return kKindNames.at(static_cast<size_t>(k)); }

std::optional<QuestionKind> findQuestionKind(std::string_view name)
{
    for (size_t i = 0; i < kKindNames.size(); ++i)
        if (name == kKindNames[i]) return static_cast<QuestionKind>(i);
    return std::nullopt;
}

std::string questionKindList()
{
    std::vector<std::string> names(kKindNames.begin(), kKindNames.end());
    return joinList(names);
}

std::vector<std::string> questionTargetKeys(QuestionKind k)
{
    switch (k) {
    case QuestionKind::MdsLoads:
    case QuestionKind::NdsLoads: return {"block", "thread", "phase"};
    case QuestionKind::BlockTile: return {"block", "phase", "array"};
    case QuestionKind::NdsSlot: return {"block", "thread", "phase", "element"};
    case QuestionKind::IndexValue: return {"block", "thread", "expression"};
    case QuestionKind::ElementReaders: return {"block", "element"};
    case QuestionKind::HaloCells:
    case QuestionKind::GhostCells:
    case QuestionKind::BlockGlobalLoads: return {"block"};
    case QuestionKind::DroppedBarrierHazard: return {"barrier"};
    case QuestionKind::OccupancyBlocks:
    case QuestionKind::OccupancyLimiter: return {"profile", "block_threads", "regs_per_thread", "smem_per_block"};
    }
    return {};
}

bool QuestionSpec::operator==(const QuestionSpec& o) const { return sameTarget(*this, o) && step == o.step; }

bool questionKindApplies(const Scenario& s, QuestionKind kind, std::string* why)
{
    if (kindFits(s, kind)) return true;
    if (why) {
        std::vector<std::string> fit;
        for (QuestionKind k : applicableQuestionKinds(s)) fit.push_back(questionKindName(k));
        *why = std::string("The question kind '") + questionKindName(kind) + "' does not apply to " + s.kernel +
               ": it " + notFitting(kind) + "; the kinds for " + s.kernel + " are " + joinList(fit) + ".";
    }
    return false;
}

std::vector<QuestionKind> applicableQuestionKinds(const Scenario& s)
{
    std::vector<QuestionKind> out;
    for (QuestionKind k : questionKinds())
        if (kindFits(s, k)) out.push_back(k);
    return out;
}

int questionPhases(const Scenario& s)
{
    switch (shapeOf(s)) {
    case Shape::TiledMatmul: return (s.k - 1) / s.tile + 1;
    case Shape::ConvTiled: return 1;
    default: return 0;
    }
}

std::string checkQuestion(const Preset& p, const QuestionSpec& q, std::string* key)
{
    const Scenario& s = p.scenario;
    auto bad = [&](const char* k, std::string message) {
        if (key) *key = k;
        return message;
    };
    std::string why;
    if (!questionKindApplies(s, q.kind, &why)) return bad("kind", why);
    const std::string kind = questionKindName(q.kind);
    const std::vector<std::string> takes = questionTargetKeys(q.kind);
    const auto takesKey = [&](const char* k) { return std::find(takes.begin(), takes.end(), k) != takes.end(); };
    const std::string takesList = takes.empty() ? "no target" : joinList(takes);
    // Targets the kind does not take.
    const std::pair<const char*, bool> given[] = {
        {"block", q.block.has_value()},        {"thread", q.thread.has_value()},
        {"phase", q.phase.has_value()},        {"element", q.element.has_value()},
        {"barrier", q.barrier != 0},           {"array", !q.array.empty()},
        {"expression", !q.expression.empty()}, {"profile", !q.profile.empty()},
        {"block_threads", q.blockThreads.has_value()}, {"regs_per_thread", q.regsPerThread.has_value()},
        {"smem_per_block", q.smemPerBlock.has_value()}};
    for (auto [k, has] : given)
        if (has && !takesKey(k))
            return bad(k, std::string(k) + " does not apply to a question of kind '" + kind + "', which takes " +
                              takesList + " (and step).");
    const Shape sh = shapeOf(s);
    const LaunchShape ls = launchShape(s);
    // Targets it needs.
    const bool needsPhase = takesKey("phase") && questionPhases(s) > 1;
    const std::pair<const char*, bool> needed[] = {
        {"block", takesKey("block") && !q.block},
        {"thread", takesKey("thread") && !q.thread},
        {"phase", needsPhase && !q.phase},
        {"expression", q.kind == QuestionKind::IndexValue && q.expression.empty()},
        {"step", q.kind == QuestionKind::IndexValue && !q.step},
        {"element", q.kind == QuestionKind::ElementReaders && !q.element},
        {"barrier", q.kind == QuestionKind::DroppedBarrierHazard && q.barrier == 0},
        {"array", q.kind == QuestionKind::BlockTile && familyOf(s) == Family::Matmul && q.array.empty()}};
    for (auto [k, missing] : needed)
        if (missing)
            return bad("kind", "a question of kind '" + kind + "' needs " + k + " (it takes " + takesList + ").");
    if (q.block && (q.block->x >= ls.grid.x || q.block->y >= ls.grid.y))
        return bad("block", "block [" + std::to_string(q.block->x) + ", " + std::to_string(q.block->y) +
                                "] is outside the grid of " + std::to_string(ls.grid.x) + " x " +
                                std::to_string(ls.grid.y) + " blocks.");
    if (q.thread && (q.thread->x >= ls.block.x || q.thread->y >= ls.block.y))
        return bad("thread", "thread [" + std::to_string(q.thread->x) + ", " + std::to_string(q.thread->y) +
                                 "] is outside the block of " + std::to_string(ls.block.x) + " x " +
                                 std::to_string(ls.block.y) + " threads.");
    if (q.phase) {
        const int phases = questionPhases(s);
        if (*q.phase < 0 || *q.phase >= phases)
            return bad("phase", phases == 1 ? "phase must be 0: " + s.kernel + " loads its tiles in one phase; got " +
                                                  std::to_string(*q.phase) + "."
                                            : "phase must be between 0 and " + std::to_string(phases - 1) + " (k = " +
                                                  std::to_string(s.k) + " with TILE_WIDTH " + std::to_string(s.tile) +
                                                  " gives " + std::to_string(phases) + " phases); got " +
                                                  std::to_string(*q.phase) + ".");
    }
    if (q.step && *q.step < 0) return bad("step", "step must be 0 or more; got " + std::to_string(*q.step) + ".");
    if (q.element) {
        if (!isConv(sh)) return bad("element", "element applies to the convolution kernels only.");
        const int h = familyOf(s) == Family::Conv2D ? s.height : 1;
        if (q.element->row < 0 || q.element->row >= h || q.element->col < 0 || q.element->col >= s.width)
            return bad("element", oneD(s) ? "element " + std::to_string(q.element->col) + " is outside N, which has " +
                                                std::to_string(s.width) + " elements (0 to " +
                                                std::to_string(s.width - 1) + ")."
                                          : "element [" + std::to_string(q.element->row) + ", " +
                                                std::to_string(q.element->col) + "] is outside N, which is " +
                                                std::to_string(s.height) + " x " + std::to_string(s.width) + ".");
    }
    if (!q.array.empty()) {
        const bool matmul = familyOf(s) == Family::Matmul;
        if (matmul ? q.array != "M" && q.array != "N" : q.array != "N")
            return bad("array", matmul ? "array must be \"M\" or \"N\", the input whose tile the block loads; got \"" +
                                             q.array + "\"."
                                       : "array must be \"N\", the input whose tile the block loads; got \"" + q.array +
                                             "\".");
    }
    if (q.barrier) {
        const KernelInfo* info = findKernel(s.kernel);
        if (!(info->barriers & q.barrier))
            return bad("barrier", s.kernel + " has no " + barrierName(q.barrier) + " barrier to drop; it can drop " +
                                      std::string(info->barriers & kernels::AFTER_LOAD ? "after-load" : "") +
                                      (info->barriers == (kernels::AFTER_LOAD | kernels::AFTER_COMPUTE) ? " and " : "") +
                                      std::string(info->barriers & kernels::AFTER_COMPUTE ? "after-compute" : "") + ".");
    }
    if (!q.expression.empty()) {
        if (q.expression.size() > 200)
            return bad("expression", "the expression is " + std::to_string(q.expression.size()) +
                                         " characters long; an index expression of a kernel is at most 200.");
        const std::string& source = kernelSource(findKernel(s.kernel)->sourceFile);
        Variables ones;
        for (const std::string& id : identifiers(q.expression)) {
            if (!containsWord(source, id))
                return bad("expression", "'" + id + "' in the expression is not a name in " +
                                             findKernel(s.kernel)->sourceFile + ".");
            ones[id] = 1;
        }
        if (Evaluation e = evaluate(q.expression, ones); !e.value && e.error.find("zero") == std::string::npos &&
                                                          e.error.find("too large") == std::string::npos)
            return bad("expression", e.error);
    }
    if (q.kind == QuestionKind::OccupancyBlocks || q.kind == QuestionKind::OccupancyLimiter) {
        const OccupancyAsk a = occupancyAsk(p, q, 0);
        const OccupancyProfile* prof = findOccupancyProfile(a.profile);
        if (!prof)
            return bad("profile", a.profile == "current"
                                      ? std::string("profile \"current\" needs the GPU of the machine; questions are "
                                                    "answered without one, so name a built-in profile.")
                                      : unknownProfileMessage(a.profile));
        if (std::string e = checkOccupancyInput(*prof, a.input); !e.empty()) {
            const char* k = q.blockThreads ? "block_threads" : q.regsPerThread ? "regs_per_thread"
                            : q.smemPerBlock ? "smem_per_block" : "kind";
            return bad(k, e);
        }
    }
    return {};
}

// ---------------------------------------------------------------------------------------
// Grading and text

Grade grade(const Question& q, const Answer& given)
{
    Grade g;
    switch (q.answer.shape) {
    case AnswerShape::Cells:
    case AnswerShape::Slot: {
        std::set<Cell> want(q.answer.cells.begin(), q.answer.cells.end());
        std::set<Cell> got(given.cells.begin(), given.cells.end());
        for (const Cell& c : got) (want.count(c) ? g.right : g.wrong).push_back(c);
        for (const Cell& c : want)
            if (!got.count(c)) g.missed.push_back(c);
        g.correct = g.wrong.empty() && g.missed.empty();
        break;
    }
    case AnswerShape::Number: g.correct = given.number == q.answer.number; break;
    case AnswerShape::Name: g.correct = given.name == q.answer.name; break;
    }
    return g;
}

std::string answerText(const Question& q)
{
    const Answer& a = q.answer;
    switch (q.spec.kind) {
    case QuestionKind::MdsLoads:
    case QuestionKind::NdsLoads:
    case QuestionKind::BlockTile:
    case QuestionKind::HaloCells:
    case QuestionKind::GhostCells: {
        if (a.cells.empty()) return "none";
        const std::string array = q.spec.kind == QuestionKind::MdsLoads ? "M"
                                  : q.spec.kind == QuestionKind::BlockTile && !q.spec.array.empty() ? q.spec.array
                                                                                                     : "N";
        // A whole rectangle of more than 8 cells as its ranges: M[16..31][16..31], 256 elements.
        const auto [rmin, rmax] = std::minmax_element(a.cells.begin(), a.cells.end(),
                                                      [](const Cell& x, const Cell& y) { return x.row < y.row; });
        const auto [cmin, cmax] = std::minmax_element(a.cells.begin(), a.cells.end(),
                                                      [](const Cell& x, const Cell& y) { return x.col < y.col; });
        const long long area = (rmax->row - rmin->row + 1LL) * (cmax->col - cmin->col + 1LL);
        if (a.cells.size() > 8 && area == static_cast<long long>(a.cells.size())) {
            const std::string cols = "[" + std::to_string(cmin->col) + ".." + std::to_string(cmax->col) + "]";
            return array + (a.oneD ? "" : "[" + std::to_string(rmin->row) + ".." + std::to_string(rmax->row) + "]") +
                   cols + ", " + std::to_string(a.cells.size()) + " elements";
        }
        std::vector<std::string> names;
        for (const Cell& c : a.cells) names.push_back(cellName(array, c, a.oneD));
        std::string out;
        for (size_t i = 0; i < names.size(); ++i) out += (i ? ", " : "") + names[i];
        return out;
    }
    case QuestionKind::NdsSlot:
        return a.cells.empty() ? "none" : a.oneD ? std::to_string(a.cells[0].col)
                                                 : "[" + std::to_string(a.cells[0].row) + ", " +
                                                       std::to_string(a.cells[0].col) + "]";
    case QuestionKind::ElementReaders: {
        if (a.cells.empty()) return "none";
        std::string out;
        for (size_t i = 0; i < a.cells.size(); ++i)
            out += (i ? ", " : "") + (a.oneD ? "tx=" + std::to_string(a.cells[i].col)
                                             : "(tx=" + std::to_string(a.cells[i].col) + ", ty=" +
                                                   std::to_string(a.cells[i].row) + ")");
        return out;
    }
    case QuestionKind::IndexValue:
    case QuestionKind::BlockGlobalLoads:
    case QuestionKind::OccupancyBlocks: return std::to_string(a.number);
    case QuestionKind::DroppedBarrierHazard:
    case QuestionKind::OccupancyLimiter: return a.name;
    }
    return {};
}

// ---------------------------------------------------------------------------------------
// The generator

namespace {

/// One write of a shared tile slot by a thread, and the global load it stored (-1: a zero
/// fill). Indices into the trace's events.
struct Fill {
    int event = -1;
    int load = -1;
};

/// A block's simulation, with its trace indexed for the questions.
struct BlockData {
    Simulation owned;
    const Simulation* sim = nullptr;
    std::vector<int> stepOf;                          ///< by event
    std::vector<std::vector<int>> byThread;           ///< events of each thread, in execution order
    std::vector<std::map<int, std::vector<Fill>>> fills;   ///< by thread, then shared array
    std::optional<ConvView> conv;

    const Trace& trace() const { return sim->trace; }
};

}  // namespace

struct QuestionGenerator::Impl {
    const Preset& preset;
    const Scenario& s;
    Runner run;
    const Simulation* traced;
    Shape shape;
    const KernelInfo* info;
    std::string source;
    std::map<std::pair<unsigned, unsigned>, std::unique_ptr<BlockData>> blocks;
    std::map<unsigned, std::array<uint64_t, 3>> hazards;   ///< barrier bit -> raw, war, waw

    Impl(const Preset& p, const Simulation* t, Runner r)
        : preset(p), s(p.scenario), run(std::move(r)), traced(t), shape(shapeOf(p.scenario)),
          info(findKernel(p.scenario.kernel)), source(info ? kernelSource(info->sourceFile) : std::string())
    {
        if (!run) run = [](const Scenario& sc, const SimOptions& o) { return simulate(sc, o); };
    }

    SimOptions options() const
    {
        SimOptions o;
        o.schedule = preset.schedule;
        o.scheduleSeed = preset.scheduleSeed;
        o.memoryModel = false;
        o.detectHazards = false;
        return o;
    }

    BlockData& block(const Uint3& b)
    {
        auto& slot = blocks[{b.x, b.y}];
        if (slot) return *slot;
        auto d = std::make_unique<BlockData>();
        if (traced && traced->trace.block.x == b.x && traced->trace.block.y == b.y && !traced->trace.steps.empty()) {
            d->sim = traced;
        } else {
            Scenario sc = s;
            sc.block = b;
            d->owned = run(sc, options());
            d->sim = &d->owned;
        }
        if (!d->sim->error.empty()) throw QuestionError(d->sim->error);
        const Trace& t = d->trace();
        d->stepOf.assign(t.events.size(), -1);
        for (size_t si = 0; si < t.steps.size(); ++si)
            for (int e = t.steps[si].begin; e < t.steps[si].end; ++e) d->stepOf[e] = static_cast<int>(si);
        const size_t threads = t.blockDim.count();
        d->byThread.assign(threads, {});
        d->fills.assign(threads, {});
        for (size_t e = 0; e < t.events.size(); ++e)
            if (t.events[e].thread != kNoThread && t.events[e].thread < threads)
                d->byThread[t.events[e].thread].push_back(static_cast<int>(e));
        for (size_t th = 0; th < threads; ++th) {
            std::vector<int>& ev = d->byThread[th];
            std::stable_sort(ev.begin(), ev.end(), [&](int a, int c) { return t.events[a].seq < t.events[c].seq; });
            for (size_t i = 0; i < ev.size(); ++i) {
                const Event& e = t.events[ev[i]];
                if (e.op != Op::SharedStore && e.op != Op::ZeroFill) continue;
                Fill f;
                f.event = ev[i];
                if (e.op == Op::SharedStore && i > 0 && t.events[ev[i - 1]].op == Op::GlobalLoad &&
                    t.events[ev[i - 1]].line == e.line)
                    f.load = ev[i - 1];
                d->fills[th][e.array].push_back(f);
            }
        }
        if (isConv(shape)) d->conv = convView(*d->sim);
        slot = std::move(d);
        return *slot;
    }

    int arrayId(const BlockData& d, const std::string& name) const { return d.sim->arrayIndex(name); }

    int linear(const BlockData& d, const Uint3& t) const
    {
        return static_cast<int>(t.y * d.trace().blockDim.x + t.x);
    }

    /// The thread's variables at a step (threadVariables: `ph` is the step's phase, which the
    /// trace counts from the tile fills when a barrier is dropped).
    Variables variablesAt(const BlockData& d, int thread, int step) const
    {
        return threadVariables(s, d.trace(), thread, step);
    }

    std::string line(unsigned n) const { return trim(sourceLine(source, n)); }

    /// Lines of the kernel's source file.
    unsigned lines() const { return static_cast<unsigned>(std::count(source.begin(), source.end(), '\n')) + 1; }

    /// "line 34, `Mds[ty][tx] = ...;`"
    std::string lineRef(unsigned n) const { return "line " + std::to_string(n) + ", `" + line(n) + "`"; }

    /// The name the source gives an array (the 2D mask in constant memory is Mc).
    std::string writtenName(const ArrayInfo& a) const
    {
        return familyOf(s) == Family::Conv2D && a.space == Space::Constant ? "Mc" : a.name;
    }

    /// "M[Row*k + ph*TILE_WIDTH + tx] = M[1*4 + 1*2 + 0] = M[6], that is M[1][2]" for the
    /// access of recorded event `ev` by `thread` at `step`; just the element when the line's
    /// expression cannot be matched to it.
    std::string describeAccess(const BlockData& d, int thread, int step, int ev) const
    {
        const Trace& t = d.trace();
        const Event& e = t.events[ev];
        const ArrayInfo& a = t.arrays[e.array];
        const bool flat2D = a.rows > 1 && a.space == Space::Global;
        const RowCol rc = a.rowCol(e.index);
        const Cell cell{rc.row, rc.col};
        const std::string plain = a.rows > 1 ? cellName(a.name, cell, false) : cellName(a.name, cell, true);
        const std::vector<AccessText> acc = findAccesses(sourceLine(source, e.line), {writtenName(a)});
        if (acc.empty()) return plain;
        const Variables vars = variablesAt(d, thread, step);
        std::string substituted = acc[0].array, evaluated = a.name;
        std::vector<long long> values;
        for (const std::string& sub : acc[0].subscripts) {
            substituted.append("[").append(substitute(sub, vars)).append("]");
            const Evaluation ev2 = evaluate(sub, vars);
            if (!ev2.value) return plain;
            values.push_back(*ev2.value);
            evaluated.append("[").append(std::to_string(*ev2.value)).append("]");
        }
        const long long flat = values.size() == 2 ? values[0] * a.cols + values[1] : values.at(0);
        if (flat != e.index) return plain;
        std::string out = acc[0].text();
        if (substituted != out) out += " = " + substituted;
        if (evaluated != substituted) out += " = " + evaluated;
        if (flat2D) out += ", that is " + cellName(a.name, cell, false);
        return out;
    }

    /// Why a zero fill at `zeroLine` stored 0: the boundary check on its own line (a ?:) or
    /// the nearest `if (` above, with the thread's numbers put in.
    std::string zeroFillReason(const Variables& vars, unsigned zeroLine) const
    {
        std::string text = sourceLine(source, zeroLine);
        if (size_t q = text.find('?'); q != std::string::npos) {
            const size_t eq = text.find(" = ");
            if (eq != std::string::npos && eq < q) {
                const std::string cond = trim(text.substr(eq + 3, q - eq - 3));
                return "its check `" + cond + "` reads `" + substitute(cond, vars) + "`";
            }
        }
        for (unsigned n = zeroLine; n > 0 && n + 8 > zeroLine; --n) {
            const std::string l = sourceLine(source, n);
            const size_t at = l.find("if (");
            if (at == std::string::npos) continue;
            size_t depth = 0, end = at + 3;
            for (; end < l.size(); ++end) {
                if (l[end] == '(') ++depth;
                else if (l[end] == ')' && --depth == 0) break;
            }
            const std::string cond = trim(l.substr(at + 4, end > at + 4 ? end - at - 4 : 0));
            return "the check on line " + std::to_string(n) + ", `" + cond + "`, reads `" + substitute(cond, vars) +
                   "` for it";
        }
        return "the element lies outside the input";
    }

    // --- answers, one per kind ---------------------------------------------------------

    /// The fills of `sharedName` by `thread` that belong to `phase` (matrix multiplication:
    /// the phase-th; convolution: all, in its single phase).
    std::vector<Fill> phaseFills(const BlockData& d, int thread, const std::string& sharedName, int phase) const
    {
        const int arr = arrayId(d, sharedName);
        auto it = d.fills[thread].find(arr);
        if (it == d.fills[thread].end()) return {};
        if (shape != Shape::TiledMatmul) return it->second;
        if (phase < static_cast<int>(it->second.size())) return {it->second[phase]};
        return {};
    }

    Cell cellOf(const BlockData& d, int ev) const
    {
        const Event& e = d.trace().events[ev];
        const RowCol rc = d.trace().arrays[e.array].rowCol(e.index);
        return Cell{rc.row, rc.col};
    }

    void loads(Question& q, bool mds)
    {
        BlockData& d = block(*q.spec.block);
        const int th = linear(d, *q.spec.thread);
        const int phase = q.spec.phase.value_or(0);
        q.spec.phase = phase;
        const std::string shared = mds ? "Mds" : sharedOfN(s), src = mds ? "M" : "N";
        const std::vector<Fill> fills = phaseFills(d, th, shared, phase);
        q.answer.shape = AnswerShape::Cells;
        q.answer.oneD = oneD(s);
        std::vector<std::string> parts;
        for (const Fill& f : fills) {
            const int step = d.stepOf[f.event];
            const unsigned ln = d.trace().events[f.event].line;
            if (f.load >= 0) {
                q.answer.cells.push_back(cellOf(d, f.load));
                parts.push_back(lineRef(ln) + ", reads " + describeAccess(d, th, step, f.load));
            } else {
                parts.push_back(lineRef(ln) + ", stores 0 instead, since " +
                                zeroFillReason(variablesAt(d, th, step), ln));
            }
            if (!q.line) q.line = ln;
        }
        std::sort(q.answer.cells.begin(), q.answer.cells.end());
        if (!fills.empty() && !q.spec.step) q.spec.step = d.stepOf[fills.front().event];
        const std::string who = threadName(s, *q.spec.thread) + " of " + blockName(s, *q.spec.block);
        if (isConv(shape))
            q.prompt = "Which elements of N does " + who + " load into N_ds (none if it stores only 0)?";
        else
            q.prompt = "Which element of " + src + " does " + who + " load into " + shared + " in phase " +
                       std::to_string(phase) + "?";
        q.explanation = fills.empty() ? "The thread writes no slot of " + shared + " in this phase."
                                      : capitalised(joinList(parts)) + ".";
    }

    void blockTile(Question& q)
    {
        BlockData& d = block(*q.spec.block);
        const int phase = q.spec.phase.value_or(0);
        q.spec.phase = phase;
        if (q.spec.array.empty()) q.spec.array = "N";
        const std::string shared = q.spec.array == "M" ? "Mds" : sharedOfN(s);
        std::set<Cell> cells;
        std::vector<unsigned> lines;
        int zeros = 0, firstStep = -1;
        for (size_t th = 0; th < d.byThread.size(); ++th)
            for (const Fill& f : phaseFills(d, static_cast<int>(th), shared, phase)) {
                if (f.load >= 0) cells.insert(cellOf(d, f.load));
                else ++zeros;
                const unsigned ln = d.trace().events[f.event].line;
                if (f.load >= 0 && std::find(lines.begin(), lines.end(), ln) == lines.end()) lines.push_back(ln);
                const int st = d.stepOf[f.event];
                if (firstStep < 0 || st < firstStep) firstStep = st;
            }
        std::sort(lines.begin(), lines.end());
        q.answer.shape = AnswerShape::Cells;
        q.answer.oneD = oneD(s);
        q.answer.cells.assign(cells.begin(), cells.end());
        if (!q.spec.step && firstStep >= 0) q.spec.step = firstStep;
        const bool conv = isConv(shape);
        q.prompt = "Which elements of " + q.spec.array + " does " + blockName(s, *q.spec.block) + " load into " +
                   shared + (conv ? "" : " in phase " + std::to_string(phase)) + "?";
        std::string what = cells.empty() ? "no element of " + q.spec.array
                                         : "the tile from " + cellName(q.spec.array, *cells.begin(), oneD(s)) + " to " +
                                               cellName(q.spec.array, *cells.rbegin(), oneD(s)) + ", " +
                                               std::to_string(cells.size()) +
                                               (cells.size() == 1 ? " element" : " elements");
        if (zeros)
            what += ", and " + std::to_string(zeros) + (zeros == 1 ? " slot" : " slots") + " past the edge of " +
                    q.spec.array + " get 0 instead";
        if (lines.empty()) {
            q.explanation = "No thread of the block loads an element of " + q.spec.array + " in this phase.";
            return;
        }
        q.line = lines.front();
        std::string others;
        if (lines.size() > 1) {
            std::vector<std::string> rest;
            for (size_t i = 1; i < lines.size(); ++i) rest.push_back(std::to_string(lines[i]));
            others = " with line" + std::string(rest.size() > 1 ? "s " : " ") + joinList(rest) + ",";
        }
        q.explanation = capitalised(lineRef(lines.front())) + "," + others + " run by the block's " +
                        std::to_string(d.byThread.size()) + " threads" +
                        (conv ? "" : " in phase " + std::to_string(phase)) + ", loads " + what + ".";
    }

    void ndsSlot(Question& q)
    {
        BlockData& d = block(*q.spec.block);
        const int th = linear(d, *q.spec.thread);
        const int phase = q.spec.phase.value_or(0);
        q.spec.phase = phase;
        const std::string shared = sharedOfN(s);
        std::vector<Fill> fills = phaseFills(d, th, shared, phase);
        const std::string who = threadName(s, *q.spec.thread) + " of " + blockName(s, *q.spec.block);
        auto positionOf = [&](const Fill& f) -> std::optional<Cell> {
            if (!d.conv) return std::nullopt;
            const int32_t idx = d.trace().events[f.event].index;
            for (const ConvSlot& sl : d.conv->slots)
                if (sl.slot == idx) return Cell{sl.row, sl.col};
            return std::nullopt;
        };
        if (q.spec.element) {
            std::vector<Fill> kept;
            for (const Fill& f : fills)
                if (positionOf(f) == q.spec.element) kept.push_back(f);
            if (kept.empty()) {
                std::vector<std::string> held;
                for (const Fill& f : fills)
                    if (auto c = positionOf(f)) held.push_back(cellName("N", *c, oneD(s)));
                throw QuestionError(capitalised(who) + " does not write " + cellName("N", *q.spec.element, oneD(s)) +
                                    " into N_ds; it writes " + (held.empty() ? "nothing" : joinList(held)) + ".");
            }
            fills = kept;
        }
        if (fills.empty()) throw QuestionError(capitalised(who) + " writes no slot of " + shared + ".");
        if (fills.size() > 1) {
            std::vector<std::string> held;
            for (const Fill& f : fills)
                if (auto c = positionOf(f)) held.push_back(cellName("N", *c, oneD(s)));
            throw QuestionError(capitalised(who) + " writes " + std::to_string(fills.size()) + " slots of " + shared +
                                " (for " + joinList(held) + "); name one of them with element.");
        }
        const Fill f = fills.front();
        if (isConv(shape) && !q.spec.element) q.spec.element = positionOf(f);
        const Event& e = d.trace().events[f.event];
        const ArrayInfo& a = d.trace().arrays[e.array];
        q.answer.shape = AnswerShape::Slot;
        q.answer.oneD = a.rows == 1;
        q.answer.cells = {Cell{e.index / a.cols, e.index % a.cols}};
        const int step = d.stepOf[f.event];
        if (!q.spec.step) q.spec.step = step;
        q.line = e.line;
        const std::string slotWord = a.rows == 1 ? "index" : "slot [row, col]";
        if (isConv(shape))
            q.prompt = "Which " + slotWord + " of " + shared + " does " + who + " write " +
                       cellName("N", *q.spec.element, oneD(s)) + " into?";
        else
            q.prompt = "Which " + slotWord + " of " + shared + " does " + who + " write in phase " +
                       std::to_string(phase) + "?";
        q.explanation = capitalised(lineRef(e.line)) + ", writes " + describeAccess(d, th, step, f.event) + ".";
    }

    /// Checks an index expression against the thread's recorded access at the step where it
    /// is a whole subscript of that access; returns false on a mismatch.
    bool agreesWithTrace(const BlockData& d, int th, int step, const std::string& expr, long long value) const
    {
        const Trace& t = d.trace();
        const std::string want = squeezed(expr);
        for (int ev : d.byThread[th]) {
            if (d.stepOf[ev] != step) continue;
            const Event& e = t.events[ev];
            if (e.array == kNoArray) continue;
            const ArrayInfo& a = t.arrays[e.array];
            const std::vector<AccessText> acc = findAccesses(sourceLine(source, e.line), {writtenName(a)});
            if (acc.size() != 1) continue;
            const auto& subs = acc[0].subscripts;
            for (size_t i = 0; i < subs.size(); ++i) {
                if (squeezed(subs[i]) != want) continue;
                const long long recorded = subs.size() == 2 ? (i == 0 ? e.index / a.cols : e.index % a.cols) : e.index;
                if (recorded != value) return false;
            }
        }
        return true;
    }

    void indexValue(Question& q)
    {
        BlockData& d = block(*q.spec.block);
        const int th = linear(d, *q.spec.thread);
        const int step = *q.spec.step;
        const Trace& t = d.trace();
        const std::string who = threadName(s, *q.spec.thread) + " of " + blockName(s, *q.spec.block);
        if (step >= static_cast<int>(t.steps.size()))
            throw QuestionError("step " + std::to_string(step) + " is past the last step of " +
                                blockName(s, *q.spec.block) + "'s trace, " + std::to_string(t.steps.size() - 1) + ".");
        const Variables vars = variablesAt(d, th, step);
        const Evaluation ev = evaluate(q.spec.expression, vars);
        if (!ev.value)
            throw QuestionError("\"" + q.spec.expression + "\" has no value for " + who + " at step " +
                                std::to_string(step) + ": " + ev.error);
        if (!agreesWithTrace(d, th, step, q.spec.expression, *ev.value))
            throw QuestionError("\"" + q.spec.expression + "\" disagrees with the index the simulator recorded for " +
                                who + " at step " + std::to_string(step) + ".");
        q.answer.shape = AnswerShape::Number;
        q.answer.number = *ev.value;
        // The line: the thread's own line at this step if the expression is written there,
        // else the first line of the kernel that writes it, else its definition (int X = ...).
        const std::string want = squeezed(q.spec.expression);
        unsigned ln = 0;
        for (int e : d.byThread[th])
            if (d.stepOf[e] == step && squeezed(sourceLine(source, t.events[e].line)).find(want) != std::string::npos) {
                ln = t.events[e].line;
                break;
            }
        std::string shown = q.spec.expression, substituted = substitute(q.spec.expression, vars);
        const bool bare = identifiers(q.spec.expression).size() == 1 && squeezed(q.spec.expression) ==
                                                                            identifiers(q.spec.expression)[0];
        std::string idsFrom = q.spec.expression;   // the names whose values the explanation gives
        if (bare) {
            // A named variable: its definition shows how it is computed.
            const std::string def = "int " + q.spec.expression + " =";
            for (unsigned n = 1; n <= lines(); ++n) {
                const std::string l = sourceLine(source, n);
                if (const size_t at = l.find(def); at != std::string::npos) {
                    ln = n;
                    std::string rhs = trim(l.substr(at + def.size()));
                    if (!rhs.empty() && rhs.back() == ';') rhs.pop_back();
                    shown = q.spec.expression + " = " + rhs;
                    // CUDA's built-ins as the variables they stand for (x.blockIdx.x is bx, ...).
                    const Dim3 bd = t.blockDim;
                    for (auto [from, to] : {std::pair<std::string, std::string>{"x.blockIdx.x", "bx"},
                                            {"x.blockIdx.y", "by"}, {"x.threadIdx.x", "tx"}, {"x.threadIdx.y", "ty"},
                                            {"x.blockDim.x", std::to_string(bd.x)}, {"x.blockDim.y", std::to_string(bd.y)}})
                        for (size_t p = rhs.find(from); p != std::string::npos; p = rhs.find(from, p + to.size()))
                            rhs.replace(p, from.size(), to);
                    idsFrom = rhs;
                    substituted = substitute(rhs, vars);
                    if (evaluate(rhs, vars).value != ev.value) substituted.clear();   // not a plain sum: say the value only
                    break;
                }
            }
        }
        if (!ln)
            for (unsigned n = 1; n <= lines(); ++n)
                if (squeezed(sourceLine(source, n)).find(want) != std::string::npos) {
                    ln = n;
                    break;
                }
        if (!ln && step < static_cast<int>(t.steps.size())) ln = t.steps[step].line;
        q.line = ln;
        std::vector<std::string> given;
        for (const std::string& id : identifiers(idsFrom))
            if (id != q.spec.expression || !bare)
                if (auto it = vars.find(id); it != vars.end()) given.push_back(id + " = " + std::to_string(it->second));
        const std::string& label = t.steps[step].label;
        q.prompt = "What is " + q.spec.expression + " for " + who + " at step " + std::to_string(step) + " (" + label +
                   ")?";
        q.explanation = capitalised(lineRef(ln)) + ": " + (given.empty() ? "" : "with " + joinList(given) + ", ") +
                        shown + " gives " + (substituted.empty() ? "" : substituted + " = ") +
                        std::to_string(*ev.value) + ".";
    }

    void elementReaders(Question& q)
    {
        BlockData& d = block(*q.spec.block);
        const ConvView& v = *d.conv;
        const Cell el = *q.spec.element;
        const std::string name = cellName("N", el, oneD(s));
        const ConvUse* u = v.use(el.row, el.col);
        const unsigned bdx = d.trace().blockDim.x;
        q.answer.shape = AnswerShape::Cells;
        q.answer.oneD = oneD(s);
        if (u)
            for (uint16_t t : u->threads) q.answer.cells.push_back(Cell{static_cast<int>(t / bdx), static_cast<int>(t % bdx)});
        std::sort(q.answer.cells.begin(), q.answer.cells.end());
        q.prompt = "Which threads of " + blockName(s, *q.spec.block) + " use " + name + " in their multiply-adds?";
        // The line that reads it: a read of its N_ds slot, or of N itself in a multiply-add.
        const ConvSlot* slot = v.slotFor(el.row, el.col);
        const int nArr = arrayId(d, "N");
        const int flat = el.row * s.width + el.col;
        const Trace& t = d.trace();
        int first = -1;
        for (const Step& st : t.steps) {
            if (st.kind != StepKind::Use) continue;
            for (int e = st.begin; e < st.end && first < 0; ++e) {
                const Event& x = t.events[e];
                if ((slot && x.op == Op::SharedLoad && static_cast<int>(x.array) == v.ndsArray && x.index == slot->slot) ||
                    (x.op == Op::GlobalLoad && static_cast<int>(x.array) == nArr && x.index == flat))
                    first = e;
            }
            if (first >= 0) break;
        }
        if (first < 0) {
            for (const Step& st : t.steps)
                if (st.kind == StepKind::Use) {
                    q.line = st.line;
                    break;
                }
            q.explanation = capitalised(q.line ? lineRef(q.line) + ", the multiply-add," : std::string("the multiply-add")) +
                            " never reads " + name + " in this block: " + (u ? useSentence(v, *u) : name +
                            " lies outside the block's input tile") + ".";
            return;
        }
        const Event& x = t.events[first];
        q.line = x.line;
        if (!q.spec.step) q.spec.step = d.stepOf[first];
        const std::string from = x.op == Op::SharedLoad
                                     ? " from " + cellName("N_ds", Cell{x.index / t.arrays[x.array].cols,
                                                                        x.index % t.arrays[x.array].cols},
                                                           t.arrays[x.array].rows == 1)
                                     : " from global memory";
        // The threads as the answer names them (tx, or tx and ty, in the block), and in 1D
        // the outputs they compute, P[bx*TILE_SIZE + tx] (the textbook's i).
        std::string who = name + (u->threads.size() == 1 ? " is used by thread " : " is used by threads ") +
                          answerText(q) + " (" + std::to_string(u->threads.size()) + "X)";
        if (oneD(s)) {
            const int first = v.geo.outCol0 + q.answer.cells.front().col, last = v.geo.outCol0 + q.answer.cells.back().col;
            const bool contiguous = last - first + 1 == static_cast<int>(q.answer.cells.size());
            if (first == last) who += ", which computes P[" + std::to_string(first) + "]";
            else if (contiguous)
                who += ", which compute P[" + std::to_string(first) + "] to P[" + std::to_string(last) + "]";
        }
        q.explanation = capitalised(lineRef(x.line)) + ", reads " + name + from +
                        " in the multiply-adds of these threads: " + who + ".";
    }

    void haloOrGhost(Question& q, bool halo)
    {
        BlockData& d = block(*q.spec.block);
        const ConvView& v = *d.conv;
        const ConvGeometry& g = v.geo;
        q.answer.shape = AnswerShape::Cells;
        q.answer.oneD = oneD(s);
        for (int r = g.inRow0; r < g.inRow0 + g.inRows; ++r)
            for (int c = g.inCol0; c < g.inCol0 + g.inCols; ++c)
                if (g.role(r, c) == (halo ? ConvRole::Halo : ConvRole::Ghost)) q.answer.cells.push_back(Cell{r, c});
        // The line that handles them: the load (halo) or zero fill (ghost) of such a slot,
        // a global read of a halo cell, or the boundary check that skips ghost cells.
        const Trace& t = d.trace();
        const int nArr = arrayId(d, "N");
        int first = -1;
        for (size_t e = 0; e < t.events.size() && first < 0; ++e) {
            const Event& x = t.events[e];
            if (x.array == kNoArray) continue;
            if (static_cast<int>(x.array) == v.ndsArray && (x.op == Op::SharedStore || x.op == Op::ZeroFill)) {
                for (const ConvSlot& sl : v.slots)
                    if (sl.slot == x.index && sl.role == (halo ? ConvRole::Halo : ConvRole::Ghost)) first = static_cast<int>(e);
            } else if (halo && static_cast<int>(x.array) == nArr && x.op == Op::GlobalLoad) {
                const int row = g.twoD ? x.index / g.width : 0, col = g.twoD ? x.index % g.width : x.index;
                if (g.role(row, col) == ConvRole::Halo) first = static_cast<int>(e);
            }
        }
        unsigned ln = first >= 0 ? t.events[first].line : 0;
        if (!ln && !halo) {
            // Basic kernels skip ghost cells: the check that does it.
            for (unsigned n = 1; n <= lines() && !ln; ++n)
                if (const std::string l = sourceLine(source, n); l.find("if (") != std::string::npos && l.find(">= 0") != std::string::npos)
                    ln = n;
        }
        q.line = ln;
        if (first >= 0 && !q.spec.step) q.spec.step = d.stepOf[first];
        const std::string outTile = g.twoD ? "rows " + std::to_string(g.outRow0) + "-" +
                                                 std::to_string(g.outRow0 + g.outRows - 1) + ", columns " +
                                                 std::to_string(g.outCol0) + "-" + std::to_string(g.outCol0 + g.outCols - 1)
                                           : "N[" + std::to_string(g.outCol0) + "] to N[" +
                                                 std::to_string(g.outCol0 + g.outCols - 1) + "]";
        const std::string reach = "the positions within Mask_Width/2 = " + std::to_string(g.n) +
                                  " of the output tile (" + outTile + ") that lie ";
        q.prompt = halo ? "Which input cells are halo cells of " + blockName(s, *q.spec.block) +
                              " (inside N, reached by its mask, outside its output tile)?"
                        : "Which input cells are ghost cells of " + blockName(s, *q.spec.block) +
                              " (reached by its mask but outside N)?";
        const std::string where = ln ? capitalised(lineRef(ln)) + ", " : std::string("The kernel ");
        if (halo)
            q.explanation = where + (first >= 0 && t.events[first].op == Op::GlobalLoad && t.steps[d.stepOf[first]].kind != StepKind::LoadTile
                                         ? "reads the halo from global memory: "
                                         : "loads the halo: ") +
                            reach + "outside it but inside N" + (q.answer.cells.empty() ? " (none here)" : "") + ".";
        else
            q.explanation = where + (first < 0 && (shape == Shape::ConvBasic || info->haloFromGlobal)
                                         ? "skips the ghost cells: "
                                         : "stores 0 for the ghost cells: ") +
                            reach + "outside N (" + (g.twoD ? "N is " + std::to_string(g.height) + " x " +
                                                                  std::to_string(g.width)
                                                            : "Width = " + std::to_string(g.width)) + ")" +
                            (q.answer.cells.empty() ? "; none here" : "") + ".";
    }

    void droppedBarrier(Question& q)
    {
        const unsigned bit = q.spec.barrier;
        auto it = hazards.find(bit);
        if (it == hazards.end()) {
            Scenario sc = s;
            sc.dropBarriers = bit;
            SimOptions o = options();
            o.trace = false;
            o.detectHazards = true;
            const Simulation r = run(sc, o);
            if (!r.error.empty()) throw QuestionError(r.error);
            it = hazards.emplace(bit, std::array<uint64_t, 3>{r.hazards.raw, r.hazards.war, r.hazards.waw}).first;
        }
        const auto [raw, war, waw] = it->second;
        (void)waw;
        q.answer.shape = AnswerShape::Name;
        q.answer.name = raw == 0 && war == 0 ? "none" : raw >= war ? "raw" : "war";
        const std::string macro = "syncthreads(" + barrierMacro(bit) + ")";
        for (unsigned n = 1; n <= lines(); ++n)
            if (sourceLine(source, n).find(macro) != std::string::npos) {
                q.line = n;
                break;
            }
        const std::string which = bit == kernels::AFTER_LOAD ? "the barrier after the load" : "the barrier after the use";
        q.prompt = "If " + which + (q.line ? " (line " + std::to_string(q.line) + ")" : std::string()) +
                   " is dropped, which hazard does the hazard detector report: raw, war or none?";
        std::string found;
        if (q.answer.name == "none")
            found = "finds no hazard: no two threads touch one shared slot without another barrier between them in "
                    "this problem";
        else
            found = "finds " + std::to_string(raw) + " read-after-write and " + std::to_string(war) +
                    " write-after-read pairs of accesses" +
                    (q.answer.name == "raw" ? " (threads read tile slots before their owners have written them)"
                                            : " (the next phase's loads overwrite slots that other threads still read)");
        q.explanation = (q.line ? capitalised(lineRef(q.line)) + ", dropped: the hazard detector "
                                : std::string("With the barrier dropped the hazard detector ")) + found + ".";
    }

    void blockGlobalLoads(Question& q)
    {
        BlockData& d = block(*q.spec.block);
        const Simulation& r = *d.sim;
        const size_t b = static_cast<size_t>(q.spec.block->y) * r.grid.x + q.spec.block->x;
        q.answer.shape = AnswerShape::Number;
        q.answer.number = static_cast<long long>(r.counters.perBlock.at(b).global_loads);
        std::map<unsigned, uint64_t> byLine;
        for (const Event& e : d.trace().events)
            if (e.op == Op::GlobalLoad) ++byLine[e.line];
        q.prompt = "How many elements does " + blockName(s, *q.spec.block) + " load from global memory?";
        if (!q.spec.step && !d.trace().steps.empty()) q.spec.step = static_cast<int>(d.trace().steps.size()) - 1;
        if (byLine.empty()) {
            q.explanation = "The block's threads read nothing from global memory.";
            return;
        }
        q.line = byLine.begin()->first;
        std::vector<std::string> parts;
        for (auto [ln, n] : byLine)
            parts.push_back(parts.empty() ? lineRef(ln) + ", makes " + std::to_string(n) + " of them"
                                          : "line " + std::to_string(ln) + " " + std::to_string(n));
        q.explanation = "The simulator counts " + std::to_string(q.answer.number) + " for the block: " +
                        joinList(parts) + ".";
    }

    int kernelSharedBytes()
    {
        const BlockData& d = block(s.block);
        int bytes = 0;
        for (const ArrayInfo& a : d.sim->arrays)
            if (a.space == Space::Shared) bytes += a.size() * 4;
        return bytes;
    }

    void occupancy(Question& q, bool limiter)
    {
        const OccupancyAsk a = occupancyAsk(preset, q.spec, kernelSharedBytes());
        const OccupancyProfile* prof = findOccupancyProfile(a.profile);
        if (!prof) throw QuestionError(unknownProfileMessage(a.profile));
        if (std::string e = checkOccupancyInput(*prof, a.input); !e.empty()) throw QuestionError(e);
        const Occupancy o = computeOccupancy(*prof, a.input);
        if (o.blocksPerSm == 0) throw QuestionError(o.why);
        q.spec.profile = a.profile;
        q.spec.blockThreads = a.input.blockThreads;
        q.spec.regsPerThread = a.input.regsPerThread;
        q.spec.smemPerBlock = a.input.smemPerBlock;
        q.answer.shape = limiter ? AnswerShape::Name : AnswerShape::Number;
        if (limiter) q.answer.name = limiterName(o.limiter);
        else q.answer.number = o.blocksPerSm;
        const std::string block = "blocks of " + std::to_string(a.input.blockThreads) + " threads with " +
                                  (a.input.regsPerThread ? std::to_string(a.input.regsPerThread) + " registers per thread"
                                                         : std::string("registers not counted")) +
                                  " and " + std::to_string(a.input.smemPerBlock) + " bytes of shared memory";
        q.prompt = limiter ? "On the " + a.profile + " SM, which resource limits the " + block +
                                 ": registers, shared_memory, threads or blocks?"
                           : "On the " + a.profile + " SM, how many " + block + " run at once?";
        // The kernel's shared memory is declared on its first TS_SHARED line.
        for (unsigned n = 1; n <= lines(); ++n)
            if (sourceLine(source, n).find("TS_SHARED") != std::string::npos) {
                q.line = n;
                break;
            }
        auto lim = [](const std::optional<int>& v) { return v ? std::to_string(*v) : std::string("no limit"); };
        q.explanation = "On the " + a.profile + " SM the registers allow " + lim(o.limits.registers) +
                        " blocks, shared memory " + lim(o.limits.sharedMemory) +
                        (q.line && a.input.smemPerBlock ? " (declared on " + lineRef(q.line) + ")" : std::string()) +
                        ", the thread slots " + std::to_string(o.limits.threads) + " and the block slots " +
                        std::to_string(o.limits.blocks) + ", so " + std::to_string(o.blocksPerSm) +
                        " blocks fit, limited by " + limiterName(o.limiter) + ".";
    }

    Question answer(const QuestionSpec& spec)
    {
        std::string key;
        if (std::string e = checkQuestion(preset, spec, &key); !e.empty()) throw QuestionError(e);
        Question q;
        q.spec = spec;
        switch (spec.kind) {
        case QuestionKind::MdsLoads: loads(q, true); break;
        case QuestionKind::NdsLoads: loads(q, false); break;
        case QuestionKind::BlockTile: blockTile(q); break;
        case QuestionKind::NdsSlot: ndsSlot(q); break;
        case QuestionKind::IndexValue: indexValue(q); break;
        case QuestionKind::ElementReaders: elementReaders(q); break;
        case QuestionKind::HaloCells: haloOrGhost(q, true); break;
        case QuestionKind::GhostCells: haloOrGhost(q, false); break;
        case QuestionKind::DroppedBarrierHazard: droppedBarrier(q); break;
        case QuestionKind::BlockGlobalLoads: blockGlobalLoads(q); break;
        case QuestionKind::OccupancyBlocks: occupancy(q, false); break;
        case QuestionKind::OccupancyLimiter: occupancy(q, true); break;
        }
        q.lineText = q.line ? line(q.line) : std::string();
        return q;
    }

    // --- choosing targets ----------------------------------------------------------------

    /// Candidate index expressions on a source line: the subscripts of its array accesses,
    /// the parenthesised parts and trailing sums inside them, and the named variables it
    /// uses; without the trivial ones (tx, a constant, a number).
    std::vector<std::string> expressionsOn(const BlockData& d, unsigned ln) const
    {
        const std::string text = sourceLine(source, ln);
        std::vector<std::string> names;
        for (const ArrayInfo& a : d.trace().arrays) names.push_back(writtenName(a));
        std::vector<std::string> out;
        auto add = [&](std::string e) {
            e = trim(e);
            if (e.empty()) return;
            if (std::find(out.begin(), out.end(), e) == out.end()) out.push_back(e);
        };
        for (const AccessText& acc : findAccesses(text, names))
            for (const std::string& sub : acc.subscripts) {
                add(sub);
                // Parenthesised parts and top-level terms.
                std::vector<std::string> terms;
                int depth = 0;
                size_t start = 0;
                for (size_t i = 0; i < sub.size(); ++i) {
                    if (sub[i] == '(') {
                        if (depth++ == 0) {
                            size_t j = i + 1;
                            int dd = 1;
                            for (; j < sub.size() && dd; ++j) dd += sub[j] == '(' ? 1 : sub[j] == ')' ? -1 : 0;
                            add(sub.substr(i + 1, j - i - 2));
                        }
                    } else if (sub[i] == ')') {
                        --depth;
                    } else if (sub[i] == '+' && depth == 0) {
                        terms.push_back(sub.substr(start, i - start));
                        start = i + 1;
                    }
                }
                terms.push_back(sub.substr(start));
                for (size_t from = 1; terms.size() >= 3 && from + 2 <= terms.size(); ++from) {
                    std::string tail;
                    for (size_t i = from; i < terms.size(); ++i) tail += (i > from ? " + " : "") + trim(terms[i]);
                    add(tail);
                }
            }
        for (const std::string& id : identifiers(text))
            if (std::find(names.begin(), names.end(), id) == names.end()) add(id);
        // Alone, these say nothing worth asking: the thread's and block's own indices, the
        // sizes, the loop counters (conv1d's i is the output index, which is worth asking).
        std::set<std::string> trivial = {"tx", "ty", "bx", "by", "ph", "k", "l", "n", "j", "TILE_WIDTH",
                                         "TILE_SIZE", "Mask_Width", "MAX_MASK_WIDTH", "Width", "width",
                                         "height", "Pvalue", "output"};
        if (familyOf(s) != Family::Conv1D) trivial.insert("i");
        std::vector<std::string> kept;
        for (const std::string& e : out) {
            const std::vector<std::string> ids = identifiers(e);
            if (ids.empty()) continue;   // a number
            if (ids.size() == 1 && squeezed(e) == ids[0] && trivial.count(ids[0])) continue;
            kept.push_back(e);
        }
        return kept;
    }

    /// The blocks generated questions ask about: the preset's own block first, then up to
    /// three others of the grid, chosen with the seed (each is simulated once).
    std::vector<Uint3> blockPool(SplitMix64& rng) const
    {
        const LaunchShape ls = launchShape(s);
        std::vector<Uint3> pool{Uint3{s.block.x, s.block.y, 0}};
        const uint64_t total = ls.grid.count();
        for (int tries = 0; pool.size() < std::min<uint64_t>(4, total) && tries < 64; ++tries) {
            const uint64_t b = rng.below(total);
            const Uint3 u{static_cast<unsigned>(b % ls.grid.x), static_cast<unsigned>(b / ls.grid.x), 0};
            if (std::none_of(pool.begin(), pool.end(), [&](const Uint3& o) { return o.x == u.x && o.y == u.y; }))
                pool.push_back(u);
        }
        return pool;
    }

    /// A target for `kind`, chosen with `rng`; none when the choice has nothing to ask.
    std::optional<QuestionSpec> pick(QuestionKind kind, SplitMix64& rng, const std::vector<Uint3>& pool)
    {
        QuestionSpec q;
        q.kind = kind;
        const LaunchShape ls = launchShape(s);
        const Uint3 b = pool[rng.below(pool.size())];
        const Uint3 t{static_cast<unsigned>(rng.below(ls.block.x)), static_cast<unsigned>(rng.below(ls.block.y)), 0};
        const int phases = std::max(1, questionPhases(s));
        switch (kind) {
        case QuestionKind::MdsLoads:
        case QuestionKind::NdsLoads:
            q.block = b;
            q.thread = t;
            q.phase = static_cast<int>(rng.below(phases));
            if (isConv(shape)) {
                // Prefer threads that load something.
                BlockData& d = block(b);
                const std::vector<Fill> f = phaseFills(d, linear(d, t), sharedOfN(s), 0);
                if (std::none_of(f.begin(), f.end(), [](const Fill& x) { return x.load >= 0; }) && rng.below(4) != 0)
                    return std::nullopt;
            }
            return q;
        case QuestionKind::BlockTile:
            q.block = b;
            q.phase = static_cast<int>(rng.below(phases));
            q.array = familyOf(s) == Family::Matmul && rng.below(2) == 0 ? "M" : "N";
            return q;
        case QuestionKind::NdsSlot: {
            q.block = b;
            q.thread = t;
            q.phase = static_cast<int>(rng.below(phases));
            if (isConv(shape)) {
                BlockData& d = block(b);
                const std::vector<Fill> f = phaseFills(d, linear(d, t), sharedOfN(s), 0);
                if (f.empty()) return std::nullopt;
                const Fill& one = f[rng.below(f.size())];
                for (const ConvSlot& sl : d.conv->slots)
                    if (sl.slot == d.trace().events[one.event].index) q.element = Cell{sl.row, sl.col};
                if (!q.element) return std::nullopt;
            }
            return q;
        }
        case QuestionKind::IndexValue: {
            BlockData& d = block(b);
            const int th = linear(d, t);
            std::vector<std::pair<int, unsigned>> steps;   // step, the thread's line there
            for (int e : d.byThread[th]) {
                const int st = d.stepOf[e];
                const StepKind k = d.trace().steps[st].kind;
                if (k != StepKind::LoadTile && k != StepKind::Use && k != StepKind::Store) continue;
                if (steps.empty() || steps.back().first != st) steps.emplace_back(st, d.trace().events[e].line);
            }
            if (steps.empty()) return std::nullopt;
            const auto [st, ln] = steps[rng.below(steps.size())];
            const std::vector<std::string> exprs = expressionsOn(d, ln);
            if (exprs.empty()) return std::nullopt;
            q.block = b;
            q.thread = t;
            q.step = st;
            q.expression = exprs[rng.below(exprs.size())];
            return q;
        }
        case QuestionKind::ElementReaders: {
            q.block = b;
            const ConvGeometry g = convGeometry(s, b);
            // An element of the block's input tile inside N, sometimes one just outside it.
            const int r = g.twoD ? g.inRow0 - 1 + static_cast<int>(rng.below(g.inRows + 2)) : 0;
            const int c = g.inCol0 - 1 + static_cast<int>(rng.below(g.inCols + 2));
            if (!g.insideN(r, c)) return std::nullopt;
            q.element = Cell{r, c};
            return q;
        }
        case QuestionKind::HaloCells:
        case QuestionKind::GhostCells:
        case QuestionKind::BlockGlobalLoads: q.block = b; return q;
        case QuestionKind::DroppedBarrierHazard: {
            std::vector<unsigned> bits;
            for (unsigned bit : {unsigned(kernels::AFTER_LOAD), unsigned(kernels::AFTER_COMPUTE)})
                if (info->barriers & bit) bits.push_back(bit);
            q.barrier = bits[rng.below(bits.size())];
            return q;
        }
        case QuestionKind::OccupancyBlocks:
        case QuestionKind::OccupancyLimiter: {
            // Registers per thread around the PMPP sec. 4.7 example; the rest from the
            // scenario's [occupancy] table or the kernel.
            static constexpr int kRegs[] = {8, 10, 11, 12, 13, 16, 20, 24, 32, 40};
            q.regsPerThread = kRegs[rng.below(std::size(kRegs))];
            return q;
        }
        }
        return std::nullopt;
    }
};

QuestionGenerator::QuestionGenerator(Preset p, const Simulation* traced, Runner run)
    : preset_(std::move(p)), impl_(std::make_unique<Impl>(preset_, traced, std::move(run)))
{
}

QuestionGenerator::~QuestionGenerator() = default;

Question QuestionGenerator::answer(const QuestionSpec& q) { return impl_->answer(q); }

std::vector<Question> QuestionGenerator::generate(const QuestionRequest& r)
{
    std::vector<Question> out;
    problems_.clear();
    std::vector<QuestionKind> kinds = r.kinds;
    if (kinds.empty())
        for (QuestionKind k : applicableQuestionKinds(preset_.scenario))
            // Occupancy by default only where the scenario sets an occupancy question.
            if (preset_.occupancy || (k != QuestionKind::OccupancyBlocks && k != QuestionKind::OccupancyLimiter))
                kinds.push_back(k);
    auto wanted = [&](QuestionKind k) { return std::find(kinds.begin(), kinds.end(), k) != kinds.end(); };
    if (r.fixedQuestions)
        for (const QuestionSpec& spec : preset_.questions) {
            if (static_cast<int>(out.size()) >= r.count) break;
            if (!r.kinds.empty() && !wanted(spec.kind)) continue;
            try {
                Question q = impl_->answer(spec);
                q.fixed = true;
                out.push_back(std::move(q));
            } catch (const QuestionError& e) {
                problems_.push_back({spec.line, preset_.file + ", line " + std::to_string(spec.line) + ": " +
                                                    oneLine(e.what())});
            }
        }
    SplitMix64 rng{r.seed};
    SplitMix64 blockRng{r.seed ^ 0x5DEECE66Dull};
    const std::vector<Uint3> pool = impl_->blockPool(blockRng);
    std::vector<QuestionKind> order;
    for (QuestionKind k : kinds)
        if (questionKindApplies(preset_.scenario, k)) order.push_back(k);
    std::map<QuestionKind, int> misses;   // consecutive choices of a kind that gave nothing new
    size_t next = 0;
    int wanted_ = r.count - static_cast<int>(out.size());
    while (wanted_ > 0 && !order.empty()) {
        if (next % order.size() == 0) rng.shuffle(order);
        const QuestionKind kind = order[next++ % order.size()];
        bool added = false;
        if (std::optional<QuestionSpec> spec = impl_->pick(kind, rng, pool)) {
            const bool seen = std::any_of(out.begin(), out.end(), [&](const Question& q) { return sameTarget(q.spec, *spec); });
            if (!seen) {
                try {
                    out.push_back(impl_->answer(*spec));
                    added = true;
                    --wanted_;
                } catch (const QuestionError&) {
                }
            }
        }
        if (added) {
            misses[kind] = 0;
        } else if (++misses[kind] >= 40) {
            // This kind has nothing new to ask on these blocks.
            order.erase(std::find(order.begin(), order.end(), kind));
            next = 0;
        }
    }
    return out;
}

std::vector<Question> QuestionGenerator::forStep(int step, uint64_t seed, int count,
                                                 const std::vector<QuestionKind>& otherBlocks)
{
    std::vector<Question> out;
    const Uint3 b{preset_.scenario.block.x, preset_.scenario.block.y, 0};
    auto ours = [&](const QuestionSpec& q) { return !q.block || (q.block->x == b.x && q.block->y == b.y); };
    auto otherOk = [&](QuestionKind k) {
        return std::find(otherBlocks.begin(), otherBlocks.end(), k) != otherBlocks.end() && questionKindApplies(preset_.scenario, k);
    };
    // The fixed questions about the traced block first, then those about another block.
    std::vector<const QuestionSpec*> fixed;
    for (bool mine : {true, false})
        for (const QuestionSpec& spec : preset_.questions)
            if (ours(spec) == mine && (mine || otherOk(spec.kind))) fixed.push_back(&spec);
    for (const QuestionSpec* fx : fixed) {
        const QuestionSpec& spec = *fx;
        if (static_cast<int>(out.size()) >= count) break;
        try {
            Question q = impl_->answer(spec);
            if (q.spec.step != step) continue;
            q.fixed = true;
            out.push_back(std::move(q));
        } catch (const QuestionError& e) {
            problems_.push_back({spec.line, preset_.file + ", line " + std::to_string(spec.line) + ": " +
                                                oneLine(e.what())});
        }
    }
    // Candidates this step reveals: for every thread active in it, the kinds that ask
    // about the step's work.
    BlockData& d = impl_->block(b);
    const Trace& t = d.trace();
    if (step < 0 || step >= static_cast<int>(t.steps.size())) return out;
    const Step& st = t.steps[step];
    std::vector<QuestionSpec> candidates;
    const Scenario& s = preset_.scenario;
    auto applies = [&](QuestionKind k) { return questionKindApplies(s, k); };
    std::set<int> threads;
    for (int e = st.begin; e < st.end; ++e)
        if (t.events[e].thread != kNoThread) threads.insert(t.events[e].thread);
    for (int th : threads) {
        const Uint3 tu{th % t.blockDim.x, th / t.blockDim.x, 0};
        if (st.kind == StepKind::LoadTile) {
            for (QuestionKind k : {QuestionKind::MdsLoads, QuestionKind::NdsLoads, QuestionKind::NdsSlot}) {
                if (!applies(k)) continue;
                QuestionSpec q;
                q.kind = k;
                q.block = b;
                q.thread = tu;
                for (int ph = 0; ph < std::max(1, questionPhases(s)); ++ph) {
                    q.phase = ph;
                    if (k == QuestionKind::NdsSlot && impl_->shape == Shape::ConvTiled) {
                        // The element this thread stores at this step.
                        for (int e = st.begin; e < st.end; ++e)
                            if (t.events[e].thread == th &&
                                (t.events[e].op == Op::SharedStore || t.events[e].op == Op::ZeroFill))
                                for (const ConvSlot& sl : d.conv->slots)
                                    if (sl.slot == t.events[e].index) q.element = Cell{sl.row, sl.col};
                    }
                    candidates.push_back(q);
                }
            }
        }
        if ((st.kind == StepKind::LoadTile || st.kind == StepKind::Use || st.kind == StepKind::Store) &&
            applies(QuestionKind::IndexValue)) {
            unsigned ln = st.line;
            for (int e = st.begin; e < st.end; ++e)
                if (t.events[e].thread == th) {
                    ln = t.events[e].line;
                    break;
                }
            for (const std::string& expr : impl_->expressionsOn(d, ln)) {
                QuestionSpec q;
                q.kind = QuestionKind::IndexValue;
                q.block = b;
                q.thread = tu;
                q.step = step;
                q.expression = expr;
                candidates.push_back(q);
            }
        }
    }
    if (st.kind == StepKind::LoadTile && applies(QuestionKind::BlockTile))
        for (const char* a : {"M", "N"})
            for (int ph = 0; ph < std::max(1, questionPhases(s)); ++ph) {
                if (familyOf(s) != Family::Matmul && std::string(a) == "M") continue;
                QuestionSpec q;
                q.kind = QuestionKind::BlockTile;
                q.block = b;
                q.phase = ph;
                q.array = a;
                candidates.push_back(q);
            }
    if (st.kind == StepKind::Use && applies(QuestionKind::ElementReaders)) {
        for (int e = st.begin; e < st.end; ++e) {
            const Event& x = t.events[e];
            if (x.op == Op::SharedLoad)
                for (const ConvSlot& sl : d.conv->slots)
                    if (sl.slot == x.index && d.conv->geo.insideN(sl.row, sl.col)) {
                        QuestionSpec q;
                        q.kind = QuestionKind::ElementReaders;
                        q.block = b;
                        q.element = Cell{sl.row, sl.col};
                        candidates.push_back(q);
                    }
        }
    }
    if (st.kind == StepKind::Barrier && applies(QuestionKind::DroppedBarrierHazard))
        for (unsigned bit : {unsigned(kernels::AFTER_LOAD), unsigned(kernels::AFTER_COMPUTE)})
            if ((impl_->info->barriers & bit) &&
                sourceLine(impl_->source, st.line).find(bit == kernels::AFTER_LOAD ? "AFTER_LOAD" : "AFTER_COMPUTE") !=
                    std::string::npos) {
                QuestionSpec q;
                q.kind = QuestionKind::DroppedBarrierHazard;
                q.barrier = bit;
                candidates.push_back(q);
            }
    if (step + 1 == static_cast<int>(t.steps.size())) {
        QuestionSpec q;
        q.kind = QuestionKind::BlockGlobalLoads;
        q.block = b;
        candidates.push_back(q);
    }
    SplitMix64 rng{seed ^ (static_cast<uint64_t>(step) * 0x9E3779B97F4A7C15ull)};
    rng.shuffle(candidates);
    // Another block of the grid, for the kinds the caller may ask about it: the same work of
    // the step, in that block. Its own generator, so that the traced block's choice stays.
    const LaunchShape ls = launchShape(s);
    const uint64_t blocks = ls.grid.count();
    if (!otherBlocks.empty() && blocks > 1) {
        SplitMix64 other{(seed + 0x632BE59BD9B4E019ull) ^ (static_cast<uint64_t>(step) * 0xD1B54A32D192ED03ull)};
        uint64_t k = other.below(blocks - 1);
        if (k >= static_cast<uint64_t>(b.y) * ls.grid.x + b.x) ++k;
        const Uint3 ob{static_cast<unsigned>(k % ls.grid.x), static_cast<unsigned>(k / ls.grid.x), 0};
        const Uint3 tu{static_cast<unsigned>(other.below(t.blockDim.x)), static_cast<unsigned>(other.below(t.blockDim.y)), 0};
        std::vector<QuestionSpec> theirs;
        for (const QuestionSpec& c : candidates) {
            if (!c.block || !otherOk(c.kind)) continue;
            if (c.thread && (c.thread->x != tu.x || c.thread->y != tu.y)) continue;   // one thread of theirs
            QuestionSpec q = c;
            q.block = ob;
            if (q.kind == QuestionKind::NdsSlot) q.element.reset();   // the element is the traced block's
            if (q.kind == QuestionKind::NdsSlot && impl_->shape == Shape::ConvTiled) continue;
            if (std::none_of(theirs.begin(), theirs.end(), [&](const QuestionSpec& o) { return sameTarget(o, q); }))
                theirs.push_back(q);
        }
        if (step + 1 == static_cast<int>(t.steps.size()) && otherOk(QuestionKind::BlockGlobalLoads)) {
            QuestionSpec q;
            q.kind = QuestionKind::BlockGlobalLoads;
            q.block = ob;
            theirs.push_back(q);
        }
        other.shuffle(theirs);
        // One step in four asks about the other block first, the rest after the traced block's.
        candidates.insert(other.below(4) == 0 ? candidates.begin() : candidates.end(), theirs.begin(), theirs.end());
    }
    for (const QuestionSpec& spec : candidates) {
        if (static_cast<int>(out.size()) >= count) break;
        if (std::any_of(out.begin(), out.end(), [&](const Question& q) { return sameTarget(q.spec, spec); })) continue;
        try {
            Question q = impl_->answer(spec);
            // Keep the questions this step reveals (or that belong to no step).
            if (q.spec.step && *q.spec.step != step) continue;
            out.push_back(std::move(q));
        } catch (const QuestionError&) {
        }
    }
    return out;
}

}  // namespace ts::sim
