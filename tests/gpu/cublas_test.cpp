// cuBLAS SGEMM, the timing reference, in pure FP32: within the FP32 error bound of the
// double-precision CPU reference, with every element written.
#include <algorithm>
#include <cmath>
#include <tuple>

#include "gpu_test_support.hpp"
#include "sim/engine/reference.hpp"
#include "sim/catalogue/scenario.hpp"

namespace ts::gpu::test {
namespace {

TEST(Cublas, WithinFp32BoundOfDoubleReference)
{
    TS_REQUIRE_GPU();
    for (auto [j, k, l] : {std::tuple{1, 1, 1}, std::tuple{100, 37, 51}, std::tuple{257, 129, 65},
                           std::tuple{256, 512, 128}}) {
        // cuBLAS has no tile: the scenario keeps the default.
        const sim::Scenario s = sim::matmulScenario("cublas", j, k, l, sim::Scenario{}.tile);
        const std::vector<float> M = sim::randomInput(size_t(j) * k, 7, 1);
        const std::vector<float> N = sim::randomInput(size_t(k) * l, 7, 2);
        const std::vector<float> P = runPlain(s, M, N);
        std::vector<float> absM(M.size()), absN(N.size());
        std::transform(M.begin(), M.end(), absM.begin(), [](float v) { return std::fabs(v); });
        std::transform(N.begin(), N.end(), absN.begin(), [](float v) { return std::fabs(v); });
        const std::vector<double> ref = sim::matmulReferenceDouble(M, N, j, k, l);
        const std::vector<double> abs = sim::matmulReferenceDouble(absM, absN, j, k, l);
        // gamma_k = k u / (1 - k u), u = 2^-24: FP32's bound for a sum of k products in any order.
        const double ku = k * std::ldexp(1.0, -24), gamma = ku / (1 - ku);
        ASSERT_EQ(P.size(), ref.size());
        for (size_t i = 0; i < P.size(); ++i)
            ASSERT_LE(std::fabs(P[i] - ref[i]), gamma * abs[i])
                << j << "x" << k << "x" << l << ": element " << i << " is " << P[i] << ", reference " << ref[i];
    }
}

TEST(Cublas, BenchReportsCheckedTiming)
{
    TS_REQUIRE_GPU();
    const BenchRequest r{sim::matmulScenario("cublas", 256, 256, 256, 16), 5};
    const BenchResult b = bench(r);
    EXPECT_GT(b.msMedian, 0);
    EXPECT_LE(b.msMin, b.msMedian);
    EXPECT_GT(b.gflops, 0);
    EXPECT_LT(b.maxAbsErr, 1e-3);
    EXPECT_FALSE(b.bitExactVsSim.has_value()) << "cuBLAS is not simulated";
}

}  // namespace
}  // namespace ts::gpu::test
