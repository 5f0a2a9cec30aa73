#include "sim/engine/machine.hpp"

#include "sim/engine/fiber.hpp"
#include "sim/engine/machine_stacks.hpp"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <limits>
#include <memory>
#include <mutex>
#include <optional>
#include <random>
#include <sstream>
#include <stdexcept>
#include <utility>

#include <tbb/blocked_range.h>
#include <tbb/enumerable_thread_specific.h>
#include <tbb/global_control.h>
#include <tbb/info.h>
#include <tbb/parallel_for.h>
#include <tbb/task_arena.h>

namespace ts::sim {

using namespace machine_detail;

namespace {

struct BlockRun;

/// One simulated thread's fiber. `cont` holds the fiber's continuation while it is parked
/// (or, before its first run, the fiber itself).
struct FiberState {
    ctx::fiber cont;
    BlockRun* run = nullptr;
    bool done = false;
    bool waiting = false;
    uint32_t ordinal = 0;   ///< Machine::ordinal while parked
    uint64_t reads = 0;     ///< Machine::reads while parked
    uint8_t unrolled = 0;   ///< Machine::unrolled while parked
    unsigned barrierLine = 0;   ///< the __syncthreads() it waits at (while `waiting`, not atWarp)
    // A warp rendezvous (ThreadContext::warpExchange) it waits at, while `atWarp`.
    bool atWarp = false;
    ThreadContext::WarpOp warpOp = ThreadContext::WarpOp::Sync;
    unsigned warpLine = 0;
    uint32_t warpMask = 0;
    uint32_t warpBits = 0;      ///< the value it offers
    int warpArg = 0, warpWidth = 32;
    ThreadContext::WarpResult warpResult;   ///< what the release handed it
    std::exception_ptr error;
    StackSpan stack;        ///< its stack
};

/// The scheduler's view of one block: the threads runnable in this round, in order.
/// Threads hand control straight to the next one in the round (one context switch per
/// thread and barrier instead of two); the last one returns to the scheduler.
struct BlockRun {
    Machine* m = nullptr;
    std::vector<ThreadContext>* threads = nullptr;
    std::vector<FiberState>* fibers = nullptr;
    std::vector<uint16_t> round;   ///< thread indices to run this round
    size_t pos = 0;                ///< index in `round` of the running thread
    ctx::fiber scheduler;          ///< the scheduler's continuation while threads run
    ctx::fiber* resumerSlot = nullptr;  ///< where the context just resumed keeps its resumer
    ctx::fiber ended;              ///< resumer slot of a thread that has finished
    unsigned arrived = 0, finished = 0;
    unsigned atWarp = 0;           ///< threads parked at a warp rendezvous
    unsigned barrierLine = 0;      ///< the line of the barrier the first waiting thread reached
    unsigned atBarrierLine = 0;    ///< how many of the `arrived` wait at that line
    unsigned otherLine = 0;        ///< the first other barrier line a thread waits at (0: none)
    bool sameBarrier = true;
    // ASan's fiber annotations: the scheduler's stack (learnt on the first switch away from
    // it), where the context being left wants its stack recorded, the stack next() chose.
    // A fiber that ended leaves its fake stack in deadFake for the next context to free.
    StackSpan schedulerStack, endedStack;
    StackSpan* leftStack = nullptr;
    const StackSpan* nextStack = nullptr;
    void* deadFake = nullptr;

