// The CPU reference of an array problem (Family::Array): one element of the output written as
// a C formula, `C[i] = A[i] + 2.0f * B[i]` or `B[r][c] = A[c][r]`, computed for every element
// in the float (or double) arithmetic a CUDA kernel performs. No UI.
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "sim/teaching/expression.hpp"

namespace ts::sim {

/// One array of an array problem as the formula sees it: its name and its shape, in
/// elements (rows 1 for a 1D array), row-major, and its values (inputs only).
struct FormulaArray {
    std::string name;
    int rows = 1, cols = 1;
    bool twoD = false;                       ///< indexed A[r][c] (else A[i])
    const std::vector<float>* values = nullptr;
    /// A 3D array, indexed A[z][r][c]: `slices` planes of rows / slices rows each, stacked
    /// (sim::ArrayShape); twoD is then false.
    bool threeD = false;
    int slices = 1;
    /// Subscripts a read or the left side takes: 1, 2 or 3.
    int dims() const { return threeD ? 3 : twoD ? 2 : 1; }
};

struct ArrayDecl;
struct ArrayShape;
/// Array `a` of shape `sh` as a formula sees it (no values).
FormulaArray formulaArray(const ArrayDecl& a, const ArrayShape& sh);

/// A parsed reference formula `OUT[idx] = EXPR` (1D), `OUT[row][col] = EXPR` (2D) or
/// `OUT[i][j][k] = EXPR` (3D, plane first).
///
/// The left side names the output and its index variables (plain names, not sizes). EXPR is
/// C as a kernel writes it: integer and floating literals (`2`, `0.5f`, `0.5`), the index
/// variables and the problem's sizes (ints), reads of the input arrays with integer
/// subscripts, `+ - * / %`, unary minus, comparisons, `&& || !`, `c ? a : b`, parentheses, and
/// the functions sqrtf, fabsf, fminf, fmaxf (float) and min, max, sum(A) (every element of
/// input A added in float in index order: a reduction's total, PMPP ch. 10, exact whatever
/// the order for an input of integers, ArrayDecl::lo..hi), sum(A, first, last) (the elements
/// A[first..last] within A, added the same way; 0 when last < first: an inclusive scan is
/// `Y[i] = sum(X, 0, i)`, an exclusive one `Y[i] = sum(X, 0, i - 1)`, PMPP ch. 11), count(A, lo, hi) and count(A,
/// lo, hi, first, last) (how many elements of A, or of A[first..last], lie in [lo, hi], an
/// int: a histogram's bin, PMPP ch. 9), character literals ('a', an int), and NAN: an element whose
/// value is NAN is one the kernel must leave alone (the simulator and the GPU start the output
/// as that NaN, so it matches only if nothing writes it). C's types are kept: int op
/// int is an int (division truncates), an int meeting a float becomes a float, a literal
/// without `f` is a double (as in CUDA, `0.5 * x` is computed in double), and the result is
/// rounded to float when stored.
///
/// Fused multiply-adds follow nvcc's default contraction (--fmad=true), which the simulator's
/// module build reproduces (-ffp-contract=fast): a floating product that is an operand of
/// `+` or `-` is fused with it into one rounding, fmaf(a, b, c); of `a*b + c*d` the left
/// product is fused and the right one rounded, fmaf(a, b, c*d), as both compilers do. So a
/// correct kernel that writes the formula's arithmetic in the same order matches the
/// reference bit for bit.
class ArrayFormula {
public:
    /// Parses `text` for output `out` (whose name must be the left side's) and `inputs`,
    /// with `sizes` the problem's size names and values for checking. Returns "" or one
    /// sentence saying what is wrong (an unknown array or name, a subscript count that does
    /// not match the array, a function it does not know, a syntax error).
    std::string parse(const std::string& text, const FormulaArray& out, const std::vector<FormulaArray>& inputs,
                      const Variables& sizes);

    /// The output element at (row, col) (row 0 in 1D) with the problem's `sizes`; the
    /// inputs' values are read from FormulaArray::values. `flops` grows by the floating
    /// operations this element took (an FMA counts 2). Returns false, with `error` one
    /// sentence, when a read falls outside its array or an integer division is by zero.
    bool element(int row, int col, const Variables& sizes, float& value, uint64_t& flops, std::string& error) const;

    /// The whole output, row-major (rows x cols of the output array); empty, with `error`
    /// set, at the first element that fails. `flops` is the total.
    std::vector<float> evaluateAll(const Variables& sizes, uint64_t& flops, std::string& error) const;

    /// The output's name and its index variables, from the left side.
    const std::string& output() const { return out_.name; }
    const std::vector<std::string>& indices() const { return indices_; }

    struct Node;

private:
    FormulaArray out_;
    std::vector<FormulaArray> inputs_;
    std::vector<std::string> indices_;
    std::shared_ptr<const Node> root_;
    bool rangedSum_ = false;   ///< the formula calls sum(A, first, last)
    /// element() with, for each input, its running sums in index order (`running[a][k]` the
    /// float sum of its first k elements), which a sum from element 0 reads in O(1); null: none.
    bool element(int row, int col, const Variables& sizes, float& value, uint64_t& flops, std::string& error,
                 const std::vector<std::vector<float>>* running) const;
};

}  // namespace ts::sim
