// A student's own kernel file in the app (docs/student-kernels.md, "In the app"): built off
// the UI thread (the compiler in a sandbox), run only in a confined child process
// (student/confined_run.hpp) whose Simulation comes back to the app, and described in one
// sentence when it goes wrong. The app watches the file (file_watch.hpp) and calls these
// again on every save.
#pragma once
#include <atomic>
#include <string>
#include <vector>

#include "sim/catalogue/kernel_info.hpp"
#include "sim/engine/simulate.hpp"
#include "sim/files/scenario_file.hpp"

namespace ts::app {

/// What building a kernel file gave: the registry entry of its kernel, or the errors.
struct KernelBuild {
    std::string path;                  ///< the kernel file
    const sim::KernelInfo* info = nullptr;   ///< null when `errors` is not empty
    /// Each error as a compiler prints it, FILE:LINE:COL: error: MESSAGE, with the
    /// student's line and column.
    std::vector<std::string> errors;
    double seconds = 0;                ///< wall time of the translation, compile and load

    bool ok() const { return info && errors.empty(); }
};

/// `errors` (KernelBuild::errors of the file `path`) with the file named by its name alone,
/// as the caption bar and the Code panel give them (its header names the whole path).
std::vector<std::string> errorsByName(const std::vector<std::string>& errors, const std::string& path);

/// Whether this build can load kernel files (it was built with libclang).
bool canLoadKernelFiles();

/// Translates, compiles (or takes from the cache) and loads the kernel file `path`
/// (student::loadKernelFile). Slow the first time (about a second): call it off the UI
/// thread, one call at a time. Never throws.
KernelBuild buildKernelFile(const std::string& path);

/// The problem a student's kernel runs on, as the command line gives it (tilescope --width,
/// --j, --k, --l, --height, --mask-width, --tile); 0: the default.
struct KernelProblem {
    int width = 0;        ///< matmul: the square Width; convolution: N's width
    int j = 0, k = 0, l = 0;   ///< matmul: M j x k, N k x l (all three, instead of width)
    int height = 0;       ///< conv2d: N's height
    int maskWidth = 0;    ///< convolution: Mask_Width
    int tile = 0;         ///< the tile (a tiled kernel's must be its TILE_WIDTH)
};

/// The scenario a student's kernel opens on: `base`'s preset made into one of kernel `k`,
/// traced block (0, 0), with no narration or questions of the preset it replaces. By
/// default the problem is two by two blocks of its tile (its TILE_WIDTH, else 4): a matmul
/// of 2 tiles a side, a conv1d of 2 tiles, a conv2d of 2 x 2 tiles, Mask_Width 5; the
/// fields of `size` that are given replace those.
sim::Preset studentPreset(sim::Preset base, const sim::KernelInfo& k, const KernelProblem& size = {});

/// The kernel file of scenario `s`'s kernel when that is a student's loaded kernel, else "".
std::string kernelFileOf(const sim::Scenario& s);

/// The one sentence that says what is wrong with a student's run `s`, as the Code panel and
/// --print-caption give it: the fault (out-of-bounds access, barrier divergence, with its
/// line), else the first shared-memory race (RAW, WAR or WAW, with both lines, as
/// compute-sanitizer's racecheck words it) or read of a never-written shared slot, else a P
/// that differs from the CPU reference;
/// "" for a run with none of these.
std::string runDiagnosis(const sim::Simulation& s);

/// What went wrong in a run and where to look (issue 37, "the mistake on screen"): the
/// caption bar says `sentence`, the Code panel scrolls to `line`, G (and the caption bar's
/// button) moves the cursor to `step`, and the layout never folds the panels that explain it.
struct Diagnosis {
    enum class Kind { None, Fault, Race, Uninitialised, WrongOutput };
    Kind kind = Kind::None;
    std::string sentence;   ///< runDiagnosis(s); "" for Kind::None
    /// The kernel source line of the event: the faulting access or barrier, the second
    /// access of the first race (the one that saw or clobbered the other), the read of the
    /// never-written slot, the store of the first wrong output element; 0 where none is known.
    unsigned line = 0;
    /// The traced block's step where the event happens (the first such step), or, for an
    /// event in another block, the first step on `line`; -1 where the trace has none.
    int step = -1;
    /// Whether the Hazards panel explains it (a race or a read of a never-written slot).
    bool hazards() const { return kind == Kind::Race || kind == Kind::Uninitialised; }
};

/// The Diagnosis of run `s` (its sentence is runDiagnosis(s)). Never throws.
Diagnosis diagnose(const sim::Simulation& s);

}  // namespace ts::app
