// The grader (student/grade.hpp) and its exercises (assets/exercises/): every reference
// solution (tests/student/solutions/) passes its exercise, every starter fails with a
// diagnosis, every wrong kernel of tests/student/wrong/ that names an exercise gets its own
// diagnosis with its line from `tilescope-cli grade --json`, and a malformed exercise file
// is one sentence with the file and the line.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <string>

#include <cstring>

#include "sim/engine/simulate.hpp"
#include "student/exercise.hpp"
#include "student/grade.hpp"
#include "student_test_support.hpp"

namespace {

using namespace ts;
namespace fs = std::filesystem;

const std::string kSource = TILESCOPE_SOURCE_DIR;

student::GradeOptions options()
{
    student::GradeOptions o;
    o.cacheDir = TILESCOPE_STUDENT_CACHE;
    return o;
}

std::string describe(const student::Grade& g)
{
    std::string s;
    for (const student::Check& c : g.checks)
        s += (c.skipped ? "SKIP " : c.passed ? "PASS " : "FAIL ") + c.name + ": " + c.diagnosis + "\n";
    return s;
}

/// The message of the ExerciseError that parsing `text` as `path` throws ("" if none).
std::string parseError(const std::string& text, const std::string& path = kSource + "/assets/exercises/x.toml")
{
    try {
        student::parseExercise(text, path);
    } catch (const student::ExerciseError& e) {
        return e.what();
    }
    return "";
}

const std::string kGood = "title = \"t\"\npmpp = \"5.5\"\nstatement = \"s\"\nstarter = \"tiled-matmul.cu\"\n"
                          "reference = \"matmul-tiled\"\nsizes = [[33, 17, 45], [64, 64, 64]]\n"
                          "[launch]\nfamily = \"matmul\"\n";

/// kGood's keys but sizes and [launch]: for a file whose sizes are elsewhere.
std::string kGoodWithoutSizes()
{
    return "title = \"t\"\npmpp = \"5.5\"\nstatement = \"s\"\nstarter = \"tiled-matmul.cu\"\nreference = \"matmul-tiled\"\n";
}

TEST(Exercise, AWellFormedFileReadsFieldByField)
{
    const student::Exercise x = student::parseExercise(kGood + "[checks]\ntiled = true\ncoalesced = true\n",
                                                       kSource + "/assets/exercises/my-own.toml");
    EXPECT_EQ(x.name, "my-own");
    EXPECT_EQ(x.section, "5.5");
    EXPECT_EQ(x.reference, "matmul-tiled");
    ASSERT_EQ(x.sizes.size(), 2u);
    EXPECT_EQ(x.sizes[0].j, 33);
    EXPECT_EQ(x.sizes[0].k, 17);
    EXPECT_EQ(x.sizes[0].l, 45);
    EXPECT_EQ(x.sizes[0].text("matmul"), "33x17x45");
    EXPECT_TRUE(x.checks.tiled);
    EXPECT_TRUE(x.checks.coalesced);
    EXPECT_TRUE(x.checks.onePer.empty());
}

TEST(Exercise, EveryMistakeIsOneSentenceWithTheFileAndLine)
{
    const std::string file = kSource + "/assets/exercises/x.toml";
    // A TOML syntax error, on line 3.
    EXPECT_NE(parseError("title = \"t\"\npmpp = \"5.5\"\nstatement = \n").find(file + ", line 3"), std::string::npos)
        << parseError("title = \"t\"\npmpp = \"5.5\"\nstatement = \n");
    // A misspelt key on line 9 (after the 8 good lines).
    const std::string typo = parseError(kGood + "sizs = [[1, 1, 1]]\n");
    EXPECT_NE(typo.find(file + ", line 9: unknown key 'sizs'"), std::string::npos) << typo;
    // A matmul size of two numbers, on line 6.
    std::string bad = kGood;
    bad.replace(bad.find("[[33, 17, 45]"), 13, "[[33, 17]");
    const std::string size = parseError(bad);
    EXPECT_NE(size.find(file + ", line 6: each size of a matmul exercise is [j, k, l]"), std::string::npos) << size;
    // An unknown reference kernel, on line 5.
    bad = kGood;
    bad.replace(bad.find("matmul-tiled"), 12, "matmul-fast");
    EXPECT_NE(parseError(bad).find(file + ", line 5: reference names no kernel"), std::string::npos) << parseError(bad);
    // A starter that is not there.
    bad = kGood;
    bad.replace(bad.find("tiled-matmul.cu"), 15, "nothing-here.cu");
    EXPECT_NE(parseError(bad).find("line 4: the starter file"), std::string::npos) << parseError(bad);
    // No [launch] table.
    EXPECT_NE(parseError(kGood.substr(0, kGood.find("[launch]"))).find("[launch] table"), std::string::npos);
    // coalesced on a convolution.
    bad = kGood;
    bad.replace(bad.find("matmul-tiled"), 12, "conv1d-tiled");
    bad.replace(bad.find("[[33, 17, 45], [64, 64, 64]]"), 28, "[[100]]");
    bad.replace(bad.find("\"matmul\""), 8, "\"conv1d\"");
    EXPECT_EQ(parseError(bad), "");
    EXPECT_NE(parseError(bad + "[checks]\ncoalesced = true\n").find("apply to matmul exercises only"), std::string::npos);
    // An array exercise whose formula calls a function no formula may call: the exercise's
    // fault, on the formula's line (11), not every student's "FAIL compiles".
    const std::string array = "title = \"t\"\npmpp = \"2.3\"\nstatement = \"s\"\nstarter = \"tiled-matmul.cu\"\n"
                              "sizes = [[1000], [257]]\n[launch]\nfamily = \"array\"\n"
                              "arrays = \"in A[n], in B[n], out C[n]\"\nsizes = \"n = 1000\"\ngrid = \"(n + 255) / 256\"\n"
                              "formula = \"C[i] = A[i] + FN(B[i])\"\nblock = \"256\"\n";
    auto withFn = [&](const std::string& fn) {
        std::string t = array;
        t.replace(t.find("FN"), 2, fn);
        return t;
    };
    EXPECT_EQ(parseError(withFn("fabsf")), "");
    const std::string unknown = parseError(withFn("frobnicate"));
    EXPECT_NE(unknown.find(file + ", line 11: cannot read the reference formula: the function frobnicate is not one a formula may call"),
              std::string::npos)
        << unknown;
    // An array of the formula the arrays line does not declare, on the formula's line too.
    std::string undeclared = withFn("fabsf");
    undeclared.replace(undeclared.find("B[i])"), 4, "D[i]");
    EXPECT_NE(parseError(undeclared).find(file + ", line 11: "), std::string::npos) << parseError(undeclared);
}

/// The shipped exercises: at least the eight of issue 27, each with a starter file, a
/// ragged size and a square one, and a solution in tests/student/solutions/.
TEST(Exercise, TheShippedOnesHaveARaggedAndASquareSizeAndASolution)
{
    const std::vector<student::Exercise> all = student::listExercises();
    std::set<std::string> names;
    for (const student::Exercise& x : all) {
        SCOPED_TRACE(x.name);
        names.insert(x.name);
        EXPECT_TRUE(fs::is_regular_file(x.starter));
        EXPECT_TRUE(fs::is_regular_file(kSource + "/tests/student/solutions/" + x.name + ".cu"));
        EXPECT_FALSE(x.statement.empty());
        bool ragged = false, square = false;
        for (const student::ExerciseSize& z : x.sizes) {
            if (x.launch.family == "matmul") {
                square |= z.j == z.k && z.k == z.l;
                ragged |= z.j != z.k || z.k != z.l;
            } else if (x.launch.family == "conv2d") {
                square |= z.height == z.width;
                ragged |= z.height != z.width;
            } else {
                square |= z.width % 8 == 0;   // a whole number of tiles of the starter's TILE_SIZE 8
                ragged |= z.width % 8 != 0;
            }
        }
        EXPECT_TRUE(ragged);
        EXPECT_TRUE(square);
    }
    for (const char* n : {"matmul-row-per-thread", "matmul-column-per-thread", "tiled-matmul", "tiled-matmul-boundary",
                          "corner-turning", "thread-coarsening", "conv1d-tiled-halo", "conv2d-tiled"})
        EXPECT_EQ(names.count(n), 1u) << n;
}

TEST(Grade, EverySolutionPassesAndEveryStarterFails)
{
    for (const student::Exercise& x : student::listExercises()) {
        SCOPED_TRACE(x.name);
        const student::Grade good = student::grade(x, kSource + "/tests/student/solutions/" + x.name + ".cu", options());
        EXPECT_TRUE(good.passed()) << describe(good);
        // compiles, one check per size at least, gpu
        EXPECT_GE(good.checks.size(), 2 + x.sizes.size());
        const student::Grade starter = student::grade(x, x.starter, options());
        EXPECT_FALSE(starter.passed()) << describe(starter);
        size_t failing = 0;
        for (const student::Check& c : starter.checks)
            if (!c.passed && !c.skipped) {
                ++failing;
                EXPECT_FALSE(c.diagnosis.empty()) << c.name;
            }
        EXPECT_GT(failing, 0u);
        // The starter compiles: it is a skeleton to fill in, not a syntax exercise.
        ASSERT_FALSE(starter.checks.empty());
        EXPECT_TRUE(starter.checks.front().passed) << describe(starter);
    }
}

/// The same tiled kernel (PMPP Fig. 5.13 with j, k, l) under four naming schemes
/// (tests/student/naming/): PMPP's names bound by name; a student's own names, the six-size
/// lab signature and an output-first order, each bound by position through `args`. A launch
/// binds by position, so all four give the same trace, event for event, the same P bit for
/// bit and the same verdict, check for check.
TEST(Naming, FourSchemesGiveTheSameTraceAndVerdict)
{
    const std::string dir = kSource + "/tests/student/naming/";
    const student::Exercise x = student::findExercise("tiled-matmul-boundary");
    std::optional<sim::Simulation> first;
    std::optional<student::Grade> firstGrade;
    for (const char* name : {"pmpp_names.cu", "rows_inner_cols.cu", "lab_six_sizes.cu", "output_first.cu"}) {
        SCOPED_TRACE(name);
        student::LoadOptions lo;
        lo.cacheDir = TILESCOPE_STUDENT_CACHE;
        const student::LoadResult r = student::loadKernelFile(dir + name, lo);
        ASSERT_TRUE(r.ok()) << (r.errors.empty() ? "" : r.errors.front().message);
        sim::Scenario s = sim::matmulScenario(r.info->name, 33, 17, 45, 16, {}, 7);
        ASSERT_EQ(sim::validate(s), "");
        sim::SimOptions o;
        o.trace = true;
        o.threads = 1;
        const sim::Simulation run = sim::simulate(s, o);
        ASSERT_TRUE(run.error.empty()) << run.error;
        EXPECT_TRUE(run.matchesReference);
        const student::Grade g = student::grade(x, dir + name, options());
        EXPECT_TRUE(g.passed()) << describe(g);
        if (!first) {
            first = run;
            firstGrade = g;
            ASSERT_GT(run.trace.events.size(), 1000u);
            continue;
        }
        ASSERT_EQ(run.P.size(), first->P.size());
        EXPECT_EQ(std::memcmp(run.P.data(), first->P.data(), run.P.size() * sizeof(float)), 0);
        ASSERT_EQ(run.trace.events.size(), first->trace.events.size());
        size_t differing = 0;
        for (size_t i = 0; i < run.trace.events.size(); ++i) {
            const sim::Event& a = run.trace.events[i];
            const sim::Event& b = first->trace.events[i];
            differing += !(a.op == b.op && a.thread == b.thread && a.array == b.array && a.index == b.index &&
                           std::memcmp(&a.value, &b.value, sizeof(float)) == 0 && a.line == b.line && a.seq == b.seq);
        }
        EXPECT_EQ(differing, 0u);
        EXPECT_EQ(run.counters.totals.global_loads, first->counters.totals.global_loads);
        EXPECT_EQ(run.counters.totals.shared_loads, first->counters.totals.shared_loads);
        ASSERT_EQ(g.checks.size(), firstGrade->checks.size());
        for (size_t i = 0; i < g.checks.size(); ++i) {
            EXPECT_EQ(g.checks[i].name, firstGrade->checks[i].name);
            EXPECT_EQ(g.checks[i].passed, firstGrade->checks[i].passed) << g.checks[i].name;
            EXPECT_EQ(g.checks[i].points, firstGrade->checks[i].points) << g.checks[i].name;
        }
    }
}

/// The argument list can come from the exercise (its [launch] args), and without it a
/// kernel whose names say nothing is refused with a sentence that says how to state them.
TEST(Naming, AnExerciseStatesTheArgumentsAndARefusalSaysHow)
{
    const std::string dir = kSource + "/tests/student/naming/";
    const student::Exercise lab = student::findExercise(dir + "lab-signature.toml");
    EXPECT_EQ(lab.launch.args.substr(0, 9), "A = M, B ");
    const student::Grade g = student::grade(lab, dir + "lab_no_header.cu", options());
    EXPECT_TRUE(g.passed()) << describe(g);

    const student::Grade refused = student::grade(student::findExercise("tiled-matmul-boundary"), dir + "lab_no_header.cu", options());
    ASSERT_FALSE(refused.checks.empty());
    EXPECT_EQ(refused.checks.front().name, "compiles");
    EXPECT_FALSE(refused.checks.front().passed);
    EXPECT_NE(refused.checks.front().diagnosis.find("int parameter numARows is not a size TileScope knows"), std::string::npos)
        << refused.checks.front().diagnosis;
    EXPECT_NE(refused.checks.front().diagnosis.find("// tilescope: args = M, N, P, j, k, l"), std::string::npos)
        << refused.checks.front().diagnosis;

    // A wrong argument list is the file's mistake, on its header line.
    const fs::path tmp = fs::temp_directory_path() / "tilescope-naming-test";
    fs::create_directories(tmp);
    auto refusal = [&](const std::string& header) {
        std::ifstream in(dir + "rows_inner_cols.cu");
        std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
        const size_t at = text.find("// tilescope: args = M, N, P, j, k, l");
        text.replace(at, std::string("// tilescope: args = M, N, P, j, k, l").size(), header);
        std::ofstream(tmp / "k.cu") << text;
        student::LoadOptions lo;
        lo.cacheDir = TILESCOPE_STUDENT_CACHE;
        const student::LoadResult r = student::loadKernelFile((tmp / "k.cu").string(), lo);
        return r.errors.empty() ? std::string() : student::formatDiagnostic("k.cu", r.errors.front());
    };
    EXPECT_EQ(refusal("// tilescope: args = M, N, P, j, k"),
              "k.cu:3: error: the launch passes 5 arguments (args = M, N, P, j, k) but kernel matmulTiled takes 6 parameters");
    EXPECT_EQ(refusal("// tilescope: args = M, N, P, j, k, q"),
              "k.cu:3: error: argument 6 of the launch, 'q', is not a term of the problem: the terms are M, N, P, j, k, l or Width");
    EXPECT_EQ(refusal("// tilescope: args = M, M, P, j, k, l"), "k.cu:3: error: argument 2 of the launch passes the array M a second time");
    EXPECT_EQ(refusal("// tilescope: args = M, N, j, P, k, l").substr(0, 50), "k.cu:6: error: argument 3 of the launch is the siz");
    EXPECT_EQ(refusal("// tilescope: args = M, N, P, Width, k, l"),
              "k.cu:3: error: the launch passes both Width (a square problem's one size) and j, k or l: pass one or the other");
    fs::remove_all(tmp);
}

/// The grader calls the arrays as the student does: a fault on A, a term of A and B, the
/// reference's terms in the same names (issue 38: "every array is called by the student's
/// name").
TEST(Naming, DiagnosesUseTheStudentsNames)
{
    std::ifstream in(kSource + "/tests/student/naming/rows_inner_cols.cu");
    const std::string good((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    const fs::path tmp = fs::temp_directory_path() / "tilescope-names-test";
    fs::create_directories(tmp);
    const student::Exercise x = student::findExercise("tiled-matmul-boundary");
    auto firstFailure = [&](std::string text, const std::string& from, const std::string& to) {
        const size_t at = text.find(from);
        EXPECT_NE(at, std::string::npos) << from;
        text.replace(at, from.size(), to);
        std::ofstream(tmp / "mine.cu") << text;
        const student::Grade g = student::grade(x, (tmp / "mine.cu").string(), options());
        for (const student::Check& c : g.checks)
            if (!c.passed && !c.skipped) return c.diagnosis;
        return std::string();
    };
    // No row check on the load of A: row 33 of a 33-row A is read.
    const std::string fault = firstFailure(good, "if (Row < rowsA && ph * TILE_WIDTH + tx < inner)", "if (ph * TILE_WIDTH + tx < inner)");
    EXPECT_NE(fault.find(" accessed A["), std::string::npos) << fault;
    EXPECT_EQ(fault.find(" accessed M["), std::string::npos) << fault;
    // The tile of A stored transposed: the cause names A's elements and the reference's terms too.
    const std::string swapped = firstFailure(good, "Mds[ty][tx] = A[", "Mds[tx][ty] = A[");
    EXPECT_NE(swapped.find("stored A[1][0] into Mds[0][1]"), std::string::npos) << swapped;
    EXPECT_NE(swapped.find("the reference's term 2 is A[0][1] * B[1][0]"), std::string::npos) << swapped;
    EXPECT_NE(swapped.find("C[0][0] is "), std::string::npos) << swapped;
    fs::remove_all(tmp);
}

/// Every submission gets the same list of checks, with points: a file that does not
/// compile and one that runs off its arrays list every check a passing one does, the
/// checks not run failed with "not run: ...".
TEST(Grade, EverySubmissionGetsTheSameChecksWithPoints)
{
    const student::Exercise x = student::findExercise("tiled-matmul-boundary");
    const std::vector<std::string> names = student::checkNames(x);
    // compiles, tiled, 5 per hidden size, gpu
    EXPECT_EQ(names.size(), 3 + 5 * x.sizes.size());
    double max = 0;
    for (const std::string& n : names) max += x.points.of(n);
    for (const std::string file : {"/tests/student/solutions/tiled-matmul-boundary.cu", "/tests/student/wrong/compile_error.cu",
                                   "/tests/student/wrong/no_boundary_check_ragged.cu", "/assets/exercises/tiled-matmul-boundary.cu"}) {
        SCOPED_TRACE(file);
        const student::Grade g = student::grade(x, kSource + file, options());
        ASSERT_EQ(g.checks.size(), names.size()) << describe(g);
        double sum = 0;
        for (size_t i = 0; i < names.size(); ++i) {
            EXPECT_EQ(g.checks[i].name, names[i]);
            EXPECT_EQ(g.checks[i].maxPoints, x.points.of(names[i]));
            EXPECT_EQ(g.checks[i].points, g.checks[i].passed || g.checks[i].skipped ? g.checks[i].maxPoints : 0.0);
            sum += g.checks[i].points;
        }
        EXPECT_EQ(g.maxScore(), max);
        EXPECT_EQ(g.score(), sum);
        EXPECT_GT(g.seconds, 0.0);
    }
    const student::Grade broken = student::grade(x, kSource + "/tests/student/wrong/compile_error.cu", options());
    EXPECT_EQ(broken.score(), 0.0);
    EXPECT_EQ(broken.checks.back().diagnosis, "not run: the file does not compile");
    const student::Grade good = student::grade(x, kSource + "/tests/student/solutions/tiled-matmul-boundary.cu", options());
    EXPECT_EQ(good.score(), max);
    // The defaults (docs/exercises.md): correct 2 points a size, gpu 0, every other check 1.
    EXPECT_EQ(x.points.of("correct 33x17x45"), 2.0);
    EXPECT_EQ(x.points.of("no races 1x1x1"), 1.0);
    EXPECT_EQ(x.points.of("initialised shared 64x64x64"), 1.0);
    EXPECT_EQ(x.points.of("gpu"), 0.0);
}

/// The shipped exercises keep their hidden sizes in the grading folder, apart from the
/// statement students read, and each gives a public size.
TEST(Exercise, HiddenSizesLiveInTheGradingFolder)
{
    for (const student::Exercise& x : student::listExercises()) {
        SCOPED_TRACE(x.name);
        // An exercise on a described registry row (stencil-basic) is graded at the sizes
        // verify runs the row at: ragged and whole multiples of its block edges, and 1.
        if (const sim::KernelInfo* k = sim::findKernel(x.reference); k && k->family == sim::Family::Array) {
            EXPECT_TRUE(x.gradingFile.empty());
            bool ragged = false, one = false;
            for (const student::ExerciseSize& z : x.sizes) {
                ragged = ragged || z.width % 8 != 0;
                one = one || z.width == 1;
            }
            EXPECT_TRUE(ragged && one) << "the row's sizes";
            EXPECT_GE(x.sizes.size(), 5u);
            continue;
        }
        EXPECT_EQ(fs::path(x.gradingFile).lexically_relative(fs::path(x.path).parent_path()).string(), "grading/" + x.name + ".toml");
        std::ifstream in(x.path);
        std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
        EXPECT_EQ(text.find("\nsizes = ["), std::string::npos) << "hidden sizes in the statement's file";
        EXPECT_TRUE(x.publicSize.has_value());
        EXPECT_FALSE(x.sizes.empty());
    }
    // A fault in the grading file is the grading file's, with its line.
    const fs::path tmp = fs::temp_directory_path() / "tilescope-grading-test";
    fs::create_directories(tmp / "grading");
    std::ofstream(tmp / "tiled-matmul.cu") << "// starter\n";
    std::ofstream(tmp / "mine.toml") << kGoodWithoutSizes() << "grading = \"grading/mine.toml\"\n[launch]\nfamily = \"matmul\"\n";
    std::ofstream(tmp / "grading" / "mine.toml") << "# hidden\nsizes = [[33, 17, 45], [64, 64]]\n";
    std::string e;
    try {
        student::loadExercise((tmp / "mine.toml").string());
    } catch (const student::ExerciseError& x) {
        e = x.what();
    }
    EXPECT_EQ(e, (tmp / "grading" / "mine.toml").string() +
                     ", line 2: each size of a matmul exercise is [j, k, l], a list of 3 whole numbers.");
    std::ofstream(tmp / "grading" / "mine.toml") << "sizes = [[33, 17, 45]]\n[points]\ncorrect = -1\n";
    try {
        student::loadExercise((tmp / "mine.toml").string());
        e.clear();
    } catch (const student::ExerciseError& x) {
        e = x.what();
    }
    EXPECT_EQ(e, (tmp / "grading" / "mine.toml").string() + ", line 3: points.correct must be a number from 0 to 1000.");
    fs::remove_all(tmp);
}

/// Runs tilescope-cli with `args`; its exit status and stdout (stderr with it when `both`).
int cli(const std::string& args, std::string& out, bool both = false) { return student::test::cli(args, out, both); }

/// The wrong corpus: a file with `// grade: EXERCISE` is graded on that exercise; some
/// failing check's diagnosis holds its `// grade-expect:` text (else its `// expect:`
/// text), on the line `// grade-line:` gives. tilescope-cli exits 1 and never crashes.
TEST(GradeCli, EveryWrongKernelGetsItsOwnDiagnosisWithItsLine)
{
    size_t graded = 0;
    std::set<std::string> exercises;
    for (const fs::directory_entry& e : fs::directory_iterator(kSource + "/tests/student/wrong")) {
        if (e.path().extension() != ".cu") continue;
        SCOPED_TRACE(e.path().filename().string());
        std::ifstream in(e.path());
        std::string line, exercise, expect, gradeExpect;
        unsigned wantLine = 0;
        while (std::getline(in, line)) {
            if (line.rfind("// expect: ", 0) == 0) expect = line.substr(11);
            if (line.rfind("// grade: ", 0) == 0) exercise = line.substr(10);
            if (line.rfind("// grade-expect: ", 0) == 0) gradeExpect = line.substr(17);
            if (line.rfind("// grade-line: ", 0) == 0) wantLine = static_cast<unsigned>(std::stoul(line.substr(15)));
        }
        if (exercise.empty()) continue;
        ++graded;
        exercises.insert(exercise);
        const std::string want = gradeExpect.empty() ? expect : gradeExpect;
        std::string out;
        const int status = cli("grade --exercise " + exercise + " --kernel-file '" + e.path().string() + "' --json", out);
        EXPECT_EQ(status, 1) << out;
        nlohmann::json j;
        ASSERT_NO_THROW(j = nlohmann::json::parse(out)) << out;
        EXPECT_EQ(j["exercise"], exercise);
        EXPECT_EQ(j["kernel_file"], e.path().string());
        EXPECT_FALSE(j["passed"].get<bool>());
        bool found = false;
        for (const nlohmann::json& c : j["checks"]) {
            if (c["passed"].get<bool>()) continue;
            const std::string d = c["diagnosis"].get<std::string>();
            if (d.find(want) == std::string::npos) continue;
            found = true;
            if (wantLine) EXPECT_EQ(c["line"].get<unsigned>(), wantLine) << d;
            break;
        }
        EXPECT_TRUE(found) << "no failing check says: " << want << "\n" << out;
    }
    EXPECT_GE(graded, 15u);
    EXPECT_GE(exercises.size(), 5u);
}

TEST(GradeCli, HumanOutputListAndBadInput)
{
    std::string out;
    EXPECT_EQ(cli("grade --exercise tiled-matmul-boundary --kernel-file '" + kSource +
                      "/tests/student/solutions/tiled-matmul-boundary.cu'",
                  out),
              0)
        << out;
    EXPECT_NE(out.find("PASS correct 33x17x45\n"), std::string::npos) << out;
    EXPECT_NE(out.find("SKIP gpu: no GPU"), std::string::npos) << out;
    EXPECT_NE(out.find("verdict: PASS"), std::string::npos) << out;

    // PMPP Fig. 5.9 as printed (one Width) on the exercise with ragged sizes: told to take j, k, l.
    EXPECT_EQ(cli("grade --exercise tiled-matmul-boundary --kernel-file '" + kSource + "/tests/student/kernels/pmpp_fig5_9.cu'",
                  out),
              1)
        << out;
    EXPECT_NE(out.find("FAIL runs 33x17x45: " + kSource + "/tests/student/kernels/pmpp_fig5_9.cu: your kernel takes one "
                       "size (Width)"),
              std::string::npos)
        << out;
    EXPECT_NE(out.find("PASS correct 64x64x64\n"), std::string::npos) << out;

    EXPECT_EQ(cli("grade --list", out), 0) << out;
    EXPECT_NE(out.find("tiled-matmul-boundary     Tiled matrix multiplication for any size"), std::string::npos) << out;
    EXPECT_GE(std::count(out.begin(), out.end(), '\n'), 8);

    EXPECT_EQ(cli("grade --exercise no-such-exercise --kernel-file x.cu", out, true), 2) << out;
    EXPECT_NE(out.find("There is no exercise 'no-such-exercise'; the exercises are"), std::string::npos) << out;
    EXPECT_EQ(cli("grade --kernel-file x.cu", out, true), 2) << out;
    EXPECT_EQ(cli("grade --exercise tiled-matmul --kernel-file /no/such/kernel.cu", out, true), 2) << out;
    EXPECT_NE(out.find("the kernel file '/no/such/kernel.cu' does not exist"), std::string::npos) << out;

    // An instructor's own file with a mistake on line 2.
    const fs::path dir = fs::path(TILESCOPE_STUDENT_CACHE) / "exercise-test";
    fs::create_directories(dir);
    std::ofstream(dir / "mine.toml") << "title = \"mine\"\npmpp = 5.5\n";
    EXPECT_EQ(cli("grade --exercise '" + (dir / "mine.toml").string() + "' --kernel-file x.cu", out, true), 2) << out;
    EXPECT_NE(out.find("mine.toml, line 2: pmpp must be a string in quotes."), std::string::npos) << out;
}

/// simulate --exercise: the exercise's launch and its public size; a P that differs from the
/// reference fails (status 1) and names the first wrong element (issue 38).
TEST(GradeCli, SimulateWithAnExerciseUsesItsLaunchAndPublicSize)
{
    std::string out;
    // conv2d-tiled's launch is the input tile's (its [launch] grid and block); public size 16 x 24.
    EXPECT_EQ(cli("simulate --kernel-file '" + kSource + "/tests/student/solutions/conv2d-tiled.cu' --exercise conv2d-tiled "
                  "--quiet --no-memory-model",
                  out),
              0)
        << out;
    EXPECT_NE(out.find("N 16x24, mask 5x5"), std::string::npos) << out;
    EXPECT_NE(out.find("P vs reference  bit-identical"), std::string::npos) << out;
    EXPECT_EQ(cli("simulate --kernel-file '" + kSource + "/tests/student/wrong/swapped_mds_index.cu' --exercise "
                  "tiled-matmul-boundary --quiet --no-memory-model --json",
                  out),
              1)
        << out;
    nlohmann::json j;
    ASSERT_NO_THROW(j = nlohmann::json::parse(out)) << out;
    EXPECT_FALSE(j["matches_reference"].get<bool>());
    EXPECT_EQ(j["params"]["j"], 20);   // the public size, 20 x 13 x 27
    EXPECT_EQ(j["first_wrong"].get<std::string>().rfind("P[0][0] is ", 0), 0u) << out;
    // The cause first, as grade says it: the store of the transposed tile.
    EXPECT_NE(j["first_wrong"].get<std::string>().find(": line 20 stored M[1][0] into Mds[0][1], which line 31 read for term 2"),
              std::string::npos)
        << out;
    // A bad exercise name is bad input.
    EXPECT_EQ(cli("simulate --kernel-file '" + kSource + "/tests/student/solutions/conv2d-tiled.cu' --exercise no-such", out, true), 2);
    EXPECT_NE(out.find("There is no exercise 'no-such'"), std::string::npos) << out;
}

}  // namespace
