// Launching a described problem's kernel on the device (Family::Array registry rows, such as
// PMPP's 3D stencil): its arrays as the description shapes them, the plain and counting
// instantiations of the single-source kernel, one scenario run on given inputs. A new
// described kernel needs nothing here: the launcher takes every registry row whose arguments
// are sim::ArrayProblemArgs.
#pragma once
#include <vector>

#include "gpu.hpp"

namespace ts::gpu::detail {

/// runPlain() for a described problem: its first input M and second input N (empty when it
/// has one) from the host, the output poisoned with the simulator's NaN (so an element the
/// kernel leaves alone matches a reference of NAN bit for bit), one launch, the output back.
/// Throws Unavailable or LaunchError (a kernel loaded from a student's file, which has no
/// compiled instance here; sim::validate()'s sentence for a scenario that cannot launch).
std::vector<float> runArrayPlain(const sim::Scenario& s, const std::vector<float>& M, const std::vector<float>& N);

/// runCounted() for a described problem: as runArrayPlain with the counting context;
/// loadsM and loadsN count every global read of each element of the two inputs.
CountedRun runArrayCounted(const sim::Scenario& s, const std::vector<float>& M, const std::vector<float>& N);

}  // namespace ts::gpu::detail
