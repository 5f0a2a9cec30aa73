// The occupancy calculator (sim/teaching/occupancy.hpp): the textbook figures of PMPP sec. 4.7 and
// sec. 5.6 (docs/references.md: register cliff, block slots, shared memory and threads per
// SM), the example of docs/cli.md, hand-derived cases
// of the real profiles, and a second count that fills an SM block by block.
#include <gtest/gtest.h>

#include <algorithm>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <vector>

#include "sim/teaching/occupancy.hpp"

namespace ts::sim {
namespace {

const OccupancyProfile& profile(const char* name)
{
    const OccupancyProfile* p = findOccupancyProfile(name);
    if (!p) throw std::logic_error(std::string("no profile ") + name);
    return *p;
}

Occupancy run(const char* name, int threads, int regs, int smem, std::optional<int> carveout = {})
{
    return computeOccupancy(profile(name), OccupancyInput{threads, regs, smem, carveout});
}

// ---- textbook: PMPP sec. 4.7, preset occupancy-seed004 --------------------------------

// 16x16 blocks, 10 registers per thread: 2560 registers per block, 16384 / 2560 = 6 blocks,
// 6 x 256 = 1536 threads. Threads allow 1536 / 256 = 6 as well: a tie, which the
// spec's rule gives to registers.
TEST(OccupancyTextbook, TenRegistersGiveSixBlocks)
{
    const Occupancy o = run("textbook", 256, 10, 0);
    EXPECT_EQ(o.blocksPerSm, 6);
    EXPECT_EQ(o.threadsPerSm, 1536);
    EXPECT_EQ(o.warpsPerSm, 48);
    EXPECT_DOUBLE_EQ(o.occupancy, 1.0);
    EXPECT_EQ(o.limits.registers, 6);
    EXPECT_EQ(o.limits.threads, 6);
    EXPECT_EQ(o.limiter, Limiter::Registers);
}

// 12 registers: 3072 per block, 16384 / 3072 = 5 blocks, 1280 threads: the performance
// cliff (warp parallelism down by 1/6).
TEST(OccupancyTextbook, TwelveRegistersGiveFiveBlocks)
{
    const Occupancy o = run("textbook", 256, 12, 0);
    EXPECT_EQ(o.blocksPerSm, 5);
    EXPECT_EQ(o.threadsPerSm, 1280);
    EXPECT_EQ(o.warpsPerSm, 40);
    EXPECT_EQ(o.limiter, Limiter::Registers);
    EXPECT_EQ(o.regsAllocatedPerBlock, 3072);
}

// 128-thread blocks: 1536 / 128 = 12 would fit the thread slots, but only 8 block slots
// exist, so 8 blocks and 1024 threads (Example: block slots).
TEST(OccupancyTextbook, SmallBlocksHitTheBlockSlots)
{
    const Occupancy o = run("textbook", 128, 4, 0);
    EXPECT_EQ(o.limits.threads, 12);
    EXPECT_EQ(o.limits.registers, 32);   // 16384 / (128 x 4)
    EXPECT_EQ(o.blocksPerSm, 8);
    EXPECT_EQ(o.threadsPerSm, 1024);
    EXPECT_EQ(o.limiter, Limiter::Blocks);
}

// TILE_WIDTH 16: Mds and Nds take 2 x 256 x 4 B = 2 KiB, so 16 KiB of shared memory allows
// 8 blocks (PMPP sec. 5.6). With no registers counted, the thread slots (6) limit.
TEST(OccupancyTextbook, TileWidth16SharedMemoryAllowsEightBlocks)
{
    const Occupancy o = run("textbook", 16 * 16, 0, 2 * 16 * 16 * 4);
    EXPECT_EQ(o.limits.sharedMemory, 8);
    EXPECT_FALSE(o.limits.registers.has_value());
    EXPECT_EQ(o.blocksPerSm, 6);
    EXPECT_EQ(o.limiter, Limiter::Threads);
}

// TILE_WIDTH 32: 8 KiB per block would allow 2 blocks, but 1024 threads of 1536 leave room
// for one block only (PMPP sec. 5.6). At 8 registers per thread the registers allow
// 16384 / 8192 = 2, so threads alone limit.
TEST(OccupancyTextbook, TileWidth32IsLimitedByThreads)
{
    for (int regs : {0, 8}) {
        const Occupancy o = run("textbook", 32 * 32, regs, 2 * 32 * 32 * 4);
        EXPECT_EQ(o.limits.sharedMemory, 2);
        EXPECT_EQ(o.limits.threads, 1);
        EXPECT_EQ(o.blocksPerSm, 1);
        EXPECT_EQ(o.threadsPerSm, 1024);
        EXPECT_EQ(o.limiter, Limiter::Threads) << regs << " registers";
    }
}

// Registers are counted per thread with no granularity: a 200-thread block at 10
// registers takes 2000, so 16384 / 2000 = 8; its 7 warps take 7 of the 48 warp slots, so
// threads allow 48 / 7 = 6.
TEST(OccupancyTextbook, RegistersPerThreadThreadSlotsPerWarp)
{
    const Occupancy o = run("textbook", 200, 10, 0);
    EXPECT_EQ(o.regsAllocatedPerBlock, 2000);
    EXPECT_EQ(o.limits.registers, 8);
    EXPECT_EQ(o.limits.threads, 6);
    EXPECT_EQ(o.blocksPerSm, 6);
    EXPECT_EQ(o.warpsPerSm, 42);
}

// 192 threads: 6 warps, 48 / 6 = 8 = the block slots; a tie goes to threads.
TEST(OccupancyTextbook, TieBetweenThreadsAndBlocksGoesToThreads)
{
    const Occupancy o = run("textbook", 192, 0, 0);
    EXPECT_EQ(o.blocksPerSm, 8);
    EXPECT_EQ(o.limiter, Limiter::Threads);
}

// 17 registers x 1024 threads = 17408 > 16384: not even one block.
TEST(OccupancyTextbook, TooManyRegistersForOneBlock)
{
    const Occupancy o = run("textbook", 1024, 17, 0);
    EXPECT_EQ(o.blocksPerSm, 0);
    EXPECT_EQ(o.limits.registers, 0);
    EXPECT_EQ(o.limiter, Limiter::Registers);
    EXPECT_NE(o.why.find("17408"), std::string::npos) << o.why;
}

// ---- the CLI spec's example -----------------------------------------------------------

TEST(OccupancyJson, SpecExample)
{
    const Occupancy o = run("textbook", 256, 12, 2048);
    const auto got = nlohmann::json::parse(occupancyJson(profile("textbook"), o));
    const auto want = nlohmann::json::parse(R"(
        {"profile": "textbook", "blocks_per_sm": 5, "threads_per_sm": 1280, "warps_per_sm": 40,
         "occupancy": 0.833, "limiter": "registers",
         "limits": {"threads": 6, "blocks": 8, "registers": 5, "shared_memory": 8}})");
    for (const auto& [key, value] : want.items()) EXPECT_EQ(got.at(key), value) << key;
    // Key order of the spec.
    const std::string text = occupancyJson(profile("textbook"), o);
    EXPECT_EQ(text.rfind("{\"profile\":\"textbook\",\"blocks_per_sm\":5,\"threads_per_sm\":1280,"
                         "\"warps_per_sm\":40,\"occupancy\":0.833,\"limiter\":\"registers\",\"limits\":"
                         "{\"threads\":6,\"blocks\":8,\"registers\":5,\"shared_memory\":8}",
                         0),
              0u)
        << text;
}

TEST(OccupancyJson, UnusedResourcesAreNull)
{
    const auto j = nlohmann::json::parse(occupancyJson(profile("textbook"), run("textbook", 256, 0, 0)));
    EXPECT_TRUE(j["limits"]["registers"].is_null());
    EXPECT_TRUE(j["limits"]["shared_memory"].is_null());
    EXPECT_EQ(j["limiter"], "threads");
}

// ---- real profiles, derived by hand ---------------------------------------------------
// Rules (CUDA C++ Programming Guide, compute capabilities; occupancy calculator):
//   warps per block w = ceil(threads / 32); threads limit = max warps per SM / w.
//   registers: per warp r = roundup(32 x regs, 256); each of 4 sub-partitions holds
//     floor(16384 / r) warps; limit = 4 x floor(16384 / r) / w.
//   shared memory: per block s = roundup(bytes + reserve, unit) (reserve 1 KiB and unit
//     128 B from 8.0, none and 256 B on 7.5); limit = carve-out / s, the carve-out being
//     the largest unless a preference is set.

// sm_90, TILE_WIDTH 16 as compiled for sm_90 (docs/design.md: 32 registers, 2048 B):
//   w = 8, threads 64 / 8 = 8; r = 1024, 16384 / 1024 = 16 per part, 64 / 8 = 8;
//   s = 2048 + 1024 = 3072, 233472 / 3072 = 76; blocks 32. -> 8, tie registers/threads
//   -> registers; 64 warps, occupancy 1.
TEST(OccupancySm, Sm90TileWidth16)
{
    const Occupancy o = run("sm_90", 256, 32, 2048);
    EXPECT_EQ(o.limits.threads, 8);
    EXPECT_EQ(o.limits.registers, 8);
    EXPECT_EQ(o.limits.sharedMemory, 76);
    EXPECT_EQ(o.limits.blocks, 32);
    EXPECT_EQ(o.blocksPerSm, 8);
    EXPECT_EQ(o.limiter, Limiter::Registers);
    EXPECT_DOUBLE_EQ(o.occupancy, 1.0);
    EXPECT_EQ(o.smemAllocatedPerBlock, 3072);
}

// sm_90, 96 threads, 40 registers: w = 3; r = 1280 (already a multiple of 256);
//   16384 / 1280 = 12.8 -> 12 warps per part, 48 per SM, 48 / 3 = 16 blocks. Counting the
//   register file as one pool would give 65536 / 1280 = 51 warps and 17 blocks: the
//   sub-partitions cost a block. Threads 64 / 3 = 21, blocks 32 -> 16, registers.
TEST(OccupancySm, Sm90RegisterSubPartitions)
{
    const Occupancy o = run("sm_90", 96, 40, 0);
    EXPECT_EQ(o.limits.registers, 16);
    EXPECT_EQ(o.limits.threads, 21);
    EXPECT_EQ(o.blocksPerSm, 16);
    EXPECT_EQ(o.limiter, Limiter::Registers);
    // 33 registers round up to the same 1280 per warp.
    EXPECT_EQ(run("sm_90", 96, 33, 0).limits.registers, 16);
}

// sm_90, 1024 threads: 64 registers give r = 2048, 8 warps per part, 32 per SM: 1 block.
//   65 registers give r = 2080 -> 2304 and 32 x 2304 = 73728 > 65536: no block at all.
TEST(OccupancySm, Sm90RegisterCliffToZero)
{
    EXPECT_EQ(run("sm_90", 1024, 64, 0).blocksPerSm, 1);
    const Occupancy o = run("sm_90", 1024, 65, 0);
    EXPECT_EQ(o.blocksPerSm, 0);
    EXPECT_EQ(o.regsAllocatedPerBlock, 73728);
    EXPECT_FALSE(o.why.empty());
}

// sm_75, 128 threads, 64 registers, 20000 B: w = 4, threads 32 / 4 = 8; r = 2048, 8 per
//   part, 32 / 4 = 8; s = roundup(20000, 256) = 20224 (no reserve on 7.5),
//   65536 / 20224 = 3; blocks 16 -> 3, shared memory; 12 of 32 warps = 0.375.
TEST(OccupancySm, Sm75SharedMemoryGranularity256)
{
    const Occupancy o = run("sm_75", 128, 64, 20000);
    EXPECT_EQ(o.smemAllocatedPerBlock, 20224);
    EXPECT_EQ(o.limits.sharedMemory, 3);
    EXPECT_EQ(o.limits.registers, 8);
    EXPECT_EQ(o.limits.threads, 8);
    EXPECT_EQ(o.blocksPerSm, 3);
    EXPECT_EQ(o.limiter, Limiter::SharedMemory);
    EXPECT_DOUBLE_EQ(o.occupancy, 0.375);
}

// sm_80, 256 threads, 32 registers, 48 KiB: s = 49152 + 1024 = 50176 (a multiple of 128),
//   167936 / 50176 = 3; threads 64 / 8 = 8, registers 8 -> 3, shared memory.
TEST(OccupancySm, Sm80ReservePerBlock)
{
    const Occupancy o = run("sm_80", 256, 32, 48 * 1024);
    EXPECT_EQ(o.smemAllocatedPerBlock, 50176);
    EXPECT_EQ(o.limits.sharedMemory, 3);
    EXPECT_EQ(o.blocksPerSm, 3);
    EXPECT_EQ(o.limiter, Limiter::SharedMemory);
}

// sm_86, 1 byte: s = roundup(1 + 1024, 128) = 1152, 102400 / 1152 = 88.
TEST(OccupancySm, Sm86SharedMemoryGranularity128)
{
    const Occupancy o = run("sm_86", 64, 16, 1);
    EXPECT_EQ(o.smemAllocatedPerBlock, 1152);
    EXPECT_EQ(o.limits.sharedMemory, 88);
}

// 64 threads, 16 registers, no shared memory: w = 2; r = 512, 32 per part, 128 / 2 = 64;
//   sm_86: threads 48 / 2 = 24, blocks 16 -> 16, blocks. sm_89: blocks 24 = threads 24 ->
//   24, tie to threads. The reserve alone gives 102400 / 1024 = 100 blocks.
TEST(OccupancySm, Sm86AndSm89DifferInBlockSlots)
{
    const Occupancy a = run("sm_86", 64, 16, 0);
    EXPECT_EQ(a.limits.registers, 64);
    EXPECT_EQ(a.limits.sharedMemory, 100);
    EXPECT_EQ(a.blocksPerSm, 16);
    EXPECT_EQ(a.limiter, Limiter::Blocks);
    const Occupancy b = run("sm_89", 64, 16, 0);
    EXPECT_EQ(b.blocksPerSm, 24);
    EXPECT_EQ(b.limiter, Limiter::Threads);
}

// Carve-out preference on sm_90, 256 threads, 32 registers, 2048 B (s = 3072):
//   50 %: 233472 x 50 / 100 = 116736 -> next carve-out 132 KiB = 135168, 135168 / 3072 = 44.
//   0 %: carve-out 0 holds no block, so the driver takes the smallest that does, 8 KiB:
//   8192 / 3072 = 2 blocks, limited by shared memory.
// sm_75 has no 0 carve-out: 0 % gives 32 KiB; 20224 B blocks -> 1.
TEST(OccupancySm, CarveoutPreference)
{
    EXPECT_EQ(run("sm_90", 256, 32, 2048).smemPerSmConfigured, 233472);
    const Occupancy half = run("sm_90", 256, 32, 2048, 50);
    EXPECT_EQ(half.smemPerSmConfigured, 135168);
    EXPECT_EQ(half.limits.sharedMemory, 44);
    EXPECT_EQ(half.blocksPerSm, 8);
    const Occupancy none = run("sm_90", 256, 32, 2048, 0);
    EXPECT_EQ(none.smemPerSmConfigured, 8192);
    EXPECT_EQ(none.blocksPerSm, 2);
    EXPECT_EQ(none.limiter, Limiter::SharedMemory);
    const Occupancy turing = run("sm_75", 128, 64, 20000, 0);
    EXPECT_EQ(turing.smemPerSmConfigured, 32768);
    EXPECT_EQ(turing.blocksPerSm, 1);
}

// The largest block shared memory the opt-in allows still fits exactly once.
TEST(OccupancySm, PerBlockLimitFitsOnce)
{
    EXPECT_EQ(run("sm_90", 128, 32, 232448).blocksPerSm, 1);
    EXPECT_EQ(run("sm_80", 128, 32, 166912).blocksPerSm, 1);
    EXPECT_EQ(run("sm_86", 128, 32, 101376).blocksPerSm, 1);
    EXPECT_EQ(run("sm_75", 128, 32, 65536).blocksPerSm, 1);
}

// ---- a second count: fill one SM block by block ------------------------------------------

/// Adds blocks to an empty SM one at a time while every resource has room: warp slots,
/// block slots, shared memory of the largest carve-out, and registers (textbook: one
/// pool; real: each warp into the sub-partition with the most registers free).
int fillSm(const OccupancyProfile& p, const OccupancyInput& in)
{
    const int warps = (in.blockThreads + 31) / 32;
    const int smem = in.smemPerBlock + p.smemReservedPerBlock;
    const int smemBlock = (smem + p.smemAllocUnit - 1) / p.smemAllocUnit * p.smemAllocUnit;
    int freeWarps = p.maxWarpsPerSm(), freeSmem = p.smemPerSm, blocks = 0;
    std::vector<int> parts(p.regSubPartitions, p.regsPerSm / p.regSubPartitions);
    const int perWarp = (in.regsPerThread * 32 + p.regAllocUnit - 1) / p.regAllocUnit * p.regAllocUnit;
    while (blocks < p.maxBlocksPerSm && freeWarps >= warps && freeSmem >= smemBlock) {
        std::vector<int> after = parts;
        if (p.regAllocation == RegisterAllocation::PerThread) {
            after[0] -= in.regsPerThread * in.blockThreads;
            if (after[0] < 0) break;
        } else {
            bool fits = true;
            for (int w = 0; w < warps && fits; ++w) {
                int& most = *std::max_element(after.begin(), after.end());
                fits = most >= perWarp;
                most -= perWarp;
            }
            if (!fits) break;
        }
        parts = after;
        freeWarps -= warps;
        freeSmem -= smemBlock;
        ++blocks;
    }
    return blocks;
}

TEST(OccupancySecondCount, FillingTheSmAgrees)
{
    int cases = 0;
    for (const OccupancyProfile& p : occupancyProfiles())
        for (int threads : {1, 32, 33, 64, 96, 100, 128, 192, 200, 256, 320, 384, 512, 640, 768, 1000, 1024})
            for (int regs : {0, 1, 8, 10, 12, 16, 24, 32, 33, 40, 48, 56, 64, 72, 96, 128, 200, 255})
                for (int smem : {0, 1, 100, 2048, 3000, 8192, 16384}) {
                    const OccupancyInput in{threads, regs, smem, {}};
                    const Occupancy o = computeOccupancy(p, in);
                    ASSERT_EQ(o.blocksPerSm, fillSm(p, in))
                        << p.name << " threads " << threads << " regs " << regs << " smem " << smem;
                    ++cases;
                }
    EXPECT_EQ(cases, 6 * 17 * 18 * 7);
}

// ---- current ------------------------------------------------------------------------------

/// What cudaGetDeviceProperties reports for an H100 SXM.
DeviceLimits h100()
{
    DeviceLimits d;
    d.name = "NVIDIA H100 80GB HBM3";
    d.ccMajor = 9;
    d.ccMinor = 0;
    d.maxThreadsPerBlock = 1024;
    d.maxThreadsPerSm = 2048;
    d.maxBlocksPerSm = 32;
    d.regsPerSm = 65536;
    d.regsPerBlock = 65536;
    d.smemPerSm = 233472;
    d.smemPerBlockOptin = 232448;
    d.smemReservedPerBlock = 1024;
    return d;
}

TEST(OccupancyCurrent, DeviceLimitsOfAnH100MatchSm90)
{
    const OccupancyProfile cur = currentProfile(h100());
    EXPECT_EQ(cur.name, "current");
    for (int threads = 32; threads <= 1024; threads += 32)
        for (int regs : {16, 32, 40, 64, 128})
            for (int smem : {0, 2048, 8192, 40000})
                for (std::optional<int> carve : {std::optional<int>{}, std::optional<int>{0}, std::optional<int>{50}}) {
                    const OccupancyInput in{threads, regs, smem, carve};
                    EXPECT_EQ(computeOccupancy(cur, in).blocksPerSm,
                              computeOccupancy(profile("sm_90"), in).blocksPerSm);
                }
}

TEST(OccupancyCurrent, DeviceLimitsAreUsed)
{
    DeviceLimits d = h100();
    d.maxBlocksPerSm = 4;   // a made-up device: its own numbers, not sm_90's, decide
    EXPECT_EQ(computeOccupancy(currentProfile(d), OccupancyInput{32, 8, 0, {}}).blocksPerSm, 4);
}

TEST(OccupancyCurrent, UnknownComputeCapabilityIsRefused)
{
    DeviceLimits d = h100();
    d.ccMajor = 12;
    try {
        currentProfile(d);
        FAIL() << "no error";
    } catch (const std::invalid_argument& e) {
        EXPECT_NE(std::string(e.what()).find("12.0"), std::string::npos) << e.what();
    }
}

// ---- bad input: one sentence each ---------------------------------------------------------

TEST(OccupancyErrors, OneSentenceEach)
{
    auto error = [](const char* name, OccupancyInput in) { return checkOccupancyInput(profile(name), in); };
    EXPECT_NE(error("sm_90", {0, 32, 0, {}}).find("between 1 and 1024"), std::string::npos);
    EXPECT_NE(error("sm_90", {1025, 32, 0, {}}).find("got 1025"), std::string::npos);
    EXPECT_NE(error("sm_90", {256, 256, 0, {}}).find("between 0 and 255"), std::string::npos);
    EXPECT_NE(error("sm_90", {256, -1, 0, {}}).find("got -1"), std::string::npos);
    EXPECT_NE(error("sm_90", {256, 32, 232449, {}}).find("232448"), std::string::npos);
    EXPECT_NE(error("sm_75", {256, 32, 65537, {}}).find("65536"), std::string::npos);
    EXPECT_NE(error("textbook", {256, 32, 16385, {}}).find("16384"), std::string::npos);
    EXPECT_NE(error("textbook", {256, 32, 0, 50}).find("fixed"), std::string::npos);
    EXPECT_NE(error("sm_90", {256, 32, 0, 101}).find("got 101"), std::string::npos);
    EXPECT_EQ(error("sm_90", {1024, 255, 232448, 100}), "");
    EXPECT_THROW(run("sm_90", 0, 0, 0), std::invalid_argument);
    EXPECT_EQ(findOccupancyProfile("sm_70"), nullptr);
    EXPECT_EQ(unknownProfileMessage("sm_70"),
              "Unknown occupancy profile 'sm_70'; known profiles are textbook, sm_75, sm_80, sm_86, "
              "sm_89, sm_90, and current (the GPU in this machine).");
}

}  // namespace
}  // namespace ts::sim
