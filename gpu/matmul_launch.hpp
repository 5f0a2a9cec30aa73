// Launching the matrix multiplications on the device: the preconditions a launch must meet,
// and the plain and counting instantiations of the registry's matrix-multiplication kernels
// (sim/catalogue/kernel_registry.hpp, family Matmul), dispatched by gpu/registry_launch.cuh.
#pragma once
#include <string>
#include <vector>

#include "gpu.hpp"

namespace ts::gpu::detail {

/// Is `name` "cublas", cuBLAS's SGEMM, which the GPU path times beside the kernels but
/// which is not one of the project's kernels (no simulation, no counting instance)?
bool isCublas(const std::string& name);

/// Checks the sizes of `s` alone: j, k and l at least 1, and M, N and P each addressable
/// by int indices. Throws LaunchError with one sentence otherwise.
void checkMatmulSizes(const sim::Scenario& s);

/// Checks that M (s.j x s.k) times N (s.k x s.l) can launch on device `d` with s.kernel (a
/// registered matrix multiplication or "cublas") and s.tile (TILE_WIDTH of a tiled kernel:
/// a compiled instance; block edge of an untiled one; ignored by cublas): every size at
/// least 1, every matrix addressable by the kernels' int indices, block threads and static
/// shared memory within the device's limits, the grid within its limits. Throws
/// LaunchError with one sentence otherwise.
void checkLaunchable(const DeviceInfo& d, const sim::Scenario& s);

/// N (s.k x s.l, row-major) laid out as s.kernel takes it: column by column when its
/// KernelInfo::nColumnMajor is set (PMPP sec. 6.1's corner turning), else unchanged. Every
/// upload of N for a launch goes through this, so the inputs and the reference stay row-major.
std::vector<float> storedN(const sim::Scenario& s, const std::vector<float>& N);

/// Launches the plain instantiation (ts::gpu::DeviceContext) of s.kernel on the default
/// stream with sim::launchShape(s), skipping the barriers in s.dropBarriers. M, P are
/// row-major device arrays, N is laid out as storedN() gives it. Asynchronous: launch errors throw LaunchError here, execution
/// errors surface at the next synchronizing call.
void launchMatmul(const sim::Scenario& s, const float* M, const float* N, float* P);

/// As launchMatmul, with the counting instantiation (ts::gpu::CountingContext): every read
/// of M[i] adds 1 to loadsM[i] (j*k counters), of N[i] to loadsN[i] (k*l counters, in N's
/// stored layout, as the simulator counts). The counters must be zero before the launch.
void launchMatmulCounted(const sim::Scenario& s, const float* M, const float* N, float* P, unsigned* loadsM,
                         unsigned* loadsN);

}  // namespace ts::gpu::detail
