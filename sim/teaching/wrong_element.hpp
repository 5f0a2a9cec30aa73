// Why an element of P is wrong, in the words the grader and the app's caption share: its
// value against the CPU reference, the thread that stored it, and the first product its
// thread summed that the reference does not (read from the trace: what each shared slot
// held when the thread read it). No UI here; student/grade.cpp and the app's diagnosis
// (app/gui/student_kernel.cpp) both say it.
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "sim/engine/simulate.hpp"

namespace ts::sim {

/// `v` as the shortest text that reads back as the same float ("0.75", "-1.0625").
std::string floatText(float v);

/// Linear thread `thread` of a block of `block` threads as "(tx=1, ty=0)".
std::string threadText(const Dim3& block, int thread);

/// The element array `a` holds at flat index `i`, as the kernel's text names it: "M[2][5]" or
/// "N[7]".
std::string elementText(const ArrayInfo& a, long long i);

/// The products linear thread `thread` of the traced block of `t` added into the element it
/// stored at flat index `element` of P (array `p`), in its order, each operand named by the
/// global element it came from (a shared slot by what was stored there, "0" for a zero
/// fill): {"M[1][0] * N[0][0]", ...}. Empty when the trace has none.
std::vector<std::string> termsSummed(const Simulation& t, int thread, int p, long long element);

/// The terms the CPU reference sums for flat element `i` of P, in its order, named as
/// termsSummed() names them (the problem's ProblemDesc::referenceTerms: M[row][kk] *
/// N[kk][col] for a matrix multiplication, N[..] * M[jj] for a 1D convolution, M[..][..] *
/// N[..][..] in 2D, 0 for a ghost element); empty where the description names none (an
/// array problem's formula).
std::vector<std::string> referenceTerms(const Scenario& s, long long i);

/// What a wrong element's thread summed (`got`) against what the reference sums (`want`),
/// products with a zero fill left out: "its term 2 of 17 is M[1][0] * N[1][0] where the
/// reference's is M[0][1] * N[1][0]", or their counts; "" when the terms agree (the values
/// differed) or the thread's sum is of registers the trace does not name.
std::string termsText(std::vector<std::string> got, std::vector<std::string> want);

/// One operand of a product a thread summed: the global element its value came from ("0"
/// for a zero fill), and the way it came: the shared slot that held it ("Mds[0][1]") with
/// the line of the store that put it there, and the line that read it (the slot's, or the
/// global load's when it came straight from global memory).
struct Operand {
    std::string element;
    std::string slot;        ///< "" when it did not come through shared memory
    unsigned storeLine = 0;  ///< the shared store that put it in `slot`
    unsigned readLine = 0;
};

/// One product a thread added into its element of P: a * b.
struct SummedTerm {
    Operand a, b;
    /// "M[1][0] * N[0][1]", as termsSummed() names it.
    std::string text() const { return a.element + " * " + b.element; }
};

/// termsSummed() with each operand's way: what the thread read, where and from which store.
std::vector<SummedTerm> termsSummedDetail(const Simulation& t, int thread, int p, long long element);

/// The line that put a wrong value into a wrong element's sum, and one sentence saying so.
struct WrongCause {
    unsigned line = 0;
    std::string text;
};

/// The cause of the first term of `got` (a thread's products, termsSummedDetail()) that is
/// not the reference's (`want`, referenceTerms()), zero fills left out of both as
/// termsText() does: the shared store that put the wrong operand in its slot ("line 20
/// stored M[1][0] into Mds[0][1], which line 31 read for term 2 of the sum; the
/// reference's term 2 is M[0][1] * N[1][0]"), or the global load that read it. nullopt when
/// the terms agree, or differ only in number (the loop that cut the sum short is found in
/// the source, enclosingLoops()).
std::optional<WrongCause> termCause(const std::vector<SummedTerm>& got, const std::vector<std::string>& want);

/// The loops (`for`, `while`, `do`) of kernel text `source` whose bodies hold line `line`,
/// by the line each starts on, outermost first. Read from the text (comments and strings
/// skipped, braces and braceless bodies followed), not from the compiler.
std::vector<unsigned> enclosingLoops(const std::string& source, unsigned line);

/// The `if` statements of `source` whose bodies (or whose own line, for `if (c) x = y;`) hold
/// line `line`, by line, outermost first.
std::vector<unsigned> enclosingIfs(const std::string& source, unsigned line);

/// `text` (a sentence of the simulator's: a fault, a wrong element) with each element of
/// the problem's arrays under the name a student's kernel `kernel` gives its array: "M[3]"
/// becomes "A[3]", a convolution's mask "M[1][2]" becomes "Mc[1][2]"
/// (sim::loadedArrayLabel). Shared arrays (Mds, N_ds) and a built-in kernel's text are left
/// as they are.
std::string inStudentNames(const std::string& text, const std::string& kernel);

/// Element `i` of `r`'s output (array 2) that differs from the CPU reference, explained:
/// "P[0][0] is -2.41 where the reference gives -1.42: line 20 stored M[1][0] into
/// Mds[0][1], which line 31 read for term 2 of the sum; the reference's term 2 is M[0][1] *
/// N[1][0]; thread (tx=0, ty=0) of block (0, 0) stored it" (the cause, termCause(), where
/// the traced block stored it: the trace names the terms; else "...; its term 2 of 4 is ..."
/// when the terms differ otherwise), or
/// "P[3][3] was never written (the reference gives 0.5): no thread stores it; check ...";
/// with a `line`, "stored it at line
/// 35". An array problem names its output as its file does and has no terms; a student's
/// kernel's arrays are named as its file names them (inStudentNames()). Throws
/// std::out_of_range for an `i` outside P.
std::string wrongElementText(const Simulation& r, long long i, unsigned line = 0);

}  // namespace ts::sim
