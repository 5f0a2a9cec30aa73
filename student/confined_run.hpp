// The parent's side of a student's run (docs/security.md): the simulation of a student's
// kernel happens in tilescope-runner, inside a bubblewrap sandbox with a system-call
// allowlist and limits (student/confine.hpp); this process never opens the module. The
// runner is registered as the kernel's sim::LoadedRunner, so sim::simulate() on a scenario
// that names the kernel runs there and returns the Simulation it sent back.
#pragma once
#include <string>

#include "student/kernel_description.hpp"

namespace ts::student {

/// tilescope-runner: $TILESCOPE_RUNNER, else the one beside the running executable (the
/// build's bin/ or the installed bin/); "" when there is none.
std::string runnerPath();

/// Makes sim::simulate() run kernel `d` in a confined tilescope-runner (sim/engine/loaded_runner.hpp).
/// Its limits: wall time 5 s plus ten times the work estimate, CPU time four times that,
/// memory 4 GiB or three times the estimate, whichever is more. A run that gives no result
/// throws sim::RunStopped with one sentence: the time or memory ran out, it crashed, it
/// made a forbidden system call, it sent back too much or garbage, or no sandbox can be made
/// here (confinementRefusal()).
void useConfinedRunner(const KernelDescription& d);

}  // namespace ts::student
