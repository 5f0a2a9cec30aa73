// What the convolution views show about the traced block (PMPP secs. 7.4-7.5 and the
// convolution examples of docs/references.md): which input positions are its internal, halo
// and ghost cells, which N element each N_ds slot holds and which thread loaded it, how
// many threads use each element, and the block's loads beside the textbook's reduction
// formula. Plain data from a Simulation and its trace, for app/gui/panels/conv_panel.cpp.
// No UI.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "sim/engine/simulate.hpp"

namespace ts::sim {

/// What an input position (row, col of N, possibly outside N) is to a block.
enum class ConvRole : uint8_t {
    Outside,   ///< the block's mask never reaches it
    Internal,  ///< in the block's output tile (and inside N)
    Halo,      ///< inside N, reached by the mask from the output tile but not in it
    Ghost,     ///< reached by the block but outside N (index < 0 or >= width/height): reads give 0
};

/// The tiles of one convolution block in N coordinates. 1D: row 0 only (rows 1). The input
/// tile is the output tile grown by n = Mask_Width/2 on every side (on both ends in 1D)
/// and may reach past N's edges (ghost cells).
struct ConvGeometry {
    bool twoD = false;
    int height = 1, width = 1;        ///< N (and P) in elements
    int maskWidth = 1, tile = 1;      ///< Mask_Width and TILE_SIZE (block edge of basic kernels)
    int n = 0;                        ///< Mask_Width/2: halo cells per side
    int outRow0 = 0, outCol0 = 0;     ///< first output element of the block
    int outRows = 1, outCols = 1;     ///< output tile extent (TILE_SIZE, 1 row in 1D)
    int inRow0 = 0, inCol0 = 0;       ///< first input position (outRow0 - n, ...; 0 rows in 1D)
    int inRows = 1, inCols = 1;       ///< input tile extent (TILE_SIZE + Mask_Width - 1 per side)

    /// The role of input position (row, col) for this block.
    ConvRole role(int row, int col) const;
    /// Whether (row, col) lies inside N.
    bool insideN(int row, int col) const { return row >= 0 && col >= 0 && row < height && col < width; }
    /// An internal block in the textbook's sense: its whole input tile lies inside N (no ghost
    /// cells), so the textbook's reduction formula applies to it.
    bool internalBlock() const;
    /// Ghost cells of the block's input tile.
    int ghostCount() const;
};

/// The geometry of block `b` of convolution scenario `s` (which must pass validate() and
/// be a Conv1D or Conv2D kernel; std::invalid_argument otherwise).
ConvGeometry convGeometry(const Scenario& s, const Uint3& b);

/// One slot of N_ds in the traced block: the N position it stands for and who filled it.
struct ConvSlot {
    int slot = 0;                     ///< flat index into N_ds (row-major, N_ds's own width)
    int row = 0, col = 0;             ///< N position it holds (a ghost cell if outside N)
    ConvRole role = ConvRole::Outside;
    bool written = false;             ///< written in the trace
    bool zeroFilled = false;          ///< last written with 0 (a ghost cell)
    uint16_t loader = kNoThread;      ///< linear thread index (in the block) of the last writer
    std::vector<uint16_t> readers;    ///< threads that read it in a multiply-add, ascending, once each
};

/// Uses of one input position by the traced block's threads and by the whole grid.
struct ConvUse {
    int row = 0, col = 0;             ///< N position (outside N for a ghost cell)
    ConvRole role = ConvRole::Outside;
    std::vector<uint16_t> threads;    ///< block threads that used it, ascending, once each
    uint32_t sharedReads = 0;         ///< reads of the N_ds slot holding it (traced block)
    uint32_t globalReads = 0;         ///< reads of it from global memory as an operand (traced block)
    uint32_t gridUses = 0;            ///< threads of the whole grid whose mask window covers it
                                      ///< (outputs inside P); 0 for ghost cells
    uint32_t uses() const { return sharedReads + globalReads; }
};

/// The block's loads and its reduction versus the basic kernel, beside the textbook's formula.
struct ConvLoads {
    Totals block;                     ///< the traced block's counters (whole kernel)
    uint64_t untiled = 0;             ///< the basic kernel's global loads for the same outputs
    double reduction = 0;             ///< untiled / block.global_loads (0 if no loads)
    std::optional<double> formula;    ///< reductionFormula() for conv1d-tiled / conv2d-tiled
    std::string formulaText;          ///< the formula with its numbers, "(8*5)/(8+5-1) = 3.33"
    std::string note;                 ///< when the formula does not describe this block, why
};

/// Everything the convolution views need about the traced block.
struct ConvView {
    ConvGeometry geo;
    int nArray = -1, mArray = -1, pArray = -1, ndsArray = -1;   ///< ids into Simulation::arrays
    std::vector<ConvSlot> slots;      ///< the N_ds slots the kernel uses; empty for basic kernels
    std::vector<ConvUse> uses;        ///< every input-tile position, row-major over inRows x inCols
    ConvLoads loads;

    /// The use record of position (row, col), or nullptr if outside the input tile.
    const ConvUse* use(int row, int col) const;
    /// The N_ds slot holding position (row, col), or nullptr.
    const ConvSlot* slotFor(int row, int col) const;
};

/// Builds the view of `sim`'s traced block. Slots map to N by the kernel's index
/// arithmetic (kernels/conv1d_tiled.cuh: N_ds[s] holds N[bx*TILE_SIZE - n + s];
/// conv1d_tiled_cache.cuh: N[bx*TILE_SIZE + s]; conv2d_tiled.cuh: N_ds[ty][tx] holds
/// N[by*TILE_SIZE - n + ty][bx*TILE_SIZE - n + tx]); loaders, readers and uses come from
/// the trace (uses = shared reads of the slot holding an element + its global reads in
/// multiply-add steps). Throws std::invalid_argument if `sim` is not a convolution.
ConvView convView(const Simulation& sim);

/// The position's name, "N[5]" or "N[3][-1]".
std::string convElementName(const ConvGeometry& g, int row, int col);

/// The reuse sentence for a position (docs/references.md, "Example: 1D reuse counts"):
/// "N[5] is used by threads 4, 5, 6, 7 (4X)" (1D threads by global index
/// i = bx*blockDim.x + tx, as the textbook numbers them; 2D by (ty, tx) in the block). At
/// most `maxListed` threads are listed, then "...".
std::string useSentence(const ConvView& v, const ConvUse& u, int maxListed = 16);

}  // namespace ts::sim
