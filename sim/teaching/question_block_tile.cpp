// Practice questions of kind block-tile (sim/teaching/questions.hpp): the elements of M or N a whole block
// loads into shared memory in a phase, from the fills of every thread of its trace.
#include "sim/teaching/question_common.hpp"
#include "sim/catalogue/problem_desc.hpp"

#include <algorithm>
#include <set>

namespace ts::sim {

using namespace question_detail;

void QuestionGenerator::Impl::blockTile(Question& q)
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

std::optional<QuestionSpec> QuestionGenerator::Impl::pickBlockTile(QuestionSpec q, SplitMix64& rng, const Uint3& b,
                                                                   const Uint3&, int phases)
{
    q.block = b;
    q.phase = static_cast<int>(rng.below(phases));
    // One character assigned (GCC 12 warns, wrongly, of overlapping copies for `= cond ? "M" : "N"`).
    q.array.assign(1, problemOf(s).tilesOfM && rng.below(2) == 0 ? 'M' : 'N');
    return q;
}

void QuestionGenerator::Impl::stepBlockTile(const StepAsk& a, std::vector<QuestionSpec>& out) const
{
    if (a.st.kind != StepKind::LoadTile || !questionKindApplies(s, QuestionKind::BlockTile)) return;
    for (const char* array : {"M", "N"})
        for (int ph = 0; ph < std::max(1, questionPhases(s)); ++ph) {
            if (!problemOf(s).tilesOfM && std::string(array) == "M") continue;
            QuestionSpec q;
            q.kind = QuestionKind::BlockTile;
            q.block = a.b;
            q.phase = ph;
            q.array = array;
            out.push_back(q);
        }
}

}  // namespace ts::sim
