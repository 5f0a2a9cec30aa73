// Where a loaded kernel runs (sim/catalogue/loaded_kernels.hpp). A student's compiled module
// is never opened in the process that shows or prints its results: that process registers a
// runner for the kernel's name, and simulate() hands the whole run to it. The runner (a
// confined child process, student/confined_run.hpp) sends the Simulation back. Inside that
// child the module's binder is set instead (sim/engine/loaded_binding.hpp) and the run is an
// ordinary one.
#pragma once
#include <functional>
#include <stdexcept>
#include <string>

#include "sim/engine/simulate.hpp"

namespace ts::sim {

struct WorkEstimate;

/// Runs the whole simulation of scenario `s` (validated, naming the runner's kernel) with
/// options `opt` and the estimate `work` elsewhere and returns what it produced, exactly as
/// simulate() would: a kernel fault in Simulation::error, a run cancelled through
/// opt.cancel with Simulation::cancelled set; opt.progress is kept up to date. Throws
/// RunStopped when the run gave no result.
using LoadedRunner = std::function<Simulation(const Scenario& s, const SimOptions& opt, const WorkEstimate& work)>;

/// A run that ended without a Simulation: it ran out of its time or memory, crashed, was
/// stopped for a forbidden system call, or could not be started. what() is one sentence
/// for the student ("your kernel ran longer than 6 s and was stopped: ...").
struct RunStopped : std::runtime_error {
    using std::runtime_error::runtime_error;
};

/// Sets (or replaces; an empty function removes) the runner of loaded kernel `name`.
/// Thread-safe.
void setLoadedRunner(const std::string& name, LoadedRunner runner);
/// The runner of loaded kernel `name`, or an empty function. Thread-safe.
LoadedRunner loadedRunner(const std::string& name);

}  // namespace ts::sim
