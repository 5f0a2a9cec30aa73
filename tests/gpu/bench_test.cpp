// gpu::bench on the project's kernels: a checked result, sane times, bit-exact agreement
// with the simulator where the size is small enough to simulate, progress up to 1.
#include "gpu_test_support.hpp"

namespace ts::gpu::test {
namespace {

TEST(Bench, SmallSizesAreBitExactVsSimulator)
{
    TS_REQUIRE_GPU();
    for (const char* kernel : {"matmul-naive", "matmul-tiled"})
        for (int tile : {8, 16, 32}) {
            const BenchRequest r{sim::matmulScenario(kernel, 100, 37, 51, tile, {}, 3), 5};
            double last = -1;
            bool increasing = true;
            const BenchResult b = bench(r, [&](double p) {
                increasing = increasing && p >= last;
                last = p;
            });
            EXPECT_GT(b.msMedian, 0) << kernel << " tile " << tile;
            EXPECT_LE(b.msMin, b.msMedian);
            EXPECT_GT(b.gflops, 0);
            EXPECT_LT(b.maxAbsErr, 1e-4);
            ASSERT_TRUE(b.bitExactVsSim.has_value()) << kernel << " tile " << tile;
            EXPECT_TRUE(*b.bitExactVsSim) << kernel << " tile " << tile;
            EXPECT_TRUE(increasing);
            EXPECT_EQ(last, 1.0);
        }
}

TEST(Bench, LargeSizeIsCheckedButNotSimulated)
{
    TS_REQUIRE_GPU();
    const BenchRequest r{sim::matmulScenario("matmul-tiled", 1024, 1024, 1024, 16), 3};
    const BenchResult b = bench(r);
    EXPECT_GT(b.gflops, 0);
    EXPECT_GT(b.maxAbsErr, 0) << "a 1024-long FP32 dot product is never exact everywhere";
    EXPECT_LT(b.maxAbsErr, 1e-3);
    EXPECT_FALSE(b.bitExactVsSim.has_value());
}

}  // namespace
}  // namespace ts::gpu::test
