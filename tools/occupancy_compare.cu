// occupancy_compare: checks the occupancy model (sim/occupancy.hpp) against the CUDA
// runtime. For every kernel of the project (the single-source matmul kernels with the plain
// and the counting device context, every compiled TILE_WIDTH; the convolution kernels at
// a few TILE_SIZEs, whose static N_ds differs), every block size from 32 to
// 1024 in steps of 32, dynamic shared memory of 0, 1, 8, 32 and 48 KiB and the carve-out
// preferences default, 0 % and 50 %, it asks cudaOccupancyMaxActiveBlocksPerMultiprocessor
// for the blocks per SM and compares the `current` profile and the sm_XX profile of the
// device's compute capability, fed with cudaFuncGetAttributes' numRegs and
// sharedSizeBytes. Prints every mismatch and a last line "N compared, N differed".
// Exit status: 0 all equal, 1 some differ, 3 no usable CUDA device.
#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "gpu/device_context.cuh"
#include "kernels/conv1d_basic.cuh"
#include "kernels/conv1d_tiled.cuh"
#include "kernels/conv1d_tiled_cache.cuh"
#include "kernels/conv2d_basic.cuh"
#include "kernels/conv2d_tiled.cuh"
#include "gpu/counting_context.cuh"
#include "gpu/gpu.hpp"
#include "gpu/gpu_occupancy.hpp"
#include "kernels/matmul_naive.cuh"
#include "kernels/matmul_tiled.cuh"
#include "sim/occupancy.hpp"

namespace {

/// matmul-naive bound to execution context X (as the GPU path binds it).
template <class X>
__global__ void naiveKernel(typename X::template GlobalPtr<const float> M,
                            typename X::template GlobalPtr<const float> N,
                            typename X::template GlobalPtr<float> P, int j, int k, int l)
{
    X x = X::here();
    ts::kernels::matmulNaive(x, M, N, P, j, k, l);
}

/// matmul-tiled with TILE_WIDTH bound to execution context X.
template <int TILE_WIDTH, class X>
__global__ void tiledKernel(typename X::template GlobalPtr<const float> M,
                            typename X::template GlobalPtr<const float> N,
                            typename X::template GlobalPtr<float> P, int j, int k, int l)
{
    X x = X::here();
    ts::kernels::matmulTiled<TILE_WIDTH>(x, M, N, P, j, k, l);
}

// The convolution kernels (PMPP ch. 7) bound to X, as gpu/conv_launch.cu binds them.
template <class X>
__global__ void conv1dBasicKernel(typename X::template GlobalPtr<const float> N, float* P, int mw, int w)
{
    X x = X::here();
    ts::kernels::conv1dBasic(x, N, P, mw, w);
}

template <int TILE_SIZE, class X>
__global__ void conv1dTiledKernel(typename X::template GlobalPtr<const float> N, float* P, int mw, int w)
{
    X x = X::here();
    ts::kernels::conv1dTiled<TILE_SIZE>(x, N, P, mw, w);
}

template <int TILE_SIZE, class X>
__global__ void conv1dTiledCacheKernel(typename X::template GlobalPtr<const float> N, float* P, int mw, int w)
{
    X x = X::here();
    ts::kernels::conv1dTiledCache<TILE_SIZE>(x, N, P, mw, w);
}

template <class X>
__global__ void conv2dBasicKernel(typename X::template GlobalPtr<const float> N, float* P, int mw, int h, int w)
{
    X x = X::here();
    ts::kernels::conv2dBasic(x, N, P, mw, h, w);
}

template <int TILE_SIZE, class X>
__global__ void conv2dTiledKernel(typename X::template GlobalPtr<const float> N, float* P, int mw, int h, int w)
{
    X x = X::here();
    ts::kernels::conv2dTiled<TILE_SIZE>(x, N, P, mw, h, w);
}

struct Kernel {
    std::string name;
    const void* func;
};

template <class X>
void addContext(std::vector<Kernel>& list, const char* context)
{
    const std::string c = context;
    list.push_back({"matmul-naive" + c, reinterpret_cast<const void*>(&naiveKernel<X>)});
    list.push_back({"matmul-tiled<2>" + c, reinterpret_cast<const void*>(&tiledKernel<2, X>)});
    list.push_back({"matmul-tiled<4>" + c, reinterpret_cast<const void*>(&tiledKernel<4, X>)});
    list.push_back({"matmul-tiled<8>" + c, reinterpret_cast<const void*>(&tiledKernel<8, X>)});
    list.push_back({"matmul-tiled<16>" + c, reinterpret_cast<const void*>(&tiledKernel<16, X>)});
    list.push_back({"matmul-tiled<32>" + c, reinterpret_cast<const void*>(&tiledKernel<32, X>)});
    list.push_back({"conv1d-basic" + c, reinterpret_cast<const void*>(&conv1dBasicKernel<X>)});
    list.push_back({"conv1d-tiled<8>" + c, reinterpret_cast<const void*>(&conv1dTiledKernel<8, X>)});
    list.push_back({"conv1d-tiled<256>" + c, reinterpret_cast<const void*>(&conv1dTiledKernel<256, X>)});
    list.push_back({"conv1d-tiled-cache<256>" + c, reinterpret_cast<const void*>(&conv1dTiledCacheKernel<256, X>)});
    list.push_back({"conv2d-basic" + c, reinterpret_cast<const void*>(&conv2dBasicKernel<X>)});
    list.push_back({"conv2d-tiled<8>" + c, reinterpret_cast<const void*>(&conv2dTiledKernel<8, X>)});
    list.push_back({"conv2d-tiled<16>" + c, reinterpret_cast<const void*>(&conv2dTiledKernel<16, X>)});
}

/// Exits with status 2 and one sentence if a CUDA call failed.
void check(cudaError_t e, const std::string& what)
{
    if (e == cudaSuccess) return;
    std::fprintf(stderr, "occupancy_compare: %s failed: %s (%s).\n", what.c_str(), cudaGetErrorString(e),
                 cudaGetErrorName(e));
    std::exit(2);
}

std::string limit(const std::optional<int>& v) { return v ? std::to_string(*v) : "null"; }

}  // namespace

