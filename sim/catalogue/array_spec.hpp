// What an array problem (Family::Array, a student's own element-wise, 1D or 2D kernel) is:
// its sizes, its arrays with their shapes and roles, and its CPU reference formula, as a
// kernel file's launch header gives them (student/module.hpp). Plain data and the few rules
// that turn a scenario into sizes and shapes; the formula is read by sim/engine/array_formula.hpp.
#pragma once
#include <string>
#include <vector>

#include "sim/teaching/expression.hpp"

namespace ts::sim {

struct Scenario;

/// One array of the problem: `in A[n]` or `out B[cols][rows]`.
struct ArrayDecl {
    std::string name;
    bool output = false;
    /// One extent (1D) or two (2D, rows first), each an integer expression of the sizes.
    std::vector<std::string> extents;
};

/// An array problem. At most two inputs and exactly one output; the first input is the
/// simulation's M, the second its N, the output its P (sim/engine/problem.hpp), under their
/// own names.
struct ArraySpec {
    /// The problem's size names, with their defaults: one (a 1D problem, the scenario's
    /// `width`) or two (the scenario's `height` then `width`).
    std::vector<std::string> sizes;
    std::vector<int> defaults;
    std::vector<ArrayDecl> arrays;
    std::string reference;      ///< `OUT[i] = EXPR`, sim::ArrayFormula
    unsigned referenceLine = 0; ///< its line in the kernel file (0: given elsewhere)
    std::string file;           ///< the kernel file, for messages

    /// The sizes of scenario `s` under their names.
    Variables sizeValues(const Scenario& s) const;
    /// Rows and columns of array `a` for sizes `v` (rows 1 for 1D); false, with `error`
    /// one sentence, when an extent cannot be evaluated or is below 1.
    bool shape(const ArrayDecl& a, const Variables& v, int& rows, int& cols, std::string& error) const;
    /// The inputs in order and the output.
    std::vector<const ArrayDecl*> inputs() const;
    const ArrayDecl* output() const;
};

}  // namespace ts::sim
