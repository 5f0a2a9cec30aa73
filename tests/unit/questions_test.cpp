// Practice questions (sim/teaching/questions.hpp): every generated answer against an independent
// computation written here from PMPP's index arithmetic (Fig. 5.9 and 5.13 for the tiled
// matrix multiplication, the tiled convolutions of ch. 7, the occupancy formula of sec. 4.7),
// never through the generator's code path; determinism by seed; the scenario file's
// [[question]] tables, malformed ones included; grading.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <functional>
#include <set>

#include "kernels/context.cuh"
#include "sim/teaching/questions.hpp"

namespace ts::test {
namespace {

using sim::Cell;
using sim::Question;
using sim::QuestionKind;
using Cells = std::vector<Cell>;

sim::Preset fromText(const std::string& toml) { return sim::parseScenarioText(toml, "quiz.toml"); }

/// `count` generated questions of one kind (no fixed ones), with `seed`.
std::vector<Question> ask(const sim::Preset& p, QuestionKind k, int count = 30, uint64_t seed = 7)
{
    sim::QuestionGenerator g(p);
    sim::QuestionRequest r;
    r.seed = seed;
    r.count = count;
    r.kinds = {k};
    r.fixedQuestions = false;
    std::vector<Question> qs = g.generate(r);
    EXPECT_FALSE(qs.empty()) << p.name << " " << sim::questionKindName(k);
    for (const Question& q : qs) {
        EXPECT_EQ(q.spec.kind, k);
        EXPECT_FALSE(q.prompt.empty());
        EXPECT_EQ(q.prompt.back(), '?') << q.prompt;
        EXPECT_EQ(q.explanation.back(), '.') << q.explanation;
        EXPECT_EQ(q.explanation.find('\n'), std::string::npos);
    }
    return qs;
}

Cells sorted(Cells c)
{
    std::sort(c.begin(), c.end());
    return c;
}

std::string where(const Question& q)
{
    std::string s = sim::questionKindName(q.spec.kind);
    if (q.spec.block) s += " block (" + std::to_string(q.spec.block->x) + "," + std::to_string(q.spec.block->y) + ")";
    if (q.spec.thread) s += " thread (" + std::to_string(q.spec.thread->x) + "," + std::to_string(q.spec.thread->y) + ")";
    if (q.spec.phase) s += " phase " + std::to_string(*q.spec.phase);
    if (q.spec.step) s += " step " + std::to_string(*q.spec.step);
    if (q.spec.element) s += " element (" + std::to_string(q.spec.element->row) + "," + std::to_string(q.spec.element->col) + ")";
    if (!q.spec.expression.empty()) s += " " + q.spec.expression;
    return s;
}

// ---------------------------------------------------------------------------------------
// Matrix multiplication, PMPP Fig. 5.9 / 5.13: thread (tx, ty) of block (bx, by) loads
// M[by*T + ty][ph*T + tx] into Mds[ty][tx] and N[ph*T + ty][bx*T + tx] into Nds[ty][tx]
// in phase ph, where the element exists (else it stores 0).

Cells mdsLoad(const sim::Scenario& s, sim::Uint3 b, sim::Uint3 t, int ph)
{
    const int T = s.tile, row = static_cast<int>(b.y) * T + static_cast<int>(t.y), col = ph * T + static_cast<int>(t.x);
    if (row < s.j && col < s.k) return {{row, col}};
    return {};
}

Cells ndsLoad(const sim::Scenario& s, sim::Uint3 b, sim::Uint3 t, int ph)
{
    const int T = s.tile, row = ph * T + static_cast<int>(t.y), col = static_cast<int>(b.x) * T + static_cast<int>(t.x);
    if (row < s.k && col < s.l) return {{row, col}};
    return {};
}

Cells matmulTile(const sim::Scenario& s, sim::Uint3 b, int ph, const std::string& array)
{
    Cells out;
    const int T = s.tile;
    const int r0 = array == "M" ? static_cast<int>(b.y) * T : ph * T;
    const int c0 = array == "M" ? ph * T : static_cast<int>(b.x) * T;
    const int rows = array == "M" ? s.j : s.k, cols = array == "M" ? s.k : s.l;
    for (int r = r0; r < r0 + T && r < rows; ++r)
        for (int c = c0; c < c0 + T && c < cols; ++c) out.push_back({r, c});
    return out;
}

/// Rows or columns of a block's tile that exist: min(T, extent - first).
int valid(int first, int T, int extent) { return std::max(0, std::min(T, extent - first)); }

long long matmulBlockLoads(const sim::Scenario& s, sim::Uint3 b)
{
    const int T = s.tile, phases = (s.k - 1) / T + 1;
    long long n = 0;
    for (int ph = 0; ph < phases; ++ph)
        n += 1LL * valid(static_cast<int>(b.y) * T, T, s.j) * valid(ph * T, T, s.k) +
             1LL * valid(ph * T, T, s.k) * valid(static_cast<int>(b.x) * T, T, s.l);
    return n;
}

sim::Preset preset(const std::string& name) { return sim::findPreset(name); }

const char* kMatmulPresets[] = {"tiled-4x4", "boundary-3x3", "rectangular-3x5x4", "ragged-100x37x51-tile16",
                                "missing-barrier-after-load", "missing-barrier-after-compute"};

TEST(Questions, MdsAndNdsLoadsFollowFig59)
{
    for (const char* name : kMatmulPresets) {
        SCOPED_TRACE(name);
        const sim::Preset p = preset(name);
        for (const Question& q : ask(p, QuestionKind::MdsLoads))
            EXPECT_EQ(q.answer.cells, mdsLoad(p.scenario, *q.spec.block, *q.spec.thread, *q.spec.phase)) << where(q);
        for (const Question& q : ask(p, QuestionKind::NdsLoads))
            EXPECT_EQ(q.answer.cells, ndsLoad(p.scenario, *q.spec.block, *q.spec.thread, *q.spec.phase)) << where(q);
    }
}

// The contract's example (docs/cli.md): thread (ty=1, tx=0) of block (bx=1, by=0) of the
// 4x4 product loads M[1][2] in phase 1; and boundary-3x3's missing column: nothing.
TEST(Questions, SeedMdsLoads)
{
    sim::QuestionGenerator g(preset("tiled-4x4"));
    sim::QuestionSpec q;
    q.kind = QuestionKind::MdsLoads;
    q.block = sim::Uint3{1, 0, 0};
    q.thread = sim::Uint3{0, 1, 0};
    q.phase = 1;
    const Question a = g.answer(q);
    EXPECT_EQ(a.answer.cells, (Cells{{1, 2}}));
    EXPECT_EQ(a.prompt,
              "Which element of M does thread (ty=1, tx=0) of block (bx=1, by=0) load into Mds in phase 1?");
    EXPECT_EQ(a.line, 34u);
    EXPECT_EQ(a.lineText, "Mds[ty][tx] = M[Row*k + ph*TILE_WIDTH + tx];");
    EXPECT_NE(a.explanation.find("M[1*4 + 1*2 + 0] = M[6], that is M[1][2]"), std::string::npos) << a.explanation;

    sim::QuestionGenerator b(preset("boundary-3x3"));
    q.block = sim::Uint3{0, 0, 0};
    q.thread = sim::Uint3{1, 0, 0};   // tx = 1 would read column 3 of a 3-column M
    const Question none = b.answer(q);
    EXPECT_TRUE(none.answer.cells.empty());
    EXPECT_EQ(none.line, 36u);   // Mds[ty][tx] = 0;
    EXPECT_NE(none.explanation.find("`0 < 3 && 1*2 + 1 < 3`"), std::string::npos) << none.explanation;
}

TEST(Questions, BlockTileIsTheTileInsideTheMatrix)
{
    for (const char* name : kMatmulPresets) {
        SCOPED_TRACE(name);
        const sim::Preset p = preset(name);
        for (const Question& q : ask(p, QuestionKind::BlockTile))
            EXPECT_EQ(q.answer.cells, matmulTile(p.scenario, *q.spec.block, *q.spec.phase, q.spec.array)) << where(q);
    }
}

TEST(Questions, NdsSlotIsTyTxOrTransposed)
{
    for (const char* name : {"tiled-4x4", "ragged-100x37x51-tile16", "nds-transposed-64-tile16", "nds-padded-64-tile16"}) {
        SCOPED_TRACE(name);
        const sim::Preset p = preset(name);
        const bool transposed = std::string(name).find("nds-") == 0;
        for (const Question& q : ask(p, QuestionKind::NdsSlot, 12)) {
            const int tx = static_cast<int>(q.spec.thread->x), ty = static_cast<int>(q.spec.thread->y);
            const Cells want = transposed ? Cells{{tx, ty}} : Cells{{ty, tx}};
            EXPECT_EQ(q.answer.cells, want) << where(q);
            EXPECT_FALSE(q.answer.oneD);
        }
    }
}

TEST(Questions, BlockGlobalLoadsMatmul)
{
    for (const char* name : kMatmulPresets) {
        SCOPED_TRACE(name);
        const sim::Preset p = preset(name);
        for (const Question& q : ask(p, QuestionKind::BlockGlobalLoads))
            EXPECT_EQ(q.answer.number, matmulBlockLoads(p.scenario, *q.spec.block)) << where(q);
    }
    // The naive kernel reads 2k elements per P element it computes (PMPP sec. 5.1): 32 for
    // a 2x2 block of the 4x4 product.
    const sim::Preset naive = preset("naive-4x4");
    for (const Question& q : ask(naive, QuestionKind::BlockGlobalLoads)) EXPECT_EQ(q.answer.number, 32) << where(q);
}

// ---------------------------------------------------------------------------------------
// Index expressions: the step's phase and iteration from the trace's layout, worked out
// here from the kernel's loop (load M, load N, barrier, TILE_WIDTH uses, barrier per phase;
// one barrier fewer when one is dropped), and each expression from Fig. 5.10's arithmetic.

struct MatmulStep {
    int phase = 0, iteration = -1;
};

MatmulStep matmulStep(const sim::Scenario& s, int step)
{
    const int T = s.tile, phases = (s.k - 1) / T + 1;
    const int period = s.dropBarriers ? T + 3 : T + 4;
    if (step >= phases * period) return {phases - 1, -1};   // the store after the loop
    const int r = step % period, useStart = s.dropBarriers == kernels::AFTER_LOAD ? 2 : 3;
    return {step / period, r >= useStart && r < useStart + T ? r - useStart : -1};
}

long long matmulExpression(const sim::Scenario& s, const Question& q)
{
    const long long T = s.tile, bx = q.spec.block->x, by = q.spec.block->y, tx = q.spec.thread->x,
                    ty = q.spec.thread->y;
    const MatmulStep st = matmulStep(s, *q.spec.step);
    const long long ph = st.phase, Row = by * T + ty, Col = bx * T + tx;
    const std::string& e = q.spec.expression;
    if (e == "Row") return Row;
    if (e == "Col") return Col;
    if (e == "ph*TILE_WIDTH + tx") return ph * T + tx;
    if (e == "ph*TILE_WIDTH + ty") return ph * T + ty;
    if (e == "Row*k + ph*TILE_WIDTH + tx") return Row * s.k + ph * T + tx;
    if (e == "(ph*TILE_WIDTH + ty)*l + Col") return (ph * T + ty) * s.l + Col;
    if (e == "Row*l + Col") return Row * s.l + Col;
    ADD_FAILURE() << "no independent value for " << e;
    return -1;
}

TEST(Questions, IndexValuesMatmul)
{
    for (const char* name : kMatmulPresets) {
        SCOPED_TRACE(name);
        const sim::Preset p = preset(name);
        std::set<std::string> seen;
        for (const Question& q : ask(p, QuestionKind::IndexValue, 40)) {
            EXPECT_EQ(q.answer.number, matmulExpression(p.scenario, q)) << where(q);
            seen.insert(q.spec.expression);
        }
        EXPECT_GE(seen.size(), 3u);
    }
}

// The phase of a step counts with a barrier dropped too: in missing-barrier-after-load the
// second phase's M tile is loaded at step 7, where ph is 1.
TEST(Questions, IndexValueKnowsThePhaseWithADroppedBarrier)
{
    sim::QuestionGenerator g(preset("missing-barrier-after-load"));
    sim::QuestionSpec q;
    q.kind = QuestionKind::IndexValue;
    q.block = sim::Uint3{0, 0, 0};
    q.thread = sim::Uint3{3, 0, 0};
    q.step = 7;
    q.expression = "ph*TILE_WIDTH + tx";
    const Question seven = g.answer(q);
    EXPECT_EQ(seven.answer.number, 1 * 4 + 3);
    // The prompt names the step by the trace's own label, phase 1 (counted from the fills).
    EXPECT_NE(seven.prompt.find("at step 7 (phase 1: load M tile into Mds)"), std::string::npos) << seven.prompt;
    EXPECT_NE(seven.explanation.find("ph = 1"), std::string::npos) << seven.explanation;
    q.step = 0;
    EXPECT_EQ(g.answer(q).answer.number, 3);
}

/// Expressions of the tiled and basic 1D convolutions (PMPP 3rd ed. ch. 7, kernels/conv1d_*.cuh)
/// at a step: three load steps, the barrier, Mask_Width multiply-adds, the store (tiled);
/// Mask_Width multiply-adds, the store (basic).
long long conv1dExpression(const sim::Scenario& s, const Question& q, bool tiled)
{
    const long long T = s.tile, n = s.maskWidth / 2, bx = q.spec.block->x, tx = q.spec.thread->x;
    const long long i = bx * T + tx, j = *q.spec.step - (tiled ? 4 : 0);
    const std::string& e = q.spec.expression;
    if (e == "tx - (TILE_SIZE - n)") return tx - (T - n);
    if (e == "TILE_SIZE - n") return T - n;
    if (e == "halo_index_left") return (bx - 1) * T + tx;
    if (e == "halo_index_right") return (bx + 1) * T + tx;
    if (e == "n + tx") return n + tx;
    if (e == "n + TILE_SIZE + tx") return n + T + tx;
    if (e == "TILE_SIZE + tx") return T + tx;
    if (e == "i") return i;
    if (e == "tx + j") return tx + j;
    if (e == "N_start_point") return i - n;
    if (e == "N_start_point + j") return i - n + j;
    ADD_FAILURE() << "no independent value for " << e;
    return -1;
}

/// conv2d-tiled (PMPP sec. 7.4): the load, the barrier, Mask_Width^2 multiply-adds (i, j), the store.
long long conv2dExpression(const sim::Scenario& s, const Question& q)
{
    const long long T = s.tile, n = s.maskWidth / 2, bx = q.spec.block->x, by = q.spec.block->y,
                    tx = q.spec.thread->x, ty = q.spec.thread->y;
    const long long row_o = by * T + ty, col_o = bx * T + tx, row_i = row_o - n, col_i = col_o - n;
    const long long it = *q.spec.step - 2, i = it / s.maskWidth, j = it % s.maskWidth;
    const std::string& e = q.spec.expression;
    if (e == "row_i*width + col_i") return row_i * s.width + col_i;
    if (e == "row_i") return row_i;
    if (e == "col_i") return col_i;
    if (e == "row_o*width + col_o") return row_o * s.width + col_o;
    if (e == "row_o") return row_o;
    if (e == "col_o") return col_o;
    if (e == "i + ty") return i + ty;
    if (e == "j + tx") return j + tx;
    ADD_FAILURE() << "no independent value for " << e;
    return -1;
}

const char* kConv1D = R"(kernel = "conv1d-tiled"
width = 20
mask_width = 5
tile = 8
)";
const char* kConv1DCache = R"(kernel = "conv1d-tiled-cache"
width = 20
mask_width = 5
tile = 8
)";
const char* kConv1DBasic = R"(kernel = "conv1d-basic"
width = 12
mask_width = 5
tile = 4
)";
const char* kConv2D = R"(kernel = "conv2d-tiled"
width = 19
height = 13
mask_width = 3
tile = 4
)";
const char* kConv2DBasic = R"(kernel = "conv2d-basic"
width = 10
height = 7
mask_width = 3
tile = 4
)";

