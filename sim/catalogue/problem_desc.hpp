// What a problem is, as the views, the narration and the practice questions need to know it,
// so that they ask the description instead of the family (issue 39: problems described, not
// enumerated). Plain data and optional hooks; each family's description is in
// sim/catalogue/problem_desc.cpp, and problemOf() is the one place that maps a kernel to its
// description. A new parallel pattern adds a description; nothing in sim/teaching or app/gui
// branches on its family.
#pragma once
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "sim/catalogue/kernel_info.hpp"

namespace ts::sim {

struct Scenario;
struct Trace;
struct Step;

/// The picture the app prefers for a problem (its main figure): the matrices with their
/// tiles, the convolution's input, mask and output with the halo, or a student's arrays
/// under their own names. A description names it; every panel that is not the main figure
/// works from the simulation's arrays and the trace alone.
enum class Picture : uint8_t { Matrices, Convolution, Arrays };

/// What a slot that a kernel fills with 0 instead of loading stands for.
enum class Boundary : uint8_t {
    None,          ///< nothing: a guarded thread skips the element
    PastTheEdge,   ///< a tile's part past the edge of a matrix (PMPP sec. 5.5)
    GhostCells,    ///< ghost cells outside the input, which the convolution counts as 0 (PMPP ch. 7)
};

/// A problem's description.
struct ProblemDesc {
    const char* title;       ///< "matrix multiplication", "1D convolution", ...
    /// Dimensions of the output and of the blocks and threads as a lesson names them: 1
    /// ("block bx=2", "N[5]"), 2 ("block (bx=1, by=0)", "P[1][2]") or 3 (a 3D grid of PMPP's
    /// stencil: "block (bx=1, by=1, bz=1)", "out[i][j][k]").
    int dims;
    Picture picture;
    Boundary boundary;
    /// The input in constant memory (a convolution's mask, M) is no practice target: a
    /// block's tile or a shared slot is always of an input in global memory.
    bool maskInConstant = false;
    /// A block loads tiles of both inputs, M and N (PMPP sec. 5.3): a practice question about
    /// a block's tile names which; otherwise only N is tiled.
    bool tilesOfM = false;
    /// Variables, besides the thread's and block's indices and the sizes, that say nothing
    /// worth asking alone (a loop counter), separated by spaces: "i" where it counts a loop,
    /// "" where it is an output's index (PMPP's 1D convolution).
    const char* trivialVariables = "i";
    /// Floating-point operations of the whole problem as its roofline counts them (2 j k l
    /// for a matrix multiplication); null where the roofline and the ladder do not apply.
    double (*flops)(const Scenario& s) = nullptr;
    /// The name the kernels give the array in constant memory where it differs from the
    /// simulation's ("Mc" in PMPP Fig. 7.12's 2D kernels); "" for its own name.
    const char* constantLabel = "";
    /// The shared array the kernels load the tiles of N into ("Nds" in PMPP Fig. 5.9, "N_ds"
    /// in ch. 7), for questions asked before a simulation names it.
    const char* sharedOfN = "N_ds";
    /// What each thread stores, when the kernel keeps no accumulator the narration can name.
    const char* resultWord = "accumulator";
    /// The store of a thread that stores nothing, after "the other N store nothing": why.
    const char* idleStoreReason = "";
    /// The terms the CPU reference sums for flat element `i` of the output, in its order, as
    /// the grader names a thread's products ("M[0][1] * N[1][0]", "0 * M[2]" for a ghost
    /// element); null where the reference is a formula whose terms are not named.
    std::vector<std::string> (*referenceTerms)(const Scenario& s, long long i) = nullptr;
    /// The kernel's own variables (Row, Col, halo_index_left, ...) of thread (tx, ty) at step
    /// `st` (null: none), added to the built-in ones for the Code panel's expressions; null
    /// where the description names no variables of its own.
    void (*threadVariables)(const Scenario& s, const Trace& t, const Step* st, long long tx, long long ty,
                            std::map<std::string, long long>& v) = nullptr;
};

/// The limits of size parameter `p` of kernel `k` (KernelInfo::params), or null when the
/// kernel takes no such size: the sizes a form, a link or a file may give are the kernel's own.
const ParamLimit* paramLimit(const KernelInfo& k, ParamId p);

/// The description of the problem kernel `k` solves (a registry entry or a loaded student
/// kernel). Never null.
const ProblemDesc& problemOf(const KernelInfo& k);
/// The description of scenario `s`'s problem; matrix multiplication's for an unknown kernel.
const ProblemDesc& problemOf(const Scenario& s);

}  // namespace ts::sim
