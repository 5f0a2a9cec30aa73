// Practice questions (sim/teaching/questions.hpp). Every answer is read from a simulation of the
// block asked about: its trace (which thread loaded what, which slot it wrote, which
// threads read an element), its counters, the hazard detector of a run without the named
// barrier, or the occupancy calculator. Index expressions are evaluated with the Code
// panel's evaluator and the thread's variables at the step, and checked against the index
// the trace recorded where the expression is a whole subscript.
//
// This file: the kinds' names and targets, the static checks, grading and the answers' text,
// and the generator's choice of questions (generate, forStep); the answers of each kind are in
// question_<kind>.cpp, the machinery they share in question_common.cpp.
#include "sim/teaching/questions.hpp"
#include "sim/catalogue/problem_desc.hpp"

#include <algorithm>
#include <array>
#include <set>

#include "sim/teaching/expression.hpp"
#include "kernels/context.cuh"
#include "sim/teaching/occupancy.hpp"
#include "sim/teaching/question_common.hpp"

namespace ts::sim {

using namespace question_detail;

namespace {

constexpr std::array<const char*, 15> kKindNames = {
    "mds-loads",         "nds-loads",          "block-tile",       "nds-slot",
    "index-value",       "element-readers",    "halo-cells",       "ghost-cells",
    "dropped-barrier-hazard", "block-global-loads", "occupancy-blocks", "occupancy-limiter",
    "divergent-warps",   "tree-slot",          "scan-adds"};

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
    case QuestionKind::DivergentWarps: return {"block"};
    case QuestionKind::TreeSlot: return {"block", "thread"};
    case QuestionKind::ScanAdds: return {"block"};
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
        {"step", (q.kind == QuestionKind::IndexValue || q.kind == QuestionKind::DivergentWarps ||
                  q.kind == QuestionKind::TreeSlot || q.kind == QuestionKind::ScanAdds) && !q.step},
        {"element", q.kind == QuestionKind::ElementReaders && !q.element},
        {"barrier", q.kind == QuestionKind::DroppedBarrierHazard && q.barrier == 0},
        {"array", q.kind == QuestionKind::BlockTile && problemOf(s).tilesOfM && q.array.empty()}};
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
        const int h = problemOf(s).dims == 2 ? s.height : 1;
        if (q.element->row < 0 || q.element->row >= h || q.element->col < 0 || q.element->col >= s.width)
            return bad("element", oneD(s) ? "element " + std::to_string(q.element->col) + " is outside N, which has " +
                                                std::to_string(s.width) + " elements (0 to " +
                                                std::to_string(s.width - 1) + ")."
                                          : "element [" + std::to_string(q.element->row) + ", " +
                                                std::to_string(q.element->col) + "] is outside N, which is " +
                                                std::to_string(s.height) + " x " + std::to_string(s.width) + ".");
    }
    if (!q.array.empty()) {
        const bool matmul = problemOf(s).tilesOfM;
        if (matmul ? q.array != "M" && q.array != "N" : q.array != "N")
            return bad("array", matmul ? "array must be \"M\" or \"N\", the input whose tile the block loads; got \"" +
                                             q.array + "\"."
                                       : "array must be \"N\", the input whose tile the block loads; got \"" + q.array +
                                             "\".");
    }
    if (q.barrier) {
        const KernelInfo* info = s.kernelInfo();
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
        const std::string& source = kernelSource(s.kernelInfo()->sourceFile);
        Variables ones;
        for (const std::string& id : identifiers(q.expression)) {
            if (!containsWord(source, id))
                return bad("expression", "'" + id + "' in the expression is not a name in " +
                                             s.kernelInfo()->sourceFile + ".");
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
    case QuestionKind::OccupancyBlocks:
    case QuestionKind::DivergentWarps:
    case QuestionKind::TreeSlot:
    case QuestionKind::ScanAdds: return std::to_string(a.number);
    case QuestionKind::DroppedBarrierHazard:
    case QuestionKind::OccupancyLimiter: return a.name;
    }
    return {};
}

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
    std::set<int> threads;
    for (int e = st.begin; e < st.end; ++e)
        if (t.events[e].thread != kNoThread) threads.insert(t.events[e].thread);
    const Impl::StepAsk ask{d, st, step, b};
    for (int th : threads) {
        const Uint3 tu{th % t.blockDim.x, th / t.blockDim.x, 0};
        impl_->stepLoads(ask, QuestionKind::MdsLoads, tu, candidates);
        impl_->stepLoads(ask, QuestionKind::NdsLoads, tu, candidates);
        impl_->stepNdsSlot(ask, th, tu, candidates);
        impl_->stepIndexValue(ask, th, tu, candidates);
        impl_->stepTreeLevel(ask, th, tu, candidates);
    }
    impl_->stepTreeLevel(ask, -1, {}, candidates);
    impl_->stepScanLevel(ask, candidates);
    impl_->stepBlockTile(ask, candidates);
    impl_->stepElementReaders(ask, candidates);
    impl_->stepDroppedBarrier(ask, candidates);
    impl_->stepBlockGlobalLoads(ask, candidates);
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
