// A scenario file's [[question]] tables (docs/cli.md, "Scenario files"): read, checked one by
// one so that a malformed question is reported and the others still load, and written back.
// Used by sim/files/scenario_file.cpp only; it includes toml++.
#pragma once
#include <ostream>
#include <string>
#include <vector>

#include <toml++/toml.h>

#include "sim/files/scenario_file.hpp"

namespace ts::sim {

/// Reads the value of a scenario file's `question` key, which must be an array of tables
/// ([[question]]), into `p.questions`. Each table is checked on its own (its keys and their
/// types, then checkQuestion() against `p`, whose scenario and [occupancy] table are already
/// read); a malformed one adds "FILE, line N: problem." to `p.questionProblems`, N the line
/// of the offending key (or of the table), and is left out.
void readQuestionTables(const std::string& file, const toml::node& question, Preset& p);

/// Writes `p.questions` as [[question]] tables that readQuestionTables() reads back.
void writeQuestionTables(std::ostream& o, const Preset& p);

}  // namespace ts::sim
