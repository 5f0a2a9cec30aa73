// A student's CUDA file made into a kernel TileScope can simulate: translated to the
// single-source form (frontend/translate.hpp), built in a child process by the same compiler
// as TileScope into a shared module (cached by the hash of what is built), loaded with
// dlopen, and registered under the kernel's own name (sim/catalogue/loaded_kernels.hpp), so
// that a scenario naming it runs like a built-in kernel.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "sim/catalogue/kernel_info.hpp"
#include "frontend/translate.hpp"

namespace ts::student {

/// What a kernel file solves and how it is launched, written in the file as comment lines
///
///     // tilescope: family = conv1d
///     // tilescope: block = TILE_SIZE
///     // tilescope: grid = (Width + TILE_SIZE - 1)/TILE_SIZE
///     // tilescope: N = column-major
///     // tilescope: args = M, N, P, j, k, l
///
/// or given by an exercise (LoadOptions::launch). The grid and block are one to three
/// integer expressions, x first, of the problem's sizes (matmul: j, k, l, or Width for a
/// square kernel; conv1d: Width; conv2d: height, width; both: Mask_Width) and the file's
/// integer #defines, with + - * / and parentheses as C writes them. An empty field means
/// "from the file, else the family's default launch" (docs/student-kernels.md).
struct LaunchHeader {
    std::string family;    ///< "matmul", "conv1d", "conv2d" or "array"
    std::string grid;      ///< "X[, Y[, Z]]", in blocks
    std::string block;     ///< "X[, Y[, Z]]", in threads
    std::string nLayout;   ///< matmul's N: "row-major" or "column-major" (PMPP sec. 6.1's corner turning)
    // An array problem (family = array, docs/student-kernels.md "Your own array problem"):
    std::string arrays;    ///< "in A[n], in B[n], out C[n]": one or two inputs, one output, extents of the sizes
    std::string sizes;     ///< "n = 1000" or "rows = 48, cols = 64": the size names and their defaults
    std::string reference; ///< "C[i] = A[i] + 2.0f * B[i]": the CPU reference formula (sim/engine/array_formula.hpp)
    /// The launch's arguments by position, in the problem's terms ("M, N, P, j, k, l", or
    /// "A = M, B = N, ..."; student::bindArguments): the kernel's parameter names are then
    /// free. Empty: each parameter's role follows from its name (frontend/kernel_roles.hpp).
    std::string args;
};

/// How loadKernelFile() builds.
struct LoadOptions {
    /// Fields that are not empty replace the file's own `// tilescope:` header lines.
    LaunchHeader launch;
    /// Where compiled modules are kept; empty: $TILESCOPE_CACHE_DIR, else
    /// $XDG_CACHE_HOME/tilescope/kernels, else ~/.cache/tilescope/kernels.
    std::string cacheDir;
    /// Use a module compiled before from the same text (false: always compile).
    bool useCache = true;
    /// The compiler's time limit, in seconds; past it the child is killed and the load fails.
    double compileSeconds = 120;
};

/// What loading a kernel file gave.
struct LoadResult {
    /// The registry entry the kernel was registered under (its name is the __global__
    /// function's); nullptr when `errors` is not empty.
    const sim::KernelInfo* info = nullptr;
    /// Errors in the student's file (line and column in it), or about the build itself
    /// (line 0), in the order a compiler prints them.
    std::vector<Diagnostic> errors;
    bool fromCache = false;        ///< the module was compiled before and only loaded
    double translateSeconds = 0;   ///< libclang's parse and the edits
    double compileSeconds = 0;     ///< the compiler's child process (0 from the cache)
    double loadSeconds = 0;        ///< dlopen and registration
    std::string modulePath;        ///< the shared module loaded

    bool ok() const { return info != nullptr && errors.empty(); }
};

/// What is wrong with an array problem's three header lines given apart from a kernel file
/// (an exercise's [launch] `arrays`, `sizes` and `formula`): the key at fault and one
/// sentence; nullopt when they read and the formula evaluates at the default sizes.
struct ArrayProblemFault {
    std::string key;       ///< "arrays", "sizes" or "formula"
    std::string message;
};
std::optional<ArrayProblemFault> checkArrayProblem(const std::string& arrays, const std::string& sizes, const std::string& formula);

/// The calling executable must export the simulator to the module (CMake ENABLE_EXPORTS) and
/// link what a kernel calls into (sim::simulate() brings it all).
///
/// Loads the CUDA kernel file `path` (see translateCuda() for what it may contain). A
/// matrix multiplication kernel: pointer parameters named M, N and P (else the first two are
/// the inputs and the third the output), int parameters j, k and l (M j x k, N k x l), or
/// Width (or width, n) for a square problem. Its TILE_WIDTH (TILE_SIZE) #define, if it
/// declares __shared__ arrays, is its only tile. Errors, never exceptions, for a bad file
/// or a failed build.
LoadResult loadKernelFile(const std::string& path, const LoadOptions& options = {});
/// The same for the text `source` of a file called `fileName` (named in messages and in the
/// Code panel).
LoadResult loadKernelSource(const std::string& source, const std::string& fileName, const LoadOptions& options = {});

/// The largest kernel file TileScope reads, in bytes (the front end's limit too,
/// frontend/scan.hpp).
inline constexpr uint64_t kMaxKernelFileBytes = 256 * 1024;

/// The text of kernel file `path`, read without ever blocking or reading past
/// kMaxKernelFileBytes; nullopt with `error` one sentence for a file that cannot be read,
/// is not a regular file (a FIFO, /dev/stdin, /dev/zero) or is too large.
std::optional<std::string> readKernelText(const std::string& path, std::string& error);

/// The folder compiled modules are kept in when LoadOptions::cacheDir is empty.
std::string defaultCacheDir();

}  // namespace ts::student
