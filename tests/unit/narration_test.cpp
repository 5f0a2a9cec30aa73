// Narration (sim/teaching/narration.hpp, sim/teaching/narration_anchor.hpp): every step of every preset has a
// line; a hand-written [[narrate]] line lands on the step of its event; the generated lines
// say the elements, threads and zero fills that index arithmetic gives for the step; an
// anchor that lands nowhere is said, never dropped.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <vector>

#include "kernels/context.cuh"
#include "sim/teaching/narration.hpp"
#include "sim/files/scenario_file.hpp"
#include "sim/engine/simulate.hpp"

namespace ts::test {
namespace {

sim::Simulation run(const sim::Preset& p)
{
    return sim::simulate(p.scenario, {true, p.schedule, p.scheduleSeed});
}

/// The index of the first step labelled `label`; fails the test if there is none.
int stepLabelled(const sim::Trace& t, const std::string& label)
{
    for (size_t i = 0; i < t.steps.size(); ++i)
        if (t.steps[i].label == label) return static_cast<int>(i);
    ADD_FAILURE() << "no step labelled '" << label << "'";
    return 0;
}

std::string range(int a, int b)
{
    return a == b ? std::to_string(a) : std::to_string(a) + ".." + std::to_string(b);
}

bool contains(const std::string& text, const std::string& part)
{
    return text.find(part) != std::string::npos;
}

TEST(Narration, EveryStepOfEveryPresetHasALine)
{
    const std::vector<sim::Preset> presets = sim::listPresets();
    ASSERT_EQ(presets.size(), 49u);
    size_t steps = 0, handWritten = 0, anchors = 0;
    for (const sim::Preset& p : presets) {
        SCOPED_TRACE(p.name);
        const sim::Simulation s = run(p);
        ASSERT_FALSE(s.trace.steps.empty());
        std::vector<std::string> problems;
        const std::vector<sim::StepNarration> lines = sim::narrateSteps(p, s, &problems);
        EXPECT_EQ(problems, std::vector<std::string>{});
        ASSERT_EQ(lines.size(), s.trace.steps.size());
        for (size_t i = 0; i < lines.size(); ++i) {
            EXPECT_GE(lines[i].text.size(), 20u) << "step " << i << ": '" << lines[i].text << "'";
            EXPECT_EQ(lines[i].text.find('\n'), std::string::npos) << "step " << i;
            handWritten += lines[i].handWritten;
            // Every generated line is a sentence of its own.
            if (!lines[i].handWritten) EXPECT_EQ(lines[i].text.back(), '.') << "step " << i << ": " << lines[i].text;
        }
        steps += lines.size();
        anchors += p.narrate.size() + p.narration.size();
        // The middle step, where 9 of 20 presets said nothing before.
        EXPECT_FALSE(lines[lines.size() / 2].text.empty());
    }
    // Every hand-written line of the files is shown, each on its own step.
    EXPECT_EQ(handWritten, anchors);
    EXPECT_GT(steps, handWritten) << "some steps are generated";
}

// Each [[narrate]] line lands on a step of the kind, phase and iteration it names; and the
// lines about the stores of P land on the store of P, whatever its step number.
TEST(Narration, AnchoredLinesLandOnTheirEvent)
{
    for (const sim::Preset& p : sim::listPresets()) {
        SCOPED_TRACE(p.name);
        const sim::Simulation s = run(p);
        const sim::PlacedNarration placed = sim::placeNarration(p, s.trace);
        for (const sim::NarrationAnchor& a : p.narrate) {
            const int step = sim::resolveAnchor(a, s.trace);
            ASSERT_GE(step, 0) << sim::describeAnchor(a);
            const sim::Step& st = s.trace.steps[step];
            EXPECT_EQ(st.kind, a.kind) << sim::describeAnchor(a);
            if (a.phase) EXPECT_EQ(st.phase, *a.phase);
            if (a.iteration) EXPECT_EQ(st.iteration, *a.iteration);
            EXPECT_EQ(placed.lines[step], a.text);
        }
    }
    // The coalescing presets' lines about the stores: at the store of P, the last of 65
    // steps (64 multiply-adds, one per k), not at step 2 as the step-numbered form had it.
    for (const char* name : {"coalescing-naive-64", "coalescing-uncoalesced-64"}) {
        SCOPED_TRACE(name);
        const sim::Preset p = sim::findPreset(name);
        const sim::Simulation s = run(p);
        const sim::PlacedNarration placed = sim::placeNarration(p, s.trace);
        ASSERT_EQ(s.trace.steps.size(), static_cast<size_t>(p.scenario.k + 1));
        EXPECT_EQ(s.trace.steps.back().kind, sim::StepKind::Store);
        EXPECT_TRUE(contains(placed.lines.back(), "writes") || contains(placed.lines.back(), "stores"))
            << placed.lines.back();
        EXPECT_EQ(placed.lines[2], "") << "step 2 is a multiply-add and gets a generated line";
    }
    // tiled-4x4: the barrier of phase 1 after the load is step 8 (load M, load N, barrier,
    // two iterations, barrier in phase 0 make 6 steps; then load M, load N).
    const sim::Preset t = sim::findPreset("tiled-4x4");
    const sim::Simulation s = run(t);
    sim::NarrationAnchor a;
    ASSERT_EQ(sim::parseAnchorAt("barrier", a), "");
    a.phase = 1;
    EXPECT_EQ(sim::resolveAnchor(a, s.trace), 6 + 2);
    a.nth = 2;   // the loop's last barrier: after the two iterations of phase 1
    EXPECT_EQ(sim::resolveAnchor(a, s.trace), 6 + 2 + 1 + 2);
}

// Generated lines on steps whose figures follow from the tile arithmetic of PMPP ch. 5 and 7.
TEST(Narration, GeneratedLinesSayTheElementsTheStepTouches)
{
    {
        // tiled-4x4, block (0,0), TILE_WIDTH 2, phase 1: rows by*T .. by*T + T-1 of M,
        // columns ph*T .. ph*T + T-1.
        const sim::Preset p = sim::findPreset("tiled-4x4");
        const sim::Simulation s = run(p);
        const int T = p.scenario.tile, ph = 1, by = static_cast<int>(p.scenario.block.y);
        const std::string line = sim::generatedNarration(s, stepLabelled(s.trace, "phase 1: load M tile into Mds"));
        const std::string m = "M[" + range(by * T, by * T + T - 1) + "][" + range(ph * T, ph * T + T - 1) + "]";
        EXPECT_EQ(m, "M[0..1][2..3]");
        EXPECT_TRUE(contains(line, "Phase 1 of " + std::to_string(p.scenario.k / T) + ": the " + std::to_string(T * T) +
                                       " threads of block (0, 0) load " + m + " into Mds[0..1][0..1]"))
            << line;
        // Each Mds value is read by the T threads of its row, once each.
        EXPECT_TRUE(contains(line, "each value is then read twice from Mds")) << line;
        const std::string use = sim::generatedNarration(s, stepLabelled(s.trace, "phase 1: use, iteration 1"));
        EXPECT_EQ(use, "Iteration 1 of phase 1: each thread adds Mds[ty][1] * Nds[1][tx] to its Pvalue; each Mds and Nds "
                       "value serves " + std::to_string(T) + " threads.");
        const std::string store = sim::generatedNarration(s, static_cast<int>(s.trace.steps.size()) - 1);
        // 2 loads a phase per thread, k / T phases, T*T threads.
        const int loads = 2 * (p.scenario.k / T) * T * T;
        EXPECT_EQ(store, "The 4 threads of block (0, 0) store their Pvalue to P[0..1][0..1]. In all, block (0, 0) read " +
                             std::to_string(loads) + " elements from global memory.");
    }
    {
        // boundary-3x3, block (0,0), phase 1: columns 2..3 of M, of which only column 2 < 3
        // exists: T threads load it, T*T - T write 0.
        const sim::Preset p = sim::findPreset("boundary-3x3");
        const sim::Simulation s = run(p);
        const int T = p.scenario.tile, width = p.scenario.k;
        const int validCols = width - 1 * T;   // columns ph*T .. width-1
        const int loaders = T * validCols, zeros = T * T - loaders;
        const std::string line = sim::generatedNarration(s, stepLabelled(s.trace, "phase 1: load M tile into Mds"));
        EXPECT_TRUE(contains(line, "fill Mds[0..1][0..1]: " + std::to_string(loaders) + " load M[0..1][2], and " +
                                       std::to_string(zeros) + " would load past the edge of M and write 0 instead"))
            << line;
        // Block (1,1) of the same problem has one element of P, P[2][2]: one thread stores.
        const sim::Preset q = sim::findPreset("boundary-3x3-block11");
        const sim::Simulation r = run(q);
        const std::string store = sim::generatedNarration(r, static_cast<int>(r.trace.steps.size()) - 1);
        EXPECT_TRUE(contains(store, "Thread (tx=0, ty=0) stores its Pvalue to P[2][2]; the other " +
                                        std::to_string(T * T - 1) + " store nothing"))
            << store;
    }
    {
        // conv1d-tiled, block 1, TILE_SIZE 8, Mask_Width 5: n = 2 halo elements a side. The
        // last n threads load the left halo N[bx*T - n .. bx*T - 1] into N_ds[0 .. n-1]; the
        // first n the right halo N[(bx+1)*T .. (bx+1)*T + n-1] into N_ds[n+T .. 2n+T-1].
        const sim::Preset p = sim::findPreset("conv1d-tiled-tile8-mask5");
        const sim::Simulation s = run(p);
        const int T = p.scenario.tile, n = p.scenario.maskWidth / 2, bx = static_cast<int>(p.scenario.block.x);
        const std::string left = sim::generatedNarration(s, 0), right = sim::generatedNarration(s, 2);
        EXPECT_TRUE(contains(left, "Threads " + std::to_string(T - n) + " and " + std::to_string(T - 1) + " load N[" +
                                       range(bx * T - n, bx * T - 1) + "] into N_ds[" + range(0, n - 1) + "]"))
            << left;
        EXPECT_TRUE(contains(right, "Threads 0 and " + std::to_string(n - 1) + " load N[" +
                                        range((bx + 1) * T, (bx + 1) * T + n - 1) + "] into N_ds[" +
                                        range(n + T, 2 * n + T - 1) + "]"))
            << right;
        // Iteration j: thread tx reads N_ds[tx + j] and the mask element M[j], the same for all.
        const std::string use = sim::generatedNarration(s, stepLabelled(s.trace, "use, iteration 3"));
        EXPECT_EQ(use, "Iteration 3: each thread adds N_ds[tx + 3] * M[3] to its Pvalue; all " + std::to_string(T) +
                           " read the same M[3], one broadcast from the constant cache.");
        // Block 0: the left halo N[-2..-1] are ghost cells, written as 0 by the same threads.
        const sim::Preset g = sim::findPreset("conv1d-tiled-ghost-block0");
        const sim::Simulation gs = run(g);
        const std::string ghost = sim::generatedNarration(gs, 0);
        EXPECT_TRUE(contains(ghost, "Threads " + std::to_string(T - n) + " and " + std::to_string(T - 1) +
                                        " write 0 into N_ds[" + range(0, n - 1) + "]: the input elements they stand "
                                        "for are ghost cells"))
            << ghost;
    }
    {
        // conv2d-tiled, 8x8 outputs, 5x5 mask: a 12x12 input tile, 144 threads, of which the
        // 64 with tx, ty < 8 compute; iteration (i, j) reads N_ds[ty + i][tx + j].
        const sim::Preset p = sim::findPreset("conv2d-tiled-tile8-mask5");
        const sim::Simulation s = run(p);
        const int T = p.scenario.tile, in = T + p.scenario.maskWidth - 1;
        const std::string load = sim::generatedNarration(s, 0);
        const int r0 = static_cast<int>(p.scenario.block.y) * T - p.scenario.maskWidth / 2;
        EXPECT_TRUE(contains(load, "The " + std::to_string(in * in) + " threads of block (1, 1) load N[" +
                                       range(r0, r0 + in - 1) + "][" + range(r0, r0 + in - 1) + "] into N_ds[0.." +
                                       std::to_string(in - 1) + "][0.." + std::to_string(in - 1) + "]"))
            << load;
        const std::string use = sim::generatedNarration(s, stepLabelled(s.trace, "use, iteration (1, 2)"));
        EXPECT_TRUE(contains(use, "Iteration (1, 2): each of the " + std::to_string(T * T) +
                                      " threads with an output element adds Mc[1][2] * N_ds[ty + 1][tx + 2]"))
            << use;
    }
    {
        // A dropped barrier: the reads that got a value too early are counted.
        const sim::Preset p = sim::findPreset("missing-barrier-after-load");
        const sim::Simulation s = run(p);
        const int step = stepLabelled(s.trace, "phase 0: use, iteration 1");
        int stale = 0;
        for (int i = s.trace.steps[step].begin; i < s.trace.steps[step].end; ++i)
            stale += (s.trace.events[i].flags & sim::kStale) != 0;
        ASSERT_GT(stale, 0);
        EXPECT_TRUE(contains(sim::generatedNarration(s, step),
                             std::to_string(stale) + " of its reads get a stale value, because the kernel skips the "
                                                     "barrier after the load"));
    }
}

// An anchor that lands on no step, or on a step another line has, is said in one sentence
// with the file and the line; the first line keeps the step.
TEST(Narration, LinesThatLandNowhereAreSaid)
{
    const std::string text = "kernel = \"matmul-tiled\"\nwidth = 4\ntile = 2\n"   // lines 1-3
                             "\n[[narrate]]\nat = \"store Q\"\ntext = \"never\"\n"   // line 5
                             "\n[[narrate]]\nat = \"barrier\"\nphase = 1\nnth = 3\ntext = \"too many\"\n"   // line 9
                             "\n[[narrate]]\nat = \"use\"\niteration = 1\nphase = 0\ntext = \"first\"\n"   // line 15
                             "\n[[narrate]]\nat = \"use Mds\"\niteration = 1\ntext = \"second\"\n";   // line 21
    const sim::Preset p = sim::parseScenarioText(text, "f.toml");
    ASSERT_EQ(p.narrate.size(), 4u);
    EXPECT_EQ(p.narrate[0].line, 5);
    const sim::Simulation s = run(p);
    const sim::PlacedNarration placed = sim::placeNarration(p, s.trace);
    ASSERT_EQ(placed.problems.size(), 3u);
    EXPECT_EQ(placed.problems[0], "f.toml, line 5: the [[narrate]] line is never shown: no step of the trace matches "
                                  "at = \"store Q\" (tilescope-cli narrate lists the steps).");
    EXPECT_EQ(placed.problems[1], "f.toml, line 9: the [[narrate]] line is never shown: at = \"barrier\", phase = 1, "
                                  "nth = 3 asks for match 3 but only 2 steps match.");
    EXPECT_EQ(placed.problems[2], "f.toml, line 21: the [[narrate]] line with at = \"use Mds\", iteration = 1 lands on "
                                  "step 4, which the table at line 15 already narrates; give nth, phase or iteration "
                                  "to tell them apart.");
    EXPECT_EQ(placed.lines[4], "first");
    // The simple form: more lines than steps.
    sim::Preset q = p;
    q.narrate.clear();
    q.narration.assign(s.trace.steps.size() + 2, "a line");
    ASSERT_EQ(sim::placeNarration(q, s.trace).problems.size(), 1u);
    EXPECT_EQ(sim::placeNarration(q, s.trace).problems[0],
              "f.toml: narration has 15 lines but the trace has 13 steps; lines 14 to 15 are never shown.");
}

TEST(Narration, MalformedNarrateTablesAreErrors)
{
    const std::string good = "kernel = \"matmul-tiled\"\nwidth = 4\ntile = 2\n";
    auto errorOf = [](const std::string& text) -> std::string {
        try {
            sim::parseScenarioText(text, "f.toml");
        } catch (const sim::ScenarioFileError& e) {
            return e.what();
        }
        return "";
    };
    EXPECT_EQ(errorOf(good + "[[narrate]]\nat = \"jump\"\ntext = \"x\"\n"),
              "f.toml, line 5: at must start with a step kind (load, use, barrier, store, other); got \"jump\".");
    EXPECT_EQ(errorOf(good + "[[narrate]]\nat = \"store\"\n"),
              "f.toml, line 4: a [[narrate]] table needs text = \"...\", the line to show.");
    EXPECT_EQ(errorOf(good + "[[narrate]]\nat = \"store\"\ntext = \"x\"\nnth = 0\n"),
              "f.toml, line 7: nth must be between 1 and 2147483647; got 0.");
    EXPECT_EQ(errorOf(good + "[[narrate]]\nat = \"store\"\ntext = \"x\"\nstep = 3\n"),
              "f.toml, line 7: unknown key 'step' in a [[narrate]] table; the known keys are at, text, phase, "
              "iteration, nth.");
    EXPECT_EQ(errorOf(good + "narration = [\"a\"]\n[[narrate]]\nat = \"store\"\ntext = \"x\"\n"),
              "f.toml, line 5: give either narration = [...] (one line per step) or [[narrate]] tables, not both.");
    EXPECT_EQ(errorOf(good + "[[narrate]]\nat = \"store P\"\ntext = \"x\"\n"), "");
}

TEST(Narration, NarrateTablesRoundTrip)
{
    sim::Preset p = sim::parseScenarioText("kernel = \"matmul-tiled\"\nwidth = 4\ntile = 2\n"
                                           "[[narrate]]\nat = \"load M\"\nphase = 1\ntext = \"M's \\\"next\\\" tile\"\n"
                                           "[[narrate]]\nat = \"use\"\nphase = 0\niteration = 1\nnth = 1\ntext = \"k = 1\"\n"
                                           "[[narrate]]\nat = \"barrier\"\nnth = 2\ntext = \"second barrier\"\n",
                                           "f.toml");
    p.name = "rt";
    p.title = "round trip";
    const std::string path = (std::filesystem::temp_directory_path() / "tilescope_narrate_roundtrip.toml").string();
    sim::saveScenarioFile(p, path);
    const sim::Preset q = sim::loadScenarioFile(path);
    std::filesystem::remove(path);
    ASSERT_EQ(q.narrate.size(), 3u);
    for (size_t i = 0; i < 3; ++i) {
        EXPECT_EQ(sim::describeAnchor(q.narrate[i]), sim::describeAnchor(p.narrate[i]));
        EXPECT_EQ(q.narrate[i].text, p.narrate[i].text);
    }
    EXPECT_EQ(q.narrate[0].text, "M's \"next\" tile");
    const sim::Simulation s = run(q);
    const sim::PlacedNarration placed = sim::placeNarration(q, s.trace);
    EXPECT_EQ(placed.problems, std::vector<std::string>{});
    EXPECT_EQ(placed.lines[6], "M's \"next\" tile");
    EXPECT_EQ(placed.lines[4], "k = 1");
    EXPECT_EQ(placed.lines[5], "second barrier");
}

}  // namespace
}  // namespace ts::test
