// The Matrices panel's geometry (app/gui/panels/matrices_geometry.hpp) follows each
// kernel's own index arithmetic: the block's tile of P, the selected thread's P element and
// who computes an element of P come from sim::pElementOf and sim::blockTileOfP, so that
// matmul-naive-uncoalesced (Row from the x axis) is not drawn transposed; the ghost cells
// past the matrix edge come from sim::tileSlotElement, so that the Nds of
// matmul-tiled-nds-transposed and -padded is not drawn transposed at ragged sizes. The
// kernels that take Row from y and store Nds as N keep the panel's former arithmetic.
#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "panels/matrices_geometry.hpp"
#include "sim/kernel_info.hpp"
#include "sim/kernel_registry.hpp"
#include "sim/replay.hpp"
#include "sim/scenario_file.hpp"
#include "sim/simulate.hpp"

using namespace ts;
using namespace ts::app;

namespace {

using Cell = std::pair<long long, long long>;

/// A trace of `block` with the launch's block shape and nothing recorded: all that
/// threadPElement reads.
sim::Trace emptyTrace(const sim::Scenario& s, sim::Uint3 block)
{
    sim::Trace t;
    t.block = block;
    t.blockDim = sim::launchShape(s).block;
    return t;
}

/// sim::blockTileOfP cut at P's edge; empty if nothing of it is inside P.
std::optional<sim::TileRect> clippedTile(const sim::Scenario& s, const sim::Uint3& block)
{
    const auto t = sim::blockTileOfP(s, block);
    if (!t) return std::nullopt;
    const int r1 = std::min(s.j, t->row0 + t->rows), c1 = std::min(s.l, t->col0 + t->cols);
    if (r1 <= t->row0 || c1 <= t->col0) return std::nullopt;
    return sim::TileRect{t->row0, t->col0, r1 - t->row0, c1 - t->col0};
}

void expectRect(const std::optional<sim::TileRect>& got, const std::optional<sim::TileRect>& want, const std::string& what)
{
    ASSERT_EQ(got.has_value(), want.has_value()) << what;
    if (!got) return;
    EXPECT_EQ(got->row0, want->row0) << what;
    EXPECT_EQ(got->col0, want->col0) << what;
    EXPECT_EQ(got->rows, want->rows) << what;
    EXPECT_EQ(got->cols, want->cols) << what;
}

/// Every block and thread of the launch and every element of P: the panel's tile of P,
/// thread element and owner agree with sim::pElementOf and sim::blockTileOfP.
void expectGeometryFollowsKernel(const sim::Scenario& s)
{
    const sim::LaunchShape ls = sim::launchShape(s);
    for (unsigned by = 0; by < ls.grid.y; ++by)
        for (unsigned bx = 0; bx < ls.grid.x; ++bx) {
            const sim::Uint3 b{bx, by, 0};
            const std::string where = s.kernel + " block (" + std::to_string(bx) + ", " + std::to_string(by) + ")";
            expectRect(blockRectInP(s, b), clippedTile(s, b), where);
            const sim::Trace t = emptyTrace(s, b);
            for (unsigned ty = 0; ty < ls.block.y; ++ty)
                for (unsigned tx = 0; tx < ls.block.x; ++tx) {
                    const sim::PElement got = threadPElement(s, t, linearThread(ls.block, tx, ty));
                    const sim::PElement want = sim::pElementOf(s, b, ls.block, tx, ty);
                    ASSERT_EQ(Cell(got.row, got.col), Cell(want.row, want.col))
                        << where << " thread (" << tx << ", " << ty << ")";
                }
        }
    for (int r = 0; r < s.j; ++r)
        for (int c = 0; c < s.l; ++c) {
            const POwner o = ownerOfP(s, r, c);
            ASSERT_LT(o.block.x, ls.grid.x) << s.kernel << " P[" << r << "][" << c << "]";
            ASSERT_LT(o.block.y, ls.grid.y) << s.kernel << " P[" << r << "][" << c << "]";
            ASSERT_LT(static_cast<unsigned>(o.tx), ls.block.x);
            ASSERT_LT(static_cast<unsigned>(o.ty), ls.block.y);
            // The owner computes (r, c): its first element (pElementOf) or, on a ladder rung,
            // one of its others (threadPElements).
            const std::vector<sim::PElement> mine = sim::threadPElements(s, o.block, ls.block, o.tx, o.ty);
            ASSERT_TRUE(std::any_of(mine.begin(), mine.end(), [&](const sim::PElement& p) {
                return p.row == r && p.col == c;
            })) << s.kernel << ": ownerOfP is not threadPElements' inverse at P[" << r << "][" << c << "]";
            ASSERT_EQ(mine.front().row, sim::pElementOf(s, o.block, ls.block, o.tx, o.ty).row);
            ASSERT_TRUE(rectContains(blockRectInP(s, o.block), r, c)) << s.kernel << " P[" << r << "][" << c << "]";
        }
}

/// Every element of the tile of `source` ("M" or "N") loaded in `phase` by `block`, in
/// matrix coordinates, that lies outside the matrix: the slots tileSlotElement says stand
/// for no element of it (they are zero-filled).
std::set<Cell> slotsOutside(const sim::Scenario& s, const sim::Uint3& block, int phase, const std::string& shared,
                            int rows, int cols)
{
    std::set<Cell> out;
    for (int r = 0; r < s.tile; ++r)
        for (int c = 0; c < s.tile; ++c) {
            const auto e = sim::tileSlotElement(s, block, phase, shared, r, c);
            if (e && (e->row < 0 || e->col < 0 || e->row >= rows || e->col >= cols)) out.insert({e->row, e->col});
        }
    return out;
}

std::set<Cell> ghostSet(const sim::Scenario& s, const sim::Simulation& r, int cursor, const std::string& matrix,
                        int rows, int cols)
{
    const sim::ReplayState st = sim::replay(r.trace, cursor);
    std::set<Cell> out;
    for (const GhostCell& g : ghostCells(s, r.trace, st, matrix, rows, cols)) out.insert({g.row, g.col});
    return out;
}

/// Elements of the rectangle rows [r0, r0+T) x cols [c0, c0+T) outside a rows x cols matrix.
std::set<Cell> outsideOfSquare(int r0, int c0, int T, int rows, int cols)
{
    std::set<Cell> out;
    for (int r = r0; r < r0 + T; ++r)
        for (int c = c0; c < c0 + T; ++c)
            if (r >= rows || c >= cols) out.insert({r, c});
    return out;
}

}  // namespace

