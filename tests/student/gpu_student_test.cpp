// A student's kernel file on the GPU (gpu/student_launch.hpp): NVRTC compiles every kernel
// file of the corpus and every exercise's reference solution as written (no device
// needed), names the student's line and column when it refuses one, and, on a machine with
// a CUDA device, the GPU's P equals the simulator's P of the same file bit for bit, equals
// the built-in kernel's GPU P for the registry kernels written as files, and is timed
// beside the reference kernel. Label gpu; without a device the device tests are skipped
// with the reason (failed with TILESCOPE_REQUIRE_GPU=1).
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "../gpu/gpu_test_support.hpp"
#include "gpu/student_launch.hpp"
#include "sim/engine/simulate.hpp"
#include "student/exercise.hpp"
#include "student/module.hpp"
#include "frontend/translate.hpp"
#include "frontend/translation_file.hpp"

namespace {

using namespace ts;
namespace fs = std::filesystem;

std::string readText(const fs::path& p)
{
    std::ifstream f(p, std::ios::binary);
    std::ostringstream s;
    s << f.rdbuf();
    return s.str();
}

/// The kernel files the GPU path must take: the registry kernels and PMPP's figures as
/// plain CUDA, and the exercises' reference solutions (where that folder exists).
std::vector<fs::path> kernelFiles()
{
    std::vector<fs::path> files;
    for (const char* dir : {"tests/student/kernels", "tests/student/solutions"}) {
        const fs::path d = fs::path(TILESCOPE_SOURCE_DIR) / dir;
        if (!fs::is_directory(d)) continue;
        for (const fs::directory_entry& e : fs::directory_iterator(d))
            if (e.path().extension() == ".cu") files.push_back(e.path());
    }
    std::sort(files.begin(), files.end());
    return files;
}

gpu::StudentKernel studentKernel(const fs::path& p)
{
    gpu::StudentKernel k;
    k.source = readText(p);
    k.fileName = p.string();
    k.translation = student::translateCuda(k.source, k.fileName);
    return k;
}

/// Skips the test where the files cannot be translated: a build without libclang whose
/// $TILESCOPE_TRANSLATIONS is not set (scripts/gpu-student.sh sets it).
#define TS_REQUIRE_TRANSLATIONS()                                                                          \
    do {                                                                                                   \
        if (!kHaveLibclang && student::savedTranslationsDir().empty())                                     \
            GTEST_SKIP() << "no libclang and no saved translations ($TILESCOPE_TRANSLATIONS is not set)";  \
    } while (0)

#ifdef TILESCOPE_HAVE_LIBCLANG
constexpr bool kHaveLibclang = true;
#else
constexpr bool kHaveLibclang = false;
#endif

student::LoadOptions options()
{
    student::LoadOptions o;
    o.cacheDir = TILESCOPE_STUDENT_CACHE;
    return o;
}

TEST(StudentNvrtc, CompilesEveryKernelFileForHopperWithoutADevice)
{
    TS_REQUIRE_TRANSLATIONS();
    const std::vector<fs::path> files = kernelFiles();
    ASSERT_GE(files.size(), 5u);
    for (const fs::path& p : files) {
        const gpu::StudentKernel k = studentKernel(p);
        ASSERT_TRUE(k.translation.ok()) << p << ": " << student::formatDiagnostic(p.string(), k.translation.errors.front());
        try {
            const double seconds = gpu::compileStudentKernel(k, "sm_90");
            EXPECT_GT(seconds, 0) << p;
            std::cout << p.filename().string() << ": NVRTC sm_90 in " << seconds << " s\n";
        } catch (const gpu::StudentCompileError& e) {
            ADD_FAILURE() << p << ": " << e.what();
        }
    }
}

TEST(StudentNvrtc, ErrorsNameTheStudentsLineAndColumn)
{
    // libclang would refuse this file before NVRTC sees it; here it goes to NVRTC directly,
    // as a file that passes the front end but not NVRTC would.
    const std::string src = "#define TILE_WIDTH 4\n"
                            "__global__ void k(float* M, float* N, float* P, int Width)\n"
                            "{\n"
                            "    int Row = blockIdx.y * TILE_WIDTH + threadIdx.y + undeclaredOffset;\n"
                            "    P[Row] = M[Row] * N[Row];\n"
                            "}\n";
    gpu::StudentKernel k;
    k.source = src;
    k.fileName = "my_kernel.cu";
    k.translation.kernelName = "k";
    // Where the error is, counted independently of NVRTC: line 4, the identifier's column.
    const std::string line4 = "    int Row = blockIdx.y * TILE_WIDTH + threadIdx.y + undeclaredOffset;";
    const unsigned column = static_cast<unsigned>(line4.find("undeclaredOffset") + 1);
    try {
        gpu::compileStudentKernel(k, "sm_90");
        FAIL() << "NVRTC compiled a file with an undeclared identifier";
    } catch (const gpu::StudentCompileError& e) {
        ASSERT_EQ(e.errors.size(), 1u) << e.what();
        EXPECT_EQ(e.errors[0].line, 4u);
        EXPECT_EQ(e.errors[0].column, column);
        EXPECT_NE(e.errors[0].message.find("undeclaredOffset"), std::string::npos) << e.errors[0].message;
        EXPECT_EQ(std::string(e.what()).rfind("my_kernel.cu:4:" + std::to_string(column) + ": error: ", 0), 0u) << e.what();
    }
}

/// A square and a ragged scenario of the loaded kernel `info`, as verify --kernel-file picks them.
std::vector<sim::Scenario> cases(const sim::KernelInfo& info)
{
    const int t = info.tiled ? info.tiles.front() : 16;
    if (info.family == sim::Family::Conv1D)
        return {sim::convScenario(info.name, 1, 8 * t, t, 5, {}, 7), sim::convScenario(info.name, 1, 5 * t + 3, t, 5, {}, 8)};
    if (info.family == sim::Family::Conv2D)
        return {sim::convScenario(info.name, 4 * t, 4 * t, t, 5, {}, 7),
                sim::convScenario(info.name, 2 * t + 1, 3 * t - 1, t, 5, {}, 8)};
    if (info.squareOnly)
        return {sim::matmulScenario(info.name, 4 * t, 4 * t, 4 * t, t, {}, 7),
                sim::matmulScenario(info.name, 2 * t + 3, 2 * t + 3, 2 * t + 3, t, {}, 8)};
    return {sim::matmulScenario(info.name, 4 * t, 4 * t, 4 * t, t, {}, 7),
            sim::matmulScenario(info.name, 2 * t + 1, t + 3, 3 * t - 1, t, {}, 8)};
}

TEST(StudentGpu, EveryKernelFileAgreesWithTheSimulatorBitForBit)
{
    TS_REQUIRE_GPU();
    TS_REQUIRE_TRANSLATIONS();
    int compared = 0;
    for (const fs::path& p : kernelFiles()) {
        // An exercise's reference solution gets its exercise's launch and hidden sizes, as
        // grade gives them.
        student::LoadOptions o = options();
        std::optional<student::Exercise> x;
        if (p.parent_path().filename() == "solutions") {
            x = student::findExercise(p.stem().string());
            o.launch = x->launch;
        }
        const student::LoadResult r = student::loadKernelFile(p.string(), o);
        EXPECT_TRUE(r.ok()) << p << ": " << (r.errors.empty() ? "" : r.errors.front().message);
        if (!r.ok()) continue;
        const gpu::StudentKernel k = studentKernel(p);
        std::vector<sim::Scenario> scenarios = cases(*r.info);
        if (x) {
            scenarios.clear();
            const int t = x->tile ? x->tile : r.info->tiled ? r.info->tiles.front() : 16;
            for (const student::ExerciseSize& z : x->sizes)
                scenarios.push_back(r.info->family == sim::Family::Matmul
                                        ? sim::matmulScenario(r.info->name, z.j, z.k, z.l, t, {}, 7)
                                        : sim::convScenario(r.info->name, z.height, z.width, t, x->maskWidth, {}, 7));
        }
        for (sim::Scenario s : scenarios) {
            const std::string invalid = sim::validate(s);
            EXPECT_EQ(invalid, "") << p;
            if (!invalid.empty()) continue;
            sim::SimOptions o;
            o.trace = false;
            const sim::Simulation simulated = sim::simulate(s, o);
            // PMPP Fig. 5.9 has no boundary checks: at a ragged size the simulator stops it at
            // its first out-of-bounds read, and it is not run on the GPU. array_wrong_bound.cu
            // reads one past its arrays on purpose (the array family's wrong kernel).
            if (!simulated.error.empty()) {
                EXPECT_TRUE(p.filename() == "pmpp_fig5_9.cu" || p.filename() == "array_wrong_bound.cu")
                    << p << ": " << simulated.error;
                continue;
            }
            const std::vector<float> P = gpu::runStudentPlain(k, s, simulated.M, simulated.N);
            EXPECT_EQ(gpu::test::bitDifference(P, simulated.P), "") << p << " at " << s.j << "x" << s.k << "x" << s.l;
            ++compared;
        }
    }
    EXPECT_GE(compared, 20);
}

TEST(StudentGpu, RegistryKernelsAsFilesGiveTheBuiltInKernelsGpuP)
{
    TS_REQUIRE_GPU();
    TS_REQUIRE_TRANSLATIONS();
    for (const auto& [file, builtIn] : {std::pair{"matmul_tiled.cu", "matmul-tiled"}, std::pair{"matmul_naive.cu", "matmul-naive"},
                                        std::pair{"conv2d_basic.cu", "conv2d-basic"}}) {
        const fs::path p = fs::path(TILESCOPE_SOURCE_DIR) / "tests/student/kernels" / file;
        if (!fs::exists(p)) continue;
        const student::LoadResult r = student::loadKernelFile(p.string(), options());
        ASSERT_TRUE(r.ok()) << p;
        for (sim::Scenario s : cases(*r.info)) {
            sim::Scenario ref = s;
            ref.kernel = builtIn;
            ref.info = nullptr;
            ASSERT_EQ(sim::validate(ref), "");
            sim::SimOptions o;
            o.trace = false;
            const sim::Simulation simulated = sim::simulate(ref, o);
            const std::vector<float> theirs = gpu::runPlain(ref, simulated.M, simulated.N);
            const std::vector<float> mine = gpu::runStudentPlain(studentKernel(p), s, simulated.M, simulated.N);
            EXPECT_EQ(gpu::test::bitDifference(mine, theirs), "") << file;
        }
    }
}

TEST(StudentGpu, GraderHookTimesTheFileBesideItsReferenceKernel)
{
    TS_REQUIRE_GPU();
    TS_REQUIRE_TRANSLATIONS();
    const fs::path p = fs::path(TILESCOPE_SOURCE_DIR) / "tests/student/kernels/matmul_tiled.cu";
    const student::LoadResult r = student::loadKernelFile(p.string(), options());
    ASSERT_TRUE(r.ok());
    sim::Scenario s = sim::matmulScenario(r.info->name, 512, 512, 512, 16, {}, 3);
    ASSERT_EQ(sim::validate(s), "");
    const gpu::StudentGpuCheck c = gpu::checkStudentOnGpu(studentKernel(p), s, "matmul-tiled", 20);
    EXPECT_TRUE(c.bitExactVsSim) << c.why;
    EXPECT_GT(c.studentMs, 0);
    EXPECT_GT(c.referenceMs, 0);
    // The same kernel text, compiled by NVRTC instead of nvcc: within a factor of two.
    EXPECT_LT(c.studentMs, 2 * c.referenceMs) << c.studentMs << " ms against " << c.referenceMs << " ms";
    EXPECT_GT(c.studentMs, 0.5 * c.referenceMs) << c.studentMs << " ms against " << c.referenceMs << " ms";
    std::cout << "matmul_tiled.cu 512^3 on " << c.device << ": " << c.studentMs << " ms (NVRTC), matmul-tiled "
              << c.referenceMs << " ms (nvcc)\n";
}

TEST(StudentGpu, WithoutADeviceSaysWhyInOneSentence)
{
    const gpu::DeviceInfo d = gpu::queryDevice();
    if (d.available) GTEST_SKIP() << "this machine has a device: " << d.name;
    const gpu::StudentKernel k = studentKernel(fs::path(TILESCOPE_SOURCE_DIR) / "tests/student/kernels/matmul_tiled.cu");
    try {
        gpu::buildStudentKernel(k);
        FAIL() << "built a kernel without a device";
    } catch (const gpu::Unavailable& e) {
        EXPECT_EQ(std::string(e.what()), d.why);
    }
}

}  // namespace
