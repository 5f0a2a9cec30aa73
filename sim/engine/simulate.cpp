#include "sim/engine/simulate.hpp"
#include "sim/engine/loaded_runner.hpp"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstring>
#include <mutex>
#include <optional>

#include "sim/teaching/kernel_view.hpp"
#include "sim/engine/problem.hpp"
#include "sim/engine/provenance.hpp"
#include "sim/engine/progress.hpp"
#include "sim/engine/work_estimate.hpp"

namespace ts::sim {

int Simulation::arrayIndex(const std::string& name) const
{
    for (size_t i = 0; i < arrays.size(); ++i)
        if (arrays[i].name == name) return static_cast<int>(i);
    return -1;
}

namespace {

Problem problemFor(const Scenario& s, const Progress& progress)
{
    switch (familyOf(s)) {
    case Family::Matmul: return matmulProblem(s, progress);
    case Family::Conv1D:
    case Family::Conv2D: return convProblem(s, progress);
    case Family::Array: return arrayProblem(s, progress);
    }
    return matmulProblem(s, progress);
}

/// The worker threads of a launch: SimOptions::threads (0: one per core), no more than the
/// memory beyond the estimated need holds copies of the per-element counters and one
/// block's fiber stacks, one each (sim/engine/machine.cpp gives each worker its own).
unsigned workerThreads(const SimOptions& opt, const WorkEstimate& work)
{
    unsigned n = opt.threads == 0 ? hardwareThreads() : opt.threads;
    if (n <= 1 || work.blocks <= 1) return 1;
    const uint64_t perWorker = std::max<uint64_t>(1, work.counterBytes + work.stackBytes);
    if (const std::optional<uint64_t> free = availableMemory()) {
        const uint64_t spare = *free > work.bytes() ? *free - work.bytes() : 0;
        n = static_cast<unsigned>(std::min<uint64_t>(n, spare / perWorker));
    }
    return std::max(1u, n);
}

/// simulate()'s work, estimated as `work`; throws Cancelled when SimOptions::cancel stops it.
void simulateInto(Simulation& sim, const Scenario& s, const SimOptions& opt, const WorkEstimate& work)
{
    sim.scenario = s;
    // The kernel resolved once for every view of this simulation (Scenario::info).
    const KernelInfo* info = sim.scenario.info = s.kernelInfo();
    const LaunchShape shape = launchShape(sim.scenario);
    sim.grid = shape.grid;
    sim.block = shape.block;

    // Progress: each part's share of the estimated time.
    const Progress progress{opt.cancel, opt.progress, opt.progressFrom, opt.progressTo};
    const double total = std::max(work.seconds(), 1e-9);
    const double setupEnd = work.setupSeconds / total;
    const double runEnd = (work.setupSeconds + work.runSeconds) / total;
    progress.at(0);

    // The inputs and the CPU reference, whose rows the reference spreads over as many
    // threads as the grid will have.
    const unsigned workers = workerThreads(opt, work);
    Problem pb;
    withThreads(workers, [&] { pb = problemFor(s, progress.part(0, setupEnd)); });
    if (!pb.error.empty()) {
        // An array problem whose reference formula fails: nothing runs.
        sim.error = pb.error;
        sim.arrays = {pb.M, pb.N, pb.P};
        return;
    }
    sim.M = std::move(pb.inM);
    sim.N = std::move(pb.inN);
    // Poison P so an element the kernel never writes cannot match the reference (or start it
    // where the problem says: a sum that atomics accumulate starts at 0).
    sim.P.assign(static_cast<size_t>(pb.P.size()), pb.outputStart);
    sim.reference = std::move(pb.reference);
    sim.referenceFlops = pb.referenceFlops;

    // The counters of each array (zeroed: a few tenths of a second at 8192 x 8192), with a
    // look at the cancel flag in between.
    Machine m;
    progress.at(setupEnd);
    const uint8_t idM = m.arrayId(pb.M.name, pb.M.space, pb.M.rows, pb.M.cols);
    progress.at(setupEnd);
    const uint8_t idN = m.arrayId(pb.N.name, pb.N.space, pb.N.rows, pb.N.cols, pb.N.columnMajor);
    progress.at(setupEnd);
    const uint8_t idP = m.arrayId(pb.P.name, pb.P.space, pb.P.rows, pb.P.cols);
    // A registry row's scratch arrays (PMPP sec. 11.7's flags), after P, at their start values.
    std::vector<uint8_t> idScratch;
    for (size_t t = 0; t < pb.scratch.size(); ++t) {
        const ArrayInfo& a = pb.scratch[t];
        idScratch.push_back(m.arrayId(a.name, a.space, a.rows, a.cols));
        sim.scratch.emplace_back(static_cast<size_t>(a.size()), pb.scratchStart[t]);
    }
    // An array problem's kernel may write its inputs in place (PMPP Fig. 10.6's `float*
    // input`): it gets copies, so that sim.M and sim.N stay the inputs the launch was given
    // (the values the views show as loaded, and the GPU's inputs in verify).
    std::vector<float> workM, workN;
    const bool copyInputs = info && info->family == Family::Array;
    if (copyInputs) {
        workM = sim.M;
        workN = sim.N;
    }
    float* const dataM = copyInputs ? workM.data() : sim.M.data();
    float* const dataN = copyInputs ? workN.data() : sim.N.data();
    // M, N and P as the kernel sees them, counting into machine `w`'s counters, for launch
    // `launch` (from 0) of the row's launches.
    const auto bound = [&](Machine& w, int launch) {
        std::vector<GlobalPtr<float>> scratch;
        for (size_t t = 0; t < sim.scratch.size(); ++t)
            scratch.emplace_back(sim.scratch[t].data(), static_cast<long long>(sim.scratch[t].size()), &w, idScratch[t]);
        return pb.bind(w, GlobalPtr<const float>(dataM, static_cast<long long>(sim.M.size()), &w, idM),
                       GlobalPtr<const float>(dataN, static_cast<long long>(sim.N.size()), &w, idN),
                       GlobalPtr<float>(sim.P.data(), static_cast<long long>(sim.P.size()), &w, idP), sim.M, scratch,
                       launch);
    };

    LaunchConfig cfg;
    cfg.grid = shape.grid;
    cfg.block = shape.block;
    if (opt.trace) cfg.tracedBlock = s.block;
    cfg.schedule = opt.schedule;
    cfg.scheduleSeed = opt.scheduleSeed;
    m.dropMask = s.dropBarriers;
    m.detectHazards = opt.detectHazards;
    WarpMemory warpMemory;
    if (opt.memoryModel) m.memory = &warpMemory;
    cfg.threads = workers;
    if (const KernelInfo* info = s.kernelInfo()) {
        cfg.stackBytes = info->stackBytes;
        // Blocks that meet at atomics run one after the other in the schedule's order: the
        // order of their atomics on one address, which a float sum's bits depend on.
        if (info->atomics) {
            cfg.threads = 1;
            cfg.blocksInScheduleOrder = true;
            m.orderChecks = true;   // blocks may hand data on through flags (PMPP sec. 11.7)
        }
    }
    // Before each simulated thread starts: report the share of threads started, and stop
    // if asked to (Cancelled, thrown on the thread's fiber, ends the launch as a fault does).
    // Worker threads count together; the reports go through a lock that keeps the last
    // fraction reported, so the bar never moves back.
    const Progress running = progress.part(setupEnd, runEnd);
    const double threads = static_cast<double>(std::max<uint64_t>(1, work.threads));
    std::atomic<uint64_t> started{0};
    std::mutex reportLock;
    uint64_t reported = 0;
    const auto report = [&](uint64_t n) {
        std::lock_guard<std::mutex> lock(reportLock);
        if (n > reported) {
            reported = n;
            running.at(static_cast<double>(n) / threads);
        } else if (running.stopRequested()) {
            throw Cancelled();
        }
    };
    // The row's launches one after the other on the same arrays (PMPP sec. 11.6's hierarchical
    // scan has three): the totals, element counts, hazards and memory sites are summed over
    // them; the trace, the per-block totals and the element writers are the traced launch's.
    const int launches = launchCount(s);
    const int tracedLaunch = std::clamp(s.launch, 1, launches);
    std::vector<Totals> tracedPerBlock;
    std::vector<std::vector<uint32_t>> tracedWriters;
    std::vector<AccessSite> sites;
    bool overflowed = false;
    for (int launch = 1; launch <= launches && sim.error.empty(); ++launch) {
        LaunchConfig c = cfg;
        if (launches > 1) {
            const LaunchShape sh = launchShapeOf(s, launch);
            c.grid = sh.grid;
            c.block = sh.block;
            if (launch != tracedLaunch) c.tracedBlock.reset();
            // The element writers kept are the traced launch's alone (thread indices of its grid).
            else
                for (std::vector<uint32_t>& w : m.counters.elementWriters) std::fill(w.begin(), w.end(), 0u);
        }
        // The kernel bound to a worker's machine (the calling thread's `m` when it runs alone).
        const BodyBinder bind = [&, launch](Machine& w) -> ThreadBody {
            return [kernel = bound(w, launch - 1), &started, &report](ThreadContext& x) {
                const uint64_t n = started.fetch_add(1, std::memory_order_relaxed) + 1;
                if ((n & 31) == 1) report(n);
                kernel(x);
            };
        };
        try {
            runGrid(m, c, bind);
        } catch (const KernelFault& f) {
            sim.error = launches > 1 ? "Launch " + std::to_string(launch) + ": " + f.what() : std::string(f.what());
        }
        if (launches > 1 && launch == tracedLaunch) {
            tracedPerBlock = m.counters.perBlock;
            tracedWriters = m.counters.elementWriters;
        }
        if (opt.memoryModel) {
            overflowed = overflowed || warpMemory.overflowed();
            addAccessSites(sites, warpMemory.sites());
        }
    }
    if (launches > 1) {
        // A fault before the traced launch leaves it without blocks (as a faulted run's wire
        // message may have none).
        m.counters.perBlock = std::move(tracedPerBlock);
        if (!tracedWriters.empty()) m.counters.elementWriters = std::move(tracedWriters);
    }
    sim.arrays = m.arrays;
    sim.counters = std::move(m.counters);
    sim.hazards = std::move(m.hazards);
    sim.orderSites = std::move(m.orderSites);
    sim.accessSites = std::move(sites);
    if (overflowed && sim.error.empty())
        sim.error = "the kernel has more than " + std::to_string(WarpMemory::kMaxSites) +
                    " distinct memory accesses (source line, array, load or store), more than the memory model keeps apart; simulate it with the memory model off.";
    markStaleReads(m.events);
    for (Hazard& h : sim.hazards.traced) {
        m.events.at(h.first.seq).flags |= kHazard;
        if (h.second.seq < m.events.size()) m.events[h.second.seq].flags |= kHazard;
    }
    progress.at(runEnd);
    if (opt.trace) {
        // A dropped barrier of a tiled matrix multiplication's loop: phases are counted from
        // the tile fills (buildTrace), the loop running ceil(k / K) phases of K columns of M.
        int fillPhases = 0;
        if (info && info->family == Family::Matmul && info->tiled && info->barriersPerPhase > 0 &&
            (s.dropBarriers & info->barriers) != 0) {
            const int K = info->tileK > 0 ? info->tileK : s.tile;
            fillPhases = (s.k - 1) / K + 1;
        }
        sim.trace = buildTrace(s.block, shape.block, sim.arrays, m.events,
                               info ? info->barriersPerPhase : 0, progress.part(runEnd, 1), fillPhases,
                               info && info->scan);
        // Each thread's output element, from the provenance: P, the array the kernel writes
        // (the third array, whatever its name: an array problem's output has its own).
        // A later launch of a row of several may store only to a scratch array (the
        // hierarchical scan's scan of the block sums): its outputs are that array's.
        int outputArray = static_cast<int>(idP);
        if (launches > 1) {
            const auto storesTo = [&](int a) {
                return std::any_of(sim.trace.events.begin(), sim.trace.events.end(),
                                   [&](const Event& e) { return e.op == Op::GlobalStore && e.array == a; });
            };
            if (!storesTo(outputArray))
                for (const Event& e : sim.trace.events)
                    if (e.op == Op::GlobalStore) {
                        outputArray = e.array;
                        break;
                    }
        }
        setThreadOutputs(sim.trace, sim, outputArray);
    }
    sim.matchesReference =
        sim.error.empty() && sim.P.size() == sim.reference.size() &&
        std::memcmp(sim.P.data(), sim.reference.data(), sim.P.size() * sizeof(float)) == 0;
    progress.at(1);
}

}  // namespace

Simulation simulate(const Scenario& s, const SimOptions& opt)
{
    return simulate(s, opt, estimateWork(s, opt));
}

Simulation simulate(const Scenario& s, const SimOptions& opt, const WorkEstimate& work)
{
    // A student's kernel whose module lives in a confined child process runs there.
    if (const LoadedRunner runner = loadedRunner(s.kernel)) return runner(s, opt, work);
    Simulation sim;
    try {
        simulateInto(sim, s, opt, work);
    } catch (const Cancelled& c) {
        sim.cancelled = true;
        sim.error = std::string(c.what()) + " before it finished";
        sim.matchesReference = false;
        sim.trace = Trace{};
    }
    return sim;
}

SumOrderCheck sumOrderCheck(const std::vector<float>& inputs, const std::vector<float>& output,
                            const std::vector<float>& reference)
{
    SumOrderCheck c;
    double magnitude = 0;
    for (float x : inputs) magnitude += std::fabs(static_cast<double>(x));
    const double u = std::ldexp(1.0, -24);
    const double m = static_cast<double>(inputs.empty() ? 0 : inputs.size() - 1);
    c.bound = 2 * (m * u / (1 - m * u)) * magnitude;
    c.within = !output.empty() && output.size() == reference.size();
    for (size_t i = 0; i < output.size() && i < reference.size(); ++i) {
        const double d = std::fabs(static_cast<double>(output[i]) - static_cast<double>(reference[i]));
        if (std::isnan(d)) {
            c.within = false;
            continue;
        }
        c.difference = std::max(c.difference, d);
        const float ref = reference[i];
        const double ulp = std::fabs(static_cast<double>(std::nextafter(ref, std::copysign(INFINITY, ref))) - ref);
        if (ulp > 0 && std::isfinite(ulp)) c.ulps = std::max(c.ulps, d / ulp);
    }
    if (c.difference > c.bound) c.within = false;
    return c;
}

bool outputCorrect(const Simulation& r)
{
    if (!r.error.empty()) return false;
    if (r.matchesReference) return true;
    const KernelInfo* k = r.scenario.kernelInfo();
    return k && k->orderDependent && sumOrderCheck(r.M, r.P, r.reference).within;
}

namespace {
/// Bytes of the global elements with a non-zero count in `perArray` (elementLoads or
/// elementStores), each of its array's size (ArrayInfo::elementBytes: a char is one).
uint64_t touchedGlobalBytes(const Simulation& r, const std::vector<std::vector<uint32_t>>& perArray)
{
    uint64_t bytes = 0;
    for (size_t a = 0; a < r.arrays.size() && a < perArray.size(); ++a)
        if (r.arrays[a].space == Space::Global)
            for (uint32_t c : perArray[a]) bytes += c != 0 ? r.arrays[a].elementBytes : 0u;
    return bytes;
}
}  // namespace

uint64_t compulsoryReadBytes(const Simulation& r) { return touchedGlobalBytes(r, r.counters.elementLoads); }
uint64_t compulsoryWriteBytes(const Simulation& r) { return touchedGlobalBytes(r, r.counters.elementStores); }
uint64_t compulsoryBytes(const Simulation& r) { return compulsoryReadBytes(r) + compulsoryWriteBytes(r); }

uint64_t requestedBytes(const Totals& t)
{
    return uint64_t{kSectorBytes} * (t.global_ld_sectors + t.global_st_sectors);
}

uint64_t untiledGlobalLoads(const Scenario& s)
{
    // An array problem has no untiled counterpart: its own loads are the measure.
    if (familyOf(s) == Family::Array) return 0;
    if (familyOf(s) != Family::Matmul) return convUntiledGlobalLoads(s);
    return 2ull * s.j * s.l * s.k;
}

uint64_t untiledGlobalLoads(const Scenario& s, const Uint3& b)
{
    if (familyOf(s) == Family::Array) return 0;
    if (familyOf(s) != Family::Matmul) return convUntiledGlobalLoads(s, b);
    const LaunchShape sh = launchShape(s);
    auto valid = [](long long first, long long extent, long long size) {
        return std::clamp<long long>(size - first, 0, extent);
    };
    // The block's rows and columns of P, cut at P's edge: the grid runs over the blocks' tiles
    // of P, its x over the columns (over the rows where Row comes from x).
    const bool x = gridXOverRows(s);
    const long long rowBlock = x ? b.x : b.y, colBlock = x ? b.y : b.x;
    return 2ull * valid(rowBlock * sh.pRows, sh.pRows, s.j) * valid(colBlock * sh.pCols, sh.pCols, s.l) * s.k;
}

double opsPerByte(const Totals& t)
{
    return t.global_loads ? static_cast<double>(t.flops) / (4.0 * t.global_loads) : 0.0;
}

}  // namespace ts::sim
