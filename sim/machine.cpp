#include "machine.hpp"

#include <algorithm>
#include <boost/context/fiber.hpp>
#include <cstdlib>
#include <exception>
#include <limits>
#include <random>
#include <sstream>

namespace ts::sim {
namespace ctx = boost::context;

Totals& Totals::operator+=(const Totals& o)
{
    global_loads += o.global_loads;
    global_stores += o.global_stores;
    shared_loads += o.shared_loads;
    shared_stores += o.shared_stores;
    constant_loads += o.constant_loads;
    zero_fills += o.zero_fills;
    barriers += o.barriers;
    flops += o.flops;
    return *this;
}

uint8_t Machine::arrayId(const std::string& name, Space space, int rows, int cols)
{
    for (size_t i = 0; i < arrays.size(); ++i)
        if (arrays[i].name == name) return static_cast<uint8_t>(i);
    if (arrays.size() >= kNoArray) throw KernelFault("the kernel declares too many arrays");
    arrays.push_back(ArrayInfo{name, space, rows, cols});
    counters.elementLoads.emplace_back(static_cast<size_t>(rows) * cols, 0u);
    counters.elementStores.emplace_back(static_cast<size_t>(rows) * cols, 0u);
    return static_cast<uint8_t>(arrays.size() - 1);
}

void Machine::record(Op op, uint8_t array, long long index, float value, unsigned line)
{
    Event e;
    e.index = static_cast<int32_t>(index);
    e.value = value;
    e.thread = current ? current->tid_ : kNoThread;
    e.line = static_cast<uint16_t>(std::min<unsigned>(line, 0xFFFF));
    e.op = op;
    e.array = array;
    events.push_back(e);
}

std::string Machine::whoAmI() const
{
    if (!current) return "a thread";
    std::ostringstream s;
    const ThreadContext& t = *current;
    s << "thread (tx=" << t.threadIdx.x << ", ty=" << t.threadIdx.y << ") of block ("
      << t.blockIdx.x << ", " << t.blockIdx.y << ")";
    return s.str();
}

void Machine::outOfBounds(uint8_t array, long long index, unsigned line) const
{
    const ArrayInfo& a = arrays.at(array);
    std::ostringstream s;
    s << whoAmI() << " accessed " << a.name << "[" << index << "] at line " << line
      << ", outside its " << a.size() << " elements.";
    throw KernelFault(s.str());
}

void Machine::outOfBounds2d(uint8_t array, long long row, long long col, unsigned line) const
{
    const ArrayInfo& a = arrays.at(array);
    std::ostringstream s;
    s << whoAmI() << " accessed " << a.name << "[" << row << "][" << col << "] at line "
      << line << ", outside its " << a.rows << "x" << a.cols << " elements.";
    throw KernelFault(s.str());
}

namespace {

/// Fiber stacks, reused from block to block (a launch creates one fiber per thread).
class StackPool {
public:
    explicit StackPool(size_t size) : size_(size) {}
    ~StackPool()
    {
        for (void* p : free_) std::free(p);
    }
    ctx::stack_context allocate()
    {
        void* p;
        if (free_.empty()) {
            p = std::malloc(size_);
            if (!p) throw std::bad_alloc();
        } else {
            p = free_.back();
            free_.pop_back();
        }
        ctx::stack_context sc;
        sc.size = size_;
        sc.sp = static_cast<char*>(p) + size_;
        return sc;
    }
    void deallocate(ctx::stack_context& sc) noexcept
    {
        free_.push_back(static_cast<char*>(sc.sp) - sc.size);
    }

private:
    size_t size_;
    std::vector<void*> free_;
};

/// The StackAllocator concept Boost.Context copies into each fiber: a handle on the pool.
struct PoolHandle {
    StackPool* pool;
    ctx::stack_context allocate() { return pool->allocate(); }
    void deallocate(ctx::stack_context& sc) noexcept { pool->deallocate(sc); }
};

struct FiberState {
    ctx::fiber fiber;
    ctx::fiber sink;
    bool done = false;
    bool waiting = false;
    unsigned barrierLine = 0;
    std::exception_ptr error;
};

constexpr size_t kStackBytes = 64 * 1024;
constexpr unsigned kWarpSize = 32;

std::vector<unsigned> warpOrder(unsigned warps, Schedule s, std::mt19937_64& rng)
{
    std::vector<unsigned> order(warps);
    for (unsigned w = 0; w < warps; ++w) order[w] = w;
    if (s == Schedule::Reverse) std::reverse(order.begin(), order.end());
    if (s == Schedule::Random) std::shuffle(order.begin(), order.end(), rng);
    return order;
}

}  // namespace

void ThreadContext::syncthreads(std::source_location loc)
{
    auto* fs = static_cast<FiberState*>(fiber_);
    fs->waiting = true;
    fs->barrierLine = loc.line();
    fs->sink = std::move(fs->sink).resume();
}

SharedAllocation& ThreadContext::sharedAlloc(int id, const char* name, int rows, int cols)
{
    for (SharedAllocation& s : *shared_)
        if (s.id == id) return s;
    SharedAllocation s;
    s.id = id;
    s.array = machine_->arrayId(name, Space::Shared, rows, cols);
    // Shared memory starts uninitialised: NaN makes a read of a never-written slot visible.
    s.data.assign(static_cast<size_t>(rows) * cols, std::numeric_limits<float>::quiet_NaN());
    shared_->push_back(std::move(s));
    return shared_->back();
}

void runGrid(Machine& m, const LaunchConfig& cfg,
             const std::function<void(ThreadContext&)>& body)
{
    const unsigned nThreads = static_cast<unsigned>(cfg.block.count());
    m.counters.perBlock.assign(cfg.grid.count(), Totals{});
    StackPool pool(kStackBytes);
    std::mt19937_64 rng(cfg.scheduleSeed);
    std::vector<ThreadContext> threads(nThreads);
    std::vector<FiberState> fibers(nThreads);
    std::vector<SharedAllocation> shared;
    shared.reserve(16);
    const unsigned warps = (nThreads + kWarpSize - 1) / kWarpSize;

    for (unsigned bz = 0; bz < cfg.grid.z; ++bz)
    for (unsigned by = 0; by < cfg.grid.y; ++by)
    for (unsigned bx = 0; bx < cfg.grid.x; ++bx) {
        const Uint3 b{bx, by, bz};
        m.blockTotals = &m.counters.perBlock[linearBlock(cfg.grid, b)];
        m.tracing = cfg.tracedBlock && cfg.tracedBlock->x == bx && cfg.tracedBlock->y == by &&
                    cfg.tracedBlock->z == bz;
        shared.clear();
        for (unsigned t = 0; t < nThreads; ++t) {
            ThreadContext& tc = threads[t];
            tc.threadIdx = Uint3{t % cfg.block.x, (t / cfg.block.x) % cfg.block.y,
                                 t / (cfg.block.x * cfg.block.y)};
            tc.blockIdx = b;
            tc.blockDim = cfg.block;
            tc.gridDim = cfg.grid;
            tc.machine_ = &m;
            tc.shared_ = &shared;
            tc.tid_ = static_cast<uint16_t>(t);
            FiberState& fs = fibers[t];
            fs = FiberState{};
            tc.fiber_ = &fs;
            fs.fiber = ctx::fiber(std::allocator_arg, PoolHandle{&pool},
                                  [&fs, &tc, &body](ctx::fiber&& sink) {
                                      fs.sink = std::move(sink);
                                      try {
                                          body(tc);
                                      } catch (const ctx::detail::forced_unwind&) {
                                          throw;
                                      } catch (...) {
                                          fs.error = std::current_exception();
                                      }
                                      fs.done = true;
                                      return std::move(fs.sink);
                                  });
        }
        // Rounds: every thread runs until it parks at a barrier or finishes.
        for (;;) {
            for (unsigned w : warpOrder(warps, cfg.schedule, rng)) {
                for (unsigned t = w * kWarpSize; t < std::min(nThreads, (w + 1) * kWarpSize); ++t) {
                    FiberState& fs = fibers[t];
                    if (fs.done || fs.waiting) continue;
                    m.current = &threads[t];
                    fs.fiber = std::move(fs.fiber).resume();
                    if (fs.error) {
                        m.current = nullptr;
                        std::exception_ptr e = fs.error;
                        for (FiberState& f : fibers) f.fiber = ctx::fiber{};  // unwind parked fibers
                        std::rethrow_exception(e);
                    }
                }
            }
            m.current = nullptr;
            unsigned done = 0, waiting = 0, line = 0;
            bool sameLine = true;
            for (const FiberState& fs : fibers) {
                done += fs.done;
                if (fs.waiting) {
                    if (waiting && fs.barrierLine != line) sameLine = false;
                    line = fs.barrierLine;
                    ++waiting;
                }
            }
            if (done == nThreads) break;
            if (done > 0 || !sameLine) {
                for (FiberState& f : fibers) f.fiber = ctx::fiber{};
                std::ostringstream s;
                s << "in block (" << bx << ", " << by << ") " << waiting << " of " << nThreads
                  << " threads wait at the barrier on line " << line
                  << (sameLine ? " while the others have finished"
                               : " while others wait at a different barrier")
                  << ": every thread of a block must reach the same __syncthreads().";
                throw KernelFault(s.str());
            }
            ++m.blockTotals->barriers;
            if (m.tracing) m.record(Op::Barrier, kNoArray, -1, 0.0f, line);
            for (FiberState& fs : fibers) fs.waiting = false;
        }
        for (FiberState& fs : fibers) fs.fiber = ctx::fiber{};
    }
    m.blockTotals = nullptr;
    m.tracing = false;
    for (const Totals& t : m.counters.perBlock) m.counters.totals += t;
}

}  // namespace ts::sim
