// Global-load counts and OP/B: the closed formulas against real simulations, and the
// book's ratios (PMPP sec. 5.1 and 5.4; presets tiled-64-tile16 and tiled-64-tile32:
// naive 0.25 OP/B, TILE_WIDTH 16 gives 16 x fewer loads and 4 OP/B).
#include <gtest/gtest.h>

#include "trace_query.hpp"

namespace ts::test {
namespace {

sim::Simulation run(const sim::Scenario& s)
{
    sim::SimOptions o;
    o.trace = false;
    sim::Simulation r = sim::simulate(s, o);
    EXPECT_EQ(r.error, "");
    EXPECT_TRUE(r.matchesReference);
    return r;
}

// untiledGlobalLoads() is a formula; the naive kernel's simulation counts the same loads
// one by one, for the whole grid and block by block, at sizes that are and are not
// multiples of the block edge.
TEST(Counts, UntiledFormulaEqualsNaiveSimulation)
{
    for (const sim::Scenario& s :
         {matmul("matmul-naive", 4, 4, 4, 2), matmul("matmul-naive", 3, 3, 3, 2),
          matmul("matmul-naive", 17, 5, 9, 4), matmul("matmul-naive", 100, 37, 51, 16),
          matmul("matmul-naive", 33, 64, 1, 32)}) {
        SCOPED_TRACE(std::to_string(s.j) + "x" + std::to_string(s.k) + "x" + std::to_string(s.l) +
                     " tile " + std::to_string(s.tile));
        const sim::Simulation r = run(s);
        EXPECT_EQ(sim::untiledGlobalLoads(s), r.counters.totals.global_loads);
        for (unsigned by = 0; by < r.grid.y; ++by)
            for (unsigned bx = 0; bx < r.grid.x; ++bx) {
                const sim::Uint3 b{bx, by, 0};
                EXPECT_EQ(sim::untiledGlobalLoads(s, b),
                          r.counters.perBlock[sim::linearBlock(r.grid, b)].global_loads)
                    << "block (" << bx << ", " << by << ")";
            }
    }
}

// Width 256 has the same ratios as width 1024 (which the CLI's slow test checks):
// the reduction is TILE_WIDTH and OP/B is TILE_WIDTH x 0.25.
TEST(Counts, ReductionIsTileWidthAndOpsPerByteQuarterOfIt)
{
    for (int tile : {16, 32}) {
        const sim::Scenario s = matmul("matmul-tiled", 256, 256, 256, tile);
        const sim::Simulation r = run(s);
        const sim::Totals& t = r.counters.totals;
        EXPECT_EQ(t.global_loads, 2ull * 256 * 256 * 256 / tile);
        EXPECT_DOUBLE_EQ(static_cast<double>(sim::untiledGlobalLoads(s)) / t.global_loads, tile);
        EXPECT_DOUBLE_EQ(sim::opsPerByte(t), 0.25 * tile);
    }
    const sim::Simulation naive = run(matmul("matmul-naive", 256, 256, 256, 16));
    EXPECT_DOUBLE_EQ(sim::opsPerByte(naive.counters.totals), 0.25);
}

// Example: tile size 16 against 32 (docs/references.md): with TILE_WIDTH 16 a block loads
// 2 x 256 = 512 elements from global memory in each phase for 256 x (2 x 16) = 8192
// floating-point operations; with 32, 2048 loads for 65,536 operations.
TEST(Counts, PerPhaseLoadsAndOperationsOfTheTileSizeSlide)
{
    for (auto [tile, loads, flops] : {std::tuple{16, 512u, 8192u}, std::tuple{32, 2048u, 65536u}}) {
        const sim::Scenario s = matmul("matmul-tiled", 64, 64, 64, tile);
        const sim::Simulation r = run(s);
        const uint64_t phases = 64 / tile;
        for (const sim::Totals& b : r.counters.perBlock) {
            EXPECT_EQ(b.global_loads, phases * loads);
            EXPECT_EQ(b.flops, phases * flops);
            EXPECT_EQ(b.barriers, phases * 2);
        }
    }
}

}  // namespace
}  // namespace ts::test
