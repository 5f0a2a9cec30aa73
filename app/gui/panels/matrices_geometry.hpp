// Where the Matrices panel draws what a block and a thread of a matrix multiplication
// compute, and where the zero-filled tile slots lie, from the kernel's own index arithmetic
// in sim/kernel_view.hpp (pElementOf, blockTileOfP, tileSlotElement): a kernel that takes
// Row from the x axis (matmul-naive-uncoalesced) or stores Nds transposed
// (matmul-tiled-nds-transposed, -padded) is drawn as it computes. No ImGui, so that the
// unit tests can check it without a window.
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "sim/kernel_view.hpp"
#include "sim/replay.hpp"
#include "sim/scenario.hpp"
#include "sim/trace.hpp"

namespace ts::app {

/// The block and thread of a matrix multiplication's launch that compute one P element.
struct POwner {
    sim::Uint3 block;
    int tx = 0, ty = 0;
};

/// Who computes P element (row, col) of `s` (a matrix multiplication with a known kernel):
/// the inverse of sim::pElementOf for the launch's block shape (of sim::threadPElements on
/// the optimisation ladder's rungs, whose threads compute several elements). Row and col must not be
/// negative; an element past P's edge gets the block and thread that would cover it.
POwner ownerOfP(const sim::Scenario& s, int row, int col);

/// Linear index ty * blockDim.x + tx of thread (tx, ty), as Frame::View::thread counts.
int linearThread(const sim::Dim3& blockDim, int tx, int ty);

/// The part of P (rows, cols in elements) that `block` computes, cut at P's edge (j x l);
/// empty for a block wholly outside P or a scenario that is not a matrix multiplication.
std::optional<sim::TileRect> blockRectInP(const sim::Scenario& s, const sim::Uint3& block);

/// Whether `rect` (from blockRectInP) holds element (row, col).
bool rectContains(const std::optional<sim::TileRect>& rect, int row, int col);

/// The P element (row, col) that linear thread `thread` (ty * blockDim.x + tx) of the traced
/// block of `t` computes; it may lie outside P, where the thread computes nothing.
sim::PElement threadPElement(const sim::Scenario& s, const sim::Trace& t, int thread);

/// One slot of a shared tile array that was zero-filled because the element it stands for
/// lies outside its matrix (PMPP sec. 5.5): drawn as a ghost cell past the matrix edge.
struct GhostCell {
    int row = 0, col = 0;       ///< matrix coordinates the slot stands for (outside the matrix)
    bool writtenNow = false;    ///< the zero was stored by the cursor step
};

/// The ghost cells of global matrix `matrix` ("M" or "N", `rows` x `cols` elements) at the
/// replay state `r` of the traced block of `t`: every zero-filled slot of a shared array
/// loaded from `matrix` (sim::tileSourceArray), placed where sim::tileSlotElement says the
/// slot's element lies in the phase the slot was written, and kept only if that lies
/// outside the matrix. Padding columns (Nds of matmul-tiled-nds-padded) have no element
/// and are left out. Empty for kernels without tiles.
std::vector<GhostCell> ghostCells(const sim::Scenario& s, const sim::Trace& t, const sim::ReplayState& r,
                                  const std::string& matrix, int rows, int cols);

}  // namespace ts::app