    /// The continuation to run after the current thread parks or ends.
    ctx::fiber& next(bool errorStop)
    {
        if (m->tid != kNoThread) {
            (*fibers)[m->tid].ordinal = m->ordinal;
            (*fibers)[m->tid].reads = m->reads;
            (*fibers)[m->tid].unrolled = m->unrolled;
        }
        if (m->memory)
            m->memory->switchThread(m->tid, !errorStop && pos + 1 < round.size() ? round[pos + 1] : kNoThread,
                                    *m->blockTotals);
        if (!errorStop && ++pos < round.size()) {
            m->current = &(*threads)[round[pos]];
            m->tid = round[pos];
            m->ordinal = (*fibers)[round[pos]].ordinal;
            m->reads = (*fibers)[round[pos]].reads;
            m->unrolled = (*fibers)[round[pos]].unrolled;
            nextStack = &(*fibers)[round[pos]].stack;
            return (*fibers)[round[pos]].cont;
        }
        m->current = nullptr;
        m->tid = kNoThread;
        nextStack = &schedulerStack;
        return scheduler;
    }
};

/// Switches to `target`, leaving this context's continuation in `self`. Plain resume()
/// (one jump_fcontext) is used rather than resume_with, which costs twice as much: whoever
/// is resumed stores the continuation it receives into the slot its resumer named.
/// `selfStack` and `targetStack` are the two contexts' stacks, for ASan.
#if defined(__EMSCRIPTEN__)
// In the web build every frame between a fiber's entry and its switch is saved and restored
// at each switch (Asyncify, docs/web.md): switchTo is inlined into its callers there.
[[gnu::always_inline]] inline
#endif
void switchTo(BlockRun& r, ctx::fiber& self, StackSpan& selfStack, ctx::fiber& target,
              const StackSpan& targetStack)
{
    void* fake = nullptr;
    asanStartSwitch(&fake, targetStack);
    r.resumerSlot = &self;
    r.leftStack = &selfStack;
    ctx::fiber t = std::move(target);
    ctx::fiber from;
    try {
        from = std::move(t).resume();
    } catch (const ctx::detail::forced_unwind&) {
        // A parked fiber being destroyed (runGrid's abandon): Boost unwinds it and then
        // jumps back to the scheduler, which never resumes this stack again.
        asanFinishSwitch(fake, &r.endedStack);
        asanStartSwitch(&r.deadFake, r.schedulerStack);
        throw;
    }
    asanFinishSwitch(fake, r.leftStack);
    asanFreeFakeStack(r.deadFake, selfStack);
    *r.resumerSlot = std::move(from);
}

constexpr size_t kStackBytes = kFiberStackBytes;
constexpr unsigned kWarpSize = 32;
constexpr uint64_t kNoBlock = std::numeric_limits<uint64_t>::max();

/// The threads of one round: warps in the schedule's order (`rng`: the block's generator
/// of the random schedule), lanes in lane order.
void planRound(BlockRun& r, unsigned nThreads, Schedule s, std::mt19937_64* rng)
{
    const unsigned warps = (nThreads + kWarpSize - 1) / kWarpSize;
    std::vector<unsigned> order(warps);
    for (unsigned w = 0; w < warps; ++w) order[w] = w;
    if (s == Schedule::Reverse) std::reverse(order.begin(), order.end());
    if (s == Schedule::Random) std::shuffle(order.begin(), order.end(), *rng);
    r.round.clear();
    for (unsigned w : order)
        for (unsigned t = w * kWarpSize; t < std::min(nThreads, (w + 1) * kWarpSize); ++t) {
            const FiberState& f = (*r.fibers)[t];
            if (!f.done && !f.waiting) r.round.push_back(static_cast<uint16_t>(t));
        }
    r.pos = 0;
}

/// SplitMix64's finaliser: a well-mixed 64-bit value from `x`.
uint64_t mix64(uint64_t x)
{
    x += 0x9E3779B97F4A7C15ull;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
    return x ^ (x >> 31);
}

/// The block with linear index `linear` (the inverse of linearBlock).
Uint3 blockAt(const Dim3& grid, uint64_t linear)
{
    return Uint3{static_cast<unsigned>(linear % grid.x), static_cast<unsigned>(linear / grid.x % grid.y),
                 static_cast<unsigned>(linear / grid.x / grid.y)};
}

/// What one OS thread needs to run the blocks of a launch on one Machine: the thread
/// contexts, their fibers and stacks, the block's shared memory and the scheduler's state.
/// Every fiber is created, run and ended (or unwound) within run(), on the thread that
/// calls it, so no fiber is ever resumed by another OS thread.
class BlockRunner {
public:
    BlockRunner(Machine& m, const LaunchConfig& cfg, const ThreadBody& body);
    BlockRunner(const BlockRunner&) = delete;
    BlockRunner& operator=(const BlockRunner&) = delete;

    /// Runs block `b`, counting into `totals` (its entry of perBlock). Throws KernelFault,
    /// or what the body threw, after unwinding the fibers still parked.
    void run(const Uint3& b, Totals& totals);

private:
    void abandon();
    /// After a round in which lanes parked at warp rendezvous: releases each complete one
    /// (every lane of its mask there, or exited), handing out the shuffled values. Returns
    /// the fault's sentence for one that can never complete, or a bad shuffle; "" if none.
    std::string releaseWarps();

