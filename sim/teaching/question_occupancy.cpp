// Practice questions of kinds occupancy-blocks and occupancy-limiter (sim/teaching/questions.hpp): blocks
// per SM and the resource that limits them, from the occupancy calculator (sim/teaching/occupancy.hpp).
#include "sim/teaching/question_common.hpp"

#include <iterator>

namespace ts::sim {

using namespace question_detail;

int QuestionGenerator::Impl::kernelSharedBytes()
{
    const BlockData& d = block(s.block);
    int bytes = 0;
    for (const ArrayInfo& a : d.sim->arrays)
        if (a.space == Space::Shared) bytes += a.size() * 4;
    return bytes;
}

void QuestionGenerator::Impl::occupancy(Question& q, bool limiter)
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

std::optional<QuestionSpec> QuestionGenerator::Impl::pickOccupancy(QuestionSpec q, SplitMix64& rng, const Uint3&,
                                                                   const Uint3&, int)
{
    // Registers per thread around the PMPP sec. 4.7 example; the rest from the
    // scenario's [occupancy] table or the kernel.
    static constexpr int kRegs[] = {8, 10, 11, 12, 13, 16, 20, 24, 32, 40};
    q.regsPerThread = kRegs[rng.below(std::size(kRegs))];
    return q;
}

}  // namespace ts::sim
