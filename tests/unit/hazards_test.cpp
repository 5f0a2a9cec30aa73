// The hazard detector (PMPP sec. 5.4, the two barriers; presets missing-barrier-*): with
// both barriers a tiled kernel has no shared-memory hazard; without the first, reads race
// with the loads (RAW); without the second, next-phase loads race with the reads (WAR).
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <cmath>

#include "kernels/context.cuh"
#include "trace_query.hpp"

namespace ts::test {
namespace {

sim::Simulation run(int width, int tile, unsigned drop, sim::Schedule sched = sim::Schedule::InOrder,
                    bool trace = false)
{
    sim::SimOptions o;
    o.trace = trace;
    o.schedule = sched;
    sim::Scenario s = matmul("matmul-tiled", width, width, width, tile);
    s.dropBarriers = drop;
    return sim::simulate(s, o);
}

TEST(Hazards, NoneWithBothBarriers)
{
    for (int tile : {2, 4, 8, 16, 32})
        for (int width : {1, 7, 33, 64}) {
            const sim::Simulation r = run(width, tile, 0, sim::Schedule::Random);
            EXPECT_EQ(r.hazards.raw, 0u) << width << " tile " << tile;
            EXPECT_EQ(r.hazards.war, 0u) << width << " tile " << tile;
            EXPECT_EQ(r.hazards.waw, 0u) << width << " tile " << tile;
            EXPECT_TRUE(r.matchesReference);
        }
    // The naive kernel has no shared memory at all.
    EXPECT_EQ(sim::simulate(matmul("matmul-naive", 40, 40, 40, 16)).hazards.raw, 0u);
}

TEST(Hazards, DroppingTheBarrierAfterTheLoadsGivesReadAfterWrite)
{
    const sim::Simulation r = run(64, 16, kernels::AFTER_LOAD);
    EXPECT_GT(r.hazards.raw, 0u);
    // Every site pairs a tile store (Mds or Nds) with the inner-product read.
    bool sawRaw = false;
    for (const sim::HazardSite& s : r.hazards.sites)
        if (s.kind == sim::HazardKind::RAW) {
            sawRaw = true;
            const std::string name = r.arrays.at(s.array).name;
            EXPECT_TRUE(name == "Mds" || name == "Nds");
            EXPECT_NE(s.firstLine, s.secondLine);
        }
    EXPECT_TRUE(sawRaw);
    // Run backwards, the later warps read tiles the earlier ones have not loaded yet.
    EXPECT_FALSE(run(64, 16, kernels::AFTER_LOAD, sim::Schedule::Reverse).matchesReference);
}

TEST(Hazards, DroppingTheBarrierAfterTheComputeGivesWriteAfterRead)
{
    const sim::Simulation r = run(64, 16, kernels::AFTER_COMPUTE);
    EXPECT_GT(r.hazards.war, 0u);
}

// A second, independent count: replay the traced block's events, pair every shared write
// with every access to its slot by another thread in the same barrier interval, and order
// each pair by program order (position among the thread's shared accesses since the barrier).
TEST(Hazards, TracedBlockAgreesWithABruteForceCount)
{
    for (unsigned drop : {0u, unsigned(kernels::AFTER_LOAD), unsigned(kernels::AFTER_COMPUTE)}) {
        sim::Scenario s = matmul("matmul-tiled", 4, 12, 4, 4);  // one block, three phases
        s.dropBarriers = drop;
        const sim::Simulation r = sim::simulate(s);
        std::vector<sim::Event> ev = r.trace.events;
        std::sort(ev.begin(), ev.end(), [](const sim::Event& a, const sim::Event& b) { return a.seq < b.seq; });
        auto isWrite = [](const sim::Event& e) { return e.op == sim::Op::SharedStore || e.op == sim::Op::ZeroFill; };
        auto isShared = [&](const sim::Event& e) { return isWrite(e) || e.op == sim::Op::SharedLoad; };
        std::vector<int> intervalOf(ev.size()), ordinal(ev.size());
        std::map<int, int> perThread;
        int interval = 0;
        for (size_t i = 0; i < ev.size(); ++i) {
            if (ev[i].op == sim::Op::Barrier) {
                ++interval;
                perThread.clear();
            }
            intervalOf[i] = interval;
            if (isShared(ev[i])) ordinal[i] = perThread[ev[i].thread]++;
        }
        bool raw = false, war = false;
        uint64_t stale = 0, staleFlags = 0;
        for (size_t i = 0; i < ev.size(); ++i) {
            if (ev[i].op == sim::Op::SharedLoad) {
                staleFlags += (ev[i].flags & sim::kStale) != 0;
                bool staleHere = std::isnan(ev[i].value);
                for (size_t w = i + 1; w < ev.size(); ++w)
                    if (isWrite(ev[w]) && ev[w].array == ev[i].array && ev[w].index == ev[i].index &&
                        intervalOf[w] == intervalOf[i] && ev[w].thread != ev[i].thread)
                        staleHere = true;
                stale += staleHere;
            }
            if (!isWrite(ev[i])) continue;
            for (size_t a = 0; a < ev.size(); ++a) {
                if (ev[a].op != sim::Op::SharedLoad || ev[a].array != ev[i].array || ev[a].index != ev[i].index) continue;
                if (intervalOf[a] != intervalOf[i] || ev[a].thread == ev[i].thread) continue;
                const bool writeFirst = ordinal[i] < ordinal[a] || (ordinal[i] == ordinal[a] && i < a);
                (writeFirst ? raw : war) = true;
            }
        }
        EXPECT_EQ(stale, staleFlags) << "drop " << drop;
        EXPECT_EQ(r.hazards.raw > 0, raw) << "drop " << drop;
        EXPECT_EQ(r.hazards.war > 0, war) << "drop " << drop;
        if (drop == 0) EXPECT_EQ(stale, 0u);
        if (drop == kernels::AFTER_LOAD) {
            EXPECT_TRUE(raw);
            EXPECT_GT(stale, 0u);
        }
        if (drop == kernels::AFTER_COMPUTE) EXPECT_TRUE(war);
    }
}

// Like racecheck, the kind follows program order, not the schedule: dropping the barrier
// after the loads is a read-after-write problem whichever warp runs first.
TEST(Hazards, KindDoesNotDependOnTheSchedule)
{
    for (sim::Schedule sched : {sim::Schedule::InOrder, sim::Schedule::Reverse, sim::Schedule::Random}) {
        const sim::Simulation load = run(64, 16, kernels::AFTER_LOAD, sched);
        EXPECT_GT(load.hazards.raw, 0u);
        EXPECT_EQ(load.hazards.war, 0u);
        const sim::Simulation compute = run(64, 16, kernels::AFTER_COMPUTE, sched);
        EXPECT_GT(compute.hazards.war, 0u);
        EXPECT_EQ(compute.hazards.raw, 0u);
    }
}

TEST(Hazards, ReportNamesBothLinesLikeRacecheck)
{
    const sim::Simulation r = run(32, 16, kernels::AFTER_LOAD);
    const std::string rep = r.hazards.report(r.arrays, r.block);
    EXPECT_NE(rep.find("RAW hazard on shared Mds"), std::string::npos) << rep;
    EXPECT_NE(rep.find("then read at line"), std::string::npos) << rep;
}

}  // namespace
}  // namespace ts::test
