// A student's own array problem (sim::Family::Array): the reference formula keeps C's types
// and nvcc's contraction; element-wise, 1D and 2D kernels of tests/student/kernels/array_*.cu
// simulate through the student path with their output checked against references written
// here independently; a wrong bound is named with its line; and every bad header gets its
// sentence on its line.
#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <sys/wait.h>

#include <filesystem>
#include <fstream>

#include "sim/engine/array_formula.hpp"
#include "sim/engine/simulate.hpp"
#include "student/exercise.hpp"
#include "student/grade.hpp"
#include "student/module.hpp"
#include "student_test_support.hpp"

namespace {

using namespace ts;
using student::test::errorsOf;
using student::test::kernelPath;
using student::test::options;


int cli(const std::string& args, std::string& out) { return student::test::cli(args, out, true); }

bool sameBits(float a, float b) { return std::memcmp(&a, &b, sizeof a) == 0; }

// --- The formula ---------------------------------------------------------------------------

TEST(ArrayFormula, KeepsCTypesAndFusesAProductThatIsOnlyAdded)
{
    const std::vector<float> a = {0.1f, -1.75f, 3.0f, 1e-3f}, b = {0.7f, 0.3f, -2.5f, 12345.678f};
    const sim::Variables sizes = {{"n", 4}};
    const std::vector<sim::FormulaArray> in = {{"A", 1, 4, false, &a}, {"B", 1, 4, false, &b}};
    const sim::FormulaArray out{"C", 1, 4, false, nullptr};
    auto all = [&](const std::string& f) {
        sim::ArrayFormula formula;
        const std::string e = formula.parse(f, out, in, sizes);
        EXPECT_EQ(e, "") << f;
        uint64_t flops = 0;
        std::string error;
        std::vector<float> v = formula.evaluateAll(sizes, flops, error);
        EXPECT_EQ(error, "") << f;
        return std::pair(v, flops);
    };
    // a*b + c: one rounding, as nvcc's FFMA; 2 flops an element.
    auto [fma, fmaFlops] = all("C[i] = A[i] * B[i] + A[i]");
    for (int i = 0; i < 4; ++i) EXPECT_TRUE(sameBits(fma[i], std::fmaf(a[i], b[i], a[i]))) << i;
    EXPECT_EQ(fmaFlops, 8u);
    // c - a*b: fmaf(-a, b, c); a*b + c*d: the left product fused, the right one rounded.
    auto [sub, subFlops] = all("C[i] = B[i] - A[i] * A[i]");
    auto [two, twoFlops] = all("C[i] = A[i] * B[i] + B[i] * B[i]");
    for (int i = 0; i < 4; ++i) {
        EXPECT_TRUE(sameBits(sub[i], std::fmaf(-a[i], a[i], b[i]))) << i;
        const float right = b[i] * b[i];
        EXPECT_TRUE(sameBits(two[i], std::fmaf(a[i], b[i], right))) << i;
    }
    EXPECT_EQ(twoFlops, 12u);
    // Integers divide as C does; 0.5 is a double, so the sum is computed in double.
    auto [ints, intFlops] = all("C[i] = (7 / 2) * A[i] + i % 3");
    for (int i = 0; i < 4; ++i) EXPECT_TRUE(sameBits(ints[i], std::fmaf(3.0f, a[i], static_cast<float>(i % 3)))) << i;
    auto [dbl, dblFlops] = all("C[i] = 0.1 + A[i]");
    for (int i = 0; i < 4; ++i) EXPECT_TRUE(sameBits(dbl[i], static_cast<float>(0.1 + static_cast<double>(a[i])))) << i;
    auto [other, otherFlops] = all("C[i] = fmaxf(A[i], B[i]) + sqrtf(fabsf(B[(i + 1) % n])) + (i > 1 ? 1.0f : -1.0f)");
    for (int i = 0; i < 4; ++i) {
        const float want = (std::fmax(a[i], b[i]) + std::sqrt(std::fabs(b[(i + 1) % 4]))) + (i > 1 ? 1.0f : -1.0f);
        EXPECT_TRUE(sameBits(other[i], want)) << i;
    }
}

TEST(ArrayFormula, EveryBadFormulaGetsItsSentence)
{
    const std::vector<float> a(6, 1.0f);
    const sim::Variables sizes = {{"rows", 2}, {"cols", 3}};
    const std::vector<sim::FormulaArray> in = {{"A", 2, 3, true, &a}};
    const sim::FormulaArray out{"B", 3, 2, true, nullptr};
    auto parse = [&](const std::string& f) {
        sim::ArrayFormula formula;
        return formula.parse(f, out, in, sizes);
    };
    EXPECT_EQ(parse("B[r][c] = A[c][r]"), "");
    EXPECT_NE(parse("B[r][c] = Q[c][r]").find("Q is not an input array of the problem; the formula reads A"), std::string::npos);
    EXPECT_NE(parse("B[r][c] = A[c]").find("A is 2D, read as A[row][col]; the formula gives it 1 subscript"), std::string::npos);
    EXPECT_NE(parse("B[r][c] = expf(A[c][r])").find("the function expf is not one a formula may call"), std::string::npos);
    EXPECT_NE(parse("B[r][c] = A[c][r] +").find("it ends too early"), std::string::npos);
    EXPECT_NE(parse("C[r][c] = A[c][r]").find("the left side of the reference must be the output B, not C"), std::string::npos);
    EXPECT_NE(parse("B[r] = A[0][r]").find("B is 2D, so the left side is B[row][col]"), std::string::npos);
    EXPECT_NE(parse("B[r][c] = A[c][0.5f]").find("the subscript of A must be an integer expression"), std::string::npos);
    EXPECT_NE(parse("B[r][c] = A[c][r] * k").find("'k' is neither an index of the left side, nor a size, nor an input array"),
              std::string::npos);
    // A read outside its array is found when the element is computed.
    sim::ArrayFormula past;
    ASSERT_EQ(past.parse("B[r][c] = A[c + 1][r]", out, in, sizes), "");
    uint64_t flops = 0;
    std::string error;
    EXPECT_TRUE(past.evaluateAll(sizes, flops, error).empty());
    // Row by row: B[0][0] reads A[1][0]; B[0][1] reads A[2][0], past A's two rows.
    EXPECT_EQ(error, "the formula reads A[2][0], outside A (2 x 3) at B[0][1]");
}

// --- Kernels through the student path --------------------------------------------------------

/// Loads `file`, simulates it at `s`'s sizes (kernel set from the load) and returns the run.
sim::Simulation run(const std::string& file, sim::Scenario s)
{
    const student::LoadResult r = student::loadKernelFile(kernelPath(file), options());
    EXPECT_TRUE(r.ok()) << errorsOf(r.errors);
    if (!r.ok()) return {};
    EXPECT_EQ(r.info->family, sim::Family::Array);
    s.kernel = r.info->name;
    EXPECT_EQ(sim::validate(s), "");
    return sim::simulate(s);
}

TEST(ArrayFamily, VectorAddPmppChapter2MatchesAnIndependentSumAtEverySize)
{
    for (int n : {1000, 1, 256, 4097}) {
        SCOPED_TRACE(n);
        sim::Scenario s;
        s.width = n;
        s.height = 1;
        s.seed = 7;
        const sim::Simulation r = run("array_vector_add.cu", s);
        ASSERT_EQ(r.error, "");
        EXPECT_EQ(r.arrays[0].name, "A");
        EXPECT_EQ(r.arrays[1].name, "B");
        EXPECT_EQ(r.arrays[2].name, "C");
        EXPECT_EQ(r.grid.x, static_cast<unsigned>((n + 255) / 256));
        EXPECT_EQ(r.block.x, 256u);
        const std::vector<float> a = sim::randomInput(n, 7, 1), b = sim::randomInput(n, 7, 2);
        ASSERT_EQ(r.P.size(), static_cast<size_t>(n));
        int nonZero = 0;
        for (int i = 0; i < n; ++i) {
            ASSERT_TRUE(sameBits(r.P[i], a[i] + b[i])) << i;
            nonZero += r.P[i] != 0.0f;
        }
        EXPECT_GT(nonZero, n / 2);
        EXPECT_TRUE(r.matchesReference);
        // Two loads and one store per element; the threads past n do nothing.
        EXPECT_EQ(r.counters.totals.global_loads, 2ull * n);
        EXPECT_EQ(r.counters.totals.global_stores, static_cast<uint64_t>(n));
        EXPECT_EQ(r.counters.totals.shared_loads, 0u);
    }
}

TEST(ArrayFamily, ContractedSaxpyIsBitExactWithTheFormula)
{
    sim::Scenario s;
    s.width = 300;
    s.seed = 3;
    const sim::Simulation r = run("array_saxpy.cu", s);
    ASSERT_EQ(r.error, "");
    const std::vector<float> x = sim::randomInput(300, 3, 1), y = sim::randomInput(300, 3, 2);
    int fused = 0;
    for (int i = 0; i < 300; ++i) {
        // 2.5f * X + Y fused, then - X * Y[i+1] fused into it: two FFMAs, as nvcc emits.
        const float want = std::fmaf(-x[i], y[(i + 1) % 300], std::fmaf(2.5f, x[i], y[i]));
        ASSERT_TRUE(sameBits(r.P[i], want)) << i << ": " << r.P[i] << " vs " << want;
        fused += !sameBits(want, (2.5f * x[i] + y[i]) - x[i] * y[(i + 1) % 300]);
    }
    // The test can tell fused from unfused arithmetic: some elements round differently.
    EXPECT_GT(fused, 0);
    EXPECT_TRUE(r.matchesReference);
}

TEST(ArrayFamily, ParametersNamedXAndYTranslateAsAnyOtherName)
{
    // The translation's own template parameter must not take a name a student may use:
    // BLAS names SAXPY's vectors X and Y. Same kernel, same P, bit for bit.
    sim::Scenario s;
    s.width = 300;
    s.seed = 3;
    const sim::Simulation uv = run("array_saxpy.cu", s);
    const sim::Simulation xy = run("array_saxpy_blas_names.cu", s);
    ASSERT_EQ(xy.error, "");
    ASSERT_EQ(xy.P.size(), uv.P.size());
    for (size_t i = 0; i < xy.P.size(); ++i) ASSERT_TRUE(sameBits(xy.P[i], uv.P[i])) << i;
    EXPECT_TRUE(xy.matchesReference);
}

TEST(ArrayFamily, TiledTransposeThroughSharedMemoryWithABarrier)
{
    for (auto [rows, cols] : {std::pair{40, 24}, std::pair{16, 16}, std::pair{33, 7}}) {
        SCOPED_TRACE(std::to_string(rows) + "x" + std::to_string(cols));
        sim::Scenario s;
        s.height = rows;
        s.width = cols;
        s.seed = 11;
        const sim::Simulation r = run("array_transpose_tiled.cu", s);
        ASSERT_EQ(r.error, "");
        ASSERT_EQ(r.arrays[2].rows, cols);
        ASSERT_EQ(r.arrays[2].cols, rows);
        const std::vector<float> a = sim::randomInput(static_cast<size_t>(rows) * cols, 11, 1);
        for (int c = 0; c < cols; ++c)
            for (int row = 0; row < rows; ++row)
                ASSERT_TRUE(sameBits(r.P[static_cast<size_t>(c) * rows + row], a[static_cast<size_t>(row) * cols + c])) << c << "," << row;
        EXPECT_TRUE(r.matchesReference);
        // Each element goes through the tile once: one shared store and one shared load.
        EXPECT_EQ(r.counters.totals.shared_stores, static_cast<uint64_t>(rows) * cols);
        EXPECT_EQ(r.counters.totals.shared_loads, static_cast<uint64_t>(rows) * cols);
        const uint64_t blocks = static_cast<uint64_t>((cols + 15) / 16) * ((rows + 15) / 16);
        EXPECT_EQ(r.counters.totals.barriers, blocks);
        EXPECT_EQ(r.hazards.raw + r.hazards.war + r.hazards.waw, 0u);
        // The trace of block (0, 0) holds the barrier and the block's stores of B.
        EXPECT_FALSE(r.trace.steps.empty());
    }
}

TEST(ArrayFamily, AnOffByOneBoundIsNamedWithItsLine)
{
    sim::Scenario s;
    s.width = 1000;
    const sim::Simulation r = run("array_wrong_bound.cu", s);
    // Both operands of `A[i] + B[i]` lie past the end; which subscript is checked first is the
    // order in which the compiler evaluates the operands of the counted add (Totals::fadds),
    // which C++ leaves unspecified.
    auto namesOne = [](const std::string& t) { return t.find("A[1000]") != std::string::npos || t.find("B[1000]") != std::string::npos; };
    EXPECT_TRUE(namesOne(r.error)) << r.error;
    EXPECT_NE(r.error.find("line 13"), std::string::npos) << r.error;
    std::string out;
    EXPECT_EQ(cli("simulate --kernel-file '" + kernelPath("array_wrong_bound.cu") + "' --quiet", out), 1) << out;
    EXPECT_TRUE(namesOne(out)) << out;
    EXPECT_NE(out.find("line 13"), std::string::npos) << out;
}

TEST(ArrayFamily, TheCliSimulatesAtTheFilesSizesOrTheGivenOnes)
{
    std::string out;
    ASSERT_EQ(cli("simulate --kernel-file '" + kernelPath("array_vector_add.cu") + "' --json --quiet", out), 0) << out;
    EXPECT_NE(out.find("\"params\":{\"n\":1000}"), std::string::npos) << out;
    EXPECT_NE(out.find("\"matches_reference\":true"), std::string::npos) << out;
    EXPECT_NE(out.find("\"global_loads\":2000"), std::string::npos) << out;
    ASSERT_EQ(cli("simulate --kernel-file '" + kernelPath("array_transpose_tiled.cu") + "' --height 33 --width 7 --json --quiet", out), 0)
        << out;
    EXPECT_NE(out.find("\"params\":{\"cols\":7,\"rows\":33}"), std::string::npos) << out;
    EXPECT_NE(out.find("\"matches_reference\":true"), std::string::npos) << out;
    EXPECT_EQ(cli("simulate --kernel-file '" + kernelPath("array_vector_add.cu") + "' --height 4 --quiet", out), 2) << out;
    EXPECT_NE(out.find("has one size, n (--width), and takes no --height"), std::string::npos) << out;
}

// --- The exercise ----------------------------------------------------------------------------

std::string gradeText(const student::Grade& g)
{
    std::string s;
    for (const student::Check& c : g.checks) s += (c.skipped ? "SKIP " : c.passed ? "PASS " : "FAIL ") + c.name + ": " + c.diagnosis + "\n";
    return s;
}

TEST(ArrayFamily, VectorAddExerciseGradesTheSolutionAndNamesAWrongElementWithItsLine)
{
    const student::Exercise x = student::findExercise("vector-add");
    EXPECT_EQ(x.launch.family, "array");
    EXPECT_TRUE(x.reference.empty());
    student::GradeOptions go;
    go.cacheDir = TILESCOPE_STUDENT_CACHE;
    const student::Grade good = student::grade(x, std::string(TILESCOPE_SOURCE_DIR) + "/tests/student/solutions/vector-add.cu", go);
    EXPECT_TRUE(good.passed()) << gradeText(good);
    // compiles; runs, barriers, correct, no races, initialised shared for each size; gpu (skipped)
    EXPECT_EQ(good.checks.size(), 2 + 5 * x.sizes.size()) << gradeText(good);
    EXPECT_TRUE(good.checks.back().skipped) << gradeText(good);
    // A sum with the operands' roles swapped in one term: C[i] = A[i] - B[i], on line 5.
    const std::string wrong = (std::filesystem::temp_directory_path() / "tilescope_array_wrong_sum.cu").string();
    {
        std::ofstream f(wrong);
        f << "__global__ void vecAddKernel(const float* A, const float* B, float* C, int n)\n"
             "{\n"
             "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
             "    if (i < n)\n"
             "        C[i] = A[i] - B[i];\n"
             "}\n";
    }
    const student::Grade bad = student::grade(x, wrong, go);
    EXPECT_FALSE(bad.passed());
    bool named = false;
    for (const student::Check& c : bad.checks)
        if (c.name == "correct 1000") {
            EXPECT_FALSE(c.passed);
            EXPECT_EQ(c.line, 5u) << c.diagnosis;
            EXPECT_NE(c.diagnosis.find("at 1000, C[0] is "), std::string::npos) << c.diagnosis;
            EXPECT_NE(c.diagnosis.find("thread (tx=0, ty=0) of block (0, 0) stored it at line 5"), std::string::npos) << c.diagnosis;
            EXPECT_NE(c.diagnosis.find("(1000 of 1000 elements differ)"), std::string::npos) << c.diagnosis;
            named = true;
        }
    EXPECT_TRUE(named) << gradeText(bad);
    std::filesystem::remove(wrong);
}

// --- Bad headers -----------------------------------------------------------------------------

/// The vector addition with header line `line` (3..8) replaced by `text`.
std::string withHeader(int line, const std::string& text)
{
    std::vector<std::string> lines = {"// a student's vector addition",
                                      "",
                                      "// tilescope: family = array",
                                      "// tilescope: arrays = in A[n], in B[n], out C[n]",
                                      "// tilescope: sizes = n = 1000",
                                      "// tilescope: reference = C[i] = A[i] + B[i]",
                                      "// tilescope: grid = (n + 255) / 256",
                                      "// tilescope: block = 256",
                                      "__global__ void vecAdd(const float* A, const float* B, float* C, int n)",
                                      "{",
                                      "    int i = blockIdx.x * blockDim.x + threadIdx.x;",
                                      "    if (i < n) C[i] = A[i] + B[i];",
                                      "}"};
    lines.at(static_cast<size_t>(line - 1)) = text;
    std::string s;
    for (const std::string& l : lines) s += l + "\n";
    return s;
}

TEST(ArrayFamily, EveryBadHeaderGetsOneSentenceOnItsLine)
{
    struct Case {
        int line;
        std::string text, expect;
        unsigned errorLine;
    };
    const std::vector<Case> cases = {
        {6, "// tilescope: reference = C[i] = A[i] + D[i]", "D is not an input array of the problem; the formula reads A and B", 6},
        {4, "// tilescope: arrays = in A[n][n], in B[n], out C[n]", "A is 2D, read as A[row][col]; the formula gives it 1 subscript", 6},
        {5, "// tilescope: sizes = n = 0", "size n = 0: a size must be between 1 and 2^24", 5},
        {6, "// tilescope: reference = C[i] = A[i] + ", "cannot read the reference formula: it ends too early", 6},
        {4, "// tilescope: arrays = in A[m], in B[n], out C[n]", "the extent 'm' of A cannot be evaluated: it uses m, which is not a size of the sizes line", 4},
        {4, "// tilescope: arrays = in A[n], out B[n], out C[n]", "an array problem has exactly one output array", 4},
        {4, "// tilescope: arrays = in A[n], B[n], out C[n]", "each array is `in NAME[extent]` or `out NAME[rows][cols]`; got 'B[n]'", 4},
        {6, "// tilescope: reference = C[i] = A[i + 1] + B[i]", "the formula reads A[1000], outside A (1000 elements) at C[999] (at the default sizes)", 6},
        {7, "// nothing", "the launch needs both a grid and a block", 8},
        {5, "// tilescope: sizes = n = 1000, m = 3, k = 2", "an array problem has one size (1D) or two (2D, rows then columns); this one names 3", 5},
        {3, "// tilescope: family = matmul", "arrays, sizes and reference describe an array problem", 4},
    };
    for (const Case& c : cases) {
        SCOPED_TRACE(c.text);
        const student::LoadResult r = student::loadKernelSource(withHeader(c.line, c.text), "kernel.cu", options());
        ASSERT_EQ(r.errors.size(), 1u) << errorsOf(r.errors);
        EXPECT_NE(r.errors.front().message.find(c.expect), std::string::npos) << errorsOf(r.errors);
        EXPECT_EQ(r.errors.front().line, c.errorLine) << errorsOf(r.errors);
    }
    // A pointer parameter the header does not declare: named on the kernel's line.
    std::string onlyA = withHeader(4, "// tilescope: arrays = in A[n], out C[n]");
    onlyA.replace(onlyA.find("C[i] = A[i] + B[i]\n"), 19, "C[i] = A[i] + 1.0f\n");
    const student::LoadResult p = student::loadKernelSource(onlyA, "kernel.cu", options());
    ASSERT_EQ(p.errors.size(), 1u) << errorsOf(p.errors);
    EXPECT_NE(p.errors.front().message.find("pointer parameter B is not an array of the problem: the header's arrays line "
                                            "declares A and the output C"),
              std::string::npos)
        << errorsOf(p.errors);
    EXPECT_EQ(p.errors.front().line, 9u);
    // No launch at all: an array problem states its own.
    std::string none = withHeader(7, "//");
    none.replace(none.find("// tilescope: block = 256"), 25, "//");
    const student::LoadResult r = student::loadKernelSource(none, "kernel.cu", options());
    ASSERT_EQ(r.errors.size(), 1u) << errorsOf(r.errors);
    EXPECT_NE(r.errors.front().message.find("an array problem states its launch"), std::string::npos) << errorsOf(r.errors);
    EXPECT_EQ(r.errors.front().line, 3u);
}

}  // namespace
