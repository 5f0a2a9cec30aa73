// The simulator's execution context: what the single-source kernels of kernels/*.cuh see
// when the host compiler instantiates them. Every global, shared and constant access goes
// through a small proxy that counts it (per element, per block) and, for the traced block,
// records it with its source line. `a * b` of two proxies yields a Product, and
// `float += Product` performs std::fma, so the simulator fuses exactly where nvcc does,
// whatever the host compiler's contraction settings (docs/design.md, principle 3).
#pragma once
#include <cmath>
#include <cstddef>
#include <cstring>
#include <source_location>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <unordered_map>
#include <vector>

#include "sim/engine/fma.hpp"
#include "sim/engine/hazards.hpp"
#include "sim/engine/types.hpp"
#include "sim/engine/warp_memory.hpp"

namespace ts::sim {

class Machine;
class ThreadContext;

/// An error in the simulated kernel (an out-of-bounds access, a barrier not reached by
/// every thread). The message is one sentence naming the thread, array and line.
struct KernelFault : std::runtime_error {
    using std::runtime_error::runtime_error;
};

/// Where a call was written; only line() is used. std::source_location where the standard
/// library has it. clang 14 (the fuzzers' compiler, scripts/fuzz.sh) with libstdc++ 12 lacks
/// the builtin that <source_location> needs; there the call site's __builtin_LINE() stands
/// in, evaluated where the default argument is, as std::source_location::current() is.
#if defined(__cpp_lib_source_location)
using SourceLine = std::source_location;
#else
struct SourceLine {
    static constexpr SourceLine current(unsigned line = __builtin_LINE()) noexcept { return SourceLine{line}; }
    constexpr unsigned line() const noexcept { return line_; }
    unsigned line_ = 0;
};
#endif

/// An index expression with the source line it was written on (captured implicitly).
struct Index {
    long long i;
    unsigned line;
    Index(long long v, SourceLine loc = SourceLine::current())
        : i(v), line(loc.line()) {}
    /// Index v written on line `line` (the simulator's own vector accessors).
    static Index at(long long v, unsigned line)
    {
        Index ix(v);
        ix.line = line;
        return ix;
    }
};

/// The element types a kernel's arrays may have: float, and int and unsigned int (the bins
/// of PMPP ch. 9's histograms, the counters atomics keep). Every element lives in a float slot
/// of the simulator's arrays, the views' and the trace's values alike; an int or unsigned
/// element is held there exactly while it lies within +-2^24 (kExactIntegers), and storing one
/// outside is a KernelFault (Machine::inexactInteger), never a rounded value.
template <class V>
inline constexpr bool kElementType = std::is_same_v<V, float> || std::is_same_v<V, int> || std::is_same_v<V, unsigned>;
/// The element types a kernel may read but not write: those above and `char`, the text of
/// PMPP ch. 9's histograms (`const char* data`). A char's slot holds its code; it is one
/// byte of memory, so 32 lanes reading 32 consecutive characters touch one 32-byte sector.
template <class V>
inline constexpr bool kReadElementType = kElementType<V> || std::is_same_v<V, char>;
/// The 4-byte word of memory that element `i` of an array of V lies in (the warp memory
/// model's unit, sim/engine/warp_memory.hpp): element i for 4-byte elements, i / 4 for chars.
template <class V>
constexpr uint32_t wordOf(long long i)
{
    return static_cast<uint32_t>(sizeof(V) == 1 ? i >> 2 : i);
}
/// The largest magnitude an int or unsigned element keeps exactly in its float slot: 2^24.
inline constexpr long long kExactIntegers = 1ll << 24;
/// The value of type V a float slot holds (the slot of an int or unsigned element holds an
/// integer, Machine::slotOf).
template <class V>
inline V fromSlot(float f)
{
    return static_cast<V>(f);
}

/// The launch's constant memory: the one read-only array that kernels read through
/// x.mask1d() / x.mask2d(), the convolution mask M (PMPP sec. 7.3).
/// The kernel family's binder sets it before the launch; it stays empty otherwise.
struct ConstantMemory {
    const float* data = nullptr;
    int rows = 0, cols = 0;            ///< 1 x Mask_Width (1D) or Mask_Width x Mask_Width (2D)
    uint8_t array = kNoArray;
};

/// The state shared by all threads of one simulated launch: the arrays, the counters,
/// the block being run, and the trace of the selected block.
class Machine {
public:
    std::vector<ArrayInfo> arrays;
    Counters counters;
    std::vector<Event> events;          ///< recorded events of the traced block, in order
    ThreadContext* current = nullptr;   ///< the thread whose fiber is running
    Totals* blockTotals = nullptr;      ///< counters of the block being run
    /// Multiply-adds of the block being run. The two hottest counts (multiply-adds, shared
    /// loads) are kept out of blockTotals: flops come from this, shared loads from the
    /// per-slot counters, both settled when the block ends (runGrid).
    uint64_t fmas = 0;
    /// Float adds with a memory operand of the block being run (Totals::fadds), settled as fmas.
    uint64_t fadds = 0;
    bool tracing = false;               ///< is the block being run the traced one?

    /// Keep Counters::elementWriters: runGrid clears it when the grid has too many threads to
    /// number them in 32 bits.
    bool keepWriters = true;
    /// 1 + the grid-wide linear index of the running block's thread 0 (elementWriters).
    uint64_t writerBase = 0;

    /// A global load of the traced block that a thread has not yet stored into shared memory:
    /// where a value in its registers came from (noteLoad, noteOrigin).
    struct PendingLoad {
        float value;
        uint8_t array;
        int32_t index;
    };
    /// By linear thread of the traced block; at most kPendingLoads each, the oldest dropped.
    std::vector<std::vector<PendingLoad>> pendingLoads;
    static constexpr size_t kPendingLoads = 64;
    /// The traced block's running thread loaded `value` from element `index` of `array`.
    void noteLoad(float value, uint8_t array, long long index);
    /// Gives the SharedStore just recorded its origin: element `index` of `array` when the
    /// store was written as `slot = global element` (array kNoArray otherwise), else the
    /// thread's oldest pending load of the same bit pattern, which it consumes (a value moved
    /// through registers, as `float4 v = ...; Mds[..] = v.x;`); none if no load matches (a
    /// computed value). The inputs are random 24-bit values, so equal values from different
    /// elements among a thread's last kPendingLoads loads are rare, and stores in load order
    /// pick the right one even then.
    void noteOrigin(float value, uint8_t array, long long index);

    /// Registers an array (or finds it by name) and returns its id. `columnMajor`: see
    /// ArrayInfo::columnMajor.
    uint8_t arrayId(const std::string& name, Space space, int rows, int cols, bool columnMajor = false);

    /// Records an event of the traced block; `vector`: the EventFlag of a 128-bit access's
    /// element (takeVector()), or 0.
    void record(Op op, uint8_t array, long long index, float value, unsigned line, uint8_t vector = 0);
    /// record() and noteLoad() of a global load: one call, kept out of line so that the
    /// proxies inlined into every kernel stay small for the blocks that are not traced.
    [[gnu::noinline, gnu::cold]] void recordLoad(Op op, uint8_t array, long long index, float value, unsigned line,
                                                 uint8_t vector);
    /// record() and, for a SharedStore, noteOrigin() of a shared store (see recordLoad).
    [[gnu::noinline, gnu::cold]] void recordSharedStore(Op op, uint8_t array, long long slot, float value,
                                                        unsigned line, uint8_t vector, uint8_t fromArray,
                                                        long long from);

