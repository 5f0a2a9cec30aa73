// The bandwidth-reduction tables of tiled convolution ("Example: bandwidth-reduction tables"
// in docs/references.md; PMPP 3rd ed. ch. 7, for 2D 4th ed. sec. 7.4): the formula against
// the lecture's printed values, and a real simulation against it wherever the block can launch.
#include <gtest/gtest.h>

#include <cmath>

#include "sim/teaching/reduction_table.hpp"

namespace ts::test {
namespace {

/// The lecture's tables as printed (one decimal, rounded loosely).
const double kSeed1D[2][5] = {{4.0, 4.4, 4.7, 4.9, 4.9}, {6.0, 7.2, 8.0, 8.5, 8.7}};
const double kSeed2D[2][4] = {{11.1, 16, 19.7, 22.1}, {20.3, 36, 51.8, 64}};

TEST(ConvReductionTable, FormulaMatchesTheSeedsPrintedValues)
{
    for (int m = 0; m < 2; ++m) {
        for (int t = 0; t < 5; ++t)
            EXPECT_NEAR(sim::reductionFormula(1, sim::kReductionTiles1D[t], sim::kReductionMasks[m]), kSeed1D[m][t], 0.06);
        for (int t = 0; t < 4; ++t)
            EXPECT_NEAR(sim::reductionFormula(2, sim::kReductionTiles2D[t], sim::kReductionMasks[m]), kSeed2D[m][t], 0.06);
    }
    // Where the printed tables round loosely: their 4.9 is 4.85 and their 19.7 is 19.75; 40/12
    // of the internal 1D block and 37/10 of the 1D boundary block (docs/references.md) are exact.
    EXPECT_NEAR(sim::reductionFormula(1, 128, 5), 4.85, 0.005);
    EXPECT_NEAR(sim::reductionFormula(2, 32, 5), 19.75, 0.005);
    EXPECT_DOUBLE_EQ(sim::reductionFormula(1, 8, 5), 40.0 / 12.0);
    EXPECT_DOUBLE_EQ(sim::reductionFormula(2, 8, 5), 1600.0 / 144.0);
}

TEST(ConvReductionTable, SimulatedEqualsFormulaWhereverItLaunches)
{
    for (int dims : {1, 2}) {
        const sim::ReductionTable t = sim::reductionTable(dims);
        ASSERT_EQ(t.rows.size(), 2u);
        for (const sim::ReductionRow& row : t.rows)
            for (const sim::ReductionCell& c : row.cells) {
                SCOPED_TRACE(std::to_string(dims) + "D tile " + std::to_string(c.tile) + " mask " +
                             std::to_string(row.maskWidth));
                // A block is TILE_SIZE threads in 1D and (TILE_SIZE + Mask_Width - 1)^2 in 2D.
                const long long side = c.tile + row.maskWidth - 1;
                const bool fits = dims == 1 || side * side <= 1024;
                EXPECT_EQ(c.launchable, fits);
                if (fits) {
                    ASSERT_TRUE(c.simulated.has_value());
                    EXPECT_EQ(*c.simulated, c.formula);
                    EXPECT_EQ(c.why, "");
                } else {
                    EXPECT_FALSE(c.simulated.has_value());
                    EXPECT_NE(c.why.find("1024 threads"), std::string::npos) << c.why;
                }
            }
    }
}

TEST(ConvReductionTable, SeedShape)
{
    const sim::ReductionTable t1 = sim::reductionTable(1), t2 = sim::reductionTable(2);
    EXPECT_EQ(t1.rows[0].maskWidth, 5);
    EXPECT_EQ(t1.rows[1].maskWidth, 9);
    EXPECT_EQ(t1.rows[0].cells.size(), 5u);
    EXPECT_EQ(t2.rows[0].cells.size(), 4u);
    EXPECT_EQ(t2.rows[0].cells[2].tile, 32);
    EXPECT_FALSE(t2.rows[0].cells[2].launchable);   // (32 + 5 - 1)^2 = 1296 threads
    EXPECT_TRUE(t2.rows[1].cells[1].launchable);    // (16 + 9 - 1)^2 = 576 threads
    EXPECT_THROW(sim::reductionTable(3), std::invalid_argument);
}

}  // namespace
}  // namespace ts::test
