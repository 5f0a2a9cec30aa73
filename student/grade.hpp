// Grading a student's kernel file against an exercise (student/exercise.hpp): it compiles,
// then on each hidden size it runs without a fault, gives P bit for bit as the CPU
// reference, has no shared-memory race and no barrier only part of a block reaches, and it
// passes the exercise's own checks (tiles, coalesced loads of N, one thread per row or
// column, thread coarsening). Every run happens in a confined child process
// (student/confined_run.hpp), so an endless loop, a crash or a hostile kernel never takes
// the grader down or reaches the machine. No UI
// and no printing: the caller (tilescope-cli grade) shows the checks.
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "student/exercise.hpp"
#include "student/module.hpp"

namespace ts::student {

/// The verdict of one check. Every submission of an exercise gets the same list of checks,
/// in the same order (checkNames()); one not judged because an earlier one failed is
/// failed with a diagnosis that starts "not run: ".
struct Check {
    std::string name;        ///< "compiles", "runs 33x17x45", "correct 64x64x64", "coalesced", "gpu", ...
    bool passed = false;
    bool skipped = false;    ///< not judged here (no GPU): counts as passed
    /// One sentence: why it failed, with the student's file:line where there is one; what
    /// was checked when it passed.
    std::string diagnosis;
    unsigned line = 0;       ///< the line in the student's file the diagnosis names; 0 none
    double points = 0;       ///< what it earned: its max_points when passed or skipped, else 0
    double maxPoints = 0;    ///< Exercise::points.of(name)
};

/// What grade() found.
struct Grade {
    std::string exercise;    ///< the exercise's name
    std::string kernelFile;
    std::vector<Check> checks;
    double seconds = 0;      ///< wall time of the whole grade, compile included
    /// Every check passed (or was skipped).
    bool passed() const;
    /// The points earned and the points there were, over all checks.
    double score() const;
    double maxScore() const;
};

/// The checks every submission of exercise `x` gets, in order: compiles, tiled (when
/// asked), then for each hidden size runs, barriers, correct, no races and initialised
/// shared, then the exercise's own checks (one thread per row / column, thread coarsening,
/// convergent, atomics per block, coalesced) and gpu.
std::vector<std::string> checkNames(const Exercise& x);

/// How grade() builds and runs.
struct GradeOptions {
    std::string cacheDir;    ///< LoadOptions::cacheDir
    bool useCache = true;    ///< LoadOptions::useCache
};

/// Grades the kernel file `kernelFile` on exercise `x`. A file that does not compile gives
/// one failing `compiles` check (the front end's or the compiler's first error, as a
/// compiler prints it) and nothing else; otherwise every hidden size is run in its own
/// confined child process with a wall-time and a memory limit. The exercise's own checks are judged
/// on its last hidden size. Never throws for a bad kernel.
Grade grade(const Exercise& x, const std::string& kernelFile, const GradeOptions& options = {});

/// The `gpu` check: the student's kernel (loaded as `loaded`, at tile `tile`) built with
/// NVRTC (gpu/student_launch.hpp), run on the GPU on the exercise's last hidden size, its P
/// compared with the simulator's bit for bit and its median time with the reference
/// kernel's. nullopt where there is no GPU: grade() then reports the check as skipped.
std::optional<Check> timeOnGpu(const Exercise& x, const std::string& kernelFile, const LoadResult& loaded, int tile);

}  // namespace ts::student
