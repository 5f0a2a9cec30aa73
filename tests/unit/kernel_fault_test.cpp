// Faults in a simulated kernel: tiny test-only kernels, written against the same context
// API as kernels/*.cuh, that read out of bounds or diverge at a barrier. The simulator
// must stop them with one sentence naming the thread, the array or barrier and the line.
#include <gtest/gtest.h>

#include "kernels/context.cuh"
#include "sim/engine/machine.hpp"
#include "trace_query.hpp"

namespace ts::test {
namespace {

constexpr unsigned kReadLine = __LINE__ + 6;
/// B[i] = A[i + 1]: the last thread of the grid reads one past the end of A.
template <class X>
void readsPastTheEnd(X& x, typename X::template GlobalPtr<const float> A, typename X::template GlobalPtr<float> B)
{
    const int i = x.blockIdx.x * x.blockDim.x + x.threadIdx.x;
    B[i] = A[i + 1];
}

constexpr unsigned kSharedLine = __LINE__ + 6;
/// Writes one slot to the right of its own: the last thread of a row leaves the tile.
template <int TILE_WIDTH, class X>
void sharedPastTheEnd(X& x)
{
    TS_SHARED_2D(float, Tile, TILE_WIDTH, TILE_WIDTH);
    Tile[x.threadIdx.y][x.threadIdx.x + 1] = 1.0f;
}

constexpr unsigned kBranchBarrierLine = __LINE__ + 5;
/// A barrier only thread 0 reaches.
template <class X>
void barrierInBranch(X& x)
{
    if (x.threadIdx.x == 0) x.syncthreads();
}

/// Half the threads wait at one barrier, half at another (two lines apart).
constexpr unsigned kTwoBarriersLine = __LINE__ + 5;
template <class X>
void twoBarriers(X& x)
{
    if (x.threadIdx.x < 2)
        x.syncthreads();
    else
        x.syncthreads();
}

std::string faultOf(sim::Machine& m, sim::Dim3 grid, sim::Dim3 block,
                    const std::function<void(sim::ThreadContext&)>& body)
{
    sim::LaunchConfig cfg;
    cfg.grid = grid;
    cfg.block = block;
    try {
        sim::runGrid(m, cfg, body);
    } catch (const sim::KernelFault& f) {
        return f.what();
    }
    return "";
}

TEST(KernelFault, GlobalReadOutOfBoundsNamesThreadArrayAndLine)
{
    sim::Machine m;
    std::vector<float> a = {0.5f, -0.25f, 0.75f, 1.5f}, b(4);
    sim::GlobalPtr<const float> A(a.data(), 4, &m, m.arrayId("A", sim::Space::Global, 1, 4));
    sim::GlobalPtr<float> B(b.data(), 4, &m, m.arrayId("B", sim::Space::Global, 1, 4));
    const std::string f = faultOf(m, {2, 1, 1}, {2, 1, 1},
                                  [&](sim::ThreadContext& x) { readsPastTheEnd(x, A, B); });
    EXPECT_EQ(f, "thread (tx=1, ty=0) of block (1, 0) accessed A[4] at line " +
                     std::to_string(kReadLine) + ", outside its 4 elements.");
}

TEST(KernelFault, SharedWriteOutOfBoundsNamesTheSlot)
{
    sim::Machine m;
    const std::string f = faultOf(m, {1, 1, 1}, {2, 2, 1},
                                  [](sim::ThreadContext& x) { sharedPastTheEnd<2>(x); });
    EXPECT_EQ(f, "thread (tx=1, ty=0) of block (0, 0) accessed Tile[0][2] at line " +
                     std::to_string(kSharedLine) + ", outside its 2x2 elements.");
}

TEST(KernelFault, BarrierReachedByOneThreadIsDivergence)
{
    sim::Machine m;
    const std::string f = faultOf(m, {1, 1, 1}, {4, 1, 1}, [](sim::ThreadContext& x) { barrierInBranch(x); });
    EXPECT_EQ(f, "in block (0, 0) 1 of 4 threads wait at the barrier on line " +
                     std::to_string(kBranchBarrierLine) +
                     " while the others have finished: every thread of a block must reach the "
                     "same __syncthreads().");
}

TEST(KernelFault, TwoDifferentBarriersAreDivergence)
{
    sim::Machine m;
    const std::string f = faultOf(m, {1, 1, 1}, {4, 1, 1}, [](sim::ThreadContext& x) { twoBarriers(x); });
    // Threads 0 and 1 at the first barrier, 2 and 3 at the second: two of four each, not
    // "4 of 4" (every thread waits, but not at the same barrier).
    EXPECT_EQ(f, "in block (0, 0) 2 of 4 threads wait at the barrier on line " + std::to_string(kTwoBarriersLine) +
                     " while 2 wait at a different barrier (line " + std::to_string(kTwoBarriersLine + 2) +
                     "): every thread of a block must reach the same __syncthreads().");
}

TEST(KernelFault, SimulatorWorksAfterAFault)
{
    sim::Machine m;
    faultOf(m, {1, 1, 1}, {4, 1, 1}, [](sim::ThreadContext& x) { barrierInBranch(x); });
    const sim::Simulation r = sim::simulate(matmul("matmul-tiled", 5, 5, 5, 4));
    EXPECT_EQ(r.error, "");
    EXPECT_TRUE(r.matchesReference);
}

}  // namespace
}  // namespace ts::test
