#include "simulate.hpp"

#include <algorithm>
#include <cstring>

#include "kernels/matmul_naive.cuh"
#include "kernels/matmul_tiled.cuh"
#include "reference.hpp"

namespace ts::sim {

int Simulation::arrayIndex(const std::string& name) const
{
    for (size_t i = 0; i < arrays.size(); ++i)
        if (arrays[i].name == name) return static_cast<int>(i);
    return -1;
}

namespace {

using Body = std::function<void(ThreadContext&)>;

template <int TILE_WIDTH>
Body tiledBody(GlobalPtr<const float> M, GlobalPtr<const float> N, GlobalPtr<float> P,
               int j, int k, int l)
{
    return [=](ThreadContext& x) { kernels::matmulTiled<TILE_WIDTH>(x, M, N, P, j, k, l); };
}

Body matmulBody(const Scenario& s, GlobalPtr<const float> M, GlobalPtr<const float> N,
                GlobalPtr<float> P)
{
    if (s.kernel == "matmul-naive")
        return [=](ThreadContext& x) { kernels::matmulNaive(x, M, N, P, s.j, s.k, s.l); };
    switch (s.tile) {
    case 2: return tiledBody<2>(M, N, P, s.j, s.k, s.l);
    case 4: return tiledBody<4>(M, N, P, s.j, s.k, s.l);
    case 8: return tiledBody<8>(M, N, P, s.j, s.k, s.l);
    case 16: return tiledBody<16>(M, N, P, s.j, s.k, s.l);
    case 32: return tiledBody<32>(M, N, P, s.j, s.k, s.l);
    }
    return {};
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

    sim.M = randomInput(static_cast<size_t>(s.j) * s.k, s.seed, 1);
    sim.N = randomInput(static_cast<size_t>(s.k) * s.l, s.seed, 2);
    // Poison P so an element the kernel never writes cannot match the reference.
    sim.P.assign(static_cast<size_t>(s.j) * s.l, std::nanf(""));

    Machine m;
    GlobalPtr<const float> M(sim.M.data(), static_cast<long long>(sim.M.size()), &m,
                             m.arrayId("M", Space::Global, s.j, s.k));
    GlobalPtr<const float> N(sim.N.data(), static_cast<long long>(sim.N.size()), &m,
                             m.arrayId("N", Space::Global, s.k, s.l));
    GlobalPtr<float> P(sim.P.data(), static_cast<long long>(sim.P.size()), &m,
                       m.arrayId("P", Space::Global, s.j, s.l));

    LaunchConfig cfg;
    cfg.grid = shape.grid;
    cfg.block = shape.block;
    if (opt.trace) cfg.tracedBlock = s.block;
    cfg.schedule = opt.schedule;
    cfg.scheduleSeed = opt.scheduleSeed;
    try {
        runGrid(m, cfg, matmulBody(s, M, N, P));
    } catch (const KernelFault& f) {
        sim.error = f.what();
    }
    sim.arrays = m.arrays;
    sim.counters = std::move(m.counters);
    if (opt.trace)
        sim.trace = buildTrace(s.block, shape.block, sim.arrays, m.events,
                               info ? info->barriersPerPhase : 0);
    sim.reference = matmulReferenceFma(sim.M, sim.N, s.j, s.k, s.l);
    sim.matchesReference =
        sim.error.empty() && sim.P.size() == sim.reference.size() &&
        std::memcmp(sim.P.data(), sim.reference.data(), sim.P.size() * sizeof(float)) == 0;
    return sim;
}

uint64_t untiledGlobalLoads(const Scenario& s)
{
    return 2ull * s.j * s.l * s.k;
}

uint64_t untiledGlobalLoads(const Scenario& s, const Uint3& b)
{
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