    /// The running thread's x.unrolled() tag (0: none); saved with the thread when it parks.
    uint8_t unrolled = 0;
    /// Elements left of the running thread's 128-bit access (x.ldg4, x.lds4, x.sts4 set 4).
    uint8_t vectorLeft = 0;
    /// What the element access being made is of a 128-bit access: kVectorHead (its first
    /// element), kVectorTail (one of the other three) or 0. Called once per element access.
    uint8_t takeVector()
    {
        if (vectorLeft == 0) [[likely]] return 0;
        return --vectorLeft == 3 ? kVectorHead : kVectorTail;
    }

    // Hazard detection (shared memory, and the plain accesses to arrays a kernel writes in
    // global memory): epochs number barrier intervals across the launch.
    uint32_t epoch = 1;                 ///< current barrier interval
    /// The detector's bookkeeping of the global elements the running block wrote or read
    /// through a writable pointer, by (array << 40 | element); cleared when a block starts,
    /// so only two threads of one block race here (blocks run on one worker each, and no
    /// barrier orders two blocks, so their plain accesses to one element are not judged).
    std::unordered_map<uint64_t, SlotState> globalSlots;
    SlotState& globalSlot(uint8_t array, long long i) { return globalSlots[uint64_t{array} << 40 | static_cast<uint64_t>(i)]; }

    // Hand-overs between blocks through flags (PMPP sec. 11.7), on for a kernel whose blocks
    // run one at a time (KernelInfo::atomics): each thread's latest plain global store, and
    // whether a __threadfence() followed it; an atomic that changes an element after such a
    // store publishes the store through that element (the flag); an atomic that leaves an
    // element as it was reads it (a wait, `atomicAdd(&flags[b], 0)`). Only the latest store
    // before a flag counts as its data.
    bool orderChecks = false;
    struct LastStore {
        unsigned line = 0;   ///< 0: none since the thread's latest flag
        uint8_t array = kNoArray;
        long long index = -1;
        bool fenced = false;
    };
    std::vector<LastStore> lastStores;   ///< by linear thread of the running block
    /// A published store: by (flag array << 40 | flag element).
    struct Publication {
        LastStore data;
        unsigned flagLine = 0;
        Uint3 block;
        bool waitReported = false;   ///< a NoFence OrderSite counted it already
    };
    std::unordered_map<uint64_t, Publication> publications;
    /// The published data elements, by (array << 40 | element): the publication's flag key.
    std::unordered_map<uint64_t, uint64_t> publishedData;
    std::vector<OrderSite> orderSites;
    /// A thread's wait on one element: an atomic that left it unchanged, repeated. More than
    /// kMaxWaits in a row is a wait that cannot end (endlessWait()).
    uint64_t waitKey = ~uint64_t{0};
    uint16_t waitThread = kNoThread;
    uint32_t waits = 0;
    static constexpr uint32_t kMaxWaits = 4096;
    /// The running thread stored element `index` of global `array` on `line`.
    void noteStore(uint8_t array, long long index, unsigned line)
    {
        if (tid < lastStores.size()) lastStores[tid] = LastStore{line, array, index, false};
    }
    /// The running thread's __threadfence().
    void noteFence()
    {
        if (tid < lastStores.size()) lastStores[tid].fenced = true;
    }
    /// The running thread's atomic on element `index` of global `array` at `line`, which
    /// changed it or not (see orderChecks).
    [[gnu::cold]] void noteAtomic(uint8_t array, long long index, bool changed, unsigned line);
    /// The running thread's plain (not volatile) load of element `index` of global `array`.
    [[gnu::cold]] void notePlainRead(uint8_t array, long long index, unsigned line);
    /// More than kMaxWaits atomics in a row left element `index` of `array` unchanged: a
    /// KernelFault saying that no other block can set it while this one waits.
    [[noreturn, gnu::cold]] void endlessWait(uint8_t array, long long index, unsigned line) const;
    /// By linear thread of the block being run: its shared accesses (ordinals) before the
    /// latest __syncwarp it passed since the barrier, and that __syncwarp's mask. Two
    /// accesses of lanes of one warp with such a __syncwarp between them are ordered, not a
    /// hazard (hazard()).
    std::vector<uint32_t> warpSyncOrdinal, warpSyncMask;
    uint16_t tid = kNoThread;           ///< linear index of the running thread
    uint32_t ordinal = 0;               ///< shared accesses of the running thread since its last barrier
    /// Memory reads of the running thread since its last barrier (or its start), and how many
    /// it may make before it is stopped as a loop that never ends (runaway()): runGrid sets
    /// 16 reads of every element of the launch's arrays, and 65536 more.
    uint64_t reads = 0;
    uint64_t readBudget = ~uint64_t{0};
    bool detectHazards = true;          ///< keep the per-slot bookkeeping of the hazard detector
    unsigned dropMask = 0;              ///< barriers skipped (bit per BarrierId)
    HazardLog hazards;
    Uint3 blockIdx;                     ///< the block being run
    ConstantMemory constant;            ///< the mask M of a convolution, if any
    /// Groups accesses into warp memory instructions (sim/engine/warp_memory.hpp); null when the
    /// memory model is off.
    WarpMemory* memory = nullptr;

    /// Called (rarely) when a shared access completes a hazard pair: classifies it by
    /// program order (HazardKind) and records it.
    void hazard(uint8_t array, long long slot, const HazardAccess& a, const HazardAccess& b);
    /// Called (rarely) when a thread reads a shared slot no thread of its block has written.
    void uninitialisedRead(uint8_t array, long long slot, unsigned line);
    /// Records an Op::Atomic event of the traced block: element `index` of `array` went from
    /// `before` to `after` (the bits of `before` in Event::origin).
    [[gnu::noinline, gnu::cold]] void recordAtomic(uint8_t array, long long index, float before, float after, unsigned line);
    /// The sequence number the next recorded event will get.
    uint32_t nextSeq() const { return static_cast<uint32_t>(events.size()); }

