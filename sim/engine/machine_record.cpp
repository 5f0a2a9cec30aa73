// What a Machine records of each access (sim/engine/machine.hpp): the launch's arrays, loads,
// stores and where values came from, and the faults it reports (hazards, uninitialised reads,
// out-of-bounds, misaligned and runaway accesses); a block's __shared__ arrays.
#include "sim/engine/machine.hpp"

#include <algorithm>
#include <cstring>
#include <limits>
#include <sstream>
#include <string>
#include <utility>

namespace ts::sim {

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
    global_ld_requests += o.global_ld_requests;
    global_ld_sectors += o.global_ld_sectors;
    global_st_requests += o.global_st_requests;
    global_st_sectors += o.global_st_sectors;
    shared_ld_requests += o.shared_ld_requests;
    shared_ld_wavefronts += o.shared_ld_wavefronts;
    shared_st_requests += o.shared_st_requests;
    shared_st_wavefronts += o.shared_st_wavefronts;
    shared_ld_conflicts += o.shared_ld_conflicts;
    shared_st_conflicts += o.shared_st_conflicts;
    constant_ld_requests += o.constant_ld_requests;
    constant_ld_passes += o.constant_ld_passes;
    branch_uniform += o.branch_uniform;
    branch_divergent += o.branch_divergent;
    branch_lanes += o.branch_lanes;
    global_atomics += o.global_atomics;
    global_atom_requests += o.global_atom_requests;
    global_atom_passes += o.global_atom_passes;
    shared_atomics += o.shared_atomics;
    shared_atom_requests += o.shared_atom_requests;
    shared_atom_passes += o.shared_atom_passes;
    fadds += o.fadds;
    return *this;
}

uint8_t Machine::arrayId(const std::string& name, Space space, int rows, int cols, bool columnMajor)
{
    for (size_t i = 0; i < arrays.size(); ++i)
        if (arrays[i].name == name) return static_cast<uint8_t>(i);
    if (arrays.size() >= kNoArray) throw KernelFault("the kernel declares too many arrays");
    arrays.push_back(ArrayInfo{name, space, rows, cols, columnMajor});
    counters.elementLoads.emplace_back(static_cast<size_t>(rows) * cols, 0u);
    counters.elementStores.emplace_back(static_cast<size_t>(rows) * cols, 0u);
    counters.elementWriters.emplace_back();   // sized by the first GlobalPtr that may write it
    return static_cast<uint8_t>(arrays.size() - 1);
}

void Machine::noteLoad(float value, uint8_t array, long long index)
{
    if (current == nullptr) return;
    if (pendingLoads.size() <= tid) pendingLoads.resize(static_cast<size_t>(tid) + 1);
    std::vector<PendingLoad>& p = pendingLoads[tid];
    if (p.size() == kPendingLoads) p.erase(p.begin());
    p.push_back(PendingLoad{value, array, static_cast<int32_t>(index)});
}

void Machine::noteOrigin(float value, uint8_t array, long long index)
{
    Event& e = events.back();
    if (tid >= pendingLoads.size()) {
        if (array != kNoArray) e.originArray = array, e.origin = static_cast<int32_t>(index);
        return;
    }
    std::vector<PendingLoad>& p = pendingLoads[tid];
    if (array != kNoArray) {
        // `slot = global element`: that load is the thread's latest of it.
        e.originArray = array;
        e.origin = static_cast<int32_t>(index);
        for (size_t i = p.size(); i-- > 0;)
            if (p[i].array == array && p[i].index == index) {
                p.erase(p.begin() + static_cast<std::ptrdiff_t>(i));
                break;
            }
        return;
    }
    uint32_t bits;
    std::memcpy(&bits, &value, sizeof bits);
    for (size_t i = 0; i < p.size(); ++i) {
        uint32_t b;
        std::memcpy(&b, &p[i].value, sizeof b);
        if (b != bits) continue;
        e.originArray = p[i].array;
        e.origin = p[i].index;
        p.erase(p.begin() + static_cast<std::ptrdiff_t>(i));
        return;
    }
}

void Machine::recordLoad(Op op, uint8_t array, long long index, float value, unsigned line, uint8_t vector)
{
    record(op, array, index, value, line, vector);
    if (op == Op::GlobalLoad) noteLoad(value, array, index);
}

void Machine::recordSharedStore(Op op, uint8_t array, long long slot, float value, unsigned line, uint8_t vector,
                                uint8_t fromArray, long long from)
{
    record(op, array, slot, value, line, vector);
    if (op == Op::SharedStore) noteOrigin(value, fromArray, from);
}

void Machine::record(Op op, uint8_t array, long long index, float value, unsigned line, uint8_t vector)
{
    Event e;
    e.seq = static_cast<uint32_t>(events.size());
    e.index = static_cast<int32_t>(index);
    e.value = value;
    e.thread = current ? current->tid_ : kNoThread;
    e.line = static_cast<uint16_t>(std::min<unsigned>(line, 0xFFFF));
    e.op = op;
    e.array = array;
    e.flags = vector;
    e.unrolled = unrolled;
    events.push_back(e);
}

