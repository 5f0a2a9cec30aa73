// The Matrices panel's geometry (app/gui/panels/matrices_geometry.hpp) is read from what the
// simulator recorded (sim/engine/provenance.hpp): who wrote each element of P, which global element
// each shared store carried. These tests check it against the kernels' index arithmetic worked
// out by hand from their files (matmul-naive-uncoalesced takes Row from the x axis; the Nds
// of matmul-tiled-nds-transposed and -padded is stored transposed) and against a second
// recording of the same run (the owner of an element of P also stored it in the trace).
// tests/app/view_answers_test.cpp compares every answer with the hand-written layouts the
// panel used before.
#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "panels/matrices_geometry.hpp"
#include "sim/catalogue/kernel_info.hpp"
#include "sim/catalogue/kernel_registry.hpp"
#include "sim/engine/replay.hpp"
#include "sim/files/scenario_file.hpp"
#include "sim/engine/simulate.hpp"

using namespace ts;
using namespace ts::app;

namespace {

using Cell = std::pair<long long, long long>;

void expectRect(const std::optional<sim::TileRect>& got, const std::optional<sim::TileRect>& want, const std::string& what)
{
    ASSERT_EQ(got.has_value(), want.has_value()) << what;
    if (!got) return;
    EXPECT_EQ(got->row0, want->row0) << what;
    EXPECT_EQ(got->col0, want->col0) << what;
    EXPECT_EQ(got->rows, want->rows) << what;
    EXPECT_EQ(got->cols, want->cols) << what;
}

/// Every element of P of the run `r` has an owner inside the launch whose block's part of P
/// holds it, and an owner in the traced block stored it in the trace too.
void expectOwnersAgreeWithTheTrace(const sim::Simulation& r)
{
    const sim::Scenario& s = r.scenario;
    const int P = r.arrayIndex("P");
    for (int row = 0; row < s.j; ++row)
        for (int c = 0; c < s.l; ++c) {
            const std::optional<POwner> o = ownerOfP(r, row, c);
            ASSERT_TRUE(o) << s.kernel << " P[" << row << "][" << c << "]";
            ASSERT_LT(o->block.x, r.grid.x);
            ASSERT_LT(o->block.y, r.grid.y);
            ASSERT_LT(static_cast<unsigned>(o->tx), r.block.x);
            ASSERT_LT(static_cast<unsigned>(o->ty), r.block.y);
            if (o->block.x != r.trace.block.x || o->block.y != r.trace.block.y) continue;
            const std::vector<int32_t> mine = sim::storesOf(r.trace, P, linearThread(r.block, o->tx, o->ty));
            ASSERT_TRUE(std::find(mine.begin(), mine.end(), row * s.l + c) != mine.end())
                << s.kernel << ": the owner of P[" << row << "][" << c << "] did not store it in the trace";
            ASSERT_TRUE(rectContains(blockRectInP(r, o->block), row, c));
        }
}

std::set<Cell> ghostSet(const sim::Simulation& r, int cursor, const std::string& matrix, int rows, int cols)
{
    const sim::ReplayState st = sim::replay(r.trace, cursor);
    std::set<Cell> out;
    for (const GhostCell& g : ghostCells(r.trace, st, matrix, rows, cols)) out.insert({g.row, g.col});
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
    const sim::Simulation r = sim::simulate(s);
    ASSERT_EQ(r.error, "");

    const int thread = linearThread(bd, 5, 2);
    EXPECT_EQ(thread, 2 * 16 + 5);
    const std::optional<sim::PElement> p = threadPElement(r.trace, thread);
    ASSERT_TRUE(p);
    EXPECT_EQ(Cell(p->row, p->col), Cell(21, 2));

    expectRect(blockRectInP(r, s.block), sim::TileRect{16, 0, 16, 16}, "block (1, 0)");
    EXPECT_TRUE(rectContains(blockRectInP(r, s.block), 21, 2));
    EXPECT_FALSE(rectContains(blockRectInP(r, s.block), 2, 21));

    // The tooltip's "computed by block (bx, by), thread (ty, tx)" and the click on P[21][2].
    const std::optional<POwner> o = ownerOfP(r, 21, 2);
    ASSERT_TRUE(o);
    EXPECT_EQ(o->block.x, 1u);
    EXPECT_EQ(o->block.y, 0u);
    EXPECT_EQ(o->tx, 5);
    EXPECT_EQ(o->ty, 2);
    EXPECT_EQ(linearThread(bd, o->tx, o->ty), thread);
}

// A non-square problem, 48 x 24 x 32 (3 x 2 blocks of 16 along x and y): block (2, 1)
// covers rows 32..47 and columns 16..31; the former arithmetic put it at rows 16..31,
// columns 32..47, wholly outside P.
TEST(MatricesGeometry, UncoalescedNonSquareEveryBlockThreadAndElement)
{
    const sim::Scenario s = sim::matmulScenario("matmul-naive-uncoalesced", 48, 24, 32, 16, {2, 1});
    ASSERT_EQ(sim::validate(s), "");
    const sim::Simulation r = sim::simulate(s);
    expectRect(blockRectInP(r, s.block), sim::TileRect{32, 16, 16, 16}, "block (2, 1)");
    expectOwnersAgreeWithTheTrace(r);
}

// Every matrix-multiplication kernel of the registry at a ragged size.
TEST(MatricesGeometry, EveryMatmulKernelsOwnersAgreeWithTheTrace)
{
    int checked = 0;
    for (const sim::KernelInfo& k : sim::kernelList()) {
        if (k.family != sim::Family::Matmul) continue;
        // TILE_WIDTH 16, or a rung's smallest tile (the register-tiled rungs start at 32).
        const int tile = k.tiled && std::find(k.tiles.begin(), k.tiles.end(), 16) == k.tiles.end() ? k.tiles.front() : 16;
        const sim::Scenario s = sim::matmulScenario(k.name, 100, 37, 51, tile);
        ASSERT_EQ(sim::validate(s), "") << k.name;
        SCOPED_TRACE(k.name);
        const sim::Simulation r = sim::simulate(s);
        ASSERT_EQ(r.error, "");
        expectOwnersAgreeWithTheTrace(r);
        ++checked;
    }
    EXPECT_GE(checked, 5);
}

// matmul-naive and matmul-tiled keep the panel's former arithmetic exactly: Row from y.
TEST(MatricesGeometry, RowFromYKernelsAsBefore)
{
    for (const char* kernel : {"matmul-naive", "matmul-tiled"}) {
        const int T = 16;
        const sim::Simulation whole = sim::simulate(sim::matmulScenario(kernel, 100, 37, 51, T));
        for (unsigned by = 0; by < 7; ++by)
            for (unsigned bx = 0; bx < 4; ++bx) {
                const sim::Uint3 b{bx, by, 0};
                const int r0 = by * T, c0 = bx * T;
                expectRect(blockRectInP(whole, b),
                           sim::TileRect{r0, c0, std::min(100, r0 + T) - r0, std::min(51, c0 + T) - c0}, kernel);
            }
        // The threads of an edge block, those outside P placed by the block's layout.
        const sim::Simulation edge = sim::simulate(sim::matmulScenario(kernel, 100, 37, 51, T, {3, 6}));
        for (int thread = 0; thread < T * T; ++thread) {
            const std::optional<sim::PElement> p = threadPElement(edge.trace, thread);
            ASSERT_TRUE(p);
            ASSERT_EQ(Cell(p->row, p->col), Cell(6 * T + thread / T, 3 * T + thread % T)) << kernel;
        }
        for (int r = 0; r < 100; ++r)
            for (int c = 0; c < 51; ++c) {
                const std::optional<POwner> o = ownerOfP(whole, r, c);
                ASSERT_TRUE(o);
                ASSERT_EQ(Cell(o->block.x, o->block.y), Cell(c / T, r / T)) << kernel;
                ASSERT_EQ(Cell(o->tx, o->ty), Cell(c % T, r % T)) << kernel;
            }
    }
}

// 100 x 37 x 51 with TILE_WIDTH 16, corner block (3, 6) at the last step, which shows the
// last phase (2): the N tile is rows 32..47, columns 48..63 of N (37 x 51), so everything but
// its 5 x 3 top-left corner is zero-filled; the M tile is rows 96..111, columns 32..47 of M
// (100 x 37), all but a 4 x 5 corner. The Nds of -transposed and -padded is stored the other
// way round (Nds[tx][ty]), which the panel used to draw transposed: a 3 x 5 hole in the zeros.
TEST(MatricesGeometry, ZeroFilledSlotsFollowTheLoadsAtRaggedSize)
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

