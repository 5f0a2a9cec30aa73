// The first look at a student's kernel file, before anything in it is preprocessed, parsed,
// compiled or run: its tokens as libclang's lexer splits them, with no file opened and no
// macro expanded. What a kernel file has no use for, and what could reach outside the
// simulator (an #include, inline assembly, a linkage block, a compiler built-in, a call of a
// function that is neither the file's own nor on the allowlist, a declaration that is not a
// kernel's), is refused here with one sentence and its line; so is a file too large, too
// long or too deeply nested for the front end, found by counting, never by expanding its
// #defines. docs/student-kernels.md lists what is refused and why.
#pragma once
#include <cstddef>
#include <string>
#include <vector>

#include "frontend/translate.hpp"

namespace ts::student {

/// Limits of scanKernelFile(); each refusal names the limit it hit.
struct ScanLimits {
    size_t maxBytes = 256 * 1024;        ///< the file's size
    size_t maxTokens = 50000;            ///< tokens as written
    size_t maxExpandedTokens = 200000;   ///< tokens once every #define is expanded (counted, never expanded)
    size_t maxStatementTokens = 4096;    ///< tokens of one statement (or file-scope declaration) after expansion
    int maxNesting = 64;                 ///< ( [ { nested, after expansion
};

/// Scans the text of a kernel file with libclang's lexer (raw tokens, no preprocessing: no file is opened,
/// no macro is expanded) and returns what it refuses, each a Diagnostic (frontend/translate.hpp) with the
/// line and column and one sentence; empty when the file may go on to translation. Never throws for any
/// input, never reads a file or standard input, never crashes (fuzzed).
std::vector<Diagnostic> scanKernelFile(const std::string& source, const ScanLimits& limits = {});

/// The functions a kernel may call besides the file's own __device__ functions, as documented in
/// docs/student-kernels.md (CUDA built-ins and math functions that the CPU and the GPU round alike).
const std::vector<std::string>& allowedFunctions();

/// Why a kernel may not use the CUDA or C name `name` (an atomic, a warp intrinsic, printf,
/// malloc, a math function the CPU and the GPU round differently, ...), as one sentence that
/// begins with the name; empty for a name this table does not know.
std::string unsupportedName(const std::string& name);

}  // namespace ts::student
