// Replaying the traced block at a cursor, checked against the execution phases of PMPP
// Fig. 5.8 (preset tiled-4x4) and the 3x3 boundary checks of sec. 5.5 (preset boundary-3x3).
#include <gtest/gtest.h>

#include <cmath>

#include "sim/teaching/kernel_view.hpp"
#include "sim/engine/replay.hpp"
#include "sim/engine/simulate.hpp"

namespace ts::sim {
namespace {

/// Steps of the 4x4 TILE_WIDTH 2 trace, as the lecture walks them.
enum : int {
    kLoadM0 = 0, kLoadN0 = 1, kBarrier0 = 2, kUse0Iter0 = 3, kUse0Iter1 = 4, kBarrier1 = 5,
    kLoadM1 = 6, kLoadN1 = 7, kUse1Iter1 = 10, kStoreP = 12,
};

/// Linear thread index of (ty, tx) in a 2x2 block.
int thread(int ty, int tx) { return ty * 2 + tx; }

class Replay4x4 : public ::testing::Test {
protected:
    void SetUp() override
    {
        sim = simulate(Scenario{});   // matmul-tiled, 4x4x4, TILE_WIDTH 2, block (0,0)
        ASSERT_TRUE(sim.matchesReference);
        Mds = sim.arrayIndex("Mds");
        Nds = sim.arrayIndex("Nds");
        M = sim.arrayIndex("M");
        N = sim.arrayIndex("N");
        P = sim.arrayIndex("P");
        ASSERT_EQ(sim.trace.steps.size(), 13u);
        ASSERT_EQ(sim.trace.steps[kLoadM1].label, "phase 1: load M tile into Mds");
        ASSERT_EQ(sim.trace.steps[kUse0Iter1].label, "phase 0: use, iteration 1");
        ASSERT_EQ(sim.trace.steps[kStoreP].label, "store P");
    }
    /// Expects slot `slot` of shared array `a` to hold global element `src` of `srcArray`,
    /// written by `writer`.
    void expectSlot(const ReplayState& r, int a, int slot, int srcArray, int src, int writer)
    {
        const SlotView& v = r.slots[a][slot];
        const std::vector<float>& data = srcArray == M ? sim.M : sim.N;
        EXPECT_TRUE(v.written) << "slot " << slot;
        EXPECT_FALSE(v.zeroFilled) << "slot " << slot;
        EXPECT_EQ(v.sourceArray, srcArray) << "slot " << slot;
        EXPECT_EQ(v.sourceIndex, src) << "slot " << slot;
        EXPECT_EQ(v.value, data[src]) << "slot " << slot;
        EXPECT_EQ(v.writer, writer) << "slot " << slot;
    }
    Simulation sim;
    int Mds = -1, Nds = -1, M = -1, N = -1, P = -1;
};

TEST_F(Replay4x4, Phase0LoadsFillMdsAndNdsAsTheSeedTableSays)
{
    // PMPP Fig. 5.8, phase 0: thread (ty,tx) loads M[ty][tx] into Mds[ty][tx]
    // and N[ty][tx] into Nds[ty][tx].
    ReplayState r = replay(sim.trace, kLoadN0);
    expectSlot(r, Mds, 0, M, 0 * 4 + 0, thread(0, 0));
    expectSlot(r, Mds, 1, M, 0 * 4 + 1, thread(0, 1));
    expectSlot(r, Mds, 2, M, 1 * 4 + 0, thread(1, 0));
    expectSlot(r, Mds, 3, M, 1 * 4 + 1, thread(1, 1));
    expectSlot(r, Nds, 0, N, 0 * 4 + 0, thread(0, 0));
    expectSlot(r, Nds, 1, N, 0 * 4 + 1, thread(0, 1));
    expectSlot(r, Nds, 2, N, 1 * 4 + 0, thread(1, 0));
    expectSlot(r, Nds, 3, N, 1 * 4 + 1, thread(1, 1));
    for (int i : {0, 1, 4, 5}) {
        EXPECT_TRUE(r.element(M, i).inShared()) << i;
        EXPECT_TRUE(r.element(M, i).loadedThisPhase) << i;
        EXPECT_EQ(r.element(M, i).loadsSoFar, 1u) << i;
    }
    EXPECT_FALSE(r.element(M, 2).inShared());
    EXPECT_EQ(r.element(M, 2).loadsSoFar, 0u);
    // The cursor step (load N tile) wrote Nds and read N, nothing of M.
    EXPECT_TRUE(r.slots[Nds][3].writtenNow);
    EXPECT_FALSE(r.slots[Mds][3].writtenNow);
    EXPECT_TRUE(r.element(N, 5).readNow);
    EXPECT_FALSE(r.element(M, 5).readNow);
}

TEST_F(Replay4x4, Phase1LoadsReplaceTheTiles)
{
    // Phase 1: M[ty][2+tx] into Mds[ty][tx], N[2+ty][tx] into Nds[ty][tx].
    ReplayState r = replay(sim.trace, kLoadN1);
    expectSlot(r, Mds, 0, M, 0 * 4 + 2, thread(0, 0));
    expectSlot(r, Mds, 1, M, 0 * 4 + 3, thread(0, 1));
    expectSlot(r, Mds, 2, M, 1 * 4 + 2, thread(1, 0));
    expectSlot(r, Mds, 3, M, 1 * 4 + 3, thread(1, 1));
    expectSlot(r, Nds, 0, N, 2 * 4 + 0, thread(0, 0));
    expectSlot(r, Nds, 1, N, 2 * 4 + 1, thread(0, 1));
    expectSlot(r, Nds, 2, N, 3 * 4 + 0, thread(1, 0));
    expectSlot(r, Nds, 3, N, 3 * 4 + 1, thread(1, 1));
    // M[0][0] was loaded once, in phase 0, and has left shared memory.
    EXPECT_EQ(r.element(M, 0).loadsSoFar, 1u);
    EXPECT_FALSE(r.element(M, 0).loadedThisPhase);
    EXPECT_FALSE(r.element(M, 0).inShared());
    EXPECT_TRUE(r.element(M, 2).loadedThisPhase);
    EXPECT_EQ(r.phase, 1);
}

TEST_F(Replay4x4, PvalueFollowsTheFusedMultiplyAdds)
{
    const std::vector<float>& m = sim.M;
    const std::vector<float>& n = sim.N;
    // Thread (0,0) after phase 0: Pvalue = Mds[0][0]*Nds[0][0] + Mds[0][1]*Nds[1][0].
    const float after0 = std::fmaf(m[1], n[4], std::fmaf(m[0], n[0], 0.0f));
    ReplayState r = replay(sim.trace, kUse0Iter1);
    EXPECT_EQ(r.threads[thread(0, 0)].pvalue, after0);
    EXPECT_EQ(r.threads[thread(0, 0)].fmas, 2);
    // Thread (1,1) after phase 0: M[1][0]*N[0][1] + M[1][1]*N[1][1].
    EXPECT_EQ(r.threads[thread(1, 1)].pvalue, std::fmaf(m[5], n[5], std::fmaf(m[4], n[1], 0.0f)));
    // Iteration 1 reads Mds[ty][1] and Nds[1][tx]: slots 1, 3 of Mds and 2, 3 of Nds.
    EXPECT_FALSE(r.slots[Mds][0].readNow);
    EXPECT_TRUE(r.slots[Mds][1].readNow);
    EXPECT_FALSE(r.slots[Mds][2].readNow);
    EXPECT_TRUE(r.slots[Mds][3].readNow);
    EXPECT_FALSE(r.slots[Nds][0].readNow);
    EXPECT_TRUE(r.slots[Nds][2].readNow);
    EXPECT_TRUE(r.slots[Nds][3].readNow);

    // After phase 1 the accumulator goes on from the phase-0 value, in k order.
    r = replay(sim.trace, kUse1Iter1);
    const float after1 = std::fmaf(m[3], n[12], std::fmaf(m[2], n[8], after0));
    EXPECT_EQ(r.threads[thread(0, 0)].pvalue, after1);
    EXPECT_EQ(after1, sim.reference[0]);
}

TEST_F(Replay4x4, StorePFinishesTheBlocksElements)
{
    ReplayState before = replay(sim.trace, kStoreP - 1);
    ReplayState r = replay(sim.trace, kStoreP);
    for (int ty = 0; ty < 2; ++ty)
        for (int tx = 0; tx < 2; ++tx) {
            const int idx = ty * 4 + tx;
            EXPECT_FALSE(before.element(P, idx).stored);
            EXPECT_TRUE(r.element(P, idx).stored);
            EXPECT_EQ(r.element(P, idx).storedValue, sim.reference[idx]);
            EXPECT_TRUE(r.threads[thread(ty, tx)].stored);
            EXPECT_TRUE(r.threads[thread(ty, tx)].hasOutput);
            EXPECT_EQ(r.threads[thread(ty, tx)].outputIndex, idx);
        }
    EXPECT_FALSE(r.element(P, 2).stored);   // block (1,0)'s element
}

TEST_F(Replay4x4, CountsAtTheLastStepEqualTheSimulatorsBlockCounters)
{
    // A second, independent count: the replayed events against Counters::perBlock.
    ReplayState r = replay(sim.trace, static_cast<int>(sim.trace.steps.size()) - 1);
    const Totals& b = sim.counters.perBlock.at(0);
    EXPECT_EQ(r.soFar.global_loads, b.global_loads);
    EXPECT_EQ(r.soFar.global_loads, 16u);
    EXPECT_EQ(r.soFar.shared_loads, b.shared_loads);
    EXPECT_EQ(r.soFar.shared_stores, b.shared_stores);
    EXPECT_EQ(r.soFar.global_stores, b.global_stores);
    EXPECT_EQ(r.soFar.flops, b.flops);
    EXPECT_EQ(r.soFar.barriers, b.barriers);
}

TEST_F(Replay4x4, MovingTheCursorAgreesWithReplayingFromTheStart)
{
    const int n = static_cast<int>(sim.trace.steps.size());
    ReplayState moving = replay(sim.trace, -1);
    for (int c : {0, 1, 4, 3, 12, 5, 6, 11, 0, 12}) {
        moveTo(moving, sim.trace, c);
        ReplayState fresh = replay(sim.trace, c);
        ASSERT_EQ(moving.cursor, c);
        EXPECT_EQ(moving.phase, fresh.phase) << c;
        EXPECT_EQ(moving.soFar.global_loads, fresh.soFar.global_loads) << c;
        for (int a : {Mds, Nds})
            for (size_t s = 0; s < fresh.slots[a].size(); ++s) {
                EXPECT_EQ(moving.slots[a][s].value, fresh.slots[a][s].value) << c;
                EXPECT_EQ(moving.slots[a][s].readNow, fresh.slots[a][s].readNow) << c;
                EXPECT_EQ(moving.slots[a][s].writtenNow, fresh.slots[a][s].writtenNow) << c;
            }
        for (int a : {M, N})
            for (int i = 0; i < 16; ++i) {
                EXPECT_EQ(moving.element(a, i).loadedThisPhase, fresh.element(a, i).loadedThisPhase) << c;
                EXPECT_EQ(moving.element(a, i).readNow, fresh.element(a, i).readNow) << c;
                EXPECT_EQ(moving.element(a, i).inShared(), fresh.element(a, i).inShared()) << c;
            }
    }
    EXPECT_THROW(replay(sim.trace, n), std::out_of_range);
    EXPECT_THROW(moveTo(moving, sim.trace, -2), std::out_of_range);
}

TEST(Replay3x3, BoundaryThreadsLoadWithoutAnOutputAndZeroFill)
{
    // PMPP sec. 5.5, preset boundary-3x3: 3x3, TILE_WIDTH 2.
    Scenario s;
    s.j = s.k = s.l = 3;
    s.block = Uint3{1, 1, 0};
    Simulation sim = simulate(s);
    ASSERT_TRUE(sim.matchesReference);
    const int N = sim.arrayIndex("N"), Nds = sim.arrayIndex("Nds");
    // Block (1,1), thread (ty=1, tx=0): Row 3 is past j=3, so no P element, yet in phase 0
    // it loads N[1][2] into Nds[1][0].
    const int t10 = 1 * 2 + 0;
    ReplayState r = replay(sim.trace, 1);   // phase 0: load N tile
    ASSERT_EQ(sim.trace.steps[1].label, "phase 0: load N tile into Nds");
    EXPECT_FALSE(r.threads[t10].hasOutput);
    EXPECT_EQ(r.slots[Nds][2].writer, t10);
    EXPECT_EQ(r.slots[Nds][2].sourceIndex, 1 * 3 + 2);
    EXPECT_EQ(r.slots[Nds][2].value, sim.N[1 * 3 + 2]);
    EXPECT_EQ(r.element(N, 1 * 3 + 2).loadsSoFar, 1u);

    // Block (0,0), thread (1,0): in phase 1 it zero-fills Nds[1][0] instead of loading
    // the non-existent N[3][0].
    s.block = Uint3{0, 0, 0};
    sim = simulate(s);
    int loadN1 = -1;
    for (size_t i = 0; i < sim.trace.steps.size(); ++i)
        if (sim.trace.steps[i].label == "phase 1: load N tile into Nds") loadN1 = static_cast<int>(i);
    ASSERT_GE(loadN1, 0);
    r = replay(sim.trace, loadN1);
    const SlotView& slot = r.slots[Nds][2];
    EXPECT_TRUE(slot.zeroFilled);
    EXPECT_EQ(slot.writer, t10);
    EXPECT_EQ(slot.value, 0.0f);
    EXPECT_EQ(slot.sourceIndex, -1);
    EXPECT_TRUE(slot.writtenNow);
    EXPECT_TRUE(r.threads[t10].hasOutput);
    // Phase 1 zero-fills Mds[0][1], Mds[1][1] (column 3 of M) and Nds[1][0], Nds[1][1]
    // (row 3 of N): four slots.
    EXPECT_EQ(r.soFar.zero_fills, 4u);
}

}  // namespace
}  // namespace ts::sim

