// PMPP ch. 11's scans (registry rows scan-sequential, scan-kogge-stone, -exclusive,
// -double-buffer, scan-brent-kung, scan-coarsened) against figures found other ways: the adds
// of PMPP's formulas (sequential n - 1, Kogge-Stone n log2 n - (n - 1), Brent-Kung
// 2n - 2 - log2 n), the same adds counted here from each figure's loop bounds, the network
// read from the trace (a second count of the adds, from the events), the scan computed here
// element by element, and the race without Fig. 11.3's second barrier.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "kernels/context.cuh"
#include "kernels/scan_coarsened.cuh"
#include "sim/engine/array_formula.hpp"
#include "sim/engine/simulate.hpp"
#include "sim/teaching/scan_network.hpp"

namespace ts::sim {
namespace {

Scenario scan(const std::string& kernel, int n, int tile)
{
    Scenario s;
    s.kernel = kernel;
    s.height = 1;
    s.width = n;
    s.tile = tile;
    return s;
}

Simulation run(const Scenario& s)
{
    SimOptions o;
    o.trace = true;
    o.threads = 1;
    return simulate(s, o);
}

/// The inclusive (or exclusive) scan of `x`, added here in index order.
std::vector<float> scanOf(const std::vector<float>& x, bool exclusive = false)
{
    std::vector<float> y(x.size());
    float sum = 0.0f;
    for (size_t i = 0; i < x.size(); ++i) {
        if (exclusive) y[i] = sum;
        sum += x[i];
        if (!exclusive) y[i] = sum;
    }
    return y;
}

/// Kogge-Stone's adds counted from Fig. 11.3's loop: at stride s, threads s..n-1 add.
uint64_t koggeStoneLoop(uint64_t n)
{
    uint64_t adds = 0;
    for (uint64_t s = 1; s < n; s *= 2) adds += n - s;
    return adds;
}
/// Brent-Kung's from Fig. 11.7's two loops over a section of n: the indices (t + 1) * 2s - 1
/// below n, then those whose index + s is.
uint64_t brentKungLoops(uint64_t n)
{
    uint64_t adds = 0;
    for (uint64_t s = 1; s <= n / 2; s *= 2)
        for (uint64_t t = 0; t < n / 2; ++t) adds += (t + 1) * 2 * s - 1 < n;
    for (uint64_t s = n / 4; s > 0; s /= 2)
        for (uint64_t t = 0; t < n / 2; ++t) adds += (t + 1) * 2 * s - 1 + s < n;
    return adds;
}

TEST(Scan, AddsEqualPmppsFormulasAndTheTrace)
{
    struct Case {
        const char* kernel;
        int n, tile;
        uint64_t adds, steps;
    };
    const Case cases[] = {
        {"scan-sequential", 16, 1, 15, 15},
        {"scan-sequential", 1024, 1, 1023, 1023},
        {"scan-sequential", 2048, 1, 2047, 2047},
        {"scan-kogge-stone", 16, 16, 49, 4},
        {"scan-kogge-stone", 1024, 1024, 9217, 10},
        {"scan-kogge-stone-double-buffer", 16, 16, 49, 4},
        {"scan-kogge-stone-double-buffer", 1024, 1024, 9217, 10},
        {"scan-kogge-stone-exclusive", 1024, 1024, 9217, 10},
        {"scan-brent-kung", 16, 8, 26, 7},
        {"scan-brent-kung", 1024, 512, 2036, 19},
        {"scan-brent-kung", 2048, 1024, 4083, 21},
    };
    for (const Case& c : cases) {
        SCOPED_TRACE(std::string(c.kernel) + " at n = " + std::to_string(c.n));
        const uint64_t n = static_cast<uint64_t>(c.n);
        const std::string k = c.kernel;
        const uint64_t formula = k == "scan-sequential" ? sequentialScanAdds(n)
                                 : k == "scan-brent-kung" ? brentKungAdds(n)
                                                          : koggeStoneAdds(n);
        const uint64_t loops = k == "scan-sequential" ? n - 1 : k == "scan-brent-kung" ? brentKungLoops(n) : koggeStoneLoop(n);
        EXPECT_EQ(formula, c.adds);
        EXPECT_EQ(loops, c.adds);
        const Simulation r = run(scan(c.kernel, c.n, c.tile));
        ASSERT_EQ(r.error, "");
        EXPECT_TRUE(r.matchesReference);
        EXPECT_EQ(r.P, scanOf(r.M, k == "scan-kogge-stone-exclusive"));
        EXPECT_EQ(r.counters.totals.fadds, c.adds);
        const ScanNetwork net = scanNetwork(r.trace);
        EXPECT_EQ(net.adds, r.counters.totals.fadds);
        EXPECT_EQ(static_cast<uint64_t>(net.steps), c.steps);
        EXPECT_EQ(r.hazards.raw + r.hazards.war + r.hazards.waw + r.hazards.uninitialised, 0u);
    }
}

TEST(Scan, KoggeStoneKnowsKoggeStoneAt2048OnlyAsAFormula)
{
    // n log2 n - (n - 1) at n = 2048 is 20 481; Fig. 11.3 needs a thread an element, and a
    // block has at most 1024, so its one-section launch refuses 2048 in one sentence.
    EXPECT_EQ(koggeStoneAdds(2048), 20481u);
    EXPECT_EQ(koggeStoneLoop(2048), 20481u);
    EXPECT_EQ(validate(scan("scan-kogge-stone", 2048, 1024)),
              "scan-kogge-stone scans one section of 1024 elements (one per thread of its one block of 1024), so N must be at most 1024; got 2048.");
    EXPECT_EQ(validate(scan("scan-brent-kung", 2049, 1024)),
              "scan-brent-kung scans one section of 2048 elements (2 per thread of its one block of 1024), so N must be at most 2048; got 2049.");
}

TEST(Scan, RaggedLengthsMatchTheScanComputedHere)
{
    for (const char* kernel : {"scan-kogge-stone", "scan-kogge-stone-exclusive", "scan-kogge-stone-double-buffer",
                               "scan-brent-kung", "scan-coarsened"})
        for (int n : {1, 5, 27, 100}) {
            SCOPED_TRACE(std::string(kernel) + " at n = " + std::to_string(n));
            const Scenario s = scan(kernel, n, 128);
            ASSERT_EQ(validate(s), "");
            const Simulation r = run(s);
            ASSERT_EQ(r.error, "");
            EXPECT_TRUE(r.matchesReference);
            EXPECT_EQ(r.P, scanOf(r.M, std::string(kernel) == "scan-kogge-stone-exclusive"));
        }
}

TEST(Scan, TheCoarsenedScanAddsItsThreePhases)
{
    // 16 threads of SCAN_COARSE_FACTOR = 4 elements: 16 x 3 sequential adds, Kogge-Stone over
    // 16 subsection ends, then 15 x 3 adds of a predecessor's end.
    const uint64_t b = 16, cf = kernels::SCAN_COARSE_FACTOR;
    const Simulation r = run(scan("scan-coarsened", 64, 16));
    ASSERT_EQ(r.error, "");
    EXPECT_TRUE(r.matchesReference);
    EXPECT_EQ(r.counters.totals.fadds, b * (cf - 1) + koggeStoneAdds(b) + (b - 1) * (cf - 1));
    const ScanNetwork net = scanNetwork(r.trace);
    EXPECT_EQ(net.adds, r.counters.totals.fadds);
    EXPECT_EQ(net.steps, static_cast<int>((cf - 1) + 4 + (cf - 1)));
}

TEST(Scan, TheNetworkIsPmppsFigure)
{
    // Fig. 11.2: at the level of stride s, thread t >= s adds XY[t - s] into XY[t].
    const Simulation ks = run(scan("scan-kogge-stone", 16, 16));
    const ScanNetwork a = scanNetwork(ks.trace);
    ASSERT_GE(a.array, 0);
    EXPECT_EQ(ks.trace.arrays[static_cast<size_t>(a.array)].name, "XY");
    ASSERT_EQ(a.levels.size(), 5u);   // the load, then strides 1, 2, 4, 8
    EXPECT_EQ(a.levels[0].adds, 0);
    for (size_t k = 1; k < a.levels.size(); ++k) {
        const int s = 1 << (k - 1);
        const ScanLevel& l = a.levels[k];
        EXPECT_EQ(l.stride, s);
        EXPECT_EQ(l.activeThreads, 16 - s);
        for (const ScanOp& op : l.ops) {
            EXPECT_EQ(op.target, op.thread);
            ASSERT_EQ(op.sources.size(), 2u);
            EXPECT_EQ(op.sources[0], op.target);
            EXPECT_EQ(op.sources[1], op.target - s);
        }
    }
    // Fig. 11.4's Brent-Kung: the reduction tree's strides 1, 2, 4, 8, then 4, 2, 1.
    const Simulation bk = run(scan("scan-brent-kung", 16, 8));
    const ScanNetwork b = scanNetwork(bk.trace);
    std::vector<int> strides, active;
    for (const ScanLevel& l : b.levels)
        if (l.adds) strides.push_back(l.stride), active.push_back(l.activeThreads);
    EXPECT_EQ(strides, (std::vector<int>{1, 2, 4, 8, 4, 2, 1}));
    EXPECT_EQ(active, (std::vector<int>{8, 4, 2, 1, 1, 3, 7}));
    // The double buffer writes the other half: a level's targets lie in one row of XY.
    const Simulation db = run(scan("scan-kogge-stone-double-buffer", 16, 16));
    const ScanNetwork c = scanNetwork(db.trace);
    EXPECT_TRUE(c.doubleBuffer);
    EXPECT_EQ(c.section, 16);
    for (size_t k = 1; k < c.levels.size(); ++k)
        for (const ScanOp& op : c.levels[k].ops) EXPECT_EQ(op.target / 16, static_cast<int>(k % 2)) << "level " << k;
}

TEST(Scan, KoggeStoneWithoutItsSecondBarrierRaces)
{
    Scenario s = scan("scan-kogge-stone", 16, 16);
    s.dropBarriers = kernels::AFTER_COMPUTE;
    ASSERT_EQ(validate(s), "");
    const Simulation r = run(s);
    ASSERT_EQ(r.error, "");
    // A thread writes XY[t] (the `XY[x.threadIdx.x] = temp;` line) while thread t + s has yet
    // to read it for the same step (`temp = XY[...] + XY[... - stride]`): write after read,
    // and the prefix it leaves is wrong.
    EXPECT_GT(r.hazards.war, 0u);
    EXPECT_EQ(r.hazards.raw, 0u);
    ASSERT_FALSE(r.hazards.sites.empty());
    for (const HazardSite& h : r.hazards.sites) {
        EXPECT_EQ(h.kind, HazardKind::WAR);
        EXPECT_EQ(r.trace.arrays.at(h.array).name, "XY");
        EXPECT_EQ(h.firstLine, 34u);    // temp = XY[x.threadIdx.x] + XY[x.threadIdx.x - stride];
        EXPECT_EQ(h.secondLine, 38u);   // XY[x.threadIdx.x] = temp;
    }
    EXPECT_FALSE(r.matchesReference);
    // The double buffer has no second barrier to drop and no race.
    const Simulation db = run(scan("scan-kogge-stone-double-buffer", 1024, 1024));
    EXPECT_EQ(db.hazards.raw + db.hazards.war + db.hazards.waw, 0u);
}

TEST(Scan, RangedSumInAFormula)
{
    std::vector<float> x{3, 1, 7, 0, 4, 1, 6, 3};
    FormulaArray in{"X", 1, 8, false, &x};
    FormulaArray out{"Y", 1, 8, false, nullptr};
    const Variables sizes{{"N", 8}};
    uint64_t flops = 0;
    std::string error;
    ArrayFormula inclusive;
    ASSERT_EQ(inclusive.parse("Y[i] = sum(X, 0, i)", out, {in}, sizes), "");
    EXPECT_EQ(inclusive.evaluateAll(sizes, flops, error), (std::vector<float>{3, 4, 11, 11, 15, 16, 22, 25}));
    ArrayFormula exclusive;
    ASSERT_EQ(exclusive.parse("Y[i] = sum(X, 0, i - 1)", out, {in}, sizes), "");
    EXPECT_EQ(exclusive.evaluateAll(sizes, flops, error), (std::vector<float>{0, 3, 4, 11, 11, 15, 16, 22}));
    ArrayFormula window;
    ASSERT_EQ(window.parse("Y[i] = sum(X, i - 1, i + 1)", out, {in}, sizes), "");
    EXPECT_EQ(window.evaluateAll(sizes, flops, error), (std::vector<float>{4, 11, 8, 11, 5, 11, 10, 9}));
    float one = 0;
    ASSERT_TRUE(window.element(0, 3, sizes, one, flops, error));
    EXPECT_EQ(one, 11.0f);
    ArrayFormula bad;
    EXPECT_EQ(bad.parse("Y[i] = sum(X, 0)", out, {in}, sizes),
              "cannot read the reference formula: sum takes the name of an input array, and optionally a first and last index: sum(X) or sum(X, first, last)");
}

}  // namespace
}  // namespace ts::sim