// coalescing-uncoalesced-64 with block (1, 0) traced: Row = bx*16 + tx, so the block covers
// rows 16..31 and columns 0..15 of P, and thread (tx 5, ty 2) computes P[21][2]. The panel
// used to draw the block over rows 0..15, columns 16..31 and the thread at P[2][21].
TEST(MatricesGeometry, UncoalescedPresetBlockAndThreadFollowRowFromX)
{
    sim::Scenario s = sim::findPreset("coalescing-uncoalesced-64").scenario;
    ASSERT_EQ(s.kernel, "matmul-naive-uncoalesced");
    s.block = sim::Uint3{1, 0, 0};
    const sim::Dim3 bd = sim::launchShape(s).block;
    ASSERT_EQ(bd.x, 16u);
    const sim::Trace t = emptyTrace(s, s.block);

    const int thread = linearThread(bd, 5, 2);
    EXPECT_EQ(thread, 2 * 16 + 5);
    const sim::PElement p = threadPElement(s, t, thread);
    const sim::PElement want = sim::pElementOf(s, s.block, bd, 5, 2);
    EXPECT_EQ(Cell(p.row, p.col), Cell(want.row, want.col));
    EXPECT_EQ(Cell(p.row, p.col), Cell(21, 2));

    expectRect(blockRectInP(s, s.block), sim::blockTileOfP(s, s.block), "block (1, 0)");
    expectRect(blockRectInP(s, s.block), sim::TileRect{16, 0, 16, 16}, "block (1, 0)");
    EXPECT_TRUE(rectContains(blockRectInP(s, s.block), 21, 2));
    EXPECT_FALSE(rectContains(blockRectInP(s, s.block), 2, 21));

    // The tooltip's "computed by block (bx, by), thread (ty, tx)" and the click on P[21][2].
    const POwner o = ownerOfP(s, 21, 2);
    EXPECT_EQ(o.block.x, 1u);
    EXPECT_EQ(o.block.y, 0u);
    EXPECT_EQ(o.tx, 5);
    EXPECT_EQ(o.ty, 2);
    EXPECT_EQ(linearThread(bd, o.tx, o.ty), thread);
}

