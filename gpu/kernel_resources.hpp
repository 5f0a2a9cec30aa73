// What the compiled instance of a kernel takes from an SM, read from the CUDA runtime
// (cudaFuncGetAttributes), for the results file that `tilescope-cli bench --out` writes.
// Plain C++ (no CUDA headers): built from gpu/matmul_launch.cu with CUDA, from
// gpu/gpu_unavailable.cpp without it.
#pragma once
#include "sim/catalogue/scenario.hpp"

namespace ts::gpu {

/// The resources of one compiled __global__ instance.
struct KernelResources {
    int registers = 0;               ///< per thread (numRegs: what ptxas -v reports)
    int staticSharedBytes = 0;       ///< per block, bytes (sharedSizeBytes: the __shared__ arrays)
};

/// The resources of the plain instance (ts::gpu::DeviceContext, no dropped barrier) that a
/// launch of `s` uses: the registry's kernel s.kernel, matrix multiplication or
/// convolution, at its compiled tile s.tile. Throws Unavailable (gpu/gpu.hpp) without a
/// usable device, LaunchError for "cublas", a kernel the registry does not know or a tile
/// with no compiled instance.
KernelResources kernelResources(const sim::Scenario& s);

}  // namespace ts::gpu
