// An array problem (sim/catalogue/array_spec.hpp) read from the three texts that state it:
// its arrays ("in A[n], in B[n], out C[n]"), its sizes with their defaults ("n = 1000") and
// its reference formula ("C[i] = A[i] + B[i]"). A student's file gives them in its header
// (student/module.hpp), an exercise in its [launch] table, a registry row in
// KernelInfo::arrays, sizes and formula: one reader for all three, so a built-in kernel and a
// student's are described the same way.
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "sim/catalogue/array_spec.hpp"
#include "sim/engine/progress.hpp"

namespace ts::sim {

/// `text` as a sentence quotes it: whole when short, else its first 60 characters and an
/// ellipsis, so that a refusal stays one readable line whatever a file holds.
std::string shortQuote(const std::string& text);

/// `text` split at its commas, each part trimmed ("a, b" -> {"a", "b"}).
std::vector<std::string> splitCommas(const std::string& text);

/// The values of input `a` (`count` elements; `seed` and `stream` as for randomInput): the
/// character codes of `text` for a char input (textValues), integers from a.lo to a.hi when it
/// is an input of integers, else randomInput's values.
std::vector<float> inputValues(const ArrayDecl& a, size_t count, uint64_t seed, uint64_t stream,
                               const Progress& progress = {}, const TextInput& text = {});

/// Where a fault in an array problem's texts belongs: the line a file's header would show it on.
enum class ArraySpecPlace { Family, Arrays, Sizes, Reference };

/// One fault: its place and one sentence (no final period, as a diagnostic).
struct ArraySpecFault {
    ArraySpecPlace place = ArraySpecPlace::Arrays;
    std::string message;
};

/// The array problem the texts state, checked: names, defaults (1 to 2^24), at most two
/// sizes, arrays of one to three extents that evaluate to at least 1 at the defaults, one
/// output, at most two inputs, and a formula that parses (and, when the arrays are small
/// enough, computes at the defaults). Null with `fault` set at the first fault. `file`
/// names the file in later messages (ArraySpec::file). `blockDim` > 0: a registry row's text,
/// whose extents may use BLOCK_DIM (that value at the defaults) and which may declare up to
/// ArraySpec::kMaxScratch scratch arrays (`tmp unsigned flags[N / BLOCK_DIM + 1]`, starting
/// at 0 or `= VALUE`); 0: a student's file or an exercise, which may do neither.
std::shared_ptr<ArraySpec> readArraySpec(const std::string& arrays, const std::string& sizes, const std::string& reference,
                                         const std::string& file, ArraySpecFault& fault, int blockDim = 0);

}  // namespace ts::sim
