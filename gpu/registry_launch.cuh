// The GPU dispatch of the kernel registry (sim/catalogue/kernel_registry.hpp): one __global__ template
// that binds a registry entry, a compiled tile and an execution context, and the launcher
// that picks the entry and tile a scenario names. Included by the .cu files of each family
// (gpu/matmul_launch.cu, gpu/conv_launch.cu), so that a new kernel of an existing family
// needs no change here.
#pragma once
#include <string>

#include "counting_context.cuh"
#include "cuda_support.hpp"
#include "device_context.cuh"
#include "gpu.hpp"
#include "kernel_resources.hpp"
#include "sim/catalogue/scenario.hpp"

namespace ts::gpu::detail {

/// Registry entry K at compiled tile T (0 for an untiled kernel) with context X
/// (DeviceContext: plain; CountingContext: counted reads). With DROP the barriers in
/// `dropMask` are skipped; without it the mask is the constant 0, so the kernel that is
/// timed tests nothing at its barriers. Only kernels with droppable barriers get DROP.
template <class K, int T, class X, bool DROP>
__global__ void deviceKernel(typename K::template Args<X> args, unsigned dropMask)
{
    X x = X::here(DROP ? dropMask : 0u);
    K::template run<T>(x, args);
}

/// Calls `f(kernel)` with the address of the __global__ instance that a launch of `s`
/// with context X and arguments `Args` uses. Throws LaunchError when the registry has no
/// such kernel of that family, or no compiled instance for s.tile.
template <class X, class Args, class F>
void withDeviceKernel(const sim::Scenario& s, F&& f)
{
    bool compiled = false;
    const bool known = sim::withKernel<Args, X>(s.kernel, [&](auto k) {
        using K = decltype(k);
        compiled = sim::withTile<K>(s.tile, [&](auto t) {
            constexpr int T = decltype(t)::value;
            if constexpr (K::info.barriers != 0) {
                if (s.dropBarriers) return f(deviceKernel<K, T, X, true>);
            }
            f(deviceKernel<K, T, X, false>);
        });
    });
    if (!known) throw LaunchError("'" + s.kernel + "' is not a kernel of this family in the registry.");
    if (!compiled)
        throw LaunchError(std::string(s.kernelInfo()->family == sim::Family::Matmul ? "TILE_WIDTH " : "TILE_SIZE ") +
                          std::to_string(s.tile) + " has no compiled instance of " + s.kernel + ".");
}

/// Launches s.kernel with context X on the default stream, with sim::launchShape(s)'s grid
/// and block, skipping the barriers in s.dropBarriers. Asynchronous: launch errors throw
/// LaunchError here, execution errors surface at the next synchronizing call. A row of
/// several launches (sim::KernelInfo::laterGrids, Args::launch) is launched whole, one launch
/// after the other in the stream's order, each with its own grid (sim::launchShapeOf).
template <class X, class Args>
void launchRegistered(const sim::Scenario& s, const Args& args)
{
    const int launches = sim::launchCount(s);
    for (int launch = 1; launch <= launches; ++launch) {
        const sim::LaunchShape sh = launches > 1 ? sim::launchShapeOf(s, launch) : sim::launchShape(s);
        const dim3 grid(sh.grid.x, sh.grid.y, sh.grid.z), block(sh.block.x, sh.block.y, sh.block.z);
        Args a = args;
        if constexpr (requires { a.launch; }) a.launch = launch - 1;
        withDeviceKernel<X, Args>(s, [&](auto kernel) { kernel<<<grid, block>>>(a, s.dropBarriers); });
        check(cudaGetLastError(), ("launching " + s.kernel).c_str());
    }
}

/// The attributes (cudaFuncGetAttributes: numRegs, sharedSizeBytes, ...) of the plain
/// instance (DeviceContext, no dropped barrier) that launches `s`.
template <class Args>
cudaFuncAttributes plainAttributes(const sim::Scenario& s)
{
    sim::Scenario plain = s;
    plain.dropBarriers = 0;
    cudaFuncAttributes a{};
    withDeviceKernel<DeviceContext, Args>(plain, [&](auto kernel) {
        check(cudaFuncGetAttributes(&a, kernel), ("reading the attributes of " + s.kernel).c_str());
    });
    return a;
}

/// The static shared memory per block (bytes) of the plain instance that launches `s`.
template <class Args>
size_t staticSharedBytes(const sim::Scenario& s)
{
    return plainAttributes<Args>(s).sharedSizeBytes;
}

/// Registers per thread and static shared memory per block of the plain instance that
/// launches `s` (gpu/kernel_resources.hpp).
template <class Args>
KernelResources plainResources(const sim::Scenario& s)
{
    const cudaFuncAttributes a = plainAttributes<Args>(s);
    return KernelResources{a.numRegs, static_cast<int>(a.sharedSizeBytes)};
}

}  // namespace ts::gpu::detail
