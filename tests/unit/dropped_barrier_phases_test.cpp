// Phase numbers of a trace whose kernel skips a barrier (scenario key drop_barrier, presets
// missing-barrier-after-load and missing-barrier-after-compute, PMPP sec. 5.4). The phase of
// a step is what the Code panel evaluates `ph` with, and what the Matrices panel's tile
// frames and the Timeline's phase marks follow; counted by barriers alone it fell behind
// once one barrier a phase was gone. Each check compares the step's phase with the column
// of M its recorded loads read (column / TILE_WIDTH is the phase, PMPP Fig. 5.9), which
// the simulator records independently of how the steps are grouped.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "kernels/context.cuh"
#include "sim/catalogue/kernel_registry.hpp"
#include "sim/teaching/kernel_view.hpp"
#include "sim/files/scenario_file.hpp"
#include "sim/engine/simulate.hpp"

namespace ts::test {
namespace {

sim::Simulation traced(const sim::Scenario& s)
{
    sim::SimOptions o;
    o.trace = true;
    o.memoryModel = false;
    return sim::simulate(s, o);
}

/// Every step's phase against the columns of M its loads read: a load of column c of M
/// belongs to phase c / K (K columns of M a phase). Also: phases never go back, and the
/// last one is the loop's last.
void expectPhasesFollowLoads(const sim::Simulation& r, int K, const std::string& what)
{
    const int m = r.arrayIndex("M");
    ASSERT_GE(m, 0) << what;
    ASSERT_FALSE(r.trace.steps.empty()) << what;
    const int k = r.scenario.k;
    int loadsChecked = 0, last = 0;
    for (size_t i = 0; i < r.trace.steps.size(); ++i) {
        const sim::Step& st = r.trace.steps[i];
        EXPECT_GE(st.phase, last) << what << ": step " << i << " (" << st.label << ")";
        last = std::max(last, st.phase);
        for (int e = st.begin; e < st.end; ++e) {
            const sim::Event& ev = r.trace.events[e];
            if (ev.op != sim::Op::GlobalLoad || ev.array != m) continue;
            ++loadsChecked;
            ASSERT_EQ(st.phase, ev.index % k / K)
                << what << ": step " << i << " (" << st.label << ") loads column " << ev.index % k << " of M";
        }
    }
    EXPECT_GT(loadsChecked, 0) << what;
    EXPECT_EQ(last, (k - 1) / K) << what;
}

/// The step-7 load of phase 1 in both presets that drop a barrier of matmul-tiled (8x8,
/// TILE_WIDTH 4: two phases). Before the fix both said "phase 0" and ph = 0 there.
TEST(DroppedBarrierPhases, PresetsStepSevenIsPhaseOne)
{
    for (const char* name : {"missing-barrier-after-load", "missing-barrier-after-compute"}) {
        const sim::Preset p = sim::findPreset(name);
        ASSERT_NE(p.scenario.dropBarriers, 0u) << name;
        const sim::Simulation r = traced(p.scenario);
        ASSERT_TRUE(r.error.empty()) << name << ": " << r.error;
        ASSERT_GT(r.trace.steps.size(), 7u) << name;
        const sim::Step& st = r.trace.steps[7];
        EXPECT_EQ(st.phase, 1) << name;
        EXPECT_EQ(st.label, "phase 1: load M tile into Mds") << name;
        // Steps 0 to 6 are phase 0, the rest phase 1; each phase's multiply-adds are
        // iterations 0 to 3 of its own.
        std::vector<std::string> uses;
        for (size_t i = 0; i < r.trace.steps.size(); ++i) {
            const sim::Step& s = r.trace.steps[i];
            EXPECT_EQ(s.phase, i < 7 ? 0 : 1) << name << " step " << i << " (" << s.label << ")";
            if (s.kind == sim::StepKind::Use) uses.push_back(s.label);
        }
        const std::vector<std::string> expected = {
            "phase 0: use, iteration 0", "phase 0: use, iteration 1", "phase 0: use, iteration 2",
            "phase 0: use, iteration 3", "phase 1: use, iteration 0", "phase 1: use, iteration 1",
            "phase 1: use, iteration 2", "phase 1: use, iteration 3"};
        EXPECT_EQ(uses, expected) << name;
        expectPhasesFollowLoads(r, p.scenario.tile, name);
    }
}

/// What the Code panel evaluates at step 7: ph = 1, so ph*TILE_WIDTH + tx of thread (tx=3,
/// ty=0) is 7 and its worked-out index of M equals the one the simulator recorded.
TEST(DroppedBarrierPhases, CodePanelEvaluatesPhOneAtStepSeven)
{
    for (const char* name : {"missing-barrier-after-load", "missing-barrier-after-compute"}) {
        const sim::Preset p = sim::findPreset(name);
        const sim::Simulation r = traced(p.scenario);
        ASSERT_GT(r.trace.steps.size(), 7u) << name;
        const int thread = 3;   // tx = 3, ty = 0 in a 4x4 block
        const sim::Variables v = sim::threadVariables(p.scenario, r.trace, thread, 7);
        ASSERT_TRUE(v.count("ph")) << name;
        EXPECT_EQ(v.at("ph"), 1) << name;
        const std::vector<sim::AccessExplanation> acc = sim::explainAccesses(
            p.scenario, r.trace, thread, 7, sim::kernelSource(sim::findKernel(p.scenario.kernel)->sourceFile));
        int loadsOfM = 0;
        for (const sim::AccessExplanation& a : acc) {
            EXPECT_TRUE(a.agrees()) << name << ": " << a.written << " evaluates to " << a.evaluated
                                    << ", recorded " << a.recorded << " " << a.error;
            if (a.array == "M" && a.op == sim::Op::GlobalLoad) {
                ++loadsOfM;
                EXPECT_EQ(a.recorded, 0 * 8 + 7) << name;   // M[Row*k + ph*TILE_WIDTH + tx], Row 0
            }
        }
        EXPECT_EQ(loadsOfM, 1) << name;
    }
}

/// Every kernel with a barrier that a lesson can drop, at its smallest compiled tile and
/// three phases, each barrier dropped alone and both together: the phases follow the loads.
/// With both gone no barrier is left to count, and the phases come from each thread's own
/// fills of the first tile; the inner loop's iterations then restart at 0 in each phase.
TEST(DroppedBarrierPhases, EveryDroppableKernelAndMask)
{
    int kernels = 0;
    for (const sim::KernelInfo& k : sim::kernelList()) {
        if (k.family != sim::Family::Matmul || k.barriers == 0 || k.barriersPerPhase == 0) continue;
        ++kernels;
        const int T = k.tiles.front();
        const int K = k.tileK > 0 ? k.tileK : T;
        for (unsigned mask : {unsigned(kernels::AFTER_LOAD), unsigned(kernels::AFTER_COMPUTE),
                              unsigned(kernels::AFTER_LOAD | kernels::AFTER_COMPUTE), 0u}) {
            sim::Scenario s = sim::matmulScenario(k.name, T, 3 * K, T * k.blockColsFactor, T);
            s.dropBarriers = mask & k.barriers;
            const std::string what = std::string(k.name) + " tile " + std::to_string(T) + " drop " +
                                     std::to_string(s.dropBarriers);
            const sim::Simulation r = traced(s);
            ASSERT_TRUE(r.error.empty()) << what << ": " << r.error;
            expectPhasesFollowLoads(r, K, what);
            if (mask == (kernels::AFTER_LOAD | kernels::AFTER_COMPUTE) && k.threadCols == 1 && k.threadRows == 1) {
                // PMPP's kernels: TILE_WIDTH iterations a phase, labelled 0 to TILE_WIDTH - 1.
                for (const sim::Step& st : r.trace.steps)
                    if (st.kind == sim::StepKind::Use) {
                        EXPECT_GE(st.iteration, 0) << what << ": " << st.label;
                        EXPECT_LT(st.iteration, T) << what << ": " << st.label;
                    }
                for (const char* label : {"phase 2: load M tile into Mds", "phase 2: use, iteration 0"})
                    EXPECT_TRUE(std::any_of(r.trace.steps.begin(), r.trace.steps.end(), [&](const sim::Step& st) {
                        return st.label == label;
                    })) << what << ": no step " << label;
            }
        }
    }
    EXPECT_GE(kernels, 4);
}

}  // namespace
}  // namespace ts::test
