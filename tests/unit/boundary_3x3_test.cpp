// Example: 3x3 boundary checks, blocks (0,0) and (1,1) (PMPP sec. 5.5; presets boundary-3x3
// and boundary-3x3-block11; docs/references.md), checked on the simulator's trace.
#include <gtest/gtest.h>

#include "trace_query.hpp"

namespace ts::test {
namespace {

using sim::Op;

// "Phase 0 of Block(1,1), Thread(1,0), assigned to calculate non-existent P[3,2] but need
// to participate in loading tile element N[1,2]".
TEST(Boundary3x3, Block11Thread10LoadsN12ButComputesNothing)
{
    const sim::Simulation r = sim::simulate(matmul("matmul-tiled", 3, 3, 3, 2, {1, 1, 0}));
    ASSERT_EQ(r.error, "");
    const uint16_t t = tid(1, 0, 2);
    const std::vector<sim::Event> phase0 = threadEvents(r, t, 0);
    EXPECT_TRUE(has(r, phase0, Op::GlobalLoad, "N", 1 * 3 + 2));
    EXPECT_TRUE(has(r, phase0, Op::SharedStore, "Nds", 1 * 2 + 0));
    const std::vector<sim::Event> all = threadEvents(r, t);
    for (const sim::Event& e : all) {
        EXPECT_NE(e.op, Op::Fma) << "the thread computes no P element";
        EXPECT_NE(e.op, Op::GlobalStore) << "the thread writes no P element";
    }
    // Its M load would be row 3: zero fill.
    EXPECT_TRUE(has(r, phase0, Op::ZeroFill, "Mds", 1 * 2 + 0));
    EXPECT_FALSE(has(r, phase0, Op::GlobalLoad, "M"));
}

// "Phase 1 of Block(0,0), Thread(1,0), assigned to calculate valid P[1,0] but attempts to
// load non-existing N[3,0]": the boundary check writes 0 into its Nds slot instead.
TEST(Boundary3x3, Block00Thread10ZeroFillsInsteadOfLoadingN30)
{
    const sim::Simulation r = sim::simulate(matmul("matmul-tiled", 3, 3, 3, 2, {0, 0, 0}));
    ASSERT_EQ(r.error, "");
    const uint16_t t = tid(1, 0, 2);
    const std::vector<sim::Event> phase1 = threadEvents(r, t, 1);
    EXPECT_TRUE(has(r, phase1, Op::ZeroFill, "Nds", 1 * 2 + 0));
    EXPECT_FALSE(has(r, phase1, Op::GlobalLoad, "N"));
    // It still loads its valid M element M[1][2] and computes and writes P[1][0].
    EXPECT_TRUE(has(r, phase1, Op::GlobalLoad, "M", 1 * 3 + 2));
    EXPECT_TRUE(has(r, threadEvents(r, t), Op::GlobalStore, "P", 1 * 3 + 0));
    EXPECT_TRUE(r.matchesReference);
}

// Zero fills counted a second way: every tile slot whose element lies outside M or N.
TEST(Boundary3x3, ZeroFillsAreTheSlotsOutsideTheMatrices)
{
    const sim::Simulation r = sim::simulate(matmul("matmul-tiled", 3, 3, 3, 2));
    uint64_t outside = 0, inside = 0;
    for (int by = 0; by < 2; ++by)
        for (int bx = 0; bx < 2; ++bx)
            for (int ph = 0; ph < 2; ++ph)
                for (int ty = 0; ty < 2; ++ty)
                    for (int tx = 0; tx < 2; ++tx) {
                        const int row = by * 2 + ty, col = bx * 2 + tx, kk = ph * 2;
                        (row < 3 && kk + tx < 3 ? inside : outside)++;  // M tile
                        (kk + ty < 3 && col < 3 ? inside : outside)++;  // N tile
                    }
    EXPECT_EQ(r.counters.totals.zero_fills, outside);
    EXPECT_EQ(r.counters.totals.global_loads, inside);
    EXPECT_EQ(r.counters.totals.shared_stores, inside + outside);
    EXPECT_TRUE(r.matchesReference);
}

}  // namespace
}  // namespace ts::test
