// occupancy_compare: checks the occupancy model (sim/teaching/occupancy.hpp) against the CUDA
// runtime. For every kernel of the kernel registry at every compiled TILE_WIDTH / TILE_SIZE,
// with the plain and the counting device context, every block size from 32 to
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

#include "gpu/registry_launch.cuh"
#include "gpu/gpu.hpp"
#include "gpu/gpu_occupancy.hpp"
#include "sim/teaching/occupancy.hpp"

namespace {

struct Kernel {
    std::string name;
    const void* func;
};

/// Every compiled instance of every registry kernel with context X, as the GPU path
/// launches them (gpu/registry_launch.cuh; untiled kernels have the one instance T = 0).
template <class X>
void addContext(std::vector<Kernel>& list, const char* context)
{
    ts::sim::forEachKernel([&](auto k) {
        using K = decltype(k);
        auto add = [&]<int T>() {
            const std::string name = std::string(K::info.name) + (T ? "<" + std::to_string(T) + ">" : "") + context;
            list.push_back({name, reinterpret_cast<const void*>(&ts::gpu::detail::deviceKernel<K, T, X, false>)});
        };
        if constexpr (K::TileSizes::values.empty()) {
            add.template operator()<0>();
        } else {
            [&]<size_t... I>(std::index_sequence<I...>) {
                (add.template operator()<K::TileSizes::values[I]>(), ...);
            }(std::make_index_sequence<K::TileSizes::values.size()>{});
        }
    });
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
