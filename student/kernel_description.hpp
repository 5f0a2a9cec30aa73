// A student's kernel as plain data: everything TileScope read from the file (its name, family,
// tile, launch expressions, array problem, which argument each parameter receives) and the
// compiled module that holds its code. The process that shows the results registers the
// kernel from it without opening the module (registerDescription); the confined child that
// runs the kernel (tilescope-runner) receives it as JSON, registers it the same way and binds
// the module's code to it (bindModule). So both sides validate, launch and bind the kernel
// by the same rules.
#pragma once
#include <cstddef>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "sim/catalogue/array_spec.hpp"
#include "sim/catalogue/kernel_info.hpp"
#include "sim/teaching/expression.hpp"
#include "frontend/kernel_roles.hpp"
#include "student/module_abi.hpp"

namespace ts::sim {
struct Scenario;
}

namespace ts::student {

/// What a kernel file was found to be (student/module.cpp, loadKernelSource).
struct KernelDescription {
    std::string name;           ///< the __global__ function's name: the registry's name
    sim::Family family = sim::Family::Matmul;
    std::string sourceFile;     ///< the file's path, as messages and the Code panel name it
    std::string source;         ///< the file's text
    std::string summary;        ///< "your kernel NAME from FILE"
    std::vector<int> tiles;     ///< its one TILE_WIDTH (tiled), else empty
    int maxBlockEdge = 32;      ///< untiled convolutions: the largest --tile
    int barriersPerPhase = 0;
    bool square = false;        ///< takes one size, Width (KernelInfo::squareOnly)
    bool nColumnMajor = false;  ///< N column by column (PMPP sec. 6.1)
    /// The kernel makes atomics (ts_ctx.atomicAdd in its translation): its blocks run on one
    /// worker, in block order (KernelInfo::atomics), as the registry's reductions do.
    bool atomics = false;
    int maskCapacity = 0;       ///< convolutions: the __constant__ mask's extent per side
    /// Bytes of each simulated thread's stack: the default plus the file's local arrays
    /// (0: the default). See stackBytesFor().
    size_t stackBytes = 0;
    /// The launch the file (or an exercise) gives: one to three expressions each, x first;
    /// both empty for the family's default launch.
    std::vector<std::string> gridExpr, blockExpr;
    /// The file's integer #defines, which the launch expressions may use.
    std::vector<std::pair<std::string, long long>> defines;
    /// Family::Array: the problem its header states; null otherwise.
    std::shared_ptr<const sim::ArraySpec> arrays;
    /// By parameter position: what it receives, and how it is declared.
    std::vector<Role> roles;
    std::vector<KernelParam::Kind> paramKinds;
    /// The student's names of the problem's arrays (sim::LoadedKernelInfo::labels).
    std::vector<std::pair<std::string, std::string>> labels;
    /// The compiled module (a shared object in the kernel cache).
    std::string modulePath;
};

/// The variables a launch expression may use for scenario `s`: the problem's sizes under
/// the names the family's kernels give them (matmul j, k, l, Width; convolutions Width,
/// height, Mask_Width; an array problem its own size names) and the file's `defines`.
sim::Variables launchVariables(const std::vector<std::pair<std::string, long long>>& defines, const sim::Scenario& s,
                               sim::Family family, const sim::ArraySpec* spec = nullptr);

/// Registers kernel `d` in the simulator's registry (sim/catalogue/loaded_kernels.hpp), with
/// its own launch when it gives one, and returns its entry. Opens nothing: no code of the
/// module is loaded.
const sim::KernelInfo* registerDescription(const KernelDescription& d);

/// Makes `bind` (the module's entry point, student/module_abi.hpp) the simulator's binder
/// of kernel `d` (sim/engine/loaded_binding.hpp). Only the confined runner calls it.
void bindModule(const KernelDescription& d, BindFunction bind);

/// `d` as JSON and back (the runner's request). fromJson throws std::exception for a
/// malformed description.
nlohmann::json toJson(const KernelDescription& d);
KernelDescription descriptionFromJson(const nlohmann::json& j);

/// The largest per-thread local memory TileScope simulates, in bytes: CUDA's own limit of
/// 512 KiB of local memory per thread.
inline constexpr size_t kMaxLocalBytesPerThread = 512 * 1024;
/// The fiber stack for a kernel whose threads declare `localBytes` bytes of local arrays:
/// the default stack (sim/engine/fiber.hpp) plus room for them, in whole pages; 0 (the
/// default) when they fit in a quarter of the default stack.
size_t stackBytesFor(unsigned long long localBytes);

}  // namespace ts::student
