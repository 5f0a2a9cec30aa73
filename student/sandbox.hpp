// Running a student's kernel where it cannot take TileScope down: the rest of the work goes
// on in a child process with a time and a memory limit, and the parent reports how it
// ended. An endless loop is stopped at the limit, a crash is named by its signal, and the
// parent (the command line, the app) goes on with nothing lost.
#pragma once
#include <cstdint>
#include <optional>
#include <string>

namespace ts::student {

/// Forks. In the child, with its address space limited to `memoryBytes` (0: no limit; none
/// under AddressSanitizer, which reserves far more) and a CPU-time limit, returns nullopt:
/// the child carries on with the run and ends the process with its own exit status. In the
/// parent, waits up to `seconds` of wall time and returns the child's exit status; when the
/// child ran out of time, was killed by a signal or ran out of memory, first writes one
/// sentence saying so to stderr (prefixed `prefix`) and returns 1. Call it with no other
/// threads running (a fork copies only the calling one). Standard streams are flushed first.
/// With `message` set, the parent's sentence (without `prefix`) is stored there instead of
/// written to stderr, and cleared when the child ended on its own (the grader, student/grade.hpp).
std::optional<int> continueInChild(double seconds, uint64_t memoryBytes, const std::string& prefix,
                                   std::string* message = nullptr);

}  // namespace ts::student