TEST(Questions, IndexValuesConvolution)
{
    std::set<std::string> seen;
    for (const char* text : {kConv1D, kConv1DBasic}) {
        const sim::Preset p = fromText(text);
        const bool tiled = p.scenario.kernel == "conv1d-tiled";
        for (const Question& q : ask(p, QuestionKind::IndexValue, 40)) {
            EXPECT_EQ(q.answer.number, conv1dExpression(p.scenario, q, tiled)) << where(q);
            seen.insert(q.spec.expression);
        }
    }
    const sim::Preset p2 = fromText(kConv2D);
    for (const Question& q : ask(p2, QuestionKind::IndexValue, 40)) {
        EXPECT_EQ(q.answer.number, conv2dExpression(p2.scenario, q)) << where(q);
        seen.insert(q.spec.expression);
    }
    EXPECT_GE(seen.size(), 8u);
}

// ---------------------------------------------------------------------------------------
// Convolution tiles, slots, readers, halo and ghost cells (PMPP ch. 7).

/// Elements of N thread tx of block bx loads into N_ds (conv1d-tiled: the left halo by the
/// last n threads, its own element, the right halo by the first n; conv1d-tiled-cache: its
/// own element), where they lie inside N.
Cells conv1dLoads(const sim::Scenario& s, int bx, int tx, bool cache)
{
    const int T = s.tile, n = s.maskWidth / 2, W = s.width, i = bx * T + tx;
    Cells out;
    if (!cache && tx >= T - n && (bx - 1) * T + tx >= 0) out.push_back({0, (bx - 1) * T + tx});
    if (i < W) out.push_back({0, i});
    if (!cache && tx < n && (bx + 1) * T + tx < W) out.push_back({0, (bx + 1) * T + tx});
    return sorted(out);
}

