// What the matrix-multiplication kernels' own variables are for a thread of the traced
// block (tx, ty, bx, by, Row, Col, ph, i, TILE_WIDTH, j, k, l), where the block's tiles lie
// in a phase, and how each recorded access follows from the index expression on its
// source line. Kernel knowledge the views need, kept out of the app. No UI.
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "expression.hpp"
#include "scenario.hpp"
#include "trace.hpp"

namespace ts::sim {

/// The kernel's named integer variables for linear thread `thread` of the traced block at
/// step `step`, as kernels/matmul_tiled.cuh and matmul_naive.cuh define them: tx, ty, bx,
/// by, Row, Col, j, k, l; TILE_WIDTH and ph for the tiled kernels; i for a multiply-add
/// step (matmul_naive_uncoalesced.cuh takes Row from the x axis and Col from y, pElementOf).
/// Convolution (kernels/conv*.cuh): tx, ty, bx, by, Mask_Width, MAX_MASK_WIDTH, TILE_SIZE
/// (tiled); 1D i, n, Width, halo_index_left/right, N_start_point, This/Next_tile_start_point,
/// and j, N_index in a multiply-add step; 2D width, height, row_o, col_o, row_i, col_i
/// (tiled) or N_start_row/col (basic), and the mask element i, j in a multiply-add step.
/// Row and Col are then the P element the thread computes (Row 0 in 1D).
Variables threadVariables(const Scenario& s, const Trace& t, int thread, int step);

/// The block's tile of M or N in a phase of the tiled kernel, in matrix coordinates
/// (rows, cols); it may reach past the matrix edge, where the tile's slots are zero-filled
/// (PMPP sec. 5.5, Fig. 5.13). Empty for untiled kernels and other arrays.
struct TileRect {
    int row0 = 0, col0 = 0, rows = 0, cols = 0;
};
std::optional<TileRect> phaseTile(const Scenario& s, const Uint3& block, int phase,
                                  const std::string& array);

/// The element of P, (Row, Col), that thread (tx, ty) of `block` computes in a matrix
/// multiplication with blocks of `blockDim` threads; it may lie outside P, where the thread
/// computes nothing. Row = by*blockDim.y + ty and Col = bx*blockDim.x + tx (PMPP
/// Fig. 3.11, 5.9), or Row = bx*blockDim.x + tx and Col = by*blockDim.y + ty for a kernel
/// that takes Row from the x axis (matmul-naive-uncoalesced, rowFromX).
struct PElement {
    long long row = 0, col = 0;
};
PElement pElementOf(const Scenario& s, const Uint3& block, const Dim3& blockDim, long long tx, long long ty);

/// Every element of P thread (tx, ty) of `block` computes, in the order of its registers
/// (Pvalue[m][n], row by row): one for PMPP's kernels, COARSE_FACTOR of a row, blockDim.x
/// apart, for matmul-coarsened, TM x TN side by side for the register-tiled rungs
/// (KernelInfo::threadRows, threadCols), in halves (threadTileSplit) or in 4 x 4 pieces of
/// a warp tile (warpRows). Some may lie outside P.
std::vector<PElement> threadPElements(const Scenario& s, const Uint3& block, const Dim3& blockDim, long long tx,
                                      long long ty);

/// The thread that computes element (row, col) of P (row, col >= 0) in a matrix
/// multiplication: its block and (tx, ty) in it, the inverse of threadPElements.
struct PElementOwner {
    Uint3 block;
    long long tx = 0, ty = 0;
};
PElementOwner ownerOfPElement(const Scenario& s, long long row, long long col);

/// The part of P that `block` covers in a matrix multiplication, in matrix coordinates
/// (rows, cols); it may reach past P's edge. Empty for the convolution kernels.
std::optional<TileRect> blockTileOfP(const Scenario& s, const Uint3& block);

/// The element of the source matrix (row, col) that slot [r][c] of shared array
/// `sharedArray` ("Mds" or "Nds") holds once it is loaded in phase `phase` of the tiled
/// matrix multiplication: (row0 + r, col0 + c) of phaseTile(), or (row0 + c, col0 + r) for a
/// kernel that stores Nds transposed (matmul-tiled-nds-transposed and -padded,
/// ndsTransposed). On the register-tiled rungs r and c follow the arrays' shapes (Mds
/// BM x BK or, with mdsTransposed, BK x BM; Nds BK x BN), the k index taken modulo BK for
/// a double buffer. Empty for a padding slot (c >= TILE_WIDTH, or past a transposed Mds's
/// BM), other kernels and arrays.
std::optional<PElement> tileSlotElement(const Scenario& s, const Uint3& block, int phase,
                                        const std::string& sharedArray, int r, int c);

/// The global array a shared tile array is loaded from ("Mds" -> "M", "Nds" -> "N") in the
/// tiled matrix multiplication; empty for other kernels and arrays. Slot [r][c] of the tile
/// loaded in phase ph then stands for the element tileSlotElement() names.
std::string tileSourceArray(const Scenario& s, const std::string& sharedArray);

/// One recorded access of a thread in a step, next to the expression that produced it.
struct AccessExplanation {
    Op op = Op::GlobalLoad;
    float value = 0;
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
/// convolution's mask in constant memory, which conv2d's source calls Mc (the trace's M).
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