    [[noreturn]] void outOfBounds(uint8_t array, long long index, unsigned line) const;
    /// `v` as the float slot of element `index` of `array` holds it; an int or unsigned value
    /// beyond +-2^24 cannot be held exactly and is a KernelFault (inexactInteger).
    template <class V>
    float slotOf(V v, uint8_t array, long long index, unsigned line) const
    {
        if constexpr (!std::is_same_v<V, float>) {
            const long long n = static_cast<long long>(v);
            if (n > kExactIntegers || n < -kExactIntegers) [[unlikely]]
                inexactInteger(n, array, index, line);
        }
        return static_cast<float>(v);
    }
    /// The running thread stored `v` into element `index` of `array` on `line`, an integer the
    /// simulator's float slot cannot hold exactly: a KernelFault saying so.
    [[noreturn, gnu::cold]] void inexactInteger(long long v, uint8_t array, long long index, unsigned line) const;
    /// The running thread made more than readBudget reads without reaching a barrier or its
    /// end: a KernelFault naming it and `line`, the line of its latest read.
    [[noreturn, gnu::cold]] void runaway(unsigned line) const;
    /// A thread's local array `name` (`extent` elements along the dimension indexed) was
    /// indexed at `index` on `line`: a student's kernel (ThreadContext::localIndex).
    [[noreturn]] void localOutOfBounds(const char* name, long long index, long long extent, unsigned line) const;
    [[noreturn]] void outOfBounds2d(uint8_t array, long long row, long long col,
                                    unsigned line) const;
    std::string whoAmI() const;
};

/// a * b, not yet added anywhere: `float += Product` turns it into one fused multiply-add.
struct Product {
    float a, b;
    Machine* m;
    unsigned line;
    /// Used on its own (not accumulated), the product rounds like a plain multiply.
    operator float() const { return a * b; }
};

/// `acc += a * b` as the GPU computes it: one rounding (std::fma), recorded as an Fma.
inline float& operator+=(float& acc, const Product& p)
{
    acc = fusedMultiplyAdd(p.a, p.b, acc);
    ++p.m->fmas;
    if (p.m->tracing) p.m->record(Op::Fma, kNoArray, -1, acc, p.line);
    return acc;
}

/// Read access to one element of global or constant memory: counts the load in the
/// block's totals (field COUNT), per element, and records it as OP for the traced block.
/// V: the element's type (kElementType), read from its float slot.
template <Op OP, uint64_t Totals::*COUNT, class V = float>
class ReadRef {
public:
    ReadRef(const float* data, uint32_t* loads, Machine* m, uint8_t array, long long i,
            unsigned line)
        : data_(data), loads_(loads), m_(m), array_(array), i_(i), line_(line) {}
    V load() const
    {
        if (++m_->reads > m_->readBudget) [[unlikely]]
            m_->runaway(line_);
        ++(m_->blockTotals->*COUNT);
        ++loads_[i_];
        const uint8_t vector = m_->takeVector();
        if (m_->memory)
            m_->memory->access(OP == Op::GlobalLoad ? AccessKind::GlobalLoad : AccessKind::ConstantLoad,
                               array_, line_, wordOf<V>(i_), vector, m_->unrolled);
        float v = data_[i_];
        if (m_->tracing) [[unlikely]]
            m_->recordLoad(OP, array_, i_, v, line_, vector);
        return fromSlot<V>(v);
    }
    operator V() const { return load(); }
    unsigned line() const { return line_; }
    Machine* machine() const { return m_; }
    uint8_t array() const { return array_; }
    long long index() const { return i_; }

protected:
    const float* data_;
    uint32_t* loads_;
    Machine* m_;
    uint8_t array_;
    long long i_;
    unsigned line_;
};

/// Read access to one element of global memory of type V.
template <class V>
using GlobalRefOf = ReadRef<Op::GlobalLoad, &Totals::global_loads, V>;
/// Read access to one float of global memory.
using GlobalRef = GlobalRefOf<float>;
/// Read access to one element of constant memory (`M[j]` of a convolution kernel).
using ConstantRef = ReadRef<Op::ConstantLoad, &Totals::constant_loads>;

/// The hazard detector's bookkeeping of a read of `slot` of `array` (state `st`) by the
/// running thread: a hazard with another thread's write in this barrier interval; the first
/// two readers kept for later writes. `shared`: a read of a slot no thread wrote is an
/// uninitialised read (a global element holds its input).
inline void trackRead(Machine* m, SlotState& st, uint8_t array, long long slot, unsigned line, bool shared)
{
    const uint32_t ep = m->epoch;
    const uint16_t tid = m->tid;
    const uint32_t ord = m->ordinal++;
    if (st.writeEpoch == ep && st.writer != tid) [[unlikely]]
        m->hazard(array, slot, {st.writer, st.writeLine, true, st.writeSeq, st.writeOrd}, {tid, line, false, m->nextSeq(), ord});
    if (shared && st.writeEpoch == 0) [[unlikely]]
        m->uninitialisedRead(array, slot, line);
    if (st.readEpoch != ep) {
        st.readEpoch = ep;
        st.reader = tid;
        st.readLine = static_cast<uint16_t>(line);
        st.readSeq = m->tracing ? m->nextSeq() : 0;
        st.readOrd = ord;
        st.otherReader = kNoThread;
    } else if (st.reader != tid && st.otherReader == kNoThread) [[unlikely]] {
        st.otherReader = tid;
        st.otherReadLine = static_cast<uint16_t>(line);
        st.otherReadSeq = m->tracing ? m->nextSeq() : 0;
        st.otherReadOrd = ord;
    }
}

/// The same for a write, or an atomic (`atomic`): a hazard with another thread's write or
/// read in this barrier interval, except that two threads' atomics on the slot are none (the
/// hardware orders them).
inline void trackWrite(Machine* m, SlotState& st, uint8_t array, long long slot, unsigned line, bool atomic)
{
    const uint32_t ep = m->epoch;
    const uint16_t tid = m->tid;
    const uint32_t seq = m->nextSeq();
    const uint32_t ord = m->ordinal++;
    const HazardAccess me{tid, line, true, seq, ord};
    if (st.writeEpoch == ep && st.writer != tid && !(atomic && st.atomicWrite))
        m->hazard(array, slot, {st.writer, st.writeLine, true, st.writeSeq, st.writeOrd}, me);
    if (st.readEpoch == ep) {
        if (st.reader != tid)
            m->hazard(array, slot, {st.reader, st.readLine, false, st.readSeq, st.readOrd}, me);
        else if (st.otherReader != kNoThread)
            m->hazard(array, slot, {st.otherReader, st.otherReadLine, false, st.otherReadSeq, st.otherReadOrd}, me);
    }
    st.writeEpoch = ep;
    st.writer = tid;
    st.writeLine = static_cast<uint16_t>(line);
    st.writeSeq = seq;
    st.writeOrd = ord;
    st.atomicWrite = atomic;
}

/// Write (and read) access to one element of type V of a writable global array.
template <class V>
class GlobalWriteRefOf : public GlobalRefOf<V> {
    using Base = GlobalRefOf<V>;
    using Base::array_;
    using Base::i_;
    using Base::line_;
    using Base::m_;

public:
    /// `isVolatile`: the element of a `volatile` pointer (GlobalPtr<volatile float>), which the
    /// GPU reads from L2 every time, never from a stale L1 copy (Machine::orderChecks).
    GlobalWriteRefOf(float* data, uint32_t* loads, uint32_t* stores, uint32_t* writers, Machine* m, uint8_t array,
                     long long i, unsigned line, bool isVolatile = false)
        : Base(data, loads, m, array, i, line), writable_(data), stores_(stores), writers_(writers), volatile_(isVolatile) {}
    /// A read of the element: counted as any global load, and judged by the hazard detector
    /// against the block's other threads' writes (a plain read-modify-write race, PMPP sec. 9.2).
    V load() const
    {
        if (m_->detectHazards) trackRead(m_, m_->globalSlot(array_, i_), array_, i_, line_, false);
        if (m_->orderChecks && !volatile_) [[unlikely]]
            m_->notePlainRead(array_, i_, line_);
        return Base::load();
    }
    operator V() const { return load(); }

