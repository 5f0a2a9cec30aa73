// Kernels that are not compiled into TileScope but loaded while it runs: a student's own
// CUDA file (student/module.hpp). Each gets a registry entry like the built-in ones, so
// validation, launch shapes, the views and the code panel find it by name through
// findKernel() and kernelSource(); the simulator binds it through sim/engine/loaded_binding.hpp.
#pragma once
#include <string>
#include <vector>

#include "sim/catalogue/kernel_info.hpp"

namespace ts::sim {

/// What a loaded kernel's registry entry says, in owned strings. `tiles` holds the one
/// TILE_WIDTH a student's file defines (empty for an untiled kernel: the block edge is then
/// `--tile`, up to maxBlockEdge).
struct LoadedKernelInfo {
    std::string name;         ///< the name scenarios and the command line use
    Family family = Family::Matmul;
    std::string sourceFile;   ///< the file's path, as the code view titles it
    std::string source;       ///< the file's text, as the code view shows it
    std::string summary;
    std::vector<int> tiles;
    int maxBlockEdge = 32;
    int barriersPerPhase = 0;
    bool square = false;      ///< KernelInfo::squareOnly
};

/// Registers (or replaces: a file compiled again after an edit) the loaded kernel
/// `k.name` and returns its entry, which stays valid for the life of the process even when
/// a later registration replaces it. Thread-safe.
const KernelInfo* registerLoadedKernel(const LoadedKernelInfo& k);
/// The latest entry registered under `name`, or nullptr. Thread-safe.
const KernelInfo* findLoadedKernel(const std::string& name);
/// The text of a loaded kernel's source file (LoadedKernelInfo::sourceFile), or nullptr.
const std::string* loadedKernelSource(const std::string& file);

}  // namespace ts::sim
