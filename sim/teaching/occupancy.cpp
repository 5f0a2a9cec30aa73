#include "sim/teaching/occupancy.hpp"

#include <algorithm>
#include <cmath>
#include <nlohmann/json.hpp>
#include <sstream>
#include <stdexcept>

namespace ts::sim {
namespace {

constexpr int KiB = 1024;

int ceilDiv(int a, int b) { return (a + b - 1) / b; }
int roundUp(int a, int b) { return ceilDiv(a, b) * b; }

/// A real SM of compute capability 7.5 to 9.0: 64K registers allocated per warp in units
/// of 256 from four sub-partitions, at most 255 per thread; shared memory allocated in
/// units of 256 B (7.x) or 128 B (8.x, 9.0), with 1 KiB reserved per block from 8.0 on
/// (the per-block opt-in limit is the SM's shared memory less that reserve).
OccupancyProfile hardware(const char* name, const char* summary, int major, int minor,
                          int threadsPerSm, int blocksPerSm, int smemPerSmKiB,
                          std::vector<int> carveoutsKiB)
{
    OccupancyProfile p;
    p.name = name;
    p.summary = summary;
    p.ccMajor = major;
    p.ccMinor = minor;
    p.maxThreadsPerSm = threadsPerSm;
    p.maxBlocksPerSm = blocksPerSm;
    p.regsPerSm = 64 * KiB;
    p.regsPerBlock = 64 * KiB;
    p.regAllocation = RegisterAllocation::PerWarp;
    p.regAllocUnit = 256;
    p.regSubPartitions = 4;
    p.smemPerSm = smemPerSmKiB * KiB;
    p.smemReservedPerBlock = major >= 8 ? KiB : 0;
    p.smemPerBlockOptin = p.smemPerSm - p.smemReservedPerBlock;
    p.smemAllocUnit = major >= 8 ? 128 : 256;
    for (int c : carveoutsKiB) p.smemCarveouts.push_back(c * KiB);
    return p;
}

/// The shared memory per SM the driver configures for a wish of `bytes`: the smallest
/// carve-out that holds it (the largest if none does; the fixed size if there is no choice).
int carveoutFor(const OccupancyProfile& p, long long bytes)
{
    for (int c : p.smemCarveouts)
        if (c >= bytes) return c;
    return p.smemCarveouts.empty() ? p.smemPerSm : p.smemCarveouts.back();
}

/// One sentence saying which resource leaves no room for a single block.
std::string whyNoBlock(const OccupancyProfile& p, const OccupancyInput& in, const Occupancy& o)
{
    std::ostringstream s;
    s << "No block fits on one SM of profile " << p.name << ": ";
    if (o.limits.registers && *o.limits.registers == 0) {
        s << "a block of " << in.blockThreads << " threads at " << in.regsPerThread
          << " registers per thread takes " << o.regsAllocatedPerBlock << " registers";
        if (p.regAllocation == RegisterAllocation::PerWarp)
            s << " (" << o.regsAllocatedPerBlock / o.warpsPerBlock << " per warp, allocated in units of "
              << p.regAllocUnit << ")";
        s << ", more than the " << std::min(p.regsPerBlock, p.regsPerSm) << " one block may hold.";
    } else if (o.limits.sharedMemory && *o.limits.sharedMemory == 0) {
        s << "a block takes " << o.smemAllocatedPerBlock << " bytes of shared memory, more than the "
          << o.smemPerSmConfigured << " an SM has.";
    } else {
        s << "a block of " << o.warpsPerBlock << " warps needs more than the " << p.maxWarpsPerSm()
          << " warp slots of an SM.";
    }
    return s.str();
}

double round3(double v) { return std::round(v * 1000.0) / 1000.0; }

}  // namespace

const char* limiterName(Limiter l)
{
    switch (l) {
    case Limiter::Registers: return "registers";
    case Limiter::SharedMemory: return "shared_memory";
    case Limiter::Threads: return "threads";
    case Limiter::Blocks: return "blocks";
    }
    return "blocks";
}

const std::vector<OccupancyProfile>& occupancyProfiles()
{
    static const std::vector<OccupancyProfile> list = [] {
        OccupancyProfile t;
        t.name = "textbook";
        t.summary = "The textbook SM (PMPP secs. 4.7 and 5.6, as the lecture examples size it): "
                    "1536 threads, 8 blocks, 16384 registers counted per thread, 16 KiB of shared memory.";
        t.maxThreadsPerSm = 1536;
        t.maxBlocksPerSm = 8;
        t.regsPerSm = 16384;
        t.regsPerBlock = 16384;
        t.regAllocation = RegisterAllocation::PerThread;
        t.smemPerSm = 16 * KiB;
        t.smemPerBlockOptin = 16 * KiB;
        // Carve-outs in KiB: CUDA C++ Programming Guide, shared memory of compute
        // capabilities 7.5, 8.0, 8.6/8.9 and 9.0.
        return std::vector<OccupancyProfile>{
            t,
            hardware("sm_75", "Turing (T4, RTX 20 series), compute capability 7.5.", 7, 5, 1024, 16, 64,
                     {32, 64}),
            hardware("sm_80", "Ampere A100 and A30, compute capability 8.0.", 8, 0, 2048, 32, 164,
                     {0, 8, 16, 32, 64, 100, 132, 164}),
            hardware("sm_86", "Ampere GA10x (RTX 30 series, A10, A40), compute capability 8.6.", 8, 6, 1536,
                     16, 100, {0, 8, 16, 32, 64, 100}),
            hardware("sm_89", "Ada Lovelace (RTX 40 series, L4, L40), compute capability 8.9.", 8, 9, 1536,
                     24, 100, {0, 8, 16, 32, 64, 100}),
            hardware("sm_90", "Hopper (H100, H200), compute capability 9.0.", 9, 0, 2048, 32, 228,
                     {0, 8, 16, 32, 64, 100, 132, 164, 196, 228}),
        };
    }();
    return list;
}

const OccupancyProfile* findOccupancyProfile(const std::string& name)
{
    for (const OccupancyProfile& p : occupancyProfiles())
        if (p.name == name) return &p;
    return nullptr;
}

std::string unknownProfileMessage(const std::string& name)
{
    std::ostringstream s;
    s << "Unknown occupancy profile '" << name << "'; known profiles are";
    for (const OccupancyProfile& p : occupancyProfiles()) s << " " << p.name << ",";
    s << " and current (the GPU in this machine).";
    return s.str();
}

OccupancyProfile currentProfile(const DeviceLimits& d)
{
    const std::string sm = "sm_" + std::to_string(d.ccMajor) + std::to_string(d.ccMinor);
    const OccupancyProfile* rules = findOccupancyProfile(sm);
    if (!rules) {
        std::ostringstream s;
        s << "The GPU " << d.name << " has compute capability " << d.ccMajor << "." << d.ccMinor
          << ", whose occupancy rules this model does not know (it knows 7.5, 8.0, 8.6, 8.9 and 9.0).";
        throw std::invalid_argument(s.str());
    }
    OccupancyProfile p = *rules;
    p.name = "current";
    p.summary = d.name + ", compute capability " + std::to_string(d.ccMajor) + "." +
                std::to_string(d.ccMinor) + " (limits from cudaGetDeviceProperties, allocation rules of " +
                sm + ").";
    p.warpSize = d.warpSize;
    p.maxThreadsPerBlock = d.maxThreadsPerBlock;
    p.maxThreadsPerSm = d.maxThreadsPerSm;
    p.maxBlocksPerSm = d.maxBlocksPerSm;
    p.regsPerSm = d.regsPerSm;
    p.regsPerBlock = d.regsPerBlock;
    p.smemPerSm = d.smemPerSm;
    p.smemPerBlockOptin = d.smemPerBlockOptin;
    p.smemReservedPerBlock = d.smemReservedPerBlock;
    return p;
}

std::string checkOccupancyInput(const OccupancyProfile& p, const OccupancyInput& in)
{
    std::ostringstream s;
    if (in.blockThreads < 1 || in.blockThreads > p.maxThreadsPerBlock)
        s << "Threads per block must be between 1 and " << p.maxThreadsPerBlock << " on profile " << p.name
          << "; got " << in.blockThreads << ".";
    else if (in.regsPerThread < 0 || in.regsPerThread > p.maxRegsPerThread)
        s << "Registers per thread must be between 0 and " << p.maxRegsPerThread << "; got "
          << in.regsPerThread << ".";
    else if (in.smemPerBlock < 0 || in.smemPerBlock > p.smemPerBlockOptin)
        s << "Shared memory per block must be between 0 and " << p.smemPerBlockOptin
          << " bytes on profile " << p.name << " (its per-block limit); got " << in.smemPerBlock << ".";
    else if (in.carveoutPercent && p.smemCarveouts.empty())
        s << "Profile " << p.name << " has a fixed " << p.smemPerSm
          << " bytes of shared memory per SM; a carve-out preference applies only to the sm_XX and "
             "current profiles.";
    else if (in.carveoutPercent && (*in.carveoutPercent < 0 || *in.carveoutPercent > 100))
        s << "The shared-memory carve-out preference must be between 0 and 100 percent; got "
          << *in.carveoutPercent << ".";
    return s.str();
}

Occupancy computeOccupancy(const OccupancyProfile& p, const OccupancyInput& in)
{
    if (std::string e = checkOccupancyInput(p, in); !e.empty()) throw std::invalid_argument(e);
    Occupancy o;
    const int warps = ceilDiv(in.blockThreads, p.warpSize);
    o.warpsPerBlock = warps;

    // Thread slots are taken a whole warp at a time; block slots one per block.
    o.limits.threads = p.maxWarpsPerSm() / warps;
    o.limits.blocks = p.maxBlocksPerSm;

    // Registers. Textbook: threads x registers per thread out of the SM's file (PMPP sec. 4.7).
    // Real SMs: each warp's registers are rounded up to the allocation unit and come from
    // one of the sub-partitions, so an SM holds (registers per sub-partition / registers per
    // warp) warps in each. The hardware refuses a block whose warps, rounded up to a multiple
    // of the sub-partitions, would need more than the per-block register limit.
    if (p.regAllocation == RegisterAllocation::PerThread) {
        o.regsAllocatedPerBlock = in.regsPerThread * in.blockThreads;
        if (o.regsAllocatedPerBlock > 0)
            o.limits.registers = o.regsAllocatedPerBlock > p.regsPerBlock ? 0 : p.regsPerSm / o.regsAllocatedPerBlock;
    } else {
        const int perWarp = roundUp(in.regsPerThread * p.warpSize, p.regAllocUnit);
        o.regsAllocatedPerBlock = perWarp * warps;
        if (perWarp > 0) {
            const int assumed = perWarp * roundUp(warps, p.regSubPartitions);
            const int warpsPerPart = p.regsPerSm / p.regSubPartitions / perWarp;
            o.limits.registers = (assumed > p.regsPerBlock || o.regsAllocatedPerBlock > p.regsPerBlock)
                                     ? 0
                                     : warpsPerPart * p.regSubPartitions / warps;
        }
    }

    // Shared memory: the block's bytes plus the driver's reserve, rounded up to the
    // allocation unit, out of the carve-out the driver configures: the preferred one (the
    // largest by default) if a block fits in it, else the smallest one a block fits in.
    o.smemAllocatedPerBlock = roundUp(in.smemPerBlock + p.smemReservedPerBlock, p.smemAllocUnit);
    const long long wish =
        in.carveoutPercent ? static_cast<long long>(*in.carveoutPercent) * p.smemPerSm / 100 : p.smemPerSm;
    o.smemPerSmConfigured = carveoutFor(p, wish);
    if (o.smemPerSmConfigured < o.smemAllocatedPerBlock)
        o.smemPerSmConfigured = carveoutFor(p, o.smemAllocatedPerBlock);
    if (o.smemAllocatedPerBlock > 0) {
        o.limits.sharedMemory = o.smemAllocatedPerBlock > o.smemPerSmConfigured
                                    ? 0
                                    : o.smemPerSmConfigured / o.smemAllocatedPerBlock;
    }

    o.blocksPerSm = std::min(o.limits.threads, o.limits.blocks);
    if (o.limits.registers) o.blocksPerSm = std::min(o.blocksPerSm, *o.limits.registers);
    if (o.limits.sharedMemory) o.blocksPerSm = std::min(o.blocksPerSm, *o.limits.sharedMemory);
    if (o.limits.registers == o.blocksPerSm) o.limiter = Limiter::Registers;
    else if (o.limits.sharedMemory == o.blocksPerSm) o.limiter = Limiter::SharedMemory;
    else if (o.limits.threads == o.blocksPerSm) o.limiter = Limiter::Threads;
    else o.limiter = Limiter::Blocks;

    o.threadsPerSm = o.blocksPerSm * in.blockThreads;
    o.warpsPerSm = o.blocksPerSm * warps;
    o.occupancy = static_cast<double>(o.warpsPerSm) / p.maxWarpsPerSm();
    if (o.blocksPerSm == 0) o.why = whyNoBlock(p, in, o);
    return o;
}

std::string occupancyJson(const OccupancyProfile& p, const Occupancy& o)
{
    using nlohmann::ordered_json;
    auto orNull = [](const std::optional<int>& v) { return v ? ordered_json(*v) : ordered_json(nullptr); };
    ordered_json j;
    j["profile"] = p.name;
    j["blocks_per_sm"] = o.blocksPerSm;
    j["threads_per_sm"] = o.threadsPerSm;
    j["warps_per_sm"] = o.warpsPerSm;
    j["occupancy"] = round3(o.occupancy);
    j["limiter"] = limiterName(o.limiter);
    j["limits"] = ordered_json{{"threads", o.limits.threads},
                               {"blocks", o.limits.blocks},
                               {"registers", orNull(o.limits.registers)},
                               {"shared_memory", orNull(o.limits.sharedMemory)}};
    j["allocated"] = ordered_json{{"warps_per_block", o.warpsPerBlock},
                                  {"registers_per_block", o.regsAllocatedPerBlock},
                                  {"shared_memory_per_block", o.smemAllocatedPerBlock},
                                  {"shared_memory_per_sm", o.smemPerSmConfigured}};
    return j.dump();
}

}  // namespace ts::sim