    GlobalWriteRefOf& operator=(V v)
    {
        const float slot = m_->slotOf(v, array_, i_, line_);
        if (m_->detectHazards) trackWrite(m_, m_->globalSlot(array_, i_), array_, i_, line_, false);
        if (m_->orderChecks) [[unlikely]]
            m_->noteStore(array_, i_, line_);
        ++m_->blockTotals->global_stores;
        ++stores_[i_];
        if (writers_) writers_[i_] = static_cast<uint32_t>(m_->writerBase + m_->tid);
        const uint8_t vector = m_->takeVector();
        if (m_->memory)
            m_->memory->access(AccessKind::GlobalStore, array_, line_, static_cast<uint32_t>(i_), vector, m_->unrolled);
        writable_[i_] = slot;
        if (m_->tracing) m_->record(Op::GlobalStore, array_, i_, slot, line_, vector);
        return *this;
    }
    GlobalWriteRefOf& operator=(const GlobalWriteRefOf& o) { return *this = o.load(); }
    /// `input[i] += input[i + stride]` (PMPP Fig. 10.6): a load of this element, then of the
    /// operand (a memory reference loads only now, so the trace reads left to right, as the
    /// source does), then a store of the sum.
    template <class R>
    GlobalWriteRefOf& operator+=(const R& r)
    {
        const V mine = this->load();
        if constexpr (std::is_same_v<V, float>) ++this->m_->fadds;
        if constexpr (std::is_arithmetic_v<R>) return *this = static_cast<V>(mine + static_cast<V>(r));
        else return *this = static_cast<V>(mine + r.load());
    }
    /// `histo[b]++` and `++histo[b]` (PMPP Fig. 9.6 without its atomicAdd): a plain load and a
    /// store of the value plus 1, two accesses another thread can come between, so the
    /// hazard detector names the race and counts are lost, as on the GPU.
    V operator++(int)
        requires(!std::is_same_v<V, float>)
    {
        const V old = this->load();
        *this = static_cast<V>(old + 1);
        return old;
    }
    GlobalWriteRefOf& operator++()
        requires(!std::is_same_v<V, float>)
    {
        (*this)++;
        return *this;
    }
    /// `&p[i]`, the address an atomic takes (ThreadContext::atomicAdd): this element.
    const GlobalWriteRefOf* operator&() const { return this; }

    /// The atomic read-modify-write `element = f(element)` of the running thread: counted as
    /// one global atomic (Totals::global_atomics, the warp's atomic request) and as one read
    /// of the thread's budget (a spinning atomicCAS loop is stopped as an endless loop is),
    /// the element counted as stored by this thread, recorded as an Op::Atomic event with
    /// the value before and after. Returns the value before, as CUDA's atomics do.
    template <class F>
    V atomic(F f) const
    {
        if (++m_->reads > m_->readBudget) [[unlikely]]
            m_->runaway(line_);
        ++m_->blockTotals->global_atomics;
        if (m_->detectHazards) trackWrite(m_, m_->globalSlot(array_, i_), array_, i_, line_, true);
        ++stores_[i_];
        if (writers_) writers_[i_] = static_cast<uint32_t>(m_->writerBase + m_->tid);
        if (m_->memory) m_->memory->access(AccessKind::GlobalAtomic, array_, line_, static_cast<uint32_t>(i_), 0, m_->unrolled);
        const float before = writable_[i_];
        const float after = m_->slotOf(static_cast<V>(f(fromSlot<V>(before))), array_, i_, line_);
        writable_[i_] = after;
        if (m_->tracing) [[unlikely]]
            m_->recordAtomic(array_, i_, before, after, line_);
        if (m_->orderChecks) [[unlikely]]
            m_->noteAtomic(array_, i_, std::memcmp(&before, &after, sizeof before) != 0, line_);
        return fromSlot<V>(before);
    }

private:
    float* writable_;
    uint32_t* stores_;
    uint32_t* writers_;
    bool volatile_;
};
/// Write (and read) access to one float of a writable global array.
using GlobalWriteRef = GlobalWriteRefOf<float>;

/// A kernel parameter pointing into global memory (`const float* M` / `float* P` on the
/// GPU). Indexing checks bounds and yields a recording reference.
template <class T>
class GlobalPtr {
    /// The element type, and the float slots that hold the elements (kElementType). A
    /// `volatile` element type (GlobalPtr<volatile float>, CUDA's `volatile float*`) reads and
    /// writes as its plain type; its loads are marked volatile (GlobalWriteRefOf).
    using V = std::remove_cv_t<T>;
    using Slot = std::conditional_t<std::is_const_v<T>, const float, float>;
    static_assert(std::is_const_v<T> ? kReadElementType<V> : kElementType<V>,
                  "the simulator models float, int and unsigned int arrays, and read-only char arrays");

public:
    GlobalPtr() = default;
    GlobalPtr(Slot* data, long long size, Machine* m, uint8_t array)
        : data_(data), size_(size), m_(m), array_(array),
          loads_(m->counters.elementLoads[array].data()),
          stores_(m->counters.elementStores[array].data())
    {
        // A char array is one byte an element (ArrayInfo::elementBytes, for the views' warps).
        if constexpr (sizeof(V) == 1) m->arrays[array].elementBytes = 1;
        if constexpr (!std::is_const_v<T>) {
            // The writers of an array the kernel may write (Counters::elementWriters).
            std::vector<uint32_t>& w = m->counters.elementWriters[array];
            if (w.empty() && m->keepWriters) w.assign(static_cast<size_t>(size), 0u);
            writers_ = w.empty() ? nullptr : w.data();
        }
    }

    /// The same array (id, counters, bounds) backed by `data`, which must hold as many
    /// elements: a binder that hands the kernel a differently laid out copy of an input
    /// (KernelInfo::nColumnMajor).
    GlobalPtr withData(Slot* data) const
    {
        GlobalPtr p = *this;
        p.data_ = data;
        return p;
    }

    /// The same array through a pointer the kernel may write: an input a student's kernel
    /// declares `float* M` rather than `const float* M`, as PMPP's figures do. Its stores
    /// count like any other.
    GlobalPtr<V> writable() const
        requires std::is_const_v<T>
    {
        return GlobalPtr<V>(const_cast<float*>(data_), size_, m_, array_);
    }

    /// The same array (id, counters, bounds, slots) with elements of type U, as constant as
    /// this one: a binder handing a kernel that declares `unsigned int* histo` its output.
    template <class U>
        requires(std::is_const_v<U> == std::is_const_v<T>)
    GlobalPtr<U> as() const
    {
        return GlobalPtr<U>(data_, size_, m_, array_);
    }

    auto operator[](Index ix) const
    {
        if (ix.i < 0 || ix.i >= size_) m_->outOfBounds(array_, ix.i, ix.line);
        if constexpr (std::is_const_v<T>)
            return GlobalRefOf<V>(data_, loads_, m_, array_, ix.i, ix.line);
        else
            return GlobalWriteRefOf<V>(data_, loads_, stores_, writers_, m_, array_, ix.i, ix.line, std::is_volatile_v<T>);
    }

private:
    Slot* data_ = nullptr;
    long long size_ = 0;
    Machine* m_ = nullptr;
    uint8_t array_ = kNoArray;
    uint32_t* loads_ = nullptr;
    uint32_t* stores_ = nullptr;
    uint32_t* writers_ = nullptr;
};

/// One slot of type V (kElementType) of a shared-memory array of the running block.
template <class V>
class SharedRefOf {
public:
    SharedRefOf(float* data, SlotState* state, uint32_t* loads, uint32_t* stores, Machine* m,
                uint8_t array, long long slot, unsigned line)
        : data_(data), state_(state), loads_(loads), stores_(stores), m_(m), array_(array),
          slot_(slot), line_(line) {}

    V load() const
    {
        if (++m_->reads > m_->readBudget) [[unlikely]]
            m_->runaway(line_);
        ++loads_[slot_];
        if (m_->detectHazards) track();
        const uint8_t vector = m_->takeVector();
        if (m_->memory)
            m_->memory->access(AccessKind::SharedLoad, array_, line_, static_cast<uint32_t>(slot_), vector, m_->unrolled);
        float v = data_[slot_];
        if (m_->tracing) m_->record(Op::SharedLoad, array_, slot_, v, line_, vector);
        return fromSlot<V>(v);
    }
    operator V() const { return load(); }
    unsigned line() const { return line_; }
    Machine* machine() const { return m_; }

