// A kernel file on a machine without libclang (the GPU machine): this executable is linked
// with the student layer whose front end reads saved translations
// (frontend/translate_saved.cpp) instead of libclang's. The translations are written by
// tilescope-cli translate of this build, which has libclang; a module built from a saved
// translation simulates exactly as libclang's does: the same counters as `tilescope-cli
// simulate --kernel-file` (libclang) prints, and the built-in kernel's P bit for bit. A file
// with no saved translation, no folder named, or a malformed file each get one sentence.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <sys/wait.h>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "sim/engine/simulate.hpp"
#include "student/module.hpp"
#include "frontend/translation_file.hpp"

namespace {

using namespace ts;
namespace fs = std::filesystem;

const fs::path kKernels = fs::path(TILESCOPE_SOURCE_DIR) / "tests/student/kernels";
const fs::path kSaved = fs::path(TILESCOPE_TEST_DIR) / "saved-translations";

/// The standard output of `command`, and its exit status in `status`.
std::string run(const std::string& command, int& status)
{
    std::string out;
    FILE* p = popen(command.c_str(), "r");
    if (!p) return out;
    char buf[4096];
    for (size_t n; (n = fread(buf, 1, sizeof buf, p)) > 0;) out.append(buf, n);
    const int rc = pclose(p);
    status = WIFEXITED(rc) ? WEXITSTATUS(rc) : -1;
    return out;
}

class SavedTranslation : public ::testing::Test {
protected:
    static void SetUpTestSuite()
    {
        fs::remove_all(kSaved);
        int status = -1;
        const std::string out = run(std::string(TILESCOPE_CLI) + " translate --out " + kSaved.string() + " --kernel-file " +
                                        (kKernels / "matmul_tiled.cu").string() + " " +
                                        (kKernels / "matmul_naive.cu").string() + " " +
                                        (kKernels / "conv1d_tiled.cu").string(),
                                    status);
        ASSERT_EQ(status, 0) << out;
        setenv("TILESCOPE_TRANSLATIONS", kSaved.c_str(), 1);
    }

    /// Loads `file` through the saved translation, always building the module afresh.
    static student::LoadResult load(const std::string& file)
    {
        student::LoadOptions o;
        o.cacheDir = (fs::path(TILESCOPE_TEST_DIR) / "saved-translation-modules").string();
        o.useCache = false;
        return student::loadKernelFile((kKernels / file).string(), o);
    }

