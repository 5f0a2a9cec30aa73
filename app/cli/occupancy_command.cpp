#include "occupancy_command.hpp"

#include <iomanip>
#include <iostream>
#include <stdexcept>

#include "commands.hpp"
#include "gpu/gpu_occupancy.hpp"
#include "sim/teaching/occupancy.hpp"

namespace ts::cli {
namespace {

std::string limitText(const std::optional<int>& v) { return v ? std::to_string(*v) : "-"; }

/// The result as a small table: per resource what a block takes, what an SM has, and how
/// many blocks that allows.
void printTable(const sim::OccupancyProfile& p, const sim::OccupancyInput& in, const sim::Occupancy& o)
{
    const bool textbook = p.regAllocation == sim::RegisterAllocation::PerThread;
    std::cout << "Profile " << p.name << ": " << p.summary << "\n"
              << "Block: " << in.blockThreads << " threads (" << o.warpsPerBlock << " warps), "
              << in.regsPerThread << " registers per thread, " << in.smemPerBlock
              << " bytes of shared memory\n\n";
    auto row = [&](const char* what, const std::string& block, const std::string& sm,
                   const std::optional<int>& limit, sim::Limiter l) {
        std::cout << "  " << std::left << std::setw(15) << what << std::setw(32) << block << std::setw(18) << sm
                  << std::setw(4) << limitText(limit)
                  << (o.limiter == l ? "  <- limiter" : "") << "\n";
    };
    std::cout << "  " << std::left << std::setw(15) << "resource" << std::setw(32) << "a block takes"
              << std::setw(18) << "an SM has" << "blocks it allows\n";
    row("registers",
        std::to_string(o.regsAllocatedPerBlock) + (textbook ? "" : " (per warp, units of 256)"),
        std::to_string(p.regsPerSm), o.limits.registers, sim::Limiter::Registers);
    row("shared memory",
        std::to_string(o.smemAllocatedPerBlock) + " B" +
            (p.smemReservedPerBlock ? " (incl. 1 KiB reserve)" : ""),
        std::to_string(o.smemPerSmConfigured) + " B", o.limits.sharedMemory, sim::Limiter::SharedMemory);
    row("threads", std::to_string(o.warpsPerBlock) + " warps",
        std::to_string(p.maxWarpsPerSm()) + " warps", o.limits.threads, sim::Limiter::Threads);
    row("blocks", "1 slot", std::to_string(p.maxBlocksPerSm) + " slots", o.limits.blocks, sim::Limiter::Blocks);
    std::cout << "\n" << o.blocksPerSm << " blocks per SM: " << o.threadsPerSm << " threads, " << o.warpsPerSm
              << " of " << p.maxWarpsPerSm() << " warps, occupancy " << std::fixed << std::setprecision(3)
              << o.occupancy << std::defaultfloat << " (limited by " << sim::limiterName(o.limiter) << ")\n";
}

}  // namespace

CLI::App* addOccupancyCommand(CLI::App& app, OccupancyOptions& o)
{
    CLI::App* c = app.add_subcommand(
        "occupancy", "Blocks, threads and warps one SM runs for a block size, registers per thread and "
                     "shared memory per block, and which resource limits them (PMPP sec. 4.7)");
    c->add_option("--device", o.device,
                  "Profile: textbook (the textbook SM, PMPP sec. 4.7), sm_75, sm_80, sm_86, sm_89, sm_90, "
                  "or current (this GPU)")
        ->required();
    c->add_option("--block-threads", o.blockThreads, "Threads per block")->required();
    c->add_option("--regs-per-thread", o.regsPerThread, "Registers per thread (0: not counted)")->required();
    c->add_option("--smem-per-block", o.smemPerBlock, "Shared memory per block in bytes, static + dynamic")
        ->required();
    c->add_option("--carveout", o.carveout,
                  "Preferred shared-memory carve-out in percent (cudaFuncAttributePreferredSharedMemoryCarveout); "
                  "default: the driver's, the largest");
    c->add_flag("--json", o.json, "Print one JSON object (spec: docs/cli.md)");
    return c;
}

int runOccupancy(const OccupancyOptions& o)
{
    sim::OccupancyProfile profile;
    if (o.device == "current") {
        try {
            profile = sim::currentProfile(gpu::deviceOccupancyLimits());
        } catch (const std::invalid_argument& e) {
            std::cerr << "tilescope-cli: " << e.what() << "\n";
            return kBadInput;
        }
    } else if (const sim::OccupancyProfile* p = sim::findOccupancyProfile(o.device)) {
        profile = *p;
    } else {
        std::cerr << "tilescope-cli: " << sim::unknownProfileMessage(o.device) << "\n";
        return kBadInput;
    }
    const sim::OccupancyInput in{o.blockThreads, o.regsPerThread, o.smemPerBlock, o.carveout};
    if (std::string e = sim::checkOccupancyInput(profile, in); !e.empty()) {
        std::cerr << "tilescope-cli: " << e << "\n";
        return kBadInput;
    }
    const sim::Occupancy r = sim::computeOccupancy(profile, in);
    if (r.blocksPerSm == 0) {
        std::cerr << "tilescope-cli: " << r.why << "\n";
        return kBadInput;
    }
    if (o.json) std::cout << sim::occupancyJson(profile, r) << "\n";
    else printTable(profile, in, r);
    return kOk;
}

}  // namespace ts::cli
