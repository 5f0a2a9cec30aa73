// The device instantiations of the registry's matrix multiplications and their launchers
// (see matmul_launch.hpp). The kernel bodies live in kernels/matmul_*.cuh only.
#include "matmul_launch.hpp"

#include <algorithm>
#include <climits>
#include <sstream>
#include <string>
#include <tuple>

#include "conv_launch.hpp"
#include "kernel_resources.hpp"
#include "registry_launch.cuh"

namespace ts::gpu::detail {
namespace {

template <class X>
using Args = sim::MatmulArgs<X>;

}  // namespace

bool isCublas(const std::string& name) { return name == "cublas"; }

void checkMatmulSizes(const sim::Scenario& s)
{
    std::ostringstream e;
    const int j = s.j, k = s.k, l = s.l;
    for (auto [what, v] : {std::pair{"j (rows of M and P)", j}, std::pair{"k (columns of M, rows of N)", k},
                           std::pair{"l (columns of N and P)", l}})
        if (v < 1) {
            e << what << " must be at least 1; got " << v << ".";
            throw LaunchError(e.str());
        }
    for (auto [what, rows, cols] : {std::tuple{"M", j, k}, std::tuple{"N", k, l}, std::tuple{"P", j, l}})
        if (static_cast<long long>(rows) * cols > INT_MAX) {
            e << what << " (" << rows << " x " << cols << ") has more than 2^31 - 1 elements, more "
              << "than the kernels' int indices can address.";
            throw LaunchError(e.str());
        }
}

void checkLaunchable(const DeviceInfo& d, const sim::Scenario& s)
{
    checkMatmulSizes(s);
    if (isCublas(s.kernel)) return;
    std::ostringstream e;
    const int tile = s.tile;
    const sim::KernelInfo* info = s.kernelInfo();
    if (!info || info->family != sim::Family::Matmul) {
        e << "The GPU path knows the matrix multiplications";
        for (const sim::KernelInfo& i : sim::kernelList())
            if (i.family == sim::Family::Matmul) e << " " << i.name << ",";
        e << " and cublas; got '" << s.kernel << "'.";
        throw LaunchError(e.str());
    }
    if (info->tiled && std::find(info->tiles.begin(), info->tiles.end(), tile) == info->tiles.end()) {
        e << "TILE_WIDTH " << tile << " is not one of the compiled template instances " << sim::tileList(*info, false)
          << " of " << s.kernel << ".";
        throw LaunchError(e.str());
    }
    if (tile < 1) {
        e << "The block edge (--tile) must be at least 1; got " << tile << ".";
        throw LaunchError(e.str());
    }
    const sim::LaunchShape sh = sim::launchShape(s);
    const long long threads = 1ll * sh.block.x * sh.block.y * sh.block.z;
    if (threads > d.maxThreadsPerBlock) {
        e << "A block of " << sh.block.x << " x " << sh.block.y << " = " << threads << " threads exceeds the "
          << d.maxThreadsPerBlock << " threads per block that " << d.name << " allows.";
        throw LaunchError(e.str());
    }
    const size_t shared = staticSharedBytes<Args<DeviceContext>>(s);
    if (shared > static_cast<size_t>(d.sharedMemPerBlock)) {
        e << s.kernel << " with TILE_WIDTH " << tile << " needs " << shared
          << " bytes of shared memory per block (Mds and Nds), more than the " << d.sharedMemPerBlock << " bytes that "
          << d.name << " allows.";
        throw LaunchError(e.str());
    }
    if (sh.grid.x > static_cast<unsigned>(d.maxGridX) || sh.grid.y > static_cast<unsigned>(d.maxGridY)) {
        e << "The grid of " << sh.grid.x << " x " << sh.grid.y << " blocks exceeds the " << d.maxGridX << " x "
          << d.maxGridY << " blocks that " << d.name << " allows.";
        throw LaunchError(e.str());
    }
}

std::vector<float> storedN(const sim::Scenario& s, const std::vector<float>& N)
{
    const sim::KernelInfo* k = sim::findKernel(s.kernel);
    return sim::ArrayInfo{"N", sim::Space::Global, s.k, s.l, k && k->nColumnMajor}.laidOut(N);
}

void launchMatmul(const sim::Scenario& s, const float* M, const float* N, float* P)
{
    if (isCublas(s.kernel))
        throw LaunchError("cublas is not one of the project's kernels, so it has no plain or counting "
                          "instantiation; only the registry's kernels do.");
    launchRegistered<DeviceContext>(s, Args<DeviceContext>{M, N, P, s.j, s.k, s.l});
}

void launchMatmulCounted(const sim::Scenario& s, const float* M, const float* N, float* P, unsigned* loadsM,
                         unsigned* loadsN)
{
    if (isCublas(s.kernel))
        throw LaunchError("cublas is not one of the project's kernels, so it has no plain or counting "
                          "instantiation; only the registry's kernels do.");
    launchRegistered<CountingContext>(
        s, Args<CountingContext>{CountingPtr{M, loadsM}, CountingPtr{N, loadsN}, P, s.j, s.k, s.l});
}

}  // namespace ts::gpu::detail

namespace ts::gpu {

KernelResources kernelResources(const sim::Scenario& s)
{
    detail::requireDevice();
    if (detail::isCublas(s.kernel))
        throw LaunchError("cublas is not one of the project's kernels, so it has no compiled instance whose "
                          "registers TileScope can read.");
    const sim::KernelInfo* info = s.kernelInfo();
    if (!info) throw LaunchError("'" + s.kernel + "' is not a kernel of the registry.");
    if (info->family == sim::Family::Matmul) return detail::plainResources<detail::Args<DeviceContext>>(s);
    if (info->family == sim::Family::Array) return detail::plainResources<sim::ArrayProblemArgs<DeviceContext>>(s);
    return detail::convResources(s);
}

}  // namespace ts::gpu
