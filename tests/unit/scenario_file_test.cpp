// Scenario files and lecture presets: every preset loads, validates and fits its trace;
// every malformed file is refused with its file name and line; save and load round-trip.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <unistd.h>

#include "fuzz/panel_names.hpp"
#include "kernels/context.cuh"
#include "sim/teaching/narration.hpp"
#include "sim/files/scenario_file.hpp"
#include "trace_query.hpp"

namespace ts::test {
namespace {
namespace fs = std::filesystem;

/// The panel names the app passes (its panel table, in View-menu order; fuzz/panel_names.hpp).
const sim::PanelNames& kAppPanels = ts::fuzz::kAppPanelNames;

/// A scratch folder for one test, removed afterwards.
class ScenarioFiles : public ::testing::Test {
protected:
    fs::path dir;
    void SetUp() override
    {
        dir = fs::temp_directory_path() /
              ("tilescope-test-" + std::to_string(::getpid()) + "-" +
               ::testing::UnitTest::GetInstance()->current_test_info()->name());
        fs::create_directories(dir);
    }
    void TearDown() override { fs::remove_all(dir); }

    std::string write(const std::string& name, const std::string& text)
    {
        const std::string path = (dir / name).string();
        std::ofstream(path) << text;
        return path;
    }
    /// The message loading `text` throws ("" if it loads), with the app's panel names.
    std::string errorOf(const std::string& text)
    {
        const std::string path = write("bad.toml", text);
        try {
            sim::loadScenarioFile(path, kAppPanels);
        } catch (const sim::ScenarioFileError& e) {
            const std::string m = e.what();
            EXPECT_EQ(m.rfind(path, 0), 0u) << "starts with the file name: " << m;
            EXPECT_EQ(m.find('\n'), std::string::npos) << m;
            EXPECT_EQ(m.back(), '.') << m;
            return m.substr(path.size());
        }
        return "";
    }
};

const std::string kGood = "kernel = \"matmul-tiled\"\nwidth = 4\ntile = 2\n";

TEST(Presets, EveryPresetLoadsValidatesAndFitsItsTrace)
{
    const std::vector<sim::Preset> presets = sim::listPresets();
    ASSERT_GE(presets.size(), 4u);
    for (const sim::Preset& p : presets) {
        SCOPED_TRACE(p.file);
        EXPECT_EQ(sim::validate(p.scenario), "");
        EXPECT_FALSE(p.title.empty());
        EXPECT_EQ(fs::path(p.file).stem().string(), p.name);
        const sim::Simulation r = sim::simulate(p.scenario, {true, p.schedule, p.scheduleSeed});
        EXPECT_EQ(r.error, "");
        // A preset that drops a barrier is there to show a wrong result; one of arbitrary
        // floats summed with atomics differs from the index-order sum in its last bits only.
        // A dropped fence (PMPP sec. 11.7) leaves the simulator's result right (its blocks run
        // one at a time) and is reported as a hand-over instead.
        if (p.scenario.dropBarriers == kernels::FENCE) {
            EXPECT_TRUE(sim::outputCorrect(r));
            EXPECT_FALSE(r.orderSites.empty());
        } else {
            EXPECT_EQ(sim::outputCorrect(r), p.scenario.dropBarriers == 0);
        }
        const int steps = static_cast<int>(r.trace.steps.size());
        EXPECT_LT(p.step, steps) << "the starting step exists";
        // Every hand-written line lands on a step of the trace (sim/teaching/narration.hpp).
        EXPECT_FALSE(p.narration.empty() && p.narrate.empty());
        EXPECT_EQ(sim::placeNarration(p, r.trace).problems, std::vector<std::string>{});
    }
}

// Every lecture preset names the panels that carry its lesson (the app gives them room first).
TEST(Presets, EveryPresetNamesItsLesson)
{
    for (const sim::Preset& p : sim::listPresets(kAppPanels)) {
        EXPECT_FALSE(p.lesson.empty()) << p.name;
        for (const std::string& name : p.lesson)
            if (!p.panels.empty())
                EXPECT_NE(std::find(p.panels.begin(), p.panels.end(), name), p.panels.end()) << p.name << ": " << name;
    }
}

TEST(Presets, TheLectureExamplesArePresets)
{
    const sim::Preset def = sim::defaultPreset();
    EXPECT_EQ(def.name, "tiled-4x4");
    EXPECT_EQ(def.scenario.kernel, "matmul-tiled");
    EXPECT_EQ(def.scenario.j * def.scenario.k * def.scenario.l, 64);
    EXPECT_EQ(def.scenario.tile, 2);
    // The built-in fallback (used without the assets folder) is the same problem.
    const sim::Scenario builtIn;
    EXPECT_EQ(std::tie(def.scenario.kernel, def.scenario.j, def.scenario.k, def.scenario.l, def.scenario.tile,
                       def.scenario.seed, def.scenario.block.x, def.scenario.block.y),
              std::tie(builtIn.kernel, builtIn.j, builtIn.k, builtIn.l, builtIn.tile, builtIn.seed,
                       builtIn.block.x, builtIn.block.y));

    const sim::Preset b = sim::findPreset("boundary-3x3");
    EXPECT_EQ(b.scenario.kernel, "matmul-tiled");
    EXPECT_EQ(b.scenario.j, 3);
    EXPECT_EQ(b.scenario.k, 3);
    EXPECT_EQ(b.scenario.l, 3);
    EXPECT_EQ(b.scenario.tile, 2);
    const sim::Preset b11 = sim::findPreset("boundary-3x3-block11");
    EXPECT_EQ(b11.scenario.block.x, 1u);
    EXPECT_EQ(b11.scenario.block.y, 1u);
    EXPECT_EQ(sim::findPreset("naive-4x4").scenario.kernel, "matmul-naive");
}

TEST(Presets, UnknownNameListsThePresets)
{
    try {
        sim::findPreset("tiled-5x5");
        FAIL() << "no such preset";
    } catch (const sim::ScenarioFileError& e) {
        const std::string m = e.what();
        EXPECT_NE(m.find("'tiled-5x5'"), std::string::npos) << m;
        EXPECT_NE(m.find("tiled-4x4"), std::string::npos) << m;
        EXPECT_NE(m.find("boundary-3x3"), std::string::npos) << m;
    }
}

TEST_F(ScenarioFiles, AssetsFolderFromTheEnvironment)
{
    fs::create_directories(dir / "scenarios");
    write("scenarios/mine.toml", kGood + "title = \"Mine\"\n");
    const char* old = std::getenv("TILESCOPE_ASSETS");
    const std::string saved = old ? old : "";
    ::setenv("TILESCOPE_ASSETS", dir.c_str(), 1);
    const std::vector<sim::Preset> presets = sim::listPresets();
    const sim::Preset def = sim::defaultPreset();  // no tiled-4x4.toml there: the built-in one
    old ? ::setenv("TILESCOPE_ASSETS", saved.c_str(), 1) : ::unsetenv("TILESCOPE_ASSETS");
    ASSERT_EQ(presets.size(), 1u);
    EXPECT_EQ(presets[0].name, "mine");
    EXPECT_EQ(presets[0].title, "Mine");
    EXPECT_EQ(def.file, "");
    EXPECT_EQ(def.scenario.tile, 2);
}

TEST_F(ScenarioFiles, ReadsEveryKey)
{
    const sim::Preset p = sim::loadScenarioFile(write("full.toml", R"(
title = "Rectangular"
kernel = "matmul-tiled"
j = 3
k = 5
l = 4
tile = 2
seed = 42
block = [1, 1]
step = "last"
narration = ["one", "two"]
)"));
    EXPECT_EQ(p.name, "full");
    EXPECT_EQ(p.title, "Rectangular");
    EXPECT_EQ(p.scenario.j, 3);
    EXPECT_EQ(p.scenario.k, 5);
    EXPECT_EQ(p.scenario.l, 4);
    EXPECT_EQ(p.scenario.seed, 42u);
    EXPECT_EQ(p.scenario.block.x, 1u);
    EXPECT_EQ(p.scenario.block.y, 1u);
    EXPECT_EQ(p.step, -1);
    EXPECT_EQ(p.narration, (std::vector<std::string>{"one", "two"}));
    // Defaults: title from the file name, seed 1, block (0,0), step 0.
    const sim::Preset d = sim::loadScenarioFile(write("plain.toml", kGood));
    EXPECT_EQ(d.title, "plain");
    EXPECT_EQ(d.scenario.seed, 1u);
    EXPECT_EQ(d.step, 0);
}

// A kernel whose compiled tiles do not include the scenario's initial tile (2): the ladder's
// register-tiled rungs start at 64. Failed before the kernel key set a tile of its own
// ("line 2: TILE_WIDTH must be one of 64, 128 ...; got 2").
TEST_F(ScenarioFiles, LadderRungWithItsOwnTile)
{
    const sim::Preset p = sim::loadScenarioFile(write("rung.toml", R"(
kernel = "matmul-double-buffered"
width = 130
tile = 64
)"));
    EXPECT_EQ(p.scenario.kernel, "matmul-double-buffered");
    EXPECT_EQ(p.scenario.tile, 64);
    EXPECT_EQ(errorOf("kernel = \"matmul-regtile-2d\"\nwidth = 130\ntile = 16\n"),
              ", line 3: TILE_WIDTH must be one of 64, 128 (the compiled template instances); got 16.");
}

TEST_F(ScenarioFiles, ErrorsNameTheLine)
{
    EXPECT_EQ(errorOf("kernel = \"matmul-tiled\"\nwidth = 4\ntile = 3\n"),
              ", line 3: TILE_WIDTH must be one of 2, 4, 8, 16, 32 (the compiled template "
              "instances); got 3.");
    EXPECT_EQ(errorOf("kernel = \"matmul-tiled\"\n\nwidth = 0\ntile = 2\n"),
              ", line 3: width must be between 1 and 8192; got 0.");
    EXPECT_EQ(errorOf(kGood + "block = [2, 0]\n"),
              ", line 4: Block (2, 0) is outside the grid of 2 x 2 blocks.");
    EXPECT_EQ(errorOf(kGood + "block = [1]\n"), ", line 4: block must be [bx, by] or [bx, by, bz], two or three block indices; got an array of 1 value.");
    EXPECT_EQ(errorOf(kGood + "thread = [2, 0]\n"), ", line 4: thread [2, 0] is outside the block of 2 x 2 threads.");
    EXPECT_EQ(errorOf(kGood + "thread = 1\n"), ", line 4: thread must be [tx, ty] or [tx, ty, tz], a thread index in the block; got the integer 1.");
    EXPECT_EQ(errorOf(kGood + "panels = [\"matrices\",\n  \"heatmap\"]\n"),
              ", line 5: 'heatmap' is not a panel; the panels are scenario, stats, gpu, matrices, timeline, code, "
              "shared-memory, threads, hazards, occupancy, convolution, reduction-tables, memory, ladder, "
              "roofline, tree, histogram, scan, practice.");
    EXPECT_EQ(errorOf(kGood + "panels = \"code\"\n"), ", line 4: panels must be an array of panel names; got the string \"code\".");
    // Without a list of panel names (a caller that shows no panels) any name is kept.
    EXPECT_EQ(sim::loadScenarioFile(write("any.toml", kGood + "panels = [\"memory\"]\n")).panels,
              std::vector<std::string>{"memory"});
    const std::string typo = errorOf(kGood + "tiel = 2\n");
    EXPECT_EQ(typo.rfind(", line 4: unknown key 'tiel'; the known keys are title, kernel, width, j, k, l, tile,", 0),
              0u) << typo;
    EXPECT_NE(errorOf(kGood + "[view]\nzoom = 2\n").find("line 4: unknown key 'view'"), std::string::npos);
    EXPECT_EQ(errorOf(kGood + "step = \"first\"\n"),
              ", line 4: step must be a step number or \"last\"; got \"first\".");
    EXPECT_EQ(errorOf(kGood + "step = -1\n"), ", line 4: step must be between 0 and 2147483647; got -1.");
    EXPECT_EQ(errorOf(kGood + "narration = [\"a\",\n  7]\n"),
              ", line 5: each narration line must be a string in quotes; got the integer 7.");
    EXPECT_EQ(errorOf("title = 5\n" + kGood), ", line 1: title must be a string in quotes; got the integer 5.");
    EXPECT_EQ(errorOf(kGood + "seed = 1.5\n"), ", line 4: seed must be an integer; got the floating-point number 1.5.");
    const std::string unknown = errorOf("kernel = \"matmul-shared\"\nwidth = 4\ntile = 2\n");
    EXPECT_EQ(unknown.rfind(", line 1: Unknown kernel 'matmul-shared'", 0), 0u) << unknown;
    EXPECT_EQ(errorOf("kernel = \"matmul-tiled\"\nwidth = 4\nj = 4\ntile = 2\n"),
              ", line 2: give either width or j, k and l, not both.");
    EXPECT_EQ(errorOf("kernel = \"matmul-naive\"\nj = 4\nk = 4\nl = 4\ntile = 33\n"),
              ", line 5: The block edge (--tile) must be between 1 and 32, so that a block has at "
              "most 1024 threads; got 33.");
}

// lesson: the panels that carry a preset's lesson, read in order, refused at the line of a
// bad name or of a name that `panels` does not show, and written back.
TEST_F(ScenarioFiles, LessonPanels)
{
    const sim::Preset p = sim::loadScenarioFile(
        write("lesson.toml", kGood + "panels = [\"matrices\", \"code\", \"memory\"]\nlesson = [\"memory\", \"code\"]\n"),
        kAppPanels);
    EXPECT_EQ(p.lesson, (std::vector<std::string>{"memory", "code"}));
    // Without panels any of the app's panels may carry the lesson.
    EXPECT_EQ(sim::loadScenarioFile(write("alone.toml", kGood + "lesson = [\"shared-memory\"]\n"), kAppPanels).lesson,
              std::vector<std::string>{"shared-memory"});
    EXPECT_TRUE(sim::loadScenarioFile(write("none.toml", kGood), kAppPanels).lesson.empty());

    EXPECT_EQ(errorOf(kGood + "lesson = [\"code\",\n  \"bank-diagram\"]\n"),
              ", line 5: 'bank-diagram' is not a panel; the panels are scenario, stats, gpu, matrices, timeline, code, "
              "shared-memory, threads, hazards, occupancy, convolution, reduction-tables, memory, ladder, "
              "roofline, tree, histogram, scan, practice.");
    EXPECT_EQ(errorOf(kGood + "lesson = \"memory\"\n"),
              ", line 4: lesson must be an array of panel names; got the string \"memory\".");
    EXPECT_EQ(errorOf(kGood + "lesson = [3]\n"),
              ", line 4: each lesson panel name must be a string in quotes; got the integer 3.");
    EXPECT_EQ(errorOf(kGood + "lesson = []\n"),
              ", line 4: lesson must name at least one panel, the one that carries the lesson first; or leave "
              "lesson out for the picture of the kernel's family.");
    EXPECT_EQ(errorOf(kGood + "panels = [\"matrices\", \"code\"]\nlesson = [\"code\",\n  \"memory\"]\n"),
              ", line 6: lesson names 'memory', which panels does not show; add it to panels or take it out of "
              "lesson.");

    // Written back in its order, and read again.
    sim::Preset q = p;
    q.lesson = {"code", "matrices"};
    const std::string path = (dir / "again.toml").string();
    sim::saveScenarioFile(q, path);
    EXPECT_EQ(sim::loadScenarioFile(path, kAppPanels).lesson, q.lesson);
}

TEST_F(ScenarioFiles, SyntaxErrorsNameTheLine)
{
    const std::string e = errorOf("kernel = \"matmul-tiled\"\nwidth = 4\ntile = \n");
    EXPECT_EQ(e.rfind(", line 3, column ", 0), 0u) << e;
    const std::string e2 = errorOf("kernel = \"matmul-tiled\nwidth = 4\n");
    EXPECT_EQ(e2.rfind(", line 1, column ", 0), 0u) << e2;
}

TEST_F(ScenarioFiles, MissingKeysAreNamed)
{
    EXPECT_NE(errorOf("width = 4\ntile = 2\n").find(": no kernel given"), std::string::npos);
    EXPECT_NE(errorOf("kernel = \"matmul-tiled\"\ntile = 2\nj = 4\n").find(": no problem size given"),
              std::string::npos);
    EXPECT_NE(errorOf("kernel = \"matmul-tiled\"\nwidth = 4\n").find(": no tile given"), std::string::npos);
}

TEST_F(ScenarioFiles, MissingFile)
{
    const std::string path = (dir / "absent.toml").string();
    try {
        sim::loadScenarioFile(path);
        FAIL();
    } catch (const sim::ScenarioFileError& e) {
        EXPECT_EQ(std::string(e.what()), path + ": cannot be opened (No such file or directory).");
    }
}

TEST_F(ScenarioFiles, SaveAndLoadRoundTrip)
{
    sim::Preset p;
    p.title = "A \"quoted\" title\\with a backslash";
    p.scenario = matmul("matmul-naive", 7, 3, 5, 3, {1, 2, 0});
    p.scenario.seed = 99;
    p.step = -1;
    p.narration = {"first line", "second, with \"quotes\"", "third\nspans two lines"};
    p.thread = sim::Uint3{2, 1, 0};
    p.panels = {"matrices", "shared-memory", "threads"};
    const std::string path = (dir / "saved.toml").string();
    sim::saveScenarioFile(p, path);
    const sim::Preset q = sim::loadScenarioFile(path);
    EXPECT_EQ(q.name, "saved");
    EXPECT_EQ(q.title, p.title);
    EXPECT_EQ(q.scenario.kernel, "matmul-naive");
    EXPECT_EQ(q.scenario.j, 7);
    EXPECT_EQ(q.scenario.k, 3);
    EXPECT_EQ(q.scenario.l, 5);
    EXPECT_EQ(q.scenario.tile, 3);
    EXPECT_EQ(q.scenario.seed, 99u);
    EXPECT_EQ(q.scenario.block.x, 1u);
    EXPECT_EQ(q.scenario.block.y, 2u);
    EXPECT_EQ(q.step, -1);
    EXPECT_EQ(q.narration, p.narration);
    ASSERT_TRUE(q.thread.has_value());
    EXPECT_EQ(q.thread->x, 2u);
    EXPECT_EQ(q.thread->y, 1u);
    EXPECT_EQ(q.panels, p.panels);

    // Every preset survives a round trip too.
    for (const sim::Preset& pre : sim::listPresets()) {
        const std::string again = (dir / (pre.name + ".toml")).string();
        sim::saveScenarioFile(pre, again);
        const sim::Preset r = sim::loadScenarioFile(again);
        EXPECT_EQ(r.title, pre.title);
        EXPECT_EQ(r.narration, pre.narration);
        ASSERT_EQ(r.narrate.size(), pre.narrate.size());
        for (size_t i = 0; i < r.narrate.size(); ++i) {
            EXPECT_EQ(sim::describeAnchor(r.narrate[i]), sim::describeAnchor(pre.narrate[i]));
            EXPECT_EQ(r.narrate[i].text, pre.narrate[i].text);
        }
        EXPECT_EQ(r.step, pre.step);
        EXPECT_EQ(r.panels, pre.panels);
        EXPECT_EQ(r.lesson, pre.lesson);
        EXPECT_EQ(r.thread.has_value(), pre.thread.has_value());
        EXPECT_EQ(sim::validate(r.scenario), "");
        EXPECT_EQ(std::tie(r.scenario.j, r.scenario.k, r.scenario.l, r.scenario.tile),
                  std::tie(pre.scenario.j, pre.scenario.k, pre.scenario.l, pre.scenario.tile));
    }
}

TEST_F(ScenarioFiles, SaveToAnUnwritablePlaceLeavesNothing)
{
    const std::string path = (dir / "no-such-folder" / "x.toml").string();
    EXPECT_THROW(sim::saveScenarioFile(sim::defaultPreset(), path), sim::ScenarioFileError);
    EXPECT_FALSE(fs::exists(dir / "no-such-folder"));
}

// drop_barrier, schedule, schedule_seed and [occupancy] (the dropped-barrier and occupancy
// lessons): read, refused at their line, and written back.
TEST_F(ScenarioFiles, BarriersScheduleAndOccupancy)
{
    const sim::Preset p = sim::loadScenarioFile(write("race.toml", kGood + R"(drop_barrier = "after-compute"
schedule = "random"
schedule_seed = 7

[occupancy]
profile = "textbook"
block_threads = 256
regs_per_thread = 12
smem_per_block = 2048
)"));
    EXPECT_EQ(p.scenario.dropBarriers, static_cast<unsigned>(kernels::AFTER_COMPUTE));
    EXPECT_EQ(p.schedule, sim::Schedule::Random);
    EXPECT_EQ(p.scheduleSeed, 7u);
    ASSERT_TRUE(p.occupancy.has_value());
    EXPECT_EQ(p.occupancy->profile, "textbook");
    EXPECT_EQ(p.occupancy->input.blockThreads, 256);
    EXPECT_EQ(p.occupancy->input.regsPerThread, 12);
    EXPECT_EQ(p.occupancy->input.smemPerBlock, 2048);
    // PMPP sec. 4.7, the register cliff: 12 registers per thread leave 5 blocks of 256
    // threads on the textbook SM.
    EXPECT_EQ(sim::computeOccupancy(*sim::findOccupancyProfile(p.occupancy->profile), p.occupancy->input).blocksPerSm, 5);

    const sim::Preset both = sim::loadScenarioFile(write("both.toml", kGood + "drop_barrier = [\"after-load\", \"after-compute\"]\n"));
    EXPECT_EQ(both.scenario.dropBarriers, static_cast<unsigned>(kernels::AFTER_LOAD | kernels::AFTER_COMPUTE));
    EXPECT_EQ(both.schedule, sim::Schedule::InOrder);
    EXPECT_FALSE(both.occupancy.has_value());

    // Written back and read again, keys and all.
    for (const sim::Preset* q : {&p, &both}) {
        const std::string again = (dir / "again.toml").string();
        sim::saveScenarioFile(*q, again);
        const sim::Preset r = sim::loadScenarioFile(again);
        EXPECT_EQ(r.scenario.dropBarriers, q->scenario.dropBarriers);
        EXPECT_EQ(r.schedule, q->schedule);
        EXPECT_EQ(r.scheduleSeed, q->scheduleSeed);
        ASSERT_EQ(r.occupancy.has_value(), q->occupancy.has_value());
        if (r.occupancy) {
            EXPECT_EQ(r.occupancy->profile, q->occupancy->profile);
            EXPECT_EQ(std::tie(r.occupancy->input.blockThreads, r.occupancy->input.regsPerThread, r.occupancy->input.smemPerBlock),
                      std::tie(q->occupancy->input.blockThreads, q->occupancy->input.regsPerThread, q->occupancy->input.smemPerBlock));
        }
    }

    EXPECT_EQ(errorOf(kGood + "drop_barrier = \"after-use\"\n"),
              ", line 4: drop_barrier must be \"after-load\", \"after-compute\" or \"fence\" (or a list of them); got \"after-use\".");
    EXPECT_EQ(errorOf(kGood + "drop_barrier = []\n"), ", line 4: drop_barrier must name at least one barrier; got an empty list.");
    EXPECT_EQ(errorOf("kernel = \"matmul-naive\"\nwidth = 4\ntile = 2\ndrop_barrier = \"after-load\"\n"),
              ", line 4: matmul-naive has no barriers to drop; only the tiled kernels' after-load and after-compute "
              "barriers, and the single-pass scan's fence, can be dropped.");
    EXPECT_EQ(errorOf(kGood + "schedule = \"backwards\"\n"),
              ", line 4: schedule must be \"in-order\", \"reverse\" or \"random\"; got \"backwards\".");
    EXPECT_EQ(errorOf(kGood + "schedule = \"reverse\"\nschedule_seed = 3\n"),
              ", line 5: schedule_seed applies only to schedule = \"random\"; set that too, or remove schedule_seed.");
    EXPECT_EQ(errorOf(kGood + "occupancy = 5\n"),
              ", line 4: occupancy must be a table: an [occupancy] section with block_threads and optionally "
              "regs_per_thread, smem_per_block and profile; got the integer 5.");
    EXPECT_EQ(errorOf(kGood + "[occupancy]\nregs_per_thread = 10\n"),
              ", line 4: [occupancy] needs block_threads, the threads per block (1 to 1024).");
    EXPECT_EQ(errorOf(kGood + "[occupancy]\nblock_threads = 256\nregisters = 10\n"),
              ", line 6: unknown key 'registers' in [occupancy]; the known keys are profile, block_threads, "
              "regs_per_thread, smem_per_block.");
    EXPECT_EQ(errorOf(kGood + "[occupancy]\nblock_threads = 2048\n"),
              ", line 5: Threads per block must be between 1 and 1024 on profile textbook; got 2048.");
    EXPECT_EQ(errorOf(kGood + "[occupancy]\nprofile = \"sm_90\"\nblock_threads = 256\nsmem_per_block = 300000\n"),
              ", line 7: Shared memory per block must be between 0 and 232448 bytes on profile sm_90 (its per-block "
              "limit); got 300000.");
    const std::string unknown = errorOf(kGood + "[occupancy]\nprofile = \"sm_70\"\nblock_threads = 256\n");
    EXPECT_EQ(unknown.rfind(", line 5: Unknown occupancy profile 'sm_70'; known profiles are textbook,", 0), 0u) << unknown;
    // The GPU of the machine is only known where the panel runs: accepted here.
    EXPECT_EQ(errorOf(kGood + "[occupancy]\nprofile = \"current\"\nblock_threads = 256\n"), "");
}

// The dropped-barrier and occupancy presets hold what their narration says.
TEST(Presets, BarrierAndOccupancyLessons)
{
    for (const char* name : {"missing-barrier-after-load", "missing-barrier-after-compute"}) {
        SCOPED_TRACE(name);
        const sim::Preset p = sim::findPreset(name);
        const bool load = std::string(name).ends_with("load");
        EXPECT_EQ(p.scenario.dropBarriers, static_cast<unsigned>(load ? kernels::AFTER_LOAD : kernels::AFTER_COMPUTE));
        const sim::Simulation r = sim::simulate(p.scenario, {true, p.schedule, p.scheduleSeed});
        EXPECT_GT(load ? r.hazards.raw : r.hazards.war, 0u);
        int wrong = 0;
        for (size_t i = 0; i < r.P.size(); ++i) wrong += std::memcmp(&r.P[i], &r.reference[i], sizeof(float)) != 0;
        EXPECT_EQ(wrong, 60) << "the narration's 60 of 64";
        EXPECT_EQ(sim::placeNarration(p, r.trace).problems, std::vector<std::string>{}) << "every line lands";
    }
    // Preset occupancy-seed004 (PMPP sec. 4.7): 256-thread blocks at 10 registers: 6
    // blocks, 1536 threads; at 12: 5, 1280.
    const sim::Preset o = sim::findPreset("occupancy-seed004");
    ASSERT_TRUE(o.occupancy.has_value());
    const sim::OccupancyProfile& textbook = *sim::findOccupancyProfile(o.occupancy->profile);
    sim::OccupancyInput in = o.occupancy->input;
    EXPECT_EQ(o.occupancy->profile, "textbook");
    EXPECT_EQ(std::tie(in.blockThreads, in.regsPerThread, in.smemPerBlock), std::make_tuple(256, 10, 2048));
    const sim::Occupancy ten = sim::computeOccupancy(textbook, in);
    EXPECT_EQ(std::tie(ten.blocksPerSm, ten.threadsPerSm), std::make_tuple(6, 1536));
    in.regsPerThread = 12;
    const sim::Occupancy twelve = sim::computeOccupancy(textbook, in);
    EXPECT_EQ(std::tie(twelve.blocksPerSm, twelve.threadsPerSm), std::make_tuple(5, 1280));
    EXPECT_EQ(twelve.limiter, sim::Limiter::Registers);
    // Its scenario is the kernel of those blocks: TILE_WIDTH 16, Mds and Nds in 2048 B.
    EXPECT_EQ(sim::launchShape(o.scenario).block.count(), 256u);
}

}  // namespace
}  // namespace ts::test
