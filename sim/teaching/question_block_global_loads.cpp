// Practice questions of kind block-global-loads (sim/teaching/questions.hpp): how many elements a block
// loads from global memory, from the simulator's per-block counters.
#include "sim/teaching/question_common.hpp"

namespace ts::sim {

using namespace question_detail;

void QuestionGenerator::Impl::blockGlobalLoads(Question& q)
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

std::optional<QuestionSpec> QuestionGenerator::Impl::pickBlockGlobalLoads(QuestionSpec q, SplitMix64&, const Uint3& b,
                                                                          const Uint3&, int)
{
    q.block = b;
    return q;
}

void QuestionGenerator::Impl::stepBlockGlobalLoads(const StepAsk& a, std::vector<QuestionSpec>& out) const
{
    // Asked at the block's last step, when all its loads are done.
    if (a.step + 1 != static_cast<int>(a.d.trace().steps.size())) return;
    QuestionSpec q;
    q.kind = QuestionKind::BlockGlobalLoads;
    q.block = a.b;
    out.push_back(q);
}

}  // namespace ts::sim
