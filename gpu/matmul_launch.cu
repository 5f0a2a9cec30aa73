// The device instantiations of the single-source matmul kernels and their launchers
// (see matmul_launch.hpp). The kernel bodies live in kernels/matmul_*.cuh only; the
// __global__ functions here just bind the execution context.
#include "matmul_launch.hpp"

#include <algorithm>
#include <climits>
#include <sstream>
#include <string>
#include <tuple>

#include "counting_context.cuh"
#include "cuda_support.hpp"
#include "kernels/matmul_naive.cuh"
#include "kernels/matmul_tiled.cuh"
#include "sim/scenario.hpp"

namespace ts::gpu::detail {
namespace {

/// matmul-naive with context X (DeviceContext: plain; CountingContext: counted reads).
template <class X>
__global__ void matmulNaiveKernel(typename X::template GlobalPtr<const float> M,
                                  typename X::template GlobalPtr<const float> N,
                                  typename X::template GlobalPtr<float> P, int j, int k, int l)
{
    X x = X::here();  // no barriers to drop
    kernels::matmulNaive(x, M, N, P, j, k, l);
}

/// matmul-tiled with TILE_WIDTH and context X; the barriers in `dropMask`
/// (ts::kernels::Barrier bits, the same for every thread) are skipped. The test costs
/// nothing measurable: at 4096 on an H200 a copy of the kernel with the mask fixed at 0
/// ran at the same speed (7336 against 7314 GFLOPS with TILE_WIDTH 16).
template <int TILE_WIDTH, class X>
__global__ void matmulTiledKernel(typename X::template GlobalPtr<const float> M,
                                  typename X::template GlobalPtr<const float> N,
                                  typename X::template GlobalPtr<float> P, int j, int k, int l,
                                  unsigned dropMask)
{
    X x = X::here(dropMask);
    kernels::matmulTiled<TILE_WIDTH>(x, M, N, P, j, k, l);
}

/// Launches `kernel` instantiated with context X; M and N are X's read-only pointers.
template <class X>
void launch(MatmulKernel kernel, int tile, unsigned dropMask, typename X::template GlobalPtr<const float> M,
            typename X::template GlobalPtr<const float> N, float* P, int j, int k, int l)
{
    const dim3 block(tile, tile);
    const dim3 grid((l + tile - 1) / tile, (j + tile - 1) / tile);
    if (kernel == MatmulKernel::Cublas)
        throw LaunchError("cublas is not one of the project's kernels, so it has no plain or counting "
                          "instantiation; only matmul-naive and matmul-tiled do.");
    if (kernel == MatmulKernel::Naive) {
        matmulNaiveKernel<X><<<grid, block>>>(M, N, P, j, k, l);
    } else {
        switch (tile) {
        case 2: matmulTiledKernel<2, X><<<grid, block>>>(M, N, P, j, k, l, dropMask); break;
        case 4: matmulTiledKernel<4, X><<<grid, block>>>(M, N, P, j, k, l, dropMask); break;
        case 8: matmulTiledKernel<8, X><<<grid, block>>>(M, N, P, j, k, l, dropMask); break;
        case 16: matmulTiledKernel<16, X><<<grid, block>>>(M, N, P, j, k, l, dropMask); break;
        case 32: matmulTiledKernel<32, X><<<grid, block>>>(M, N, P, j, k, l, dropMask); break;
        default: throw LaunchError("TILE_WIDTH " + std::to_string(tile) + " has no compiled instance.");
        }
    }
    check(cudaGetLastError(), "launching the kernel");
}

}  // namespace

MatmulKernel parseKernel(const std::string& name)
{
    if (name == "matmul-naive") return MatmulKernel::Naive;
    if (name == "matmul-tiled") return MatmulKernel::Tiled;
    if (name == "cublas") return MatmulKernel::Cublas;
    throw LaunchError("The GPU path knows the kernels matmul-naive, matmul-tiled and cublas; got '" +
                      name + "'.");
}

void checkLaunchable(const DeviceInfo& d, MatmulKernel kernel, int tile, int j, int k, int l)
{
    std::ostringstream e;
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
    if (kernel == MatmulKernel::Cublas) return;
    if (kernel == MatmulKernel::Tiled &&
        std::find(std::begin(sim::kTileWidths), std::end(sim::kTileWidths), tile) == std::end(sim::kTileWidths)) {
        e << "TILE_WIDTH " << tile << " is not one of the compiled template instances 2, 4, 8, 16, 32.";
        throw LaunchError(e.str());
    }
    if (tile < 1) {
        e << "The block edge (--tile) must be at least 1; got " << tile << ".";
        throw LaunchError(e.str());
    }
    const long long threads = 1ll * tile * tile;
    if (threads > d.maxThreadsPerBlock) {
        e << "A block of " << tile << " x " << tile << " = " << threads << " threads exceeds the "
          << d.maxThreadsPerBlock << " threads per block that " << d.name << " allows.";
        throw LaunchError(e.str());
    }
    const long long shared = kernel == MatmulKernel::Tiled ? 2 * threads * 4 : 0;  // Mds + Nds
    if (shared > d.sharedMemPerBlock) {
        e << "Mds and Nds need " << shared << " bytes of shared memory per block, more than the "
          << d.sharedMemPerBlock << " bytes that " << d.name << " allows.";
        throw LaunchError(e.str());
    }
    const long long gx = (l + tile - 1ll) / tile, gy = (j + tile - 1ll) / tile;
    if (gx > d.maxGridX || gy > d.maxGridY) {
        e << "The grid of " << gx << " x " << gy << " blocks exceeds the " << d.maxGridX << " x "
          << d.maxGridY << " blocks that " << d.name << " allows.";
        throw LaunchError(e.str());
    }
}

void launchMatmul(MatmulKernel kernel, int tile, unsigned dropMask, const float* M, const float* N,
                  float* P, int j, int k, int l)
{
    launch<DeviceContext>(kernel, tile, dropMask, M, N, P, j, k, l);
}

void launchMatmulCounted(MatmulKernel kernel, int tile, unsigned dropMask, const float* M,
                         const float* N, float* P, unsigned* loadsM, unsigned* loadsN, int j, int k,
                         int l)
{
    launch<CountingContext>(kernel, tile, dropMask, CountingPtr{M, loadsM}, CountingPtr{N, loadsN}, P, j,
                            k, l);
}

}  // namespace ts::gpu::detail
