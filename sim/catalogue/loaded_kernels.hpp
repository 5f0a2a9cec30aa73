// Kernels that are not compiled into TileScope but loaded while it runs: a student's own
// CUDA file (student/module.hpp). Each gets a registry entry like the built-in ones, so
// validation, launch shapes, the views and the code panel find it by name through
// findKernel() and kernelSource(); the simulator binds it through sim/engine/loaded_binding.hpp.
#pragma once
#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "sim/catalogue/array_spec.hpp"
#include "sim/catalogue/kernel_info.hpp"

namespace ts::sim {

struct Scenario;
struct LaunchShape;

/// A loaded kernel's own launch (a student's file's header, student/module.hpp): sets
/// `shape` for the problem of `s` and returns "", or returns one sentence why it cannot
/// (a name the expressions do not know, a block over 1024 threads, ...).
using LaunchFunction = std::function<std::string(const Scenario& s, LaunchShape& shape)>;

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
    bool nColumnMajor = false; ///< KernelInfo::nColumnMajor
    bool atomics = false;     ///< KernelInfo::atomics: its blocks run on one worker, in order
    /// Convolutions: the extent of the kernel's __constant__ mask array (per side in 2D),
    /// the largest Mask_Width it can hold; 0 for MAX_MASK_WIDTH.
    int maskCapacity = 0;
    /// Bytes of each simulated thread's stack (KernelInfo::stackBytes); 0: the default.
    size_t stackBytes = 0;
    /// The launch, when the kernel brings its own; empty: the family's default launch.
    LaunchFunction launch;
    /// Family::Array: the problem the file states (its sizes, arrays and reference).
    std::shared_ptr<const ArraySpec> arrays;
    /// The student's own names of the problem's arrays, as {simulator's name, student's}:
    /// matmul's {"M", "A"}, {"N", "B"}, {"P", "C"}; a convolution's input, output and its
    /// __constant__ mask ({"M", "Mc"}). An array not listed keeps the simulator's name.
    std::vector<std::pair<std::string, std::string>> labels;
    /// The role each parameter receives, in the order of the kernel's parameters
    /// (student::Role as an int, frontend/kernel_roles.hpp): how a launch binds its arguments,
    /// by position, for the simulator and the GPU alike.
    std::vector<int> paramRoles;
};

/// Registers (or replaces: a file compiled again after an edit) the loaded kernel
/// `k.name` and returns its entry, which stays valid for the life of the process even when
/// a later registration replaces it. Thread-safe.
const KernelInfo* registerLoadedKernel(const LoadedKernelInfo& k);
/// The latest entry registered under `name`, or nullptr. Thread-safe.
const KernelInfo* findLoadedKernel(const std::string& name);
/// The launch loaded kernel `s.kernel` brings (LoadedKernelInfo::launch): false when it
/// brings none (or is not loaded); else true, with `shape` set and `error` empty, or `error`
/// saying why the launch cannot be made for `s`. Thread-safe.
bool loadedLaunchShape(const Scenario& s, LaunchShape& shape, std::string& error);
/// The array problem (Family::Array) of kernel `name`: a loaded kernel's (its file's header
/// or its exercise), else a registry row's (KernelInfo::arrays, sizes and formula, read once);
/// nullptr for a kernel of another family, an unknown name or a row whose texts do not
/// read (a test reads every row). Thread-safe.
std::shared_ptr<const ArraySpec> arraySpecOf(const std::string& name);
/// The student's name for array `array` ("M", "N", "P"; the mask is "M" in a convolution)
/// of loaded kernel `kernel` (LoadedKernelInfo::labels), else `array` itself. Thread-safe.
std::string loadedArrayLabel(const std::string& kernel, const std::string& array);
/// The parameters' roles of loaded kernel `name` (LoadedKernelInfo::paramRoles); empty when
/// it is not loaded. Thread-safe.
std::vector<int> loadedParamRoles(const std::string& name);
/// The text of a loaded kernel's source file (LoadedKernelInfo::sourceFile), or nullptr.
const std::string* loadedKernelSource(const std::string& file);

}  // namespace ts::sim
