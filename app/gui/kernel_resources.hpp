// The registers per thread and static shared memory per block of the project's compiled
// kernels, as ptxas reported them when the app was built (nvcc -Xptxas -v, one row per
// __global__ function and architecture; cmake/ptxas_resources.cmake writes the table). The
// Occupancy panel's "this kernel" reads them. A build without CUDA has no such report.
#pragma once
#include <string>
#include <vector>

#include "sim/catalogue/scenario.hpp"

namespace ts::app {

/// One __global__ function compiled for one architecture.
struct KernelResources {
    const char* mangled;     ///< the function's mangled name
    const char* arch;        ///< "sm_90"
    int registers;           ///< registers per thread
    int staticSmem;          ///< bytes of static shared memory per block
};

/// The build's report: every compiled kernel, or why there is none.
struct KernelResourceTable {
    bool available;          ///< false in a build without CUDA
    const char* why;         ///< if !available: one sentence
    std::vector<KernelResources> kernels;
};

/// The table generated at build time.
const KernelResourceTable& kernelResourceTable();

/// The function's name without namespaces and parameters, e.g.
/// "matmulTiledKernel<16, DeviceContext>"; the mangled name if it cannot be demangled.
std::string kernelDisplayName(const char* mangled);

/// The architecture ("sm_90") of compute capability major.minor.
std::string archName(int ccMajor, int ccMinor);

/// The plain device instance of scenario `s`'s kernel (DeviceContext, its TILE_WIDTH or
/// TILE_SIZE, with or without the dropped-barrier flag as `s` needs) compiled for `arch`, or
/// nullptr when the build has none.
const KernelResources* findKernelResources(const sim::Scenario& s, const std::string& arch);

}  // namespace ts::app