    /// A tile load: global element into this slot.
    SharedRefOf& operator=(const GlobalRefOf<V>& g)
    {
        store(g.load(), Op::SharedStore, g.array(), g.index());
        return *this;
    }
    /// The same from a writable global array: its load is the writable element's (the hazard
    /// detector's, the hand-over checks').
    SharedRefOf& operator=(const GlobalWriteRefOf<V>& g)
    {
        store(g.load(), Op::SharedStore, g.array(), g.index());
        return *this;
    }
    /// A copy from another shared slot.
    SharedRefOf& operator=(const SharedRefOf& s) { store(s.load(), Op::SharedStore); return *this; }
    /// `input_s[t] += input_s[t + stride]` (PMPP Fig. 10.11): a load of the slot, then of the
    /// operand (left to right, as GlobalWriteRef's), then a store of the sum.
    template <class R>
    SharedRefOf& operator+=(const R& r)
    {
        const V mine = load();
        if constexpr (std::is_same_v<V, float>) ++m_->fadds;
        if constexpr (std::is_arithmetic_v<R>) store(static_cast<V>(mine + static_cast<V>(r)), Op::SharedStore);
        else store(static_cast<V>(mine + r.load()), Op::SharedStore);
        return *this;
    }
    /// `histo_s[b]++` and `++histo_s[b]`: a plain load and a store of the value plus 1, two
    /// accesses another thread can come between (PMPP sec. 9.2's race), as on the GPU.
    V operator++(int)
        requires(!std::is_same_v<V, float>)
    {
        const V old = load();
        store(static_cast<V>(old + 1), Op::SharedStore);
        return old;
    }
    SharedRefOf& operator++()
        requires(!std::is_same_v<V, float>)
    {
        (*this)++;
        return *this;
    }
    /// A register value; 0 is the zero fill of the boundary checks.
    SharedRefOf& operator=(V v) { store(v, v == V(0) ? Op::ZeroFill : Op::SharedStore); return *this; }
    /// `&histo_s[b]`, the address an atomic takes (ThreadContext::atomicAdd): this slot.
    const SharedRefOf* operator&() const { return this; }

    /// The atomic read-modify-write `slot = f(slot)` of the running thread (PMPP Fig. 9.10's
    /// privatized bins): counted as one shared atomic (Totals::shared_atomics, the warp's
    /// shared atomic instruction) and one read of the thread's budget, recorded as an
    /// Op::Atomic event with the value before and after. Atomics of different threads on a
    /// slot are no hazard to each other; a plain read or write of the slot by another thread
    /// in the same barrier interval is (trackWrite). Returns the value before.
    template <class F>
    V atomic(F f) const
    {
        if (++m_->reads > m_->readBudget) [[unlikely]]
            m_->runaway(line_);
        ++m_->blockTotals->shared_atomics;
        ++stores_[slot_];
        if (m_->detectHazards) trackWrite(true);
        if (m_->memory) m_->memory->access(AccessKind::SharedAtomic, array_, line_, static_cast<uint32_t>(slot_), 0, m_->unrolled);
        const float before = data_[slot_];
        const float after = m_->slotOf(static_cast<V>(f(fromSlot<V>(before))), array_, slot_, line_);
        data_[slot_] = after;
        if (m_->tracing) [[unlikely]]
            m_->recordAtomic(array_, slot_, before, after, line_);
        return fromSlot<V>(before);
    }

private:
    void track() const { trackRead(m_, state_[slot_], array_, slot_, line_, true); }

    /// Stores `v`; `from`/`fromArray`: the global element it was loaded from when the
    /// statement names it (Machine::noteOrigin finds it otherwise).
    void store(V value, Op op, uint8_t fromArray = kNoArray, long long from = -1)
    {
        const float v = m_->slotOf(value, array_, slot_, line_);
        ++m_->blockTotals->shared_stores;
        if (op == Op::ZeroFill) ++m_->blockTotals->zero_fills;
        ++stores_[slot_];
        if (m_->detectHazards) trackWrite();
        const uint8_t vector = m_->takeVector();
        if (m_->memory)
            m_->memory->access(AccessKind::SharedStore, array_, line_, static_cast<uint32_t>(slot_), vector, m_->unrolled);
        data_[slot_] = v;
        if (m_->tracing) [[unlikely]]
            m_->recordSharedStore(op, array_, slot_, v, line_, vector, fromArray, from);
    }

    void trackWrite(bool atomic = false) const { sim::trackWrite(m_, state_[slot_], array_, slot_, line_, atomic); }
    float* data_;
    SlotState* state_;
    uint32_t* loads_;
    uint32_t* stores_;
    Machine* m_;
    uint8_t array_;
    long long slot_;
    unsigned line_;
};
/// One float slot of a shared-memory array of the running block.
using SharedRef = SharedRefOf<float>;

/// A view of one block's 2D shared array (`__shared__ float Mds[R][C]` on the GPU), of
/// elements of type V (kElementType).
template <int ROWS, int COLS, class V = float>
class SharedArray2D {
public:
    SharedArray2D(float* data, SlotState* state, Machine* m, uint8_t array)
        : data_(data), state_(state), m_(m), array_(array), loads_(m->counters.elementLoads[array].data()),
          stores_(m->counters.elementStores[array].data()) {}

