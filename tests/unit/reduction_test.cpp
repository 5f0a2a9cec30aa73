// PMPP ch. 10's sum reductions (registry rows reduction-simple, -convergent, -shared,
// -segmented, -coarsened) against figures found other ways: the divergent and uniform branch
// counts Nsight Compute gave on an H200 for Figs. 10.6 and 10.9 at 1024 threads, the same
// counts worked out here thread by thread from each figure's condition (not through the
// simulator's warp model), the total computed here, and the atomics a grid of blocks makes.
#include <gtest/gtest.h>

#include <cstring>
#include <numeric>
#include <set>

#include "kernels/context.cuh"
#include "sim/engine/simulate.hpp"
#include "sim/teaching/reduction_tree.hpp"
#include "sim/teaching/warp_view.hpp"

namespace ts::sim {
namespace {

Scenario sum(const std::string& kernel, int n, int tile = 0)
{
    Scenario s;
    s.kernel = kernel;
    s.height = 1;
    s.width = n;
    s.tile = tile ? tile : kernel == "reduction-shared" ? n / 2 : 256;
    return s;
}

Simulation run(const Scenario& s, bool trace = false)
{
    SimOptions o;
    o.trace = trace;
    o.threads = 2;
    return simulate(s, o);
}

/// Branch executions of a one-block tree counted from the figure's condition: at each
/// stride, a warp whose active lanes split at the `if` is divergent; the loop's condition is
/// evaluated by every warp once per stride and once more at the exit, always uniform.
struct BranchCount {
    uint64_t divergent = 0, uniform = 0;
};
template <class Taken>
BranchCount treeBranches(unsigned threads, const std::vector<unsigned>& strides, Taken taken)
{
    BranchCount c;
    const unsigned warps = (threads + 31) / 32;
    for (unsigned stride : strides)
        for (unsigned w = 0; w < warps; ++w) {
            unsigned in = 0, lanes = 0;
            for (unsigned t = 32 * w; t < std::min(threads, 32 * w + 32); ++t, ++lanes) in += taken(t, stride) ? 1 : 0;
            (in != 0 && in != lanes ? c.divergent : c.uniform) += 1;
        }
    c.uniform += uint64_t{warps} * (strides.size() + 1);   // the loop's condition
    return c;
}

std::vector<unsigned> doubling(unsigned to)
{
    std::vector<unsigned> s;
    for (unsigned v = 1; v <= to; v *= 2) s.push_back(v);
    return s;
}
std::vector<unsigned> halving(unsigned from)
{
    std::vector<unsigned> s;
    for (unsigned v = from; v >= 1; v /= 2) s.push_back(v);
    return s;
}

TEST(Reduction, DivergentBranchesEqualNsightComputeAt1024Threads)
{
    // smsp__sass_branch_targets_threads_divergent.sum and ..._uniform.sum measured on an H200
    // for PMPP's own kernels at 1024 threads in one block (issue 40): 191 / 545 and 5 / 731.
    const Simulation simple = run(sum("reduction-simple", 2048));
    ASSERT_EQ(simple.error, "");
    EXPECT_TRUE(simple.matchesReference);
    EXPECT_EQ(simple.counters.totals.branch_divergent, 191u);
    EXPECT_EQ(simple.counters.totals.branch_uniform, 545u);
    const Simulation convergent = run(sum("reduction-convergent", 2048));
    ASSERT_EQ(convergent.error, "");
    EXPECT_TRUE(convergent.matchesReference);
    EXPECT_EQ(convergent.counters.totals.branch_divergent, 5u);
    EXPECT_EQ(convergent.counters.totals.branch_uniform, 731u);
}

TEST(Reduction, ShuffleFinishBranchesEqualNsightCompute)
{
    // reduction-shuffle on an H200 (docs/measurements/reduction-h200.txt): Nsight Compute's
    // uniform and divergent branch targets and global RED requests. The `if (t < WARP_SIZE)`
    // compiles to a predicated EXIT and the tree's if to predicated instructions, so their lines
    // are left out, as simulate --json's branch_*_compiled leave them out; the source-level
    // count keeps them.
    const struct {
        int n, tile;
        uint64_t uniform, sourceUniform, atomics;
    } cases[] = {{4097, 256, 288, 576, 9}, {100001, 32, 1563, 3126, 1563}, {4097, 1024, 576, 1152, 3}};
    for (const auto& c : cases) {
        SCOPED_TRACE(std::to_string(c.n) + " elements, " + std::to_string(c.tile) + " threads a block");
        const Scenario s = sum("reduction-shuffle", c.n, c.tile);
        const Simulation r = run(s);
        ASSERT_EQ(r.error, "");
        EXPECT_TRUE(r.matchesReference);
        uint64_t divergent = 0, uniform = 0;
        for (const AccessSite& a : r.accessSites) {
            if (a.kind != AccessKind::Branch) continue;
            bool predicated = false;
            for (const CompiledNote* n : compiledNotesFor(s, a.line)) predicated |= !*n->array;
            if (predicated) continue;
            divergent += a.divergent;
            uniform += a.requests - a.divergent;
        }
        EXPECT_EQ(divergent, 0u);
        EXPECT_EQ(uniform, c.uniform);
        EXPECT_EQ(r.counters.totals.branch_uniform, c.sourceUniform);
        EXPECT_EQ(r.counters.totals.global_atom_requests, c.atomics);
    }
}

TEST(Reduction, BranchesCountedFromEachFiguresCondition)
{
    for (unsigned threads : {2u, 16u, 64u, 256u, 1024u}) {
        SCOPED_TRACE(std::to_string(threads) + " threads");
        const int n = static_cast<int>(2 * threads);
        const BranchCount simple =
            treeBranches(threads, doubling(threads), [](unsigned t, unsigned s) { return t % s == 0; });
        const BranchCount convergent =
            treeBranches(threads, halving(threads), [](unsigned t, unsigned s) { return t < s; });
        const BranchCount shared = treeBranches(threads, halving(threads / 2), [](unsigned t, unsigned s) { return t < s; });
        const struct {
            const char* kernel;
            BranchCount want;
        } cases[] = {{"reduction-simple", simple}, {"reduction-convergent", convergent}, {"reduction-shared", shared}};
        for (const auto& c : cases) {
            if (std::string(c.kernel) == "reduction-shared" && threads < 8) continue;   // BLOCK_DIM from 8
            SCOPED_TRACE(c.kernel);
            const Simulation r = run(sum(c.kernel, n));
            ASSERT_EQ(r.error, "");
            EXPECT_TRUE(r.matchesReference);
            EXPECT_EQ(r.counters.totals.branch_divergent, c.want.divergent);
            EXPECT_EQ(r.counters.totals.branch_uniform, c.want.uniform);
        }
    }
}

TEST(Reduction, TotalsComputedHereAtRaggedLengths)
{
    for (const char* kernel : {"reduction-segmented", "reduction-coarsened"})
        for (int n : {1, 7, 513, 1000, 100001})
            for (int tile : {8, 32, 256}) {
                SCOPED_TRACE(std::string(kernel) + " N " + std::to_string(n) + " BLOCK_DIM " + std::to_string(tile));
                const Scenario s = sum(kernel, n, tile);
                ASSERT_EQ(validate(s), "");
                const Simulation r = run(s);
                ASSERT_EQ(r.error, "");
                ASSERT_EQ(r.M.size(), static_cast<size_t>(n));
                // Integers from 1 to 8, not all alike: the sum is exact in any order.
                std::set<float> values(r.M.begin(), r.M.end());
                EXPECT_GE(*values.begin(), 1.0f);
                EXPECT_LE(*values.rbegin(), 8.0f);
                if (n > 100) EXPECT_EQ(values.size(), 8u);
                const double total = std::accumulate(r.M.begin(), r.M.end(), 0.0);
                ASSERT_EQ(r.P.size(), 1u);
                EXPECT_EQ(r.P[0], static_cast<float>(total));
                EXPECT_TRUE(r.matchesReference);
                // One atomicAdd per block, by thread 0 alone: one lane per request, one pass.
                const uint64_t perBlock = (std::string(kernel) == "reduction-coarsened" ? 4 : 2) * uint64_t(tile);
                const uint64_t blocks = (n + perBlock - 1) / perBlock;
                EXPECT_EQ(r.counters.totals.global_atomics, blocks);
                EXPECT_EQ(r.counters.totals.global_atom_requests, blocks);
                EXPECT_EQ(r.counters.totals.global_atom_passes, blocks);
                // Every input element read once, nothing stored but by the atomics.
                EXPECT_EQ(r.counters.totals.global_loads, static_cast<uint64_t>(n));
                EXPECT_EQ(r.counters.totals.global_stores, 0u);
            }
}

TEST(Reduction, AtomicsInTheTraceChainTheTotal)
{
    const Scenario s = sum("reduction-segmented", 5000, 64);
    for (unsigned b : {0u, 3u, 39u}) {
        Scenario t = s;
        t.block = Uint3{b, 0, 0};
        const Simulation r = run(t, true);
        ASSERT_EQ(r.error, "");
        int atomics = 0;
        for (const Event& e : r.trace.events) {
            if (e.op != Op::Atomic) continue;
            ++atomics;
            float before;
            std::memcpy(&before, &e.origin, sizeof before);
            // Blocks add in block order: before block b, the sum of blocks 0 .. b - 1.
            double want = 0;
            for (size_t i = 0; i < std::min<size_t>(r.M.size(), 128 * b); ++i) want += r.M[i];
            EXPECT_EQ(before, static_cast<float>(want)) << "block " << b;
            double mine = 0;
            for (size_t i = 128 * b; i < std::min<size_t>(r.M.size(), 128 * (b + 1)); ++i) mine += r.M[i];
            EXPECT_EQ(e.value, static_cast<float>(want + mine));
            EXPECT_EQ(e.thread, 0);
        }
        EXPECT_EQ(atomics, 1) << "block " << b;
    }
}

TEST(Reduction, TheSharedTreeWithoutItsBarrierRaces)
{
    Scenario s = sum("reduction-shared", 512);
    EXPECT_EQ(run(s).hazards.raw, 0u);
    s.dropBarriers = kernels::AFTER_LOAD;
    ASSERT_EQ(validate(s), "");
    const Simulation r = run(s);
    EXPECT_GT(r.hazards.raw, 0u);
    // The lines compute-sanitizer's racecheck names on an H200 for the same launch
    // (docs/measurements/reduction-h200.txt): a write of input_s on line 23 (the leaf fill) or
    // 27 (the tree's add) against the tree's read on line 27.
    ASSERT_FALSE(r.hazards.sites.empty());
    for (const HazardSite& h : r.hazards.sites) {
        EXPECT_EQ(h.kind, HazardKind::RAW);
        EXPECT_TRUE(h.firstLine == 23 || h.firstLine == 27) << h.firstLine;
        EXPECT_EQ(h.secondLine, 27u);
    }
}

TEST(Reduction, TheTreeReadFromTheTraceIsPmppsFigure)
{
    for (unsigned threads : {16u, 1024u}) {
        SCOPED_TRACE(std::to_string(threads) + " threads");
        const unsigned warps = (threads + 31) / 32;
        // Fig. 10.7: stride 1, 2, 4, ...; thread t adds element 2t + s into 2t when s divides t.
        const Simulation simple = run(sum("reduction-simple", static_cast<int>(2 * threads)), true);
        ASSERT_EQ(simple.error, "");
        const ReductionTree a = reductionTree(simple.trace);
        ASSERT_EQ(a.array, 0);
        EXPECT_EQ(a.size, static_cast<int>(2 * threads));
        ASSERT_EQ(a.levels.size(), doubling(threads).size());
        for (size_t k = 0; k < a.levels.size(); ++k) {
            const unsigned s = doubling(threads)[k];
            const TreeLevel& l = a.levels[k];
            EXPECT_EQ(l.stride, static_cast<int>(s));
            ASSERT_EQ(l.adds.size(), threads / s);
            for (const TreeAdd& add : l.adds) {
                EXPECT_EQ(add.thread % s, 0u);
                EXPECT_EQ(add.target, static_cast<int>(2 * add.thread));
                EXPECT_EQ(add.source, static_cast<int>(2 * add.thread + s));
            }
            ASSERT_EQ(l.warps.size(), warps);
            // A warp diverges when its 32 lanes hold some but not all multiples of s.
            int want = 0;
            for (unsigned w = 0; w < warps; ++w) {
                unsigned in = 0;
                for (unsigned t = 32 * w; t < std::min(threads, 32 * w + 32); ++t) in += t % s == 0;
                want += in != 0 && in != std::min(32u, threads - 32 * w);
            }
            EXPECT_EQ(l.divergentWarps(), want) << "stride " << s;
        }
        // Fig. 10.8: the stride halving from blockDim.x; thread t < s adds t + s into t.
        const Simulation convergent = run(sum("reduction-convergent", static_cast<int>(2 * threads)), true);
        const ReductionTree b = reductionTree(convergent.trace);
        ASSERT_EQ(b.levels.size(), halving(threads).size());
        for (size_t k = 0; k < b.levels.size(); ++k) {
            const unsigned s = halving(threads)[k];
            const TreeLevel& l = b.levels[k];
            EXPECT_EQ(l.stride, static_cast<int>(s));
            ASSERT_EQ(l.adds.size(), s);
            for (const TreeAdd& add : l.adds) {
                EXPECT_LT(add.thread, s);
                EXPECT_EQ(add.target, static_cast<int>(add.thread));
                EXPECT_EQ(add.source, static_cast<int>(add.thread + s));
            }
            EXPECT_EQ(l.divergentWarps(), s < 32 && s < threads ? 1 : 0) << "stride " << s;
        }
    }
    // The shared-memory tree: the leaf fill from input, then the tree in input_s.
    const Simulation shared = run(sum("reduction-shared", 64), true);
    const ReductionTree c = reductionTree(shared.trace);
    ASSERT_GE(c.array, 0);
    EXPECT_EQ(shared.trace.arrays[static_cast<size_t>(c.array)].name, "input_s");
    ASSERT_EQ(c.levels.size(), 1 + halving(16).size());
    EXPECT_EQ(c.levels[0].adds.size(), 32u);
    EXPECT_TRUE(c.levels[0].adds[0].fromOther);
    EXPECT_EQ(c.levels[1].stride, 16);
    // The warp-shuffle finish: the tree in input_s down to 32 sums, then five shuffle levels in
    // registers whose lanes below the offset carry the sums on (16, 8, 4, 2 and 1 of them).
    const Simulation shuffle = run(sum("reduction-shuffle", 256, 128), true);
    ASSERT_TRUE(shuffle.matchesReference);
    const ReductionTree d = reductionTree(shuffle.trace);
    ASSERT_GE(d.array, 0);
    const std::vector<int> strides = {0, 64, 32, 16, 8, 4, 2, 1};   // the fill, 2 in shared memory, 5 shuffles
    ASSERT_EQ(d.levels.size(), strides.size());
    for (size_t k = 0; k < strides.size(); ++k) {
        SCOPED_TRACE("level " + std::to_string(k));
        const TreeLevel& l = d.levels[k];
        EXPECT_EQ(l.stride, strides[k]);
        EXPECT_EQ(l.shuffle, k >= 3);
        if (k == 0) continue;
        ASSERT_EQ(l.adds.size(), static_cast<size_t>(strides[k]));
        for (const TreeAdd& a : l.adds) {
            EXPECT_EQ(a.target, static_cast<int>(a.thread));
            EXPECT_EQ(a.source, a.target + strides[k]);
        }
        if (l.shuffle) EXPECT_EQ(l.lanes, 32 - strides[k]);   // every lane with a source in the warp
        if (k > 0) EXPECT_GT(l.firstStep, d.levels[k - 1].firstStep);
    }
}

TEST(Reduction, LaunchesItCannotRunAreRefusedInOneSentence)
{
    // A tree needs a power-of-two block; one block sums exactly two elements per thread.
    EXPECT_NE(validate(sum("reduction-simple", 48)).find("power of two"), std::string::npos);
    EXPECT_NE(validate(sum("reduction-shared", 2048, 512)).find("must be 2 x 512 = 1024; got 2048"), std::string::npos);
    EXPECT_NE(validate(sum("reduction-segmented", 1000, 100)).find("BLOCK_DIM (--tile)"), std::string::npos);
    EXPECT_NE(validate(sum("reduction-simple", 4096)).find("2048"), std::string::npos);
    Scenario drop = sum("reduction-simple", 64);
    drop.dropBarriers = kernels::AFTER_LOAD;
    EXPECT_NE(validate(drop).find("no barriers to drop"), std::string::npos);
}

}  // namespace
}  // namespace ts::sim
