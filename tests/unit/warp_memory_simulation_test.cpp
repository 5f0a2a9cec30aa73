// The warp memory model (sim/engine/warp_memory.hpp), part 2 of the checks listed in
// warp_memory_test.cpp: whole simulations against figures derived by hand from the kernels'
// loop structure, and the ladder's 128-bit rungs against Nsight Compute's counters.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

#include "sim/catalogue/kernel_info.hpp"
#include "sim/engine/warp_memory.hpp"
#include "trace_query.hpp"
#include "warp_memory_test_support.hpp"

namespace ts::test {

// ---------------------------------------------------------------------------------------
// 2. Whole simulations against hand-derived figures.

namespace warp_memory_detail {

sim::Simulation run(const sim::Scenario& s, bool trace, bool model)
{
    EXPECT_EQ(sim::validate(s), "");
    sim::SimOptions o;
    o.trace = trace;
    o.memoryModel = model;
    sim::Simulation r = sim::simulate(s, o);
    EXPECT_EQ(r.error, "");
    EXPECT_TRUE(sim::outputCorrect(r));
    return r;
}

const sim::Totals& blockTotals(const sim::Simulation& r, sim::Uint3 b)
{
    return r.counters.perBlock.at(sim::linearBlock(r.grid, b));
}

}  // namespace warp_memory_detail

namespace {

using sim::AccessKind;
using namespace warp_memory_detail;

// The ladder's 128-bit rungs against Nsight Compute's counters for the same launches on an
// NVIDIA H100 (scripts/gpu-memory.sh; docs/measurements/gpu-memory-h100.txt): LDG.128 as one
// request per warp, LDS.128 and STS.128 served by half-warps, and guarded stores matched by
// their unrolled iteration (x.unrolled) where lanes skip some at the ragged edge. The
// figures are the hardware's, not derived from the model.
TEST(WarpMemoryHardware, WideRungsEqualNsightCompute)
{
    constexpr uint64_t kNotCompared = ~uint64_t{0};
    struct Expected {
        const char* kernel;
        int j, k, l;
        uint64_t ldReq, ldSec, stReq, stSec, shLdReq, shLdWave, shLdConf, shStReq, shStWave;
    };
    const Expected cases[] = {
        // Its shared-store wavefronts are not compared: Nsight counted 12,628 and 12,657 in
        // two runs of the same launch (pipe contention), the model 12,288.
        {"matmul-vectorized", 256, 256, 256, 2048, 32768, 2048, 65536, 32768, 163840, 65536, 5120, kNotCompared},
        {"matmul-conflict-free", 256, 256, 256, 2048, 32768, 2048, 32768, 32768, 98304, 0, 5120, 8192},
        {"matmul-conflict-free", 100, 37, 51, 288, 3860, 208, 2750, 1280, 3840, 0, 200, 320},
        {"matmul-tuned", 100, 37, 51, 304, 3464, 208, 2750, 1536, 4608, 0, 240, 576},
    };
    for (const Expected& e : cases) {
        const sim::KernelInfo* k = sim::findKernel(e.kernel);
        ASSERT_NE(k, nullptr);
        const sim::Scenario s = sim::matmulScenario(e.kernel, e.j, e.k, e.l, k->defaultTile);
        SCOPED_TRACE(std::string(e.kernel) + " " + std::to_string(e.j) + "x" + std::to_string(e.k) + "x" +
                     std::to_string(e.l));
        const sim::Totals t = run(s).counters.totals;
        EXPECT_EQ(t.global_ld_requests, e.ldReq);
        EXPECT_EQ(t.global_ld_sectors, e.ldSec);
        EXPECT_EQ(t.global_st_requests, e.stReq);
        EXPECT_EQ(t.global_st_sectors, e.stSec);
        EXPECT_EQ(t.shared_ld_requests, e.shLdReq);
        EXPECT_EQ(t.shared_ld_wavefronts, e.shLdWave);
        EXPECT_EQ(t.shared_ld_conflicts, e.shLdConf);
        EXPECT_EQ(t.shared_st_requests, e.shStReq);
        if (e.shStWave != kNotCompared) EXPECT_EQ(t.shared_st_wavefronts, e.shStWave);
    }
}

/// The source line of the kernel file on which `text` appears (0 if it does not): the
/// per-line figures are looked up by statement, not by a line number written here.
unsigned lineOf(const std::string& kernel, const std::string& text)
{
    const sim::KernelInfo* k = sim::findKernel(kernel);
    if (!k) return 0;
    std::istringstream in(sim::kernelSource(k->sourceFile));
    std::string l;
    for (unsigned n = 1; std::getline(in, l); ++n)
        if (l.find(text) != std::string::npos) return n;
    return 0;
}

const sim::LineMemory* findLine(const std::vector<sim::LineMemory>& lines, unsigned line, sim::Space space, bool store)
{
    for (const sim::LineMemory& l : lines)
        if (l.line == line && l.space == space && l.store == store) return &l;
    return nullptr;
}

// matmul-tiled is conflict-free at every TILE_WIDTH: Mds[ty][i] is one word per row of the
// warp (rows TILE_WIDTH words apart, in different banks, or broadcast), Nds[i][tx] is
// consecutive words, and the tile stores are consecutive words.
TEST(WarpMemorySimulation, MatmulTiledHasNoBankConflicts)
{
    for (int tile : {2, 4, 8, 16, 32}) {
        SCOPED_TRACE("TILE_WIDTH " + std::to_string(tile));
        const sim::Simulation r = run(matmul("matmul-tiled", 64, 64, 64, tile));
        const sim::Totals& t = r.counters.totals;
        EXPECT_GT(t.shared_ld_requests, 0u);
        EXPECT_EQ(t.shared_ld_wavefronts, t.shared_ld_requests);
        EXPECT_GT(t.shared_st_requests, 0u);
        EXPECT_EQ(t.shared_st_wavefronts, t.shared_st_requests);
    }
}

// matmul-tiled, 64 x 64 x 64, TILE_WIDTH 16. Grid 4 x 4 = 16 blocks of 256 threads = 8 warps;
// warp w holds rows ty = 2w and 2w + 1, 16 lanes (tx = 0..15) each. 64 / 16 = 4 phases.
//   M load  M[Row*64 + ph*16 + tx]: per warp and phase one request; each row's 16 floats are
//           64 bytes starting on a 64-byte boundary (Row*64 words = 256 bytes, ph*16 words =
//           64 bytes): 2 sectors a row, 4 per request.
//   N load  N[(ph*16 + ty)*64 + bx*16 + tx]: the same, 4 sectors per request.
//   => global_ld_requests = 16 blocks x 8 warps x 4 phases x 2 = 1024, sectors 4 x 1024.
//   Mds[ty][tx] / Nds[ty][tx] stores: the warp's 32 lanes on 32 consecutive words (Nds
//           starts 256 words after Mds): one wavefront. 1024 requests, 1024 wavefronts.
//   Mds[ty][i]: 2 words 16 apart (banks 16 apart); Nds[i][tx]: 16 consecutive words, read
//           by both rows (broadcast): one wavefront each. 16 iterations x 2 arrays x 4
//           phases x 8 warps x 16 blocks = 16384 requests and wavefronts.
//   P store P[Row*64 + bx*16 + tx]: 16 blocks x 8 warps = 128 requests, 4 sectors each.
//   Compulsory bytes: M and N read whole, 2 x 4096 x 4 B; P written whole, 4096 x 4 B.
TEST(WarpMemorySimulation, MatmulTiled64Tile16ByHand)
{
    const sim::Simulation r = run(matmul("matmul-tiled", 64, 64, 64, 16));
    const sim::Totals& t = r.counters.totals;
    EXPECT_EQ(t.global_ld_requests, 1024u);
    EXPECT_EQ(t.global_ld_sectors, 4096u);
    EXPECT_EQ(t.global_st_requests, 128u);
    EXPECT_EQ(t.global_st_sectors, 512u);
    EXPECT_EQ(t.shared_st_requests, 1024u);
    EXPECT_EQ(t.shared_st_wavefronts, 1024u);
    EXPECT_EQ(t.shared_ld_requests, 16384u);
    EXPECT_EQ(t.shared_ld_wavefronts, 16384u);
    EXPECT_EQ(t.constant_ld_requests, 0u);
    EXPECT_EQ(t.constant_ld_passes, 0u);
    EXPECT_EQ(sim::requestedBytes(t), 32u * (4096 + 512));
    EXPECT_EQ(sim::compulsoryReadBytes(r), 2u * 4096 * 4);
    EXPECT_EQ(sim::compulsoryWriteBytes(r), 4096u * 4);
    EXPECT_EQ(sim::compulsoryBytes(r), 3u * 4096 * 4);
    // Every block alike: an eighth of a sixteenth.
    for (const sim::Totals& b : r.counters.perBlock) {
        EXPECT_EQ(b.global_ld_requests, 64u);
        EXPECT_EQ(b.global_ld_sectors, 256u);
        EXPECT_EQ(b.shared_ld_requests, 1024u);
        EXPECT_EQ(b.global_st_requests, 8u);
    }
    // Per line: the M load, the Mds store (same line), the N load, the Nds store, the use
    // line (Mds and Nds together), the P store.
    const std::vector<sim::LineMemory> lines = sim::memoryByLine(r.accessSites);
    const unsigned mLine = lineOf("matmul-tiled", "Mds[ty][tx] = M[");
    const unsigned nLine = lineOf("matmul-tiled", "Nds[ty][tx] = N[");
    const unsigned useLine = lineOf("matmul-tiled", "Pvalue += Mds[ty][i] * Nds[i][tx]");
    const unsigned pLine = lineOf("matmul-tiled", "P[Row*l + Col] = Pvalue");
    ASSERT_TRUE(mLine && nLine && useLine && pLine);
    ASSERT_EQ(lines.size(), 6u);
    const sim::LineMemory* m = findLine(lines, mLine, sim::Space::Global, false);
    ASSERT_TRUE(m);
    EXPECT_EQ(m->requests, 512u);
    EXPECT_EQ(m->sectors, 2048u);
    EXPECT_EQ(m->cacheLines, 1024u);   // two rows, two lines
    EXPECT_EQ(m->lanes, 16u * 256 * 4);
    const sim::LineMemory* mds = findLine(lines, mLine, sim::Space::Shared, true);
    ASSERT_TRUE(mds);
    EXPECT_EQ(mds->requests, 512u);
    EXPECT_EQ(mds->conflicts(), 0u);
    const sim::LineMemory* use = findLine(lines, useLine, sim::Space::Shared, false);
    ASSERT_TRUE(use);
    EXPECT_EQ(use->requests, 16384u);
    EXPECT_EQ(use->arrays.size(), 2u);
    const sim::LineMemory* p = findLine(lines, pLine, sim::Space::Global, true);
    ASSERT_TRUE(p);
    EXPECT_EQ(p->requests, 128u);
    EXPECT_EQ(p->sectors, 512u);
    // The lanes of every line add up to the element counts.
    uint64_t globalLanes = 0, sharedLoadLanes = 0;
    for (const sim::LineMemory& l : lines) {
        if (l.space == sim::Space::Global && !l.store) globalLanes += l.lanes;
        if (l.space == sim::Space::Shared && !l.store) sharedLoadLanes += l.lanes;
    }
    EXPECT_EQ(globalLanes, t.global_loads);
    EXPECT_EQ(sharedLoadLanes, t.shared_loads);
}

// TILE_WIDTH 32 on 64^3: 2 x 2 blocks of 32 warps, warp w = row ty = w; 2 phases. Each warp
// load is one 128-byte row (4 sectors): 4 x 32 x 2 x 2 = 512 requests, 2048 sectors.
// Mds[ty][i] is one word for the whole warp (broadcast), Nds[i][tx] 32 consecutive words:
// 4 x 32 x 2 x 32 x 2 = 16384 shared requests, as many wavefronts; P: 128 requests x 4.
TEST(WarpMemorySimulation, MatmulTiled64Tile32ByHand)
{
    const sim::Simulation r = run(matmul("matmul-tiled", 64, 64, 64, 32));
    const sim::Totals& t = r.counters.totals;
    EXPECT_EQ(t.global_ld_requests, 512u);
    EXPECT_EQ(t.global_ld_sectors, 2048u);
    EXPECT_EQ(t.shared_st_requests, 512u);
    EXPECT_EQ(t.shared_ld_requests, 16384u);
    EXPECT_EQ(t.shared_ld_wavefronts, 16384u);
    EXPECT_EQ(t.global_st_requests, 128u);
    EXPECT_EQ(t.global_st_sectors, 512u);
}

// The naive kernel at 64^3 with 16 x 16 blocks: per warp (two rows of 16 lanes) and
// iteration i, M[Row*64 + i] is two words in two rows (2 sectors) and N[i*64 + Col] 16
// consecutive words on a 64-byte boundary (2 sectors). 16 blocks x 8 warps x 64 iterations
// x 2 = 16384 requests, 32768 sectors.
TEST(WarpMemorySimulation, MatmulNaive64ByHand)
{
    const sim::Simulation r = run(matmul("matmul-naive", 64, 64, 64, 16));
    const sim::Totals& t = r.counters.totals;
    EXPECT_EQ(t.global_ld_requests, 16384u);
    EXPECT_EQ(t.global_ld_sectors, 32768u);
    EXPECT_EQ(t.global_st_requests, 128u);
    EXPECT_EQ(t.shared_ld_requests + t.shared_st_requests, 0u);
}

// Ragged: j = 100, k = 37, l = 51, TILE_WIDTH 16. Grid ceil(51/16) = 4 by ceil(100/16) = 7
// blocks of 8 warps (warp w: rows ty = 2w, 2w + 1); (37 - 1)/16 + 1 = 3 phases. Only warps
// with an active lane issue a request.
//   M load, guarded by Row < 100 && ph*16 + tx < 37: in block row by = 6 the rows are
//     96 + ty, so only warps 0 and 1 (ty 0..3) have a lane; phase 2 has tx 0..4 active
//     (a request still). Per block column: (6 x 8 + 2) warps x 3 phases = 150; x 4 = 600.
//   N load, guarded by ph*16 + ty < 37 && Col < 51: phases 0 and 1 all 8 warps; phase 2
//     ty 0..4, warps 0, 1, 2. Block column bx = 3 has tx 0..2 in every warp. Per block
//     8 + 8 + 3 = 19; 28 blocks: 532. Together 1132.
//   Tile stores: every thread stores, a value in the if branch or a zero in the else
//     branch, and the two branches are two source accesses (two lines): a warp with lanes
//     in both issues two requests. Mds: block rows 0..5 have 8 warps with 1 + 1 + 2
//     requests (in phase 2 tx 0..4 load, the rest zero), block row 6 has warps 0, 1 so and
//     warps 2..7 with one zero store a phase: 6 x 32 + 2 x 4 + 6 x 3 = 218 per block
//     column, 872 in all. Nds: in block columns 0..2, 8 + 8 + (1 + 1 + 2 + 5) = 25 per
//     block (phase 2: warp 2 has ty 4 loading and ty 5 not); in block column 3 (tx 0..2
//     load) every warp splits in phases 0 and 1, 16 + 16 + (2 + 2 + 2 + 5) = 43. 7 block
//     rows x (3 x 25 + 43) = 826. Together 1698, each a run of consecutive words: no
//     conflict.
//   Use loop, guarded by Row < 100 && Col < 51: warps with a lane inside P, 4 x (6 x 8 +
//     2) = 200; x 3 phases x 16 iterations x 2 arrays = 19200, no conflicts.
//   P store: the same 200 warps, 200 requests.
// Block (3, 6), the corner: rows 96..99, columns 48..50, 6 lanes active in warp 0 and 1.
//   M: 2 warps x 3 phases = 6; N: 19; shared loads 2 x 3 x 32 = 192; stores 26 + 43 = 69.
//   P: warp 0 writes P[96*51 + 48..50] = words 4944..4946 (sector 618) and
//   P[97*51 + 48..50] = 4995..4997 (sector 624): 2 sectors; warp 1 writes 5046..5048
//   (sectors 630, 631) and 5097..5099 (sector 637): 3 sectors. 2 requests, 5 sectors.
TEST(WarpMemorySimulation, RaggedEdgeWarpsArePartlyIdle)
{
    const sim::Simulation r = run(matmul("matmul-tiled", 100, 37, 51, 16));
    ASSERT_EQ(r.grid.x, 4u);
    ASSERT_EQ(r.grid.y, 7u);
    const sim::Totals& t = r.counters.totals;
    EXPECT_EQ(t.global_ld_requests, 1132u);
    EXPECT_EQ(t.shared_st_requests, 1698u);
    EXPECT_EQ(t.shared_st_wavefronts, 1698u);
    EXPECT_EQ(t.shared_ld_requests, 19200u);
    EXPECT_EQ(t.shared_ld_wavefronts, 19200u);
    EXPECT_EQ(t.global_st_requests, 200u);
    // Fewer than one request per warp, phase and input (28 x 8 x 3 x 2 = 1344): the warps
    // with no active lane issue none.
    EXPECT_LT(t.global_ld_requests, 28u * 8 * 3 * 2);
    const sim::Totals& corner = blockTotals(r, {3, 6, 0});
    EXPECT_EQ(corner.global_ld_requests, 25u);
    EXPECT_EQ(corner.shared_ld_requests, 192u);
    EXPECT_EQ(corner.shared_st_requests, 69u);
    EXPECT_EQ(corner.global_st_requests, 2u);
    EXPECT_EQ(corner.global_st_sectors, 5u);
    EXPECT_EQ(corner.global_stores, 12u);   // 4 rows x 3 columns
    // An inner block: every warp active in every phase but the last (N, warps 0..2).
    const sim::Totals& inner = blockTotals(r, {1, 2, 0});
    EXPECT_EQ(inner.global_ld_requests, 8u * 3 + 19);
    EXPECT_EQ(inner.shared_ld_requests, 8u * 3 * 32);
}

// Divergence inside a loop: conv1d-basic, Width 40, Mask_Width 5, blocks of 32.
// `if (N_start_point + j >= 0 && N_start_point + j < Width)` skips ghost elements, so lanes
// execute the N[...]*M[j] line different numbers of times. The mask element M[j] read on
// the same line names the iteration: the model matches the lanes' accesses by it, so
// iteration j of every lane that runs it is one instruction, as on the GPU, where the
// guard is a predicate of iteration j.
//   Block 0: lane L (i = L) reads N[L - 2 + j]; j = 0 runs in lanes 2..31 (words 0..29,
//     sectors 0..3: 4), j = 1 in lanes 1..31 (0..30: 4), j = 2 in all (0..31: 4), j = 3
//     (1..32: 5), j = 4 (2..33: 5). => 5 requests, 22 sectors; M[j]: 5 requests, 1 pass each.
//   Block 1: lanes 0..7 (i = 32..39) active, lane L reads N[30 + L + j]; lanes 6 and 7 stop
//     after j = 3 and j = 2. j = 0: 30..37 (2 sectors), 1: 31..38 (2), 2: 32..39 (1),
//     3: 33..39 (1), 4: 34..39 (1). => 5 requests, 7 sectors; M[j]: 5 requests, 5 passes.
//   P stores: block 0 P[0..31], 1 request, 4 sectors; block 1 P[32..39], 1 request, 1 sector.
// (Matching the n-th execution of each lane instead would pair lane 0's j = 2 with lane 2's
// j = 0 and count 3 passes for that M read.)
TEST(WarpMemorySimulation, DivergentLoopMatchesIterations)
{
    const sim::Simulation r = run(sim::convScenario("conv1d-basic", 1, 40, 32, 5));
    ASSERT_EQ(r.grid.x, 2u);
    const sim::Totals& b0 = blockTotals(r, {0, 0, 0});
    EXPECT_EQ(b0.global_ld_requests, 5u);
    EXPECT_EQ(b0.global_ld_sectors, 22u);
    EXPECT_EQ(b0.constant_ld_requests, 5u);
    EXPECT_EQ(b0.constant_ld_passes, 5u);
    EXPECT_EQ(b0.global_st_requests, 1u);
    EXPECT_EQ(b0.global_st_sectors, 4u);
    const sim::Totals& b1 = blockTotals(r, {1, 0, 0});
    EXPECT_EQ(b1.global_ld_requests, 5u);
    EXPECT_EQ(b1.global_ld_sectors, 7u);
    EXPECT_EQ(b1.constant_ld_requests, 5u);
    EXPECT_EQ(b1.constant_ld_passes, 5u);
    EXPECT_EQ(b1.global_st_requests, 1u);
    EXPECT_EQ(b1.global_st_sectors, 1u);
    const sim::Totals& t = r.counters.totals;
    EXPECT_EQ(t.global_loads, 3u + 4 + 30 * 5 + 6 * 5 + 4 + 3);
    EXPECT_EQ(t.constant_ld_passes, t.constant_ld_requests);
}

// Divergence between two branches of a loop: conv1d-tiled-cache, Width 1000, TILE_SIZE 2,
// Mask_Width 5, block 0 (lanes 0 and 1, the tile N[0..1]). In the loop over j:
//   lane 0 (i = 0): j = 0, 1 ghosts (skipped); j = 2, 3 in the tile: N_ds[0], N_ds[1] with
//     M[2], M[3] on the shared line; j = 4: N[2] with M[4] on the global line.
//   lane 1 (i = 1): j = 0 ghost; j = 1, 2 in the tile: N_ds[0], N_ds[1] with M[1], M[2];
//     j = 3, 4 outside: N[2], N[3] with M[3], M[4].
// By iteration: shared line j = 1 (lane 1), 2 (both: N_ds[0], N_ds[1], 1 wavefront),
// 3 (lane 0): 3 requests, 3 wavefronts, and its M reads 3 requests of one address each;
// global line j = 3 (lane 1: N[2]), j = 4 (N[2], N[3]: one sector): 2 requests, 2 sectors,
// its M reads 2 requests, 1 pass each. With the tile load N[0..1] (1 request, 1 sector):
// 3 global load requests and sectors, 5 constant requests and 5 passes. (The two lanes'
// logs start alike, shared load then M read, and part at the first M read, M[2] against
// M[1]: the shared load before it belongs to the same iteration as that M read.)
TEST(WarpMemorySimulation, DivergentBranchesMatchIterations)
{
    sim::Scenario s = sim::convScenario("conv1d-tiled-cache", 1, 1000, 2, 5);
    const sim::Simulation r = run(s);
    const sim::Totals& b = blockTotals(r, {0, 0, 0});
    EXPECT_EQ(b.shared_ld_requests, 3u);
    EXPECT_EQ(b.shared_ld_wavefronts, 3u);
    EXPECT_EQ(b.global_ld_requests, 3u);
    EXPECT_EQ(b.global_ld_sectors, 3u);
    EXPECT_EQ(b.constant_ld_requests, 5u);
    EXPECT_EQ(b.constant_ld_passes, 5u);
    EXPECT_EQ(b.constant_loads, 7u);
}

// Divergence by branch: conv1d-tiled, Width 64, TILE_SIZE 32, Mask_Width 5 (n = 2).
//   Block 0: left halo, lanes 30 and 31 (tx >= 30): index -32 + tx < 0, a zero fill into
//     N_ds[0..1]: a shared store request of 2 lanes, no global load. Internal: N[0..31]
//     (1 request, 4 sectors) into N_ds[2..33] (banks 2..31, 0, 1: 1 wavefront). Right
//     halo, lanes 0 and 1: N[32..33] (1 request, 1 sector) into N_ds[34..35].
//   Block 1: left halo N[30..31] (1 request, sector 3) into N_ds[0..1]; internal N[32..63]
//     (4 sectors); right halo 64 + tx >= 64: zero fill.
//   Both: after the barrier, j = 0..4: N_ds[tx + j] 32 consecutive words (1 wavefront),
//     M[j] one address (1 pass); P[i] 1 request, 4 sectors.
TEST(WarpMemorySimulation, DivergentHaloBranches)
{
    const sim::Simulation r = run(sim::convScenario("conv1d-tiled", 1, 64, 32, 5));
    ASSERT_EQ(r.grid.x, 2u);
    for (unsigned bx : {0u, 1u}) {
        SCOPED_TRACE("block " + std::to_string(bx));
        const sim::Totals& b = blockTotals(r, {bx, 0, 0});
        EXPECT_EQ(b.global_ld_requests, 2u);
        EXPECT_EQ(b.global_ld_sectors, 5u);
        EXPECT_EQ(b.shared_st_requests, 3u);
        EXPECT_EQ(b.shared_st_wavefronts, 3u);
        EXPECT_EQ(b.shared_ld_requests, 5u);
        EXPECT_EQ(b.shared_ld_wavefronts, 5u);
        EXPECT_EQ(b.constant_ld_requests, 5u);
        EXPECT_EQ(b.constant_ld_passes, 5u);
        EXPECT_EQ(b.global_st_requests, 1u);
        EXPECT_EQ(b.global_st_sectors, 4u);
        EXPECT_EQ(b.zero_fills, 2u);
    }
    // The halo lines: two lanes per request.
    const std::vector<sim::LineMemory> lines = sim::memoryByLine(r.accessSites);
    const unsigned left = lineOf("conv1d-tiled", "N_ds[tx - (TILE_SIZE - n)]");
    ASSERT_NE(left, 0u);
    const sim::LineMemory* leftStore = findLine(lines, left, sim::Space::Shared, true);
    ASSERT_TRUE(leftStore);
    EXPECT_EQ(leftStore->requests, 2u);
    EXPECT_EQ(leftStore->lanes, 4u);
    const sim::LineMemory* leftLoad = findLine(lines, left, sim::Space::Global, false);
    ASSERT_TRUE(leftLoad);
    EXPECT_EQ(leftLoad->requests, 1u);   // block 1 only
    EXPECT_EQ(leftLoad->lanes, 2u);
    EXPECT_EQ(leftLoad->sectors, 1u);
}

// A 2D tile whose rows are not 32 words wide has bank conflicts: conv2d-tiled with
// TILE_SIZE 8 and Mask_Width 5 has blocks of 12 x 12 threads and N_ds rows of
// 8 + 9 - 1 = 16 words. Warp 0 holds rows ty = 0, 1 (tx 0..11) and ty = 2 (tx 0..7): its
// lanes store words 0..11, 16..27 and 32..39, so that a bank such as bank 0 gets two words
// (0 and 32) from lanes 0 and 24.
TEST(WarpMemorySimulation, Conv2dTiledTileStoreConflicts)
{
    const sim::Simulation r = run(sim::convScenario("conv2d-tiled", 16, 16, 8, 5));
    const sim::Totals& t = r.counters.totals;
    EXPECT_GT(t.shared_st_wavefronts, t.shared_st_requests);
    // Blocks of 144 threads = 5 warps (the last of 16 lanes). The load `N_ds[ty][tx] = N[...]`
    // and the ghost store `N_ds[ty][tx] = 0.0f` are two source accesses; on this 16 x 16
    // input every warp has lanes of both but warp 4 (rows ty 10, 11) of the blocks with
    // by = 1, whose rows lie below N: 4 blocks x 5 warps x 2 - 2 = 38 requests.
    EXPECT_EQ(t.shared_st_requests, 4u * 5 * 2 - 2);
    // Each block's 12 x 12 input tile has 10 x 10 elements inside N (two ghost rows and two
    // ghost columns at the image's edge): 4 x (144 - 100) zero fills.
    EXPECT_EQ(t.zero_fills, 4u * (144 - 100));
    // Block (0, 0), warp 0: the two requests are the ghost rows ty 0, 1 and ty 2, tx 0, 1
    // (words 0..11, 16..27, 32, 33: banks 0, 1 twice: 2 wavefronts) and ty 2, tx 2..7
    // (words 34..39: 1 wavefront).
    EXPECT_GT(blockTotals(r, {0, 0, 0}).shared_st_wavefronts, blockTotals(r, {0, 0, 0}).shared_st_requests);
    EXPECT_EQ(t.constant_ld_requests, 4u * 25 * 3);   // warps 0..2 hold the 8 x 8 outputs
}

// The per-block figures add up to the totals, field by field.
TEST(WarpMemorySimulation, PerBlockFiguresSumToTotals)
{
    for (const sim::Scenario& s : {matmul("matmul-tiled", 100, 37, 51, 16), matmul("matmul-naive", 33, 20, 70, 8),
                                   sim::convScenario("conv2d-tiled", 40, 50, 8, 5),
                                   sim::convScenario("conv1d-tiled-cache", 1, 1000, 32, 7)}) {
        SCOPED_TRACE(s.kernel);
        const sim::Simulation r = run(s);
        sim::Totals sum;
        for (const sim::Totals& b : r.counters.perBlock) sum += b;
        const sim::Totals& t = r.counters.totals;
        EXPECT_GT(t.global_ld_requests, 0u);
        EXPECT_EQ(sum.global_ld_requests, t.global_ld_requests);
        EXPECT_EQ(sum.global_ld_sectors, t.global_ld_sectors);
        EXPECT_EQ(sum.global_st_requests, t.global_st_requests);
        EXPECT_EQ(sum.global_st_sectors, t.global_st_sectors);
        EXPECT_EQ(sum.shared_ld_requests, t.shared_ld_requests);
        EXPECT_EQ(sum.shared_ld_wavefronts, t.shared_ld_wavefronts);
        EXPECT_EQ(sum.shared_st_requests, t.shared_st_requests);
        EXPECT_EQ(sum.shared_st_wavefronts, t.shared_st_wavefronts);
        EXPECT_EQ(sum.constant_ld_requests, t.constant_ld_requests);
        EXPECT_EQ(sum.constant_ld_passes, t.constant_ld_passes);
        // And the sites (whole grid, per source access) add up to them as well.
        sim::Totals bySite;
        for (const sim::AccessSite& a : r.accessSites) {
            switch (a.kind) {
            case AccessKind::GlobalLoad: bySite.global_ld_requests += a.requests; bySite.global_ld_sectors += a.sectors; bySite.global_loads += a.lanes; break;
            case AccessKind::GlobalStore: bySite.global_st_requests += a.requests; bySite.global_st_sectors += a.sectors; bySite.global_stores += a.lanes; break;
            case AccessKind::SharedLoad: bySite.shared_ld_requests += a.requests; bySite.shared_ld_wavefronts += a.wavefronts; bySite.shared_loads += a.lanes; break;
            case AccessKind::SharedStore: bySite.shared_st_requests += a.requests; bySite.shared_st_wavefronts += a.wavefronts; bySite.shared_stores += a.lanes; break;
            case AccessKind::ConstantLoad: bySite.constant_ld_requests += a.requests; bySite.constant_ld_passes += a.wavefronts; bySite.constant_loads += a.lanes; break;
            }
        }
        EXPECT_EQ(bySite.global_ld_requests, t.global_ld_requests);
        EXPECT_EQ(bySite.global_ld_sectors, t.global_ld_sectors);
        EXPECT_EQ(bySite.global_st_sectors, t.global_st_sectors);
        EXPECT_EQ(bySite.shared_ld_wavefronts, t.shared_ld_wavefronts);
        EXPECT_EQ(bySite.shared_st_wavefronts, t.shared_st_wavefronts);
        EXPECT_EQ(bySite.constant_ld_passes, t.constant_ld_passes);
        EXPECT_EQ(bySite.global_loads, t.global_loads);
        EXPECT_EQ(bySite.global_stores, t.global_stores);
        EXPECT_EQ(bySite.shared_loads, t.shared_loads);
        EXPECT_EQ(bySite.shared_stores, t.shared_stores);
        EXPECT_EQ(bySite.constant_loads, t.constant_loads);
    }
}

// The warp schedule changes which warp runs ahead, not what a warp's instructions are.
TEST(WarpMemorySimulation, ScheduleDoesNotChangeTheFigures)
{
    const sim::Scenario s = matmul("matmul-tiled", 100, 37, 51, 16);
    const sim::Simulation a = run(s);
    for (sim::Schedule sch : {sim::Schedule::Reverse, sim::Schedule::Random}) {
        sim::SimOptions o;
        o.trace = false;
        o.schedule = sch;
        o.scheduleSeed = 7;
        const sim::Simulation b = sim::simulate(s, o);
        ASSERT_EQ(b.error, "");
        EXPECT_EQ(b.counters.totals.global_ld_sectors, a.counters.totals.global_ld_sectors);
        EXPECT_EQ(b.counters.totals.shared_ld_requests, a.counters.totals.shared_ld_requests);
        EXPECT_EQ(b.counters.totals.shared_st_wavefronts, a.counters.totals.shared_st_wavefronts);
        EXPECT_EQ(b.counters.totals.global_st_sectors, a.counters.totals.global_st_sectors);
    }
}

// With the memory model off the new fields stay zero, and nothing else changes: P, the
// element counts, barriers, flops, the per-element counters.
TEST(WarpMemorySimulation, ModelOffLeavesFieldsZeroAndChangesNothingElse)
{
    for (const sim::Scenario& s : {matmul("matmul-tiled", 100, 37, 51, 16), sim::convScenario("conv2d-tiled", 40, 50, 8, 5),
                                   sim::convScenario("conv1d-tiled-cache", 1, 500, 32, 5)}) {
        SCOPED_TRACE(s.kernel);
        const sim::Simulation on = run(s, true, true);
        const sim::Simulation off = run(s, true, false);
        EXPECT_TRUE(off.accessSites.empty());
        EXPECT_FALSE(on.accessSites.empty());
        ASSERT_EQ(on.P.size(), off.P.size());
        EXPECT_EQ(std::memcmp(on.P.data(), off.P.data(), on.P.size() * sizeof(float)), 0);
        std::vector<sim::Totals> blocks = off.counters.perBlock;
        blocks.push_back(off.counters.totals);
        for (const sim::Totals& t : blocks) {
            EXPECT_EQ(t.global_ld_requests + t.global_ld_sectors + t.global_st_requests + t.global_st_sectors +
                          t.shared_ld_requests + t.shared_ld_wavefronts + t.shared_st_requests +
                          t.shared_st_wavefronts + t.constant_ld_requests + t.constant_ld_passes,
                      0u);
        }
        EXPECT_GT(on.counters.totals.global_ld_requests, 0u);
        const sim::Totals& a = on.counters.totals;
        const sim::Totals& b = off.counters.totals;
        EXPECT_EQ(a.global_loads, b.global_loads);
        EXPECT_EQ(a.global_stores, b.global_stores);
        EXPECT_EQ(a.shared_loads, b.shared_loads);
        EXPECT_EQ(a.shared_stores, b.shared_stores);
        EXPECT_EQ(a.constant_loads, b.constant_loads);
        EXPECT_EQ(a.zero_fills, b.zero_fills);
        EXPECT_EQ(a.barriers, b.barriers);
        EXPECT_EQ(a.flops, b.flops);
        EXPECT_EQ(on.counters.elementLoads, off.counters.elementLoads);
        EXPECT_EQ(on.counters.elementStores, off.counters.elementStores);
        EXPECT_EQ(on.trace.events.size(), off.trace.events.size());
        // compulsory bytes come from the element counters: the same either way.
        EXPECT_EQ(sim::compulsoryBytes(on), sim::compulsoryBytes(off));
    }
}

}  // namespace
}  // namespace ts::test