Cells conv2dLoad(const sim::Scenario& s, sim::Uint3 b, sim::Uint3 t)
{
    const int T = s.tile, n = s.maskWidth / 2;
    const int r = static_cast<int>(b.y) * T + static_cast<int>(t.y) - n, c = static_cast<int>(b.x) * T + static_cast<int>(t.x) - n;
    if (r >= 0 && r < s.height && c >= 0 && c < s.width) return {{r, c}};
    return {};
}

/// The positions [r0, r0 + rows) x [c0, c0 + cols) inside N.
Cells rectInside(const sim::Scenario& s, int r0, int rows, int c0, int cols)
{
    const int h = sim::familyOf(s) == sim::Family::Conv2D ? s.height : 1;
    Cells out;
    for (int r = r0; r < r0 + rows; ++r)
        for (int c = c0; c < c0 + cols; ++c)
            if (r >= 0 && r < h && c >= 0 && c < s.width) out.push_back({r, c});
    return out;
}

TEST(Questions, ConvolutionLoadsAndTiles)
{
    for (const char* text : {kConv1D, kConv1DCache}) {
        const sim::Preset p = fromText(text);
        const bool cache = p.scenario.kernel == "conv1d-tiled-cache";
        const int T = p.scenario.tile, n = p.scenario.maskWidth / 2;
        for (const Question& q : ask(p, QuestionKind::NdsLoads)) {
            EXPECT_EQ(q.answer.cells, conv1dLoads(p.scenario, q.spec.block->x, q.spec.thread->x, cache)) << where(q);
            EXPECT_TRUE(q.answer.oneD);
        }
        for (const Question& q : ask(p, QuestionKind::BlockTile)) {
            const int bx = static_cast<int>(q.spec.block->x);
            EXPECT_EQ(q.answer.cells, cache ? rectInside(p.scenario, 0, 1, bx * T, T)
                                            : rectInside(p.scenario, 0, 1, bx * T - n, T + 2 * n))
                << where(q);
        }
    }
    const sim::Preset p = fromText(kConv2D);
    const int T = p.scenario.tile, n = p.scenario.maskWidth / 2;
    for (const Question& q : ask(p, QuestionKind::NdsLoads))
        EXPECT_EQ(q.answer.cells, conv2dLoad(p.scenario, *q.spec.block, *q.spec.thread)) << where(q);
    for (const Question& q : ask(p, QuestionKind::BlockTile)) {
        const int bx = static_cast<int>(q.spec.block->x), by = static_cast<int>(q.spec.block->y);
        EXPECT_EQ(q.answer.cells, rectInside(p.scenario, by * T - n, T + 2 * n, bx * T - n, T + 2 * n)) << where(q);
    }
}

