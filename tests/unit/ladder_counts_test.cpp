// The optimisation ladder's rungs (docs/ladder.md) counted on small problems, against
// figures worked out by hand here, with the arithmetic in the comments: global loads and
// their requests and sectors, shared loads, multiply-adds, barriers. Each figure follows
// from the kernel's loops in kernels/matmul_coarsened.cuh, matmul_regtile_1d.cuh and
// matmul_regtile_2d.cuh, not from another run of the simulator.
#include <gtest/gtest.h>

#include <tuple>

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

// matmul-coarsened, TILE_WIDTH 8, COARSE_FACTOR 4, M 8 x 16, N 16 x 32: one block of 8 x 8
// threads covers all of P (8 rows, 8 * 4 = 32 columns); (16 - 1) / 8 + 1 = 2 phases.
TEST(LadderCounts, CoarsenedByHand)
{
    const sim::Simulation r = run(matmul("matmul-coarsened", 8, 16, 32, 8));
    EXPECT_EQ(r.grid.count(), 1u);
    EXPECT_EQ(r.block.x, 8u);
    EXPECT_EQ(r.block.y, 8u);
    const sim::Totals& t = r.counters.totals;
    // M: one 8 x 8 tile per phase, 2 x 64 = 128 (every element of M once);
    // N: four 8 x 8 tiles per phase, 2 x 4 x 64 = 512 (every element of N once).
    EXPECT_EQ(t.global_loads, 128u + 512u);
    // matmul-tiled at TILE_WIDTH 8 needs 4 blocks, each loading M's tile in both phases:
    // 4 x 2 x 64 = 512 loads of M, 384 more than coarsening's 128.
    const sim::Simulation tiled = run(matmul("matmul-tiled", 8, 16, 32, 8));
    EXPECT_EQ(tiled.counters.totals.global_loads, 512u + 512u);
    // 8 x 16 x 32 = 4096 multiply-adds, 2 flops each, 2 shared loads each.
    EXPECT_EQ(t.flops, 2u * 4096u);
    EXPECT_EQ(t.shared_loads, 2u * 4096u);
    // Per phase, 4 Nds tiles each between two barriers: 2 x 4 x 2 = 16 barriers.
    EXPECT_EQ(t.barriers, 16u);
    EXPECT_EQ(t.global_stores, 8u * 32u);
}

// matmul-regtile-1d, TILE 32 (BM = BN = 32, BK = 8, TM = 8), M 32 x 16, N 16 x 32: one block
// of 32 x 4 = 128 threads; 2 phases.
TEST(LadderCounts, Regtile1dByHand)
{
    const sim::Simulation r = run(matmul("matmul-regtile-1d", 32, 16, 32, 32));
    EXPECT_EQ(r.block.x, 32u);
    EXPECT_EQ(r.block.y, 4u);
    const sim::Totals& t = r.counters.totals;
    // Each phase loads a 32 x 8 tile of M and an 8 x 32 tile of N: 2 x (256 + 256).
    EXPECT_EQ(t.global_loads, 1024u);
    // A warp's 32 loads of M cover 4 rows of 8 consecutive floats (32 bytes from a
    // 32-byte boundary: row r starts at r * 16 floats, the phase at 8 floats): 4 sectors.
    // Per phase 256 / 32 = 8 requests for M and 8 for N (a warp reads one row of N, 128
    // aligned bytes: 4 sectors). 2 phases: 32 requests, 32 x 4 = 128 sectors.
    EXPECT_EQ(t.global_ld_requests, 32u);
    EXPECT_EQ(t.global_ld_sectors, 128u);
    // 32 x 16 x 32 = 16384 multiply-adds; per 8 of them one Nds read and 8 Mds reads.
    EXPECT_EQ(t.flops, 2u * 16384u);
    EXPECT_EQ(t.shared_loads, 16384u / 8u * 9u);
    // Stores to shared memory: every tile element once, 1024.
    EXPECT_EQ(t.shared_stores, 1024u);
}

