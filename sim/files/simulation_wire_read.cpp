// The simulation wire format's decoder, second half (sim/files/simulation_wire.hpp): each part
// of the message read and checked against the scenario (arrays, values, counters, trace,
// hazards, access sites), and decodeSimulation().
#include "sim/files/simulation_wire.hpp"
#include "sim/files/simulation_wire_internal.hpp"

#include <algorithm>
#include <cstring>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "sim/catalogue/loaded_kernels.hpp"

namespace ts::sim {

using namespace wire_detail;

namespace {

// ---- little-endian records -----------------------------------------------------------------

/// Reads what Out wrote. The caller has checked that the buffer holds the whole record.
class In {
public:
    explicit In(const uint8_t* p) : p_(p) {}
    uint8_t u8() { return *p_++; }
    uint16_t u16() { return static_cast<uint16_t>(get(2)); }
    uint32_t u32() { return static_cast<uint32_t>(get(4)); }
    uint64_t u64() { return get(8); }
    int32_t i32() { return static_cast<int32_t>(u32()); }
    int64_t i64() { return static_cast<int64_t>(u64()); }
    float f32()
    {
        const uint32_t bits = u32();
        float v;
        std::memcpy(&v, &bits, sizeof v);
        return v;
    }
    Uint3 uint3()
    {
        Uint3 b;
        b.x = u32();
        b.y = u32();
        b.z = u32();
        return b;
    }

private:
    uint64_t get(int n)
    {
        uint64_t v = 0;
        for (int i = 0; i < n; ++i) v |= uint64_t{p_[i]} << (8 * i);
        p_ += n;
        return v;
    }
    const uint8_t* p_;
};

Totals getTotals(In& in)
{
    Totals t;
    for (uint64_t* f : {&t.global_loads, &t.global_stores, &t.shared_loads, &t.shared_stores, &t.constant_loads,
                        &t.zero_fills, &t.barriers, &t.flops, &t.global_ld_requests, &t.global_ld_sectors,
                        &t.global_st_requests, &t.global_st_sectors, &t.shared_ld_requests, &t.shared_ld_wavefronts,
                        &t.shared_st_requests, &t.shared_st_wavefronts, &t.shared_ld_conflicts, &t.shared_st_conflicts,
                        &t.constant_ld_requests, &t.constant_ld_passes, &t.branch_uniform, &t.branch_divergent,
                        &t.branch_lanes, &t.global_atomics, &t.global_atom_requests, &t.global_atom_passes,
                        &t.shared_atomics, &t.shared_atom_requests, &t.shared_atom_passes, &t.fadds})
        *f = in.u64();
    return t;
}

// ---- decoding: the parts -------------------------------------------------------------------

/// Refuses a message whose scenario is not `want`.
void checkScenario(const json& v, const Scenario& want)
{
    Map m(v, "the scenario");
    const std::string kernel = textOf(m.at("kernel"), "the scenario's kernel");
    if (kernel != want.kernel)
        refuse("it is the simulation of kernel " + shown(kernel) + ", not of " + shown(want.kernel));
    const auto same = [&](const char* key, int64_t have) {
        const int64_t got = integerOf(m.at(key), std::string("the scenario's ") + key, std::numeric_limits<int64_t>::min(),
                                      std::numeric_limits<int64_t>::max());
        if (got != have)
            refuse(std::string("it is the simulation of another scenario (its ") + key + " is " + std::to_string(got) +
                   ", not " + std::to_string(have) + ")");
    };
    same("j", want.j);
    same("k", want.k);
    same("l", want.l);
    same("height", want.height);
    same("width", want.width);
    same("maskWidth", want.maskWidth);
    same("tile", want.tile);
    same("dropBarriers", want.dropBarriers);
    same("launch", want.launch);
    if (const uint64_t seed = unsignedOf(m.at("seed"), "the scenario's seed"); seed != want.seed)
        refuse("it is the simulation of another scenario (its seed is " + std::to_string(seed) + ", not " +
               std::to_string(want.seed) + ")");
    const Uint3 b = uint3Of(m.at("block"), "the scenario's block");
    if (b.x != want.block.x || b.y != want.block.y || b.z != want.block.z)
        refuse("it is the simulation of another scenario (its traced block is " + dimText(b.x, b.y, b.z) + ", not " +
               dimText(want.block.x, want.block.y, want.block.z) + ")");
    m.done();
}

/// Refuses a grid or block that no launch of `s` has.
void checkLaunch(const Dim3& grid, const Dim3& block, const Scenario& s)
{
    if (block.count() > static_cast<unsigned long long>(kMaxThreadsPerBlock))
        refuse("its block has " + std::to_string(block.count()) + " threads, more than " +
               std::to_string(kMaxThreadsPerBlock));
    const uint64_t xy = uint64_t{grid.x} * grid.y;   // < 2^64
    if (xy > (uint64_t{1} << 32) || xy * grid.z > (uint64_t{1} << 32)) refuse("its grid has more than 2^32 blocks");
    // Where this process knows the kernel, the launch is the one its launcher makes. An array
    // problem's launch is its file's own, known here only when the kernel is loaded here.
    const KernelInfo* k = s.kernelInfo();
    if (!k) return;
    if (k->family == Family::Array) {
        LaunchShape own;
        std::string error;
        if (!loadedLaunchShape(s, own, error) || !error.empty()) return;
    }
    const LaunchShape want = launchShape(s);
    const auto same = [](const Dim3& a, const Dim3& b) { return a.x == b.x && a.y == b.y && a.z == b.z; };
    if (!same(grid, want.grid) || !same(block, want.block))
        refuse("its launch (grid " + dimText(grid.x, grid.y, grid.z) + ", block " + dimText(block.x, block.y, block.z) +
               ") is not the scenario's (grid " + dimText(want.grid.x, want.grid.y, want.grid.z) + ", block " +
               dimText(want.block.x, want.block.y, want.block.z) + ")");
}

/// The list of arrays `what`, whose items are called `item` i.
std::vector<ArrayInfo> arraysOf(const json& v, const std::string& what, const std::string& item, size_t maxBytes)
{
    const json::array_t& list = listOf(v, what);
    if (list.size() > kNoArray) refuse(what + " has " + std::to_string(list.size()) + " arrays, more than 255");
    std::vector<ArrayInfo> arrays;
    uint64_t elements = 0;
    for (size_t i = 0; i < list.size(); ++i) {
        const std::string where = item + " " + std::to_string(i);
        Map m(list[i], where);
        ArrayInfo a;
        a.name = textOf(m.at("name"), where + "'s name");
        a.space = static_cast<Space>(unsignedOf(m.at("space"), where + "'s space", static_cast<uint64_t>(Space::Constant)));
        a.rows = static_cast<int>(integerOf(m.at("rows"), where + "'s rows", 0, std::numeric_limits<int>::max()));
        a.cols = static_cast<int>(integerOf(m.at("cols"), where + "'s cols", 0, std::numeric_limits<int>::max()));
        a.columnMajor = boolOf(m.at("columnMajor"), where + "'s columnMajor");
        a.elementBytes = static_cast<uint8_t>(unsignedOf(m.at("elementBytes"), where + "'s elementBytes", 4));
        if (a.elementBytes != 1 && a.elementBytes != 4) refuse(where + "'s elements are 1 or 4 bytes, not " + std::to_string(a.elementBytes));
        m.done();
        const uint64_t size = uint64_t(a.rows) * uint64_t(a.cols);
        if (size > static_cast<uint64_t>(std::numeric_limits<int>::max()))
            refuse(where + " has " + std::to_string(size) + " elements, more than an int counts");
        elements += size;
        if (elements > maxBytes / 4) refuse(what + " have more elements than a message of its size limit could describe");
        arrays.push_back(std::move(a));
    }
    return arrays;
}

std::vector<float> floatsOf(const json& v, const std::string& what)
{
    size_t n = 0;
    const Bytes& b = recordsOf(v, what, 4, n);
    std::vector<float> out(n);
    In in(b.data());
    for (float& f : out) f = in.f32();
    return out;
}

std::vector<uint32_t> countsOf(const json& v, const std::string& what)
{
    size_t n = 0;
    const Bytes& b = recordsOf(v, what, 4, n);
    std::vector<uint32_t> out(n);
    In in(b.data());
    for (uint32_t& c : out) c = in.u32();
    return out;
}

/// The inputs, P and the reference against the arrays they are, and matchesReference.
void checkValues(const Simulation& s)
{
    const bool complete = s.error.empty();
    if (complete && s.arrays.size() < 3) refuse("a simulation without an error has M, N and P, but it has " +
                                                std::to_string(s.arrays.size()) + " arrays");
    const auto check = [&](const std::vector<float>& v, size_t array, const char* name) {
        if (v.empty() && !complete) return;   // a run that stopped before it had them
        if (array >= s.arrays.size())
            refuse(std::string(name) + " has values but there is no array " + std::to_string(array) + " for them");
        if (v.size() != static_cast<size_t>(s.arrays[array].size()))
            refuse(std::string(name) + " has " + std::to_string(v.size()) + " values, but its array " +
                   shown(s.arrays[array].name) + " has " + std::to_string(s.arrays[array].size()) + " elements");
    };
    check(s.M, 0, "M");
    check(s.N, 1, "N");
    check(s.P, 2, "P");
    check(s.reference, 2, "the reference");
    const bool matches = s.error.empty() && s.P.size() == s.reference.size() &&
                         (s.P.empty() || std::memcmp(s.P.data(), s.reference.data(), s.P.size() * sizeof(float)) == 0);
    if (s.matchesReference != matches)
        refuse(std::string("it says P ") + (s.matchesReference ? "matches" : "does not match") +
               " the reference, but its P and reference say otherwise");
    if (s.cancelled && s.error.empty()) refuse("it says the run was cancelled but gives no error");
}

void readCounters(const json& v, Simulation& s)
{
    Map m(v, "the counters");
    const bool complete = s.error.empty();
    size_t n = 0;
    const Bytes& totals = recordsOf(m.at("totals"), "the counters' totals", wire::kTotalsBytes, n);
    if (n != 1) refuse("the counters' totals are not one record");
    In t(totals.data());
    s.counters.totals = getTotals(t);

    const Bytes& perBlock = recordsOf(m.at("perBlock"), "the counters' perBlock", wire::kTotalsBytes, n);
    const uint64_t blocks = s.grid.count();
    if (n != blocks && !(n == 0 && !complete))
        refuse("the counters have " + std::to_string(n) + " blocks' totals for a grid of " + std::to_string(blocks) +
               " blocks");
    s.counters.perBlock.resize(n);
    In in(perBlock.data());
    Totals sum;
    for (Totals& b : s.counters.perBlock) {
        b = getTotals(in);
        sum += b;
    }
    // A fault ends a serial launch before it adds the blocks up (sim/engine/machine.cpp, runSerial).
    // A row of several launches (PMPP sec. 11.6) sums its totals over all of them, its blocks'
    // are the traced launch's (sim/engine/simulate.cpp).
    if (complete && launchCount(s.scenario) == 1 && std::memcmp(&sum, &s.counters.totals, sizeof sum) != 0)
        refuse("the counters' totals are not the sum of their blocks'");

    const uint64_t threads = blocks * s.block.count();
    const char* names[3] = {"elementLoads", "elementStores", "elementWriters"};
    std::vector<std::vector<uint32_t>>* lists[3] = {&s.counters.elementLoads, &s.counters.elementStores,
                                                    &s.counters.elementWriters};
    size_t arrays = 0;
    for (int c = 0; c < 3; ++c) {
        const std::string what = std::string("the counters' ") + names[c];
        const json::array_t& list = listOf(m.at(names[c]), what);
        if (c == 0) arrays = list.size();
        if (list.size() != arrays || (arrays != s.arrays.size() && !(arrays == 0 && !complete)))
            refuse(what + " has " + std::to_string(list.size()) + " vectors for " + std::to_string(s.arrays.size()) +
                   " arrays");
        for (size_t a = 0; a < list.size(); ++a) {
            const std::string where = what + " of array " + std::to_string(a);
            std::vector<uint32_t> counts = countsOf(list[a], where);
            const size_t size = static_cast<size_t>(s.arrays[a].size());
            if (c < 2 && counts.size() != size)
                refuse(where + " has " + std::to_string(counts.size()) + " counts for " + std::to_string(size) + " elements");
            if (c == 2 && !counts.empty()) {
                if (counts.size() != size)
                    refuse(where + " has " + std::to_string(counts.size()) + " writers for " + std::to_string(size) +
                           " elements");
                if (s.arrays[a].space != Space::Global) refuse(where + " has writers but is not a global array");
                for (uint32_t w : counts)
                    if (w > threads)
                        refuse(where + " names writer " + std::to_string(w) + ", but the grid has " + std::to_string(threads) +
                               " threads");
            }
            lists[c]->push_back(std::move(counts));
        }
    }
    m.done();
}

/// Checks that event or site `what` names an array of `space`.
void checkArray(const std::vector<ArrayInfo>& arrays, unsigned array, Space space, const std::string& what)
{
    if (array >= arrays.size())
        refuse(what + " names array " + std::to_string(array) + ", but there are " + std::to_string(arrays.size()));
    if (arrays[array].space != space)
        refuse(what + " names array " + shown(arrays[array].name) + ", which is not in its memory space");
}

/// The memory a hazard may name: a shared array, or a global array the kernel writes (a plain
/// read-modify-write race, PMPP sec. 9.2); never constant memory.
Space hazardSpace(const std::vector<ArrayInfo>& arrays, unsigned array)
{
    return array < arrays.size() && arrays[array].space == Space::Global ? Space::Global : Space::Shared;
}

/// Checks that event or site `what` names an element of an array of `space`.
void checkElement(const std::vector<ArrayInfo>& arrays, unsigned array, long long index, Space space,
                  const std::string& what)
{
    checkArray(arrays, array, space, what);
    if (index < 0 || index >= arrays[array].size())
        refuse(what + " names element " + std::to_string(index) + " of " + shown(arrays[array].name) + ", which has " +
               std::to_string(arrays[array].size()));
}

bool sameArrays(const std::vector<ArrayInfo>& a, const std::vector<ArrayInfo>& b)
{
    if (a.size() != b.size()) return false;
    for (size_t i = 0; i < a.size(); ++i)
        if (a[i].name != b[i].name || a[i].space != b[i].space || a[i].rows != b[i].rows || a[i].cols != b[i].cols ||
            a[i].columnMajor != b[i].columnMajor || a[i].elementBytes != b[i].elementBytes)
            return false;
    return true;
}

void readEvents(const Bytes& b, size_t n, Trace& t)
{
    const uint64_t threads = t.blockDim.count();
    const size_t arrays = t.arrays.size();
    t.events.resize(n);
    std::vector<uint8_t> seen(n, 0);
    In in(b.data());
    for (size_t i = 0; i < n; ++i) {
        Event& e = t.events[i];
        e.index = in.i32();
        e.value = in.f32();
        e.seq = in.u32();
        e.thread = in.u16();
        e.line = in.u16();
        const uint8_t op = in.u8();
        e.array = in.u8();
        e.flags = in.u8();
        e.unrolled = in.u8();
        e.originArray = in.u8();
        e.origin = in.i32();
        const auto what = [&] { return "trace event " + std::to_string(i); };
        if (op > static_cast<uint8_t>(Op::Shuffle)) refuse(what() + " has op " + std::to_string(op) + ", which is no Op");
        e.op = static_cast<Op>(op);
        switch (e.op) {
        case Op::GlobalLoad:
        case Op::GlobalStore: checkElement(t.arrays, e.array, e.index, Space::Global, what()); break;
        case Op::ConstantLoad: checkElement(t.arrays, e.array, e.index, Space::Constant, what()); break;
        case Op::SharedLoad:
        case Op::SharedStore:
        case Op::ZeroFill: checkElement(t.arrays, e.array, e.index, Space::Shared, what()); break;
        case Op::Barrier:
        case Op::Fma:
        case Op::Branch:
            if (e.array != kNoArray || e.index != -1)
                refuse(what() + " is a barrier, multiply-add or branch but names an element");
            break;
        // An atomic on a global element or a shared slot (PMPP Fig. 9.10's histo_s).
        case Op::Atomic: checkElement(t.arrays, e.array, e.index, hazardSpace(t.arrays, e.array), what()); break;
        case Op::Shuffle:
            // index: the source lane.
            if (e.array != kNoArray || e.index < 0 || e.index >= 32)
                refuse(what() + " is a shuffle but names an element or no lane of a warp");
            break;
        }
        if (e.thread != kNoThread && e.thread >= threads)
            refuse(what() + " names thread " + std::to_string(e.thread) + ", but the block has " + std::to_string(threads));
        if (e.flags & ~(kStale | kHazard | kVectorHead | kVectorTail)) refuse(what() + " has flags that are no EventFlag");
        if (e.op == Op::Atomic) {
            // origin holds the element's value before the atomic (its bits), no origin array.
            if (e.originArray != kNoArray) refuse(what() + " is an atomic but names an origin array");
        } else if (e.originArray == kNoArray) {
            if (e.origin != -1) refuse(what() + " has an origin element but no origin array");
        } else {
            if (e.originArray >= arrays)
                refuse(what() + " names origin array " + std::to_string(e.originArray) + ", but there are " +
                       std::to_string(arrays));
            if (e.origin < 0 || e.origin >= t.arrays[e.originArray].size())
                refuse(what() + " names origin element " + std::to_string(e.origin) + " outside its array");
        }
        if (e.seq >= n || seen[e.seq]) refuse(what() + " has seq " + std::to_string(e.seq) + ", not one of 0..n-1 each once");
        seen[e.seq] = 1;
    }
}

void readSteps(const Bytes& b, size_t n, const json::array_t& labels, Trace& t)
{
    if (labels.size() != n)
        refuse("the trace has " + std::to_string(n) + " steps but " + std::to_string(labels.size()) + " labels");
    const int64_t events = static_cast<int64_t>(t.events.size());
    t.steps.resize(n);
    In in(b.data());
    int64_t next = 0;
    for (size_t i = 0; i < n; ++i) {
        Step& s = t.steps[i];
        const auto what = [&] { return "trace step " + std::to_string(i); };
        const uint8_t kind = in.u8();
        if (kind > static_cast<uint8_t>(StepKind::Other)) refuse(what() + " has kind " + std::to_string(kind) + ", which is no StepKind");
        s.kind = static_cast<StepKind>(kind);
        s.phase = in.i32();
        s.interval = in.i32();
        s.iteration = in.i32();
        s.line = in.u32();
        s.begin = in.i32();
        s.end = in.i32();
        s.label = textOf(labels[i], what() + "'s label");
        if (s.phase < 0 || s.phase > events || s.interval < 0 || s.interval > events || s.iteration < -1 ||
            s.iteration > events)
            refuse(what() + " has a phase, interval or iteration outside 0 to the trace's " + std::to_string(events) + " events");
        if (s.line > 0xFFFF) refuse(what() + " has line " + std::to_string(s.line) + ", past an event's lines");
        if (s.begin != next || s.end < s.begin || s.end > events)
            refuse(what() + " covers events [" + std::to_string(s.begin) + ", " + std::to_string(s.end) +
                   "), but the steps must cover the " + std::to_string(events) + " events in order from " + std::to_string(next));
        next = s.end;
    }
    if (next != events) refuse("the trace's steps end at event " + std::to_string(next) + " of " + std::to_string(events));
}

void readOutputs(const Bytes& b, size_t n, Trace& t)
{
    if (n != t.blockDim.count())
        refuse("the trace has " + std::to_string(n) + " outputs for " + std::to_string(t.blockDim.count()) + " threads");
    t.outputs.resize(n);
    In in(b.data());
    for (size_t i = 0; i < n; ++i) {
        Trace::Output& o = t.outputs[i];
        const auto what = [&] { return "trace output " + std::to_string(i); };
        const uint8_t flags = in.u8();
        if (flags > 15) refuse(what() + " has unknown flags");
        o.known = flags & 1;
        o.stored = flags & 2;
        o.oneRow = flags & 4;
        o.oneCol = flags & 8;
        o.row = in.i64();
        o.col = in.i64();
        constexpr long long lo = std::numeric_limits<int>::min(), hi = std::numeric_limits<int>::max();
        if (o.row < lo || o.row > hi || o.col < lo || o.col > hi) refuse(what() + " has a row or column past an int");
        if (o.stored) {
            if (!o.known) refuse(what() + " is stored but not known");
            if (t.outputArray < 0) refuse(what() + " is stored but the trace has no output array");
            const ArrayInfo& a = t.arrays[t.outputArray];
            if (o.row < 0 || o.row >= a.rows || o.col < 0 || o.col >= a.cols)
                refuse(what() + " is stored at (" + std::to_string(o.row) + ", " + std::to_string(o.col) + "), outside " +
                       shown(a.name));
        }
    }
}

void readTrace(const json& v, Simulation& s)
{
    Map m(v, "the trace");
    Trace& t = s.trace;
    t.block = uint3Of(m.at("block"), "the trace's block");
    t.blockDim = dimOf(m.at("blockDim"), "the trace's blockDim");
    t.arrays = arraysOf(m.at("arrays"), "the trace's arrays", "the trace's array", std::numeric_limits<size_t>::max());
    size_t events = 0, steps = 0, outputs = 0;
    const Bytes& eventBytes = recordsOf(m.at("events"), "the trace's events", wire::kEventBytes, events);
    const Bytes& stepBytes = recordsOf(m.at("steps"), "the trace's steps", wire::kStepBytes, steps);
    const json::array_t& labels = listOf(m.at("labels"), "the trace's labels");
    const Bytes& outputBytes = recordsOf(m.at("outputs"), "the trace's outputs", wire::kOutputBytes, outputs);
    t.outputArray = intOf(m.at("outputArray"), "the trace's outputArray");
    m.done();

    const bool present = !t.arrays.empty() || events || steps || outputs || !labels.empty() || t.outputArray != -1;
    if (!present) {
        // No trace: exactly the empty Trace{}.
        const Trace none;
        if (t.block.x != none.block.x || t.block.y != none.block.y || t.block.z != none.block.z ||
            t.blockDim.count() != 1)
            refuse("the trace is empty but names a block");
        return;
    }
    if (!sameArrays(t.arrays, s.arrays)) refuse("the trace's arrays are not the simulation's");
    if (t.blockDim.x != s.block.x || t.blockDim.y != s.block.y || t.blockDim.z != s.block.z)
        refuse("the trace's blockDim is not the launch's block");
    if (t.block.x != s.scenario.block.x || t.block.y != s.scenario.block.y || t.block.z != s.scenario.block.z)
        refuse("the trace's block is not the scenario's traced block");
    if (!inside(t.block, s.grid)) refuse("the trace's block lies outside the grid");
    if (t.outputArray < -1 || t.outputArray >= static_cast<int>(t.arrays.size()))
        refuse("the trace's outputArray is " + std::to_string(t.outputArray) + ", not an array");
    readEvents(eventBytes, events, t);
    readSteps(stepBytes, steps, labels, t);
    readOutputs(outputBytes, outputs, t);
}

HazardAccess accessOf(In& in, const std::string& what, uint64_t threads, size_t events, bool checkSeq)
{
    HazardAccess a;
    a.thread = in.u16();
    a.line = in.u32();
    const uint8_t write = in.u8();
    a.seq = in.u32();
    a.ordinal = in.u32();
    if (a.thread >= threads) refuse(what + " names thread " + std::to_string(a.thread) + ", but the block has " + std::to_string(threads));
    if (write > 1) refuse(what + " has a write flag that is no boolean");
    a.write = write;
    if (checkSeq && a.seq >= events)
        refuse(what + " names event " + std::to_string(a.seq) + ", but the trace has " + std::to_string(events));
    return a;
}

void readHazards(const json& v, Simulation& s)
{
    Map m(v, "the hazards");
    HazardLog& h = s.hazards;
    h.raw = unsignedOf(m.at("raw"), "the hazards' raw");
    h.war = unsignedOf(m.at("war"), "the hazards' war");
    h.waw = unsignedOf(m.at("waw"), "the hazards' waw");
    h.uninitialised = unsignedOf(m.at("uninitialised"), "the hazards' uninitialised");
    const uint64_t threads = s.block.count();
    const auto kindOf = [](uint8_t k, const std::string& what) {
        if (k > static_cast<uint8_t>(HazardKind::WAW)) refuse(what + " has kind " + std::to_string(k) + ", which is no HazardKind");
        return static_cast<HazardKind>(k);
    };
    const auto checkBlock = [&](const Uint3& b, const std::string& what) {
        if (!inside(b, s.grid)) refuse(what + "'s example block " + dimText(b.x, b.y, b.z) + " lies outside the grid");
    };
    const auto checkThread = [&](uint16_t th, const std::string& what) {
        if (th >= threads) refuse(what + " names thread " + std::to_string(th) + ", but the block has " + std::to_string(threads));
    };
    size_t n = 0;
    {
        const Bytes& b = recordsOf(m.at("uninitialisedSites"), "the hazards' uninitialisedSites", wire::kUninitialisedSiteBytes, n);
        In in(b.data());
        h.uninitialisedSites.resize(n);
        for (size_t i = 0; i < n; ++i) {
            UninitialisedSite& u = h.uninitialisedSites[i];
            const std::string what = "uninitialised site " + std::to_string(i);
            u.array = in.u8();
            u.line = in.u32();
            u.count = in.u64();
            u.exampleBlock = in.uint3();
            u.exampleThread = in.u16();
            u.exampleSlot = in.i32();
            checkElement(s.arrays, u.array, u.exampleSlot, Space::Shared, what);
            checkBlock(u.exampleBlock, what);
            checkThread(u.exampleThread, what);
        }
    }
    {
        const Bytes& b = recordsOf(m.at("sites"), "the hazards' sites", wire::kHazardSiteBytes, n);
        In in(b.data());
        h.sites.resize(n);
        for (size_t i = 0; i < n; ++i) {
            HazardSite& z = h.sites[i];
            const std::string what = "hazard site " + std::to_string(i);
            z.kind = kindOf(in.u8(), what);
            z.array = in.u8();
            z.firstLine = in.u32();
            z.secondLine = in.u32();
            z.count = in.u64();
            z.exampleBlock = in.uint3();
            z.exampleFirst = in.u16();
            z.exampleSecond = in.u16();
            checkArray(s.arrays, z.array, hazardSpace(s.arrays, z.array), what);
            checkBlock(z.exampleBlock, what);
            checkThread(z.exampleFirst, what);
            checkThread(z.exampleSecond, what);
        }
    }
    {
        const Bytes& b = recordsOf(m.at("traced"), "the hazards' traced", wire::kHazardBytes, n);
        if (n > HazardLog::kMaxTraced)
            refuse("it has " + std::to_string(n) + " traced hazards, more than " + std::to_string(HazardLog::kMaxTraced));
        const size_t events = s.trace.events.size();
        const bool traced = !s.trace.arrays.empty();
        if (n && !traced && !s.cancelled) refuse("it has traced hazards but no trace");
        In in(b.data());
        h.traced.resize(n);
        for (size_t i = 0; i < n; ++i) {
            Hazard& z = h.traced[i];
            const std::string what = "traced hazard " + std::to_string(i);
            z.kind = kindOf(in.u8(), what);
            z.array = in.u8();
            z.slot = in.i32();
            checkElement(s.arrays, z.array, z.slot, hazardSpace(s.arrays, z.array), what);
            z.first = accessOf(in, what + "'s first access", threads, events, traced);
            z.second = accessOf(in, what + "'s second access", threads, events, traced);
        }
    }
    m.done();
}

std::vector<AccessSite> accessSitesOf(const json& v, const std::vector<ArrayInfo>& arrays)
{
    size_t n = 0;
    const Bytes& b = recordsOf(v, "the access sites", wire::kAccessSiteBytes, n);
    std::vector<AccessSite> sites(n);
    In in(b.data());
    for (size_t i = 0; i < n; ++i) {
        AccessSite& a = sites[i];
        const std::string what = "access site " + std::to_string(i);
        a.line = in.u32();
        a.array = in.u8();
        const uint8_t kind = in.u8();
        if (kind > static_cast<uint8_t>(AccessKind::SharedAtomic))
            refuse(what + " has kind " + std::to_string(kind) + ", which is no AccessKind");
        a.kind = static_cast<AccessKind>(kind);
        for (uint64_t* f : {&a.requests, &a.lanes, &a.sectors, &a.cacheLines, &a.wavefronts, &a.ideal, &a.divergent, &a.taken, &a.entered})
            *f = in.u64();
        const uint8_t wide = in.u8();
        if (wide > 1) refuse(what + " has a wide flag that is no boolean");
        a.wide = wide;
        if (a.kind == AccessKind::Branch) {
            if (a.array != kNoArray) refuse(what + " is a branch but names an array");
        } else {
            checkArray(arrays, a.array, spaceOf(a.kind), what);
        }
    }
    return sites;
}

}  // namespace

Simulation decodeSimulation(std::string_view bytes, const Scenario& scenario, size_t maxBytes)
{
    if (bytes.size() > maxBytes)
        refuse("it has " + std::to_string(bytes.size()) + " bytes, more than the " + std::to_string(maxBytes) + " allowed");
    const json root = parseCbor(bytes);
    Map top(root, "the message");
    // The format and its version before anything else.
    const json& format = top.at("format");
    if (!format.is_string() || format.get_ref<const std::string&>() != kFormat)
        refuse("it is not a TileScope simulation (its format is not \"" + std::string(kFormat) + "\")");
    const uint64_t version = unsignedOf(top.at("version"), "its version");
    if (version != kSimulationWireVersion)
        refuse("it has wire format version " + std::to_string(version) + ", and this TileScope reads version " +
               std::to_string(kSimulationWireVersion));

    Simulation s;
    checkScenario(top.at("scenario"), scenario);
    s.scenario = scenario;
    s.scenario.info = scenario.kernelInfo();   // resolved, as simulate() leaves it
    s.grid = dimOf(top.at("grid"), "the grid");
    s.block = dimOf(top.at("block"), "the block");
    checkLaunch(s.grid, s.block, scenario);
    s.arrays = arraysOf(top.at("arrays"), "the arrays", "array", maxBytes);
    s.M = floatsOf(top.at("M"), "M");
    s.N = floatsOf(top.at("N"), "N");
    s.P = floatsOf(top.at("P"), "P");
    s.reference = floatsOf(top.at("reference"), "the reference");
    s.referenceFlops = unsignedOf(top.at("referenceFlops"), "referenceFlops");
    s.matchesReference = boolOf(top.at("matchesReference"), "matchesReference");
    s.error = textOf(top.at("error"), "the error");
    s.cancelled = boolOf(top.at("cancelled"), "cancelled");
    checkValues(s);
    readCounters(top.at("counters"), s);
    readTrace(top.at("trace"), s);
    readHazards(top.at("hazards"), s);
    s.accessSites = accessSitesOf(top.at("accessSites"), s.arrays);
    top.done();
    return s;
}

}  // namespace ts::sim