    static sim::Simulation simulate(const sim::Scenario& s)
    {
        sim::SimOptions o;
        o.trace = false;
        return sim::simulate(s, o);
    }
};

TEST_F(SavedTranslation, BuildsAModuleThatSimulatesAsLibclangsDoes)
{
    struct Case {
        const char* file;
        const char* builtIn;
        sim::Scenario (*scenario)(const std::string& kernel);
        const char* cliSizes;
    };
    const Case cases[] = {
        {"matmul_tiled.cu", "matmul-tiled",
         [](const std::string& k) { return sim::matmulScenario(k, 50, 37, 45, 16, {}, 1); }, "--j 50 --k 37 --l 45 --tile 16"},
        {"matmul_naive.cu", "matmul-naive",
         [](const std::string& k) { return sim::matmulScenario(k, 33, 20, 17, 8, {}, 1); }, "--j 33 --k 20 --l 17 --tile 8"},
        {"conv1d_tiled.cu", "conv1d-tiled",
         [](const std::string& k) { return sim::convScenario(k, 1, 100, 8, 5, {}, 1); }, "--width 100 --mask-width 5 --tile 8"},
    };
    for (const Case& c : cases) {
        const student::LoadResult r = load(c.file);
        ASSERT_TRUE(r.ok()) << c.file << ": " << (r.errors.empty() ? "" : r.errors.front().message);
        EXPECT_FALSE(r.fromCache);
        EXPECT_GT(r.compileSeconds, 0);
        sim::Scenario mine = c.scenario(r.info->name), theirs = c.scenario(c.builtIn);
        ASSERT_EQ(sim::validate(mine), "") << c.file;
        ASSERT_EQ(sim::validate(theirs), "") << c.file;
        const sim::Simulation a = simulate(mine), b = simulate(theirs);
        ASSERT_EQ(a.error, "") << c.file;
        EXPECT_TRUE(a.matchesReference) << c.file;
        ASSERT_EQ(a.P.size(), b.P.size());
        EXPECT_EQ(std::memcmp(a.P.data(), b.P.data(), a.P.size() * sizeof(float)), 0) << c.file;

        // libclang's module, in a tilescope-cli process with libclang: the same counters.
        int status = -1;
        const std::string out = run(std::string("env -u TILESCOPE_TRANSLATIONS ") + TILESCOPE_CLI +
                                        " simulate --json --no-memory-model --kernel-file " + (kKernels / c.file).string() +
                                        " " + c.cliSizes,
                                    status);
        ASSERT_EQ(status, 0) << out;
        const nlohmann::json j = nlohmann::json::parse(out);
        const sim::Totals& t = a.counters.totals;
        EXPECT_EQ(j["totals"]["global_loads"].get<uint64_t>(), t.global_loads) << c.file;
        EXPECT_EQ(j["totals"]["global_stores"].get<uint64_t>(), t.global_stores) << c.file;
        EXPECT_EQ(j["totals"]["shared_loads"].get<uint64_t>(), t.shared_loads) << c.file;
        EXPECT_EQ(j["totals"]["shared_stores"].get<uint64_t>(), t.shared_stores) << c.file;
        EXPECT_EQ(j["totals"]["constant_loads"].get<uint64_t>(), t.constant_loads) << c.file;
        EXPECT_EQ(j["totals"]["barriers"].get<uint64_t>(), t.barriers) << c.file;
        EXPECT_EQ(j["totals"]["flops"].get<uint64_t>(), t.flops) << c.file;
        EXPECT_GT(t.global_loads, 0u);
        EXPECT_TRUE(j["matches_reference"].get<bool>()) << c.file;
    }
}

TEST_F(SavedTranslation, AFileWithoutOneIsToldSoInOneSentence)
{
    // The saved tiled kernel with one more comment line: another text, another hash.
    std::ifstream f(kKernels / "matmul_tiled.cu");
    std::ostringstream s;
    s << "// edited after it was translated\n" << f.rdbuf();
    const student::LoadResult r = student::loadKernelSource(s.str(), "edited.cu");
    ASSERT_EQ(r.errors.size(), 1u);
    EXPECT_EQ(r.errors[0].line, 0u);
    EXPECT_EQ(r.errors[0].message, "this build of TileScope has no libclang, and " + kSaved.string() +
                                       " holds no saved translation of edited.cu as it is now (translate it again with "
                                       "`tilescope-cli translate` on a machine with libclang)");
}

TEST_F(SavedTranslation, NoFolderNamedSaysHowToWriteOne)
{
    unsetenv("TILESCOPE_TRANSLATIONS");
    const student::LoadResult r = load("matmul_tiled.cu");
    setenv("TILESCOPE_TRANSLATIONS", kSaved.c_str(), 1);
    ASSERT_EQ(r.errors.size(), 1u);
    EXPECT_NE(r.errors[0].message.find("TILESCOPE_TRANSLATIONS names no folder"), std::string::npos) << r.errors[0].message;
    EXPECT_NE(r.errors[0].message.find("tilescope-cli translate --kernel-file FILE --out DIR"), std::string::npos);
}

TEST_F(SavedTranslation, AMalformedFileIsNamed)
{
    const fs::path dir = fs::path(TILESCOPE_TEST_DIR) / "malformed-translations";
    fs::create_directories(dir);
    const std::string source = "__global__ void k(float* M, float* N, float* P, int Width) {}\n";
    std::ofstream(student::translationPath(dir.string(), source)) << "{\"tilescope_translation\": 1, \"code\": ";
    std::string error;
    EXPECT_FALSE(student::loadTranslation(source, dir.string(), error));
    EXPECT_EQ(error.rfind("the saved translation " + student::translationPath(dir.string(), source) + " is malformed: ", 0), 0u)
        << error;
    // No file at all is not an error: the caller says the file has no translation.
    EXPECT_FALSE(student::loadTranslation(source + "\n", dir.string(), error));
    EXPECT_EQ(error, "");
}

}  // namespace

namespace {

// verify and bench --kernel-file on a machine without a GPU: the file is loaded first (a
// bad file is status 2 with its compiler-style line), then one sentence and status 3.
TEST(StudentGpuCli, WithoutAGpuVerifyAndBenchSayWhyWithStatus3)
{
    const std::string file = (kKernels / "matmul_tiled.cu").string();
    int status = -1;
    const std::string verify = run("env -u TILESCOPE_TRANSLATIONS " + std::string(TILESCOPE_CLI) +
                                       " verify --kernel-file " + file + " 2>&1",
                                   status);
    if (status != 3) GTEST_SKIP() << "this machine has a GPU (verify exited " << status << "): " << verify;
    EXPECT_EQ(std::count(verify.begin(), verify.end(), '\n'), 1) << verify;
    EXPECT_EQ(verify.rfind("tilescope-cli: ", 0), 0u) << verify;
    const std::string bench = run("env -u TILESCOPE_TRANSLATIONS " + std::string(TILESCOPE_CLI) + " bench --kernel-file " +
                                      file + " --width 64 2>&1",
                                  status);
    EXPECT_EQ(status, 3);
    EXPECT_EQ(bench, verify);
    const std::string refused = run("env -u TILESCOPE_TRANSLATIONS " + std::string(TILESCOPE_CLI) + " verify --kernel-file " +
                                        (fs::path(TILESCOPE_SOURCE_DIR) / "tests/student/wrong/atomic_sum.cu").string() +
                                        " 2>&1",
                                    status);
    EXPECT_EQ(status, 2) << refused;
    EXPECT_NE(refused.find("atomic_sum.cu:13:13: error: atomicAdd here takes an element of a global array"), std::string::npos) << refused;
}

}  // namespace
