// Convolution scenarios and trace queries shared by the conv_*_test.cpp unit tests.
#pragma once
#include <cmath>
#include <cstring>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "sim/engine/machine.hpp"
#include "sim/engine/problem.hpp"
#include "sim/engine/simulate.hpp"

namespace ts::test {

/// A 1D convolution scenario: N of `width` elements.
inline sim::Scenario conv1d(const std::string& kernel, int width, int tile, int maskWidth,
                            unsigned bx = 0)
{
    return sim::convScenario(kernel, 1, width, tile, maskWidth, sim::Uint3{bx, 0, 0});
}

/// A 2D convolution scenario: N of height x width.
inline sim::Scenario conv2d(const std::string& kernel, int height, int width, int tile, int maskWidth,
                            sim::Uint3 block = {})
{
    return sim::convScenario(kernel, height, width, tile, maskWidth, block);
}

/// Simulates `s` (traced block s.block), expecting no fault and P equal to the reference.
inline sim::Simulation runConv(const sim::Scenario& s, bool trace = true)
{
    EXPECT_EQ(sim::validate(s), "");
    sim::SimOptions o;
    o.trace = trace;
    sim::Simulation r = sim::simulate(s, o);
    EXPECT_EQ(r.error, "");
    EXPECT_TRUE(r.matchesReference) << s.kernel;
    return r;
}

/// The counters of block `b`.
inline const sim::Totals& blockTotals(const sim::Simulation& r, sim::Uint3 b)
{
    return r.counters.perBlock.at(sim::linearBlock(r.grid, b));
}

/// Runs `s`'s kernel on given inputs N and M (instead of the input seed's random ones) through the
/// same Problem binding simulate() uses, and returns P.
inline std::vector<float> runOnInputs(const sim::Scenario& s, const std::vector<float>& N,
                                      const std::vector<float>& M)
{
    sim::Problem pb = sim::convProblem(s);
    sim::Machine m;
    std::vector<float> P(static_cast<size_t>(pb.P.size()), std::nanf(""));
    sim::GlobalPtr<const float> Mp(M.data(), static_cast<long long>(M.size()), &m,
                                   m.arrayId("M", pb.M.space, pb.M.rows, pb.M.cols));
    sim::GlobalPtr<const float> Np(N.data(), static_cast<long long>(N.size()), &m,
                                   m.arrayId("N", pb.N.space, pb.N.rows, pb.N.cols));
    sim::GlobalPtr<float> Pp(P.data(), static_cast<long long>(P.size()), &m,
                             m.arrayId("P", pb.P.space, pb.P.rows, pb.P.cols));
    sim::LaunchConfig cfg;
    const sim::LaunchShape sh = sim::launchShape(s);
    cfg.grid = sh.grid;
    cfg.block = sh.block;
    sim::runGrid(m, cfg, pb.bind(m, Mp, Np, Pp, M, {}, 0));
    return P;
}

/// Bit-for-bit equality of two float vectors.
inline bool sameBits(const std::vector<float>& a, const std::vector<float>& b)
{
    return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(float)) == 0;
}

/// In the traced block of a 1D tiled kernel: for each N_ds slot, the threads (linear index
/// in the block) that read it in a multiply-add.
inline std::map<int, std::set<int>> sharedReaders(const sim::Simulation& r)
{
    std::map<int, std::set<int>> readers;
    const int nds = r.arrayIndex("N_ds");
    for (const sim::Step& st : r.trace.steps) {
        if (st.kind != sim::StepKind::Use) continue;
        for (int i = st.begin; i < st.end; ++i) {
            const sim::Event& e = r.trace.events[i];
            if (e.op == sim::Op::SharedLoad && e.array == nds) readers[e.index].insert(e.thread);
        }
    }
    return readers;
}

}  // namespace ts::test
