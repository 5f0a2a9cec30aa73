// What an array problem (Family::Array: a student's own element-wise, 1D or 2D kernel, or a
// registry row described the same way, such as PMPP's 3D stencil) is: its sizes, its arrays
// with their shapes and roles, and its CPU reference formula, as a kernel file's launch
// header, an exercise or a registry row (KernelInfo::arrays, sizes, formula) gives them.
// Plain data and the few rules that turn a scenario into sizes and shapes; the texts are read
// by sim/engine/array_spec_text.hpp, the formula by sim/engine/array_formula.hpp.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "sim/teaching/expression.hpp"

namespace ts::sim {

struct Scenario;

/// The type of an array's elements, as the kernel declares the pointer: `float` (the
/// default), `int`, `unsigned` (PMPP ch. 9's bins, `out unsigned histo[7] = 0`) or `char`
/// (an input only: text, `in char data[N]`). Every element is held in a float slot
/// (sim/engine/context.hpp, kElementType); the GPU's buffers hold the declared type.
enum class ElementType { Float, Int, Unsigned, Char };

/// The C name of `t` ("float", "int", "unsigned int", "char") and its size in bytes.
const char* elementTypeName(ElementType t);
int elementBytes(ElementType t);

/// Where the characters of a `char` input come from (PMPP ch. 9's text histograms): a text
/// the user gave (a file opened in the app, `--text-file`, a scenario's `text`), repeated to
/// the array's length; else random lowercase letters and spaces, `skew` percent of them the
/// letter 'e' (0..100), when skew >= 0; else the book's phrase "programming massively parallel
/// processors" repeated.
struct TextInput {
    std::string text;
    int skew = -1;
};

/// The most characters a text input may have (1 MiB), and the check a text must pass: at
/// most that long, not empty, and text: printable ASCII, tabs and line breaks, and valid
/// UTF-8 sequences (a NUL or other control byte, or a stray byte above 127, is a binary
/// file). Returns "" or one sentence naming `what` and the first offending byte's offset.
inline constexpr size_t kMaxTextBytes = 1u << 20;
std::string checkText(const std::string& text, const std::string& what);

/// The book's phrase of PMPP sec. 9.1 that the histogram presets count.
inline constexpr const char* kBookPhrase = "programming massively parallel processors";

/// `count` characters of `in` (as TextInput says), as their codes; `seed` draws the random
/// text.
std::vector<float> textValues(const TextInput& in, size_t count, uint64_t seed);

/// One array of the problem: `in A[n]`, `out B[rows][cols]` or `in in[N][N][N]`.
struct ArrayDecl {
    std::string name;
    bool output = false;
    /// One extent (1D), two (2D, rows first) or three (3D, slices first), each an integer
    /// expression of the sizes.
    std::vector<std::string> extents;
    ElementType type = ElementType::Float;
    /// An input of integers from `lo` to `hi` (`in input[N] = 1..8`): the terms of a sum whose
    /// every order of addition gives the same float (PMPP ch. 10). lo > hi (the default):
    /// pseudo-random 24-bit values in [-1, 1).
    int lo = 1, hi = 0;
    bool integers() const { return lo <= hi; }
    /// An output's value before the launch (`out sum[1] = 0`, a total that atomics add to);
    /// without it the output starts as the simulator's NaN.
    bool hasStart = false;
    float start = 0.0f;
    /// A scratch array of a registry row (`tmp unsigned flags[...]`): global memory the kernel
    /// hands data on through between its blocks (PMPP sec. 11.7's flags and partial sums),
    /// starting at `start` (0 unless given), neither an input nor checked against the
    /// reference. output is false for it.
    bool scratch = false;
};

/// An array's shape in elements: `slices` planes of `rows` x `cols`, row-major (a 1D array is
/// 1 x 1 x n, a 2D one 1 x rows x cols). The simulation's ArrayInfo of a 3D array has
/// slices * rows rows: the planes stacked, plane z starting at row z * rows.
struct ArrayShape {
    int dims = 1;
    int slices = 1, rows = 1, cols = 1;
    long long size() const { return 1ll * slices * rows * cols; }
};

/// An array problem. At most two inputs and exactly one output; the first input is the
/// simulation's M, the second its N, the output its P (sim/engine/problem.hpp), under their
/// own names; a registry row may add up to kMaxScratch scratch arrays (ArrayDecl::scratch),
/// the simulation's arrays after P. A registry row's kernel takes its arguments in `arrays`'
/// order, then its sizes.
struct ArraySpec {
    /// The problem's size names, with their defaults: one (a 1D problem, the scenario's
    /// `width`) or two (the scenario's `height` then `width`).
    std::vector<std::string> sizes;
    std::vector<int> defaults;
    std::vector<ArrayDecl> arrays;
    std::string reference;      ///< `OUT[i] = EXPR`, sim::ArrayFormula
    unsigned referenceLine = 0; ///< its line in the kernel file (0: given elsewhere)
    std::string file;           ///< the kernel file, for messages
    /// The extents may use BLOCK_DIM, the launch's block size (a registry row's --tile, when
    /// its texts name it): a scratch array of one element per block. sizeValues() then holds
    /// it too, after the sizes; `sizes` does not.
    bool blockDim = false;
    static constexpr int kMaxScratch = 3;

    /// The sizes of scenario `s` under their names.
    Variables sizeValues(const Scenario& s) const;
    /// The shape of array `a` for sizes `v`; false, with `error` one sentence, when an extent
    /// cannot be evaluated, is below 1, or the array would have more than 2^26 elements.
    bool shape(const ArrayDecl& a, const Variables& v, ArrayShape& shape, std::string& error) const;
    /// Rows and columns of array `a` as the simulation stores it (rows 1 for 1D; a 3D array's
    /// planes stacked, see ArrayShape); false as above.
    bool shape(const ArrayDecl& a, const Variables& v, int& rows, int& cols, std::string& error) const;
    /// The array called `name`, or null.
    const ArrayDecl* find(const std::string& name) const;
    /// The inputs in order, the output, and the scratch arrays in order.
    std::vector<const ArrayDecl*> inputs() const;
    const ArrayDecl* output() const;
    std::vector<const ArrayDecl*> scratch() const;
};

}  // namespace ts::sim