// A non-square problem, 48 x 24 x 32 (3 x 2 blocks of 16 along x and y): block (2, 1)
// covers rows 32..47 and columns 16..31; the former arithmetic put it at rows 16..31,
// columns 32..47, wholly outside P.
TEST(MatricesGeometry, UncoalescedNonSquareEveryBlockThreadAndElement)
{
    const sim::Scenario s = sim::matmulScenario("matmul-naive-uncoalesced", 48, 24, 32, 16, {2, 1});
    ASSERT_EQ(sim::validate(s), "");
    expectRect(blockRectInP(s, s.block), sim::TileRect{32, 16, 16, 16}, "block (2, 1)");
    expectGeometryFollowsKernel(s);
}

// Every matrix-multiplication kernel of the registry at a ragged size.
TEST(MatricesGeometry, EveryMatmulKernelFollowsPElementOf)
{
    int checked = 0;
    for (const sim::KernelInfo& k : sim::kernelList()) {
        if (k.family != sim::Family::Matmul) continue;
        // TILE_WIDTH 16, or a rung's smallest tile (the register-tiled rungs start at 32).
        const int tile = k.tiled && std::find(k.tiles.begin(), k.tiles.end(), 16) == k.tiles.end() ? k.tiles.front() : 16;
        const sim::Scenario s = sim::matmulScenario(k.name, 100, 37, 51, tile);
        ASSERT_EQ(sim::validate(s), "") << k.name;
        SCOPED_TRACE(k.name);
        expectGeometryFollowsKernel(s);
        ++checked;
    }
    EXPECT_GE(checked, 5);
}

// matmul-naive and matmul-tiled keep the panel's former arithmetic exactly: Row from y.
TEST(MatricesGeometry, RowFromYKernelsAsBefore)
{
    for (const char* kernel : {"matmul-naive", "matmul-tiled"}) {
        const sim::Scenario s = sim::matmulScenario(kernel, 100, 37, 51, 16);
        const int T = 16;
        for (unsigned by = 0; by < 7; ++by)
            for (unsigned bx = 0; bx < 4; ++bx) {
                const sim::Uint3 b{bx, by, 0};
                const int r0 = by * T, c0 = bx * T;
                expectRect(blockRectInP(s, b), sim::TileRect{r0, c0, std::min(100, r0 + T) - r0, std::min(51, c0 + T) - c0},
                           kernel);
                const sim::Trace t = emptyTrace(s, b);
                for (int thread = 0; thread < T * T; ++thread) {
                    const sim::PElement p = threadPElement(s, t, thread);
                    ASSERT_EQ(Cell(p.row, p.col), Cell(r0 + thread / T, c0 + thread % T)) << kernel;
                }
            }
        for (int r = 0; r < 100; ++r)
            for (int c = 0; c < 51; ++c) {
                const POwner o = ownerOfP(s, r, c);
                ASSERT_EQ(Cell(o.block.x, o.block.y), Cell(c / T, r / T)) << kernel;
                ASSERT_EQ(Cell(o.tx, o.ty), Cell(c % T, r % T)) << kernel;
            }
    }
}

