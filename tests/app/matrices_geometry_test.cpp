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
