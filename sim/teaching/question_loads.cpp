// Practice questions of kinds mds-loads and nds-loads (sim/teaching/questions.hpp): the elements of M or
// N a thread loads into Mds or Nds (N_ds) in a phase, read from the fills of its trace.
#include "sim/teaching/question_common.hpp"

#include <algorithm>

namespace ts::sim {

using namespace question_detail;

void QuestionGenerator::Impl::loads(Question& q, bool mds)
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

std::optional<QuestionSpec> QuestionGenerator::Impl::pickLoads(QuestionSpec q, SplitMix64& rng, const Uint3& b,
                                                               const Uint3& t, int phases)
{
    q = aimAtThread(q, rng, b, t, phases);
    if (isConv(shape)) {
        // Prefer threads that load something.
        const std::vector<Fill> f = convFills(b, t);
        if (std::none_of(f.begin(), f.end(), [](const Fill& x) { return x.load >= 0; }) && rng.below(4) != 0)
            return std::nullopt;
    }
    return q;
}

void QuestionGenerator::Impl::stepLoads(const StepAsk& a, QuestionKind k, const Uint3& tu,
                                        std::vector<QuestionSpec>& out) const
{
    if (a.st.kind == StepKind::LoadTile && questionKindApplies(s, k)) addPhaseTargets(out, k, a.b, tu, std::nullopt);
}

}  // namespace ts::sim
