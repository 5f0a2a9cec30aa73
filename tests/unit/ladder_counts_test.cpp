// The optimisation ladder's rungs (docs/ladder.md) counted on small problems, against
// figures worked out by hand here, with the arithmetic in the comments: global loads and
// their requests and sectors, shared loads, multiply-adds, barriers. Each figure follows
// from the kernel's loops in kernels/matmul_coarsened.cuh, matmul_regtile_1d.cuh,
// matmul_regtile_2d.cuh and matmul_warptiled.cuh, not from another run of the simulator.
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

// matmul-warptiled, TILE 64: BM x BN = 128 x 64, BK = 8, lanes of 16 x 8 in warp tiles of
// 64 x 64, so (64 / 8) x (128 / 16) = 8 x 8 threads, 2 warps (warp 0 rows 0-63, warp 1 rows
// 64-127). M 128 x 16, N 16 x 64: one block, inside P with k a multiple of 8, so it takes
// the unchecked path: 2 phases.
TEST(LadderCounts, WarptiledByHand)
{
    const sim::Simulation r = run(matmul("matmul-warptiled", 128, 16, 64, 64));
    EXPECT_EQ(r.grid.count(), 1u);
    EXPECT_EQ(r.block.x, 8u);
    EXPECT_EQ(r.block.y, 8u);
    const sim::Totals& t = r.counters.totals;
    // Each phase loads 128 x 8 of M and 8 x 64 of N: 2 x (1024 + 512) elements.
    EXPECT_EQ(t.global_loads, 3072u);
    // float4 loads: M 1024 / 4 / 64 = 4 per thread and phase, N 512 / 4 / 64 = 2, so per
    // phase 2 warps x (4 + 2) = 12 requests; 2 phases: 24.
    EXPECT_EQ(t.global_ld_requests, 24u);
    // A request of M: lanes e = 0..31 read rows e / 2 (16 rows), 8 floats each from column
    // 8 s: 32 bytes on a 32-byte boundary (rows 16 floats = 64 bytes apart): 16 sectors. A
    // request of N: rows e / 16 (2 rows), 64 floats each: 2 x 8 sectors. 24 x 16 = 384 =
    // 8 KiB of M + 4 KiB of N over 32 bytes: every sector once.
    EXPECT_EQ(t.global_ld_sectors, 384u);
    // 128 x 16 x 64 = 131072 multiply-adds; per 128 of them (one i of one lane) 4 float4 of
    // Mds and 2 of Nds: 131072 / 128 x 24 = 24576 shared loads, 5.33 multiply-adds per
    // shared load (4 on the 8 x 8 rungs).
    EXPECT_EQ(t.flops, 2u * 131072u);
    EXPECT_EQ(t.shared_loads, 24576u);
    // Requests: 6 per lane and i, so 6 x 2 warps x 8 i x 2 phases = 192 (128 of M, 64 of N).
    // Each is served per half-warp, whose quarter-warps do not share what they read. M:
    // lanes 0-7 hold ly = 0, lanes 8-15 ly = 1, one float4 each, 32 bytes: 1 wavefront a
    // half, 2 a request. N: each quarter holds lx = 0..7, the same 8 float4 (128 bytes):
    // 2 wavefronts a half, 4 a request. 128 x 2 + 64 x 4 = 512, the fewest these reads can
    // take (Nsight Compute counts the same per LDS.128 on an H100): none beyond the needed.
    EXPECT_EQ(t.shared_ld_requests, 192u);
    EXPECT_EQ(t.shared_ld_wavefronts, 512u);
    EXPECT_EQ(t.shared_ld_conflicts, 0u);
    // Stores per phase: M transposed, 4 x 4 = 16 scalar stores a lane (2 warps: 32
    // requests); lane e writes row c + d (c = 0 or 4) at column e / 2 of rows 132 floats
    // long, bank (4 (c + d) + e / 2) mod 32, 32 different banks: 1 wavefront each. N: 2
    // float4 a lane (4 requests), each half-warp 16 x 16 = 256 bytes: 2 wavefronts, 4 per
    // request. Two phases: 2 x (32 + 4) requests, 2 x (32 + 16) wavefronts.
    EXPECT_EQ(t.shared_stores, 2u * (1024u + 512u));
    EXPECT_EQ(t.shared_st_requests, 72u);
    EXPECT_EQ(t.shared_st_wavefronts, 96u);
    EXPECT_EQ(t.shared_st_conflicts, 0u);
    // One barrier before the loop and one per phase.
    EXPECT_EQ(t.barriers, 3u);
    // P in float4: 16 x 8 / 4 = 32 stores a lane, 64 requests; each covers 4 rows of 32
    // neighbouring floats (128 bytes on a 128-byte boundary): 16 sectors, 1024 in all =
    // 128 x 64 x 4 bytes / 32.
    EXPECT_EQ(t.global_stores, 128u * 64u);
    EXPECT_EQ(t.global_st_requests, 64u);
    EXPECT_EQ(t.global_st_sectors, 1024u);
}

