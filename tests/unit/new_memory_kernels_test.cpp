// The kernels that teach memory coalescing and shared-memory bank conflicts
// (kernels/matmul_naive_uncoalesced.cuh, matmul_tiled_nds_transposed.cuh,
// matmul_tiled_nds_padded.cuh, matmul_corner_turning.cuh; PMPP sec. 5.3 and 6.1; presets
// coalescing-naive-64, coalescing-uncoalesced-64, nds-transposed-64-tile16,
// nds-padded-64-tile16, corner-turning-64-tile16): they compute
// P bit for bit as the fused CPU reference does, and their warp memory figures have the
// shape the addresses give. Every expected figure below is worked out by hand from the index
// expressions, in the comment beside it: 32 lanes a warp by linear index (tx fastest),
// 32-byte sectors of global memory, 32 banks of 4-byte words in shared memory, Mds before
// Nds in shared memory (sim/engine/warp_memory.hpp).
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <set>
#include <string>

#include "sim/teaching/kernel_view.hpp"
#include "sim/engine/provenance.hpp"
#include "sim/engine/warp_memory.hpp"
#include "sim/engine/work_estimate.hpp"
#include "fused_product.hpp"
#include "trace_query.hpp"

namespace ts::test {
namespace {

constexpr const char* kUncoalesced = "matmul-naive-uncoalesced";
constexpr const char* kTransposed = "matmul-tiled-nds-transposed";
constexpr const char* kPadded = "matmul-tiled-nds-padded";
constexpr const char* kCorner = "matmul-corner-turning";

struct Shape {
    int j, k, l;
};

/// Elements of `a` and `b` whose bits differ (the sizes must agree).
size_t differing(const std::vector<float>& a, const std::vector<float>& b)
{
    if (a.size() != b.size()) return std::max(a.size(), b.size());
    size_t n = 0;
    for (size_t i = 0; i < a.size(); ++i) n += std::memcmp(&a[i], &b[i], sizeof(float)) != 0;
    return n;
}

sim::Simulation run(const sim::Scenario& s, bool trace = false)
{
    sim::SimOptions o;
    o.trace = trace;
    return sim::simulate(s, o);
}

std::string name(const sim::Scenario& s)
{
    return s.kernel + " tile " + std::to_string(s.tile) + " " + std::to_string(s.j) + "x" + std::to_string(s.k) +
           "x" + std::to_string(s.l);
}

/// The 1-based line of kernel `kernel`'s source that holds `text` (0 if none).
unsigned lineOf(const std::string& kernel, const std::string& text)
{
    const std::string& src = sim::kernelSource(sim::findKernel(kernel)->sourceFile);
    const size_t at = src.find(text);
    if (at == std::string::npos) return 0;
    unsigned line = 1;
    for (size_t i = 0; i < at; ++i) line += src[i] == '\n';
    return line;
}

/// The memory figures of one source access: array `array` on the line holding `text`.
sim::AccessSite site(const sim::Simulation& r, const std::string& text, const std::string& array,
                     sim::AccessKind kind)
{
    const unsigned line = lineOf(r.scenario.kernel, text);
    EXPECT_NE(line, 0u) << "no line holds " << text;
    const int a = r.arrayIndex(array);
    for (const sim::AccessSite& s : r.accessSites)
        if (s.line == line && s.array == a && s.kind == kind) return s;
    ADD_FAILURE() << "no access to " << array << " on line " << line << " (" << text << ")";
    return {};
}

// ---------------------------------------------------------------------------------------
// Bit for bit

const Shape kShapes[] = {{1, 1, 1}, {17, 17, 17}, {64, 64, 64}, {100, 37, 51}, {33, 65, 31}};

void expectBitExact(const sim::Scenario& s)
{
    SCOPED_TRACE(name(s));
    ASSERT_EQ(sim::validate(s), "");
    const sim::Simulation r = run(s);
    ASSERT_EQ(r.error, "");
    EXPECT_TRUE(r.matchesReference);
    EXPECT_EQ(differing(r.P, fusedProduct(r.M, r.N, s.j, s.k, s.l)), 0u);
}

TEST(NewMemoryKernels, UncoalescedMatchesFusedReference)
{
    for (const Shape& sh : kShapes)
        for (int edge : {1, 3, 8, 16, 32}) expectBitExact(matmul(kUncoalesced, sh.j, sh.k, sh.l, edge));
}

TEST(NewMemoryKernels, TransposedAndPaddedMatchFusedReference)
{
    for (const char* kernel : {kTransposed, kPadded})
        for (const Shape& sh : kShapes)
            for (int tile : sim::kTileWidths) expectBitExact(matmul(kernel, sh.j, sh.k, sh.l, tile));
}

// The same products in the same order: the new kernels' P is the old kernels' P, bit for bit.
TEST(NewMemoryKernels, SamePAsTheirTextbookCounterparts)
{
    for (int tile : {8, 16, 32}) {
        const sim::Simulation naive = run(matmul("matmul-naive", 100, 37, 51, tile));
        const sim::Simulation tiled = run(matmul("matmul-tiled", 100, 37, 51, tile));
        EXPECT_EQ(differing(run(matmul(kUncoalesced, 100, 37, 51, tile)).P, naive.P), 0u) << tile;
        EXPECT_EQ(differing(run(matmul(kTransposed, 100, 37, 51, tile)).P, tiled.P), 0u) << tile;
        EXPECT_EQ(differing(run(matmul(kPadded, 100, 37, 51, tile)).P, tiled.P), 0u) << tile;
        EXPECT_EQ(differing(tiled.P, naive.P), 0u) << tile;
    }
}

// ---------------------------------------------------------------------------------------
// The launch and the views of matmul-naive-uncoalesced: Row along x

TEST(NewMemoryKernels, UncoalescedGridRunsOverRows)
{
    // j = 100 rows in blocks of 16: 7 along x; l = 51 columns: 4 along y.
    const sim::LaunchShape sh = sim::launchShape(matmul(kUncoalesced, 100, 37, 51, 16));
    EXPECT_EQ(sh.grid.x, 7u);
    EXPECT_EQ(sh.grid.y, 4u);
    const sim::LaunchShape naive = sim::launchShape(matmul("matmul-naive", 100, 37, 51, 16));
    EXPECT_EQ(naive.grid.x, 4u);
    EXPECT_EQ(naive.grid.y, 7u);
    // Block (6, 3) exists only with rows along x.
    EXPECT_EQ(sim::validate(matmul(kUncoalesced, 100, 37, 51, 16, {6, 3, 0})), "");
    EXPECT_NE(sim::validate(matmul("matmul-naive", 100, 37, 51, 16, {6, 3, 0})), "");
}

TEST(NewMemoryKernels, UncoalescedThreadComputesRowFromX)
{
    // Thread (tx 5, ty 2) of block (6, 3), edge 16: Row = 6*16 + 5 = 101, Col = 3*16 + 2 = 50,
    // past P's 100 rows, so it stores nothing: the block's layout (fitted to the threads that
    // store) places it there. Its neighbour (tx 2) computes Row 98.
    const sim::Scenario s = matmul(kUncoalesced, 100, 37, 51, 16, {6, 3, 0});
    const sim::Simulation r = sim::simulate(s);
    ASSERT_EQ(r.error, "");
    const int P = r.arrayIndex("P");
    const auto p = sim::threadElement(r.trace, P, 2 * 16 + 5);
    ASSERT_TRUE(p);
    EXPECT_EQ(p->row, 101);
    EXPECT_EQ(p->col, 50);
    EXPECT_EQ(sim::storesOf(r.trace, P, 2 * 16 + 5).size(), 0u);
    EXPECT_EQ(sim::storesOf(r.trace, P, 2 * 16 + 2), std::vector<int32_t>{98 * 51 + 50});
    // matmul-naive takes Row from y: thread (5, 2) of block (2, 3) computes (3*16 + 2, 2*16 + 5).
    const sim::Simulation n = sim::simulate(matmul("matmul-naive", 100, 37, 51, 16, {2, 3, 0}));
    ASSERT_EQ(n.error, "");
    const auto q = sim::threadElement(n.trace, n.arrayIndex("P"), 2 * 16 + 5);
    ASSERT_TRUE(q);
    EXPECT_EQ(q->row, 3 * 16 + 2);
    EXPECT_EQ(q->col, 2 * 16 + 5);
    // The block wrote rows 96-99 (P ends at 100) and columns 48-50 (P ends at 51).
    const auto tile = sim::writtenRect(r, P, s.block);
    ASSERT_TRUE(tile);
    EXPECT_EQ(tile->row0, 96);
    EXPECT_EQ(tile->col0, 48);
    EXPECT_EQ(tile->rows, 4);
    EXPECT_EQ(tile->cols, 3);
    // Every element of P has the writer Row and Col say: block (Row / 16, Col / 16).
    for (int row = 0; row < 100; row += 7)
        for (int col = 0; col < 51; col += 5) {
            const auto w = sim::writerOf(r, P, row * 51 + col);
            ASSERT_TRUE(w);
            EXPECT_EQ(w->block.x, static_cast<unsigned>(row / 16));
            EXPECT_EQ(w->block.y, static_cast<unsigned>(col / 16));
            EXPECT_EQ(w->thread, (col % 16) * 16 + row % 16);
        }
}

// Every recorded access of every thread of an edge block agrees with its index expression
// evaluated with the code view's variables (Row and Col from the right axes; the
// column-major subscript of matmul-corner-turning's N, a 1D subscript, is the flat index).
TEST(NewMemoryKernels, CodeViewExpressionsAgreeWithRecordedIndices)
{
    for (const sim::Scenario& s : {matmul(kUncoalesced, 20, 6, 11, 8, {2, 1, 0}),
                                   matmul(kTransposed, 11, 6, 20, 8, {2, 1, 0}),
                                   matmul(kPadded, 11, 6, 20, 8, {2, 1, 0}),
                                   matmul(kCorner, 11, 6, 20, 8, {2, 1, 0})}) {
        SCOPED_TRACE(name(s));
        const sim::Simulation r = run(s, true);
        ASSERT_EQ(r.error, "");
        const std::string& src = sim::kernelSource(sim::findKernel(s.kernel)->sourceFile);
        size_t checked = 0;
        for (int step = 0; step < static_cast<int>(r.trace.steps.size()); ++step)
            for (int t = 0; t < static_cast<int>(r.block.count()); ++t)
                for (const sim::AccessExplanation& e : sim::explainAccesses(s, r.trace, t, step, src)) {
                    EXPECT_TRUE(e.agrees()) << "step " << step << " thread " << t << ": " << e.written << " -> "
                                            << e.evaluated << ", recorded " << e.recorded << " " << e.error;
                    ++checked;
                }
        EXPECT_GT(checked, 100u);
    }
}

// The untiled loads of a block and the work estimate of its trace follow the block's rows
// along x: block (6, 3) of 100x37x51 at edge 16 owns rows 96-99 and columns 48-50, 12 valid
// threads, 2 x 37 loads each = 888 (with rows along y it would own rows 48-63 and columns
// 96-111, none of them in P).
TEST(NewMemoryKernels, UncoalescedBlockFiguresFollowRowsAlongX)
{
    const sim::Scenario s = matmul(kUncoalesced, 100, 37, 51, 16, {6, 3, 0});
    EXPECT_EQ(sim::untiledGlobalLoads(s, s.block), 888u);
    const sim::Simulation r = run(s, true);
    ASSERT_EQ(r.error, "");
    EXPECT_EQ(r.counters.perBlock.at(sim::linearBlock(r.grid, s.block)).global_loads, 888u);
    sim::SimOptions o;
    o.trace = true;
    const sim::WorkEstimate e = sim::estimateWork(s, o);
    EXPECT_GE(e.tracedEvents, r.trace.events.size());
    EXPECT_LE(e.tracedEvents, r.trace.events.size() * 11 / 10);
}

// The work estimate knows the new kernels as it knows their counterparts: counts exact,
// the traced block's events an upper bound at most a tenth above (corner blocks, whose
// threads are mostly idle).
TEST(NewMemoryKernels, WorkEstimateMatchesTheCounters)
{
    for (const sim::Scenario& s : {matmul(kUncoalesced, 100, 37, 51, 16, {6, 3, 0}),
                                   matmul(kTransposed, 100, 37, 51, 16, {3, 6, 0}),
                                   matmul(kPadded, 100, 37, 51, 16, {3, 6, 0})}) {
        SCOPED_TRACE(name(s));
        sim::SimOptions o;
        o.trace = true;
        const sim::WorkEstimate e = sim::estimateWork(s, o);
        const sim::Simulation r = sim::simulate(s, o);
        ASSERT_EQ(r.error, "");
        const sim::Totals& t = r.counters.totals;
        EXPECT_EQ(e.blocks, r.grid.count());
        EXPECT_EQ(e.fmas, t.flops / 2);
        EXPECT_EQ(e.globalAccesses, t.global_loads + t.global_stores);
        EXPECT_EQ(e.sharedAccesses, t.shared_loads + t.shared_stores);
        EXPECT_EQ(e.barrierWaits, t.barriers * r.block.count());
        EXPECT_GE(e.tracedEvents, r.trace.events.size());
        EXPECT_LE(e.tracedEvents, r.trace.events.size() * 11 / 10);
    }
}

/// The placement of the first load step of `array` in phase `phase` of `r`'s trace.
std::optional<sim::SlotPlacement> placementIn(const sim::Simulation& r, int phase, const char* array)
{
    const int a = r.arrayIndex(array);
    for (int k = 0; k < static_cast<int>(r.trace.steps.size()); ++k) {
        const sim::Step& st = r.trace.steps[k];
        if (st.phase != phase || st.kind != sim::StepKind::LoadTile) continue;
        for (int n = st.begin; n < st.end; ++n)
            if (r.trace.events[n].array == a) return sim::slotPlacement(r.trace, k, a);
    }
    return std::nullopt;
}

TEST(NewMemoryKernels, TransposedSlotsNameTheirNElement)
{
    // Phase 1, block (2, 0), TILE_WIDTH 4: the N tile is rows 4-7, columns 8-11. Nds[c][r]
    // holds N[4 + r][8 + c], so Nds[3][1] holds N[5][11]; Mds[3][1] holds M[0*4 + 3][4 + 1].
    const sim::Simulation r = sim::simulate(matmul(kTransposed, 8, 8, 12, 4, {2, 0, 0}));
    ASSERT_EQ(r.error, "");
    const auto n = placementIn(r, 1, "Nds");
    ASSERT_TRUE(n);
    EXPECT_TRUE(n->swapped);
    EXPECT_EQ(n->element(3, 1).row, 5);
    EXPECT_EQ(n->element(3, 1).col, 11);
    const auto m = placementIn(r, 1, "Mds");
    ASSERT_TRUE(m);
    EXPECT_FALSE(m->swapped);
    EXPECT_EQ(m->element(3, 1).row, 3);
    EXPECT_EQ(m->element(3, 1).col, 5);
    // matmul-tiled keeps Nds the right way round: Nds[3][1] holds N[4 + 3][8 + 1].
    const sim::Simulation t = sim::simulate(matmul("matmul-tiled", 8, 8, 12, 4, {2, 0, 0}));
    const auto plain = placementIn(t, 1, "Nds");
    ASSERT_TRUE(plain);
    EXPECT_EQ(plain->element(3, 1).row, 7);
    EXPECT_EQ(plain->element(3, 1).col, 9);
    // The padded kernel's extra column is never written: no store of Nds has column 4.
    const sim::Simulation pad = sim::simulate(matmul(kPadded, 8, 8, 12, 4, {2, 0, 0}));
    const int nds = pad.arrayIndex("Nds");
    for (const sim::Event& e : pad.trace.events)
        if (e.array == nds && (e.op == sim::Op::SharedStore || e.op == sim::Op::ZeroFill))
            EXPECT_NE(e.index % 5, 4);
}

// ---------------------------------------------------------------------------------------
// Coalescing: global sectors per request

const char* const kNaiveLine = "Pvalue += M[Row*k + i] * N[i*l + Col];";
const char* const kStoreLine = "P[Row*l + Col] = Pvalue;";

TEST(NewMemoryKernels, UncoalescedMReadsTakeASectorPerRow)
{
    // 64 x 64 x 64, block edge 32: a warp is one ty and tx 0..31 (32 lanes by linear index).
    // Requests of M: 2 x 2 blocks x 32 warps x 64 iterations = 8192 for either kernel.
    // matmul-naive: Row = by*32 + ty is the same for the warp, M[Row*64 + i] one word: 1 sector.
    //   N[i*64 + Col], Col = bx*32 + tx: 32 consecutive words, 128 aligned bytes: 4 sectors.
    //   P[Row*64 + Col] likewise 4 sectors; 2 x 2 x 32 = 128 store requests.
    // uncoalesced: Row = bx*32 + tx, so the 32 lanes read M[Row*64 + i] 64 words = 256 bytes
    //   apart: 32 sectors. Col = by*32 + ty is one column: N is one word, 1 sector. The P
    //   writes are 64 words apart too: 32 sectors.
    const sim::Simulation naive = run(matmul("matmul-naive", 64, 64, 64, 32));
    const sim::Simulation unco = run(matmul(kUncoalesced, 64, 64, 64, 32));
    ASSERT_EQ(naive.error, "");
    ASSERT_EQ(unco.error, "");
    const sim::AccessSite nM = site(naive, kNaiveLine, "M", sim::AccessKind::GlobalLoad);
    const sim::AccessSite nN = site(naive, kNaiveLine, "N", sim::AccessKind::GlobalLoad);
    const sim::AccessSite nP = site(naive, kStoreLine, "P", sim::AccessKind::GlobalStore);
    const sim::AccessSite uM = site(unco, kNaiveLine, "M", sim::AccessKind::GlobalLoad);
    const sim::AccessSite uN = site(unco, kNaiveLine, "N", sim::AccessKind::GlobalLoad);
    const sim::AccessSite uP = site(unco, kStoreLine, "P", sim::AccessKind::GlobalStore);
    for (const sim::AccessSite* s : {&nM, &nN, &uM, &uN}) EXPECT_EQ(s->requests, 8192u);
    EXPECT_EQ(nP.requests, 128u);
    EXPECT_EQ(uP.requests, 128u);
    EXPECT_EQ(nM.sectors, 1 * 8192u);
    EXPECT_EQ(nN.sectors, 4 * 8192u);
    EXPECT_EQ(nP.sectors, 4 * 128u);
    EXPECT_EQ(uM.sectors, 32 * 8192u);
    EXPECT_EQ(uN.sectors, 1 * 8192u);
    EXPECT_EQ(uP.sectors, 32 * 128u);
}

TEST(NewMemoryKernels, UncoalescedAtEdge16)
{
    // Width 64, edge 16 (presets coalescing-naive-64 and coalescing-uncoalesced-64): a warp
    // is tx 0..15 of two ty. 4 x 4 blocks x 8 warps x 64 iterations = 8192 requests of M.
    // naive: M[Row*64 + i] with two rows (ty 0, 1): 2 sectors; N: 16 consecutive words from a
    //   64-byte boundary (Col = bx*16 + tx): 2 sectors; P: two rows of 16 words: 4 sectors.
    // uncoalesced: M 16 rows (tx): 16 sectors; N two neighbouring words (Col = by*16 + ty,
    //   even first): 1 sector; P 16 rows of two neighbouring words: 16 sectors.
    const sim::Simulation naive = run(matmul("matmul-naive", 64, 64, 64, 16));
    const sim::Simulation unco = run(matmul(kUncoalesced, 64, 64, 64, 16));
    EXPECT_EQ(site(naive, kNaiveLine, "M", sim::AccessKind::GlobalLoad).sectors, 2 * 8192u);
    EXPECT_EQ(site(naive, kNaiveLine, "N", sim::AccessKind::GlobalLoad).sectors, 2 * 8192u);
    EXPECT_EQ(site(naive, kStoreLine, "P", sim::AccessKind::GlobalStore).sectors, 4 * 128u);
    EXPECT_EQ(site(unco, kNaiveLine, "M", sim::AccessKind::GlobalLoad).sectors, 16 * 8192u);
    EXPECT_EQ(site(unco, kNaiveLine, "N", sim::AccessKind::GlobalLoad).sectors, 1 * 8192u);
    EXPECT_EQ(site(unco, kStoreLine, "P", sim::AccessKind::GlobalStore).sectors, 16 * 128u);
    // Whole launch: (2 + 2) x 8192 = 32768 sectors for 16384 load requests, 2 a request,
    // against (16 + 1) x 8192 = 139264, 8.5 a request; the bytes read are the same.
    EXPECT_EQ(naive.counters.totals.global_ld_sectors, 32768u);
    EXPECT_EQ(unco.counters.totals.global_ld_sectors, 139264u);
    EXPECT_EQ(unco.counters.totals.global_ld_requests, 16384u);
    EXPECT_EQ(unco.counters.totals.global_loads, naive.counters.totals.global_loads);
}

// ---------------------------------------------------------------------------------------
// Bank conflicts: shared wavefronts per request

const char* const kReadLine = "Pvalue += Mds[ty][i] * Nds[tx][i];";
const char* const kNdsStoreLine = "Nds[tx][ty] = N[(ph*TILE_WIDTH + ty)*l + Col];";

/// Nds read requests of a square problem of `width`: blocks x warps x phases x TILE_WIDTH.
uint64_t ndsReads(int width, int tile)
{
    const uint64_t blocks = 1ull * (width / tile) * (width / tile);
    const uint64_t warps = 1ull * tile * tile / 32;
    return blocks * warps * (width / tile) * tile;
}

TEST(NewMemoryKernels, TransposedNdsReadsConflict)
{
    // Nds starts after Mds, TILE_WIDTH^2 words in: a multiple of 32 for TILE_WIDTH 8, 16, 32,
    // so Nds[r][c] is in bank (r*TILE_WIDTH + c) mod 32. Lane (tx, ty) reads Nds[tx][i].
    // TILE_WIDTH 8: tx 0..7 (four ty share each word): banks 8tx + i mod 32 = i, 8+i, 16+i,
    //   24+i, then again: 8 words in 4 banks, 2 each: 2 wavefronts.
    // TILE_WIDTH 16: tx 0..15: 16tx + i mod 32 = i (tx even) or 16+i (tx odd): 16 words in
    //   2 banks, 8 each: 8 wavefronts, 7 conflicts per request.
    // TILE_WIDTH 32: tx 0..31: 32tx + i mod 32 = i: 32 words in one bank: 32 wavefronts.
    // Mds[ty][i] is one word per ty (a broadcast), ty rows TILE_WIDTH apart: at most 4 words
    // in 4 different banks: 1 wavefront.
    const struct {
        int tile;
        uint64_t way;
    } cases[] = {{8, 2}, {16, 8}, {32, 32}};
    for (const auto& c : cases) {
        SCOPED_TRACE(c.tile);
        const sim::Simulation r = run(matmul(kTransposed, 64, 64, 64, c.tile));
        ASSERT_EQ(r.error, "");
        const sim::AccessSite nds = site(r, kReadLine, "Nds", sim::AccessKind::SharedLoad);
        const sim::AccessSite mds = site(r, kReadLine, "Mds", sim::AccessKind::SharedLoad);
        EXPECT_EQ(nds.requests, ndsReads(64, c.tile));
        EXPECT_EQ(nds.wavefronts, c.way * nds.requests);
        EXPECT_EQ(mds.requests, nds.requests);
        EXPECT_EQ(mds.wavefronts, mds.requests);
    }
}

TEST(NewMemoryKernels, PaddedNdsReadsDoNotConflict)
{
    // Nds[r][c] is word TILE_WIDTH^2 + r*(TILE_WIDTH + 1) + c; the base is a multiple of 32,
    // so lane tx reading Nds[tx][i] is in bank (tx*(TILE_WIDTH + 1) + i) mod 32. TILE_WIDTH
    // + 1 is odd, so the tx of a warp (at most 32 of them) land in distinct banks:
    // 1 wavefront per request at every tile.
    for (int tile : {8, 16, 32}) {
        SCOPED_TRACE(tile);
        const sim::Simulation r = run(matmul(kPadded, 64, 64, 64, tile));
        ASSERT_EQ(r.error, "");
        const sim::AccessSite nds = site(r, kReadLine, "Nds", sim::AccessKind::SharedLoad);
        EXPECT_EQ(nds.requests, ndsReads(64, tile));
        EXPECT_EQ(nds.wavefronts, nds.requests);
        EXPECT_EQ(site(r, kReadLine, "Mds", sim::AccessKind::SharedLoad).wavefronts, nds.requests);
    }
}

TEST(NewMemoryKernels, NdsStoresAtTile16)
{
    // Stores Nds[tx][ty] at TILE_WIDTH 16, one request per warp and phase: 16 blocks x 8
    // warps x 4 phases = 512. A warp is tx 0..15 of ty = 2w, 2w + 1.
    // transposed: word 256 + 16tx + ty, bank 16tx + ty mod 32 = ty (tx even) or 16 + ty
    //   (tx odd): 32 words in 4 banks, 8 each: 8 wavefronts.
    // padded: word 256 + 17tx + ty, bank (17tx + ty) mod 32 with 17tx mod 32 = tx (tx even)
    //   or 16 + tx (tx odd). For warp 0 (ty 0, 1): tx even gives banks 0 to 15 once each, tx
    //   odd gives 17 to 31 and 32 = bank 0 (tx 15, ty 1), so bank 0 holds two words:
    //   2 wavefronts. Warp w adds 2w to every bank, which keeps exactly one bank doubled.
    // matmul-tiled's Nds[ty][tx] is 32 consecutive words: 1 wavefront.
    const sim::Simulation tr = run(matmul(kTransposed, 64, 64, 64, 16));
    const sim::Simulation pd = run(matmul(kPadded, 64, 64, 64, 16));
    const sim::AccessSite t = site(tr, kNdsStoreLine, "Nds", sim::AccessKind::SharedStore);
    const sim::AccessSite p = site(pd, kNdsStoreLine, "Nds", sim::AccessKind::SharedStore);
    EXPECT_EQ(t.requests, 512u);
    EXPECT_EQ(t.wavefronts, 8 * 512u);
    EXPECT_EQ(p.requests, 512u);
    EXPECT_EQ(p.wavefronts, 2 * 512u);
    // The global reads on that line are matmul-tiled's: two rows of 16 words, 4 sectors.
    EXPECT_EQ(site(tr, kNdsStoreLine, "N", sim::AccessKind::GlobalLoad).sectors, 4 * 512u);
    EXPECT_EQ(site(pd, kNdsStoreLine, "N", sim::AccessKind::GlobalLoad).sectors, 4 * 512u);
}

// At a ragged size the edge warps are partly idle, and the conflicts stay: the transposed
// reads still conflict, the padded ones still do not.
TEST(NewMemoryKernels, RaggedSizesKeepTheShape)
{
    for (int tile : {8, 16, 32}) {
        SCOPED_TRACE(tile);
        const sim::Simulation tr = run(matmul(kTransposed, 100, 37, 51, tile));
        const sim::Simulation pd = run(matmul(kPadded, 100, 37, 51, tile));
        ASSERT_EQ(tr.error, "");
        ASSERT_EQ(pd.error, "");
        const sim::AccessSite t = site(tr, kReadLine, "Nds", sim::AccessKind::SharedLoad);
        const sim::AccessSite p = site(pd, kReadLine, "Nds", sim::AccessKind::SharedLoad);
        EXPECT_EQ(t.requests, p.requests);
        EXPECT_GT(t.wavefronts, t.requests);
        EXPECT_EQ(p.wavefronts, p.requests);
        // Some requests have idle lanes (rows past 100 or columns past 51).
        EXPECT_LT(t.lanes, 32 * t.requests);
    }
}

// ---------------------------------------------------------------------------------------
// Corner turning: N stored column-major, read down its columns (PMPP sec. 6.1)

const char* const kCornerNLine = "Nds[tx][ty] = N[(bx*TILE_WIDTH + ty)*k + ph*TILE_WIDTH + tx];";
const char* const kTiledNLine = "Nds[ty][tx] = N[(ph*TILE_WIDTH + ty)*l + Col];";
const char* const kMLine = "Mds[ty][tx] = M[Row*k + ph*TILE_WIDTH + tx];";

TEST(CornerTurning, MatchesFusedReferenceAndTiledP)
{
    // The inputs stay row-major (the reference multiplies them as they are); only the copy
    // the kernel reads is laid out column by column. Square and ragged sizes, every tile.
    for (const Shape& sh : kShapes)
        for (int tile : sim::kTileWidths) expectBitExact(matmul(kCorner, sh.j, sh.k, sh.l, tile));
    for (int tile : {8, 16, 32})
        EXPECT_EQ(differing(run(matmul(kCorner, 100, 37, 51, tile)).P, run(matmul("matmul-tiled", 100, 37, 51, tile)).P),
                  0u)
            << tile;
}

TEST(CornerTurning, NIsStoredColumnMajor)
{
    // 5 x 3 (k x l) column-major: element (r, c) at c*5 + r. (4, 2) is 2*5 + 4 = 14 (row-major
    // 4*3 + 2 = 14 as well, the last element), (1, 0) is 1 and (0, 1) is 5 (row-major 3 and
    // 1); flat 7 is row 2 of column 1 (row-major: row 2, column 1 too, 2*3 + 1).
    const sim::ArrayInfo n{"N", sim::Space::Global, 5, 3, true};
    EXPECT_EQ(n.flat(4, 2), 14);
    EXPECT_EQ(n.flat(1, 0), 1);
    EXPECT_EQ(n.flat(0, 1), 5);
    EXPECT_EQ(n.rowCol(7).row, 2);
    EXPECT_EQ(n.rowCol(7).col, 1);
    sim::ArrayInfo rowMajor = n;
    rowMajor.columnMajor = false;
    EXPECT_EQ(rowMajor.flat(0, 1), 1);
    EXPECT_EQ(rowMajor.rowCol(7).row, 2);
    EXPECT_EQ(rowMajor.rowCol(7).col, 1);
    for (long long i = 0; i < n.size(); ++i) EXPECT_EQ(n.flat(n.rowCol(i).row, n.rowCol(i).col), i);
    const std::vector<int> values{0, 1, 2, 10, 11, 12, 20, 21, 22, 30, 31, 32, 40, 41, 42};   // 10r + c
    const std::vector<int> stored = n.laidOut(values);
    EXPECT_EQ(stored, (std::vector<int>{0, 10, 20, 30, 40, 1, 11, 21, 31, 41, 2, 12, 22, 32, 42}));
    EXPECT_EQ(n.rowMajor(stored), values);

    // The simulation's N says so, and every N value the kernel loaded (at its flat index in
    // the column-major copy) is the row-major input's element at that row and column.
    const sim::Simulation r = run(matmul(kCorner, 11, 6, 20, 4, {2, 1, 0}), true);
    ASSERT_EQ(r.error, "");
    const int iN = r.arrayIndex("N");
    ASSERT_GE(iN, 0);
    EXPECT_TRUE(r.arrays[iN].columnMajor);
    EXPECT_FALSE(r.arrays[r.arrayIndex("M")].columnMajor);
    EXPECT_FALSE(run(matmul("matmul-tiled", 11, 6, 20, 4)).arrays[iN].columnMajor);
    size_t checked = 0;
    for (const sim::Event& e : r.trace.events) {
        if (e.op != sim::Op::GlobalLoad || e.array != iN) continue;
        // Block (2, 1) at tile 4 loads columns 8..11 of N: flat c*6 + r for c in 8..11.
        const sim::RowCol rc = r.arrays[iN].rowCol(e.index);
        EXPECT_GE(rc.col, 8);
        EXPECT_LT(rc.col, 12);
        EXPECT_EQ(e.index, rc.col * 6 + rc.row);
        EXPECT_EQ(e.value, r.N[static_cast<size_t>(rc.row) * 20 + rc.col]);
        ++checked;
    }
    // 4 x 4 threads, 2 phases (k = 6), rows 0..5 in range: 6 rows x 4 columns per block.
    EXPECT_EQ(checked, 24u);
}

/// Global load requests and sectors of the corner-turning N load, counted apart from the
/// simulator: for each warp of each block and each phase, the lanes (tx fastest) whose
/// element is inside N read 4-byte words at (bx*T + ty)*k + ph*T + tx; a request per warp
/// with an active lane, a sector per distinct 32-byte piece.
std::pair<uint64_t, uint64_t> cornerNLoads(int j, int k, int l, int T)
{
    uint64_t requests = 0, sectors = 0;
    const int gx = (l + T - 1) / T, gy = (j + T - 1) / T, phases = (k - 1) / T + 1;
    for (int bx = 0; bx < gx; ++bx)
        for (int by = 0; by < gy; ++by)
            for (int w = 0; w * 32 < T * T; ++w)
                for (int ph = 0; ph < phases; ++ph) {
                    std::set<long long> s;
                    for (int lane = 0; lane < 32 && w * 32 + lane < T * T; ++lane) {
                        const int tx = (w * 32 + lane) % T, ty = (w * 32 + lane) / T;
                        if (ph * T + tx < k && bx * T + ty < l) s.insert((4ll * ((bx * T + ty) * k + ph * T + tx)) / 32);
                    }
                    requests += !s.empty();
                    sectors += s.size();
                }
    return {requests, sectors};
}

TEST(CornerTurning, NReadsAreCoalescedAsMatmulTiled)
{
    // 64 x 64 x 64, TILE_WIDTH 16 (preset corner-turning-64-tile16): 16 blocks x 8 warps x
    // 4 phases = 512 requests. A warp is tx 0..15 of two ty: two runs of 16 consecutive words
    // from a 64-byte boundary (column bx*16 + ty, rows ph*16..ph*16 + 15), 2 sectors each:
    // 4 a request, as matmul-tiled's two rows of 16 words. Had matmul-tiled read this
    // column-major N with its own indices (tx across the columns), each lane would sit in
    // a column of its own, 64 words apart: 16 sectors a request (rows ty and ty + 1 of a
    // column are neighbouring words, in one sector).
    const auto [req, sec] = cornerNLoads(64, 64, 64, 16);
    EXPECT_EQ(req, 512u);
    EXPECT_EQ(sec, 4 * 512u);
    const sim::Simulation corner = run(matmul(kCorner, 64, 64, 64, 16));
    const sim::Simulation tiled = run(matmul("matmul-tiled", 64, 64, 64, 16));
    ASSERT_EQ(corner.error, "");
    const sim::AccessSite c = site(corner, kCornerNLine, "N", sim::AccessKind::GlobalLoad);
    const sim::AccessSite t = site(tiled, kTiledNLine, "N", sim::AccessKind::GlobalLoad);
    EXPECT_EQ(c.requests, req);
    EXPECT_EQ(c.sectors, sec);
    EXPECT_EQ(c.requests, t.requests);
    EXPECT_EQ(c.sectors, t.sectors);
    // M and P are matmul-tiled's, so the whole launch is too.
    EXPECT_EQ(site(corner, kMLine, "M", sim::AccessKind::GlobalLoad).sectors,
              site(tiled, kMLine, "M", sim::AccessKind::GlobalLoad).sectors);
    for (auto f : {&sim::Totals::global_ld_requests, &sim::Totals::global_ld_sectors, &sim::Totals::global_st_requests,
                   &sim::Totals::global_st_sectors, &sim::Totals::global_loads})
        EXPECT_EQ(corner.counters.totals.*f, tiled.counters.totals.*f);
    // Each element of N is read once per block row of the grid, 64 / 16 = 4 times.
    EXPECT_EQ(corner.counters.elementLoads[corner.arrayIndex("N")], std::vector<uint32_t>(64 * 64, 4u));
}

TEST(CornerTurning, RaggedNReadsCountedApart)
{
    // Ragged sizes: partial warps, rows past k and columns past l left out by the boundary
    // check. The direct count and the simulator's agree at every tile, and every element of
    // N is read once per block row of the grid, ceil(j / T) times.
    for (const Shape& sh : {Shape{100, 37, 51}, Shape{33, 65, 31}})
        for (int tile : {4, 8, 16, 32}) {
            SCOPED_TRACE(std::to_string(tile) + " " + std::to_string(sh.j) + "x" + std::to_string(sh.k) + "x" +
                         std::to_string(sh.l));
            const sim::Simulation r = run(matmul(kCorner, sh.j, sh.k, sh.l, tile));
            ASSERT_EQ(r.error, "");
            const auto [req, sec] = cornerNLoads(sh.j, sh.k, sh.l, tile);
            const sim::AccessSite c = site(r, kCornerNLine, "N", sim::AccessKind::GlobalLoad);
            EXPECT_EQ(c.requests, req);
            EXPECT_EQ(c.sectors, sec);
            const uint32_t blockRows = static_cast<uint32_t>((sh.j + tile - 1) / tile);
            EXPECT_EQ(r.counters.elementLoads[r.arrayIndex("N")],
                      std::vector<uint32_t>(static_cast<size_t>(sh.k) * sh.l, blockRows));
        }
}

TEST(CornerTurning, NdsStoresConflictAtTile16)
{
    // The price of the turn: Nds[tx][ty] at TILE_WIDTH 16 is word 256 + 16tx + ty, in bank
    // ty (tx even) or 16 + ty (tx odd): a warp's 32 words in 4 banks, 8 each: 8 wavefronts
    // per request, 512 requests (as matmul-tiled-nds-transposed's store). The reads
    // Nds[i][tx] are matmul-tiled's: 16 consecutive words, one wavefront.
    const sim::Simulation r = run(matmul(kCorner, 64, 64, 64, 16));
    ASSERT_EQ(r.error, "");
    const sim::AccessSite st = site(r, kCornerNLine, "Nds", sim::AccessKind::SharedStore);
    EXPECT_EQ(st.requests, 512u);
    EXPECT_EQ(st.wavefronts, 8 * 512u);
    const sim::AccessSite rd = site(r, "Pvalue += Mds[ty][i] * Nds[i][tx];", "Nds", sim::AccessKind::SharedLoad);
    EXPECT_EQ(rd.requests, ndsReads(64, 16));
    EXPECT_EQ(rd.wavefronts, rd.requests);
}

}  // namespace
}  // namespace ts::test
