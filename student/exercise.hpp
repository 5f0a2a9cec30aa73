// An exercise for a course (PMPP ch. 3-7): one TOML file, assets/exercises/NAME.toml, that
// holds the statement a student reads, the starter file they begin from, the launch their
// kernel gets, the registry kernel it is timed against and the checks that apply beyond
// correctness; the hidden problem sizes it is graded on and the points of each check are in
// a grading file of their own (assets/exercises/grading/NAME.toml), which students need not
// be shown (docs/exercises.md). No UI.
#pragma once
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "student/module.hpp"

namespace ts::student {

/// A malformed or missing exercise file: one sentence naming the file (and the line where
/// there is one), "assets/exercises/x.toml, line 4: sizes must be ...".
struct ExerciseError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

/// One hidden problem size. Matmul: M is j x k, N is k x l. conv1d: N has `width`
/// elements (height 1); conv2d: `height` x `width`.
struct ExerciseSize {
    int j = 0, k = 0, l = 0;
    int height = 1, width = 0;
    /// An array exercise with two sizes: height is the first, width the second.
    bool twoD = false;

    /// "33x17x45" (matmul), "100" (conv1d), "20x37" (conv2d: height x width).
    std::string text(const std::string& family) const;
};

/// The checks an exercise asks for beyond compiling, running, a correct P, no race and no
/// barrier divergence, which every exercise has.
struct ExerciseChecks {
    /// The kernel must declare __shared__ arrays (a tiled kernel, PMPP sec. 5.4).
    bool tiled = false;
    /// The kernel's global loads of N must take no more 32-byte sectors per request than
    /// the reference kernel's, within 25 % (coalescing, PMPP sec. 6.1).
    bool coalesced = false;
    /// "row": one thread computes each whole row of P; "column": each whole column; "" no
    /// check (PMPP ch. 3's exercise 1).
    std::string onePer;
    /// At least this many P elements per writing thread, on average (thread coarsening,
    /// PMPP sec. 6.3); 0: no check.
    int minOutputsPerThread = 0;
    /// "convergent" (PMPP sec. 10.4): at no marked branch of the traced block does a warp
    /// diverge while more than 32 of the block's threads take that branch (judged per
    /// execution: the n-th time each thread evaluates the line). The student's branches are
    /// marked by the front end (docs/student-kernels.md).
    bool convergent = false;
    /// The global atomics each block must make, exactly (PMPP sec. 10.7: one atomicAdd of
    /// the block's partial sum); 0: no check. Judged on Totals::global_atomics.
    int atomicsPerBlock = 0;
    /// atomicsPerBlock is a ceiling, not an exact count (`atomics_per_block_at_most`): PMPP
    /// Fig. 9.10's privatized histogram makes at most NUM_BINS global atomics a block, one per
    /// non-empty bin.
    bool atomicsAtMost = false;
    /// The most float adds the launch may make (`adds_at_most`, the `work` check; PMPP sec.
    /// 11.3's work efficiency): Totals::fadds, the adds with an element of memory as an
    /// operand, judged on the last hidden size; 0: no check. A Kogge-Stone scan of a section of 1024
    /// makes 9217, a Brent-Kung one 2036.
    int addsAtMost = 0;
};

/// Points per check, for a course's gradebook (tilescope-cli grade --submissions, the
/// platforms' results files): by kind of check, each hidden size's `runs`, `barriers`,
/// `correct`, `no races` and `initialised shared` counting apart. The defaults are in
/// docs/exercises.md; the grading file's [points] table changes them.
struct ExercisePoints {
    double compiles = 1, tiled = 1, runs = 1, barriers = 1, correct = 2, noRaces = 1, initialisedShared = 1;
    double coalesced = 1, onePer = 1, threadCoarsening = 1, convergent = 1, atomicsPerBlock = 1, work = 1, gpu = 0;

    /// The points of the check called `checkName` ("correct 33x17x45": correct).
    double of(const std::string& checkName) const;
};

/// One exercise, as read from its file.
struct Exercise {
    std::string name;        ///< the file's name without .toml
    std::string path;        ///< the TOML file
    std::string title;
    std::string section;     ///< the PMPP section it comes from ("5.5")
    std::string statement;   ///< Markdown, for the student
    /// Path of the starter .cu file: beside the TOML file, or for a starter given in the file
    /// itself (`starter_code`) the copy written into the kernel cache's starters/ folder.
    std::string starter;
    /// The registry kernel the time is compared with ("matmul-tiled"); empty for an array
    /// exercise whose reference is its formula (launch.reference); a described registry row
    /// (stencil-basic) for an array exercise that takes its problem from that row.
    std::string reference;
    LaunchHeader launch;     ///< family always set; the other fields may be empty
    /// The scenario's tile: TILE_WIDTH / block edge for the matmul launch; output TILE_SIZE
    /// for convolution. 0: the kernel file's TILE_WIDTH (TILE_SIZE), else 16.
    int tile = 0;
    int maskWidth = 5;       ///< convolution: Mask_Width of the hidden runs
    /// The hidden sizes the grader runs: from the grading file (`grading`), else the
    /// exercise file's own `sizes`.
    std::vector<ExerciseSize> sizes;
    /// The size a student may run and look at (`simulate --exercise`, the app); when the file
    /// gives none, the family's default problem.
    std::optional<ExerciseSize> publicSize;
    /// The grader's file with the hidden sizes and the points (`grading = "grading/NAME.toml"`,
    /// beside the exercise file); empty when the exercise file holds its sizes itself.
    std::string gradingFile;
    ExercisePoints points;
    ExerciseChecks checks;
};

/// Reads the exercise file `path`. Throws ExerciseError (file and line) for anything
/// malformed: an unknown key, a missing one, a value of the wrong type or range, a starter
/// file that does not exist, a reference kernel the registry does not know.
Exercise loadExercise(const std::string& path);

/// The same from the text `content` of the file `path` (the starter is looked for beside it).
Exercise parseExercise(const std::string& content, const std::string& path);

/// The folder of the shipped exercises: the `exercises` folder beside the lecture presets'
/// (sim::presetDirectory(): $TILESCOPE_ASSETS, an installed share/tilescope/assets, else the
/// source tree's assets).
std::string exerciseDirectory();

/// The exercise `nameOrPath`: a shipped one by name ("tiled-matmul"), or the path of an
/// instructor's own .toml file. Throws ExerciseError, naming the shipped ones, when neither.
Exercise findExercise(const std::string& nameOrPath);

/// Every shipped exercise, sorted by name. A malformed one throws.
std::vector<Exercise> listExercises();

}  // namespace ts::student
