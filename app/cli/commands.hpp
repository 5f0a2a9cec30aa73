// The subcommands of tilescope-cli and their options.
#pragma once
#include <CLI/CLI.hpp>
#include <optional>
#include <string>
#include <vector>

#include "grade_command.hpp"
#include "occupancy_command.hpp"
#include "reduction_table_command.hpp"
#include "roofline_command.hpp"
#include "student_commands.hpp"
#include "sim/files/scenario_file.hpp"

namespace ts::cli {

/// Exit statuses of the spec.
enum Exit { kOk = 0, kCheckFailed = 1, kBadInput = 2, kNoGpu = 3 };

/// Problem-size options shared by simulate and bench.
struct ProblemOptions {
    std::string kernel;
    std::optional<int> width, j, k, l;
    std::optional<int> height, maskWidth;   ///< convolution only (app/cli/conv_options.hpp)
    /// Elements per side; validate() refuses what cannot launch. Unset: the kernel's default
    /// tile (KernelInfo::defaultTile: 16 for PMPP's kernels, the tuned one of a ladder rung).
    std::optional<int> tile;
    unsigned long long seed = 1;
    /// A histogram's text (PMPP ch. 9; a kernel with a `char` input): a text file read whole
    /// (at most 1 MiB of text; sim::checkText), or random letters with this percent of 'e'.
    /// Neither: the book's phrase.
    std::string textFile;
    std::optional<int> textSkew;
    /// A student's CUDA file (--kernel-file): compiled, loaded and registered under its
    /// kernel's name (student/module.hpp); simulate runs it instead of --kernel, bench times
    /// it beside the --kernel list (gpu/student_launch.hpp).
    std::string kernelFile;
    /// --kernel-file --exercise NAME: the exercise whose launch the file gets (simulate: and its
    /// public size, unless sizes are given).
    std::string exercise;
};

/// The tile of `o` (--tile), or the default of kernel `kernel` (KernelInfo::defaultTile)
/// when none was given.
int tileOrDefault(const ProblemOptions& o, const std::string& kernel);

/// Adds --allow-unconfined to subcommand `c`: a student's kernel file runs even where no
/// sandbox can be made (student/confine.hpp, docs/security.md).
void addUnconfinedFlag(CLI::App* c);

/// The lecture preset or scenario file `name` (sim::findPreset), or nothing after one
/// sentence on stderr (an unknown name, a malformed file): the caller then exits kBadInput.
std::optional<sim::Preset> presetOrSay(const std::string& name);

/// Registers every subcommand on `app`; run() executes the one that was parsed.
class Commands {
public:
    explicit Commands(CLI::App& app);
    int run();

private:
    CLI::App* simulate_;
    CLI::App* bench_;
    CLI::App* verify_;
    CLI::App* listKernels_;
    CLI::App* gpuRun_;
    CLI::App* occupancy_;
    OccupancyOptions occOpt_;
    CLI::App* reductionTable_;
    ReductionTableOptions reductionOpt_;
    CLI::App* roofline_;
    RooflineOptions rooflineOpt_;
    CLI::App* translate_;
    TranslateOptions translateOpt_;
    StudentVerifyOptions studentVerifyOpt_;   ///< verify --kernel-file and its sizes
    CLI::App* grade_;
    GradeOptions gradeOpt_;

    ProblemOptions simOpt_, benchOpt_;
    std::string block_;
    int launch_ = 1;   ///< simulate --launch: the traced launch of a row of several
    std::string schedule_ = "in-order";
    unsigned long long scheduleSeed_ = 1;
    std::string dropBarrier_;
    bool hazardReport_ = false;
    bool simJson_ = false;
    bool noMemoryModel_ = false;   ///< --no-memory-model: skip warps and transactions
    bool simYes_ = false;       ///< --yes: run a simulation estimated to take long
    /// --threads of simulate, gpu-run and verify: the simulation's worker threads
    /// (sim::SimOptions::threads); 0 when left out, one per core.
    unsigned simThreads_ = 0;
    bool simQuiet_ = false;     ///< --quiet: no progress line
    int reps_ = 20;
    bool benchJson_ = false;
    /// --out FILE of bench: the results file (the JSON object with the driver, the date and
    /// the measured ceilings), for the app and `roofline --results`.
    std::string benchOut_;
    bool verifyQuick_ = false;
    ProblemOptions gpuRunOpt_;
    std::string gpuRunDrop_;
    int gpuRuns_ = 100;
    bool gpuRunYes_ = false;
    bool gpuRunQuiet_ = false;
    unsigned long long verifySeed_ = 2026;

    int runSimulate();
    int runBench();
    int runVerify();
    int runListKernels();
    int runGpuRun();
};

}  // namespace ts::cli