    struct Row {
        const SharedArray2D* a;
        long long r;
        unsigned line;
        SharedRefOf<V> operator[](Index c) const
        {
            if (c.i < 0 || c.i >= COLS) a->m_->outOfBounds2d(a->array_, r, c.i, c.line);
            return SharedRefOf<V>(a->data_, a->state_, a->loads_, a->stores_, a->m_, a->array_,
                             r * COLS + c.i, c.line);
        }
    };
    Row operator[](Index r) const
    {
        if (r.i < 0 || r.i >= ROWS) m_->outOfBounds2d(array_, r.i, 0, r.line);
        return Row{this, r.i, r.line};
    }

private:
    float* data_;
    SlotState* state_;
    Machine* m_;
    uint8_t array_;
    uint32_t* loads_;
    uint32_t* stores_;
};

/// A view of one block's 1D shared array (`__shared__ float N_ds[SIZE]` on the GPU), of
/// elements of type V (kElementType).
template <int SIZE, class V = float>
class SharedArray1D {
public:
    SharedArray1D(float* data, SlotState* state, Machine* m, uint8_t array)
        : data_(data), state_(state), m_(m), array_(array), loads_(m->counters.elementLoads[array].data()),
          stores_(m->counters.elementStores[array].data()) {}
    SharedRefOf<V> operator[](Index i) const
    {
        if (i.i < 0 || i.i >= SIZE) m_->outOfBounds(array_, i.i, i.line);
        return SharedRefOf<V>(data_, state_, loads_, stores_, m_, array_, i.i, i.line);
    }

private:
    float* data_;
    SlotState* state_;
    Machine* m_;
    uint8_t array_;
    uint32_t* loads_;
    uint32_t* stores_;
};


/// The per-element load counters of the launch's constant memory; a kernel that reads
/// the mask in a launch without one faults.
inline uint32_t* constantLoads(Machine* m)
{
    if (m->constant.array == kNoArray)
        throw KernelFault("the kernel reads the mask in constant memory, but this launch has none.");
    return m->counters.elementLoads[m->constant.array].data();
}

/// The mask in constant memory as a 1D kernel declares it (`__constant__ float
/// M[MAX_MASK_WIDTH]`, PMPP Fig. 7.11): M[j] for j below Mask_Width. Reading past
/// Mask_Width is reported as a fault, not read as padding.
class ConstantArray1D {
public:
    explicit ConstantArray1D(Machine* m) : loads_(constantLoads(m)), c_(m->constant), m_(m) {}
    ConstantRef operator[](Index j) const
    {
        if (j.i < 0 || j.i >= 1ll * c_.rows * c_.cols) m_->outOfBounds(c_.array, j.i, j.line);
        return ConstantRef(c_.data, loads_, m_, c_.array, j.i, j.line);
    }

private:
    uint32_t* loads_;
    ConstantMemory c_;
    Machine* m_;
};

/// The mask in constant memory as a 2D kernel declares it (`__constant__ float
/// Mc[MASK_WIDTH][MASK_WIDTH]`, PMPP sec. 7.3): Mc[i][j] for i and j below
/// Mask_Width. Reading past Mask_Width is reported as a fault, not read as padding.
class ConstantArray2D {
public:
    explicit ConstantArray2D(Machine* m) : loads_(constantLoads(m)), c_(m->constant), m_(m) {}
    struct Row {
        const ConstantArray2D* a;
        long long r;
        ConstantRef operator[](Index c) const
        {
            const ConstantMemory& k = a->c_;
            if (r < 0 || r >= k.rows || c.i < 0 || c.i >= k.cols)
                a->m_->outOfBounds2d(k.array, r, c.i, c.line);
            return ConstantRef(k.data, a->loads_, a->m_, k.array, r * k.cols + c.i, c.line);
        }
    };
    Row operator[](Index r) const { return Row{this, r.i}; }

private:
    uint32_t* loads_;
    ConstantMemory c_;
    Machine* m_;
};

template <class A> inline constexpr bool kIsRef =
    std::is_base_of_v<GlobalRef, A> || std::is_same_v<A, SharedRef> || std::is_same_v<A, ConstantRef>;

template <class A> inline float valueOf(const A& a)
{
    if constexpr (kIsRef<A>) return a.load(); else return static_cast<float>(a);
}

/// a * b where at least one side is a memory reference: loads both (left first) and
/// returns the unrounded product for a following `+=` to fuse.
template <class A, class B>
    requires(kIsRef<A> || kIsRef<B>)
inline Product operator*(const A& a, const B& b)
{
    Machine* m;
    unsigned line;
    if constexpr (kIsRef<A>) { m = a.machine(); line = a.line(); }
    else { m = b.machine(); line = b.line(); }
    float va = valueOf(a);
    float vb = valueOf(b);
    return Product{va, vb, m, line};
}

/// `a + b` where one side is a float element of memory and the other one too or a float
/// (`XY[t] + XY[t - stride]`, `Y[i - 1] + X[i]`, PMPP ch. 11): loads both, left first, and
/// counts one add (Totals::fadds), as the GPU's FADD. A product operand is the fused form below.
template <class A, class B>
    requires((kIsRef<A> && (kIsRef<B> || std::is_same_v<B, float>)) || (std::is_same_v<A, float> && kIsRef<B>))
inline float operator+(const A& a, const B& b)
{
    Machine* m;
    if constexpr (kIsRef<A>) m = a.machine();
    else m = b.machine();
    const float va = valueOf(a);
    const float vb = valueOf(b);
    ++m->fadds;
    return va + vb;
}

/// A float operand of a sum with a product: a float, or a memory reference (loaded).
template <class C> inline constexpr bool kFloatOperand = kIsRef<C> || std::is_same_v<C, float> || std::is_same_v<C, Product>;

/// `p + c`, `c + p`, `p - c` and `c - p` as nvcc contracts them by default: the product of
/// memory references and the float it is added to round once, std::fma (an FFMA on the
/// GPU), not counted as a multiply-add of the kernel's loop. Of `a*b + c*d` the left product
/// is fused and the right one rounded, as nvcc does. The compiler that builds a student's
/// module cannot fuse these itself: a load between the product and the sum may throw (an
/// access out of bounds), which ends the basic block it contracts within.
template <class C>
    requires kFloatOperand<C>
inline float operator+(const Product& p, const C& c)
{
    return fusedMultiplyAdd(p.a, p.b, valueOf(c));
}
template <class C>
    requires(kFloatOperand<C> && !std::is_same_v<C, Product>)
inline float operator+(const C& c, const Product& p)
{
    return fusedMultiplyAdd(p.a, p.b, valueOf(c));
}
template <class C>
    requires kFloatOperand<C>
inline float operator-(const Product& p, const C& c)
{
    return fusedMultiplyAdd(p.a, p.b, -valueOf(c));
}
template <class C>
    requires(kFloatOperand<C> && !std::is_same_v<C, Product>)
inline float operator-(const C& c, const Product& p)
{
    return fusedMultiplyAdd(-p.a, p.b, valueOf(c));
}

/// What an atomic may take the address of: an element of a writable global array or a slot
/// of a shared array; Value is its element type.
template <class R>
struct AtomicTarget;
template <class V>
struct AtomicTarget<GlobalWriteRefOf<V>> {
    using Value = V;
};
template <class V>
struct AtomicTarget<SharedRefOf<V>> {
    using Value = V;
};

/// One block's shared memory, allocated on first use by its first thread.
struct SharedAllocation {
    int id;                  ///< the declaring source line
    uint8_t array;
    std::vector<float> data;
    std::vector<SlotState> state;   ///< hazard-detector bookkeeping per slot
};

/// The simulated thread: CUDA's built-in variables, the barrier, and shared memory.
/// Kernels take it as `X& x` and write `x.threadIdx.x`, `x.syncthreads()`.
class ThreadContext {
public:
    Uint3 threadIdx, blockIdx;
    Dim3 blockDim, gridDim;

    template <class T> using GlobalPtr = sim::GlobalPtr<T>;
    /// Array `p` with elements of type U (as constant as `p`): a registry row handing a kernel
    /// that declares `const char* data` or `unsigned int* histo` its described arrays (PMPP
    /// ch. 9), which the problem hands over as float arrays (sim/engine/problem.hpp).
    template <class U, class T>
    static sim::GlobalPtr<U> elementsAs(const sim::GlobalPtr<T>& p)
    {
        return p.template as<U>();
    }

    /// fmaf(a, b, c) on values held in registers (a register-tiled kernel's
    /// `acc[m][n] = x.fmaf(Mreg[m], Nreg[n], acc[m][n])`): one rounding, as the GPU's FFMA
    /// (and as `acc += a * b` on a memory reference); counted and recorded as an Fma.
    float fmaf(float a, float b, float c, SourceLine loc = SourceLine::current())
    {
        const float r = fusedMultiplyAdd(a, b, c);
        ++machine_->fmas;
        if (machine_->tracing) machine_->record(Op::Fma, kNoArray, -1, r, loc.line());
        return r;
    }

    /// `index` when it lies in [0, extent), else a KernelFault naming the thread, the local
    /// array `name` and the line. A student's kernel indexes its local arrays only through
    /// this (frontend/translate_body.cpp inserts it into every subscript), so an index far outside
    /// a thread's registers is a fault the views show, never a write into other memory.
    long long localIndex(long long index, long long extent, const char* name, SourceLine loc = SourceLine::current()) const
    {
        if (index < 0 || index >= extent) machine_->localOutOfBounds(name, index, extent, loc.line());
        return index;
    }