// On the register-tiled rungs a thread stores many elements of P: the Threads panel names
// its first, Pvalue[0][0] (warp-tiled, TILE 64, 128 x 16 x 64: thread (tx, ty) = (1, 5) is
// lane 9 of warp 1, rows from 64 + 4, columns from 4; its last store would be P[119][39]).
TEST(ReplayRungs, ThreadsOutputIsItsFirstElement)
{
    const ts::sim::Scenario s = ts::sim::matmulScenario("matmul-warptiled", 128, 16, 64, 64, {0, 0});
    const ts::sim::Simulation r = ts::sim::simulate(s);
    ASSERT_EQ(r.error, "");
    const ts::sim::ReplayState st = ts::sim::replay(r.trace, 0);
    const ts::sim::ThreadView& th = st.threads[5 * 8 + 1];
    ASSERT_TRUE(th.hasOutput);
    EXPECT_EQ(th.outputIndex, 68 * 64 + 4);
    const auto first = ts::sim::threadElement(r.trace, r.arrayIndex("P"), 5 * 8 + 1);
    ASSERT_TRUE(first);
    EXPECT_EQ(th.outputIndex, first->row * 64 + first->col);
    EXPECT_EQ(ts::sim::storesOf(r.trace, r.arrayIndex("P"), 5 * 8 + 1).back(), 119 * 64 + 39);
}
