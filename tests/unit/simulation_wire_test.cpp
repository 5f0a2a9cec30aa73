// The simulation wire format (sim/files/simulation_wire.hpp, issue 36): real simulations come
// back field for field (compared here one field at a time, not by encoding again), and
// messages that are truncated, flipped, of another version or scenario, or hand-made with
// out-of-range ids are refused with one sentence, never a crash.
#include <gtest/gtest.h>

#include <atomic>
#include <cmath>
#include <cstring>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "sim/catalogue/kernel_registry.hpp"
#include "sim/catalogue/loaded_kernels.hpp"
#include "sim/engine/loaded_binding.hpp"
#include "sim/engine/simulate.hpp"
#include "sim/files/scenario_file.hpp"
#include "sim/files/simulation_wire.hpp"

namespace ts::test {
namespace {

using nlohmann::json;

// ---- an independent comparison, field by field ---------------------------------------------

/// Collects the fields in which two simulations differ.
class Diff {
public:
    template <class T>
    void same(const std::string& what, const T& a, const T& b)
    {
        if (!(a == b)) note(what);
    }
    void bits(const std::string& what, float a, float b)
    {
        uint32_t x, y;
        std::memcpy(&x, &a, 4);
        std::memcpy(&y, &b, 4);
        if (x != y) note(what);
    }
    void floats(const std::string& what, const std::vector<float>& a, const std::vector<float>& b)
    {
        if (a.size() != b.size()) return note(what + ".size");
        for (size_t i = 0; i < a.size(); ++i) bits(what + "[" + std::to_string(i) + "]", a[i], b[i]);
    }
    void dim(const std::string& what, const sim::Dim3& a, const sim::Dim3& b)
    {
        same(what + ".x", a.x, b.x), same(what + ".y", a.y, b.y), same(what + ".z", a.z, b.z);
    }
    void uint3(const std::string& what, const sim::Uint3& a, const sim::Uint3& b)
    {
        same(what + ".x", a.x, b.x), same(what + ".y", a.y, b.y), same(what + ".z", a.z, b.z);
    }
    void arrays(const std::string& what, const std::vector<sim::ArrayInfo>& a, const std::vector<sim::ArrayInfo>& b)
    {
        if (a.size() != b.size()) return note(what + ".size");
        for (size_t i = 0; i < a.size(); ++i) {
            const std::string w = what + "[" + std::to_string(i) + "]";
            same(w + ".name", a[i].name, b[i].name);
            same(w + ".space", a[i].space, b[i].space);
            same(w + ".rows", a[i].rows, b[i].rows);
            same(w + ".cols", a[i].cols, b[i].cols);
            same(w + ".columnMajor", a[i].columnMajor, b[i].columnMajor);
            same(w + ".elementBytes", a[i].elementBytes, b[i].elementBytes);
        }
    }
    void totals(const std::string& w, const sim::Totals& a, const sim::Totals& b)
    {
        same(w + ".global_loads", a.global_loads, b.global_loads);
        same(w + ".global_stores", a.global_stores, b.global_stores);
        same(w + ".shared_loads", a.shared_loads, b.shared_loads);
        same(w + ".shared_stores", a.shared_stores, b.shared_stores);
        same(w + ".constant_loads", a.constant_loads, b.constant_loads);
        same(w + ".zero_fills", a.zero_fills, b.zero_fills);
        same(w + ".barriers", a.barriers, b.barriers);
        same(w + ".flops", a.flops, b.flops);
        same(w + ".global_ld_requests", a.global_ld_requests, b.global_ld_requests);
        same(w + ".global_ld_sectors", a.global_ld_sectors, b.global_ld_sectors);
        same(w + ".global_st_requests", a.global_st_requests, b.global_st_requests);
        same(w + ".global_st_sectors", a.global_st_sectors, b.global_st_sectors);
        same(w + ".shared_ld_requests", a.shared_ld_requests, b.shared_ld_requests);
        same(w + ".shared_ld_wavefronts", a.shared_ld_wavefronts, b.shared_ld_wavefronts);
        same(w + ".shared_st_requests", a.shared_st_requests, b.shared_st_requests);
        same(w + ".shared_st_wavefronts", a.shared_st_wavefronts, b.shared_st_wavefronts);
        same(w + ".shared_ld_conflicts", a.shared_ld_conflicts, b.shared_ld_conflicts);
        same(w + ".shared_st_conflicts", a.shared_st_conflicts, b.shared_st_conflicts);
        same(w + ".constant_ld_requests", a.constant_ld_requests, b.constant_ld_requests);
        same(w + ".constant_ld_passes", a.constant_ld_passes, b.constant_ld_passes);
        same(w + ".branch_uniform", a.branch_uniform, b.branch_uniform);
        same(w + ".branch_divergent", a.branch_divergent, b.branch_divergent);
        same(w + ".branch_lanes", a.branch_lanes, b.branch_lanes);
        same(w + ".global_atomics", a.global_atomics, b.global_atomics);
        same(w + ".global_atom_requests", a.global_atom_requests, b.global_atom_requests);
        same(w + ".global_atom_passes", a.global_atom_passes, b.global_atom_passes);
    }
    void access(const std::string& w, const sim::HazardAccess& a, const sim::HazardAccess& b)
    {
        same(w + ".thread", a.thread, b.thread);
        same(w + ".line", a.line, b.line);
        same(w + ".write", a.write, b.write);
        same(w + ".seq", a.seq, b.seq);
        same(w + ".ordinal", a.ordinal, b.ordinal);
    }
    /// Every field of sim::Simulation but the scenario's info pointer.
    void simulation(const sim::Simulation& a, const sim::Simulation& b)
    {
        const sim::Scenario &s = a.scenario, &t = b.scenario;
        same("scenario.kernel", s.kernel, t.kernel);
        same("scenario.j", s.j, t.j), same("scenario.k", s.k, t.k), same("scenario.l", s.l, t.l);
        same("scenario.height", s.height, t.height), same("scenario.width", s.width, t.width);
        same("scenario.maskWidth", s.maskWidth, t.maskWidth), same("scenario.tile", s.tile, t.tile);
        same("scenario.seed", s.seed, t.seed), same("scenario.dropBarriers", s.dropBarriers, t.dropBarriers);
        uint3("scenario.block", s.block, t.block);
        dim("grid", a.grid, b.grid);
        dim("block", a.block, b.block);
        floats("M", a.M, b.M);
        floats("N", a.N, b.N);
        floats("P", a.P, b.P);
        floats("reference", a.reference, b.reference);
        same("referenceFlops", a.referenceFlops, b.referenceFlops);
        arrays("arrays", a.arrays, b.arrays);
        counters(a.counters, b.counters);
        trace(a.trace, b.trace);
        hazards(a.hazards, b.hazards);
        if (a.accessSites.size() != b.accessSites.size()) note("accessSites.size");
        for (size_t i = 0; i < a.accessSites.size() && i < b.accessSites.size(); ++i) {
            const sim::AccessSite &x = a.accessSites[i], &y = b.accessSites[i];
            const std::string w = "accessSites[" + std::to_string(i) + "]";
            same(w + ".line", x.line, y.line), same(w + ".array", x.array, y.array), same(w + ".kind", x.kind, y.kind);
            same(w + ".requests", x.requests, y.requests), same(w + ".lanes", x.lanes, y.lanes);
            same(w + ".sectors", x.sectors, y.sectors), same(w + ".cacheLines", x.cacheLines, y.cacheLines);
            same(w + ".wavefronts", x.wavefronts, y.wavefronts), same(w + ".ideal", x.ideal, y.ideal);
            same(w + ".divergent", x.divergent, y.divergent), same(w + ".taken", x.taken, y.taken);
            same(w + ".entered", x.entered, y.entered);
            same(w + ".wide", x.wide, y.wide);
        }
        same("matchesReference", a.matchesReference, b.matchesReference);
        same("error", a.error, b.error);
        same("cancelled", a.cancelled, b.cancelled);
    }
    void counters(const sim::Counters& a, const sim::Counters& b)
    {
        totals("counters.totals", a.totals, b.totals);
        if (a.perBlock.size() != b.perBlock.size()) note("counters.perBlock.size");
        for (size_t i = 0; i < a.perBlock.size() && i < b.perBlock.size(); ++i)
            totals("counters.perBlock[" + std::to_string(i) + "]", a.perBlock[i], b.perBlock[i]);
        same("counters.elementLoads", a.elementLoads, b.elementLoads);
        same("counters.elementStores", a.elementStores, b.elementStores);
        same("counters.elementWriters", a.elementWriters, b.elementWriters);
    }
    void trace(const sim::Trace& a, const sim::Trace& b)
    {
        uint3("trace.block", a.block, b.block);
        dim("trace.blockDim", a.blockDim, b.blockDim);
        arrays("trace.arrays", a.arrays, b.arrays);
        if (a.events.size() != b.events.size()) note("trace.events.size");
        for (size_t i = 0; i < a.events.size() && i < b.events.size(); ++i) {
            const sim::Event &x = a.events[i], &y = b.events[i];
            const std::string w = "trace.events[" + std::to_string(i) + "]";
            same(w + ".index", x.index, y.index), bits(w + ".value", x.value, y.value), same(w + ".seq", x.seq, y.seq);
            same(w + ".thread", x.thread, y.thread), same(w + ".line", x.line, y.line), same(w + ".op", x.op, y.op);
            same(w + ".array", x.array, y.array), same(w + ".flags", x.flags, y.flags);
            same(w + ".unrolled", x.unrolled, y.unrolled), same(w + ".originArray", x.originArray, y.originArray);
            same(w + ".origin", x.origin, y.origin);
        }
        if (a.steps.size() != b.steps.size()) note("trace.steps.size");
        for (size_t i = 0; i < a.steps.size() && i < b.steps.size(); ++i) {
            const sim::Step &x = a.steps[i], &y = b.steps[i];
            const std::string w = "trace.steps[" + std::to_string(i) + "]";
            same(w + ".label", x.label, y.label), same(w + ".kind", x.kind, y.kind), same(w + ".phase", x.phase, y.phase);
            same(w + ".interval", x.interval, y.interval), same(w + ".iteration", x.iteration, y.iteration);
            same(w + ".line", x.line, y.line), same(w + ".begin", x.begin, y.begin), same(w + ".end", x.end, y.end);
        }
        if (a.outputs.size() != b.outputs.size()) note("trace.outputs.size");
        for (size_t i = 0; i < a.outputs.size() && i < b.outputs.size(); ++i) {
            const sim::Trace::Output &x = a.outputs[i], &y = b.outputs[i];
            const std::string w = "trace.outputs[" + std::to_string(i) + "]";
            same(w + ".known", x.known, y.known), same(w + ".stored", x.stored, y.stored);
            same(w + ".row", x.row, y.row), same(w + ".col", x.col, y.col);
            same(w + ".oneRow", x.oneRow, y.oneRow), same(w + ".oneCol", x.oneCol, y.oneCol);
        }
        same("trace.outputArray", a.outputArray, b.outputArray);
    }
    void hazards(const sim::HazardLog& a, const sim::HazardLog& b)
    {
        same("hazards.raw", a.raw, b.raw), same("hazards.war", a.war, b.war), same("hazards.waw", a.waw, b.waw);
        same("hazards.uninitialised", a.uninitialised, b.uninitialised);
        if (a.uninitialisedSites.size() != b.uninitialisedSites.size()) note("hazards.uninitialisedSites.size");
        for (size_t i = 0; i < a.uninitialisedSites.size() && i < b.uninitialisedSites.size(); ++i) {
            const sim::UninitialisedSite &x = a.uninitialisedSites[i], &y = b.uninitialisedSites[i];
            const std::string w = "hazards.uninitialisedSites[" + std::to_string(i) + "]";
            same(w + ".array", x.array, y.array), same(w + ".line", x.line, y.line), same(w + ".count", x.count, y.count);
            uint3(w + ".exampleBlock", x.exampleBlock, y.exampleBlock);
            same(w + ".exampleThread", x.exampleThread, y.exampleThread);
            same(w + ".exampleSlot", x.exampleSlot, y.exampleSlot);
        }
        if (a.sites.size() != b.sites.size()) note("hazards.sites.size");
        for (size_t i = 0; i < a.sites.size() && i < b.sites.size(); ++i) {
            const sim::HazardSite &x = a.sites[i], &y = b.sites[i];
            const std::string w = "hazards.sites[" + std::to_string(i) + "]";
            same(w + ".kind", x.kind, y.kind), same(w + ".array", x.array, y.array);
            same(w + ".firstLine", x.firstLine, y.firstLine), same(w + ".secondLine", x.secondLine, y.secondLine);
            same(w + ".count", x.count, y.count), uint3(w + ".exampleBlock", x.exampleBlock, y.exampleBlock);
            same(w + ".exampleFirst", x.exampleFirst, y.exampleFirst);
            same(w + ".exampleSecond", x.exampleSecond, y.exampleSecond);
        }
        if (a.traced.size() != b.traced.size()) note("hazards.traced.size");
        for (size_t i = 0; i < a.traced.size() && i < b.traced.size(); ++i) {
            const sim::Hazard &x = a.traced[i], &y = b.traced[i];
            const std::string w = "hazards.traced[" + std::to_string(i) + "]";
            same(w + ".kind", x.kind, y.kind), same(w + ".array", x.array, y.array), same(w + ".slot", x.slot, y.slot);
            access(w + ".first", x.first, y.first);
            access(w + ".second", x.second, y.second);
        }
    }