    /// The tag of one iteration of an unrolled loop, held while it lives (see unrolled()).
    class Unrolled {
    public:
        Unrolled(Machine* m, uint8_t tag) : m_(m), previous_(m->unrolled) { m->unrolled = tag; }
        ~Unrolled() { m_->unrolled = previous_; }
        Unrolled(const Unrolled&) = delete;
        Unrolled& operator=(const Unrolled&) = delete;

    private:
        Machine* m_;
        uint8_t previous_;
    };
    /// `const auto iteration = x.unrolled(i);` at the top of a loop body: the accesses up to
    /// the end of the body belong to iteration `i` of a loop that nvcc unrolls (a constant
    /// trip count). The GPU runs each iteration's accesses as instructions of their own, so
    /// the warp memory model matches the lanes by `i` where some skip a guarded access (the
    /// store of a P element outside the matrix) instead of shifting their later accesses
    /// onto other instructions. Nested loops pass one number for both (m * TN + n); numbers
    /// past 254 share a tag. Counts nothing; on the GPU it compiles to nothing.
    [[nodiscard]] Unrolled unrolled(unsigned i)
    {
        return Unrolled(machine_, static_cast<uint8_t>(std::min(i, 254u) + 1));
    }

    /// Four consecutive floats as one 128-bit access (CUDA's float4: members x, y, z, w).
    struct Float4 {
        float x, y, z, w;
    };

    /// `*reinterpret_cast<const float4*>(&p[i])`: elements i .. i + 3 of global array `p`
    /// in one 128-bit load (LDG.128). `i` must be a multiple of 4 (cudaMalloc's arrays start
    /// on a 256-byte boundary, so the address is then 16-byte aligned); otherwise the GPU
    /// faults, and so does the simulator. Recorded as four loads of the same line.
    template <class T>
    Float4 ldg4(const sim::GlobalPtr<T>& p, long long i, SourceLine loc = SourceLine::current())
    {
        if (i % 4 != 0) misaligned("global", i, loc.line());
        const unsigned l = loc.line();
        machine_->vectorLeft = 4;
        return Float4{p[Index::at(i, l)], p[Index::at(i + 1, l)], p[Index::at(i + 2, l)],
                      p[Index::at(i + 3, l)]};
    }
    /// `*reinterpret_cast<float4*>(&p[i]) = v`: elements i .. i + 3 of global array `p`
    /// written in one 128-bit store (STG.128); `i` a multiple of 4, as for ldg4. Recorded as
    /// four stores of the same line.
    template <class T>
    void stg4(const sim::GlobalPtr<T>& p, long long i, const Float4& v, SourceLine loc = SourceLine::current())
    {
        if (i % 4 != 0) misaligned("global", i, loc.line());
        const unsigned l = loc.line();
        machine_->vectorLeft = 4;
        p[Index::at(i, l)] = v.x;
        p[Index::at(i + 1, l)] = v.y;
        p[Index::at(i + 2, l)] = v.z;
        p[Index::at(i + 3, l)] = v.w;
    }
    /// Slots c .. c + 3 of a row of a shared array (`Mds[r]`) in one 128-bit load (LDS.128);
    /// c must be a multiple of 4 and the row's length too, as for ldg4.
    template <class Row>
    Float4 lds4(const Row& row, long long c, SourceLine loc = SourceLine::current())
    {
        if (c % 4 != 0) misaligned("shared", c, loc.line());
        const unsigned l = loc.line();
        machine_->vectorLeft = 4;
        return Float4{row[Index::at(c, l)], row[Index::at(c + 1, l)], row[Index::at(c + 2, l)],
                      row[Index::at(c + 3, l)]};
    }
    /// Slots c .. c + 3 of a row of a shared array written in one 128-bit store (STS.128).
    template <class Row>
    void sts4(const Row& row, long long c, const Float4& v, SourceLine loc = SourceLine::current())
    {
        if (c % 4 != 0) misaligned("shared", c, loc.line());
        const unsigned l = loc.line();
        machine_->vectorLeft = 4;
        row[Index::at(c, l)] = v.x;
        row[Index::at(c + 1, l)] = v.y;
        row[Index::at(c + 2, l)] = v.z;
        row[Index::at(c + 3, l)] = v.w;
    }

    /// `if (x.branch(cond))`, `for (...; x.branch(cond); ...)`: a condition the lanes of a
    /// warp may answer differently (PMPP sec. 4.5 and 10.4, control divergence). Returns
    /// `cond`; the warp model (sim/engine/warp_memory.hpp) groups the lanes that evaluate it
    /// together and counts the execution as divergent when they split, uniform when not
    /// (Totals::branch_*), and the traced block records it (Op::Branch). A condition a kernel
    /// leaves unmarked is not counted: one that nvcc compiles to a predicated instruction
    /// rather than a branch (the kernel's comment says so). On the GPU it is `cond`.
    bool branch(bool cond, SourceLine loc = SourceLine::current())
    {
        Machine* m = machine_;
        if (m->memory) m->memory->access(AccessKind::Branch, kNoArray, loc.line(), cond ? 1u : 0u, 0, m->unrolled);
        if (m->tracing) [[unlikely]]
            m->record(Op::Branch, kNoArray, -1, cond ? 1.0f : 0.0f, loc.line());
        return cond;
    }

    /// CUDA's atomic operations on an element of global memory (`x.atomicAdd(&p[i], v)`,
    /// `x.atomicAdd(p, v)` for element 0, as PMPP Fig. 10.13's `atomicAdd(output, ...)`) or
    /// of shared memory (`x.atomicAdd(&histo_s[b], 1u)`, PMPP Fig. 9.10): one indivisible
    /// read-modify-write, returning the old value. atomicAdd and atomicExch take float, int
    /// and unsigned elements; atomicSub, atomicMax, atomicMin and atomicCAS int and unsigned
    /// ones, as CUDA's overloads do (unsigned arithmetic wraps, and a result beyond 2^24 is
    /// a fault, Machine::slotOf). Atomics of different threads apply in the order the
    /// schedule runs them (a kernel with atomics runs its blocks on one worker in the
    /// schedule's order, KernelInfo::atomics), so a float sum's rounding follows the
    /// schedule, as on the GPU it follows the hardware's order.
    template <class R, class V = typename AtomicTarget<R>::Value>
    V atomicAdd(const R* element, std::type_identity_t<V> v) const
    {
        return element->atomic([v](V old) { return static_cast<V>(old + v); });
    }
    template <class V>
    V atomicAdd(const sim::GlobalPtr<V>& p, std::type_identity_t<V> v, SourceLine loc = SourceLine::current()) const
    {
        const auto element = p[Index::at(0, loc.line())];
        return atomicAdd(&element, v);
    }
    template <class R, class V = typename AtomicTarget<R>::Value>
    V atomicExch(const R* element, std::type_identity_t<V> v) const
    {
        return element->atomic([v](V) { return v; });
    }
    template <class R, class V = typename AtomicTarget<R>::Value>
        requires(!std::is_same_v<V, float>)
    V atomicSub(const R* element, std::type_identity_t<V> v) const
    {
        return element->atomic([v](V old) { return static_cast<V>(old - v); });
    }
    template <class R, class V = typename AtomicTarget<R>::Value>
        requires(!std::is_same_v<V, float>)
    V atomicMax(const R* element, std::type_identity_t<V> v) const
    {
        return element->atomic([v](V old) { return old < v ? v : old; });
    }
    template <class R, class V = typename AtomicTarget<R>::Value>
        requires(!std::is_same_v<V, float>)
    V atomicMin(const R* element, std::type_identity_t<V> v) const
    {
        return element->atomic([v](V old) { return v < old ? v : old; });
    }
    /// atomicCAS(address, compare, val): element = (old == compare ? val : old).
    template <class R, class V = typename AtomicTarget<R>::Value>
        requires(!std::is_same_v<V, float>)
    V atomicCAS(const R* element, std::type_identity_t<V> compare, std::type_identity_t<V> v) const
    {
        return element->atomic([compare, v](V old) { return old == compare ? v : old; });
    }

