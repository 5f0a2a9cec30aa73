// How the simulator runs a kernel loaded at run time (sim/catalogue/loaded_kernels.hpp): its
// module hands over a binder that turns the family's arguments into one thread's body, and
// bindKernel() (sim/engine/problem.hpp) asks for it when no built-in kernel has the name.
#pragma once
#include <functional>
#include <string>

#include "sim/catalogue/kernel_registry.hpp"
#include "sim/engine/context.hpp"

namespace ts::sim {

/// The simulated body of one thread (the same type as Body in sim/engine/problem.hpp).
using ThreadBody = std::function<void(ThreadContext&)>;
/// A loaded matrix-multiplication kernel's binder: M, N, P and j, k, l to a body.
using MatmulBinder = std::function<ThreadBody(const MatmulArgs<ThreadContext>&)>;
/// A loaded convolution kernel's binder: N, P, Mask_Width, height and width to a body (the
/// mask is in the machine's constant memory).
using ConvBinder = std::function<ThreadBody(const ConvArgs<ThreadContext>&)>;

/// The arguments of an array problem's kernel (Family::Array, sim/catalogue/array_spec.hpp):
/// its first and second input (the second empty when it has one), its output, and its sizes
/// in the order the file names them.
using ArrayArgs = ArrayProblemArgs<ThreadContext>;

/// A loaded array kernel's binder.
using ArrayBinder = std::function<ThreadBody(const ArrayArgs&)>;

/// Sets (or replaces) the binder of loaded kernel `name`. Thread-safe.
void setLoadedBinder(const std::string& name, MatmulBinder binder);
void setLoadedBinder(const std::string& name, ConvBinder binder);
void setLoadedBinder(const std::string& name, ArrayBinder binder);
/// The binder of loaded kernel `name` for its family, or an empty function. Thread-safe.
MatmulBinder loadedMatmulBinder(const std::string& name);
ConvBinder loadedConvBinder(const std::string& name);
ArrayBinder loadedArrayBinder(const std::string& name);

}  // namespace ts::sim
