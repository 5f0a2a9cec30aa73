// Occupancy: how many blocks of a kernel one SM runs at once, given what each block takes
// from the SM's registers, shared memory, thread (warp) slots and block slots.
// PMPP sec. 4.7 (SM resources are partitioned among blocks at run time; 10 -> 12 registers
// per thread take 16x16 blocks from 6 to 5 per SM) and sec. 5.6 (TILE_WIDTH 16 against 32
// on an SM with 16 KiB of shared memory and 1536 threads). The real profiles follow the
// CUDA C++ Programming Guide, "Compute Capabilities" (technical specifications per compute
// capability, shared-memory carve-outs of 7.x, 8.x and 9.0) and the occupancy rules of the
// CUDA occupancy calculator (cuda_occupancy.h of CUDA 13.0), which
// cudaOccupancyMaxActiveBlocksPerMultiprocessor follows. No UI, no CUDA.
#pragma once
#include <optional>
#include <string>
#include <vector>

namespace ts::sim {

/// How an SM hands its registers to blocks.
enum class RegisterAllocation {
    PerThread,  ///< textbook (PMPP sec. 4.7): a block takes exactly threads x registers per thread
    PerWarp,    ///< real GPUs: each warp takes 32 x registers per thread rounded up to the
                ///< allocation unit, from one of the SM's register-file sub-partitions
};

/// The resources of one SM that decide occupancy, and how they are allocated.
/// Counts are per SM unless the name says per block; sizes are bytes.
struct OccupancyProfile {
    std::string name;                  ///< "textbook", "sm_75" ... "sm_90", "current"
    std::string summary;               ///< one line: which GPUs, where the figures come from
    int ccMajor = 0, ccMinor = 0;      ///< compute capability; 0.0 for textbook
    int warpSize = 32;
    int maxThreadsPerBlock = 1024;
    int maxThreadsPerSm = 0;           ///< thread slots (taken a whole warp at a time)
    int maxBlocksPerSm = 0;            ///< block slots
    int regsPerSm = 0;                 ///< 32-bit registers in the register file
    int regsPerBlock = 0;              ///< most registers one block may hold
    int maxRegsPerThread = 255;
    RegisterAllocation regAllocation = RegisterAllocation::PerWarp;
    int regAllocUnit = 1;              ///< registers per warp are rounded up to a multiple
    int regSubPartitions = 1;          ///< a warp's registers come from one of these parts
    int smemPerSm = 0;                 ///< bytes of shared memory at the largest carve-out
    int smemPerBlockOptin = 0;         ///< most a block may use (above 48 KiB after the
                                       ///< cudaFuncAttributeMaxDynamicSharedMemorySize opt-in)
    int smemReservedPerBlock = 0;      ///< bytes the driver reserves per block (1 KiB, sm_80+)
    int smemAllocUnit = 1;             ///< per-block shared memory is rounded up to a multiple
    std::vector<int> smemCarveouts;    ///< shared-memory sizes per SM the driver can configure,
                                       ///< ascending; empty: fixed at smemPerSm