TEST(Questions, ConvolutionNdsSlots)
{
    for (const char* text : {kConv1D, kConv1DCache}) {
        const sim::Preset p = fromText(text);
        const bool cache = p.scenario.kernel == "conv1d-tiled-cache";
        const int T = p.scenario.tile, n = p.scenario.maskWidth / 2;
        for (const Question& q : ask(p, QuestionKind::NdsSlot)) {
            const int bx = static_cast<int>(q.spec.block->x), tx = static_cast<int>(q.spec.thread->x);
            ASSERT_TRUE(q.spec.element) << where(q);
            const int e = q.spec.element->col;
            // The element is one the thread stores: its own, or a halo element it loads.
            const bool own = e == bx * T + tx, left = !cache && tx >= T - n && e == (bx - 1) * T + tx,
                       right = !cache && tx < n && e == (bx + 1) * T + tx;
            EXPECT_TRUE(own || left || right) << where(q);
            // N_ds[s] holds N[bx*T - n + s] (conv1d-tiled) or N[bx*T + s] (cache).
            EXPECT_EQ(q.answer.cells, (Cells{{0, cache ? e - bx * T : e - (bx * T - n)}})) << where(q);
            EXPECT_TRUE(q.answer.oneD);
        }
    }
    const sim::Preset p = fromText(kConv2D);
    const int T = p.scenario.tile, n = p.scenario.maskWidth / 2;
    for (const Question& q : ask(p, QuestionKind::NdsSlot)) {
        const int tx = static_cast<int>(q.spec.thread->x), ty = static_cast<int>(q.spec.thread->y);
        EXPECT_EQ(q.answer.cells, (Cells{{ty, tx}})) << where(q);
        EXPECT_EQ(*q.spec.element, (Cell{static_cast<int>(q.spec.block->y) * T + ty - n,
                                         static_cast<int>(q.spec.block->x) * T + tx - n}));
    }
}

/// Threads [ty, tx] of block b that use element (r, c) in a multiply-add: those whose output
/// window covers it, among the threads that compute (conv1d-tiled: every thread of the block,
/// its loop is not guarded; conv1d-basic and -cache: outputs inside N; conv2d-tiled: the
/// TILE_SIZE x TILE_SIZE output threads; conv2d-basic: outputs inside N).
Cells readers(const sim::Scenario& s, sim::Uint3 b, Cell el)
{
    const int T = s.tile, n = s.maskWidth / 2;
    Cells out;
    if (sim::familyOf(s) == sim::Family::Conv1D) {
        for (int tx = 0; tx < T; ++tx) {
            const int i = static_cast<int>(b.x) * T + tx;
            if (s.kernel != "conv1d-tiled" && i >= s.width) continue;
            if (std::abs(i - el.col) <= n) out.push_back({0, tx});
        }
        return out;
    }
    for (int ty = 0; ty < T; ++ty)
        for (int tx = 0; tx < T; ++tx) {
            const int row = static_cast<int>(b.y) * T + ty, col = static_cast<int>(b.x) * T + tx;
            if (s.kernel == "conv2d-basic" && (row >= s.height || col >= s.width)) continue;
            if (std::abs(row - el.row) <= n && std::abs(col - el.col) <= n) out.push_back({ty, tx});
        }
    return out;
}

TEST(Questions, ElementReadersFromTheWindow)
{
    for (const char* text : {kConv1D, kConv1DCache, kConv1DBasic, kConv2D, kConv2DBasic}) {
        const sim::Preset p = fromText(text);
        SCOPED_TRACE(p.scenario.kernel);
        int nonEmpty = 0;
        for (const Question& q : ask(p, QuestionKind::ElementReaders)) {
            EXPECT_EQ(q.answer.cells, readers(p.scenario, *q.spec.block, *q.spec.element)) << where(q);
            // The explanation lists the same threads as the answer, in the same words (it
            // once said "threads 8..12" by output index where the answer said tx=0..4).
            if (!q.answer.cells.empty())
                EXPECT_NE(q.explanation.find("used by thread" + std::string(q.answer.cells.size() == 1 ? " " : "s ") +
                                             sim::answerText(q) + " ("),
                          std::string::npos)
                    << where(q) << ": " << q.explanation;
            nonEmpty += !q.answer.cells.empty();
        }
        EXPECT_GT(nonEmpty, 0);
    }
}

// PMPP's 1D example ("Example: 1D reuse counts", docs/references.md): TILE_SIZE 4, Mask_Width
// 5, block 1 (threads 4 to 7): element 5 is used by threads 4, 5, 6, 7, that is tx 0 to 3.
TEST(Questions, SeedElementFiveIsUsedByThreadsFourToSeven)
{
    const sim::Preset p = fromText(R"(kernel = "conv1d-tiled"
width = 12
mask_width = 5
tile = 4
block = [1, 0]

[[question]]
kind = "element-readers"
block = [1, 0]
element = 5
)");
    ASSERT_EQ(p.questions.size(), 1u);
    sim::QuestionGenerator g(p);
    const std::vector<Question> qs = g.generate({});
    ASSERT_FALSE(qs.empty());
    ASSERT_TRUE(qs[0].fixed);
    EXPECT_EQ(qs[0].answer.cells, (Cells{{0, 0}, {0, 1}, {0, 2}, {0, 3}}));
    // The explanation names the threads as the answer does (tx in the block), and the
    // outputs they compute: i = bx*TILE_SIZE + tx = 4 to 7.
    EXPECT_NE(qs[0].explanation.find("N[5] is used by threads tx=0, tx=1, tx=2, tx=3 (4X), which compute P[4] to P[7]"),
              std::string::npos)
        << qs[0].explanation;
    EXPECT_EQ(qs[0].line, 47u);   // Pvalue += N_ds[tx + j]*M[j];
}

