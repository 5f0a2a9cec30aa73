// Warp shuffles and __syncwarp in the simulator (ThreadContext::shfl_sync and its kin): the
// values each lane receives, checked against what CUDA's rules give lane by lane and against
// closed forms (a butterfly sum is the total, an up-shuffle scan is the triangular numbers),
// the faults CUDA leaves undefined, and the hazard detector's view of __syncwarp.
#include <gtest/gtest.h>

#include <functional>
#include <numeric>
#include <string>
#include <vector>

#include "kernels/context.cuh"
#include "sim/engine/machine.hpp"

namespace ts::test {
namespace {

using sim::ThreadContext;

constexpr unsigned kFull = 0xffffffffu;

/// Runs `body` over one block of `threads` threads; the fault's sentence, or "".
std::string run(sim::Machine& m, unsigned threads, const std::function<void(ThreadContext&)>& body)
{
    sim::LaunchConfig cfg;
    cfg.grid = {1, 1, 1};
    cfg.block = {threads, 1, 1};
    try {
        sim::runGrid(m, cfg, body);
    } catch (const sim::KernelFault& f) {
        return f.what();
    }
    return "";
}

/// A lane's value before any shuffle: distinct, non-zero, not the lane number itself.
int valueOf(unsigned lane) { return static_cast<int>(3 * lane + 7); }

TEST(WarpShuffle, DownUpXorAndIndexFollowCudasRulesAtEveryWidth)
{
    for (int width : {32, 16, 8, 4, 2, 1})
        for (unsigned d : {1u, 2u, 5u, 16u}) {
            std::vector<int> down(32), up(32), bfly(32), idx(32);
            sim::Machine m;
            ASSERT_EQ(run(m, 32, [&](ThreadContext& x) {
                          const unsigned l = x.threadIdx.x;
                          down[l] = x.shfl_down_sync(kFull, valueOf(l), d, width);
                          up[l] = x.shfl_up_sync(kFull, valueOf(l), d, width);
                          bfly[l] = x.shfl_xor_sync(kFull, valueOf(l), static_cast<int>(d), width);
                          idx[l] = x.shfl_sync(kFull, valueOf(l), static_cast<int>(d) + 35, width);
                      }),
                      "");
            for (unsigned l = 0; l < 32; ++l) {
                const unsigned w = static_cast<unsigned>(width), pos = l % w, start = l - pos;
                // The CUDA C++ Programming Guide's rules, written out per lane.
                EXPECT_EQ(down[l], valueOf(pos + d < w ? l + d : l)) << "down width " << width << " d " << d << " lane " << l;
                EXPECT_EQ(up[l], valueOf(pos >= d ? l - d : l)) << "up width " << width << " d " << d << " lane " << l;
                const unsigned x = l ^ d;
                EXPECT_EQ(bfly[l], valueOf(x < start + w ? x : l)) << "xor width " << width << " d " << d << " lane " << l;
                EXPECT_EQ(idx[l], valueOf(start + (d + 35) % w)) << "index width " << width << " lane " << l;
            }
        }
}

TEST(WarpShuffle, ButterflySumGivesEveryLaneTheTotal)
{
    std::vector<float> got(64);
    sim::Machine m;
    ASSERT_EQ(run(m, 64, [&](ThreadContext& x) {
                  float v = static_cast<float>(x.threadIdx.x + 1);
                  for (int mask = 16; mask > 0; mask /= 2) v += x.shfl_xor_sync(kFull, v, mask);
                  got[x.threadIdx.x] = v;
              }),
              "");
    for (unsigned t = 0; t < 32; ++t) EXPECT_EQ(got[t], 528.0f) << t;         // 1 + ... + 32
    for (unsigned t = 32; t < 64; ++t) EXPECT_EQ(got[t], 1552.0f) << t;       // 33 + ... + 64
}

TEST(WarpShuffle, UpShuffleScanGivesTheTriangularNumbers)
{
    std::vector<unsigned> got(32);
    sim::Machine m;
    ASSERT_EQ(run(m, 32, [&](ThreadContext& x) {
                  const unsigned l = x.threadIdx.x;
                  unsigned v = l + 1;
                  for (unsigned d = 1; d < 32; d *= 2) {
                      const unsigned below = x.shfl_up_sync(kFull, v, d);
                      if (l >= d) v += below;
                  }
                  got[l] = v;
              }),
              "");
    for (unsigned l = 0; l < 32; ++l) EXPECT_EQ(got[l], (l + 1) * (l + 2) / 2) << l;
}

TEST(WarpShuffle, WarpsOfABlockShuffleBetweenBarriers)
{
    // Two warps, a shuffle, a barrier, another shuffle: each warp meets on its own.
    std::vector<float> got(64);
    sim::Machine m;
    ASSERT_EQ(run(m, 64, [&](ThreadContext& x) {
                  const unsigned t = x.threadIdx.x;
                  float v = x.shfl_sync(kFull, static_cast<float>(t), 0);   // lane 0's thread index
                  x.syncthreads();
                  v += x.shfl_down_sync(kFull, static_cast<float>(t), 1);
                  got[t] = v;
              }),
              "");
    for (unsigned t = 0; t < 64; ++t) {
        const unsigned lane = t % 32;
        EXPECT_EQ(got[t], static_cast<float>(t - lane) + static_cast<float>(lane < 31 ? t + 1 : t)) << t;
    }
}

TEST(WarpShuffle, ExitedLanesMayBeNamedButNotRead)
{
    sim::Machine m;
    // Lanes 16..31 have returned; a full mask still names them, which CUDA allows, and the
    // lower half shuffles among itself.
    std::vector<int> got(32, -1);
    EXPECT_EQ(run(m, 32, [&](ThreadContext& x) {
                  const unsigned l = x.threadIdx.x;
                  if (l >= 16) return;
                  got[l] = x.shfl_xor_sync(kFull, valueOf(l), 1);
              }),
              "");
    for (unsigned l = 0; l < 16; ++l) EXPECT_EQ(got[l], valueOf(l ^ 1u)) << l;
    // Reading one of them is not.
    sim::Machine m2;
    const std::string f = run(m2, 32, [&](ThreadContext& x) {
        if (x.threadIdx.x >= 16) return;
        (void)x.shfl_down_sync(kFull, 1.0f, 8);
    });
    EXPECT_NE(f.find("reads lane 16 through the __shfl_down_sync on line"), std::string::npos) << f;
    EXPECT_NE(f.find("has exited"), std::string::npos) << f;
    EXPECT_EQ(f.find("thread (tx=8, ty=0) of block (0, 0)"), 0u) << f;
}

TEST(WarpShuffle, FaultsNameTheLineAndTheLane)
{
    {   // The caller's own lane missing from the mask.
        sim::Machine m;
        const unsigned line = __LINE__ + 1;
        const std::string f = run(m, 32, [&](ThreadContext& x) { (void)x.shfl_down_sync(0xfffffffeu, 1, 1); });
        EXPECT_EQ(f, "thread (tx=0, ty=0) of block (0, 0) (lane 0) calls __shfl_down_sync on line " + std::to_string(line) +
                         " with mask 0xfffffffe, which does not name its own lane: every lane that calls it must be in its mask.");
    }
    {   // A lane of the mask waits at a barrier instead.
        sim::Machine m;
        const unsigned line = __LINE__ + 3;
        const std::string f = run(m, 32, [&](ThreadContext& x) {
            if (x.threadIdx.x == 31) x.syncthreads();
            else (void)x.shfl_down_sync(kFull, 1.0f, 1);
        });
        EXPECT_NE(f.find("waits at the __shfl_down_sync on line " + std::to_string(line) + " (mask 0xffffffff) for lane 31, which "
                         "waits at the __syncthreads() on line " + std::to_string(line - 1)),
                  std::string::npos)
            << f;
    }
    {   // Two halves at different shuffles, each naming the whole warp.
        sim::Machine m;
        const std::string f = run(m, 32, [&](ThreadContext& x) {
            if (x.threadIdx.x < 16) (void)x.shfl_xor_sync(kFull, 1, 1);
            else (void)x.shfl_xor_sync(kFull, 2, 1);
        });
        EXPECT_NE(f.find("every lane named in the mask must reach the same __shfl_xor_sync with the same mask"), std::string::npos)
            << f;
    }
    {   // A source outside the mask.
        sim::Machine m;
        const std::string f = run(m, 32, [&](ThreadContext& x) {
            if (x.threadIdx.x < 16) (void)x.shfl_down_sync(0x0000ffffu, 1.0f, 8);
        });
        EXPECT_NE(f.find("reads lane 16"), std::string::npos) << f;
        EXPECT_NE(f.find("is not in the mask"), std::string::npos) << f;
    }
    {   // A partial warp: the block's last warp has lanes 0..15 only.
        sim::Machine m;
        const std::string f = run(m, 48, [&](ThreadContext& x) { (void)x.shfl_down_sync(kFull, 1.0f, 8); });
        EXPECT_EQ(f.find("thread (tx=40, ty=0) of block (0, 0) reads lane 16"), 0u) << f;
        EXPECT_NE(f.find("does not exist in this block"), std::string::npos) << f;
    }
    {   // A width that is not a power of two.
        sim::Machine m;
        const std::string f = run(m, 32, [&](ThreadContext& x) { (void)x.shfl_sync(kFull, 1, 0, 12); });
        EXPECT_NE(f.find("with width 12, which is not a power of two from 1 to 32."), std::string::npos) << f;
    }
}

/// Lane l writes s[l], then reads its neighbour's slot, with or without __syncwarp between.
template <bool SYNCWARP, class X>
void neighbourExchange(X& x, std::vector<float>& out)
{
    TS_SHARED_1D(float, s, 64);
    const unsigned t = x.threadIdx.x;
    s[t] = static_cast<float>(t) + 0.5f;
    if constexpr (SYNCWARP) x.syncwarp();
    out[t] = s[t / 32 * 32 + (t + 1) % 32];
}

TEST(WarpShuffle, SyncwarpOrdersSharedMemoryWithinTheWarp)
{
    std::vector<float> out(64);
    sim::Machine with;
    ASSERT_EQ(run(with, 64, [&](ThreadContext& x) { neighbourExchange<true>(x, out); }), "");
    EXPECT_EQ(with.hazards.raw + with.hazards.war + with.hazards.waw, 0u);
    EXPECT_EQ(out[31], 0.5f);   // lane 31 reads lane 0's slot
    EXPECT_EQ(out[32 + 5], 38.5f);
    // Without it, lane l reads a slot lane l + 1 writes after it in the schedule: the
    // detector reports the pairs (lanes run in order, so 31 of each warp's 32 reads come
    // before the write; lane 31 reads lane 0's slot, written before it).
    sim::Machine without;
    ASSERT_EQ(run(without, 64, [&](ThreadContext& x) { neighbourExchange<false>(x, out); }), "");
    EXPECT_EQ(without.hazards.raw + without.hazards.war, 64u);
}

}  // namespace
}  // namespace ts::test