    int maxWarpsPerSm() const { return maxThreadsPerSm / warpSize; }
};

/// One question to the calculator: a block of `blockThreads` threads, each using
/// `regsPerThread` registers, the block using `smemPerBlock` bytes of shared memory
/// (static + dynamic). `carveoutPercent` is the kernel's preferred shared-memory carve-out
/// (cudaFuncAttributePreferredSharedMemoryCarveout, 0..100); none: the driver's default,
/// the largest carve-out.
struct OccupancyInput {
    int blockThreads = 256;
    int regsPerThread = 0;
    int smemPerBlock = 0;
    std::optional<int> carveoutPercent;
};

/// The resource that limits the blocks per SM.
enum class Limiter { Registers, SharedMemory, Threads, Blocks };

/// "registers", "shared_memory", "threads", "blocks" (the names of the CLI spec).
const char* limiterName(Limiter l);

/// Blocks per SM that each resource alone allows. A resource the block does not use
/// (0 registers, 0 bytes of shared memory) has no limit.
struct OccupancyLimits {
    std::optional<int> registers;
    std::optional<int> sharedMemory;
    int threads = 0;
    int blocks = 0;
};

/// The answer: blocks, threads and warps resident on one SM, and why.
struct Occupancy {
    int blocksPerSm = 0;
    int threadsPerSm = 0;              ///< blocksPerSm x threads per block
    int warpsPerSm = 0;                ///< blocksPerSm x warps per block
    double occupancy = 0;              ///< warpsPerSm / the profile's maximum warps per SM
    Limiter limiter = Limiter::Blocks; ///< the first of registers, shared memory, threads,
                                       ///< blocks whose limit equals blocksPerSm
    OccupancyLimits limits;
    int warpsPerBlock = 0;
    int regsAllocatedPerBlock = 0;     ///< after per-warp rounding (textbook: exact)
    int smemAllocatedPerBlock = 0;     ///< with the per-block reserve, rounded up
    int smemPerSmConfigured = 0;       ///< the carve-out the driver would pick for this launch
    std::string why;                   ///< when blocksPerSm is 0: one sentence saying why
};

/// The built-in profiles: textbook, sm_75, sm_80, sm_86, sm_89, sm_90 (in that order).
const std::vector<OccupancyProfile>& occupancyProfiles();

/// The built-in profile called `name`, or nullptr ("current" is not built in: see
/// currentProfile()).
const OccupancyProfile* findOccupancyProfile(const std::string& name);

/// One sentence naming every profile, for an unknown name: "Unknown occupancy profile
/// 'x'; known profiles are ...".
std::string unknownProfileMessage(const std::string& name);

/// The numbers of cudaDeviceProp that occupancy depends on (field for field, bytes for
/// sizes), filled by the GPU path (gpu/gpu_occupancy.hpp).
struct DeviceLimits {
    std::string name;                  ///< cudaDeviceProp::name
    int ccMajor = 0, ccMinor = 0;      ///< major, minor
    int warpSize = 32;
    int maxThreadsPerBlock = 0;
    int maxThreadsPerSm = 0;           ///< maxThreadsPerMultiProcessor
    int maxBlocksPerSm = 0;            ///< maxBlocksPerMultiProcessor
    int regsPerSm = 0;                 ///< regsPerMultiprocessor
    int regsPerBlock = 0;
    int smemPerSm = 0;                 ///< sharedMemPerMultiprocessor
    int smemPerBlockOptin = 0;         ///< sharedMemPerBlockOptin
    int smemReservedPerBlock = 0;      ///< reservedSharedMemPerBlock
};

/// The `current` profile: the device's own limits, with the allocation rules (register
/// unit and sub-partitions, shared-memory unit, carve-out sizes) of its compute capability,
/// which must be one of the built-in sm_XX profiles'. Throws std::invalid_argument with
/// one sentence for any other compute capability.
OccupancyProfile currentProfile(const DeviceLimits& d);

/// Checks an input against a profile: an empty string if it is valid, else one sentence
/// (threads per block 1..maxThreadsPerBlock, registers per thread 0..maxRegsPerThread,
/// shared memory 0..smemPerBlockOptin bytes, carve-out 0..100 and only where the profile
/// has carve-outs).
std::string checkOccupancyInput(const OccupancyProfile& p, const OccupancyInput& in);

/// Blocks per SM and each resource's limit. Real profiles follow the rules of
/// cudaOccupancyMaxActiveBlocksPerMultiprocessor for a kernel that opted in to the
/// profile's per-block shared-memory limit (one block barrier, which never limits on
/// these profiles). Throws std::invalid_argument with checkOccupancyInput()'s sentence.
Occupancy computeOccupancy(const OccupancyProfile& p, const OccupancyInput& in);

/// The CLI's JSON object for a result (spec: docs/cli.md, "tilescope-cli
/// occupancy"), compact, occupancy rounded to 3 decimals, plus an "allocated" object with
/// the per-block registers and shared memory and the carve-out used.
std::string occupancyJson(const OccupancyProfile& p, const Occupancy& o);

}  // namespace ts::sim