TEST(Questions, HaloAndGhostCells)
{
    for (const char* text : {kConv1D, kConv1DCache, kConv1DBasic, kConv2D, kConv2DBasic}) {
        const sim::Preset p = fromText(text);
        SCOPED_TRACE(p.scenario.kernel);
        const sim::Scenario& s = p.scenario;
        const bool twoD = sim::familyOf(s) == sim::Family::Conv2D;
        const int T = s.tile, n = s.maskWidth / 2, h = twoD ? s.height : 1;
        // The input tile: the output tile grown by n on every side (on both ends in 1D).
        auto inputTile = [&](sim::Uint3 b, bool halo) {
            Cells out;
            const int r0 = twoD ? static_cast<int>(b.y) * T - n : 0, rows = twoD ? T + 2 * n : 1;
            const int c0 = static_cast<int>(b.x) * T - n;
            for (int r = r0; r < r0 + rows; ++r)
                for (int c = c0; c < c0 + T + 2 * n; ++c) {
                    const bool inside = r >= 0 && r < h && c >= 0 && c < s.width;
                    const bool inOutput = c >= c0 + n && c < c0 + n + T && (!twoD || (r >= r0 + n && r < r0 + n + T));
                    if (halo ? inside && !inOutput : !inside) out.push_back({r, c});
                }
            return out;
        };
        int ghosts = 0;
        for (const Question& q : ask(p, QuestionKind::HaloCells, 12))
            EXPECT_EQ(q.answer.cells, inputTile(*q.spec.block, true)) << where(q);
        for (const Question& q : ask(p, QuestionKind::GhostCells, 12)) {
            EXPECT_EQ(q.answer.cells, inputTile(*q.spec.block, false)) << where(q);
            ghosts += !q.answer.cells.empty();
        }
        EXPECT_GT(ghosts, 0);
    }
}

TEST(Questions, ConvolutionBlockGlobalLoads)
{
    // conv1d-tiled loads each input-tile element inside N once; conv1d-basic reads, for each
    // output inside N, the window elements inside N (ghosts skipped).
    const sim::Preset tiled = fromText(kConv1D);
    for (const Question& q : ask(tiled, QuestionKind::BlockGlobalLoads)) {
        const int T = tiled.scenario.tile, n = tiled.scenario.maskWidth / 2, bx = static_cast<int>(q.spec.block->x);
        EXPECT_EQ(q.answer.number, static_cast<long long>(rectInside(tiled.scenario, 0, 1, bx * T - n, T + 2 * n).size()));
    }
    const sim::Preset basic = fromText(kConv1DBasic);
    for (const Question& q : ask(basic, QuestionKind::BlockGlobalLoads)) {
        const sim::Scenario& s = basic.scenario;
        long long want = 0;
        for (int tx = 0; tx < s.tile; ++tx) {
            const int i = static_cast<int>(q.spec.block->x) * s.tile + tx;
            if (i >= s.width) continue;
            for (int j = 0; j < s.maskWidth; ++j) want += i - s.maskWidth / 2 + j >= 0 && i - s.maskWidth / 2 + j < s.width;
        }
        EXPECT_EQ(q.answer.number, want) << where(q);
    }
    // conv2d-tiled: one load per input-tile element inside N.
    const sim::Preset two = fromText(kConv2D);
    for (const Question& q : ask(two, QuestionKind::BlockGlobalLoads)) {
        const int T = two.scenario.tile, n = two.scenario.maskWidth / 2;
        const int bx = static_cast<int>(q.spec.block->x), by = static_cast<int>(q.spec.block->y);
        EXPECT_EQ(q.answer.number,
                  static_cast<long long>(rectInside(two.scenario, by * T - n, T + 2 * n, bx * T - n, T + 2 * n).size()));
    }
}

// ---------------------------------------------------------------------------------------
// Dropped barriers (PMPP sec. 5.4): without the barrier after the load a thread reads a tile
// slot its owner may not have written (read-after-write); without the one after the use the
// next phase's load overwrites a slot another thread may still read (write-after-read), which
// needs a second phase.

TEST(Questions, DroppedBarrierHazards)
{
    auto hazard = [](const sim::Preset& p, unsigned bit) {
        sim::QuestionGenerator g(p);
        sim::QuestionSpec q;
        q.kind = QuestionKind::DroppedBarrierHazard;
        q.barrier = bit;
        return g.answer(q).answer.name;
    };
    for (const char* name : {"tiled-4x4", "missing-barrier-after-load", "missing-barrier-after-compute", "boundary-3x3"}) {
        SCOPED_TRACE(name);
        EXPECT_EQ(hazard(preset(name), kernels::AFTER_LOAD), "raw");
        EXPECT_EQ(hazard(preset(name), kernels::AFTER_COMPUTE), "war");
    }
    // One phase (k = TILE_WIDTH): no tile is ever overwritten.
    const sim::Preset one = fromText("kernel = \"matmul-tiled\"\nwidth = 4\ntile = 4\n");
    EXPECT_EQ(hazard(one, kernels::AFTER_LOAD), "raw");
    EXPECT_EQ(hazard(one, kernels::AFTER_COMPUTE), "none");
    EXPECT_EQ(hazard(fromText(kConv1D), kernels::AFTER_LOAD), "raw");
    EXPECT_EQ(hazard(fromText(kConv2D), kernels::AFTER_LOAD), "raw");
    // The generator asks only for barriers the kernel has.
    for (const Question& q : ask(fromText(kConv1D), QuestionKind::DroppedBarrierHazard, 5))
        EXPECT_EQ(q.spec.barrier, unsigned(kernels::AFTER_LOAD));
}

// ---------------------------------------------------------------------------------------
// Occupancy on the textbook SM (PMPP sec. 4.7): blocks = min(8 block slots, 1536 / threads,
// 16384 / (threads * registers), 16384 / shared memory); the limiter is the first of
// registers, shared_memory, threads, blocks that reaches it.

struct Textbook {
    int blocks;
    std::string limiter;
};

Textbook textbook(int threads, int regs, int smem)
{
    const int byRegs = regs ? 16384 / (threads * regs) : 1 << 30, bySmem = smem ? 16384 / smem : 1 << 30;
    const int byThreads = 1536 / threads, bySlots = 8;
    const int blocks = std::min({byRegs, bySmem, byThreads, bySlots});
    const std::string limiter = byRegs == blocks ? "registers" : bySmem == blocks ? "shared_memory"
                                : byThreads == blocks ? "threads" : "blocks";
    return {blocks, limiter};
}

