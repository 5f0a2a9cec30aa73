// The order of the blocks' atomics (PMPP sec. 10.7, Fig. 10.13): a kernel whose blocks meet
// at atomicAdd runs its blocks in the schedule's order, so a sum of arbitrary floats comes
// out with the bits of that order (registry row reduction-segmented-floats, preset
// reduction-segmented-floats-256), while a sum of small integers is the same in every order.
// The expected totals are worked out here from the figure's own steps (each block's tree in
// float, then the block sums added in order), not through the simulator.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <set>
#include <vector>

#include "sim/engine/machine.hpp"
#include "sim/engine/simulate.hpp"

namespace ts::sim {
namespace {

constexpr int kN = 5000;
constexpr int kBlockDim = 64;

Scenario floats(int n = kN, int blockDim = kBlockDim)
{
    Scenario s;
    s.kernel = "reduction-segmented-floats";
    s.height = 1;
    s.width = n;
    s.tile = blockDim;
    s.block = {1, 0, 0};
    return s;
}

Simulation run(const Scenario& s, Schedule schedule, uint64_t seed = 1, bool trace = false)
{
    SimOptions o;
    o.trace = trace;
    o.threads = 2;   // a kernel with atomics runs on one worker whatever is asked
    o.schedule = schedule;
    o.scheduleSeed = seed;
    return simulate(s, o);
}

/// Block b's sum as Fig. 10.13 forms it: thread t adds elements 2 B b + t and 2 B b + B + t
/// (0 past the end), then at each stride B/2, B/4, ..., 1 slot t < stride adds slot t + stride.
float blockSum(const std::vector<float>& in, int b, int B)
{
    std::vector<float> s(static_cast<size_t>(B));
    for (int t = 0; t < B; ++t) {
        const long long i = 2ll * B * b + t;
        const float first = i < static_cast<long long>(in.size()) ? in[static_cast<size_t>(i)] : 0.0f;
        const float second = i + B < static_cast<long long>(in.size()) ? in[static_cast<size_t>(i + B)] : 0.0f;
        s[static_cast<size_t>(t)] = first + second;
    }
    for (int stride = B / 2; stride >= 1; stride /= 2)
        for (int t = 0; t < stride; ++t) s[static_cast<size_t>(t)] += s[static_cast<size_t>(t + stride)];
    return s[0];
}

/// The total after the blocks' atomicAdds in `order`, from 0.
float totalInOrder(const std::vector<float>& in, int B, const std::vector<uint64_t>& order)
{
    float total = 0.0f;
    for (uint64_t b : order) total += blockSum(in, static_cast<int>(b), B);
    return total;
}

std::vector<uint64_t> orderOf(int blocks, Schedule schedule, uint64_t seed = 1)
{
    LaunchConfig cfg;
    cfg.grid = Dim3{static_cast<unsigned>(blocks), 1, 1};
    cfg.schedule = schedule;
    cfg.scheduleSeed = seed;
    return scheduledBlockOrder(cfg);
}

uint32_t bitsOf(float v)
{
    uint32_t b;
    std::memcpy(&b, &v, sizeof b);
    return b;
}

TEST(AtomicOrder, BlockOrdersAreBlockOrderItsReverseAndSeededShuffles)
{
    const int blocks = 40;
    std::vector<uint64_t> inOrder(blocks), reverse(blocks);
    for (int b = 0; b < blocks; ++b) {
        inOrder[static_cast<size_t>(b)] = static_cast<uint64_t>(b);
        reverse[static_cast<size_t>(b)] = static_cast<uint64_t>(blocks - 1 - b);
    }
    EXPECT_EQ(orderOf(blocks, Schedule::InOrder), inOrder);
    EXPECT_EQ(orderOf(blocks, Schedule::Reverse), reverse);
    const std::vector<uint64_t> r1 = orderOf(blocks, Schedule::Random, 1), r2 = orderOf(blocks, Schedule::Random, 2);
    EXPECT_EQ(std::set<uint64_t>(r1.begin(), r1.end()).size(), static_cast<size_t>(blocks)) << "a permutation";
    EXPECT_EQ(std::set<uint64_t>(r2.begin(), r2.end()).size(), static_cast<size_t>(blocks));
    EXPECT_NE(r1, inOrder);
    EXPECT_NE(r1, reverse);
    EXPECT_NE(r1, r2) << "seeds give different orders";
    EXPECT_EQ(r1, orderOf(blocks, Schedule::Random, 1)) << "one seed, one order";
}

// The total of arbitrary floats is the figure's block sums added in the schedule's order,
// bit for bit, and the orders give different bits, all within a float sum's bound.
TEST(AtomicOrder, FloatTotalFollowsTheScheduleOfTheBlocks)
{
    const Scenario s = floats();
    const int blocks = (kN + 2 * kBlockDim - 1) / (2 * kBlockDim);
    std::set<uint32_t> totals;
    std::vector<float> inputs;
    for (Schedule schedule : {Schedule::InOrder, Schedule::Reverse, Schedule::Random}) {
        for (uint64_t seed = 1; seed <= 8; ++seed) {
            if (schedule != Schedule::Random && seed != 1) continue;
            const Simulation r = run(s, schedule, seed);
            ASSERT_EQ(r.error, "");
            ASSERT_EQ(r.grid.x, static_cast<unsigned>(blocks));
            ASSERT_EQ(r.P.size(), 1u);
            if (inputs.empty()) inputs = r.M;
            ASSERT_EQ(r.M, inputs) << "one input whatever the schedule";
            const float expected = totalInOrder(r.M, kBlockDim, orderOf(blocks, schedule, seed));
            EXPECT_EQ(bitsOf(r.P[0]), bitsOf(expected))
                << "schedule " << static_cast<int>(schedule) << " seed " << seed << ": " << r.P[0] << " vs " << expected;
            const SumOrderCheck c = sumOrderCheck(r.M, r.P, r.reference);
            EXPECT_TRUE(c.within) << c.difference << " apart, bound " << c.bound;
            totals.insert(bitsOf(r.P[0]));
        }
    }
    // Arbitrary values in [-1, 1): not small integers, and the orders do round differently.
    bool fractional = false;
    for (float x : inputs) fractional = fractional || x != std::round(x);
    EXPECT_TRUE(fractional);
    EXPECT_GE(totals.size(), 3u) << "ten orders of 40 block sums should give at least three totals";
}

// The traced block's atomicAdd sees, as its value before, the sum of the blocks that ran
// before it in the schedule: block 0's alone in block order, every later block's in reverse.
TEST(AtomicOrder, TracedAtomicSeesTheBlocksBeforeIt)
{
    const Scenario s = floats();
    const int blocks = (kN + 2 * kBlockDim - 1) / (2 * kBlockDim);
    for (Schedule schedule : {Schedule::InOrder, Schedule::Reverse}) {
        const Simulation r = run(s, schedule, 1, true);
        ASSERT_EQ(r.error, "");
        std::vector<uint64_t> before;
        for (uint64_t b : orderOf(blocks, schedule)) {
            if (b == 1) break;
            before.push_back(b);
        }
        const float expectedBefore = totalInOrder(r.M, kBlockDim, before);
        const float expectedAfter = expectedBefore + blockSum(r.M, 1, kBlockDim);
        int atomics = 0;
        for (const Event& e : r.trace.events) {
            if (e.op != Op::Atomic) continue;
            ++atomics;
            float got;
            std::memcpy(&got, &e.origin, sizeof got);
            EXPECT_EQ(bitsOf(got), bitsOf(expectedBefore)) << "value before the traced block's atomicAdd";
            EXPECT_EQ(bitsOf(e.value), bitsOf(expectedAfter)) << "value after it";
            EXPECT_EQ(e.thread, 0);
        }
        EXPECT_EQ(atomics, 1) << "one atomicAdd per block, by thread 0";
    }
}

// Small integers: every partial sum is exact in float, so every order gives the reference.
TEST(AtomicOrder, IntegerTotalIsTheSameInEveryOrder)
{
    Scenario s = floats();
    s.kernel = "reduction-segmented";
    for (Schedule schedule : {Schedule::InOrder, Schedule::Reverse, Schedule::Random}) {
        const Simulation r = run(s, schedule, 7);
        ASSERT_EQ(r.error, "");
        EXPECT_TRUE(r.matchesReference) << "schedule " << static_cast<int>(schedule);
    }
}

// The bound itself: 2 gamma(n - 1) sum |x|, and what falls outside it.
TEST(AtomicOrder, SumOrderCheckBound)
{
    const std::vector<float> in{1.0f, -1.0f, 0.5f};
    const double u = std::ldexp(1.0, -24);
    const double bound = 2 * (2 * u / (1 - 2 * u)) * 2.5;
    SumOrderCheck c = sumOrderCheck(in, {0.5f}, {0.5f});
    EXPECT_DOUBLE_EQ(c.bound, bound);
    EXPECT_TRUE(c.within);
    EXPECT_EQ(c.difference, 0.0);
    // One unit in the last place of 0.5 is 2^-24, within the bound of 10 x 2^-24 (and a bit);
    // sixteen are not.
    c = sumOrderCheck(in, {std::nextafter(0.5f, 1.0f)}, {0.5f});
    EXPECT_TRUE(c.within);
    EXPECT_DOUBLE_EQ(c.ulps, 1.0);
    c = sumOrderCheck(in, {0.5f + 16 * std::ldexp(1.0f, -24)}, {0.5f});
    EXPECT_FALSE(c.within) << c.difference << " against " << bound;
    EXPECT_DOUBLE_EQ(c.ulps, 16.0);
    EXPECT_FALSE(sumOrderCheck(in, {std::nanf("")}, {0.5f}).within);
    EXPECT_FALSE(sumOrderCheck(in, {}, {0.5f}).within);
    // The simulator's total with its largest block sum left out lies outside the bound: the
    // check tells a lost atomicAdd from a different order.
    const Simulation r = run(floats(), Schedule::InOrder);
    ASSERT_EQ(r.error, "");
    float largest = 0.0f;
    for (int b = 0; b < static_cast<int>(r.grid.x); ++b)
        if (std::fabs(blockSum(r.M, b, kBlockDim)) > std::fabs(largest)) largest = blockSum(r.M, b, kBlockDim);
    const SumOrderCheck whole = sumOrderCheck(r.M, r.P, r.reference);
    EXPECT_TRUE(whole.within);
    EXPECT_FALSE(sumOrderCheck(r.M, {r.P[0] - largest}, r.reference).within)
        << "a block sum of " << largest << " left out, bound " << whole.bound;
}

}  // namespace
}  // namespace ts::sim