// 100 x 37 x 51 with TILE_WIDTH 16, corner block (3, 6) at the last step, which shows the
// last phase (2): the N tile is rows 32..47, columns 48..63 of N (37 x 51), so everything but
// its 5 x 3 top-left corner is zero-filled; the M tile is rows 96..111, columns 32..47 of M
// (100 x 37), all but a 4 x 5 corner. The Nds of -transposed and -padded is stored the other
// way round (Nds[tx][ty]), which the panel used to draw transposed: a 3 x 5 hole in the zeros.
TEST(MatricesGeometry, ZeroFilledSlotsFollowTileSlotElementAtRaggedSize)
{
    for (const char* kernel : {"matmul-tiled-nds-transposed", "matmul-tiled-nds-padded", "matmul-tiled"}) {
        SCOPED_TRACE(kernel);
        for (const sim::Uint3 b : {sim::Uint3{3, 6, 0}, sim::Uint3{0, 6, 0}, sim::Uint3{3, 0, 0}}) {
            const sim::Scenario s = sim::matmulScenario(kernel, 100, 37, 51, 16, b);
            ASSERT_EQ(sim::validate(s), "");
            const sim::Simulation r = sim::simulate(s);
            ASSERT_TRUE(r.error.empty()) << r.error;
            ASSERT_FALSE(r.trace.steps.empty());
            const int last = static_cast<int>(r.trace.steps.size()) - 1;
            ASSERT_EQ(r.trace.steps[last].phase, 2);

            const std::set<Cell> n = ghostSet(s, r, last, "N", 37, 51);
            EXPECT_EQ(n, slotsOutside(s, b, 2, "Nds", 37, 51)) << "block " << b.x << ", " << b.y;
            EXPECT_EQ(n, outsideOfSquare(32, b.x * 16, 16, 37, 51)) << "block " << b.x << ", " << b.y;
            const std::set<Cell> m = ghostSet(s, r, last, "M", 100, 37);
            EXPECT_EQ(m, slotsOutside(s, b, 2, "Mds", 100, 37));
            EXPECT_EQ(m, outsideOfSquare(b.y * 16, 32, 16, 100, 37));
            if (b.x == 3 && b.y == 6) {
                EXPECT_EQ(n.size(), 16u * 16u - 5u * 3u);
                EXPECT_EQ(m.size(), 16u * 16u - 4u * 5u);
            }
            // Before the first zero fill there is no ghost cell; each ghost cell at any step
            // lies outside its matrix.
            EXPECT_TRUE(ghostSet(s, r, -1, "N", 37, 51).empty());
            for (int step = 0; step <= last; step += 7)
                for (const Cell& c : ghostSet(s, r, step, "N", 37, 51)) EXPECT_TRUE(c.first >= 37 || c.second >= 51);
        }
    }
}

// Kernels without tiles have no ghost cells.
TEST(MatricesGeometry, UntiledKernelsHaveNoGhostCells)
{
    const sim::Scenario s = sim::matmulScenario("matmul-naive-uncoalesced", 20, 7, 9, 8, {1, 1});
    const sim::Simulation r = sim::simulate(s);
    ASSERT_FALSE(r.trace.steps.empty());
    const sim::ReplayState st = sim::replay(r.trace, static_cast<int>(r.trace.steps.size()) - 1);
    EXPECT_TRUE(ghostCells(s, r.trace, st, "N", 7, 9).empty());
    EXPECT_TRUE(ghostCells(s, r.trace, st, "M", 20, 7).empty());
}

