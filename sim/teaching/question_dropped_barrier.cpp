// Practice questions of kind dropped-barrier-hazard (sim/teaching/questions.hpp): the hazard the hazard
// detector reports in a run of the scenario without the named barrier.
#include "sim/teaching/question_common.hpp"

#include "kernels/context.cuh"

namespace ts::sim {

using namespace question_detail;

void QuestionGenerator::Impl::droppedBarrier(Question& q)
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
    // A row of several launches (PMPP sec. 11.6's hierarchical scan) has the barrier once a
    // kernel: the line the traced launch's block runs. Else its first line in the file.
    if (launchCount(s) > 1)
        for (const Step& st : block(s.block).sim->trace.steps)
            if (st.kind == StepKind::Barrier && sourceLine(source, st.line).find(macro) != std::string::npos) {
                q.line = st.line;
                break;
            }
    for (unsigned n = 1; n <= lines() && !q.line; ++n)
        if (sourceLine(source, n).find(macro) != std::string::npos) q.line = n;
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

std::optional<QuestionSpec> QuestionGenerator::Impl::pickDroppedBarrier(QuestionSpec q, SplitMix64& rng, const Uint3&,
                                                                        const Uint3&, int)
{
    std::vector<unsigned> bits;
    for (unsigned bit : {unsigned(kernels::AFTER_LOAD), unsigned(kernels::AFTER_COMPUTE)})
        if (info->barriers & bit) bits.push_back(bit);
    q.barrier = bits[rng.below(bits.size())];
    return q;
}

void QuestionGenerator::Impl::stepDroppedBarrier(const StepAsk& a, std::vector<QuestionSpec>& out) const
{
    if (a.st.kind != StepKind::Barrier || !questionKindApplies(s, QuestionKind::DroppedBarrierHazard)) return;
    // The droppable barrier the step's line names.
    for (unsigned bit : {unsigned(kernels::AFTER_LOAD), unsigned(kernels::AFTER_COMPUTE)})
        if ((info->barriers & bit) && sourceLine(source, a.st.line).find(barrierMacro(bit)) != std::string::npos) {
            QuestionSpec q;
            q.kind = QuestionKind::DroppedBarrierHazard;
            q.barrier = bit;
            out.push_back(q);
        }
}

}  // namespace ts::sim
