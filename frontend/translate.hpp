// A student's kernel in plain CUDA, as PMPP prints it, turned into the project's
// single-source form (kernels/context.cuh) so that the simulator can run it: the same text
// with the kernel made a template over the execution context (template parameter
// TsContext, not the kernels' X, so that a student may name a parameter X), its pointer
// parameters made the context's GlobalPtr, threadIdx / blockIdx / blockDim / gridDim and __syncthreads() read
// from the context, and each __shared__ array declared through the context. Where nvcc
// does something the host compiler would not, the context is asked to do it: a multiply-add
// of registers becomes its fmaf (nvcc's FFMA), a float4 access its 128-bit ldg4 / lds4 /
// stg4 / sts4, and an iteration of a `#pragma unroll` loop is tagged with its number
// (x.unrolled, for the warp memory model). Nothing else of the student's text changes and
// every line keeps its number, so the simulator's source lines are the student's.
//
// The C++ front end is Debian's libclang (clang-c/Index.h): the file is parsed as C++17
// after a small prelude that declares the CUDA names it may use, and every edit is placed
// from the syntax tree, never by matching C++ text.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace ts::student {

/// One problem with the student's file, as a compiler reports it: 1-based line and column
/// in the student's file (0 when it concerns the whole file).
struct Diagnostic {
    unsigned line = 0, column = 0;
    std::string message;
};

/// A parameter of the student's __global__ kernel. A pointer's kind says whether the kernel
/// may write through it (ConstFloatPointer: an input it only reads); `element` is the type it
/// points to: "float", "int", "unsigned int" or "char" (PMPP ch. 9's text, read only, so a
/// `char*` is an input whatever its const).
struct KernelParam {
    enum class Kind { FloatPointer, ConstFloatPointer, Int };
    std::string name;
    Kind kind = Kind::Int;
    unsigned line = 0;
    std::string element = "float";
};

/// A __shared__ array of the kernel: its name, its extents (1 or 2, in elements, as the
/// front end evaluated them) and the line it is declared on.
struct SharedArray {
    std::string name;
    std::vector<long long> extents;
    unsigned line = 0;
};

/// A local array of one thread (registers, or local memory on the GPU): its name, its size
/// in bytes as the front end lays it out, and the line it is declared on.
struct LocalArray {
    std::string name;
    uint64_t bytes = 0;
    unsigned line = 0;
};

/// What translateCuda() makes of a file.
struct Translation {
    /// The kernel in the single-source form: a function template
    /// `template <class TsContext> TS_DEVICE void NAME(TsContext& ts_ctx, ...)`, line for line the student's
    /// text. Empty when `errors` is not.
    std::string code;
    std::string kernelName;
    std::vector<KernelParam> params;
    std::vector<SharedArray> shared;
    /// The file's __constant__ array (at most one: the convolution mask, 1D or square 2D),
    /// which the simulator keeps in its constant memory.
    std::vector<SharedArray> constants;
    /// The __device__ helper functions the kernel may call, in the file's order.
    std::vector<std::string> helpers;
    /// Object-like macros of the file whose value is one integer literal (`#define
    /// TILE_WIDTH 16`), in the order they are defined.
    std::vector<std::pair<std::string, long long>> defines;
    /// Lines of the __syncthreads() calls, in the order they appear.
    std::vector<unsigned> barrierLines;
    /// Every local variable of array type in the kernel and its __device__ helpers, in the
    /// order the front end meets them.
    std::vector<LocalArray> locals;
    /// The sum of their bytes: a bound of one thread's local arrays, as if every helper's
    /// were live at once (the simulator sizes a thread's stack from it).
    uint64_t localBytes = 0;
    /// Compile errors and unsupported constructs, each with its line; the translation is
    /// usable only when this is empty.
    std::vector<Diagnostic> errors;

    bool ok() const { return errors.empty(); }
    /// The integer value of macro `name`, if the file defines one.
    const long long* define(const std::string& name) const;
};

/// Translates the student's CUDA `source`, read from `fileName` (used in messages only).
/// First scanKernelFile() (frontend/scan.hpp) looks at its tokens: what it refuses is
/// returned, by line, and nothing of the file is preprocessed or parsed. Then it
/// accepts one __global__ kernel with float pointer and int parameters, __shared__ float
/// arrays of constant size (1D or 2D), one __constant__ float array (the convolution mask),
/// __device__ helper functions defined before the kernel, the CUDA built-in index
/// variables, __syncthreads(), loops, branches, integer #defines and 128-bit accesses
/// through float4 (`*reinterpret_cast<const float4*>(&M[i])`, which become the context's
/// ldg4 / lds4 / stg4 / sts4). A multiply-add of float registers (`acc += a * b`) becomes
/// the context's fmaf, as nvcc contracts it into an FFMA. The math functions of
/// allowedFunctions() are declared with CUDA's overloads (student/cuda_math.hpp gives the
/// module the same). Anything else it finds (a second kernel, host code, dynamic shared
/// memory, atomics, warp intrinsics, printf, recursion, a call of a function that is neither
/// allowed nor a __device__ function of the file, a function declared inside a function,
/// C++ errors) is an error naming its line. Never throws for a bad file; throws
/// std::runtime_error only when libclang itself cannot start.
Translation translateCuda(const std::string& source, const std::string& fileName);

/// `file:line:col: error: message`, as compilers print it (no line or column when 0).
std::string formatDiagnostic(const std::string& fileName, const Diagnostic& d);

}  // namespace ts::student