// The tile lines and the room for ghost cells follow the block's tile of P and the phase's
// depth, not the thread block's x extent: on matmul-conflict-free at tile 128 a block has
// 16 x 16 threads but covers 128 x 128 elements of P in phases of 8 columns of M. Worked out
// from kernels/matmul_conflict_free.cuh (BM = BN = TILE, BK 8; matmul-tuned BK 16),
// matmul_coarsened.cuh (TILE x COARSE_FACTOR*TILE of P, TILE deep) and matmul_regtile_1d.cuh
// (BM = BN = TILE, BK 8) at 100 x 37 x 51.
TEST(MatricesGeometry, TileGridOfTheRungsIsTheBlocksTileOfP)
{
    struct Want {
        const char* kernel;
        int tile, rows, cols, depth, ghostJ, ghostK, ghostL;
    };
    const Want wants[] = {
        {"matmul-naive", 16, 16, 16, 16, 0, 0, 0},
        {"matmul-tiled", 16, 16, 16, 16, 12, 11, 13},
        {"matmul-coarsened", 16, 16, 64, 16, 12, 11, 13},
        {"matmul-regtile-1d", 64, 64, 64, 8, 28, 3, 13},
        {"matmul-regtile-2d", 128, 128, 128, 8, 28, 3, 77},
        {"matmul-conflict-free", 128, 128, 128, 8, 28, 3, 77},
        {"matmul-tuned", 128, 128, 128, 16, 28, 11, 77},
    };
    for (const Want& w : wants) {
        SCOPED_TRACE(w.kernel);
        const sim::Scenario s = sim::matmulScenario(w.kernel, 100, 37, 51, w.tile);
        ASSERT_EQ(sim::validate(s), "");
        const TileGrid g = tileGrid(s);
        EXPECT_EQ(g.rows, w.rows);
        EXPECT_EQ(g.cols, w.cols);
        EXPECT_EQ(g.depth, w.depth);
        EXPECT_EQ(g.ghostJ, w.ghostJ);
        EXPECT_EQ(g.ghostK, w.ghostK);
        EXPECT_EQ(g.ghostL, w.ghostL);
    }
    // The thread block is smaller than the tile of P on the register-tiled rungs.
    const sim::Scenario cf = sim::matmulScenario("matmul-conflict-free", 100, 37, 51, 128);
    EXPECT_EQ(sim::launchShape(cf).block.x, 16u);
}

// Every ghost cell a register-tiled rung zero-fills at a ragged size lies inside the room the
// canvas makes for ghosts (TileGrid), and the traced block's tile of P starts on a tile line;
// with the thread block's x extent (16 at tile 128) the N tile's zeros past column 64 fell off
// the canvas. M is checked on the rungs that store Mds as M is laid out: on those that store
// it transposed or in two buffers, sim::tileSlotElement does not place its slots yet.
TEST(MatricesGeometry, GhostCellsOfTheRungsFitTheTileGrid)
{
    for (const char* kernel : sim::kLadderRungs) {
        const sim::KernelInfo* info = sim::findKernel(kernel);
        ASSERT_NE(info, nullptr) << kernel;
        if (!info->tiled) continue;
        SCOPED_TRACE(kernel);
        const sim::Scenario s = sim::matmulScenario(kernel, 100, 37, 51, info->defaultTile);
        ASSERT_EQ(sim::validate(s), "");
        const sim::Simulation r = sim::simulate(s);
        ASSERT_TRUE(r.error.empty()) << r.error;
        const TileGrid g = tileGrid(s);
        const auto p = sim::blockTileOfP(s, r.trace.block);
        ASSERT_TRUE(p.has_value());
        EXPECT_EQ(p->row0 % g.rows, 0);
        EXPECT_EQ(p->col0 % g.cols, 0);
        EXPECT_EQ(p->rows, g.rows);
        EXPECT_EQ(p->cols, g.cols);
        // The last phase's tiles, where the zeros are (one replay per step checked: a replay
        // of a 128-wide block takes a while).
        const int last = static_cast<int>(r.trace.steps.size()) - 1;
        const std::set<Cell> n = ghostSet(s, r, last, "N", 37, 51);
        EXPECT_FALSE(n.empty()) << "the last phase's N tile reaches past N";
        for (const Cell& c : n) {
            EXPECT_LT(c.first, 37 + g.ghostK);
            EXPECT_LT(c.second, 51 + g.ghostL);
        }
        // Every rung's Mds, plain, transposed (vectorized on) or double-buffered: the zeros
        // lie in the rows past 100 of the block's tile and the columns past 37 of the last
        // phase, or in the rows past 100 of the phase before it (a double buffer keeps it),
        // so no column before the next-to-last phase's first, 37 - 37 % K - K.
        const std::set<Cell> m = ghostSet(s, r, last, "M", 100, 37);
        EXPECT_FALSE(m.empty()) << "the last phase's M tile reaches past M";
        const int K = g.depth;
        for (const Cell& c : m) {
            EXPECT_LT(c.first, 100 + g.ghostJ);
            EXPECT_LT(c.second, 37 + g.ghostK);
            EXPECT_GE(c.second, 37 - 37 % K - K) << c.first << "," << c.second;
        }
    }
}

