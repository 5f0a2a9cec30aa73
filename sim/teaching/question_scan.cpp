// Practice questions about a scan's network (sim/teaching/questions.hpp), PMPP ch. 11:
// scan-adds, how many adds a block has made once one level of its network is done ("how many
// adds has Brent-Kung done after the reduction tree?"). Read from the block's network
// (sim/teaching/scan_network.hpp), built from its trace.
#include "sim/teaching/question_common.hpp"
#include "sim/teaching/scan_network.hpp"

namespace ts::sim {

using namespace question_detail;

namespace {

/// "level 3 (stride 4)", or "level 3" for a level of mixed distances: the levels that add,
/// counted from 1 (Brent-Kung's trees both have a stride 4).
std::string levelName(const ScanLevel& l, int level)
{
    return "level " + std::to_string(level) + (l.stride > 0 ? " (stride " + std::to_string(l.stride) + ")" : "");
}

}  // namespace

void QuestionGenerator::Impl::scanAdds(Question& q)
{
    BlockData& d = block(*q.spec.block);
    const ScanNetwork net = scanNetwork(d.trace());
    const std::string who = blockName(s, *q.spec.block);
    const int level = net.levelAt(*q.spec.step);
    if (net.array < 0 || level < 0)
        throw QuestionError("step " + std::to_string(*q.spec.step) + " of " + who + " comes before the first level of its scan.");
    const ScanLevel& l = net.levels[static_cast<size_t>(level)];
    if (l.adds == 0)
        throw QuestionError("at step " + std::to_string(*q.spec.step) + " " + who +
                            " loads its section; ask at a level that adds.");
    q.spec.step = l.firstStep;   // one question per level, whichever of its steps named it
    uint64_t total = 0;
    std::vector<std::string> parts;
    int n = 0;
    for (int k = 0; k <= level; ++k) {
        const ScanLevel& x = net.levels[static_cast<size_t>(k)];
        if (!x.adds) continue;
        total += static_cast<uint64_t>(x.adds);
        parts.push_back(levelName(x, ++n) + " " + std::to_string(x.adds));
    }
    const std::string array = d.trace().arrays.at(static_cast<size_t>(net.array)).name;
    q.answer.shape = AnswerShape::Number;
    q.answer.number = static_cast<long long>(total);
    q.prompt = "How many adds has " + who + " made in " + array + " once its " + levelName(l, n) + " is done?";
    q.explanation = "Each level's adds (a thread adding the slots its line comes from): " + joinList(parts) + "; " +
                    std::to_string(total) + " in all so far, of " + std::to_string(net.adds) +
                    " for the whole scan. The sequential scan of the same " + std::to_string(net.section) +
                    " elements makes " + std::to_string(sequentialScanAdds(static_cast<uint64_t>(net.section))) + ".";
}

std::optional<QuestionSpec> QuestionGenerator::Impl::pickScanLevel(QuestionSpec q, SplitMix64& rng, const Uint3& b, const Uint3&, int)
{
    BlockData& d = block(b);
    const ScanNetwork net = scanNetwork(d.trace());
    std::vector<int> steps;
    for (const ScanLevel& l : net.levels)
        if (l.adds) steps.push_back(l.firstStep);
    if (steps.empty()) return std::nullopt;
    q.block = b;
    q.step = steps[rng.below(steps.size())];
    return q;
}

void QuestionGenerator::Impl::stepScanLevel(const StepAsk& a, std::vector<QuestionSpec>& out) const
{
    if (!kindFits(s, QuestionKind::ScanAdds)) return;
    const ScanNetwork net = scanNetwork(a.d.trace());
    for (const ScanLevel& l : net.levels)
        if (l.adds && l.firstStep == a.step) {
            QuestionSpec q;
            q.kind = QuestionKind::ScanAdds;
            q.block = a.b;
            q.step = a.step;
            out.push_back(q);
        }
}

}  // namespace ts::sim
