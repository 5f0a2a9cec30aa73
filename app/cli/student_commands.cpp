#include "student_commands.hpp"

#include <cstring>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <sstream>

#include "array_options.hpp"
#include "commands.hpp"
#include "sim/engine/simulate.hpp"
#include "student/exercise.hpp"
#include "student/module.hpp"
#include "frontend/translation_file.hpp"

namespace ts::cli {
namespace {

/// The text of `path`, or nothing after one sentence on stderr.
std::optional<std::string> readText(const std::string& path)
{
    // Never blocks or reads without end (a FIFO, /dev/stdin, /dev/zero): student/module.hpp.
    std::string error;
    std::optional<std::string> text = student::readKernelText(path, error);
    if (!text) std::cerr << "tilescope-cli: " << error << "\n";
    return text;
}

/// "" when `gpu` and `simulated` hold the same floats bit for bit, else the first element
/// that differs.
std::string firstDifference(const std::vector<float>& gpu, const std::vector<float>& simulated, int l)
{
    if (gpu.size() != simulated.size()) return "P has another size on the GPU";
    for (size_t i = 0; i < gpu.size(); ++i)
        if (std::memcmp(&gpu[i], &simulated[i], sizeof(float)) != 0) {
            std::ostringstream m;
            m.precision(9);
            m << "P[" << i / l << "][" << i % l << "] is " << gpu[i] << " on the GPU and " << simulated[i]
              << " in the simulator";
            return m.str();
        }
    return {};
}

}  // namespace

CLI::App* addTranslateCommand(CLI::App& app, TranslateOptions& o)
{
    CLI::App* c = app.add_subcommand(
        "translate", "Translate kernel files with libclang and save the translations, for a machine without libclang "
                     "(the GPU machine reads them from $TILESCOPE_TRANSLATIONS)");
    c->add_option("--kernel-file", o.files, "One or more plain CUDA kernel files (docs/student-kernels.md)")
        ->required()
        ->expected(1, -1);
    c->add_option("--out", o.out, "The folder the translations are saved in (created if missing)")->required();
    return c;
}

int runTranslate(const TranslateOptions& o)
{
#ifndef TILESCOPE_HAVE_LIBCLANG
    (void)o;
    std::cerr << "tilescope-cli: this build has no libclang, so it cannot translate a kernel file; run translate "
                 "on a machine with libclang-14-dev.\n";
    return kBadInput;
#else
    int status = kOk;
    for (const std::string& path : o.files) {
        const std::optional<std::string> source = readText(path);
        if (!source) {
            status = kBadInput;
            continue;
        }
        const student::Translation t = student::translateCuda(*source, path);
        for (const student::Diagnostic& d : t.errors) std::cerr << student::formatDiagnostic(path, d) << "\n";
        if (!t.ok()) {
            status = kBadInput;
            continue;
        }
        if (const std::string e = student::saveTranslation(t, *source, path, o.out); !e.empty()) {
            std::cerr << "tilescope-cli: " << e << ".\n";
            status = kBadInput;
            continue;
        }
        std::cout << path << ": kernel " << t.kernelName << " saved as " << student::translationPath(o.out, *source)
                  << "\n";
    }
    return status;
#endif
}

std::optional<StudentFile> loadStudentFile(const std::string& path, const std::string& exercise)
{
    student::LoadOptions options;
    if (!exercise.empty()) {
        try {
            options.launch = student::findExercise(exercise).launch;
        } catch (const student::ExerciseError& e) {
            std::cerr << "tilescope-cli: " << e.what() << "\n";
            return std::nullopt;
        }
    }
    const std::optional<std::string> source = readText(path);
    if (!source) return std::nullopt;
    const student::LoadResult r = student::loadKernelSource(*source, path, options);
    for (const student::Diagnostic& d : r.errors) std::cerr << student::formatDiagnostic(path, d) << "\n";
    if (!r.ok()) return std::nullopt;
    StudentFile f;
    f.info = r.info;
    f.kernel.source = *source;
    f.kernel.fileName = path;
    // The same front end again (libclang, or the saved translation): the parameters' kinds.
    f.kernel.translation = student::translateCuda(*source, path);
    return f;
}

void printCompileErrors(const gpu::StudentCompileError& e, const std::string& path)
{
    for (const student::Diagnostic& d : e.errors) std::cerr << student::formatDiagnostic(path, d) << "\n";
}

void addStudentVerifyOptions(CLI::App* verify, StudentVerifyOptions& o)
{
    addUnconfinedFlag(verify);
    verify->add_option("--kernel-file", o.file,
                       "Verify your own kernel file instead (docs/student-kernels.md): compiled by NVRTC, run on the GPU "
                       "and compared bit for bit with the simulator's run of the same file");
    verify->add_option("--exercise", o.exercise,
                       "With --kernel-file: the exercise (grade --list) whose launch the file gets and whose hidden sizes "
                       "are the cases");
    verify->add_option("--width", o.width, "With --kernel-file: the square case's Width (default 4 x the tile)");
    verify->add_option("--height", o.height, "With --kernel-file: rows of a 2D convolution's N (default: --width)");
    verify->add_option("--j", o.j, "With --kernel-file: rows of M and P of the ragged case");
    verify->add_option("--k", o.k, "With --kernel-file: columns of M, rows of N of the ragged case");
    verify->add_option("--l", o.l, "With --kernel-file: columns of N and P of the ragged case");
    verify->add_option("--tile", o.tile, "With --kernel-file: the block edge of an untiled kernel (default 16; a tiled "
                                         "kernel's is its TILE_WIDTH)");
}

int runStudentVerify(const StudentVerifyOptions& o)
{
    if ((o.j || o.k || o.l) && !(o.j && o.k && o.l)) {
        std::cerr << "tilescope-cli: give all three of --j, --k and --l for the ragged case, or none.\n";
        return kBadInput;
    }
    const std::optional<StudentFile> f = loadStudentFile(o.file, o.exercise);
    if (!f) return kBadInput;
    const sim::KernelInfo& info = *f->info;
    std::optional<student::Exercise> x;
    if (!o.exercise.empty()) x = student::findExercise(o.exercise);
    const int t = o.tile ? *o.tile : x && x->tile ? x->tile : info.tiled ? info.tiles.front() : 16;
    // A square and a ragged problem: sizes that are multiples of the tile and sizes that are not.
    std::vector<sim::Scenario> cases;
    if (x && !o.width && !o.j) {
        // The exercise's hidden sizes, as grade runs them.
        for (const student::ExerciseSize& z : x->sizes)
            cases.push_back(info.family == sim::Family::Matmul
                                ? sim::matmulScenario(info.name, z.j, z.k, z.l, t, {}, o.seed)
                                : sim::convScenario(info.name, z.height, z.width, t, x->maskWidth, {}, o.seed));
    } else if (info.family == sim::Family::Array) {
        // An array problem: the header's sizes, or --width (and --height) in their place.
        sim::Scenario s;
        ProblemOptions po;
        po.width = o.width;
        po.height = o.height;
        po.seed = o.seed;
        if (const std::string e = toArrayScenario(po, info.name, s); !e.empty()) {
            std::cerr << "tilescope-cli: " << e << "\n";
            return kBadInput;
        }
        cases.push_back(s);
    } else if (info.family == sim::Family::Matmul) {
        struct Size {
            int j, k, l;
        };
        std::vector<Size> sizes;
        if (o.width) sizes.push_back({*o.width, *o.width, *o.width});
        if (o.j) sizes.push_back({*o.j, *o.k, *o.l});
        if (sizes.empty()) {
            sizes.push_back({4 * t, 4 * t, 4 * t});
            if (info.squareOnly) sizes.push_back({2 * t + 3, 2 * t + 3, 2 * t + 3});
            else sizes.push_back({2 * t + 1, t + 3, 3 * t - 1});
        }
        for (const Size& z : sizes) cases.push_back(sim::matmulScenario(info.name, z.j, z.k, z.l, t, {}, o.seed));
    } else {
        // A convolution: Mask_Width 5; in 1D a row of 8 tiles and one of 5 tiles and 3, in 2D
        // 4 x 4 tiles and (2 tiles + 1) x (3 tiles - 1); --width (and --height) replace both.
        const bool twoD = info.family == sim::Family::Conv2D;
        if (o.width) cases.push_back(sim::convScenario(info.name, twoD ? o.height.value_or(*o.width) : 1, *o.width, t, 5, {}, o.seed));
        else if (twoD) {
            cases.push_back(sim::convScenario(info.name, 4 * t, 4 * t, t, 5, {}, o.seed));
            cases.push_back(sim::convScenario(info.name, 2 * t + 1, 3 * t - 1, t, 5, {}, o.seed));
        } else {
            cases.push_back(sim::convScenario(info.name, 1, 8 * t, t, 5, {}, o.seed));
            cases.push_back(sim::convScenario(info.name, 1, 5 * t + 3, t, 5, {}, o.seed));
        }
    }
    for (sim::Scenario& s : cases)
        if (const std::string e = sim::validate(s); !e.empty()) {
            std::cerr << "tilescope-cli: " << e << "\n";
            return kBadInput;
        }
    const gpu::DeviceInfo dev = gpu::queryDevice();
    if (!dev.available) throw gpu::Unavailable(dev.why);
    gpu::StudentBuild build;
    try {
        build = gpu::buildStudentKernel(f->kernel);
    } catch (const gpu::StudentCompileError& e) {
        printCompileErrors(e, o.file);
        return kBadInput;
    }
    std::cout << "verify " << o.file << " (kernel " << info.name << ") on " << dev.name << " (compute capability "
              << dev.computeCapability() << "): NVRTC " << build.architecture << " in " << std::fixed
              << std::setprecision(3) << build.compileSeconds << " s, " << build.registers << " registers, "
              << build.staticSharedBytes << " B shared\n"
              << std::defaultfloat;
    int passed = 0, failed = 0;
    for (const sim::Scenario& s : cases) {
        sim::SimOptions so;
        so.trace = false;
        so.threads = o.threads;
        const sim::Simulation r = sim::simulate(s, so);
        std::string why;
        if (!r.error.empty()) {
            why = "the simulator stopped the kernel: " + r.error + " (it is not run on the GPU)";
        } else {
            try {
                why = firstDifference(gpu::runStudentPlain(f->kernel, s, r.M, r.N), r.P,
                                      info.family == sim::Family::Matmul  ? s.l
                                      : info.family == sim::Family::Array ? r.arrays.at(2).cols
                                                                          : s.width);
                if (!why.empty()) why = "GPU P differs from the simulator's: " + why;
                else if (!r.matchesReference)
                    why = "P differs from the CPU reference, in the simulator and on the GPU alike (GPU P bit-exact with "
                          "the simulator's; simulate --kernel-file shows where)";
            } catch (const gpu::LaunchError& e) {
                why = e.what();
            }
        }
        std::cout << std::left << std::setw(27) << info.name << " tile " << std::setw(2) << s.tile << "  "
                  << (info.family == sim::Family::Matmul
                          ? std::to_string(s.j) + "x" + std::to_string(s.k) + "x" + std::to_string(s.l)
                          : info.family == sim::Family::Array
                          ? std::to_string(s.height) + "x" + std::to_string(s.width)   // no mask
                          : std::to_string(s.height) + "x" + std::to_string(s.width) + ", Mask_Width " +
                                std::to_string(s.maskWidth))
                  << ": "
                  << (why.empty() ? "pass (GPU P bit-exact with the simulator's and the CPU reference)" : "FAIL: " + why)
                  << "\n";
        (why.empty() ? passed : failed)++;
    }
    std::cout << passed << " passed, " << failed << " failed\n";
    return failed ? kCheckFailed : kOk;
}

}  // namespace ts::cli