// The selected thread's registers of P come from the trace of its stores. Worked out by hand
// from kernels/matmul_conflict_free.cuh at tile 128 (BM = BN = 128, TM = TN = 8, 16 x 16
// threads): thread (tx=1, ty=0) of block (0,0) has rowStart = ty*4 = 0, colStart = tx*4 = 4,
// and stores Pvalue[m][n] at Row = (m/4)*64 + m%4, Col = 4 + (n/4)*64 + n%4: rows 0..3 and
// 64..67, columns 4..7 and 68..71; Pvalue[0][0] is P[0][4], Pvalue[3][7] is P[3][71],
// Pvalue[4][4] is P[64][68], Pvalue[7][3] is P[67][7].
TEST(MatricesGeometry, RegistersOfPFromTheTraceOfConflictFree)
{
    const sim::Scenario s = sim::matmulScenario("matmul-conflict-free", 128, 128, 128, 128, {0, 0});
    ASSERT_EQ(sim::validate(s), "");
    const sim::Simulation r = sim::simulate(s);
    ASSERT_TRUE(r.error.empty()) << r.error;
    const int thread = linearThread(r.trace.blockDim, 1, 0);
    ASSERT_EQ(thread, 1);
    const std::vector<RegisterElement> regs = registerElementsOfP(s, r.trace, r.arrayIndex("P"), thread);
    ASSERT_EQ(regs.size(), 64u);
    std::set<int> rows, cols;
    std::set<std::string> names;
    for (const RegisterElement& e : regs) {
        rows.insert(e.row);
        cols.insert(e.col);
        names.insert(e.name);
        EXPECT_EQ(e.name, "Pvalue[" + std::to_string(e.m) + "][" + std::to_string(e.n) + "]");
    }
    EXPECT_EQ(rows, (std::set<int>{0, 1, 2, 3, 64, 65, 66, 67}));
    EXPECT_EQ(cols, (std::set<int>{4, 5, 6, 7, 68, 69, 70, 71}));
    EXPECT_EQ(names.size(), 64u) << "every register once";
    auto at = [&](int row, int col) -> std::string {
        for (const RegisterElement& e : regs)
            if (e.row == row && e.col == col) return e.name;
        return "none";
    };
    EXPECT_EQ(at(0, 4), "Pvalue[0][0]");
    EXPECT_EQ(at(3, 71), "Pvalue[3][7]");
    EXPECT_EQ(at(64, 68), "Pvalue[4][4]");
    EXPECT_EQ(at(67, 7), "Pvalue[7][3]");
    EXPECT_EQ(at(4, 4), "none") << "row 4 is thread (1, 1)'s";
    // The trace and the kernel's formula agree (threadPElements lists Pvalue row by row).
    const std::vector<sim::PElement> formula = sim::threadPElements(s, r.trace.block, r.trace.blockDim, 1, 0);
    ASSERT_EQ(formula.size(), 64u);
    for (const RegisterElement& e : regs) {
        const sim::PElement& f = formula[e.m * 8 + e.n];
        EXPECT_EQ(f.row, e.row) << e.name;
        EXPECT_EQ(f.col, e.col) << e.name;
    }
}

