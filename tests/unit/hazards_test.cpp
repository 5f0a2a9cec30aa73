// The hazard detector (issue 4; seed 001's barrier table): with both barriers a tiled
// kernel has no shared-memory hazard; without the first, reads race with the loads (RAW);
// without the second, next-phase loads race with the reads (WAR).
#include <gtest/gtest.h>

#include <algorithm>
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

// A second, independent count: replay the traced block's events and pair every shared read
// with the writes to its slot in the same barrier interval by other threads.
TEST(Hazards, TracedBlockAgreesWithABruteForceCount)
{
    for (unsigned drop : {0u, unsigned(kernels::AFTER_LOAD), unsigned(kernels::AFTER_COMPUTE)}) {
        sim::Scenario s = matmul("matmul-tiled", 4, 12, 4, 4);  // one block, three phases
        s.dropBarriers = drop;
        const sim::Simulation r = sim::simulate(s);
        std::vector<sim::Event> ev = r.trace.events;
        std::sort(ev.begin(), ev.end(), [](const sim::Event& a, const sim::Event& b) { return a.seq < b.seq; });
        uint64_t raw = 0, stale = 0, staleFlags = 0;
        int interval = 0;
        std::vector<int> intervalOf(ev.size());
        for (size_t i = 0; i < ev.size(); ++i) {
            if (ev[i].op == sim::Op::Barrier) ++interval;
            intervalOf[i] = interval;
        }
        for (size_t i = 0; i < ev.size(); ++i) {
            if (ev[i].op != sim::Op::SharedLoad) continue;
            staleFlags += (ev[i].flags & sim::kStale) != 0;
            bool rawHere = false, staleHere = std::isnan(ev[i].value);
            for (size_t w = 0; w < ev.size(); ++w) {
                const bool write = ev[w].op == sim::Op::SharedStore || ev[w].op == sim::Op::ZeroFill;
                if (!write || ev[w].array != ev[i].array || ev[w].index != ev[i].index) continue;
                if (intervalOf[w] != intervalOf[i] || ev[w].thread == ev[i].thread) continue;
                if (w < i) rawHere = true;     // the last writer may be this thread; any other counts
                if (w > i) staleHere = true;
            }
            raw += rawHere;
            stale += staleHere;
        }
        EXPECT_EQ(stale, staleFlags) << "drop " << drop;
        if (drop == 0) {
            EXPECT_EQ(raw, 0u);
            EXPECT_EQ(stale, 0u);
        }
        if (drop == kernels::AFTER_LOAD) EXPECT_GT(stale, 0u);
        // The detector counts a read as RAW when the slot's last writer is another thread.
        EXPECT_LE(r.hazards.raw, raw) << "drop " << drop;
        EXPECT_EQ(r.hazards.raw > 0, raw > 0) << "drop " << drop;
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
