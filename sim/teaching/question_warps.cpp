// Practice questions about a reduction tree's warps (sim/teaching/questions.hpp), PMPP ch. 10:
// divergent-warps, how many warps of a block split at the tree's branch in one level (a
// stride), and tree-slot, which element a thread writes in that level. Both read the block's
// tree from its trace (sim/teaching/reduction_tree.hpp).
#include "sim/teaching/question_common.hpp"
#include "sim/teaching/reduction_tree.hpp"

namespace ts::sim {

using namespace question_detail;

namespace {

/// "0, 3 and 5", runs of consecutive numbers as "0 to 31".
std::string numberRuns(const std::vector<unsigned>& n)
{
    std::vector<std::string> parts;
    for (size_t i = 0; i < n.size();) {
        size_t j = i;
        while (j + 1 < n.size() && n[j + 1] == n[j] + 1) ++j;
        parts.push_back(j >= i + 2 ? std::to_string(n[i]) + " to " + std::to_string(n[j])
                                   : std::to_string(n[i]) + (j > i ? ", " + std::to_string(n[j]) : ""));
        i = j + 1;
    }
    return joinList(parts);
}

/// "stride 4" or, for a level of mixed distances, "level 3".
std::string levelName(const TreeLevel& l, int level)
{
    return l.stride > 0 ? "stride " + std::to_string(l.stride) : "level " + std::to_string(level);
}

/// The level of `tree` running at `step`, or a QuestionError naming the step.
const TreeLevel& levelAtStep(const ReductionTree& tree, int step, const std::string& block, int& level)
{
    level = tree.levelAt(step);
    if (tree.array < 0 || level < 0)
        throw QuestionError("step " + std::to_string(step) + " of " + block +
                            " comes before the first level of its reduction tree.");
    return tree.levels[static_cast<size_t>(level)];
}

}  // namespace

void QuestionGenerator::Impl::divergentWarps(Question& q)
{
    BlockData& d = block(*q.spec.block);
    const ReductionTree tree = reductionTree(d.trace());
    const std::string who = blockName(s, *q.spec.block);
    int level = 0;
    const TreeLevel& l = levelAtStep(tree, *q.spec.step, who, level);
    q.spec.step = l.firstStep;   // one question per level, whichever of its steps named it
    if (l.warps.empty())
        throw QuestionError("at step " + std::to_string(*q.spec.step) + " " + who + " adds without a branch the kernel marks (" +
                            (l.shuffle ? "a warp shuffle" : "the leaf fill") + "): no warp can diverge there.");
    q.answer.shape = AnswerShape::Number;
    q.answer.number = l.divergentWarps();
    q.line = l.branchLine;
    const std::string at = levelName(l, level);
    q.prompt = "How many warps of " + who + " diverge at the tree's branch (line " + std::to_string(l.branchLine) +
               ") at " + at + "?";
    int all = 0, none = 0;
    std::vector<unsigned> split;
    for (const TreeWarp& w : l.warps) {
        if (w.divergent()) split.push_back(w.warp);
        else if (w.taken) ++all;
        else ++none;
    }
    std::string text = "At " + at + ", " + std::to_string(l.adds.size()) + " threads add. Of the " +
                       std::to_string(l.warps.size()) + " warps that evaluate the branch, " + std::to_string(all) +
                       (all == 1 ? " takes" : " take") + " it with all their lanes and " + std::to_string(none) +
                       " with none (uniform)";
    if (split.empty()) text += "; none has lanes on both sides, so no warp diverges.";
    else
        text += "; " + std::string(split.size() == 1 ? "warp " : "warps ") + numberRuns(split) +
                (split.size() == 1 ? " has some lanes adding and some idle, and runs" : " have some lanes adding and some idle, and run") +
                " the add with the idle lanes waiting: divergent.";
    q.explanation = text;
}

void QuestionGenerator::Impl::treeSlot(Question& q)
{
    BlockData& d = block(*q.spec.block);
    const ReductionTree tree = reductionTree(d.trace());
    const std::string who = blockName(s, *q.spec.block);
    int level = 0;
    const TreeLevel& l = levelAtStep(tree, *q.spec.step, who, level);
    q.spec.step = l.firstStep;
    const int t = linear(d, *q.spec.thread);
    const auto add = std::find_if(l.adds.begin(), l.adds.end(), [&](const TreeAdd& a) { return a.thread == t; });
    const std::string at = levelName(l, level);
    const std::string thread = threadName(s, *q.spec.thread);
    if (add == l.adds.end())
        throw QuestionError(thread + " of " + who + " writes nothing at " + at + ".");
    if (l.shuffle)
        throw QuestionError("at " + at + " " + who + " adds in registers (a warp shuffle): no element is written.");
    const std::string array = d.trace().arrays.at(static_cast<size_t>(tree.array)).name;
    q.answer.shape = AnswerShape::Number;
    q.answer.number = add->target;
    q.prompt = "Which element of " + array + " does " + thread + " of " + who + " write at " + at + "?";
    if (add->fromOther)
        q.explanation = "At " + at + " the thread fills " + array + "[" + std::to_string(add->target) +
                        "] from the input: the leaf of the tree it starts from.";
    else
        q.explanation = "At " + at + " the thread adds " + array + "[" + std::to_string(add->source) + "], " +
                        std::to_string(std::abs(add->source - add->target)) + " elements away, into " + array + "[" +
                        std::to_string(add->target) + "], the partial sum it owns.";
}

std::optional<QuestionSpec> QuestionGenerator::Impl::pickTreeLevel(QuestionSpec q, SplitMix64& rng, const Uint3& b,
                                                                   const Uint3& t, int)
{
    BlockData& d = block(b);
    const ReductionTree tree = reductionTree(d.trace());
    const int thread = linear(d, t);
    std::vector<int> steps;
    for (const TreeLevel& l : tree.levels) {
        if (q.kind == QuestionKind::DivergentWarps && l.warps.empty()) continue;
        if (q.kind == QuestionKind::TreeSlot &&
            (l.shuffle || std::none_of(l.adds.begin(), l.adds.end(), [&](const TreeAdd& a) { return a.thread == thread; })))
            continue;
        steps.push_back(l.firstStep);
    }
    if (steps.empty()) return std::nullopt;
    q.block = b;
    if (q.kind == QuestionKind::TreeSlot) q.thread = t;
    q.step = steps[rng.below(steps.size())];
    return q;
}

void QuestionGenerator::Impl::stepTreeLevel(const StepAsk& a, int th, const Uint3& tu, std::vector<QuestionSpec>& out) const
{
    if (!kindFits(s, QuestionKind::DivergentWarps)) return;
    const ReductionTree tree = reductionTree(a.d.trace());
    for (const TreeLevel& l : tree.levels) {
        if (l.firstStep != a.step) continue;
        if (th < 0 && !l.warps.empty()) {
            QuestionSpec q;
            q.kind = QuestionKind::DivergentWarps;
            q.block = a.b;
            q.step = a.step;
            out.push_back(q);
        }
        if (th >= 0 && !l.shuffle &&
            std::any_of(l.adds.begin(), l.adds.end(), [&](const TreeAdd& x) { return x.thread == th; })) {
            QuestionSpec q;
            q.kind = QuestionKind::TreeSlot;
            q.block = a.b;
            q.thread = tu;
            q.step = a.step;
            out.push_back(q);
        }
    }
}

}  // namespace ts::sim
