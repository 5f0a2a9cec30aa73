// Ghost cells (PMPP sec. 7.1 and 7.4; "Example: ghost cells" in docs/references.md, preset
// conv1d-tiled-ghost-block0; in 2D, halo threads outside N store 0.0): the tiled kernels fill
// them with 0 instead of loading, the basic kernels skip them, and threads outside the
// output tile load but compute nothing.
#include <gtest/gtest.h>

#include "conv_test_support.hpp"

namespace ts::test {
namespace {

/// The traced block's events with this op on `array`.
std::vector<sim::Event> eventsOf(const sim::Simulation& r, sim::Op op, const std::string& array)
{
    std::vector<sim::Event> out;
    for (const sim::Event& e : r.trace.events)
        if (e.op == op && e.array == r.arrayIndex(array)) out.push_back(e);
    return out;
}

// Block 0: the left halo lies before N[0]; threads 6 and 7 zero-fill N_ds[0] and N_ds[1].
TEST(ConvGhost, LeftHaloOfBlock0IsZeroFilled)
{
    const sim::Simulation r = runConv(conv1d("conv1d-tiled", 64, 8, 5, 0));
    const std::vector<sim::Event> zeros = eventsOf(r, sim::Op::ZeroFill, "N_ds");
    ASSERT_EQ(zeros.size(), 2u);
    EXPECT_EQ(zeros[0].index, 0);
    EXPECT_EQ(zeros[0].thread, 6);
    EXPECT_EQ(zeros[1].index, 1);
    EXPECT_EQ(zeros[1].thread, 7);
    for (const sim::Event& e : eventsOf(r, sim::Op::GlobalLoad, "N")) EXPECT_LT(e.index, 10);
}

// Width 61, TILE_SIZE 8: the last block's outputs 61 to 63 do not exist; their internal
// slots and the whole right halo are ghost cells, and only P[56..60] is written.
TEST(ConvGhost, LastBlockPastTheEndOfN)
{
    const sim::Simulation r = runConv(conv1d("conv1d-tiled", 61, 8, 5, 7));
    std::set<int> zeroSlots;
    for (const sim::Event& e : eventsOf(r, sim::Op::ZeroFill, "N_ds")) zeroSlots.insert(e.index);
    EXPECT_EQ(zeroSlots, (std::set<int>{7, 8, 9, 10, 11}));
    std::set<int> written;
    for (const sim::Event& e : eventsOf(r, sim::Op::GlobalStore, "P")) written.insert(e.index);
    EXPECT_EQ(written, (std::set<int>{56, 57, 58, 59, 60}));
}

// Block (0, 0) of a 64 x 64 image, TILE_SIZE 8, Mask_Width 5: its 12 x 12 input tile starts
// at row and column -2, so the first two rows and columns of N_ds are ghost cells.
TEST(ConvGhost, CornerBlockOf2DTile)
{
    const sim::Simulation r = runConv(conv2d("conv2d-tiled", 64, 64, 8, 5, {0, 0, 0}));
    const sim::Totals& b = blockTotals(r, {0, 0, 0});
    EXPECT_EQ(b.global_loads, 100u);
    EXPECT_EQ(b.zero_fills, 44u);
    const int cols = r.arrays[r.arrayIndex("N_ds")].cols;
    for (const sim::Event& e : eventsOf(r, sim::Op::ZeroFill, "N_ds")) {
        const int row = e.index / cols, col = e.index % cols;
        EXPECT_TRUE(row < 2 || col < 2) << "slot [" << row << "][" << col << "]";
        EXPECT_EQ(e.thread, row * 12 + col);   // each thread fills its own slot [ty][tx]
    }
}

// The basic kernel skips ghost elements: in block 0 thread 0 (P[0]) reads N[0..2] only and
// its first multiply-add is with M[2]; threads 0 and 1 sit out iterations 0 and 1.
TEST(ConvGhost, BasicKernelSkipsGhostElements)
{
    const sim::Simulation r = runConv(conv1d("conv1d-basic", 64, 8, 5, 0));
    std::set<int> thread0;
    for (const sim::Event& e : eventsOf(r, sim::Op::GlobalLoad, "N"))
        if (e.thread == 0) thread0.insert(e.index);
    EXPECT_EQ(thread0, (std::set<int>{0, 1, 2}));
    for (const sim::Step& st : r.trace.steps)
        if (st.label == "multiply-add, iteration 0" || st.label == "multiply-add, iteration 1")
            for (int i = st.begin; i < st.end; ++i) EXPECT_GE(r.trace.events[i].thread, st.iteration == 0 ? 2 : 1);
}

// "Some threads do not participate in calculating output": in a 12 x 12 block, only the
// 8 x 8 threads of the output tile multiply and write P; all 144 load.
TEST(ConvGhost, ThreadsOutsideTheOutputTileOnlyLoad)
{
    const sim::Simulation r = runConv(conv2d("conv2d-tiled", 24, 24, 8, 5, {1, 1, 0}));
    std::set<int> loaders, computers, writers;
    for (const sim::Event& e : r.trace.events) {
        if (e.op == sim::Op::SharedStore || e.op == sim::Op::ZeroFill) loaders.insert(e.thread);
        if (e.op == sim::Op::Fma) computers.insert(e.thread);
        if (e.op == sim::Op::GlobalStore) writers.insert(e.thread);
    }
    EXPECT_EQ(loaders.size(), 144u);
    EXPECT_EQ(computers.size(), 64u);
    EXPECT_EQ(writers, computers);
    for (int t : computers) EXPECT_TRUE(t % 12 < 8 && t / 12 < 8) << t;
}

}  // namespace
}  // namespace ts::test
