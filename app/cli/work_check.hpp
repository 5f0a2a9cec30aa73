// Long and large simulations on the command line (docs/cli.md, "Long and large
// simulations"): before tilescope-cli runs the simulator on a problem the user sized, it
// estimates the work (sim/engine/work_estimate.hpp). Longer than sim::kAskAboveSeconds: refused
// with status 2 unless --yes was given; more memory than the machine has free: refused
// with status 2 whatever was given.
#pragma once
#include <variant>

#include "sim/engine/simulate.hpp"

namespace ts::cli {

/// Runs sim::simulate(s, opt) once the work is judged acceptable (`yes`: the user gave
/// --yes). Returns the Simulation, or the exit status (2) after one sentence on stderr when
/// it is refused. With --yes and a run longer than sim::kAskAboveSeconds it says the
/// estimate on stderr first and reports progress there about every 30 s. When stderr is a
/// terminal, a progress line with the time left is shown there instead, rewritten in place,
/// for any run longer than 0.3 s, and erased at the end. `quiet` (--quiet) silences both;
/// refusals are still said.
std::variant<sim::Simulation, int> guardedSimulate(const sim::Scenario& s, sim::SimOptions opt, bool yes,
                                                   bool quiet = false);

}  // namespace ts::cli
