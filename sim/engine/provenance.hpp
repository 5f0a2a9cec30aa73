// Where values came from and who computed what, read from what the simulator recorded while
// the kernel ran: each shared store's origin (Event::origin, the global element whose value
// it put in its slot, through any registers) and each global element's writer
// (Counters::elementWriters). The views take every mapping from here, so that a kernel
// nobody described (no layout fields in its registry row) is drawn as it computed. No UI.
#pragma once
#include <cstdint>
#include <optional>
#include <vector>

#include "sim/engine/trace.hpp"
#include "sim/engine/types.hpp"

namespace ts::sim {

struct Simulation;

/// An element of a 2D array, (row, col); either may lie outside the array.
struct PElement {
    long long row = 0, col = 0;
};

/// A rectangle of a 2D array in its own coordinates (rows, cols); it may reach past the edge.
struct TileRect {
    int row0 = 0, col0 = 0, rows = 0, cols = 0;
};

/// Element `index` (its offset in memory) of array `a` as (row, col), in the array's layout
/// (ArrayInfo::rowCol: row-major, or column-major for a kernel that takes N so).
PElement elementAt(const ArrayInfo& a, long long index);

/// The thread of the grid whose store of element `index` of global array `array` came last
/// (Counters::elementWriters): its block and its linear index in the block
/// (ty * blockDim.x + tx). Empty for an element nobody wrote, an array the kernel does not
/// write, or a grid too large for the writers to be kept.
struct Writer {
    Uint3 block;
    int thread = 0;
};
std::optional<Writer> writerOf(const Simulation& sim, int array, long long index);

/// The smallest rectangle of global array `array` holding every element block `block` wrote
/// (the block's part of P, cut at P's edge where the kernel checks it); empty if it wrote none.
/// Reads the whole array: call it once per block shown, not per frame.
std::optional<TileRect> writtenRect(const Simulation& sim, int array, const Uint3& block);

/// The elements of `array` that linear thread `thread` of the traced block stored, in the
/// order it stored them (flat indices).
std::vector<int32_t> storesOf(const Trace& t, int array, int thread);

/// The element of `array` that each thread of the grid stores first (its smallest flat index),
/// as an affine function of (tx, ty, bx, by) fitted to every thread that stores one (from
/// Counters::elementWriters): row = row0 + rowTx*tx + rowTy*ty + rowBx*bx + rowBy*by, col
/// likewise, with whole coefficients. PMPP's kernels (Row = by*TILE_WIDTH + ty, Col =
/// bx*TILE_WIDTH + tx), the uncoalesced one (Row from x), coarsening and the register tiles
/// (Row = by*BM + ty*TM) fit; a warp tile's lanes do not.
struct ThreadLayout {
    long long row0 = 0, rowTx = 0, rowTy = 0, rowBx = 0, rowBy = 0;
    long long col0 = 0, colTx = 0, colTy = 0, colBx = 0, colBy = 0;
    PElement at(long long tx, long long ty, long long bx = 0, long long by = 0) const
    {
        return PElement{row0 + rowTx * tx + rowTy * ty + rowBx * bx + rowBy * by,
                        col0 + colTx * tx + colTy * ty + colBx * bx + colBy * by};
    }
};
/// Empty when no thread stores, or no affine layout fits every thread's first store.
std::optional<ThreadLayout> threadLayout(const Simulation& sim, int array);

/// Fills t.outputs and t.outputArray for the traced block of `sim` from its stores of
/// `array` and, for threads that store none, threadLayout (simulate() calls it).
void setThreadOutputs(Trace& t, const Simulation& sim, int array);

/// The first element of `array` that linear thread `thread` of the traced block stores, or,
/// for a thread that stores none (outside P at a ragged edge), where the grid's threadLayout
/// places it (outside the array): Trace::outputs. Empty if neither says or `array` is not
/// the trace's output array.
std::optional<PElement> threadElement(const Trace& t, int array, int thread);

/// How one load step put elements of a global array into a shared array: slot (r, c) holds
/// element (r + rowOffset, c + colOffset) of `source`, or (c + rowOffset, r + colOffset) with
/// the axes swapped (an Nds stored transposed), fitted to the step's stores that carry an
/// origin. Zero-filled slots then stand for the elements this places them at, outside the
/// matrix: the ghost cells of PMPP sec. 5.5.
struct SlotPlacement {
    uint8_t source = kNoArray;
    bool swapped = false;
    long long rowOffset = 0, colOffset = 0;
    PElement element(long long r, long long c) const
    {
        return swapped ? PElement{c + rowOffset, r + colOffset} : PElement{r + rowOffset, c + colOffset};
    }
};
/// The placement of step `step`'s stores into shared array `array`. Where both orientations
/// fit (the stores lie on a diagonal, or there is one), the one that fits the array's other
/// load steps is taken, straight if none decides. A step of zero fills only (a halo made of
/// ghost cells) takes the placement of the array's nearest step in the same barrier interval
/// that loaded something. Empty when there is none or neither orientation fits.
std::optional<SlotPlacement> slotPlacement(const Trace& t, int step, int array);

/// The global array the kernel loads shared array `array` from: the origin of its first store
/// that has one; kNoArray if none (a shared array filled with computed values).
uint8_t sourceOf(const Trace& t, int array);

/// The part of global array `source` the traced block's loads in phase `phase` cover: every
/// slot stored in that phase's steps by a shared array loaded from `source`, at its origin or
/// (a zero fill) where the step's placement puts it. It reaches past the matrix where the
/// tile was zero-filled. Empty if the phase loads nothing from `source`.
std::optional<TileRect> phaseTileOf(const Trace& t, int phase, int source);

}  // namespace ts::sim
