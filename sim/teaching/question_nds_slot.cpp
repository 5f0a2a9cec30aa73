// Practice questions of kind nds-slot (sim/teaching/questions.hpp): the slot of Nds or N_ds a thread
// writes in a phase (in the tiled convolutions, the slot an element of N goes into).
#include "sim/teaching/question_common.hpp"

namespace ts::sim {

using namespace question_detail;

void QuestionGenerator::Impl::ndsSlot(Question& q)
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

std::optional<QuestionSpec> QuestionGenerator::Impl::pickNdsSlot(QuestionSpec q, SplitMix64& rng, const Uint3& b,
                                                                 const Uint3& t, int phases)
{
    q = aimAtThread(q, rng, b, t, phases);
    if (isConv(shape)) {
        const std::vector<Fill> f = convFills(b, t);
        if (f.empty()) return std::nullopt;
        const Fill& one = f[rng.below(f.size())];
        BlockData& d = block(b);
        for (const ConvSlot& sl : d.conv->slots)
            if (sl.slot == d.trace().events[one.event].index) q.element = Cell{sl.row, sl.col};
        if (!q.element) return std::nullopt;
    }
    return q;
}

void QuestionGenerator::Impl::stepNdsSlot(const StepAsk& a, int th, const Uint3& tu,
                                          std::vector<QuestionSpec>& out) const
{
    if (a.st.kind != StepKind::LoadTile || !questionKindApplies(s, QuestionKind::NdsSlot)) return;
    std::optional<Cell> element;
    if (shape == Shape::ConvTiled) {
        // The element this thread stores at this step.
        const Trace& t = a.d.trace();
        for (int e = a.st.begin; e < a.st.end; ++e)
            if (t.events[e].thread == th && (t.events[e].op == Op::SharedStore || t.events[e].op == Op::ZeroFill))
                for (const ConvSlot& sl : a.d.conv->slots)
                    if (sl.slot == t.events[e].index) element = Cell{sl.row, sl.col};
    }
    addPhaseTargets(out, QuestionKind::NdsSlot, a.b, tu, element);
}

}  // namespace ts::sim
