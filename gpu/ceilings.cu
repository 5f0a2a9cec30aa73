// The two ceilings of a roofline (docs/ladder.md, docs/cli.md "bench"), measured on device 0:
// the FP32 rate of a kernel that does nothing but independent fused multiply-adds, and the
// bandwidth of a device-to-device copy. Recorded in bench's results files beside the
// kernels' timings, so that a class without GPUs sees where the instructor's kernels stand.
#include <cuda_runtime.h>

#include <algorithm>
#include <vector>

#include "cuda_support.hpp"
#include "gpu.hpp"

namespace ts::gpu {
using namespace detail;
namespace {

/// FMA_CHAINS independent chains of `iterations` fused multiply-adds per thread; the sum is
/// stored only when it equals a value it cannot take (inputs in [0.5, 1)), so that the
/// compiler keeps the work and the memory system sees none of it.
constexpr int kFmaChains = 8;
__global__ void fmaLoop(float a, float b, int iterations, float* sink)
{
    float acc[kFmaChains];
    for (int c = 0; c < kFmaChains; ++c) acc[c] = a + c * 1e-3f + threadIdx.x * 1e-7f;
    for (int i = 0; i < iterations; ++i)
#pragma unroll
        for (int c = 0; c < kFmaChains; ++c) acc[c] = fmaf(acc[c], b, 1e-7f);
    float sum = 0;
    for (int c = 0; c < kFmaChains; ++c) sum += acc[c];
    if (sum == -1.0f) *sink = sum;
}

}  // namespace

Ceilings measureCeilings()
{
    const DeviceInfo& dev = requireDevice();
    Ceilings c;
    int driver = 0;
    check(cudaDriverGetVersion(&driver), "reading the driver's CUDA version");
    c.driverCudaVersion = std::to_string(driver / 1000) + "." + std::to_string(driver % 1000 / 10);

    // FP32: 8 blocks of 256 threads per SM, 8 chains of 16384 multiply-adds each; best of 5.
    DeviceBuffer<float> sink(1);
    const int blocks = dev.smCount * 8, threads = 256, iterations = 16384;
    auto fma = [&] { fmaLoop<<<blocks, threads>>>(0.75f, 0.999f, iterations, sink.get()); };
    const std::vector<double> fmaMs = timeRuns("the FP32 ceiling's multiply-adds", 1, 5, fma, {}, {});
    const double flops = 2.0 * blocks * threads * double(iterations) * kFmaChains;
    c.peakFp32Gflops = flops / (*std::min_element(fmaMs.begin(), fmaMs.end()) * 1e-3) / 1e9;

    // Memory: a device-to-device copy of 256 MiB (read once, written once); best of 5.
    const size_t bytes = size_t(256) << 20;
    DeviceBuffer<unsigned char> from(bytes), to(bytes);
    from.fill(0x5A, "filling the copy's source");
    auto copy = [&] { check(cudaMemcpyAsync(to.get(), from.get(), bytes, cudaMemcpyDeviceToDevice), "copying on the device"); };
    const std::vector<double> copyMs = timeRuns("the device-to-device copy", 1, 5, copy, {}, {});
    c.copyGbytesPerS = 2.0 * double(bytes) / (*std::min_element(copyMs.begin(), copyMs.end()) * 1e-3) / 1e9;
    return c;
}

}  // namespace ts::gpu