TEST(Questions, OccupancyTextbookFormula)
{
    const sim::Preset p = preset("occupancy-seed004");   // 256 threads, 2048 B, textbook
    std::set<int> regs;
    for (const Question& q : ask(p, QuestionKind::OccupancyBlocks, 8)) {
        EXPECT_EQ(q.spec.profile, "textbook");
        EXPECT_EQ(q.answer.number, textbook(256, *q.spec.regsPerThread, 2048).blocks) << where(q);
        regs.insert(*q.spec.regsPerThread);
    }
    EXPECT_GE(regs.size(), 3u);
    for (const Question& q : ask(p, QuestionKind::OccupancyLimiter, 8))
        EXPECT_EQ(q.answer.name, textbook(256, *q.spec.regsPerThread, 2048).limiter) << where(q);
    // The lecture's figures: 10 registers, 6 blocks; 12 registers, 5 blocks, limited by registers;
    // 128-thread blocks without shared memory: 8 blocks, limited by the block slots.
    sim::QuestionGenerator g(p);
    sim::QuestionSpec q;
    q.kind = QuestionKind::OccupancyBlocks;
    q.regsPerThread = 10;
    EXPECT_EQ(g.answer(q).answer.number, 6);
    q.regsPerThread = 12;
    EXPECT_EQ(g.answer(q).answer.number, 5);
    q.kind = QuestionKind::OccupancyLimiter;
    EXPECT_EQ(g.answer(q).answer.name, "registers");
    q.blockThreads = 128;
    q.smemPerBlock = 0;
    q.regsPerThread = 10;
    EXPECT_EQ(g.answer(q).answer.name, "blocks");
    // A kernel's own block and shared memory when the scenario sets no [occupancy] table:
    // tiled-64-tile32 has 1024 threads and 2 x 32 x 32 x 4 = 8192 bytes: one block, threads.
    sim::QuestionGenerator t32(preset("tiled-64-tile32"));
    sim::QuestionSpec k;
    k.kind = QuestionKind::OccupancyBlocks;
    const Question a = t32.answer(k);
    EXPECT_EQ(*a.spec.blockThreads, 1024);
    EXPECT_EQ(*a.spec.smemPerBlock, 8192);
    EXPECT_EQ(a.answer.number, textbook(1024, 0, 8192).blocks);
    k.kind = QuestionKind::OccupancyLimiter;
    EXPECT_EQ(t32.answer(k).answer.name, "threads");
}

// ---------------------------------------------------------------------------------------
// Kinds, determinism, files, grading.

TEST(Questions, KindsApplyOnlyWhereTheyFit)
{
    std::string why;
    EXPECT_FALSE(sim::questionKindApplies(preset("tiled-4x4").scenario, QuestionKind::HaloCells, &why));
    EXPECT_NE(why.find("'halo-cells' does not apply to matmul-tiled"), std::string::npos) << why;
    EXPECT_FALSE(sim::questionKindApplies(fromText(kConv1D).scenario, QuestionKind::MdsLoads));
    EXPECT_FALSE(sim::questionKindApplies(preset("naive-4x4").scenario, QuestionKind::NdsSlot));
    EXPECT_FALSE(sim::questionKindApplies(preset("naive-4x4").scenario, QuestionKind::DroppedBarrierHazard));
    EXPECT_TRUE(sim::questionKindApplies(preset("naive-4x4").scenario, QuestionKind::IndexValue));
    EXPECT_TRUE(sim::questionKindApplies(fromText(kConv2DBasic).scenario, QuestionKind::GhostCells));
    // Without kinds asked, a scenario gets only its own kinds, and every one of them.
    for (const char* text : {kConv1D, kConv2DBasic}) {
        const sim::Preset p = fromText(text);
        sim::QuestionGenerator g(p);
        sim::QuestionRequest r;
        r.count = 60;
        std::set<QuestionKind> got;
        for (const Question& q : g.generate(r)) {
            EXPECT_TRUE(sim::questionKindApplies(p.scenario, q.spec.kind)) << where(q);
            got.insert(q.spec.kind);
        }
        for (QuestionKind k : sim::applicableQuestionKinds(p.scenario))
            if (k != QuestionKind::OccupancyBlocks && k != QuestionKind::OccupancyLimiter)
                EXPECT_TRUE(got.count(k)) << sim::questionKindName(k);
    }
}

/// What a question says, for comparing two runs.
std::string text(const std::vector<Question>& qs)
{
    std::string out;
    for (const Question& q : qs) out += q.prompt + " -> " + sim::answerText(q) + " | " + q.explanation + "\n";
    return out;
}

TEST(Questions, SameSeedSameQuestionsOtherSeedOthers)
{
    for (const char* name : {"tiled-4x4", "conv1d-tiled-tile8-mask5", "ragged-100x37x51-tile16"}) {
        sim::QuestionRequest r;
        r.count = 12;
        r.seed = 42;
        const std::string a = text(sim::QuestionGenerator(preset(name)).generate(r));
        const std::string b = text(sim::QuestionGenerator(preset(name)).generate(r));
        EXPECT_EQ(a, b) << name;
        r.seed = 43;
        EXPECT_NE(a, text(sim::QuestionGenerator(preset(name)).generate(r))) << name;
    }
    // The generator's own numbers, the same on every platform: the first generated question of
    // tiled-4x4 with seed 1 (splitmix64, no std distribution).
    sim::QuestionRequest r;
    r.count = 1;
    r.fixedQuestions = false;
    const std::vector<Question> one = sim::QuestionGenerator(preset("tiled-4x4")).generate(r);
    ASSERT_EQ(one.size(), 1u);
    EXPECT_EQ(one[0].prompt, "If the barrier after the load (line 42) is dropped, which hazard does the hazard "
                             "detector report: raw, war or none?");
}

TEST(Questions, FileQuestionsFirstThenGenerated)
{
    const sim::Preset p = fromText(R"(kernel = "matmul-tiled"
width = 4
tile = 2

[[question]]
kind = "block-global-loads"
block = [1, 1]

[[question]]
kind = "nds-loads"
block = [0, 1]
thread = [1, 1]
phase = 0
)");
    ASSERT_EQ(p.questions.size(), 2u);
    EXPECT_TRUE(p.questionProblems.empty());
    sim::QuestionGenerator g(p);
    sim::QuestionRequest r;
    r.count = 5;
    const std::vector<Question> qs = g.generate(r);
    ASSERT_EQ(qs.size(), 5u);
    EXPECT_TRUE(qs[0].fixed);
    EXPECT_EQ(qs[0].spec.kind, QuestionKind::BlockGlobalLoads);
    EXPECT_EQ(qs[0].answer.number, 16);
    EXPECT_TRUE(qs[1].fixed);
    EXPECT_EQ(qs[1].answer.cells, (Cells{{1, 1}}));   // N[0*2 + 1][0*2 + 1]
    for (size_t i = 2; i < qs.size(); ++i) EXPECT_FALSE(qs[i].fixed);
    EXPECT_TRUE(g.problems().empty());
}