// matmul-warptiled with both kinds of block: M 200 x 16, N 16 x 128, TILE 64 gives 2 x 2
// blocks of 128 x 64; the first row of blocks lies inside P (unchecked), the second covers
// rows 128-255 of 200 (checked, rows 200 and up zero-filled, not loaded). Every element of
// M is read by the 2 blocks of its row of blocks, every element of N by the 2 blocks of its
// column: 2 x 200 x 16 + 2 x 16 x 128 loads, each element exactly twice.
TEST(LadderCounts, WarptiledCheckedAndUncheckedBlocks)
{
    const sim::Simulation r = run(matmul("matmul-warptiled", 200, 16, 128, 64));
    EXPECT_EQ(r.grid.count(), 4u);
    EXPECT_EQ(r.counters.totals.global_loads, 2u * 200u * 16u + 2u * 16u * 128u);
    for (const char* a : {"M", "N"})
        for (uint32_t n : r.counters.elementLoads[r.arrayIndex(a)]) EXPECT_EQ(n, 2u) << a;
    EXPECT_EQ(r.counters.totals.global_stores, 200u * 128u);
}

// The 128-bit rungs with 8 x 8 thread tiles at TILE 128 (BM = BN = 128, (128 / 8)^2 = 256
// threads, 8 warps: warp w holds ty = 2w and 2w + 1, tx = 0..15), M 128 x 16, N 16 x 128:
// one block.
//  - Elements: each phase of BK loads 128 x BK of M and BK x 128 of N: 16 x 128 x 2 = 4096
//    in all, whatever BK; every element of P once, 16384 stores.
//  - Loads: float4, M_LOADS = N_LOADS = 128 x BK / 4 / 256 a thread and phase. BK = 8: 1 + 1
//    a thread, 8 warps x 2 = 16 requests a phase, 2 phases: 32. BK = 16: 2 + 2 a thread, 32
//    requests in 1 phase. A request of M covers 32 lanes x 16 bytes of whole 32-byte
//    sectors (BK = 8: 16 rows of 32 bytes; BK = 16: 8 rows of 64), of N one or two rows of
//    512 bytes: 16 sectors either way, 32 x 16 = 512 = 16 KiB / 32.
//  - Multiply-adds 128 x 16 x 128 = 262144; per 64 of them 8 + 8 shared loads: 65536.
//  - Shared requests: per lane and column i, 2 float4 of Mds and 2 of Nds; 4 x 8 warps x 16
//    columns = 512 (256 of each tile).
//  - Barriers: vectorized 2 a phase (2 phases: 4); the double-buffered ones one per step of
//    their loop s = 0 .. phases: 3 with BK = 8, 2 with BK = 16 (matmul-tuned).
// Wavefronts (128-bit rule: per half-warp, one per 8 distinct chunks of each quarter, at
// least the fullest bank):
//  - vectorized, double-buffered: Mds[i][ty*8 + {0, 4}]: a half-warp shares ty, one chunk
//    per quarter, 1 wavefront a half, 2 a request: 512. Nds[i][tx*8 + {0, 4}]: 16 chunks 32
//    bytes apart in a half, whose 4-word groups fall on bank groups 0, 2, 4, 6 four times
//    each: 4 a half, 8 a request: 2048. Needed 2 a half, so 2 x 2 beyond a request: 1024.
//  - conflict-free, tuned: Mds at ty*4 (+ 64): 2 a request as above. Nds at tx*4 (+ 64): 16
//    neighbouring chunks, 8 per quarter, every bank twice: 2 a half, 4 a request, all
//    needed: 512 + 1024 = 1536, none beyond.
TEST(LadderCounts, WideRungsByHand)
{
    struct Case {
        const char* kernel;
        uint64_t ldRequests, barriers, ldWavefronts, ldConflicts;
    };
    const Case cases[] = {
        {"matmul-vectorized", 32, 4, 512 + 2048, 1024},
        {"matmul-double-buffered", 32, 3, 512 + 2048, 1024},
        {"matmul-conflict-free", 32, 3, 512 + 1024, 0},
        {"matmul-tuned", 32, 2, 512 + 1024, 0},
    };
    for (const Case& c : cases) {
        SCOPED_TRACE(c.kernel);
        const sim::Simulation r = run(matmul(c.kernel, 128, 16, 128, 128));
        EXPECT_EQ(r.grid.count(), 1u);
        EXPECT_EQ(r.block.x * r.block.y, 256u);
        const sim::Totals& t = r.counters.totals;
        EXPECT_EQ(t.global_loads, 4096u);
        EXPECT_EQ(t.global_ld_requests, c.ldRequests);
        EXPECT_EQ(t.global_ld_sectors, 512u);
        EXPECT_EQ(t.flops, 2u * 262144u);
        EXPECT_EQ(t.shared_loads, 65536u);
        EXPECT_EQ(t.shared_ld_requests, 512u);
        EXPECT_EQ(t.shared_ld_wavefronts, c.ldWavefronts);
        EXPECT_EQ(t.shared_ld_conflicts, c.ldConflicts);
        EXPECT_EQ(t.barriers, c.barriers);
        EXPECT_EQ(t.global_stores, 16384u);
    }
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
        // warptiled, TILE 64 (a block 128 x 64 of P): ceil(131 / 128) x ceil(77 / 64) = 2 x 2
        // blocks of 64 threads, all with boundary checks (k = 29 is no multiple of 8), 4
        // phases of BK x TM x TN = 8 x 16 x 8 = 1024.
        {"matmul-warptiled", 64, 4ull * 64 * 4 * 1024},
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