// matmul-regtile-2d, TILE 64 (BM = BN = 64, BK = 8, TM = TN = 8), M 64 x 16, N 16 x 64: one
// block of 8 x 8 = 64 threads; 2 phases.
TEST(LadderCounts, Regtile2dByHand)
{
    const sim::Simulation r = run(matmul("matmul-regtile-2d", 64, 16, 64, 64));
    EXPECT_EQ(r.block.x, 8u);
    EXPECT_EQ(r.block.y, 8u);
    const sim::Totals& t = r.counters.totals;
    // Each phase loads 64 x 8 of M and 8 x 64 of N: 2 x (512 + 512) = 2048.
    EXPECT_EQ(t.global_loads, 2048u);
    // 64 x 16 x 64 = 65536 multiply-adds; per 64 of them 8 Mds and 8 Nds reads:
    // 65536 / 64 x 16 = 16384 shared loads, 4 multiply-adds per shared load (matmul-tiled:
    // one multiply-add per two shared loads).
    EXPECT_EQ(t.flops, 2u * 65536u);
    EXPECT_EQ(t.shared_loads, 16384u);
    EXPECT_EQ(t.global_stores, 64u * 64u);
    EXPECT_EQ(t.barriers, 2u * 2u);
    // The naive kernel computing the same 64 x 64 elements of P reads 2 x 16 operands for
    // each: 131072 loads, 64 times the 2048 of this block (the Stats panel's comparison;
    // it counted the block's 64 threads as 64 elements before).
    EXPECT_EQ(sim::untiledGlobalLoads(r.scenario, sim::Uint3{0, 0, 0}), 2u * 64u * 64u * 16u);
}

// matmul-vectorized loads what matmul-regtile-2d loads, four neighbours at a time where
// they lie in the matrix and start on a 16-byte boundary (k and l multiples of 4: 100 x 36 x
// 152) and one by one elsewhere (37 and 151 are not): the same elements, as often, and the
// same P, bit for bit.
TEST(LadderCounts, VectorizedLoadsWhatRegtile2dLoads)
{
    for (const auto& [j, k, l] : {std::tuple{100, 36, 152}, std::tuple{100, 37, 151}}) {
        SCOPED_TRACE(std::to_string(j) + "x" + std::to_string(k) + "x" + std::to_string(l));
        const sim::Simulation v = run(matmul("matmul-vectorized", j, k, l, 64));
        const sim::Simulation r = run(matmul("matmul-regtile-2d", j, k, l, 64));
        EXPECT_EQ(v.counters.totals.global_loads, r.counters.totals.global_loads);
        EXPECT_EQ(v.counters.elementLoads, r.counters.elementLoads);
        EXPECT_EQ(v.P, r.P);
        // Both tiles read whole: (ceil(100/64) x ceil(l/64)) blocks x ceil(k/8) phases x
        // (64 x 8 + 8 x 64) slots, each stored once.
        const uint64_t blocks = 2ull * ((l + 63) / 64), phases = (k + 7) / 8;
        EXPECT_EQ(v.counters.totals.shared_stores, blocks * phases * 1024);
    }
}

// Ragged sizes, M 131 x 29, N 29 x 77: every rung stores every element of P once, and the
// multiply-adds executed include those on the zero-filled ends of the last phase's tiles.
TEST(LadderCounts, RaggedSizesByHand)
{
    struct Case {
        const char* kernel;
        int tile;
        uint64_t fmas;
    };
    const Case cases[] = {
        // coarsened, TILE_WIDTH 16: the threads with Row < 131 and Col < 77 each run
        // ceil(29 / 16) = 2 phases of 16 multiply-adds: 131 x 77 x 32.
        {"matmul-coarsened", 16, 131ull * 77 * 32},
        // regtile-1d, TILE 64: ceil(131 / 64) x ceil(77 / 64) = 3 x 2 blocks of 512 threads,
        // every thread (no check before its multiply-adds) ceil(29 / 8) = 4 phases of
        // BK x TM = 64: 6 x 512 x 256.
        {"matmul-regtile-1d", 64, 6ull * 512 * 256},
        // regtile-2d, TILE 128: 2 x 1 blocks of 256 threads, 4 phases of BK x TM x TN = 512.
        {"matmul-regtile-2d", 128, 2ull * 256 * 4 * 512},
    };
    for (const Case& c : cases) {
        SCOPED_TRACE(c.kernel);
        const sim::Simulation r = run(matmul(c.kernel, 131, 29, 77, c.tile));
        EXPECT_EQ(r.counters.totals.global_stores, 131u * 77u);
        EXPECT_EQ(r.counters.totals.flops, 2 * c.fmas);
    }
}

}  // namespace
}  // namespace ts::test