            const std::set<Cell> n = ghostSet(r, last, "N", 37, 51);
            EXPECT_EQ(n, outsideOfSquare(32, b.x * 16, 16, 37, 51)) << "block " << b.x << ", " << b.y;
            const std::set<Cell> m = ghostSet(r, last, "M", 100, 37);
            EXPECT_EQ(m, outsideOfSquare(b.y * 16, 32, 16, 100, 37));
            if (b.x == 3 && b.y == 6) {
                EXPECT_EQ(n.size(), 16u * 16u - 5u * 3u);
                EXPECT_EQ(m.size(), 16u * 16u - 4u * 5u);
            }
            // Before the first zero fill there is no ghost cell; each ghost cell at any step
            // lies outside its matrix.
            EXPECT_TRUE(ghostSet(r, -1, "N", 37, 51).empty());
            for (int step = 0; step <= last; step += 7)
                for (const Cell& c : ghostSet(r, step, "N", 37, 51)) EXPECT_TRUE(c.first >= 37 || c.second >= 51);
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
    EXPECT_TRUE(ghostCells(r.trace, st, "N", 7, 9).empty());
    EXPECT_TRUE(ghostCells(r.trace, st, "M", 20, 7).empty());
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
        const TileGrid g = tileGrid(sim::simulate(s));
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
// the canvas.
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
        const TileGrid g = tileGrid(r);
        const auto p = blockRectInP(r, r.trace.block);
        ASSERT_TRUE(p.has_value());
        EXPECT_EQ(p->row0 % g.rows, 0);
        EXPECT_EQ(p->col0 % g.cols, 0);
        EXPECT_EQ(p->rows, std::min(g.rows, 100 - p->row0));
        EXPECT_EQ(p->cols, std::min(g.cols, 51 - p->col0));
        // The last phase's tiles, where the zeros are (one replay per step checked: a replay
        // of a 128-wide block takes a while).
        const int last = static_cast<int>(r.trace.steps.size()) - 1;
        const std::set<Cell> n = ghostSet(r, last, "N", 37, 51);
        EXPECT_FALSE(n.empty()) << "the last phase's N tile reaches past N";
        for (const Cell& c : n) {
            EXPECT_LT(c.first, 37 + g.ghostK);
            EXPECT_LT(c.second, 51 + g.ghostL);
        }
        // Every rung's Mds, plain, transposed (vectorized on) or double-buffered: the zeros
        // lie in the rows past 100 of the block's tile and the columns past 37 of the last
        // phase, or in the rows past 100 of the phase before it (a double buffer keeps it),
        // so no column before the next-to-last phase's first, 37 - 37 % K - K.
        const std::set<Cell> m = ghostSet(r, last, "M", 100, 37);
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
    const std::vector<RegisterElement> regs = registerElementsOfP(r.trace, r.arrayIndex("P"), thread);
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
    // Its first element, as the Threads panel names it.
    const std::optional<sim::PElement> first = threadPElement(r.trace, thread);
    ASSERT_TRUE(first);
    EXPECT_EQ(Cell(first->row, first->col), Cell(0, 4));
}
