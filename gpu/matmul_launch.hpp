// Launching the matrix-multiplication kernels on the device: which kernel a name means, the
// preconditions a launch must meet, and the plain and counting instantiations of the
// single-source kernels (kernels/matmul_naive.cuh, kernels/matmul_tiled.cuh).
#pragma once
#include <string>

#include "gpu.hpp"

namespace ts::gpu::detail {

/// The matrix multiplications the GPU path runs.
enum class MatmulKernel { Naive, Tiled, Cublas };

/// The kernel called `name`: "matmul-naive", "matmul-tiled" or "cublas". Any other name
/// throws LaunchError.
MatmulKernel parseKernel(const std::string& name);

/// Checks that M (j x k) times N (k x l) can launch on device `d` with `kernel` and
/// `tile` (TILE_WIDTH of matmul-tiled: a compiled instance 2, 4, 8, 16, 32; block edge of
/// matmul-naive; ignored by cublas): every size at least 1, every matrix addressable by
/// the kernels' int indices, block threads and shared memory within the device's limits,
/// the grid within its limits. Throws LaunchError with one sentence otherwise.
void checkLaunchable(const DeviceInfo& d, MatmulKernel kernel, int tile, int j, int k, int l);

/// Launches the plain instantiation (ts::gpu::DeviceContext) of matmul-naive or
/// matmul-tiled on the default stream, block tile x tile, grid ceil(l/tile) x ceil(j/tile)
/// (as sim::launchShape). M, N, P are row-major device arrays. `dropMask`
/// (ts::kernels::Barrier bits, 0 for the textbook kernel) names the barriers matmul-tiled
/// skips, so the GPU can show the race of issue 4. Asynchronous: launch errors throw
/// LaunchError here, execution errors surface at the next synchronizing call.
void launchMatmul(MatmulKernel kernel, int tile, unsigned dropMask, const float* M, const float* N,
                  float* P, int j, int k, int l);

/// As launchMatmul, with the counting instantiation (ts::gpu::CountingContext): every read
/// of M[i] adds 1 to loadsM[i] (j*k counters), of N[i] to loadsN[i] (k*l counters). The
/// counters must be zero before the launch.
void launchMatmulCounted(MatmulKernel kernel, int tile, unsigned dropMask, const float* M,
                         const float* N, float* P, unsigned* loadsM, unsigned* loadsN, int j, int k,
                         int l);

}  // namespace ts::gpu::detail
