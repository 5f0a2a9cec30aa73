// Index expressions of the code view: parsing, substitution, and the explanation of
// recorded accesses against the kernel source (preset tiled-4x4: Width 4, TILE_WIDTH 2).
#include <gtest/gtest.h>

#include "sim/teaching/kernel_view.hpp"
#include "sim/engine/simulate.hpp"

namespace ts::sim {
namespace {

TEST(Expression, EvaluatesWithCPrecedenceAndTruncatingDivision)
{
    const Variables v{{"Row", 1}, {"k", 4}, {"ph", 1}, {"TILE_WIDTH", 2}, {"tx", 0}, {"ty", 1}, {"l", 3}};
    EXPECT_EQ(evaluate("Row*k + ph*TILE_WIDTH + tx", v).value, 6);
    EXPECT_EQ(evaluate("(ph*TILE_WIDTH + ty)*l + 2", v).value, 11);
    EXPECT_EQ(evaluate("(k - 1) / TILE_WIDTH + 1", v).value, 2);
    EXPECT_EQ(evaluate("-7 / 2", v).value, -3);
    EXPECT_EQ(evaluate("2 - 3 - 4", v).value, -5);
}

/// CUDA's built-in variables are one name each, member and all; other members are not.
TEST(Expression, ReadsTheBuiltInVariablesAsOneName)
{
    const Variables v{{"blockIdx.x", 2}, {"blockDim.x", 8}, {"threadIdx.x", 3}, {"x", 100}};
    EXPECT_EQ(evaluate("blockIdx.x*blockDim.x + threadIdx.x", v).value, 19);
    EXPECT_EQ(substitute("(blockIdx.x - 1)*blockDim.x", v), "(2 - 1)*8");
    EXPECT_FALSE(evaluate("threadIdx.y", v).value);
    EXPECT_EQ(evaluate("threadIdx.y", v).unknown, "threadIdx.y");
    EXPECT_FALSE(evaluate("blockIdx.xy", v).value);
}

TEST(Expression, RefusesWhatItCannotEvaluate)
{
    const Variables v{{"a", 1}};
    EXPECT_FALSE(evaluate("a + b", v).value);
    EXPECT_NE(evaluate("a + b", v).error.find("'b'"), std::string::npos);
    EXPECT_FALSE(evaluate("(a + 1", v).value);
    EXPECT_FALSE(evaluate("a / (a - 1)", v).value);
    EXPECT_NE(evaluate("a / (a - 1)", v).error.find("division by zero"), std::string::npos);
    EXPECT_FALSE(evaluate("a +", v).value);
    EXPECT_FALSE(evaluate("a ] 2", v).value);
}

TEST(Expression, SubstitutesKeepingTheLayout)
{
    const Variables v{{"Row", 1}, {"k", 4}, {"ph", 1}, {"TILE_WIDTH", 2}, {"tx", 0}};
    EXPECT_EQ(substitute("Row*k + ph*TILE_WIDTH + tx", v), "1*4 + 1*2 + 0");
    EXPECT_EQ(substitute("Row*kk + q", v), "1*kk + q");
}

TEST(Expression, FindsWholeArrayNamesOnly)
{
    const auto acc = findAccesses("            Mds[ty][tx] = M[Row*k + ph*TILE_WIDTH + tx];",
                                  {"M", "N", "P", "Mds", "Nds"});
    ASSERT_EQ(acc.size(), 2u);
    EXPECT_EQ(acc[0].text(), "Mds[ty][tx]");
    EXPECT_EQ(acc[1].text(), "M[Row*k + ph*TILE_WIDTH + tx]");
    EXPECT_TRUE(findAccesses("float Pvalue = 0;", {"P"}).empty());
}

TEST(KernelView, ExplainsTheTiledLoadOfThread10InPhase1)
{
    // Block (0,0), thread (ty=1, tx=0), phase 1 "load M tile": Row = 1, so it loads
    // M[1*4 + 1*2 + 0] = M[6] into Mds[1][0].
    Simulation sim = simulate(Scenario{});
    const KernelInfo* info = findKernel("matmul-tiled");
    const std::string& src = kernelSource(info->sourceFile);
    ASSERT_FALSE(src.empty());
    const int loadM1 = 6;
    ASSERT_EQ(sim.trace.steps[loadM1].label, "phase 1: load M tile into Mds");
    const auto x = explainAccesses(sim.scenario, sim.trace, 1 * 2 + 0, loadM1, src);
    ASSERT_EQ(x.size(), 2u);
    EXPECT_EQ(x[0].written, "M[Row*k + ph*TILE_WIDTH + tx]");
    EXPECT_EQ(x[0].substituted, "M[1*4 + 1*2 + 0]");
    EXPECT_EQ(x[0].evaluated, "M[6]");
    EXPECT_EQ(x[0].recorded, 6);
    EXPECT_TRUE(x[0].agrees());
    EXPECT_EQ(x[1].written, "Mds[ty][tx]");
    EXPECT_EQ(x[1].evaluated, "Mds[1][0]");
    EXPECT_EQ(x[1].recorded, 2);
    EXPECT_TRUE(x[1].agrees());
}

TEST(KernelView, ExplainsTheUseStepAndTheZeroFill)
{
    Simulation sim = simulate(Scenario{});
    const std::string& src = kernelSource(findKernel("matmul-tiled")->sourceFile);
    // Phase 0, iteration 1, thread (1,1): Mds[1][1] * Nds[1][1].
    auto x = explainAccesses(sim.scenario, sim.trace, 3, 4, src);
    ASSERT_EQ(x.size(), 2u);
    EXPECT_EQ(x[0].substituted, "Mds[1][1]");
    EXPECT_EQ(x[1].written, "Nds[i][tx]");
    EXPECT_EQ(x[1].substituted, "Nds[1][1]");
    EXPECT_TRUE(x[0].agrees() && x[1].agrees());

    // 3x3: block (0,0), thread (1,0) zero-fills Nds[1][0] in phase 1 on the else line.
    Scenario s;
    s.j = s.k = s.l = 3;
    sim = simulate(s);
    int loadN1 = -1;
    for (size_t i = 0; i < sim.trace.steps.size(); ++i)
        if (sim.trace.steps[i].label == "phase 1: load N tile into Nds") loadN1 = static_cast<int>(i);
    ASSERT_GE(loadN1, 0);
    x = explainAccesses(sim.scenario, sim.trace, 2, loadN1, src);
    ASSERT_EQ(x.size(), 1u);
    EXPECT_EQ(x[0].op, Op::ZeroFill);
    EXPECT_NE(x[0].line, sim.trace.steps[loadN1].line);
    EXPECT_EQ(x[0].evaluated, "Nds[1][0]");
    EXPECT_TRUE(x[0].agrees());
}

// A ladder rung's own loop variables (matmul-double-buffered's `nxt`, `r`, `c`) have no
// value in the code view: the explanation names the variable instead of reporting a
// disagreement, and an expression with only known names still evaluates.
TEST(KernelView, ARungsOwnVariableIsNamedNotADisagreement)
{
    EXPECT_EQ(evaluate("nxt*BK + r", Variables{{"BK", 8}}).unknown, "nxt");
    EXPECT_EQ(evaluate("1 + ", Variables{}).unknown, "");   // a syntax error: no name to blame
    EXPECT_EQ(evaluate("BK + 1", Variables{{"BK", 8}}).unknown, "");
    Scenario s = matmulScenario("matmul-double-buffered", 70, 20, 70, 64);
    const Simulation sim = simulate(s);
    ASSERT_EQ(sim.error, "");
    const std::string& src = kernelSource(std::string(findKernel(s.kernel)->sourceFile));
    size_t named = 0;
    for (int step = 0; step < static_cast<int>(sim.trace.steps.size()); ++step)
        for (const AccessExplanation& x : explainAccesses(sim.scenario, sim.trace, 5, step, src)) {
            if (!x.unknown.empty()) {
                ++named;
                EXPECT_FALSE(x.agrees());
                EXPECT_NE(x.error.find("'" + x.unknown + "'"), std::string::npos) << x.error;
            }
        }
    EXPECT_GT(named, 0u);   // e.g. the shared stores through Mds[nxt*BK + c + d][r]
    // PMPP's tiled kernel uses only names the view follows: every access evaluates.
    const Simulation tiled = simulate(matmulScenario("matmul-tiled", 4, 4, 4, 2));
    const std::string& tiledSrc = kernelSource(std::string(findKernel("matmul-tiled")->sourceFile));
    size_t evaluated = 0;
    for (int step = 0; step < static_cast<int>(tiled.trace.steps.size()); ++step)
        for (const AccessExplanation& x : explainAccesses(tiled.scenario, tiled.trace, 1, step, tiledSrc)) {
            EXPECT_EQ(x.unknown, "") << x.written;
            EXPECT_TRUE(x.agrees()) << x.written;
            ++evaluated;
        }
    EXPECT_GT(evaluated, 0u);
}

TEST(KernelView, PhaseTilesReachPastTheEdge)
{
    // 3 x 3 x 3, TILE_WIDTH 2, block (0, 1): its phase 1 loads M rows 2-3, columns 2-3, of
    // which only M[2][2] lies inside M; the other three slots are zero-filled ghost cells.
    Scenario s;
    s.j = s.k = s.l = 3;
    s.block = Uint3{0, 1, 0};
    const Simulation r = simulate(s);
    ASSERT_EQ(r.error, "");
    auto m = phaseTileOf(r.trace, 1, r.arrayIndex("M"));
    ASSERT_TRUE(m);
    EXPECT_EQ(m->row0, 2);
    EXPECT_EQ(m->col0, 2);
    EXPECT_EQ(m->rows, 2);
    EXPECT_EQ(m->cols, 2);
    EXPECT_EQ(sourceOf(r.trace, r.arrayIndex("Nds")), r.arrayIndex("N"));
    s.kernel = "matmul-naive";
    const Simulation naive = simulate(s);
    EXPECT_FALSE(phaseTileOf(naive.trace, 0, naive.arrayIndex("M")));
}

}  // namespace
}  // namespace ts::sim
