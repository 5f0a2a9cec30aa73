// What TileScope and tilescope-runner (app/runner/runner_main.cpp), the confined child that
// runs a student's kernel, say to each other. The request goes to the runner's standard
// input as one JSON object: the kernel's description (student/kernel_description.hpp), the
// scenario and the simulation options. The runner answers on its standard output with
// frames, each a one-byte type, a little-endian length and that many bytes:
//   'P', 4: the share of the run done so far, a float in [0, 1];
//   'R', N: the Simulation, encoded by sim::encodeSimulation (sim/files/simulation_wire.hpp);
//   'E', N: one sentence saying why there is no Simulation (the module could not be opened,
//           the run ran out of memory).
// Lengths are 4 bytes for 'P' and 'E' and 8 for 'R'. Nothing else is ever written there.
#pragma once
#include <cstdint>
#include <string>

#include <nlohmann/json_fwd.hpp>

#include "sim/engine/simulate.hpp"

namespace ts::student {

/// Bumped whenever the request or the frames change.
inline constexpr int kRunnerProtocol = 1;

/// The scenario and the options of a run as the request carries them (the options' cancel
/// and progress pointers stay behind: the parent cancels by ending the child and learns the
/// progress from 'P' frames).
nlohmann::json scenarioToJson(const sim::Scenario& s);
sim::Scenario scenarioFromJson(const nlohmann::json& j);
nlohmann::json optionsToJson(const sim::SimOptions& o);
sim::SimOptions optionsFromJson(const nlohmann::json& j);

/// One frame: `type` followed by `payload`'s length (4 bytes, or 8 for 'R') and `payload`.
std::string frame(char type, const std::string& payload);

}  // namespace ts::student