void Machine::recordAtomic(uint8_t array, long long index, float before, float after, unsigned line)
{
    record(Op::Atomic, array, index, after, line);
    int32_t bits;
    std::memcpy(&bits, &before, sizeof bits);
    events.back().origin = bits;
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

void Machine::hazard(uint8_t array, long long slot, const HazardAccess& a, const HazardAccess& b)
{
    // `a` came first in the schedule. Two lanes of one warp with a __syncwarp naming both
    // between a's access and b's are ordered by it (ThreadContext::syncwarp).
    if (a.thread < warpSyncOrdinal.size() && a.thread / 32 == b.thread / 32 && a.ordinal < warpSyncOrdinal[a.thread] &&
        (warpSyncMask[a.thread] >> (b.thread % 32) & 1u))
        return;
    // Program order: the access with the smaller ordinal comes first (ties: the one that
    // executed first, a).
    const bool bFirst = b.ordinal < a.ordinal;
    const HazardAccess& first = bFirst ? b : a;
    const HazardAccess& second = bFirst ? a : b;
    const HazardKind kind = first.write && second.write ? HazardKind::WAW
                            : first.write               ? HazardKind::RAW
                                                        : HazardKind::WAR;
    (kind == HazardKind::RAW ? hazards.raw : kind == HazardKind::WAR ? hazards.war : hazards.waw)++;
    auto it = std::find_if(hazards.sites.begin(), hazards.sites.end(), [&](const HazardSite& h) {
        return h.kind == kind && h.array == array && h.firstLine == first.line &&
               h.secondLine == second.line;
    });
    if (it == hazards.sites.end()) {
        HazardSite h;
        h.kind = kind;
        h.array = array;
        h.firstLine = first.line;
        h.secondLine = second.line;
        h.exampleBlock = blockIdx;
        h.exampleFirst = first.thread;
        h.exampleSecond = second.thread;
        hazards.sites.push_back(h);
        it = hazards.sites.end() - 1;
    }
    ++it->count;
    if (tracing && hazards.traced.size() < HazardLog::kMaxTraced)
        hazards.traced.push_back(Hazard{kind, array, static_cast<int32_t>(slot), first, second});
}

void Machine::uninitialisedRead(uint8_t array, long long slot, unsigned line)
{
    ++hazards.uninitialised;
    auto it = std::find_if(hazards.uninitialisedSites.begin(), hazards.uninitialisedSites.end(),
                           [&](const UninitialisedSite& u) { return u.array == array && u.line == line; });
    if (it == hazards.uninitialisedSites.end()) {
        UninitialisedSite u;
        u.array = array;
        u.line = line;
        u.exampleBlock = blockIdx;
        u.exampleThread = tid;
        u.exampleSlot = static_cast<int32_t>(slot);
        hazards.uninitialisedSites.push_back(u);
        it = hazards.uninitialisedSites.end() - 1;
    }
    ++it->count;
}

void Machine::outOfBounds(uint8_t array, long long index, unsigned line) const
{
    const ArrayInfo& a = arrays.at(array);
    std::ostringstream s;
    s << whoAmI() << " accessed " << a.name << "[" << index << "] at line " << line
      << ", outside its " << a.size() << " elements.";
    throw KernelFault(s.str());
}

void Machine::inexactInteger(long long v, uint8_t array, long long index, unsigned line) const
{
    const ArrayInfo& a = arrays.at(array);
    std::ostringstream s;
    s << whoAmI() << " stored " << v << " into " << a.name << "[" << index << "] at line " << line
      << ", an integer beyond 2^24 (16777216) in magnitude, more than the simulator holds exactly.";
    throw KernelFault(s.str());
}

void Machine::localOutOfBounds(const char* name, long long index, long long extent, unsigned line) const
{
    std::ostringstream s;
    s << whoAmI() << " indexed its local array " << name << " at " << index << " at line " << line << ", outside its "
      << extent << " elements.";
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

void ThreadContext::misaligned(const char* space, long long index, unsigned line) const
{
    std::ostringstream s;
    s << machine_->whoAmI() << " made a 128-bit " << space << " access at element " << index << " (line " << line
      << "), not a multiple of 4: the address is not 16-byte aligned, and the GPU faults on it.";
    throw KernelFault(s.str());
}

SharedAllocation& ThreadContext::sharedAlloc(int id, const char* name, int rows, int cols)
{
    for (SharedAllocation& s : *shared_)
        if (s.id == id) return s;
    SharedAllocation s;
    s.id = id;
    s.array = machine_->arrayId(name, Space::Shared, rows, cols);
    // nvcc packs a kernel's static __shared__ arrays in declaration order (4-byte aligned
    // floats): this one starts where the ones declared before it end.
    if (machine_->memory) {
        uint32_t words = 0;
        for (const SharedAllocation& a : *shared_) words += static_cast<uint32_t>(a.data.size());
        machine_->memory->setSharedBase(s.array, words);
    }
    // Shared memory starts uninitialised: NaN makes a read of a never-written slot visible.
    s.data.assign(static_cast<size_t>(rows) * cols, std::numeric_limits<float>::quiet_NaN());
    s.state.assign(static_cast<size_t>(rows) * cols, SlotState{});
    shared_->push_back(std::move(s));
    return shared_->back();
}

void Machine::runaway(unsigned line) const
{
    std::ostringstream s;
    s << whoAmI() << " had read memory " << reads - 1 << " times since its last barrier (16 times every element of the "
      << "problem's arrays) and was still reading at line " << line << ": a loop that never ends? Check its counter and its bound.";
    throw KernelFault(s.str());
}

}  // namespace ts::sim

namespace ts::sim {
namespace {

uint64_t elementKey(uint8_t array, long long index) { return uint64_t{array} << 40 | static_cast<uint64_t>(index); }

bool sameBlock(const Uint3& a, const Uint3& b) { return a.x == b.x && a.y == b.y && a.z == b.z; }

/// Counts one faulty hand-over at `site`'s lines, or adds the site.
void addOrderSite(std::vector<OrderSite>& sites, const OrderSite& site)
{
    for (OrderSite& s : sites)
        if (s.kind == site.kind && s.storeLine == site.storeLine && s.flagLine == site.flagLine && s.readLine == site.readLine &&
            s.dataArray == site.dataArray && s.flagArray == site.flagArray) {
            ++s.count;
            return;
        }
    sites.push_back(site);
    sites.back().count = 1;
}

}  // namespace

void Machine::noteAtomic(uint8_t array, long long index, bool changed, unsigned line)
{
    const uint64_t key = elementKey(array, index);
    if (changed) {
        waitKey = ~uint64_t{0};
        // An atomic after a plain store publishes that store through this element: a flag.
        if (tid < lastStores.size() && lastStores[tid].line != 0) {
            const LastStore data = lastStores[tid];
            publications[key] = Publication{data, line, blockIdx};
            publishedData[elementKey(data.array, data.index)] = key;
            lastStores[tid] = LastStore{};
        }
        return;
    }
    // A wait on the element: one more in a row, or the first.
    if (key == waitKey && tid == waitThread) {
        if (++waits > kMaxWaits) endlessWait(array, index, line);
    } else {
        waitKey = key;
        waitThread = tid;
        waits = 1;
    }
    const auto it = publications.find(key);
    if (it == publications.end() || it->second.data.fenced || it->second.waitReported || sameBlock(it->second.block, blockIdx))
        return;
    Publication& p = it->second;
    p.waitReported = true;   // once per hand-over, however often the reader waits
    OrderSite s;
    s.kind = OrderKind::NoFence;
    s.dataArray = p.data.array;
    s.flagArray = array;
    s.storeLine = p.data.line;
    s.flagLine = p.flagLine;
    s.readLine = line;
    s.writerBlock = p.block;
    s.readerBlock = blockIdx;
    s.dataIndex = p.data.index;
    s.flagIndex = index;
    addOrderSite(orderSites, s);
}

void Machine::notePlainRead(uint8_t array, long long index, unsigned line)
{
    const auto it = publishedData.find(elementKey(array, index));
    if (it == publishedData.end()) return;
    const auto pub = publications.find(it->second);
    if (pub == publications.end() || sameBlock(pub->second.block, blockIdx)) return;
    const Publication& p = pub->second;
    OrderSite s;
    s.kind = OrderKind::PlainRead;
    s.dataArray = array;
    s.flagArray = static_cast<uint8_t>(it->second >> 40);
    s.storeLine = p.data.line;
    s.flagLine = p.flagLine;
    s.readLine = line;
    s.writerBlock = p.block;
    s.readerBlock = blockIdx;
    s.dataIndex = index;
    s.flagIndex = static_cast<long long>(it->second & ((uint64_t{1} << 40) - 1));
    addOrderSite(orderSites, s);
    publishedData.erase(it);   // once per hand-over
}

void Machine::endlessWait(uint8_t array, long long index, unsigned line) const
{
    std::ostringstream s;
    s << whoAmI() << " waits at line " << line << " for " << arrays.at(array).name << "[" << index << "] to change, and "
      << "nothing can change it: the simulator runs one block at a time, and the block that would set it has not started "
      << "(or has ended without setting it). On a GPU whose blocks are not all resident at once this wait never ends "
      << "either: take the block's place in the chain from a counter in the order blocks start (PMPP sec. 11.7), not "
      << "from blockIdx.";
    throw KernelFault(s.str());
}

}  // namespace ts::sim