// matmul-warptiled at TILE 64: a block of 8 x 8 threads covers 128 x 64 of P, two warps
// of 64 x 64. Lane 9 of warp 1 (thread 41, (tx, ty) = (1, 5)) is (ly, lx) = (9 / 8, 9 % 8) =
// (1, 1) of the warp whose tile starts at row 64: rows 64 + (m / 4)*16 + 4 + m % 4 = 68..71,
// 84..87, 100..103, 116..119 and columns (n / 4)*32 + 4 + n % 4 = 4..7, 36..39, written as
// float4 (x.stg4): Pvalue[0][0] is P[68][4], Pvalue[15][7] is P[119][39]. The trace of its
// 128-bit stores, the formula (threadPElements) and the panel's owner agree.
TEST(MatricesGeometry, RegistersOfPFromTheTraceOfWarptiled)
{
    const sim::Scenario s = sim::matmulScenario("matmul-warptiled", 128, 16, 64, 64, {0, 0});
    ASSERT_EQ(sim::validate(s), "");
    const sim::Simulation r = sim::simulate(s);
    ASSERT_TRUE(r.error.empty()) << r.error;
    const int thread = linearThread(r.trace.blockDim, 1, 5);
    ASSERT_EQ(thread, 41);
    const std::vector<RegisterElement> regs = registerElementsOfP(s, r.trace, r.arrayIndex("P"), thread);
    ASSERT_EQ(regs.size(), 128u);
    std::set<int> rows, cols;
    for (const RegisterElement& e : regs) {
        rows.insert(e.row);
        cols.insert(e.col);
    }
    EXPECT_EQ(rows, (std::set<int>{68, 69, 70, 71, 84, 85, 86, 87, 100, 101, 102, 103, 116, 117, 118, 119}));
    EXPECT_EQ(cols, (std::set<int>{4, 5, 6, 7, 36, 37, 38, 39}));
    const std::vector<sim::PElement> formula = sim::threadPElements(s, r.trace.block, r.trace.blockDim, 1, 5);
    ASSERT_EQ(formula.size(), 128u);
    for (const RegisterElement& e : regs) {
        const sim::PElement& f = formula[e.m * 8 + e.n];
        EXPECT_EQ(f.row, e.row) << e.name;
        EXPECT_EQ(f.col, e.col) << e.name;
        const POwner o = ownerOfP(s, e.row, e.col);
        EXPECT_EQ(linearThread(r.trace.blockDim, o.tx, o.ty), thread) << e.name;
    }
    EXPECT_EQ(formula.front().row, 68);
    EXPECT_EQ(formula.front().col, 4);
    EXPECT_EQ(formula.back().row, 119);
    EXPECT_EQ(formula.back().col, 39);
}

// A one-dimensional Pvalue (matmul-regtile-1d: a column of TM = 8) and the stores that a
// ragged edge skips; PMPP's one-element kernels have no register list.
TEST(MatricesGeometry, RegistersOfPOneDimensionalAndRagged)
{
    // regtile-1d at tile 64: thread (tx, ty) stores Pvalue[m] at Row = by*64 + ty*8 + m,
    // Col = bx*64 + tx. At j = 13 thread (5, 1) holds rows 8..15 of which 8..12 are inside P.
    const sim::Scenario s = sim::matmulScenario("matmul-regtile-1d", 13, 16, 64, 64, {0, 0});
    ASSERT_EQ(sim::validate(s), "");
    const sim::Simulation r = sim::simulate(s);
    ASSERT_TRUE(r.error.empty()) << r.error;
    const std::vector<RegisterElement> regs =
        registerElementsOfP(s, r.trace, r.arrayIndex("P"), linearThread(r.trace.blockDim, 5, 1));
    ASSERT_EQ(regs.size(), 5u);
    for (int m = 0; m < 5; ++m) {
        EXPECT_EQ(regs[m].row, 8 + m);
        EXPECT_EQ(regs[m].col, 5);
        EXPECT_EQ(regs[m].name, "Pvalue[" + std::to_string(m) + "]");
    }
    const sim::Scenario tiled = sim::matmulScenario("matmul-tiled", 8, 8, 8, 4, {0, 0});
    const sim::Simulation rt = sim::simulate(tiled);
    EXPECT_TRUE(registerElementsOfP(tiled, rt.trace, rt.arrayIndex("P"), 0).empty());
}
