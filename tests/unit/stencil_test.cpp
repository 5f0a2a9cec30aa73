// PMPP Fig. 8.6, the basic 3D seven-point stencil (registry row stencil-basic, preset
// stencil-basic-8), against figures found another way: PMPP's counts per interior point, the
// per-element loads counted from the stencil's shape, the output computed here point by point,
// and the warp memory figures Nsight Compute gave for the same launch on an H200
// (docs/measurements/stencil-h200.txt).
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>

#include "sim/engine/simulate.hpp"
#include "sim/files/scenario_file.hpp"

namespace ts::sim {
namespace {

Scenario stencil(int n, int edge)
{
    Scenario s;
    s.kernel = "stencil-basic";
    s.height = 1;
    s.width = n;
    s.tile = edge;
    return s;
}

Simulation run(const Scenario& s)
{
    SimOptions o;
    o.trace = false;
    o.threads = 2;
    return simulate(s, o);
}

TEST(Stencil, PmppCountsPerInteriorPoint)
{
    for (auto [n, edge] : {std::pair{8, 4}, std::pair{37, 8}, std::pair{3, 2}, std::pair{2, 2}, std::pair{1, 1}}) {
        SCOPED_TRACE("N " + std::to_string(n) + ", block edge " + std::to_string(edge));
        const Scenario s = stencil(n, edge);
        ASSERT_EQ(validate(s), "");
        const Simulation r = run(s);
        ASSERT_EQ(r.error, "");
        EXPECT_TRUE(r.matchesReference);
        const uint64_t interior = n > 2 ? 1ull * (n - 2) * (n - 2) * (n - 2) : 0;
        // Seven loads and one store per interior point; 13 flops (a product and six fused
        // multiply-adds), PMPP's 13 / (7 x 4) = 0.46 OP/B.
        EXPECT_EQ(r.counters.totals.global_loads, 7 * interior);
        EXPECT_EQ(r.counters.totals.global_stores, interior);
        EXPECT_EQ(r.referenceFlops, 13 * interior);
        if (interior) EXPECT_NEAR(static_cast<double>(r.referenceFlops) / (4.0 * r.counters.totals.global_loads), 0.464, 0.001);
    }
}

TEST(Stencil, EveryElementAndItsLoadsComputedAnotherWay)
{
    const int n = 11;
    const Simulation r = run(stencil(n, 4));
    ASSERT_EQ(r.error, "");
    ASSERT_EQ(r.M.size(), static_cast<size_t>(n * n * n));
    ASSERT_EQ(r.P.size(), r.M.size());
    auto at = [&](int i, int j, int k) { return static_cast<size_t>((i * n + j) * n + k); };
    std::vector<uint32_t> loads(r.M.size(), 0);
    const float poison = std::nanf("");
    for (int i = 0; i < n; ++i)
        for (int j = 0; j < n; ++j)
            for (int k = 0; k < n; ++k) {
                const float got = r.P[at(i, j, k)];
                if (i < 1 || i >= n - 1 || j < 1 || j >= n - 1 || k < 1 || k >= n - 1) {
                    EXPECT_EQ(std::memcmp(&got, &poison, sizeof got), 0) << "boundary point " << i << "," << j << "," << k << " written";
                    continue;
                }
                const size_t nb[7] = {at(i, j, k),     at(i, j, k - 1), at(i, j, k + 1), at(i, j - 1, k),
                                      at(i, j + 1, k), at(i - 1, j, k), at(i + 1, j, k)};
                for (size_t e : nb) ++loads[e];
                // As nvcc contracts c0*a + c1*b + ...: the first product fused with the
                // second (rounded), then each next product fused with the sum.
                const float* in = r.M.data();
                float v = std::fmaf(0.4f, in[nb[0]], 0.1f * in[nb[1]]);
                for (int t = 2; t < 7; ++t) v = std::fmaf(0.1f, in[nb[t]], v);
                EXPECT_EQ(std::memcmp(&got, &v, sizeof v), 0) << "point " << i << "," << j << "," << k;
            }
    EXPECT_EQ(r.counters.elementLoads[0], loads);
}

TEST(Stencil, WarpMemoryEqualsNsightComputeOnAnH200)
{
    // N 37 with 8 x 8 x 8 blocks: 5 x 5 x 5 blocks, ragged on every axis.
    SimOptions o;
    o.trace = false;
    o.memoryModel = true;
    const Simulation r = simulate(stencil(37, 8), o);
    ASSERT_EQ(r.error, "");
    const Totals& t = r.counters.totals;
    EXPECT_EQ(t.global_ld_requests, 11025u);
    EXPECT_EQ(t.global_ld_sectors, 75030u);
    EXPECT_EQ(t.global_st_requests, 1575u);
    EXPECT_EQ(t.global_st_sectors, 10715u);
}

TEST(Stencil, PresetReadsItsSizesBlockAndThreadIn3D)
{
    const Preset p = findPreset("stencil-basic-8");
    EXPECT_EQ(p.scenario.kernel, "stencil-basic");
    EXPECT_EQ(p.scenario.width, 8);   // [sizes] N = 8
    EXPECT_EQ(p.scenario.block.z, 1u);
    ASSERT_TRUE(p.thread.has_value());
    EXPECT_EQ(p.thread->z, 1u);
    const LaunchShape sh = launchShape(p.scenario);
    EXPECT_EQ(sh.grid.z, 2u);
    EXPECT_EQ(sh.block.count(), 64u);
    // Block (1, 1, 1) holds 27 interior points: 189 loads, as the preset's question says.
    SimOptions o;
    o.trace = true;
    const Simulation r = simulate(p.scenario, o);
    EXPECT_EQ(r.counters.perBlock.at(linearBlock(r.grid, p.scenario.block)).global_loads, 189u);
}

}  // namespace
}  // namespace ts::sim