TEST(Questions, MalformedFileQuestionsAreReportedAndTheRestLoads)
{
    const std::string text = R"(kernel = "matmul-tiled"
width = 4
tile = 2

[[question]]
kind = "mds-loads"
block = [1, 0]
thread = [0, 1]
phase = 1

[[question]]
kind = "mds-loads"
block = [2, 0]
thread = [0, 1]
phase = 1

[[question]]
kind = "halo-cells"
block = [0, 0]

[[question]]
kind = "sideways"

[[question]]
kind = "nds-loads"
block = [0, 0]
phase = 0

[[question]]
kind = "block-tile"
block = [0, 0]
phase = 1
array = "P"

[[question]]
kind = "dropped-barrier-hazard"
barrier = "after-compute"
thread = [0, 0]

[[question]]
kind = "index-value"
block = [0, 0]
thread = [0, 0]
step = 0
expression = "Row*zz"

[[question]]
kind = "dropped-barrier-hazard"
barrier = "after-load"
)";
    const sim::Preset p = fromText(text);
    ASSERT_EQ(p.questions.size(), 2u);
    EXPECT_EQ(p.questions[0].kind, QuestionKind::MdsLoads);
    EXPECT_EQ(p.questions[0].line, 5);
    EXPECT_EQ(p.questions[1].kind, QuestionKind::DroppedBarrierHazard);
    const std::vector<std::string> want = {
        "quiz.toml, line 13: block [2, 0] is outside the grid of 2 x 2 blocks.",
        "quiz.toml, line 18: The question kind 'halo-cells' does not apply to matmul-tiled: it is not a "
        "convolution; the kinds for matmul-tiled are mds-loads, nds-loads, block-tile, nds-slot, index-value, "
        "dropped-barrier-hazard, block-global-loads, occupancy-blocks and occupancy-limiter.",
        "quiz.toml, line 22: 'sideways' is not a question kind; the kinds are mds-loads, nds-loads, block-tile, "
        "nds-slot, index-value, element-readers, halo-cells, ghost-cells, dropped-barrier-hazard, "
        "block-global-loads, occupancy-blocks, occupancy-limiter, divergent-warps, tree-slot and scan-adds.",
        "quiz.toml, line 24: a question of kind 'nds-loads' needs thread (it takes block, thread and phase).",
        "quiz.toml, line 33: array must be \"M\" or \"N\", the input whose tile the block loads; got \"P\".",
        "quiz.toml, line 38: thread does not apply to a question of kind 'dropped-barrier-hazard', which takes "
        "barrier (and step).",
        "quiz.toml, line 45: 'zz' in the expression is not a name in matmul_tiled.cuh.",
    };
    EXPECT_EQ(p.questionProblems, want);
    // The rest of the file is the scenario as usual.
    EXPECT_EQ(p.scenario.kernel, "matmul-tiled");
    EXPECT_EQ(p.scenario.j, 4);
    sim::QuestionGenerator g(p);
    sim::QuestionRequest r;
    r.count = 2;
    const std::vector<Question> qs = g.generate(r);
    ASSERT_EQ(qs.size(), 2u);
    EXPECT_EQ(qs[0].answer.cells, (Cells{{1, 2}}));
    EXPECT_EQ(qs[1].answer.name, "raw");
}

TEST(Questions, FileQuestionsThatCannotBeAnsweredAreProblems)
{
    const sim::Preset p = fromText(R"(kernel = "conv1d-tiled"
width = 24
mask_width = 5
tile = 8

[[question]]
kind = "index-value"
block = [1, 0]
thread = [0, 0]
step = 99
expression = "tx + j"

[[question]]
kind = "nds-slot"
block = [1, 0]
thread = [6, 0]

[[question]]
kind = "nds-slot"
block = [1, 0]
thread = [6, 0]
element = 14
)");
    EXPECT_TRUE(p.questionProblems.empty());
    sim::QuestionGenerator g(p);
    sim::QuestionRequest r;
    r.count = 1;
    const std::vector<Question> qs = g.generate(r);
    ASSERT_EQ(qs.size(), 1u);
    EXPECT_EQ(qs[0].answer.cells, (Cells{{0, 8}}));   // N_ds[n + tx] = N_ds[2 + 6]
    ASSERT_EQ(g.problems().size(), 2u);
    EXPECT_EQ(g.problems()[0].message, "quiz.toml, line 6: step 99 is past the last step of block bx=1's trace, 9.");
    EXPECT_EQ(g.problems()[1].message,
              "quiz.toml, line 13: Thread tx=6 of block bx=1 writes 2 slots of N_ds (for N[6] and N[14]); name one "
              "of them with element.");
}

TEST(Questions, SavedFileKeepsItsQuestions)
{
    sim::Preset p = fromText(R"(kernel = "conv2d-tiled"
width = 24
height = 24
mask_width = 5
tile = 8

[[question]]
kind = "element-readers"
block = [1, 1]
element = [8, 9]
step = 3

[[question]]
kind = "occupancy-limiter"
profile = "sm_80"
regs_per_thread = 32
)");
    ASSERT_EQ(p.questions.size(), 2u);
    const std::string path = (std::filesystem::temp_directory_path() / "tilescope-questions-test.toml").string();
    sim::saveScenarioFile(p, path);
    const sim::Preset back = sim::loadScenarioFile(path);
    std::filesystem::remove(path);
    EXPECT_TRUE(back.questionProblems.empty());
    ASSERT_EQ(back.questions.size(), 2u);
    EXPECT_TRUE(back.questions[0] == p.questions[0]);
    EXPECT_TRUE(back.questions[1] == p.questions[1]);
    EXPECT_EQ(back.questions[1].profile, "sm_80");
}

