// Example: 4x4 tiled product and Example: 4x4 access table (PMPP secs. 5.3-5.4, Figs. 5.8
// and 5.9; presets tiled-4x4 and naive-4x4; docs/references.md): totals, per-element counts
// and the trace of the simulator checked against the book's tables.
#include <gtest/gtest.h>

#include <map>
#include <set>
#include <tuple>

#include "trace_query.hpp"

namespace ts::test {
namespace {

using sim::Op;

TEST(Golden4x4, TiledTotalsMatchTheSeed)
{
    const sim::Simulation r = sim::simulate(matmul("matmul-tiled", 4, 4, 4, 2));
    ASSERT_EQ(r.error, "");
    const sim::Totals& t = r.counters.totals;
    // 4 blocks x 2 phases x 4 threads x (1 M + 1 N) global loads.
    EXPECT_EQ(t.global_loads, 64u);
    EXPECT_EQ(t.global_stores, 16u);
    // 4 blocks x 2 phases x 4 threads x 2 iterations x (Mds + Nds).
    EXPECT_EQ(t.shared_loads, 128u);
    EXPECT_EQ(t.shared_stores, 64u);
    EXPECT_EQ(t.zero_fills, 0u);
    // 4 blocks x 2 phases x 2 barriers.
    EXPECT_EQ(t.barriers, 16u);
    // 16 P elements x 4 multiply-adds x 2.
    EXPECT_EQ(t.flops, 128u);
    EXPECT_TRUE(r.matchesReference);
    EXPECT_DOUBLE_EQ(sim::opsPerByte(t), 0.5);
}

TEST(Golden4x4, NaiveTotalsMatchTheSeed)
{
    const sim::Simulation r = sim::simulate(matmul("matmul-naive", 4, 4, 4, 2));
    ASSERT_EQ(r.error, "");
    const sim::Totals& t = r.counters.totals;
    EXPECT_EQ(t.global_loads, 128u);  // 16 threads x 4 iterations x 2
    EXPECT_EQ(t.global_stores, 16u);
    EXPECT_EQ(t.shared_loads, 0u);
    EXPECT_EQ(t.shared_stores, 0u);
    EXPECT_EQ(t.barriers, 0u);
    EXPECT_EQ(t.flops, 128u);
    EXPECT_TRUE(r.matchesReference);
    EXPECT_DOUBLE_EQ(sim::opsPerByte(t), 0.25);
}

TEST(Golden4x4, EveryInputElementIsLoadedTwiceTiledAndFourTimesNaive)
{
    const sim::Simulation tiled = sim::simulate(matmul("matmul-tiled", 4, 4, 4, 2));
    const sim::Simulation naive = sim::simulate(matmul("matmul-naive", 4, 4, 4, 2));
    for (const char* a : {"M", "N"}) {
        for (uint32_t n : tiled.counters.elementLoads[tiled.arrayIndex(a)]) EXPECT_EQ(n, 2u) << a;
        for (uint32_t n : naive.counters.elementLoads[naive.arrayIndex(a)]) EXPECT_EQ(n, 4u) << a;
    }
    // Each Mds/Nds slot: written once per phase per block (2 x 4), read by the 2 threads of
    // its row (Mds) or column (Nds) in 2 phases of 4 blocks.
    for (const char* a : {"Mds", "Nds"}) {
        for (uint32_t n : tiled.counters.elementStores[tiled.arrayIndex(a)]) EXPECT_EQ(n, 8u) << a;
        for (uint32_t n : tiled.counters.elementLoads[tiled.arrayIndex(a)]) EXPECT_EQ(n, 16u) << a;
    }
}

// A second way of counting: the traces of all four blocks, event by event. M[r][c] is
// loaded by thread (ty = r % 2, tx = c % 2) in phase c / 2 of the two blocks of block row
// r / 2; N[r][c] by thread (r % 2, c % 2) in phase r / 2 of the two blocks of block
// column c / 2 (PMPP sec. 5.4, Fig. 5.10).
TEST(Golden4x4, TracesOfAllBlocksNameWhoLoadsEachElement)
{
    using Who = std::tuple<unsigned, unsigned, unsigned, unsigned, int>;  // bx, by, ty, tx, phase
    using Key = std::pair<std::string, int>;  // array, element
    std::map<Key, std::set<Who>> loads;
    std::map<std::string, std::vector<uint32_t>> counted;
    for (unsigned by = 0; by < 2; ++by)
        for (unsigned bx = 0; bx < 2; ++bx) {
            const sim::Simulation r = sim::simulate(matmul("matmul-tiled", 4, 4, 4, 2, {bx, by, 0}));
            for (const sim::Step& s : r.trace.steps)
                for (int i = s.begin; i < s.end; ++i) {
                    const sim::Event& e = r.trace.events[i];
                    if (e.op != Op::GlobalLoad) continue;
                    const std::string& name = r.arrays[e.array].name;
                    loads[{name, e.index}].insert(Who{bx, by, e.thread / 2u, e.thread % 2u, s.phase});
                    counted[name].resize(16);
                    ++counted[name][e.index];
                }
            if (bx == 1 && by == 1) {
                EXPECT_EQ(counted["M"], r.counters.elementLoads[r.arrayIndex("M")]);
                EXPECT_EQ(counted["N"], r.counters.elementLoads[r.arrayIndex("N")]);
            }
        }
    for (unsigned row = 0; row < 4; ++row)
        for (unsigned col = 0; col < 4; ++col) {
            const int i = static_cast<int>(row * 4 + col);
            const std::set<Who> m{Who{0, row / 2, row % 2, col % 2, static_cast<int>(col / 2)},
                                  Who{1, row / 2, row % 2, col % 2, static_cast<int>(col / 2)}};
            const std::set<Who> n{Who{col / 2, 0, row % 2, col % 2, static_cast<int>(row / 2)},
                                  Who{col / 2, 1, row % 2, col % 2, static_cast<int>(row / 2)}};
            EXPECT_EQ(loads[Key("M", i)], m) << "M[" << row << "][" << col << "]";
            EXPECT_EQ(loads[Key("N", i)], n) << "N[" << row << "][" << col << "]";
        }
}

TEST(Golden4x4, StepsFollowTheSlides)
{
    const sim::Simulation r = sim::simulate(matmul("matmul-tiled", 4, 4, 4, 2));
    std::vector<std::string> labels;
    for (const sim::Step& s : r.trace.steps) labels.push_back(s.label);
    std::vector<std::string> expected;
    for (int ph = 0; ph < 2; ++ph) {
        const std::string p = "phase " + std::to_string(ph) + ": ";
        expected.insert(expected.end(),
                        {p + "load M tile into Mds", p + "load N tile into Nds", p + "barrier, __syncthreads()",
                         p + "use, iteration 0", p + "use, iteration 1", p + "barrier, __syncthreads()"});
    }
    expected.push_back("store P");
    EXPECT_EQ(labels, expected);
    EXPECT_EQ(r.trace.phaseStarts(), (std::vector<int>{0, 6}));
}

// PMPP Fig. 5.8, the execution phases: in phase p thread (ty, tx) of block (0,0) copies
// M[ty][2p + tx] into Mds[ty][tx] and N[2p + ty][tx] into Nds[ty][tx], then in iteration i
// multiplies Mds[ty][i] by Nds[i][tx].
TEST(Golden4x4, ExecutionPhasesTableOfBlock00)
{
    const sim::Simulation r = sim::simulate(matmul("matmul-tiled", 4, 4, 4, 2));
    const int M = r.arrayIndex("M"), N = r.arrayIndex("N");
    const int Mds = r.arrayIndex("Mds"), Nds = r.arrayIndex("Nds");
    for (int p = 0; p < 2; ++p)
        for (unsigned ty = 0; ty < 2; ++ty)
            for (unsigned tx = 0; tx < 2; ++tx) {
                const int slot = static_cast<int>(ty * 2 + tx);
                const std::vector<sim::Event> ev = threadEvents(r, tid(ty, tx, 2), p);
                // load M, store Mds, load N, store Nds, then (Mds, Nds, Fma) twice; after the
                // last barrier, phase 1 also holds the store of P.
                ASSERT_EQ(ev.size(), p == 1 ? 11u : 10u) << "thread (" << ty << "," << tx << ") phase " << p;
                EXPECT_EQ(ev[0].op, Op::GlobalLoad);
                EXPECT_EQ(ev[0].array, M);
                EXPECT_EQ(ev[0].index, static_cast<int>(ty * 4 + 2 * p + tx));
                EXPECT_EQ(ev[1].op, Op::SharedStore);
                EXPECT_EQ(ev[1].array, Mds);
                EXPECT_EQ(ev[1].index, slot);
                EXPECT_EQ(ev[1].value, r.M[ev[0].index]);
                EXPECT_EQ(ev[2].array, N);
                EXPECT_EQ(ev[2].index, static_cast<int>((2 * p + ty) * 4 + tx));
                EXPECT_EQ(ev[3].array, Nds);
                EXPECT_EQ(ev[3].index, slot);
                EXPECT_EQ(ev[3].value, r.N[ev[2].index]);
                for (int i = 0; i < 2; ++i) {
                    const sim::Event* use = &ev[4 + 3 * i];
                    EXPECT_EQ(use[0].op, Op::SharedLoad);
                    EXPECT_EQ(use[0].array, Mds);
                    EXPECT_EQ(use[0].index, static_cast<int>(ty * 2 + i));
                    EXPECT_EQ(use[1].array, Nds);
                    EXPECT_EQ(use[1].index, static_cast<int>(i * 2 + tx));
                    EXPECT_EQ(use[2].op, Op::Fma);
                }
                if (p == 1) {
                    EXPECT_EQ(ev[10].op, Op::GlobalStore);
                    EXPECT_EQ(ev[10].index, static_cast<int>(ty * 4 + tx));
                    EXPECT_EQ(ev[10].value, r.reference[ev[10].index]);
                }
            }
}

// PMPP sec. 5.3, the global memory accesses of block (0,0): thread (row, col)
// of the naive kernel reads M[row][k] and N[k][col] for k = 0..3, in that order.
TEST(Golden4x4, NaiveAccessTableOfBlock00)
{
    const sim::Simulation r = sim::simulate(matmul("matmul-naive", 4, 4, 4, 2));
    for (unsigned ty = 0; ty < 2; ++ty)
        for (unsigned tx = 0; tx < 2; ++tx) {
            std::vector<std::pair<std::string, int>> reads;
            for (const sim::Event& e : threadEvents(r, tid(ty, tx, 2)))
                if (e.op == Op::GlobalLoad) reads.emplace_back(r.arrays[e.array].name, e.index);
            std::vector<std::pair<std::string, int>> expected;
            for (int k = 0; k < 4; ++k) {
                expected.emplace_back("M", static_cast<int>(ty * 4 + k));
                expected.emplace_back("N", static_cast<int>(k * 4 + tx));
            }
            EXPECT_EQ(reads, expected) << "thread (" << ty << "," << tx << ")";
        }
}

}  // namespace
}  // namespace ts::test