int main()
{
    ts::sim::DeviceLimits dev;
    try {
        dev = ts::gpu::deviceOccupancyLimits();
    } catch (const ts::gpu::Unavailable& e) {
        std::fprintf(stderr, "occupancy_compare: %s\n", e.what());
        return 3;
    }
    std::printf("%s, compute capability %d.%d: %d threads, %d blocks, %d registers, %d B shared memory per "
                "SM; %d B per block (opt-in), %d B reserved per block\n",
                dev.name.c_str(), dev.ccMajor, dev.ccMinor, dev.maxThreadsPerSm, dev.maxBlocksPerSm,
                dev.regsPerSm, dev.smemPerSm, dev.smemPerBlockOptin, dev.smemReservedPerBlock);

    std::vector<ts::sim::OccupancyProfile> profiles;
    try {
        profiles.push_back(ts::sim::currentProfile(dev));
    } catch (const std::invalid_argument& e) {
        std::fprintf(stderr, "occupancy_compare: %s\n", e.what());
        return 2;
    }
    const std::string sm = "sm_" + std::to_string(dev.ccMajor) + std::to_string(dev.ccMinor);
    profiles.push_back(*ts::sim::findOccupancyProfile(sm));

    std::vector<Kernel> kernels;
    addContext<ts::gpu::DeviceContext>(kernels, "");
    addContext<ts::gpu::CountingContext>(kernels, " (counting)");

    const int dynamicSizes[] = {0, 1024, 8 * 1024, 32 * 1024, 48 * 1024};
    const int carveouts[] = {-1, 0, 50};  // -1: cudaSharedmemCarveoutDefault
    long compared = 0, differed = 0;
    for (const Kernel& k : kernels) {
        cudaFuncAttributes a{};
        check(cudaFuncGetAttributes(&a, k.func), "cudaFuncGetAttributes of " + k.name);
        std::printf("%-30s %3d registers, %6zu B static shared memory\n", k.name.c_str(), a.numRegs,
                    a.sharedSizeBytes);
        // Opt in to the per-block limit, as the model assumes for blocks over 48 KiB.
        check(cudaFuncSetAttribute(k.func, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                   dev.smemPerBlockOptin - static_cast<int>(a.sharedSizeBytes)),
              "opting " + k.name + " in to the per-block shared-memory limit");
        for (int carveout : carveouts) {
            check(cudaFuncSetAttribute(k.func, cudaFuncAttributePreferredSharedMemoryCarveout, carveout),
                  "setting the carve-out preference of " + k.name);
            long carveCompared = 0, carveDiffered = 0;
            for (int threads = 32; threads <= 1024; threads += 32) {
                for (int dyn : dynamicSizes) {
                    int api = -1;
                    check(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&api, k.func, threads, dyn),
                          "cudaOccupancyMaxActiveBlocksPerMultiprocessor for " + k.name);
                    ts::sim::OccupancyInput in;
                    in.blockThreads = threads;
                    in.regsPerThread = a.numRegs;
                    in.smemPerBlock = static_cast<int>(a.sharedSizeBytes) + dyn;
                    if (carveout >= 0) in.carveoutPercent = carveout;
                    for (const ts::sim::OccupancyProfile& p : profiles) {
                        ++compared;
                        ++carveCompared;
                        const ts::sim::Occupancy o = ts::sim::computeOccupancy(p, in);
                        if (o.blocksPerSm == api) continue;
                        ++differed;
                        ++carveDiffered;
                        std::printf("DIFFERS %s, %d threads, %d B dynamic, carve-out %s, profile %s: CUDA %d, "
                                    "model %d (limiter %s; registers %s, shared memory %s of %d B per SM, "
                                    "threads %d, blocks %d)\n",
                                    k.name.c_str(), threads, dyn,
                                    carveout < 0 ? "default" : (std::to_string(carveout) + "%").c_str(),
                                    p.name.c_str(), api, o.blocksPerSm, ts::sim::limiterName(o.limiter),
                                    limit(o.limits.registers).c_str(), limit(o.limits.sharedMemory).c_str(),
                                    o.smemPerSmConfigured, o.limits.threads, o.limits.blocks);
                    }
                }
            }
            std::printf("  carve-out %-7s %ld compared, %ld differed\n",
                        carveout < 0 ? "default" : (std::to_string(carveout) + "%").c_str(), carveCompared,
                        carveDiffered);
        }
    }
    std::printf("%ld compared, %ld differed\n", compared, differed);
    return differed ? 1 : 0;
}
