// The textbook's bandwidth-reduction tables for tiled convolution in 1D and 2D (PMPP ch. 7;
// docs/references.md), each cell computed from the reduction formula and, where the
// configuration can launch, measured on a real simulation of the tiled kernel.
#pragma once
#include <optional>
#include <string>
#include <vector>

namespace ts::sim {

/// TILE_SIZE columns of the textbook's 1D table.
inline constexpr int kReductionTiles1D[] = {16, 32, 64, 128, 256};
/// TILE_SIZE columns of the textbook's 2D table.
inline constexpr int kReductionTiles2D[] = {8, 16, 32, 64};
/// Mask_Width rows of both tables.
inline constexpr int kReductionMasks[] = {5, 9};

/// One cell: a TILE_SIZE and Mask_Width.
struct ReductionCell {
    int tile = 0;                       ///< TILE_SIZE (output tile, per side in 2D)
    int maskWidth = 0;
    double formula = 0;                 ///< reductionFormula()
    std::optional<double> simulated;    ///< the internal block's reduction_vs_untiled
    bool launchable = false;            ///< could the tiled kernel launch (<= 1024 threads)?
    std::string why;                    ///< if not launchable: validate()'s sentence
};

/// One row of a table: every TILE_SIZE for one Mask_Width.
struct ReductionRow {
    int maskWidth = 0;
    std::vector<ReductionCell> cells;
};

/// A whole table.
struct ReductionTable {
    int dims = 1;
    std::vector<ReductionRow> rows;
};

/// The textbook's reduction of global-memory accesses by tiling an internal block: 1D
/// TILE_SIZE * Mask_Width / (TILE_SIZE + Mask_Width - 1), 2D TILE_SIZE^2 * Mask_Width^2 /
/// (TILE_SIZE + Mask_Width - 1)^2 (PMPP ch. 7; docs/references.md).
/// `dims` is 1 or 2; sizes at least 1.
double reductionFormula(int dims, int tile, int maskWidth);

/// One cell. Where conv1d-tiled / conv2d-tiled can launch with this TILE_SIZE and
/// Mask_Width, it is simulated on N of three tiles per side (width 3 * TILE_SIZE, and as
/// many rows in 2D) and `simulated` is block 1's (1D) or block (1, 1)'s (2D) global loads
/// of conv*-basic over its global loads: an internal block, with halo on every side.
/// Otherwise `simulated` is empty and `why` says why the block cannot launch. Throws
/// std::invalid_argument for dims other than 1 and 2.
ReductionCell reductionCell(int dims, int tile, int maskWidth);

/// The textbook's table for `dims` (1 or 2; else std::invalid_argument): one row per
/// kReductionMasks entry, one cell per kReductionTiles1D / 2D entry.
ReductionTable reductionTable(int dims);

}  // namespace ts::sim
