// Where the Matrices panel draws what a block and a thread of a matrix multiplication
// compute, and where the zero-filled tile slots lie, from the simulator's provenance
// (sim/engine/provenance.hpp): who wrote each element of P, which global element each shared store
// carried. No kernel's layout is written down here, so a kernel that takes Row from the x axis
// (matmul-naive-uncoalesced) or stores Nds transposed (matmul-tiled-nds-transposed, -padded)
// is drawn as it computed. No ImGui, so that the unit tests can check it without a window.
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "sim/engine/provenance.hpp"
#include "sim/engine/simulate.hpp"
#include "sim/engine/replay.hpp"
#include "sim/catalogue/scenario.hpp"
#include "sim/engine/trace.hpp"

namespace ts::app {

/// The block and thread of a matrix multiplication's launch that compute one P element.
struct POwner {
    sim::Uint3 block;
    int tx = 0, ty = 0;
};

/// Who computed P element (row, col) of the simulation `sim` (a matrix multiplication): the
/// thread whose store of it came last (sim::writerOf). Empty for an element outside P or one
/// no thread stored (a run that faulted before).
std::optional<POwner> ownerOfP(const sim::Simulation& sim, int row, int col);

/// The grid of whole tiles the Matrices panel draws its thin lines on, and the ghost cells
/// its canvas makes room for past the matrices' edges. A block's tile of P is `rows` x
/// `cols`, the launch's (sim::LaunchShape pRows x pCols: TILE_WIDTH square for PMPP's
/// kernels, T x 4T for matmul-coarsened, BM x BN for the register-tiled rungs, whose thread
/// block is smaller than its tile of P), and a phase loads `depth` columns of M and rows of
/// N: what the traced block's first phase loaded of M (sim::phaseTileOf: TILE_WIDTH, or the
/// rung's BK), or for an untiled kernel the block edge.
struct TileGrid {
    int rows = 1, cols = 1, depth = 1;
    /// Rows of P and M (ghostJ), columns of M and rows of N (ghostK), columns of N and P
    /// (ghostL) past the matrix up to the last whole tile: where a tiled kernel's zero-filled
    /// slots lie. 0 for an untiled kernel, which fills nothing.
    int ghostJ = 0, ghostK = 0, ghostL = 0;
};

/// The TileGrid of `sim`, a matrix multiplication; an untiled kernel (matmul-naive) is cut in
/// its blocks of P along j and l and in steps of its block edge along k, with no ghosts.
TileGrid tileGrid(const sim::Simulation& sim);

/// One element of P that a thread of a ladder rung holds in a register and stores at its end.
struct RegisterElement {
    int row = 0, col = 0;       ///< the element of P
    int m = 0, n = 0;           ///< its register, Pvalue[m][n] (n = 0 for a one-dimensional Pvalue)
    std::string name;           ///< "Pvalue[m][n]", or "Pvalue[i]" where the kernel's Pvalue has one index
};

/// The elements of P that linear thread `thread` of the traced block holds in its registers
/// where the block's threads store several elements each (matmul-coarsened, the
/// register-tiled rungs), read from the trace of the thread's stores to P: each store carries
/// the x.unrolled() tag of its loop, m*TN + n (one more per element of a 128-bit store after
/// its first), which names the register; TN is the most columns of P one thread of the block
/// stores, and Pvalue has two indices where a thread also stores several rows. In the order
/// the thread stored them. Empty where every thread stores one element (PMPP's kernels), and
/// for elements the thread does not store (outside P). `arrayP` is the index of P in the
/// trace's arrays (Simulation::arrayIndex("P")).
std::vector<RegisterElement> registerElementsOfP(const sim::Trace& t, int arrayP, int thread);

/// Linear index ty * blockDim.x + tx of thread (tx, ty), as Frame::View::thread counts.
int linearThread(const sim::Dim3& blockDim, int tx, int ty);

/// The part of P (rows, cols in elements) that `block` wrote (sim::writtenRect), which stops
/// at P's edge; empty for a block that wrote nothing of P or a simulation without a P.
/// Reads the whole of P: once per block shown.
std::optional<sim::TileRect> blockRectInP(const sim::Simulation& sim, const sim::Uint3& block);

/// Whether `rect` (from blockRectInP) holds element (row, col).
bool rectContains(const std::optional<sim::TileRect>& rect, int row, int col);

/// The P element (row, col) that linear thread `thread` (ty * blockDim.x + tx) of the traced
/// block of `t` computes first (sim::threadElement); for a thread that stores nothing, where
/// the block's layout puts it, outside P. Empty if neither says (a warp tile's thread outside P).
std::optional<sim::PElement> threadPElement(const sim::Trace& t, int thread);

/// One slot of a shared tile array that was zero-filled because the element it stands for
/// lies outside its matrix (PMPP sec. 5.5): drawn as a ghost cell past the matrix edge.
struct GhostCell {
    int row = 0, col = 0;       ///< matrix coordinates the slot stands for (outside the matrix)
    bool writtenNow = false;    ///< the zero was stored by the cursor step
};

/// The ghost cells of global matrix `matrix` ("M" or "N", `rows` x `cols` elements) at the
/// replay state `r` of the traced block of `t`: every zero-filled slot of a shared array,
/// placed where its load step put that step's loaded elements (sim::slotPlacement) when the
/// step loaded from `matrix`, and kept only if that lies outside the matrix. Padding columns
/// (Nds of matmul-tiled-nds-padded) are never written and have none. Empty for kernels
/// without tiles.
std::vector<GhostCell> ghostCells(const sim::Trace& t, const sim::ReplayState& r, const std::string& matrix,
                                  int rows, int cols);

}  // namespace ts::app
