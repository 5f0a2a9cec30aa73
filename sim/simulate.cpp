#include "simulate.hpp"

#include <algorithm>
#include <cstring>

#include "problem.hpp"

namespace ts::sim {

int Simulation::arrayIndex(const std::string& name) const
{
    for (size_t i = 0; i < arrays.size(); ++i)
        if (arrays[i].name == name) return static_cast<int>(i);
    return -1;
}

namespace {

Problem problemFor(const Scenario& s)
{
    switch (familyOf(s)) {
    case Family::Matmul: return matmulProblem(s);
    case Family::Conv1D:
    case Family::Conv2D: return convProblem(s);
    }
    return matmulProblem(s);
}

}  // namespace

Simulation simulate(const Scenario& s, const SimOptions& opt)
{
    Simulation sim;
    sim.scenario = s;
    const LaunchShape shape = launchShape(s);
    sim.grid = shape.grid;
    sim.block = shape.block;
    const KernelInfo* info = findKernel(s.kernel);

    Problem pb = problemFor(s);
    sim.M = std::move(pb.inM);
    sim.N = std::move(pb.inN);
    // Poison P so an element the kernel never writes cannot match the reference.
    sim.P.assign(static_cast<size_t>(pb.P.size()), std::nanf(""));
    sim.reference = std::move(pb.reference);

    Machine m;
    GlobalPtr<const float> M(sim.M.data(), static_cast<long long>(sim.M.size()), &m,
                             m.arrayId(pb.M.name, pb.M.space, pb.M.rows, pb.M.cols));
    GlobalPtr<const float> N(sim.N.data(), static_cast<long long>(sim.N.size()), &m,
                             m.arrayId(pb.N.name, pb.N.space, pb.N.rows, pb.N.cols));
    GlobalPtr<float> P(sim.P.data(), static_cast<long long>(sim.P.size()), &m,
                       m.arrayId(pb.P.name, pb.P.space, pb.P.rows, pb.P.cols));

    LaunchConfig cfg;
    cfg.grid = shape.grid;
    cfg.block = shape.block;
    if (opt.trace) cfg.tracedBlock = s.block;
    cfg.schedule = opt.schedule;
    cfg.scheduleSeed = opt.scheduleSeed;
    m.dropMask = s.dropBarriers;
    m.detectHazards = opt.detectHazards;
    try {
        runGrid(m, cfg, pb.bind(m, M, N, P, sim.M));
    } catch (const KernelFault& f) {
        sim.error = f.what();
    }
    sim.arrays = m.arrays;
    sim.counters = std::move(m.counters);
    sim.hazards = std::move(m.hazards);
    markStaleReads(m.events);
    for (Hazard& h : sim.hazards.traced) {
        m.events.at(h.first.seq).flags |= kHazard;
        if (h.second.seq < m.events.size()) m.events[h.second.seq].flags |= kHazard;
    }
    if (opt.trace)
        sim.trace = buildTrace(s.block, shape.block, sim.arrays, m.events,
                               info ? info->barriersPerPhase : 0);
    sim.matchesReference =
        sim.error.empty() && sim.P.size() == sim.reference.size() &&
        std::memcmp(sim.P.data(), sim.reference.data(), sim.P.size() * sizeof(float)) == 0;
    return sim;
}

uint64_t untiledGlobalLoads(const Scenario& s)
{
    if (familyOf(s) != Family::Matmul) return convUntiledGlobalLoads(s);
    return 2ull * s.j * s.l * s.k;
}

uint64_t untiledGlobalLoads(const Scenario& s, const Uint3& b)
{
    if (familyOf(s) != Family::Matmul) return convUntiledGlobalLoads(s, b);
    const LaunchShape sh = launchShape(s);
    auto valid = [](long long first, long long extent, long long size) {
        return std::clamp<long long>(size - first, 0, extent);
    };
    const long long rows = valid(1ll * b.y * sh.block.y, sh.block.y, s.j);
    const long long cols = valid(1ll * b.x * sh.block.x, sh.block.x, s.l);
    return 2ull * rows * cols * s.k;
}

double opsPerByte(const Totals& t)
{
    return t.global_loads ? static_cast<double>(t.flops) / (4.0 * t.global_loads) : 0.0;
}

}  // namespace ts::sim
