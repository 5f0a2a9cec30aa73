// Every kernel of the registry on the GPU against the simulator, on the cases its registry
// entry implies (sim/catalogue/agreement_cases.hpp, the same as `tilescope-cli verify
// --quick`): P bit-identical from the plain and the counting instantiation (within a float
// sum's bound for a sum of arbitrary floats, KernelInfo::orderDependent), and the
// per-element global loads of each input in global memory equal. No kernel is named here,
// so a kernel added to the registry is tested without touching this file (issue 39).
#include <random>
#include <string>

#include "gpu_test_support.hpp"
#include "sim/catalogue/agreement_cases.hpp"
#include "sim/engine/simulate.hpp"

namespace ts::gpu::test {
namespace {

std::vector<std::string> registeredKernels()
{
    std::vector<std::string> names;
    for (const sim::KernelInfo& k : sim::kernelList()) names.push_back(k.name);
    return names;
}

class RegistryAgreement : public ::testing::TestWithParam<std::string> {};

TEST_P(RegistryAgreement, PBitIdenticalAndLoadsEqualOnEveryCase)
{
    TS_REQUIRE_GPU();
    const sim::KernelInfo* k = sim::findKernel(GetParam());
    ASSERT_NE(k, nullptr);
    std::mt19937 rng(2026);
    const std::vector<sim::Scenario> cases = sim::agreementCases(*k, rng, true);
    ASSERT_GE(cases.size(), 2u);
    for (const sim::Scenario& s : cases) {
        SCOPED_TRACE(s.kernel + " tile " + std::to_string(s.tile) + ", " + sim::sizeList(s));
        sim::SimOptions o;
        o.trace = false;
        const sim::Simulation r = sim::simulate(s, o);
        ASSERT_EQ(r.error, "");
        const CountedRun c = runCounted(s, r.M, r.N);
        if (k->orderDependent) {
            // A sum of arbitrary floats: the GPU's atomics meet in an order of their own, so
            // each result is held to a float sum's bound of the reference, not to the bits.
            const sim::SumOrderCheck own = sim::sumOrderCheck(r.M, r.P, r.reference);
            EXPECT_TRUE(own.within) << "simulator: " << own.difference << " apart, bound " << own.bound;
            const sim::SumOrderCheck plain = sim::sumOrderCheck(r.M, runPlain(s, r.M, r.N), r.reference);
            EXPECT_TRUE(plain.within) << "GPU: " << plain.difference << " apart, bound " << plain.bound;
            const sim::SumOrderCheck counted = sim::sumOrderCheck(r.M, c.P, r.reference);
            EXPECT_TRUE(counted.within) << "counting GPU run: " << counted.difference << " apart, bound " << counted.bound;
        } else {
            EXPECT_TRUE(r.matchesReference);
            EXPECT_EQ(bitDifference(runPlain(s, r.M, r.N), r.P), "") << "GPU P vs simulator P";
            EXPECT_EQ(bitDifference(c.P, r.P), "") << "counting instantiation's P vs simulator P";
        }
        // Constant memory (a convolution's mask) is not counted by the counting context. The
        // first two arrays are the inputs whatever their names (a described problem's `in`).
        const int iM = 0, iN = 1;
        ASSERT_GE(r.arrays.size(), 3u);
        if (iM >= 0 && r.arrays[iM].space == sim::Space::Global)
            EXPECT_EQ(c.loadsM, r.counters.elementLoads[iM]) << "per-element loads of M";
        EXPECT_EQ(c.loadsN, r.counters.elementLoads[iN]) << "per-element loads of N";
    }
}

std::string caseName(const ::testing::TestParamInfo<std::string>& info)
{
    std::string name = info.param;
    for (char& ch : name)
        if (ch == '-') ch = '_';
    return name;
}

INSTANTIATE_TEST_SUITE_P(EveryKernel, RegistryAgreement, ::testing::ValuesIn(registeredKernels()), caseName);

}  // namespace
}  // namespace ts::gpu::test
