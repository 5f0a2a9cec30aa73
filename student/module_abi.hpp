// What a student's compiled kernel module and TileScope agree on (student/module.hpp). The
// module is the student's file in the single-source form (frontend/translate.hpp) plus a
// generated entry point, built by the same compiler as TileScope with these headers, and
// loaded with dlopen; it reaches the simulator through the symbols TileScope exports.
#pragma once
#include <functional>

#include "kernels/context.cuh"
#include "sim/engine/context.hpp"
#include "student/cuda_math.hpp"

namespace ts::student {

/// Bumped whenever KernelCall, the entry point or what the module sees (student/cuda_math.hpp)
/// change (3: typed elements and shared atomics in sim/engine/context.hpp, a wider SlotState
/// and Totals; 6: the hand-over checks of PMPP sec. 11.7 in Machine and the volatile flag of
/// GlobalWriteRefOf), so that a cached module built against other headers is rebuilt instead of
/// loaded.
inline constexpr int kModuleAbi = 6;

/// The arguments of one launch, by the kernel's parameter position: a `const float*`
/// parameter reads input[i], a `float*` one output[i] (also an input the kernel declares
/// without const, as PMPP does), an int one value[i].
struct KernelCall {
    static constexpr int kMaxParams = 16;
    sim::GlobalPtr<const float> input[kMaxParams];
    sim::GlobalPtr<float> output[kMaxParams];
    int value[kMaxParams] = {};
};

/// The module's entry point, `extern "C"` under the name kBindSymbol: sets `body` to one
/// thread's run of the kernel on `call`'s arguments.
using BindFunction = void (*)(const KernelCall& call, std::function<void(sim::ThreadContext&)>& body);
inline constexpr const char* kBindSymbol = "tilescope_student_bind";
/// `extern "C" int NAME()` returning the kModuleAbi the module was built with.
inline constexpr const char* kAbiSymbol = "tilescope_student_abi";

}  // namespace ts::student
