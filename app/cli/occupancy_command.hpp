// `tilescope-cli occupancy` (spec: docs/cli.md): blocks, threads and warps per SM for
// a block size, registers per thread and shared memory per block on an occupancy profile.
#pragma once
#include <CLI/CLI.hpp>
#include <optional>
#include <string>

namespace ts::cli {

/// The options of `occupancy`.
struct OccupancyOptions {
    std::string device;                ///< profile: textbook, sm_75 ... sm_90, current
    int blockThreads = 0;
    int regsPerThread = 0;
    int smemPerBlock = 0;              ///< bytes, static + dynamic
    std::optional<int> carveout;       ///< preferred shared-memory carve-out, percent
    bool json = false;
};

/// Registers the `occupancy` subcommand on `app`, writing into `o`; returns it.
CLI::App* addOccupancyCommand(CLI::App& app, OccupancyOptions& o);

/// Runs `occupancy`: prints the result (one JSON object with json) and returns the exit
/// status: 0, or 2 with one sentence on stderr for a bad input or a block that cannot fit
/// on an SM. `current` throws gpu::Unavailable without a usable GPU (exit 3 in the caller).
int runOccupancy(const OccupancyOptions& o);

}  // namespace ts::cli