    /// The differing fields, the first few of them; "" when there are none.
    std::string text() const
    {
        std::ostringstream o;
        for (size_t i = 0; i < fields_.size() && i < 8; ++i) o << (i ? ", " : "") << fields_[i];
        if (fields_.size() > 8) o << " and " << fields_.size() - 8 << " more";
        return o.str();
    }

private:
    void note(const std::string& what) { fields_.push_back(what); }
    std::vector<std::string> fields_;
};

std::string difference(const sim::Simulation& a, const sim::Simulation& b)
{
    Diff d;
    d.simulation(a, b);
    return d.text();
}

// ---- simulations --------------------------------------------------------------------------

sim::Simulation run(sim::Scenario s, sim::SimOptions o = {})
{
    EXPECT_EQ(sim::validate(s), "") << s.kernel;
    o.threads = 1;
    return sim::simulate(s, o);
}

/// What the app does with a message: decode it against the scenario it asked for.
sim::Simulation roundTrip(const sim::Simulation& r)
{
    const std::string bytes = sim::encodeSimulation(r);
    sim::Simulation back = sim::decodeSimulation(bytes, r.scenario);
    EXPECT_EQ(back.scenario.info, r.scenario.info);
    EXPECT_EQ(sim::encodeSimulation(back), bytes) << "a decoded simulation encodes to other bytes";
    return back;
}

/// Non-zero values in every float vector, so that a lost or swapped vector shows.
void expectNonZero(const sim::Simulation& r)
{
    for (const std::vector<float>* v : {&r.M, &r.N, &r.reference}) {
        ASSERT_FALSE(v->empty());
        size_t zeros = 0;
        for (float f : *v) zeros += f == 0.0f;
        EXPECT_LT(zeros, v->size() / 4 + 1);
    }
}

/// A test kernel loaded as a student's would be: the naive product without its bounds check,
/// so that a ragged size makes threads past the edge read outside M and N (a fault).
template <class X>
void unguardedProduct(X& x, const sim::MatmulArgs<X>& a)
{
    const int Row = x.blockIdx.y * x.blockDim.y + x.threadIdx.y;
    const int Col = x.blockIdx.x * x.blockDim.x + x.threadIdx.x;
    float Pvalue = 0;
    for (int i = 0; i < a.k; ++i) Pvalue += a.M[Row * a.k + i] * a.N[i * a.l + Col];
    a.P[Row * a.l + Col] = Pvalue;
}

const char* kUnguarded = "wire-test-unguarded";

void loadUnguarded()
{
    sim::LoadedKernelInfo k;
    k.name = kUnguarded;
    k.family = sim::Family::Matmul;
    k.sourceFile = "wire_test_unguarded.cu";
    k.source = "// the naive product without its bounds check\n";
    k.summary = "The naive product without its bounds check (a test kernel).";
    sim::registerLoadedKernel(k);
    sim::setLoadedBinder(kUnguarded, sim::MatmulBinder([](const sim::MatmulArgs<sim::ThreadContext>& a) {
                             return sim::ThreadBody([a](sim::ThreadContext& x) { unguardedProduct(x, a); });
                         }));
}

sim::Scenario droppedBarrier()
{
    sim::Scenario s = sim::matmulScenario("matmul-tiled", 6, 8, 6, 2, {1, 0, 0}, 7);
    s.dropBarriers = 1;   // kernels::AFTER_LOAD: reads race the tile's loads
    return s;
}

sim::Simulation small()
{
    return run(sim::matmulScenario("matmul-tiled", 3, 3, 3, 2, {1, 1, 0}, 3));
}

// ---- round trips --------------------------------------------------------------------------

TEST(SimulationWire, MatmulTiledWithADroppedBarrierComesBackWhole)
{
    const sim::Simulation r = run(droppedBarrier());
    ASSERT_EQ(r.error, "");
    expectNonZero(r);
    ASSERT_GT(r.hazards.raw, 0u);
    ASSERT_FALSE(r.hazards.sites.empty());
    ASSERT_FALSE(r.hazards.traced.empty());
    ASSERT_FALSE(r.trace.events.empty());
    ASSERT_FALSE(r.accessSites.empty());
    ASSERT_FALSE(r.counters.elementWriters[2].empty());
    const sim::Simulation back = roundTrip(r);
    EXPECT_EQ(difference(r, back), "");
    // The comparison itself sees a change in a far corner.
    sim::Simulation changed = back;
    changed.hazards.traced.back().second.ordinal += 1;
    EXPECT_EQ(difference(r, changed), "hazards.traced[" + std::to_string(r.hazards.traced.size() - 1) + "].second.ordinal");
}

TEST(SimulationWire, Conv2dTiledComesBackWhole)
{
    const sim::Simulation r = run(sim::convScenario("conv2d-tiled", 11, 13, 4, 3, {1, 1, 0}, 5));
    ASSERT_EQ(r.error, "");
    ASSERT_TRUE(r.matchesReference);
    expectNonZero(r);
    ASSERT_EQ(r.arrays.at(0).space, sim::Space::Constant);
    ASSERT_FALSE(r.trace.events.empty());
    EXPECT_EQ(difference(r, roundTrip(r)), "");
    // A scenario never validated: the decoded one has its kernel resolved all the same.
    sim::Scenario plain = r.scenario;
    plain.info = nullptr;
    ASSERT_NE(r.scenario.info, nullptr);
    EXPECT_EQ(sim::decodeSimulation(sim::encodeSimulation(r), plain).scenario.info, r.scenario.info);
}

TEST(SimulationWire, ARaggedSizeWithAFaultComesBackWhole)
{
    loadUnguarded();
    for (const sim::Uint3 traced : {sim::Uint3{0, 0, 0}, sim::Uint3{2, 2, 0}}) {
        const sim::Simulation r = run(sim::matmulScenario(kUnguarded, 5, 3, 5, 2, traced, 11));
        ASSERT_NE(r.error.find("outside"), std::string::npos) << r.error;
        EXPECT_FALSE(r.matchesReference);
        expectNonZero(r);
        ASSERT_TRUE(std::isnan(r.P.back()));   // never written: the poison NaN
        const sim::Simulation back = roundTrip(r);
        EXPECT_EQ(difference(r, back), "");
        EXPECT_EQ(back.error, r.error);
    }
}

TEST(SimulationWire, NaNPayloadsComeBackBitForBit)
{
    sim::Simulation r = run(droppedBarrier());
    const uint32_t payloads[] = {0x7fc12345u, 0x7f800001u /* signalling */, 0xffbadbadu, 0x80000000u /* -0 */};
    for (size_t i = 0; i < 4; ++i) {
        std::memcpy(&r.M[i], &payloads[i], 4);
        std::memcpy(&r.N[i], &payloads[3 - i], 4);
        std::memcpy(&r.trace.events[i].value, &payloads[i], 4);
    }
    // P and the reference the same NaN, so that P still matches the reference.
    std::memcpy(&r.P[0], &payloads[0], 4);
    std::memcpy(&r.reference[0], &payloads[0], 4);
    r.matchesReference = r.P.size() == r.reference.size() &&
                         std::memcmp(r.P.data(), r.reference.data(), r.P.size() * 4) == 0;
    const sim::Simulation back = roundTrip(r);
    EXPECT_EQ(difference(r, back), "");
    uint32_t bits;
    std::memcpy(&bits, &back.M[1], 4);
    EXPECT_EQ(bits, 0x7f800001u);
}

TEST(SimulationWire, UntracedCancelledAndUnmodelledRunsComeBack)
{
    sim::SimOptions untraced;
    untraced.trace = false;
    untraced.memoryModel = false;
    const sim::Simulation a = run(droppedBarrier(), untraced);
    ASSERT_TRUE(a.trace.events.empty());
    EXPECT_EQ(difference(a, roundTrip(a)), "");

    std::atomic<bool> stop{true};
    sim::SimOptions cancelled;
    cancelled.cancel = &stop;
    const sim::Simulation b = run(droppedBarrier(), cancelled);
    ASSERT_TRUE(b.cancelled);
    EXPECT_EQ(difference(b, roundTrip(b)), "");
}

TEST(SimulationWire, AnArrayProblemThatCannotRunComesBack)
{
    // A student's array kernel whose problem is not loaded: the arrays are named, nothing ran.
    sim::LoadedKernelInfo k;
    k.name = "wire-test-array";
    k.family = sim::Family::Array;
    sim::registerLoadedKernel(k);
    sim::Scenario s = sim::matmulScenario(k.name, 4, 4, 4, 2);
    s.info = sim::findLoadedKernel(k.name);
    const sim::Simulation r = sim::simulate(s);
    ASSERT_NE(r.error, "");
    ASSERT_EQ(r.arrays.size(), 3u);
    ASSERT_TRUE(r.P.empty());
    EXPECT_EQ(difference(r, roundTrip(r)), "");
}

TEST(SimulationWire, EveryPresetComesBack)
{
    const std::vector<sim::Preset> presets = sim::listPresets();
    ASSERT_GE(presets.size(), 10u);
    for (const sim::Preset& p : presets) {
        SCOPED_TRACE(p.name);
        sim::SimOptions o;
        o.schedule = p.schedule;
        o.scheduleSeed = p.scheduleSeed;
        const sim::Simulation r = run(p.scenario, o);
        EXPECT_EQ(difference(r, roundTrip(r)), "");
    }
}

TEST(SimulationWire, EveryKernelComesBack)
{
    std::vector<sim::Scenario> scenarios;
    sim::forEachKernel([&](auto k) {
        using K = decltype(k);
        const sim::KernelInfo& info = K::info;
        std::string why;
        // (1024 and 256: PMPP ch. 9's histograms, a grid of more than one block of 256.)
        for (int edge : {9, 32, 64, 128, 1024})
            for (int tile : {2, 4, 8, 16, 32, 64, 128, 256}) {
                // A one-block launch (PMPP ch. 10's one-block sums) traces block 0.
                const bool oneBlock = std::string_view(info.grid) == "1";
                sim::Scenario s = info.scan   // a scan of one section of 16 (PMPP ch. 11)
                                      ? sim::convScenario(info.name, 1, 16, info.tiled ? 16 : 1, 1, {0, 0, 0}, 9)
                                  : info.family == sim::Family::Array
                                      ? sim::convScenario(info.name, 1, edge, oneBlock ? edge / 2 : tile, 1, {oneBlock ? 0u : 1u, 0, 0}, 9)
                                  : info.family == sim::Family::Matmul
                                      ? sim::matmulScenario(info.name, edge, edge - 2 + (edge > 9), edge + 2, tile, {1, 0, 0}, 9)
                                  : info.family == sim::Family::Conv1D ? sim::convScenario(info.name, 1, 4 * edge + 1, tile, 5, {1, 0, 0}, 9)
                                                                       : sim::convScenario(info.name, edge, edge + 3, tile, 3, {1, 1, 0}, 9);
                why = sim::validate(s);
                if (why.empty()) {
                    if (scenarios.empty() || scenarios.back().kernel != s.kernel) scenarios.push_back(s);
                }
            }
        EXPECT_TRUE(!scenarios.empty() && scenarios.back().kernel == info.name) << info.name << ": " << why;
    });
    for (const sim::Scenario& s : scenarios) {
        SCOPED_TRACE(s.kernel + " tile " + std::to_string(s.tile));
        const sim::Simulation r = run(s);
        EXPECT_EQ(r.error, "");
        EXPECT_EQ(difference(r, roundTrip(r)), "");
    }
}

// ---- refusals -----------------------------------------------------------------------------

/// decodeSimulation(bytes) throws a WireError of one sentence containing `part`; the sentence.
std::string refusal(const std::string& bytes, const sim::Scenario& s, const std::string& part = "")
{
    try {
        sim::decodeSimulation(bytes, s);
    } catch (const sim::WireError& e) {
        const std::string m = e.what();
        EXPECT_EQ(m.rfind("Simulation message refused: ", 0), 0u) << m;
        EXPECT_EQ(m.find('\n'), std::string::npos) << m;
        EXPECT_EQ(m.back(), '.') << m;
        EXPECT_NE(m.find(part), std::string::npos) << "wanted \"" << part << "\" in: " << m;
        return m;
    }
    ADD_FAILURE() << "accepted; wanted a refusal with \"" << part << "\"";
    return "";
}

TEST(SimulationWireRefusals, EveryTruncationAndAnExtraByte)
{
    const sim::Simulation r = small();
    const std::string bytes = sim::encodeSimulation(r);
    ASSERT_LT(bytes.size(), 8000u);
    for (size_t n = 0; n < bytes.size(); ++n) {
        SCOPED_TRACE(n);
        refusal(bytes.substr(0, n), r.scenario);
    }
    refusal(bytes + '\0', r.scenario, "CBOR");
    EXPECT_EQ(difference(r, sim::decodeSimulation(bytes, r.scenario)), "");
}

TEST(SimulationWireRefusals, EveryByteFlippedIsRefusedOrShows)
{
    const sim::Simulation r = small();
    const std::string bytes = sim::encodeSimulation(r);
    for (const unsigned char mask : {0xFFu, 0x01u, 0x80u}) {
        size_t refused = 0;
        for (size_t i = 0; i < bytes.size(); ++i) {
            std::string b = bytes;
            b[i] = static_cast<char>(b[i] ^ mask);
            try {
                const sim::Simulation back = sim::decodeSimulation(b, r.scenario);
                // Accepted: the flip lands in a value (an input, a count, a label) and shows there.
                EXPECT_NE(difference(r, back), "") << "byte " << i << " ^ " << int(mask) << " changed nothing";
            } catch (const sim::WireError& e) {
                ++refused;
                EXPECT_EQ(std::string(e.what()).find('\n'), std::string::npos);
            }
        }
        // The structure, the ids and the sums are refused; most of a small message is those.
        EXPECT_GT(refused, bytes.size() / 4) << int(mask);
    }
}

/// A message as a CBOR document to edit, and back.
json open(const std::string& bytes) { return json::from_cbor(bytes); }
std::string close(const json& j)
{
    std::string out;
    json::to_cbor(j, out);
    return out;
}
/// Little-endian field of `size` bytes at `offset` of record `record` of a byte string.
void poke(json& blob, size_t recordBytes, size_t record, size_t offset, size_t size, uint64_t value)
{
    std::vector<uint8_t>& b = blob.get_binary();
    ASSERT_LE(record * recordBytes + offset + size, b.size());
    for (size_t i = 0; i < size; ++i) b[record * recordBytes + offset + i] = static_cast<uint8_t>(value >> (8 * i));
}

TEST(SimulationWireRefusals, WrongVersionOrFormat)
{
    const sim::Simulation r = small();
    json j = open(sim::encodeSimulation(r));
    ASSERT_EQ(j["version"], sim::kSimulationWireVersion);
    for (uint64_t v : {uint64_t{0}, uint64_t{sim::kSimulationWireVersion + 1}, uint64_t{1} << 40}) {
        j["version"] = v;
        refusal(close(j), r.scenario,
                "version " + std::to_string(v) + ", and this TileScope reads version " + std::to_string(sim::kSimulationWireVersion));
    }
    j["version"] = "1";
    refusal(close(j), r.scenario, "version");
    j["version"] = sim::kSimulationWireVersion;
    j["format"] = "tilescope-results";
    refusal(close(j), r.scenario, "not a TileScope simulation");
    refusal(close(json::array({1, 2})), r.scenario, "not a map");
}

TEST(SimulationWireRefusals, AnotherScenario)
{
    const sim::Simulation r = small();
    const std::string bytes = sim::encodeSimulation(r);
    const auto other = [&](auto change, const std::string& part) {
        sim::Scenario s = r.scenario;
        change(s);
        refusal(bytes, s, part);
    };
    other([](sim::Scenario& s) { s.kernel = "matmul-naive"; }, "kernel \"matmul-tiled\", not of \"matmul-naive\"");
    other([](sim::Scenario& s) { s.j = 4; }, "its j is 3, not 4");
    other([](sim::Scenario& s) { s.k = 4; }, "its k is 3");
    other([](sim::Scenario& s) { s.l = 4; }, "its l is 3");
    other([](sim::Scenario& s) { s.tile = 4; }, "its tile is 2, not 4");
    other([](sim::Scenario& s) { s.seed = 4; }, "its seed is 3, not 4");
    other([](sim::Scenario& s) { s.dropBarriers = 2; }, "its dropBarriers is 0, not 2");
    other([](sim::Scenario& s) { s.block = {0, 1, 0}; }, "traced block is (1, 1, 0), not (0, 1, 0)");
    other([](sim::Scenario& s) { s.width = 65; }, "its width is 64, not 65");
    other([](sim::Scenario& s) { s.height = 2; }, "its height");
    other([](sim::Scenario& s) { s.maskWidth = 3; }, "its maskWidth");
}

TEST(SimulationWireRefusals, OversizedNestedTaggedAndExtraKeys)
{
    const sim::Simulation r = small();
    const std::string bytes = sim::encodeSimulation(r);
    try {
        sim::decodeSimulation(bytes, r.scenario, bytes.size() - 1);
        ADD_FAILURE() << "an oversized message was accepted";
    } catch (const sim::WireError& e) {
        EXPECT_NE(std::string(e.what()).find("more than the " + std::to_string(bytes.size() - 1) + " allowed"),
                  std::string::npos);
    }
    // A million nested arrays (0x81: an array of one item) must not exhaust the stack.
    refusal(std::string(1000000, '\x81') + '\x01', r.scenario, "nest deeper than 8");
    refusal(std::string("\xc1\x00", 2), r.scenario, "CBOR");   // a tag
    refusal(std::string("\xa2\x61" "a\x01\x61" "a\x02", 7), r.scenario, "repeats the key \"a\"");
    json j = open(bytes);
    j["extra"] = 1;
    refusal(close(j), r.scenario, "the message has 1 unknown keys");
    j = open(bytes);
    j["trace"].erase("labels");
    refusal(close(j), r.scenario, "the trace has no \"labels\"");
    j = open(bytes);
    j["error"] = 5;
    refusal(close(j), r.scenario, "the error is not a text");
}

/// Hand-built messages: a real one with one field set out of range.
class HandBuilt : public ::testing::Test {
protected:
    void SetUp() override
    {
        r_ = run(droppedBarrier());
        ASSERT_FALSE(r_.hazards.traced.empty());
        ASSERT_FALSE(r_.hazards.sites.empty());
        ASSERT_FALSE(r_.accessSites.empty());
        bytes_ = sim::encodeSimulation(r_);
    }
    /// The message with `edit` applied is refused with `part` in the sentence.
    template <class Edit>
    void refused(Edit edit, const std::string& part)
    {
        json j = open(bytes_);
        edit(j);
        refusal(close(j), r_.scenario, part);
    }
    /// `edit` leaves a message the decoder takes.
    template <class Edit>
    void accepted(Edit edit)
    {
        json j = open(bytes_);
        edit(j);
        EXPECT_NO_THROW(sim::decodeSimulation(close(j), r_.scenario));
    }
    size_t events() const { return r_.trace.events.size(); }
    size_t arrays() const { return r_.arrays.size(); }
    sim::Simulation r_;
    std::string bytes_;
};

TEST_F(HandBuilt, TheUneditedMessageIsAccepted)
{
    EXPECT_EQ(difference(r_, sim::decodeSimulation(close(open(bytes_)), r_.scenario)), "");
}

TEST_F(HandBuilt, EventsWithIdsOutOfRange)
{
    // The first global load: array M (0), element index < 48.
    size_t load = 0;
    while (r_.trace.events[load].op != sim::Op::GlobalLoad) ++load;
    const auto event = [&](size_t offset, size_t size, uint64_t value) {
        return [=](json& j) { poke(j["trace"]["events"], sim::wire::kEventBytes, load, offset, size, value); };
    };
    refused(event(17, 1, arrays()), "names array " + std::to_string(arrays()) + ", but there are " + std::to_string(arrays()));
    refused(event(17, 1, 3), "which is not in its memory space");   // Mds, a shared array
    refused(event(0, 4, 48), "names element 48 of \"M\", which has 48");
    refused(event(0, 4, 0xFFFFFFFFu), "names element -1");
    refused(event(12, 2, 4), "names thread 4, but the block has 4");
    refused(event(16, 1, 11), "has op 11, which is no Op");
    refused(event(16, 1, static_cast<uint64_t>(sim::Op::Shuffle)), "is a shuffle but names an element");
    refused(event(16, 1, static_cast<uint64_t>(sim::Op::Barrier)), "names an element");
    refused(event(18, 1, 16), "flags that are no EventFlag");
    refused(event(20, 1, arrays()), "origin array");
    refused(event(21, 4, 5), "origin element but no origin array");
    refused(event(8, 4, events()), "has seq " + std::to_string(events()));
    refused(event(8, 4, (r_.trace.events[load].seq + 1) % events()), "each once");
    refused([](json& j) { j["trace"]["events"].get_binary().push_back(0); }, "not a whole number of 25-byte records");
}

TEST_F(HandBuilt, StepsOutsideOrOutOfOrder)
{
    const size_t last = r_.trace.steps.size() - 1;
    const auto step = [&](size_t record, size_t offset, size_t size, uint64_t value) {
        return [=](json& j) { poke(j["trace"]["steps"], sim::wire::kStepBytes, record, offset, size, value); };
    };
    refused(step(last, 21, 4, events() + 1), "steps must cover the " + std::to_string(events()) + " events");
    refused(step(last, 21, 4, events() - 1), "the trace's steps end at event " + std::to_string(events() - 1));
    refused(step(1, 17, 4, r_.trace.steps[1].begin + 1), "in order from");
    refused(step(0, 21, 4, 0xFFFFFFFFu), "in order from 0");
    refused(step(0, 0, 1, 5), "which is no StepKind");
    refused(step(0, 1, 4, 0xFFFFFFFFu), "phase, interval or iteration");
    refused(step(0, 9, 4, 0x7FFFFFFFu), "phase, interval or iteration");
    refused(step(0, 13, 4, 70000), "past an event's lines");
    refused([](json& j) { j["trace"]["labels"].erase(0); }, "labels");
}

TEST_F(HandBuilt, TraceShapeOutputsAndLaunch)
{
    refused([&](json& j) { j["trace"]["outputArray"] = arrays(); }, "outputArray is " + std::to_string(arrays()));
    refused([](json& j) { j["trace"]["outputs"].get_binary().resize(3 * sim::wire::kOutputBytes); }, "3 outputs for 4 threads");
    refused([](json& j) { poke(j["trace"]["outputs"], sim::wire::kOutputBytes, 0, 1, 8, 1000); }, "outside \"P\"");
    refused([](json& j) { poke(j["trace"]["outputs"], sim::wire::kOutputBytes, 0, 0, 1, 2); }, "stored but not known");
    refused([](json& j) { j["trace"]["blockDim"] = json::array({2, 3, 1}); }, "blockDim is not the launch's block");
    refused([](json& j) { j["trace"]["block"] = json::array({0, 0, 0}); }, "not the scenario's traced block");
    refused([](json& j) { j["trace"]["arrays"][1]["rows"] = 9; }, "the trace's arrays are not the simulation's");
    refused([](json& j) { j["grid"] = json::array({4, 3, 1}); }, "is not the scenario's");
    refused([](json& j) { j["block"] = json::array({2, 2, 0}); }, "has an extent of 0");
    refused([](json& j) { j["block"] = json::array({64, 32, 1}); }, "more than 1024");
    refused([](json& j) { j["grid"] = json::array({1u << 20, 1u << 20, 1}); }, "more than 2^32 blocks");
}

TEST_F(HandBuilt, ValuesAndCountersThatDoNotFit)
{
    refused([](json& j) { j["P"].get_binary().resize(4 * 35); }, "P has 35 values, but its array \"P\" has 36");
    refused([](json& j) { j["M"].get_binary().clear(); }, "M has 0 values");
    refused([](json& j) { j["reference"].get_binary().resize(4 * 37); }, "the reference has 37 values");
    refused([](json& j) { j["matchesReference"] = !j["matchesReference"].get<bool>(); }, "say otherwise");
    refused([](json& j) { j["cancelled"] = true; }, "cancelled but gives no error");
    refused([](json& j) { j["arrays"][0]["space"] = 3; }, "array 0's space is 3, more than 2");
    refused([](json& j) { j["arrays"][0]["rows"] = 1 << 30; }, "more than an int counts");
    refused([](json& j) { j["arrays"][0]["rows"] = -1; }, "outside 0 to");
    refused([](json& j) {
        json& list = j["arrays"];
        while (list.size() < 256) list.push_back(list[0]);
    }, "256 arrays, more than 255");
    refused([](json& j) { j["counters"]["perBlock"].get_binary().resize(8 * sim::wire::kTotalsBytes); },
            "8 blocks' totals for a grid of 9 blocks");
    refused([](json& j) { poke(j["counters"]["perBlock"], sim::wire::kTotalsBytes, 4, 0, 8, 12345); },
            "totals are not the sum");
    refused([](json& j) { j["counters"]["elementLoads"][0].get_binary().resize(4 * 47); }, "47 counts for 48 elements");
    refused([](json& j) { j["counters"]["elementStores"].erase(3); },
            "elementStores has " + std::to_string(arrays() - 1) + " vectors for " + std::to_string(arrays()) + " arrays");
    refused([](json& j) { poke(j["counters"]["elementWriters"][2], 4, 0, 0, 4, 9 * 4 + 1); }, "names writer 37, but the grid has 36");
    refused([](json& j) { j["counters"]["elementWriters"][0] = json::binary({1, 0, 0, 0}); }, "1 writers for 48 elements");
    refused([](json& j) { j["counters"]["elementWriters"][3] = j["counters"]["elementLoads"][3]; }, "not a global array");
}

TEST_F(HandBuilt, HazardsAndAccessSitesOutOfRange)
{
    const auto traced = [](size_t offset, size_t size, uint64_t value) {
        return [=](json& j) { poke(j["hazards"]["traced"], sim::wire::kHazardBytes, 0, offset, size, value); };
    };
    refused(traced(0, 1, 3), "which is no HazardKind");
    // A race on a global array is a hazard too (histo[b]++, PMPP sec. 9.2): M's element 0.
    accepted([&](json& j) { traced(1, 1, 0)(j), traced(2, 4, 0)(j); });
    refused(traced(1, 1, 200), "names array 200");
    refused(traced(2, 4, 4), "names element 4 of \"");
    refused(traced(6, 2, 4), "first access names thread 4");
    refused(traced(21, 2, 0xFFFF), "second access names thread 65535");
    refused(traced(6 + 7, 4, events()), "names event " + std::to_string(events()));
    refused(traced(6 + 6, 1, 2), "write flag that is no boolean");
    const auto site = [](size_t offset, size_t size, uint64_t value) {
        return [=](json& j) { poke(j["hazards"]["sites"], sim::wire::kHazardSiteBytes, 0, offset, size, value); };
    };
    accepted(site(1, 1, 2));   // P
    refused(site(18, 4, 3), "example block (3, ");
    refused(site(30, 2, 4), "names thread 4");
    refused([](json& j) { j["hazards"]["traced"].get_binary().resize(2 * sim::wire::kHazardBytes + 1); },
            "not a whole number of 36-byte records");
    refused([](json& j) { j["trace"] = open(sim::encodeSimulation(sim::Simulation{}))["trace"]; },
            "traced hazards but no trace");
    const auto access = [](size_t offset, size_t size, uint64_t value) {
        return [=](json& j) { poke(j["accessSites"], sim::wire::kAccessSiteBytes, 0, offset, size, value); };
    };
    refused(access(5, 1, 8), "which is no AccessKind");   // one past SharedAtomic
    refused(access(4, 1, arrays()), "names array " + std::to_string(arrays()) + ", but there are " + std::to_string(arrays()));
    refused(access(78, 1, 7), "wide flag");
    // A shared-load site moved onto a global array.
    size_t shared = 0;
    while (r_.accessSites[shared].kind != sim::AccessKind::SharedLoad) ++shared;
    refused([=](json& j) { poke(j["accessSites"], sim::wire::kAccessSiteBytes, shared, 4, 1, 0); }, "not in its memory space");
}

TEST(SimulationWireRefusals, AnUninitialisedSiteOutsideItsArray)
{
    // matmul-tiled with the first barrier dropped at a ragged size reads slots nobody wrote.
    sim::Scenario s = sim::matmulScenario("matmul-tiled", 5, 5, 5, 4, {1, 1, 0}, 2);
    s.dropBarriers = 1;
    const sim::Simulation r = run(s);
    ASSERT_FALSE(r.hazards.uninitialisedSites.empty());
    EXPECT_EQ(difference(r, roundTrip(r)), "");
    json j = open(sim::encodeSimulation(r));
    poke(j["hazards"]["uninitialisedSites"], sim::wire::kUninitialisedSiteBytes, 0, 27, 4, 16);
    refusal(close(j), r.scenario, "names element 16");
    j = open(sim::encodeSimulation(r));
    poke(j["hazards"]["uninitialisedSites"], sim::wire::kUninitialisedSiteBytes, 0, 25, 2, 16);
    refusal(close(j), r.scenario, "names thread 16, but the block has 16");
}

}  // namespace
}  // namespace ts::test
