// Practice questions of kind element-readers (sim/teaching/questions.hpp): the threads of a convolution
// block whose multiply-adds use an element of N, from the block's ConvView.
#include "sim/teaching/question_common.hpp"

#include <algorithm>

namespace ts::sim {

using namespace question_detail;

void QuestionGenerator::Impl::elementReaders(Question& q)
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

std::optional<QuestionSpec> QuestionGenerator::Impl::pickElementReaders(QuestionSpec q, SplitMix64& rng, const Uint3& b,
                                                                        const Uint3&, int)
{
    q.block = b;
    const ConvGeometry g = convGeometry(s, b);
    // An element of the block's input tile inside N, sometimes one just outside it.
    const int r = g.twoD ? g.inRow0 - 1 + static_cast<int>(rng.below(g.inRows + 2)) : 0;
    const int c = g.inCol0 - 1 + static_cast<int>(rng.below(g.inCols + 2));
    if (!g.insideN(r, c)) return std::nullopt;
    q.element = Cell{r, c};
    return q;
}

void QuestionGenerator::Impl::stepElementReaders(const StepAsk& a, std::vector<QuestionSpec>& out) const
{
    if (a.st.kind != StepKind::Use || !questionKindApplies(s, QuestionKind::ElementReaders)) return;
    // The elements of N inside it whose N_ds slots the step reads.
    const Trace& t = a.d.trace();
    for (int e = a.st.begin; e < a.st.end; ++e) {
        const Event& x = t.events[e];
        if (x.op == Op::SharedLoad)
            for (const ConvSlot& sl : a.d.conv->slots)
                if (sl.slot == x.index && a.d.conv->geo.insideN(sl.row, sl.col)) {
                    QuestionSpec q;
                    q.kind = QuestionKind::ElementReaders;
                    q.block = a.b;
                    q.element = Cell{sl.row, sl.col};
                    out.push_back(q);
                }
    }
}

}  // namespace ts::sim
