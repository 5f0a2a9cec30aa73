// What the matrix-multiplication kernels' own variables are for a thread of the traced
// block (tx, ty, bx, by, Row, Col, ph, i, TILE_WIDTH, j, k, l), where the block's tiles lie
// in a phase, and how each recorded access follows from the index expression on its
// source line. Kernel knowledge the views need, kept out of the app. No UI.
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "sim/teaching/expression.hpp"
#include "sim/engine/provenance.hpp"
#include "sim/catalogue/scenario.hpp"
#include "sim/engine/trace.hpp"

namespace ts::sim {

/// The kernel's named integer variables for linear thread `thread` of the traced block at
/// step `step`, as kernels/matmul_tiled.cuh and matmul_naive.cuh define them: tx, ty, bx,
/// by, Row, Col, j, k, l; TILE_WIDTH and ph for the tiled kernels; i for a multiply-add
/// step. Row and Col are the element of P the thread stores first (sim::threadElement, so
/// matmul_naive_uncoalesced.cuh's Row from the x axis comes out as it computed it), left
/// out where the trace does not say and where a thread computes several elements (Row and
/// Col then change along a loop of the kernel).
/// Convolution (kernels/conv*.cuh): tx, ty, bx, by, Mask_Width, MAX_MASK_WIDTH, TILE_SIZE
/// (tiled); 1D i, n, Width, halo_index_left/right, N_start_point, This/Next_tile_start_point,
/// and j, N_index in a multiply-add step; 2D width, height, row_o, col_o, row_i, col_i
/// (tiled) or N_start_row/col (basic), and the mask element i, j in a multiply-add step.
/// Row and Col are then the P element the thread computes (Row 0 in 1D).
Variables threadVariables(const Scenario& s, const Trace& t, int thread, int step);

/// The variables of PMPP's matrix multiplication kernels (j, k, l, Row, Col, TILE_WIDTH, ph,
/// i), of the convolution kernels of ch. 7 (Mask_Width, TILE_SIZE, Row, Col, halo_index_left,
/// N_start_point, ...) and of a student's array problem (its sizes under its names) for thread
/// (tx, ty) at step `st` (null: none): the descriptions' ProblemDesc::threadVariables hooks
/// (sim/catalogue/problem_desc.cpp), added to `v`.
void matmulVariables(const Scenario& s, const Trace& t, const Step* st, long long tx, long long ty, Variables& v);
void convVariables(const Scenario& s, const Trace& t, const Step* st, long long tx, long long ty, Variables& v);
void arrayVariables(const Scenario& s, const Trace& t, const Step* st, long long tx, long long ty, Variables& v);

/// One recorded access of a thread in a step, next to the expression that produced it.
struct AccessExplanation {
    Op op = Op::GlobalLoad;
    float value = 0;
    /// An atomic's element before it (`value` is the element after): Op::Atomic only.
    std::optional<float> before;
    unsigned line = 0;
    std::string array;
    int32_t recorded = -1;          ///< the flat index the simulator recorded
    std::string written;            ///< "M[Row*k + ph*TILE_WIDTH + tx]"; empty if not found
    std::string substituted;        ///< "M[1*4 + 1*2 + 0]"
    std::string evaluated;          ///< "M[6]", "Mds[1][0]"; empty if it cannot be evaluated
    std::optional<long long> flat;  ///< the evaluated flat index
    std::string error;              ///< why there is no evaluation, if there is none
    /// A variable of the kernel without a value here (the ladder's own loop variables,
    /// such as `nxt`): the reason there is no evaluation, not a disagreement.
    std::string unknown;
    bool agrees() const { return flat && *flat == recorded; }
};

/// The name the kernel's source gives array `a`: the trace's name, except the 2D
/// convolution's mask in constant memory, which conv2d's source calls Mc (the trace's M),
/// and a student's kernel's arrays, which are called as its file calls them
/// (sim::loadedArrayLabel: `A` for M, its `__constant__` array's name for the mask).
std::string writtenArrayName(const Scenario& s, const ArrayInfo& a);

/// Every array access of linear thread `thread` in step `step`, in the order the thread
/// performed them, each matched with its expression on the event's source line of
/// `source` (the kernel file's text). Accesses are matched to the line's textual
/// accesses of the same array in order.
std::vector<AccessExplanation> explainAccesses(const Scenario& s, const Trace& t, int thread,
                                               int step, const std::string& source);

/// Line `line` (1-based) of `text`, without its newline; empty if there is no such line.
std::string sourceLine(const std::string& text, unsigned line);

}  // namespace ts::sim
