// Fig. 10.13 on arbitrary floats on the GPU (registry row reduction-segmented-floats): the
// blocks' atomicAdds meet at the total in the order the blocks finish, which the program does
// not fix. Each run must stay within a float sum's error bound of the reference; how many
// different totals the runs gave is printed as the figure (it is the hardware's to choose, so
// it is reported, not asserted). The integer row, run as often, gives one total, the
// reference's, bit for bit.
#include <cstring>
#include <iostream>
#include <set>

#include "gpu_test_support.hpp"
#include "sim/engine/simulate.hpp"

namespace ts::gpu::test {
namespace {

sim::Scenario sum(const char* kernel)
{
    sim::Scenario s;
    s.kernel = kernel;
    s.height = 1;
    s.width = 100000;
    s.tile = 256;
    return s;
}

uint32_t bitsOf(float v)
{
    uint32_t b;
    std::memcpy(&b, &v, sizeof b);
    return b;
}

TEST(AtomicOrderGpu, FloatTotalsStayWithinTheBoundWhateverOrderTheBlocksTake)
{
    TS_REQUIRE_GPU();
    const sim::Scenario s = sum("reduction-segmented-floats");
    sim::SimOptions o;
    o.trace = false;
    const sim::Simulation r = sim::simulate(s, o);
    ASSERT_EQ(r.error, "");
    std::set<uint32_t> totals;
    const int runs = 50;
    for (int run = 0; run < runs; ++run) {
        const std::vector<float> P = runPlain(s, r.M, r.N);
        const sim::SumOrderCheck c = sim::sumOrderCheck(r.M, P, r.reference);
        ASSERT_TRUE(c.within) << "run " << run << ": " << c.difference << " from the reference, bound " << c.bound;
        totals.insert(bitsOf(P[0]));
    }
    const sim::SumOrderCheck own = sim::sumOrderCheck(r.M, r.P, r.reference);
    std::cout << "[ figure ] reduction-segmented-floats, N 100000, BLOCK_DIM 256 (196 blocks): " << totals.size()
              << " different totals in " << runs << " GPU runs; simulator (block order) " << r.P[0] << ", "
              << own.ulps << " units in the last place from the index-order sum " << r.reference[0] << "\n";
}

TEST(AtomicOrderGpu, IntegerTotalIsTheReferenceInEveryRun)
{
    TS_REQUIRE_GPU();
    const sim::Scenario s = sum("reduction-segmented");
    sim::SimOptions o;
    o.trace = false;
    const sim::Simulation r = sim::simulate(s, o);
    ASSERT_EQ(r.error, "");
    ASSERT_TRUE(r.matchesReference);
    for (int run = 0; run < 20; ++run) EXPECT_EQ(bitDifference(runPlain(s, r.M, r.N), r.reference), "") << "run " << run;
}

}  // namespace
}  // namespace ts::gpu::test
