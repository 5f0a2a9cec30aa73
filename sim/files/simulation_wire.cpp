#include "sim/files/simulation_wire.hpp"
#include "sim/files/simulation_wire_internal.hpp"

#include <algorithm>
#include <cstring>
#include <limits>
#include <nlohmann/json.hpp>
#include <utility>
#include <vector>

#include "sim/catalogue/loaded_kernels.hpp"

namespace ts::sim {

using namespace wire_detail;

namespace {

// A field added to one of these plain records changes its size: give it a place in the
// record's layout (simulation_wire.hpp) and bump kSimulationWireVersion. (The sizes are those
// of x86-64 and wasm32, the two targets sim/ is built for.)
static_assert(sizeof(Totals) == 30 * sizeof(uint64_t), "sim::Totals changed: update the wire format");
static_assert(sizeof(Event) == 28, "sim::Event changed: update the wire format");
static_assert(sizeof(HazardAccess) == 20 && sizeof(Hazard) == 48, "sim::Hazard changed: update the wire format");
static_assert(sizeof(HazardSite) == 40, "sim::HazardSite changed: update the wire format");
static_assert(sizeof(UninitialisedSite) == 40, "sim::UninitialisedSite changed: update the wire format");
static_assert(sizeof(AccessSite) == 88, "sim::AccessSite changed: update the wire format");
static_assert(sizeof(Trace::Output) == 32, "sim::Trace::Output changed: update the wire format");

// ---- little-endian records -----------------------------------------------------------------

/// Writes fixed-size little-endian fields one after the other into a buffer sized beforehand.
class Out {
public:
    explicit Out(uint8_t* p) : p_(p) {}
    void u8(uint8_t v) { *p_++ = v; }
    void u16(uint16_t v) { for (int i = 0; i < 2; ++i) *p_++ = static_cast<uint8_t>(v >> (8 * i)); }
    void u32(uint32_t v) { for (int i = 0; i < 4; ++i) *p_++ = static_cast<uint8_t>(v >> (8 * i)); }
    void u64(uint64_t v) { for (int i = 0; i < 8; ++i) *p_++ = static_cast<uint8_t>(v >> (8 * i)); }
    void i32(int32_t v) { u32(static_cast<uint32_t>(v)); }
    void i64(int64_t v) { u64(static_cast<uint64_t>(v)); }
    void f32(float v)
    {
        uint32_t bits;
        std::memcpy(&bits, &v, sizeof bits);
        u32(bits);
    }
    void flag(bool v) { u8(v ? 1 : 0); }
    void uint3(const Uint3& b)
    {
        u32(b.x);
        u32(b.y);
        u32(b.z);
    }

private:
    uint8_t* p_;
};


/// `items` encoded by `put(Out&, item)` as records of `size` bytes, as one CBOR byte string.
template <class T, class Put>
json records(const std::vector<T>& items, size_t size, Put put)
{
    Bytes b(items.size() * size);
    Out o(b.data());
    for (const T& t : items) put(o, t);
    return json::binary(std::move(b));
}

void putTotals(Out& o, const Totals& t)
{
    for (uint64_t v : {t.global_loads, t.global_stores, t.shared_loads, t.shared_stores, t.constant_loads,
                       t.zero_fills, t.barriers, t.flops, t.global_ld_requests, t.global_ld_sectors,
                       t.global_st_requests, t.global_st_sectors, t.shared_ld_requests, t.shared_ld_wavefronts,
                       t.shared_st_requests, t.shared_st_wavefronts, t.shared_ld_conflicts, t.shared_st_conflicts,
                       t.constant_ld_requests, t.constant_ld_passes, t.branch_uniform, t.branch_divergent,
                       t.branch_lanes, t.global_atomics, t.global_atom_requests, t.global_atom_passes,
                       t.shared_atomics, t.shared_atom_requests, t.shared_atom_passes, t.fadds})
        o.u64(v);
}


void putAccess(Out& o, const HazardAccess& a)
{
    o.u16(a.thread);
    o.u32(a.line);
    o.flag(a.write);
    o.u32(a.seq);
    o.u32(a.ordinal);
}

// ---- encoding ------------------------------------------------------------------------------

json dimJson(unsigned x, unsigned y, unsigned z) { return json::array({x, y, z}); }

json arraysJson(const std::vector<ArrayInfo>& arrays)
{
    json list = json::array();
    for (const ArrayInfo& a : arrays)
        list.push_back(json{{"name", a.name},
                            {"space", static_cast<unsigned>(a.space)},
                            {"rows", a.rows},
                            {"cols", a.cols},
                            {"columnMajor", a.columnMajor},
                            {"elementBytes", a.elementBytes}});
    return list;
}

json floatsJson(const std::vector<float>& v)
{
    return records(v, 4, [](Out& o, float f) { o.f32(f); });
}

json countsJson(const std::vector<std::vector<uint32_t>>& perArray)
{
    json list = json::array();
    for (const std::vector<uint32_t>& v : perArray) list.push_back(records(v, 4, [](Out& o, uint32_t c) { o.u32(c); }));
    return list;
}

json scenarioJson(const Scenario& s)
{
    return json{{"kernel", s.kernel}, {"j", s.j},         {"k", s.k},
                {"l", s.l},           {"height", s.height}, {"width", s.width},
                {"maskWidth", s.maskWidth}, {"tile", s.tile}, {"seed", s.seed},
                {"dropBarriers", s.dropBarriers}, {"block", dimJson(s.block.x, s.block.y, s.block.z)},
                {"launch", s.launch}};
}

json traceJson(const Trace& t)
{
    json steps = records(t.steps, wire::kStepBytes, [](Out& o, const Step& s) {
        o.u8(static_cast<uint8_t>(s.kind));
        o.i32(s.phase);
        o.i32(s.interval);
        o.i32(s.iteration);
        o.u32(s.line);
        o.i32(s.begin);
        o.i32(s.end);
    });
    json labels = json::array();
    for (const Step& s : t.steps) labels.push_back(s.label);
    return json{
        {"block", dimJson(t.block.x, t.block.y, t.block.z)},
        {"blockDim", dimJson(t.blockDim.x, t.blockDim.y, t.blockDim.z)},
        {"arrays", arraysJson(t.arrays)},
        {"events", records(t.events, wire::kEventBytes,
                           [](Out& o, const Event& e) {
                               o.i32(e.index);
                               o.f32(e.value);
                               o.u32(e.seq);
                               o.u16(e.thread);
                               o.u16(e.line);
                               o.u8(static_cast<uint8_t>(e.op));
                               o.u8(e.array);
                               o.u8(e.flags);
                               o.u8(e.unrolled);
                               o.u8(e.originArray);
                               o.i32(e.origin);
                           })},
        {"steps", std::move(steps)},
        {"labels", std::move(labels)},
        {"outputs", records(t.outputs, wire::kOutputBytes,
                            [](Out& o, const Trace::Output& out) {
                                o.u8(static_cast<uint8_t>((out.known ? 1 : 0) | (out.stored ? 2 : 0) |
                                                          (out.oneRow ? 4 : 0) | (out.oneCol ? 8 : 0)));
                                o.i64(out.row);
                                o.i64(out.col);
                            })},
        {"outputArray", t.outputArray},
    };
}

json hazardsJson(const HazardLog& h)
{
    return json{
        {"raw", h.raw},
        {"war", h.war},
        {"waw", h.waw},
        {"uninitialised", h.uninitialised},
        {"uninitialisedSites", records(h.uninitialisedSites, wire::kUninitialisedSiteBytes,
                                       [](Out& o, const UninitialisedSite& u) {
                                           o.u8(u.array);
                                           o.u32(u.line);
                                           o.u64(u.count);
                                           o.uint3(u.exampleBlock);
                                           o.u16(u.exampleThread);
                                           o.i32(u.exampleSlot);
                                       })},
        {"sites", records(h.sites, wire::kHazardSiteBytes,
                          [](Out& o, const HazardSite& s) {
                              o.u8(static_cast<uint8_t>(s.kind));
                              o.u8(s.array);
                              o.u32(s.firstLine);
                              o.u32(s.secondLine);
                              o.u64(s.count);
                              o.uint3(s.exampleBlock);
                              o.u16(s.exampleFirst);
                              o.u16(s.exampleSecond);
                          })},
        {"traced", records(h.traced, wire::kHazardBytes,
                           [](Out& o, const Hazard& z) {
                               o.u8(static_cast<uint8_t>(z.kind));
                               o.u8(z.array);
                               o.i32(z.slot);
                               putAccess(o, z.first);
                               putAccess(o, z.second);
                           })},
    };
}

json accessSitesJson(const std::vector<AccessSite>& sites)
{
    return records(sites, wire::kAccessSiteBytes, [](Out& o, const AccessSite& a) {
        o.u32(a.line);
        o.u8(a.array);
        o.u8(static_cast<uint8_t>(a.kind));
        for (uint64_t v : {a.requests, a.lanes, a.sectors, a.cacheLines, a.wavefronts, a.ideal, a.divergent, a.taken, a.entered})
            o.u64(v);
        o.flag(a.wide);
    });
}

/// About the size of s's message: its byte strings and texts, and room for the rest.
size_t messageBytes(const Simulation& s)
{
    size_t n = 4096 + s.error.size() + 4 * (s.M.size() + s.N.size() + s.P.size() + s.reference.size());
    n += wire::kTotalsBytes * (s.counters.perBlock.size() + 1);
    for (const auto* lists : {&s.counters.elementLoads, &s.counters.elementStores, &s.counters.elementWriters})
        for (const std::vector<uint32_t>& v : *lists) n += 9 + 4 * v.size();
    for (const std::vector<ArrayInfo>* arrays : {&s.arrays, &s.trace.arrays})
        for (const ArrayInfo& a : *arrays) n += 64 + a.name.size();
    const Trace& t = s.trace;
    n += wire::kEventBytes * t.events.size() + wire::kOutputBytes * t.outputs.size();
    for (const Step& st : t.steps) n += wire::kStepBytes + 9 + st.label.size();
    const HazardLog& h = s.hazards;
    n += wire::kHazardBytes * h.traced.size() + wire::kHazardSiteBytes * h.sites.size() +
         wire::kUninitialisedSiteBytes * h.uninitialisedSites.size() + wire::kAccessSiteBytes * s.accessSites.size();
    return n;
}

}  // namespace

std::string encodeSimulation(const Simulation& s)
{
    const Counters& c = s.counters;
    const json message{
        {"format", kFormat},
        {"version", kSimulationWireVersion},
        {"scenario", scenarioJson(s.scenario)},
        {"grid", dimJson(s.grid.x, s.grid.y, s.grid.z)},
        {"block", dimJson(s.block.x, s.block.y, s.block.z)},
        {"arrays", arraysJson(s.arrays)},
        {"M", floatsJson(s.M)},
        {"N", floatsJson(s.N)},
        {"P", floatsJson(s.P)},
        {"reference", floatsJson(s.reference)},
        {"referenceFlops", s.referenceFlops},
        {"counters", json{{"totals", records(std::vector<Totals>{c.totals}, wire::kTotalsBytes, putTotals)},
                          {"perBlock", records(c.perBlock, wire::kTotalsBytes, putTotals)},
                          {"elementLoads", countsJson(c.elementLoads)},
                          {"elementStores", countsJson(c.elementStores)},
                          {"elementWriters", countsJson(c.elementWriters)}}},
        {"trace", traceJson(s.trace)},
        {"hazards", hazardsJson(s.hazards)},
        {"accessSites", accessSitesJson(s.accessSites)},
        {"matchesReference", s.matchesReference},
        {"error", s.error},
        {"cancelled", s.cancelled},
    };
    std::string out;
    out.reserve(messageBytes(s));   // one allocation: the byte strings are most of the message
    json::to_cbor(message, out);
    return out;
}


}  // namespace ts::sim