// Every lecture preset carries three to five questions of its own, each answered without a
// problem.
TEST(Questions, EveryPresetHasFixedQuestionsThatAnswer)
{
    for (const sim::Preset& p : sim::listPresets()) {
        SCOPED_TRACE(p.name);
        EXPECT_TRUE(p.questionProblems.empty()) << (p.questionProblems.empty() ? "" : p.questionProblems[0]);
        EXPECT_GE(p.questions.size(), 3u);
        EXPECT_LE(p.questions.size(), 5u);
        sim::QuestionGenerator g(p);
        sim::QuestionRequest r;
        r.count = static_cast<int>(p.questions.size());
        const std::vector<Question> qs = g.generate(r);
        EXPECT_EQ(qs.size(), p.questions.size());
        for (const Question& q : qs) EXPECT_TRUE(q.fixed);
        EXPECT_TRUE(g.problems().empty()) << (g.problems().empty() ? "" : g.problems()[0].message);
    }
}

TEST(Questions, ForStepAsksWhatTheStepReveals)
{
    const sim::Preset p = preset("tiled-4x4");
    sim::QuestionGenerator g(p);
    // Step 6: phase 1, the M tile is loaded into Mds.
    const std::vector<Question> qs = g.forStep(6, 3, 6);
    ASSERT_FALSE(qs.empty());
    for (const Question& q : qs) {
        ASSERT_TRUE(q.spec.step) << where(q);
        EXPECT_EQ(*q.spec.step, 6) << where(q);
        if (q.spec.block) EXPECT_EQ(q.spec.block->x, 0u);
        if (q.spec.kind == QuestionKind::MdsLoads)
            EXPECT_EQ(q.answer.cells, mdsLoad(p.scenario, *q.spec.block, *q.spec.thread, 1)) << where(q);
    }
    // A barrier step asks about dropping that barrier.
    const std::vector<Question> barrier = g.forStep(2, 1, 3);
    ASSERT_FALSE(barrier.empty());
    EXPECT_TRUE(std::any_of(barrier.begin(), barrier.end(), [](const Question& q) {
        return q.spec.kind == QuestionKind::DroppedBarrierHazard && q.answer.name == "raw";
    }));
}

TEST(Questions, GradeCellByCell)
{
    sim::QuestionGenerator g(preset("conv1d-tiled-tile8-mask5"));
    sim::QuestionSpec s;
    s.kind = QuestionKind::HaloCells;
    s.block = sim::Uint3{1, 0, 0};
    const Question q = g.answer(s);   // N[6], N[7], N[16], N[17]
    ASSERT_EQ(q.answer.cells, (Cells{{0, 6}, {0, 7}, {0, 16}, {0, 17}}));
    sim::Answer given;
    given.cells = {{0, 7}, {0, 6}, {0, 8}};
    sim::Grade gr = sim::grade(q, given);
    EXPECT_FALSE(gr.correct);
    EXPECT_EQ(gr.right, (Cells{{0, 6}, {0, 7}}));
    EXPECT_EQ(gr.wrong, (Cells{{0, 8}}));
    EXPECT_EQ(gr.missed, (Cells{{0, 16}, {0, 17}}));
    given.cells = q.answer.cells;
    EXPECT_TRUE(sim::grade(q, given).correct);

    s = {};
    s.kind = QuestionKind::BlockGlobalLoads;
    s.block = sim::Uint3{1, 0, 0};
    const Question n = g.answer(s);
    sim::Answer num;
    num.number = 12;
    EXPECT_TRUE(sim::grade(n, num).correct);
    num.number = 40;
    EXPECT_FALSE(sim::grade(n, num).correct);
}

}  // namespace
}  // namespace ts::test

namespace ts::test {
namespace {

/// The stride a tree question names ("... at stride 4?"), or -1.
int strideOf(const Question& q)
{
    const size_t at = q.prompt.rfind("stride ");
    return at == std::string::npos ? -1 : std::atoi(q.prompt.c_str() + at + 7);
}

// PMPP Figs. 10.6 and 10.9 at 256 threads (8 warps), counted here from each figure's condition:
// at stride s, Fig. 10.6's threads with t % s == 0 add, Fig. 10.9's threads with t < s; a warp
// diverges when some but not all of its 32 lanes add. Fig. 10.6's thread t owns element 2t,
// Fig. 10.9's element t.
TEST(Questions, ReductionWarpsAndSlotsFromEachFiguresCondition)
{
    const struct {
        const char* preset;
        std::function<bool(int, int)> adds;
        std::function<int(int)> owns;
    } figures[] = {{"reduction-simple-256", [](int t, int s) { return t % s == 0; }, [](int t) { return 2 * t; }},
                   {"reduction-convergent-256", [](int t, int s) { return t < s; }, [](int t) { return t; }}};
    for (const auto& f : figures) {
        SCOPED_TRACE(f.preset);
        const sim::Preset p = preset(f.preset);
        std::set<int> strides;
        for (const Question& q : ask(p, QuestionKind::DivergentWarps)) {
            const int s = strideOf(q);
            ASSERT_GT(s, 0) << q.prompt;
            strides.insert(s);
            int divergent = 0;
            for (int w = 0; w < 8; ++w) {
                int adding = 0;
                for (int t = 32 * w; t < 32 * w + 32; ++t) adding += f.adds(t, s);
                divergent += adding > 0 && adding < 32;
            }
            EXPECT_EQ(q.answer.number, divergent) << where(q);
        }
        EXPECT_GE(strides.size(), 4u) << "the generator asks about several strides";
        for (const Question& q : ask(p, QuestionKind::TreeSlot)) {
            const int s = strideOf(q);
            const int t = static_cast<int>(q.spec.thread->x);
            ASSERT_GT(s, 0) << q.prompt;
            EXPECT_TRUE(f.adds(t, s)) << where(q) << ": asked of a thread that does not add";
            EXPECT_EQ(q.answer.number, f.owns(t)) << where(q);
        }
    }
    // The issue's figures at 1024 threads, stride 4: all 32 warps of Fig. 10.6 diverge, one of
    // Fig. 10.9's (warp 0, threads 0..3 adding).
    for (const auto& [name, want] : {std::pair<const char*, long long>{"reduction-simple-1024", 32},
                                     std::pair<const char*, long long>{"reduction-convergent-1024", 1}}) {
        const sim::Preset p = preset(name);
        sim::QuestionGenerator g(p);
        bool found = false;
        for (const sim::QuestionSpec& spec : p.questions) {
            if (spec.kind != QuestionKind::DivergentWarps) continue;
            const Question q = g.answer(spec);
            EXPECT_EQ(strideOf(q), 4) << q.prompt;
            EXPECT_EQ(q.answer.number, want) << name;
            found = true;
        }
        EXPECT_TRUE(found) << name << " asks how many warps diverge at stride 4";
    }
}

}  // namespace
}  // namespace ts::test