    /// CUDA's warp shuffles (PMPP sec. 10.8's warp-level finish; the CUDA C++ Programming
    /// Guide's "Warp Shuffle Functions"): every lane named in `mask` that has not exited
    /// must reach the same shuffle on the same line with the same mask; the lanes meet there
    /// (the simulator parks each until the last arrives, ThreadContext::warpExchange) and
    /// each receives `var` of its source lane. `width` (a power of two from 1 to 32) splits
    /// the warp into groups of that many lanes. A calling lane missing from its own `mask`,
    /// a lane of the mask waiting elsewhere (another shuffle, a barrier), a source lane that
    /// does not take part (exited, or outside the mask) and a bad width are KernelFaults
    /// naming the line: CUDA leaves their result undefined. `T`: float, int or unsigned.
    /// On the GPU they are __shfl_sync and its kin.
    ///
    /// shfl_sync: the value of lane `srcLane` (modulo `width`, within the caller's group).
    template <class T>
    T shfl_sync(unsigned mask, T var, int srcLane, int width = 32, SourceLine loc = SourceLine::current())
    {
        return shuffle(WarpOp::Index, mask, var, srcLane, width, loc.line());
    }
    /// shfl_up_sync: the value of the lane `delta` below; lanes whose source would fall below
    /// their group keep their own value.
    template <class T>
    T shfl_up_sync(unsigned mask, T var, unsigned delta, int width = 32, SourceLine loc = SourceLine::current())
    {
        return shuffle(WarpOp::Up, mask, var, static_cast<int>(delta), width, loc.line());
    }
    /// shfl_down_sync: the value of the lane `delta` above (the reduction's
    /// `sum += __shfl_down_sync(FULL_MASK, sum, offset)`); lanes whose source would pass the
    /// end of their group keep their own value.
    template <class T>
    T shfl_down_sync(unsigned mask, T var, unsigned delta, int width = 32, SourceLine loc = SourceLine::current())
    {
        return shuffle(WarpOp::Down, mask, var, static_cast<int>(delta), width, loc.line());
    }
    /// shfl_xor_sync: the value of lane `lane ^ laneMask` (the butterfly); a source in a
    /// later group of `width` lanes leaves the caller its own value.
    template <class T>
    T shfl_xor_sync(unsigned mask, T var, int laneMask, int width = 32, SourceLine loc = SourceLine::current())
    {
        return shuffle(WarpOp::Xor, mask, var, laneMask, width, loc.line());
    }
    /// __syncwarp(mask): the lanes of `mask` meet as at a shuffle, with no value; shared
    /// memory written by one of them before it is then visible to the others after it
    /// (the hazard detector orders such accesses).
    void syncwarp(unsigned mask = 0xffffffffu, SourceLine loc = SourceLine::current())
    {
        warpExchange(WarpOp::Sync, mask, 0, 0, 32, loc.line());
    }

    /// __threadfence() (PMPP sec. 11.7): the thread's global stores before it are seen by every
    /// other block before its stores after it. The simulator's blocks run one at a time, so
    /// every store is seen at once; what it keeps is the fence's place, to tell a hand-over
    /// between blocks that lacks it (Machine::orderChecks, OrderKind::NoFence). `barrier` names
    /// it (kernels::FENCE) so that --drop-barrier fence skips it, as on the GPU.
    void threadfence(unsigned barrier = 0) const
    {
        if (machine_->dropMask & barrier) return;
        if (machine_->orderChecks) machine_->noteFence();
    }

    /// __syncthreads(): parks this thread until every thread of the block has arrived.
    /// `barrier` names it (ts::kernels::Barrier); a barrier in the machine's drop mask is
    /// skipped by every thread.
    void syncthreads(unsigned barrier = 0,
                     SourceLine loc = SourceLine::current());

    template <class T, int ROWS, int COLS, int ID>
    SharedArray2D<ROWS, COLS, T> shared2d(const char* name)
    {
        static_assert(kElementType<T>, "the simulator models float, int and unsigned int arrays");
        SharedAllocation& s = sharedAlloc(ID, name, ROWS, COLS);
        return SharedArray2D<ROWS, COLS, T>(s.data.data(), s.state.data(), machine_, s.array);
    }
    template <class T, int SIZE, int ID>
    SharedArray1D<SIZE, T> shared1d(const char* name)
    {
        static_assert(kElementType<T>, "the simulator models float, int and unsigned int arrays");
        SharedAllocation& s = sharedAlloc(ID, name, 1, SIZE);
        return SharedArray1D<SIZE, T>(s.data.data(), s.state.data(), machine_, s.array);
    }

    /// The convolution mask in constant memory, as 1D kernels declare it
    /// (`__constant__ float M[MAX_MASK_WIDTH]`).
    ConstantArray1D mask1d() const { return ConstantArray1D(machine_); }
    /// The same mask as 2D kernels declare it (`__constant__ float Mc[..][..]`).
    ConstantArray2D mask2d() const { return ConstantArray2D(machine_); }

    // Set by the scheduler.
    Machine* machine_ = nullptr;
    std::vector<SharedAllocation>* shared_ = nullptr;
    uint16_t tid_ = 0;
    void* fiber_ = nullptr;   ///< scheduler-private state of this thread's fiber

    /// What a warp rendezvous does (warpExchange).
    enum class WarpOp : uint8_t { Sync, Index, Up, Down, Xor };
    /// What a lane gets from a warp rendezvous: the source lane's bits and which lane.
    struct WarpResult {
        uint32_t bits = 0;
        unsigned source = 0;
    };
    /// Parks this lane at the warp rendezvous `op` of `line` with its value's bits; the
    /// scheduler (machine.cpp) releases the lanes of `mask` together once all have arrived
    /// and hands each its source lane's bits. Throws KernelFault as shfl_sync says.
    WarpResult warpExchange(WarpOp op, unsigned mask, uint32_t bits, int arg, int width, unsigned line);

private:
    template <class T>
    T shuffle(WarpOp op, unsigned mask, T var, int arg, int width, unsigned line)
    {
        static_assert(std::is_same_v<T, float> || std::is_same_v<T, int> || std::is_same_v<T, unsigned>,
                      "the simulator shuffles float, int and unsigned values");
        // (std::memcpy, not std::bit_cast, which the web build's libc++ lacks.)
        uint32_t bits = 0;
        std::memcpy(&bits, &var, sizeof bits);
        const WarpResult r = warpExchange(op, mask, bits, arg, width, line);
        T got;
        std::memcpy(&got, &r.bits, sizeof got);
        if (machine_->tracing) [[unlikely]]
            machine_->record(Op::Shuffle, kNoArray, r.source, static_cast<float>(got), line);
        return got;
    }
    SharedAllocation& sharedAlloc(int id, const char* name, int rows, int cols);
    /// Throws KernelFault: a 128-bit access at an element index that is not a multiple of 4.
    [[noreturn]] void misaligned(const char* space, long long index, unsigned line) const;
};

}  // namespace ts::sim
