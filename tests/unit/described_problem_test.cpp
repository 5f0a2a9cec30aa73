// Problems described rather than enumerated (issue 39): an array problem stated as texts
// (sim/engine/array_spec_text.hpp) with arrays of up to three extents, its reference formula
// in 3D with NAN for an element the kernel leaves alone, and a registry row that states its
// problem (KernelInfo::arrays, sizes, formula) read and simulated like a student's.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>

#include "sim/catalogue/kernel_registry.hpp"
#include "sim/catalogue/loaded_kernels.hpp"
#include "sim/engine/array_formula.hpp"
#include "sim/engine/array_spec_text.hpp"
#include "sim/engine/simulate.hpp"

namespace ts::sim {
namespace {

TEST(DescribedProblem, ThreeExtentsReadAndShape)
{
    ArraySpecFault fault;
    const auto spec = readArraySpec("in a[n][n][n], out b[n][n][n]", "n = 5", "b[i][j][k] = a[i][j][k] * 2.0f", "t.cu", fault);
    ASSERT_TRUE(spec) << fault.message;
    ArrayShape sh;
    std::string error;
    ASSERT_TRUE(spec->shape(spec->arrays[0], {{"n", 4}}, sh, error)) << error;
    EXPECT_EQ(sh.dims, 3);
    EXPECT_EQ(sh.slices, 4);
    EXPECT_EQ(sh.rows, 4);
    EXPECT_EQ(sh.cols, 4);
    int rows = 0, cols = 0;
    ASSERT_TRUE(spec->shape(spec->arrays[0], {{"n", 4}}, rows, cols, error));
    EXPECT_EQ(rows, 16);   // the planes stacked
    EXPECT_EQ(cols, 4);
    // Four extents are refused in one sentence, on the arrays line.
    EXPECT_FALSE(readArraySpec("in a[n][n][n][n], out b[n]", "n = 5", "b[i] = 1.0f", "t.cu", fault));
    EXPECT_EQ(fault.place, ArraySpecPlace::Arrays);
    EXPECT_EQ(fault.message, "a has 4 extents; an array is 1D, 2D or 3D");
}

TEST(DescribedProblem, FormulaIn3DFusesAsNvccAndLeavesNanAlone)
{
    std::vector<float> in(3 * 4 * 5);
    for (size_t i = 0; i < in.size(); ++i) in[i] = 0.1f * static_cast<float>(i + 1) - 2.5f;
    FormulaArray a{"in", 12, 5, false, &in};
    a.threeD = true;
    a.slices = 3;
    FormulaArray out{"out", 12, 5, false, nullptr};
    out.threeD = true;
    out.slices = 3;
    ArrayFormula f;
    const Variables sizes{{"P", 3}, {"R", 4}, {"C", 5}};
    ASSERT_EQ(f.parse("out[z][y][x] = (z >= 1 && y >= 1) ? 0.4f*in[z][y][x] + 0.1f*in[z - 1][y][x] + 0.1f*in[z][y - 1][x] : NAN", out, {a}, sizes), "");
    uint64_t flops = 0;
    std::string error;
    const std::vector<float> r = f.evaluateAll(sizes, flops, error);
    ASSERT_EQ(error, "");
    ASSERT_EQ(r.size(), in.size());
    // Element (2, 3, 4): storage row 2 * 4 + 3 = 11. The left product fused with the right
    // one rounded, then the next product fused with that sum.
    auto at = [&](int z, int y, int x) { return in[static_cast<size_t>((z * 4 + y) * 5 + x)]; };
    const float expect = std::fmaf(0.1f, at(2, 2, 4), std::fmaf(0.4f, at(2, 3, 4), 0.1f * at(1, 3, 4)));
    EXPECT_EQ(std::memcmp(&r[11 * 5 + 4], &expect, sizeof expect), 0) << r[11 * 5 + 4] << " vs " << expect;
    // Plane 0 is left alone: the simulator's poison, bit for bit.
    const float poison = std::nanf("");
    EXPECT_EQ(std::memcmp(&r[3], &poison, sizeof poison), 0);
    // 5 flops an element inside (one product, two fused multiply-adds), none outside.
    EXPECT_EQ(flops, 5u * 2 * 3 * 5);
    // A read of the wrong rank is one sentence.
    EXPECT_NE(f.parse("out[z][y][x] = in[z][y]", out, {a}, sizes).find("in is 3D, read as in[i][j][k]"), std::string::npos);
}

TEST(DescribedProblem, EveryDescribedRowReadsAndSimulatesBitExact)
{
    int rows = 0;
    for (const KernelInfo& k : kernelList()) {
        if (k.family != Family::Array) continue;
        ++rows;
        const auto spec = arraySpecOf(k.name);
        ASSERT_TRUE(spec) << k.name << ": its arrays, sizes or formula do not read";
        Scenario s;
        s.kernel = k.name;
        s.tile = k.defaultTile;
        s.width = spec->defaults.back();
        s.height = spec->defaults.size() == 2 ? spec->defaults.front() : 1;
        ASSERT_EQ(validate(s), "") << k.name;
        SimOptions o;
        o.trace = false;
        const Simulation r = simulate(s, o);
        EXPECT_EQ(r.error, "") << k.name;
        // A sum of arbitrary floats is held to a float sum's bound (KernelInfo::orderDependent).
        EXPECT_TRUE(outputCorrect(r)) << k.name;
        // A histogram's reference counts characters: no floating-point operation.
        if (!k.histogram) EXPECT_GT(r.referenceFlops, 0u) << k.name;
        else EXPECT_EQ(r.referenceFlops, 0u) << k.name;
    }
    SUCCEED() << rows << " described rows";
}

}  // namespace
}  // namespace ts::sim
