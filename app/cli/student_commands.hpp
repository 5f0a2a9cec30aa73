// A student's kernel file in tilescope-cli beyond `simulate`: `translate` (save the file's
// translation for a machine without libclang), `verify --kernel-file` (the file on the GPU
// through NVRTC against the simulator, bit for bit) and what `bench --kernel-file` needs to
// load it (spec: docs/cli.md, docs/student-kernels.md).
#pragma once
#include <CLI/CLI.hpp>
#include <optional>
#include <string>
#include <vector>

#include "gpu/student_launch.hpp"
#include "sim/catalogue/kernel_info.hpp"

namespace ts::cli {

/// The options of `translate`.
struct TranslateOptions {
    std::vector<std::string> files;   ///< --kernel-file, one or more
    std::string out;                  ///< --out: the folder of saved translations
};

/// Registers the `translate` subcommand on `app`, writing into `o`; returns it.
CLI::App* addTranslateCommand(CLI::App& app, TranslateOptions& o);

/// Runs `translate`: translates each file with libclang and saves it in o.out
/// (frontend/translation_file.hpp), one line per file. Exit status 0; 2 when a file does not
/// translate (its errors as a compiler prints them) or this build has no libclang.
int runTranslate(const TranslateOptions& o);

/// A kernel file loaded into the simulator (registered under its kernel's name) and ready
/// for the GPU.
struct StudentFile {
    const sim::KernelInfo* info = nullptr;
    gpu::StudentKernel kernel;
};

/// Loads `path` (student::loadKernelSource) and its translation for the GPU, with the launch
/// of exercise `exercise` when one is named (student/exercise.hpp: `grade`'s launch);
/// prints its errors as a compiler does (an unknown exercise: one sentence) and returns
/// nothing when it cannot be loaded (exit kBadInput).
std::optional<StudentFile> loadStudentFile(const std::string& path, const std::string& exercise = "");

/// Prints NVRTC's errors in the student's file, one compiler-style line each.
void printCompileErrors(const gpu::StudentCompileError& e, const std::string& path);

/// The sizes of `verify --kernel-file`.
struct StudentVerifyOptions {
    std::string file;
    std::string exercise;   ///< --exercise: its launch, and its hidden sizes as the cases
    std::optional<int> width, height, j, k, l, tile;
    unsigned long long seed = 2026;
    unsigned threads = 0;
};

/// Adds --kernel-file, --width, --j, --k, --l and --tile to `verify`.
void addStudentVerifyOptions(CLI::App* verify, StudentVerifyOptions& o);

/// Runs `verify --kernel-file`: the file at a square size (Width 4 x tile, or --width) and
/// a ragged one (2t+1 x t+3 x 3t-1, or Width 2t+3 for a square kernel; or --j --k --l); a
/// convolution at Mask_Width 5 on 8 tiles and 5 tiles + 3 (1D), 4 x 4 tiles and
/// 2t+1 x 3t-1 (2D), or --width (--height); with --exercise, at the exercise's hidden
/// sizes with its launch; each on the GPU and in the simulator, P compared bit for bit and with the CPU reference; one
/// pass / FAIL line each and a count. Exit 0, 1 when a case fails, 2 for a bad file or
/// size, 3 without a GPU.
int runStudentVerify(const StudentVerifyOptions& o);

}  // namespace ts::cli