    Machine& m_;
    const LaunchConfig& cfg_;
    const ThreadBody& body_;
    const unsigned nThreads_;
    StackPool pool_;
    std::vector<ThreadContext> threads_;
    std::vector<FiberState> fibers_;
    std::vector<SharedAllocation> shared_;
    std::vector<uint64_t> sharedLoadsBefore_;   ///< by array id: the sums settled so far
    BlockRun run_;
};

BlockRunner::BlockRunner(Machine& m, const LaunchConfig& cfg, const ThreadBody& body)
    : m_(m), cfg_(cfg), body_(body), nThreads_(static_cast<unsigned>(cfg.block.count())),
      pool_(cfg.stackBytes ? cfg.stackBytes : kStackBytes), threads_(nThreads_), fibers_(nThreads_), sharedLoadsBefore_(kNoArray, 0)
{
    shared_.reserve(16);
    // A later launch on the same Machine (a row of several, PMPP sec. 11.6) meets shared arrays
    // of the same name with the earlier launches' loads already counted: they are settled.
    for (size_t a = 0; a < m.arrays.size() && a < m.counters.elementLoads.size() && a < sharedLoadsBefore_.size(); ++a)
        if (m.arrays[a].space == Space::Shared)
            for (uint32_t c : m.counters.elementLoads[a]) sharedLoadsBefore_[a] += c;
    run_.m = &m;
    run_.threads = &threads_;
    run_.fibers = &fibers_;
    run_.round.reserve(nThreads_);
}

void BlockRunner::abandon()
{
    m_.current = nullptr;
    for (FiberState& f : fibers_) {
        if (!f.cont) continue;
        void* fake = nullptr;
        asanStartSwitch(&fake, f.stack);
        f.cont = ctx::fiber{};  // unwinds the parked fiber (switchTo's catch)
        asanFinishSwitch(fake, &run_.endedStack);
        asanFreeFakeStack(run_.deadFake, run_.schedulerStack);
    }
}

/// CUDA's name for a warp rendezvous.
const char* warpOpName(ThreadContext::WarpOp op)
{
    switch (op) {
    case ThreadContext::WarpOp::Sync: return "__syncwarp";
    case ThreadContext::WarpOp::Index: return "__shfl_sync";
    case ThreadContext::WarpOp::Up: return "__shfl_up_sync";
    case ThreadContext::WarpOp::Down: return "__shfl_down_sync";
    case ThreadContext::WarpOp::Xor: return "__shfl_xor_sync";
    }
    return "a warp function";
}

std::string hexMask(uint32_t mask)
{
    std::ostringstream s;
    s << "0x" << std::hex << mask;
    return s.str();
}

/// The lane of a shuffle's caller `lane` (its place in the warp) reads: CUDA's rules for each
/// shuffle, within the caller's group of `width` lanes (a power of two).
unsigned sourceLane(ThreadContext::WarpOp op, unsigned lane, int arg, int width)
{
    const unsigned w = static_cast<unsigned>(width);
    const unsigned group = lane & ~(w - 1), inGroup = lane - group;
    const unsigned a = static_cast<unsigned>(arg);
    switch (op) {
    case ThreadContext::WarpOp::Sync: return lane;
    case ThreadContext::WarpOp::Index: return group + (a & (w - 1));
    case ThreadContext::WarpOp::Up: return inGroup >= a ? lane - a : lane;
    case ThreadContext::WarpOp::Down: return a < w && inGroup + a < w ? lane + a : lane;
    case ThreadContext::WarpOp::Xor: {
        const unsigned src = lane ^ (a & (kWarpSize - 1));
        return src >= group + w ? lane : src;
    }
    }
    return lane;
}

std::string BlockRunner::releaseWarps()
{
    const unsigned n = nThreads_;
    auto who = [&](unsigned t) {
        const ThreadContext& c = threads_[t];
        std::ostringstream s;
        s << "thread (tx=" << c.threadIdx.x << ", ty=" << c.threadIdx.y << ") of block (" << c.blockIdx.x << ", "
          << c.blockIdx.y << ")";
        return s.str();
    };
    for (unsigned t = 0; t < n; ++t) {
        const FiberState& f = fibers_[t];
        if (!f.atWarp) continue;
        const unsigned base = t - t % kWarpSize;
        const char* name = warpOpName(f.warpOp);
        const std::string at = std::string(name) + " on line " + std::to_string(f.warpLine) + " (mask " +
                               hexMask(f.warpMask) + ")";
        // The lanes of the mask that take part: all there, with the same call, or exited.
        uint32_t present = 0;
        for (unsigned j = 0; j < kWarpSize; ++j) {
            if (!(f.warpMask >> j & 1u)) continue;
            const unsigned u = base + j;
            if (u >= n || fibers_[u].done) continue;   // exited (or no such thread): CUDA allows it
            const FiberState& g = fibers_[u];
            std::ostringstream s;
            if (!g.atWarp) {
                s << who(t) << " waits at the " << at << " for lane " << j << ", which waits at the __syncthreads() on line "
                  << g.barrierLine << ": every lane named in the mask must reach the same " << name << " (or have exited).";
                return s.str();
            }
            if (g.warpLine != f.warpLine || g.warpOp != f.warpOp || g.warpMask != f.warpMask) {
                s << who(t) << " waits at the " << at << " for lane " << j << ", which waits at the "
                  << warpOpName(g.warpOp) << " on line " << g.warpLine << " (mask " << hexMask(g.warpMask)
                  << "): every lane named in the mask must reach the same " << name << " with the same mask.";
                return s.str();
            }
            present |= 1u << j;
        }
        // Every lane of `present` is here: each gets its source lane's value.
        for (unsigned j = 0; j < kWarpSize; ++j) {
            if (!(present >> j & 1u)) continue;
            FiberState& g = fibers_[base + j];
            const unsigned src = sourceLane(g.warpOp, j, g.warpArg, g.warpWidth);
            if (!(present >> src & 1u)) {
                std::ostringstream s;
                s << who(base + j) << " reads lane " << src << " through the " << at << ", but lane " << src
                  << (!(f.warpMask >> src & 1u)            ? " is not in the mask"
                      : base + src >= n                    ? " does not exist in this block"
                      : fibers_[base + src].done           ? " has exited"
                                                           : " does not take part")
                  << ": CUDA leaves the value read from a lane that does not take part undefined.";
                return s.str();
            }
            g.warpResult = ThreadContext::WarpResult{fibers_[base + src].warpBits, src};
        }
        for (unsigned j = 0; j < kWarpSize; ++j) {
            if (!(present >> j & 1u)) continue;
            FiberState& g = fibers_[base + j];
            if (g.warpOp == ThreadContext::WarpOp::Sync) {
                m_.warpSyncOrdinal[base + j] = g.ordinal;
                m_.warpSyncMask[base + j] = f.warpMask;
            }
            g.atWarp = g.waiting = false;
            --run_.atWarp;
        }
    }
    return {};
}

void BlockRunner::run(const Uint3& b, Totals& totals)
{
    Machine& m = m_;
    BlockRun& run = run_;
    const unsigned nThreads = nThreads_;
    const unsigned bx = b.x, by = b.y, bz = b.z;
    m.blockTotals = &totals;
    m.tracing = cfg_.tracedBlock && cfg_.tracedBlock->x == bx && cfg_.tracedBlock->y == by &&
                cfg_.tracedBlock->z == bz;
    m.fmas = 0;
    m.fadds = 0;
    shared_.clear();
    ++m.epoch;   // a new block: nothing before it can race with it
    m.globalSlots.clear();
    m.blockIdx = b;
    m.writerBase = 1 + linearBlock(cfg_.grid, b) * nThreads;
    if (m.tracing) m.pendingLoads.assign(nThreads, {});
    run.arrived = run.finished = run.atWarp = 0;
    run.atBarrierLine = run.otherLine = 0;
    run.sameBarrier = true;
    m.vectorLeft = 0;
    m.warpSyncOrdinal.assign(nThreads, 0);
    m.warpSyncMask.assign(nThreads, 0);
    if (m.orderChecks) m.lastStores.assign(nThreads, {});
    m.waitKey = ~uint64_t{0};
    std::optional<std::mt19937_64> rng;
    if (cfg_.schedule == Schedule::Random) rng.emplace(mix64(cfg_.scheduleSeed ^ mix64(linearBlock(cfg_.grid, b))));
    for (unsigned t = 0; t < nThreads; ++t) {
        ThreadContext& tc = threads_[t];
        tc.threadIdx = Uint3{t % cfg_.block.x, (t / cfg_.block.x) % cfg_.block.y,
                             t / (cfg_.block.x * cfg_.block.y)};
        tc.blockIdx = b;
        tc.blockDim = cfg_.block;
        tc.gridDim = cfg_.grid;
        tc.machine_ = &m;
        tc.shared_ = &shared_;
        tc.tid_ = static_cast<uint16_t>(t);
        FiberState& fs = fibers_[t];
        fs.done = fs.waiting = fs.atWarp = false;
        fs.ordinal = 0;
        fs.reads = 0;
        fs.unrolled = 0;
        fs.error = nullptr;
        fs.run = &run;
        tc.fiber_ = &fs;
        fs.cont = ctx::fiber(std::allocator_arg, PoolHandle{&pool_, &fs.stack},
                             [&fs, &tc, body = &body_, &run](ctx::fiber&& from) {
                                 asanFinishSwitch(nullptr, run.leftStack);
                                 asanFreeFakeStack(run.deadFake, fs.stack);
                                 *run.resumerSlot = std::move(from);
#if defined(__EMSCRIPTEN__)
                                 // No try block in the web build: a call inside one goes through
                                 // JavaScript (an invoke_* wrapper), at every switch of the fiber.
                                 // A fault leaves the fiber there and is caught in the scheduler,
                                 // below (sim/engine/fiber_emscripten.hpp, docs/web.md).
                                 (*body)(tc);
#else
                                 try {
                                     (*body)(tc);
                                 } catch (const ctx::detail::forced_unwind&) {
                                     throw;
                                 } catch (...) {
                                     fs.error = std::current_exception();
                                 }
#endif
                                 fs.done = true;
                                 ++run.finished;
                                 run.resumerSlot = &run.ended;
                                 run.leftStack = &run.endedStack;
                                 ctx::fiber& next = run.next(fs.error != nullptr);
                                 asanStartSwitch(&run.deadFake, *run.nextStack);   // never back
                                 return std::move(next);
                             });
    }
    // Rounds: every runnable thread runs until it parks at a barrier or finishes.
    for (;;) {
        planRound(run, nThreads, cfg_.schedule, rng ? &*rng : nullptr);
        if (!run.round.empty()) {
            m.current = &threads_[run.round[0]];
            m.tid = run.round[0];
            if (m.memory) m.memory->switchThread(kNoThread, m.tid, *m.blockTotals);
            m.ordinal = fibers_[run.round[0]].ordinal;
            m.reads = fibers_[run.round[0]].reads;
            m.unrolled = fibers_[run.round[0]].unrolled;
#if defined(__EMSCRIPTEN__)
            // The web build's fibers let a fault (what the kernel's body throws) leave the fiber,
            // which ends; it arrives here, from the thread that runs (m.tid), which is then
            // recorded as the fiber function records it natively.
            try {
                switchTo(run, run.scheduler, run.schedulerStack, fibers_[run.round[0]].cont,
                         fibers_[run.round[0]].stack);
            } catch (...) {
                FiberState& fs = fibers_[m.tid];
                fs.error = std::current_exception();
                fs.done = true;
                ++run.finished;
                run.resumerSlot = &run.ended;
                run.next(true);
                run.scheduler = ctx::fiber{};   // the resumer the ended fiber kept: this context
            }
#else
            switchTo(run, run.scheduler, run.schedulerStack, fibers_[run.round[0]].cont,
                     fibers_[run.round[0]].stack);
#endif
        }
        for (const FiberState& fs : fibers_)
            if (fs.error) {
                std::exception_ptr e = fs.error;
                abandon();
                std::rethrow_exception(e);
            }
        if (run.atWarp > 0) {
            // Lanes wait at warp rendezvous: release every warp whose lanes have all
            // arrived, then run them on; a rendezvous that cannot complete is a fault.
            if (std::string fault = releaseWarps(); !fault.empty()) {
                abandon();
                throw KernelFault(fault);
            }
            continue;
        }
        if (run.finished == nThreads) break;
        if (run.finished > 0 || !run.sameBarrier) {
            std::ostringstream s;
            // The threads at each barrier counted apart (with two barriers every thread of
            // the block waits, but not at the same one).
            s << "in block (" << bx << ", " << by << ") " << run.atBarrierLine << " of " << nThreads
              << " threads wait at the barrier on line " << run.barrierLine;
            if (run.sameBarrier) {
                s << " while the others have finished";
            } else {
                s << " while " << run.arrived - run.atBarrierLine << " wait at a different barrier (line " << run.otherLine
                  << ")";
                if (run.finished > 0) s << " and " << run.finished << " have finished";
            }
            s << ": every thread of a block must reach the same __syncthreads().";
            abandon();
            throw KernelFault(s.str());
        }
        ++m.blockTotals->barriers;
        ++m.epoch;
        if (m.tracing) m.record(Op::Barrier, kNoArray, -1, 0.0f, run.barrierLine);
        for (FiberState& fs : fibers_) {
            fs.waiting = false;
            fs.ordinal = 0;   // program order restarts after a barrier
            fs.reads = 0;
        }
        std::fill(m.warpSyncOrdinal.begin(), m.warpSyncOrdinal.end(), 0);
        std::fill(m.warpSyncMask.begin(), m.warpSyncMask.end(), 0);
        run.arrived = 0;
        run.atBarrierLine = run.otherLine = 0;
        run.sameBarrier = true;
    }
    // Settle the counts kept out of the hot path.
    m.blockTotals->flops = 2 * m.fmas;
    m.blockTotals->fadds = m.fadds;
    m.fmas = 0;
    m.fadds = 0;
    for (const SharedAllocation& a : shared_) {
        uint64_t sum = 0;
        for (uint32_t c : m.counters.elementLoads[a.array]) sum += c;
        m.blockTotals->shared_loads += sum - sharedLoadsBefore_[a.array];
        sharedLoadsBefore_[a.array] = sum;
    }
}

}  // namespace

void ThreadContext::syncthreads(unsigned barrier, SourceLine loc)
{
    if (machine_->dropMask & barrier) return;
    auto* fs = static_cast<FiberState*>(fiber_);
    BlockRun& r = *fs->run;
    fs->waiting = true;
    fs->barrierLine = loc.line();
    if (r.arrived++ == 0) {
        r.barrierLine = loc.line();
        r.atBarrierLine = 1;
    } else if (r.barrierLine == loc.line()) {
        ++r.atBarrierLine;
    } else {
        r.sameBarrier = false;
        if (r.otherLine == 0) r.otherLine = loc.line();
    }
    ctx::fiber& target = r.next(false);
    switchTo(r, fs->cont, fs->stack, target, *r.nextStack);
}

ThreadContext::WarpResult ThreadContext::warpExchange(WarpOp op, unsigned mask, uint32_t bits, int arg, int width,
                                                      unsigned line)
{
    const unsigned lane = tid_ % kWarpSize;
    if (!(mask >> lane & 1u)) {
        std::ostringstream s;
        s << machine_->whoAmI() << " (lane " << lane << ") calls " << warpOpName(op) << " on line " << line
          << " with mask " << hexMask(mask) << ", which does not name its own lane: every lane that calls it must be in its mask.";
        throw KernelFault(s.str());
    }
    if (width < 1 || width > static_cast<int>(kWarpSize) || (width & (width - 1)) != 0) {
        std::ostringstream s;
        s << machine_->whoAmI() << " calls " << warpOpName(op) << " on line " << line << " with width " << width
          << ", which is not a power of two from 1 to 32.";
        throw KernelFault(s.str());
    }
    auto* fs = static_cast<FiberState*>(fiber_);
    BlockRun& r = *fs->run;
    fs->waiting = fs->atWarp = true;
    fs->warpOp = op;
    fs->warpLine = line;
    fs->warpMask = mask;
    fs->warpBits = bits;
    fs->warpArg = arg;
    fs->warpWidth = width;
    ++r.atWarp;
    ctx::fiber& target = r.next(false);
    switchTo(r, fs->cont, fs->stack, target, *r.nextStack);
    return fs->warpResult;
}

namespace {

/// One worker thread's share of a parallel launch: a Machine of its own (arrays and
/// counters; its shared arrays get ids in the order this worker met them), its warp memory
/// model, the body bound to it and the runner of its fibers.
struct Worker {
    Machine machine;
    WarpMemory memory;
    ThreadBody body;
    std::unique_ptr<BlockRunner> runner;
    /// This worker's array ids -> the launch's (kNoArray: not merged yet).
    std::vector<uint8_t> toLaunch;
};

/// A run of consecutive blocks that one worker runs, and what they produced apart from
/// the per-block totals (written straight into the launch's perBlock) and the element
/// counts (summed per worker at the end).
struct Chunk {
    uint64_t first = 0, end = 0;      ///< linear block indices [first, end)
    Worker* worker = nullptr;         ///< who ran it (null: skipped)
    size_t arraysBefore = 0, arraysAfter = 0;   ///< the worker's arrays registered while it ran
    HazardLog hazards;                ///< in the worker's array ids
    std::vector<AccessSite> sites;    ///< the worker's sites with this chunk's figures
    bool overflowed = false;
    uint64_t faultBlock = kNoBlock;   ///< the block that faulted (KernelFault), if any
    std::string fault;
};

/// Adds the hazards of `part` (array ids mapped through `toLaunch`) to `into` as the
/// detector would have recorded them after those of `into`: a site seen before gets the
/// count, a new one is appended with its example.
void mergeHazards(HazardLog& into, const HazardLog& part, const std::vector<uint8_t>& toLaunch)
{
    into.raw += part.raw;
    into.war += part.war;
    into.waw += part.waw;
    into.uninitialised += part.uninitialised;
    for (UninitialisedSite u : part.uninitialisedSites) {
        u.array = toLaunch.at(u.array);
        auto it = std::find_if(into.uninitialisedSites.begin(), into.uninitialisedSites.end(),
                               [&](const UninitialisedSite& s) { return s.array == u.array && s.line == u.line; });
        if (it == into.uninitialisedSites.end()) into.uninitialisedSites.push_back(u);
        else it->count += u.count;
    }
    for (HazardSite h : part.sites) {
        h.array = toLaunch.at(h.array);
        auto it = std::find_if(into.sites.begin(), into.sites.end(), [&](const HazardSite& s) {
            return s.kind == h.kind && s.array == h.array && s.firstLine == h.firstLine &&
                   s.secondLine == h.secondLine;
        });
        if (it == into.sites.end()) into.sites.push_back(h);
        else it->count += h.count;
    }
    for (Hazard h : part.traced) {
        if (into.traced.size() >= HazardLog::kMaxTraced) break;
        h.array = toLaunch.at(h.array);
        into.traced.push_back(h);
    }
}

/// runGrid on one thread, in block order (or the schedule's, cfg.blocksInScheduleOrder).
void runSerial(Machine& m, const LaunchConfig& cfg, const ThreadBody& body)
{
    m.counters.perBlock.assign(cfg.grid.count(), Totals{});
    m.fmas = 0;
    m.fadds = 0;
    if (m.memory) m.memory->startLaunch(static_cast<unsigned>(cfg.block.count()));
    BlockRunner runner(m, cfg, body);
    if (cfg.blocksInScheduleOrder) {
        for (uint64_t linear : scheduledBlockOrder(cfg))
            runner.run(blockAt(cfg.grid, linear), m.counters.perBlock[linear]);
    } else {
        for (unsigned bz = 0; bz < cfg.grid.z; ++bz)
        for (unsigned by = 0; by < cfg.grid.y; ++by)
        for (unsigned bx = 0; bx < cfg.grid.x; ++bx) {
            const Uint3 b{bx, by, bz};
            runner.run(b, m.counters.perBlock[linearBlock(cfg.grid, b)]);
        }
    }
    m.blockTotals = nullptr;
    m.tracing = false;
    for (const Totals& t : m.counters.perBlock) m.counters.totals += t;
}

/// runGrid on `workers` threads (at least 2). Chunks of consecutive blocks are handed out
/// in increasing order, each worker takes the next one when it is done; the partial
/// results are merged chunk by chunk in block order, which gives the serial run's order of
/// first appearance for arrays, hazard sites and memory sites.
void runParallel(Machine& m, const LaunchConfig& cfg, const BodyBinder& bind, unsigned workers)
{
    const uint64_t blocks = cfg.grid.count();
    const unsigned nThreads = static_cast<unsigned>(cfg.block.count());
    m.counters.perBlock.assign(blocks, Totals{});
    m.fmas = 0;
    m.fadds = 0;
    if (m.memory) m.memory->startLaunch(nThreads);
    // Small chunks keep the workers busy to the end; each costs a copy of the memory sites.
    const uint64_t perChunk = std::max<uint64_t>(1, blocks / (uint64_t{workers} * 32));
    std::vector<Chunk> chunks((blocks + perChunk - 1) / perChunk);
    for (size_t c = 0; c < chunks.size(); ++c) {
        chunks[c].first = c * perChunk;
        chunks[c].end = std::min(blocks, (c + 1) * perChunk);
    }
    const uint64_t traced = cfg.tracedBlock ? linearBlock(cfg.grid, *cfg.tracedBlock) : kNoBlock;
    const size_t launchArrays = m.arrays.size();

    std::atomic<size_t> nextChunk{0};
    std::atomic<uint64_t> faultBlock{kNoBlock};   // the lowest block known to have faulted
    std::atomic<bool> stop{false};                // an exception other than a fault
    std::mutex errorMutex;
    std::exception_ptr error;
    Worker* tracedWorker = nullptr;
    tbb::enumerable_thread_specific<std::unique_ptr<Worker>> perThread;

    auto makeWorker = [&]() {
        auto w = std::make_unique<Worker>();
        Machine& wm = w->machine;
        wm.arrays = m.arrays;
        for (const ArrayInfo& a : m.arrays) {
            wm.counters.elementLoads.emplace_back(static_cast<size_t>(a.size()), 0u);
            wm.counters.elementStores.emplace_back(static_cast<size_t>(a.size()), 0u);
            wm.counters.elementWriters.emplace_back();
        }
        wm.keepWriters = m.keepWriters;
        wm.constant = m.constant;
        wm.dropMask = m.dropMask;
        wm.readBudget = m.readBudget;
        wm.detectHazards = m.detectHazards;
        if (m.memory) {
            wm.memory = &w->memory;
            w->memory.startLaunch(nThreads);
        }
        w->toLaunch.assign(kNoArray, kNoArray);
        for (size_t a = 0; a < launchArrays; ++a) w->toLaunch[a] = static_cast<uint8_t>(a);
        w->body = bind(wm);
        w->runner = std::make_unique<BlockRunner>(wm, cfg, w->body);
        return w;
    };
    auto fail = [&](std::exception_ptr e) {
        std::lock_guard<std::mutex> lock(errorMutex);
        if (!error) error = e;
        stop = true;
    };
    // One worker's loop: the next chunk until none is left, or the rest lies past a fault.
    auto work = [&] {
        std::unique_ptr<Worker>& slot = perThread.local();
        for (;;) {
            if (stop.load(std::memory_order_relaxed)) return;
            const size_t c = nextChunk.fetch_add(1);
            if (c >= chunks.size()) return;
            Chunk& ch = chunks[c];
            if (ch.first > faultBlock.load()) return;   // and so is every later chunk
            try {
                if (!slot) slot = makeWorker();
            } catch (...) {
                fail(std::current_exception());
                return;
            }
            Worker& w = *slot;
            ch.worker = &w;
            ch.arraysBefore = w.machine.arrays.size();
            try {
                for (uint64_t l = ch.first; l < ch.end; ++l) {
                    if (l > faultBlock.load(std::memory_order_relaxed) || stop.load(std::memory_order_relaxed)) break;
                    if (l == traced) tracedWorker = &w;
                    try {
                        w.runner->run(blockAt(cfg.grid, l), m.counters.perBlock[l]);
                    } catch (const KernelFault& f) {
                        ch.faultBlock = l;
                        ch.fault = f.what();
                        uint64_t seen = faultBlock.load();
                        while (l < seen && !faultBlock.compare_exchange_weak(seen, l)) {}
                        break;
                    }
                }
                w.machine.blockTotals = nullptr;
                w.machine.tracing = false;
                ch.arraysAfter = w.machine.arrays.size();
                ch.hazards = std::exchange(w.machine.hazards, HazardLog{});
                if (m.memory) {
                    ch.sites = w.memory.takeFigures();
                    ch.overflowed = w.memory.overflowed();
                }
            } catch (...) {
                fail(std::current_exception());
                return;
            }
        }
    };
    withThreads(workers, [&] {
        tbb::parallel_for(tbb::blocked_range<unsigned>(0, workers, 1),
                          [&](const tbb::blocked_range<unsigned>& r) {
                              for (unsigned i = r.begin(); i != r.end(); ++i) work();
                          },
                          tbb::simple_partitioner());
    });
    if (error) std::rethrow_exception(error);

    // Merge in block order, up to the chunk of the first fault (later blocks never ran in
    // the serial run). Each chunk's new arrays get their launch ids first.
    const uint64_t fault = faultBlock.load();
    std::string faultMessage;
    for (const Chunk& ch : chunks) {
        if (ch.first > fault) break;
        Worker& w = *ch.worker;   // every chunk up to the fault ran
        for (size_t a = ch.arraysBefore; a < ch.arraysAfter; ++a) {
            const ArrayInfo& info = w.machine.arrays[a];
            w.toLaunch[a] = m.arrayId(info.name, info.space, info.rows, info.cols, info.columnMajor);
        }
        mergeHazards(m.hazards, ch.hazards, w.toLaunch);
        if (m.memory) {
            std::vector<AccessSite> sites = ch.sites;
            for (AccessSite& s : sites)
                if (s.array != kNoArray) s.array = w.toLaunch.at(s.array);   // a branch site names no array
            m.memory->addFigures(sites, ch.overflowed);
        }
        if (ch.faultBlock == fault) faultMessage = ch.fault;
    }
    // Element counts: sums, so the workers' order does not matter. Arrays a worker only
    // met past the fault were never merged and are left out.
    for (const std::unique_ptr<Worker>& w : perThread) {
        if (!w) continue;
        const Counters& c = w->machine.counters;
        for (size_t a = 0; a < c.elementLoads.size(); ++a) {
            if (w->toLaunch[a] == kNoArray) continue;
            std::vector<uint32_t>& loads = m.counters.elementLoads[w->toLaunch[a]];
            std::vector<uint32_t>& stores = m.counters.elementStores[w->toLaunch[a]];
            for (size_t i = 0; i < loads.size(); ++i) loads[i] += c.elementLoads[a][i];
            for (size_t i = 0; i < stores.size(); ++i) stores[i] += c.elementStores[a][i];
            // Writers: the later thread in block order, as a serial run leaves it.
            if (c.elementWriters[a].empty()) continue;
            std::vector<uint32_t>& writers = m.counters.elementWriters[w->toLaunch[a]];
            if (writers.empty()) writers.assign(c.elementWriters[a].size(), 0u);
            for (size_t i = 0; i < writers.size(); ++i) writers[i] = std::max(writers[i], c.elementWriters[a][i]);
        }
    }
    if (tracedWorker && traced <= fault) {
        for (Event e : tracedWorker->machine.events) {
            if (e.array != kNoArray) e.array = tracedWorker->toLaunch.at(e.array);
            if (e.originArray != kNoArray) e.originArray = tracedWorker->toLaunch.at(e.originArray);
            m.events.push_back(e);
        }
    }
    if (fault != kNoBlock) {
        // The serial run stops at the faulting block: the blocks after it have no counts,
        // and the totals are not summed.
        for (uint64_t l = fault + 1; l < blocks; ++l) m.counters.perBlock[l] = Totals{};
        throw KernelFault(faultMessage);
    }
    for (const Totals& t : m.counters.perBlock) m.counters.totals += t;
}

}  // namespace

unsigned hardwareThreads()
{
    return static_cast<unsigned>(std::max(1, tbb::info::default_concurrency()));
}

void withThreads(unsigned threads, const std::function<void()>& f)
{
    const unsigned n = threads == 0 ? hardwareThreads() : threads;
    // More threads than cores only when asked for: oneTBB caps its pool at the core count
    // unless a global_control allows more.
    std::optional<tbb::global_control> allow;
    if (n > hardwareThreads()) allow.emplace(tbb::global_control::max_allowed_parallelism, n);
    tbb::task_arena arena(static_cast<int>(n));
    arena.execute(f);
}

namespace {

/// The reads one thread may make between barriers before it is taken for a loop that never
/// ends: 16 of every element of the launch's arrays, and 65536 more. A kernel that reads
/// each element a bounded number of times (every kernel of PMPP, a grid-stride loop) stays
/// far below it.
uint64_t readBudgetOf(const Machine& m)
{
    uint64_t elements = 0;
    for (const ArrayInfo& a : m.arrays) elements += static_cast<uint64_t>(std::max<long long>(a.size(), 0));
    return 16 * elements + 65536;
}

}  // namespace

std::vector<uint64_t> scheduledBlockOrder(const LaunchConfig& cfg)
{
    std::vector<uint64_t> order(cfg.grid.count());
    for (uint64_t b = 0; b < order.size(); ++b) order[b] = b;
    if (cfg.schedule == Schedule::Reverse) std::reverse(order.begin(), order.end());
    if (cfg.schedule == Schedule::Random) {
        // Not the generators of the blocks' warp orders, which mix in each block's index.
        std::mt19937_64 rng(mix64(cfg.scheduleSeed ^ 0xB10C0DE5ull));
        std::shuffle(order.begin(), order.end(), rng);
    }
    return order;
}

void runGrid(Machine& m, const LaunchConfig& cfg, const ThreadBody& body)
{
    m.readBudget = readBudgetOf(m);
    m.keepWriters = cfg.grid.count() * cfg.block.count() < 0xFFFFFFFFull;
    runSerial(m, cfg, body);
    if (!m.keepWriters)
        for (std::vector<uint32_t>& w : m.counters.elementWriters) w.clear();
}

void runGrid(Machine& m, const LaunchConfig& cfg, const BodyBinder& bind)
{
    m.readBudget = readBudgetOf(m);
    m.keepWriters = cfg.grid.count() * cfg.block.count() < 0xFFFFFFFFull;
    const uint64_t blocks = cfg.grid.count();
    const uint64_t threads = cfg.threads == 0 ? hardwareThreads() : cfg.threads;
    const unsigned workers = static_cast<unsigned>(std::min<uint64_t>(threads, blocks));
    if (cfg.blocksInScheduleOrder && cfg.threads != 1)
        throw std::invalid_argument("runGrid: blocks run in the schedule's order on one worker only (threads 1)");
    if (workers <= 1) {
        runSerial(m, cfg, bind(m));
        return;
    }
    runParallel(m, cfg, bind, workers);
}

}  // namespace ts::sim
