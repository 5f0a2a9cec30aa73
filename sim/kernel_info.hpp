// What the project knows about each of its kernels, as plain data: the part of the kernel
// registry (sim/kernel_registry.hpp) that validation, the CLI, the app's kernel list and the
// code view read. No templates, no kernel bodies: cheap to include anywhere.
#pragma once
#include <span>
#include <string>
#include <vector>

namespace ts::sim {

/// What family of problem a kernel solves; the family fixes the kernel's arguments
/// (sim/kernel_registry.hpp, MatmulArgs / ConvArgs) and the scenario's size parameters.
enum class Family { Matmul, Conv1D, Conv2D };

/// A size parameter of a scenario (a field of sim::Scenario).
enum class ParamId { J, K, L, Height, Width, MaskWidth };

/// The range a size parameter must lie in. A refusal reads
/// "`what` must be [odd and ]between `min` and `max``why`; got V." or, when min == max,
/// "`what` must be `min`; got V.".
struct ParamLimit {
    ParamId id;
    const char* what;        ///< the parameter as a sentence names it, e.g. "j (rows of M and P)"
    int min, max;
    bool odd = false;        ///< only odd values (Mask_Width: a centred window)
    const char* why = "";    ///< reason appended after the range
};

/// One kernel of kernels/*.cuh: its entry in the kernel registry.
struct KernelInfo {
    const char* name;            ///< CLI name, e.g. "matmul-tiled"
    Family family;
    bool tiled;                  ///< uses shared-memory tiles (template TILE_WIDTH / TILE_SIZE)
    const char* untiled;         ///< the untiled counterpart used for reductions
    const char* sourceFile;      ///< file under kernels/, shown by the code view
    int barriersPerPhase;        ///< barriers per phase of the tiled loop (0 if none)
    const char* summary;         ///< one line for --help and tooltips
    unsigned barriers = 0;       ///< ts::kernels::Barrier bits of its droppable barriers
    const char* lecture = "";    ///< where it comes from: PMPP section or figure, preset
    /// Compiled template instances of TILE_WIDTH / TILE_SIZE (tiled kernels); empty when
    /// the block edge is a run-time value (untiled kernels, see maxBlockEdge).
    std::span<const int> tiles = {};
    /// Untiled kernels: the largest block edge (2D) or block size (1D) that `--tile` may give.
    int maxBlockEdge = 0;
    /// The size parameters the kernel takes, in the order they are checked.
    std::span<const ParamLimit> params = {};
    /// matmul-corner-turning: the kernel takes N (k x l) stored column-major, element (r, c)
    /// at N[c*k + r] (PMPP sec. 6.1). The inputs and the CPU reference stay row-major; the
    /// simulator's binder and the GPU dispatch lay out the same values column by column for
    /// the kernel, and the trace's ArrayInfo of N says so (ArrayInfo::columnMajor).
    bool nColumnMajor = false;
    /// conv2d-tiled: a block is the input tile, (TILE_SIZE + Mask_Width - 1) threads a side.
    bool blockIsInputTile = false;
    /// conv1d-tiled: Mask_Width/2 edge threads load each halo, so TILE_SIZE >= Mask_Width/2.
    bool haloByEdgeThreads = false;
    /// conv1d-tiled-cache: N_ds holds the internal tile only; the halo is read from global
    /// memory (where the caches serve it).
    bool haloFromGlobal = false;
    /// matmul-naive-uncoalesced: Row comes from blockIdx.x and threadIdx.x, Col from the y
    /// axis, so the grid's x runs over the rows of P (ceil(j / edge) x ceil(l / edge) blocks)
    /// and thread (tx, ty) of block (bx, by) computes P[bx*edge + tx][by*edge + ty].
    bool rowFromX = false;
    /// matmul-tiled-nds-transposed and -padded: thread (tx, ty) stores its N element in
    /// Nds[tx][ty], so slot Nds[c][r] holds element (r, c) of the phase's N tile.
    bool ndsTransposed = false;
    /// The register-tiled rungs from matmul-vectorized on: Mds holds the phase's M tile
    /// transposed, slot Mds[c][r] (plus BK * buffer for a double buffer) element (r, c).
    bool mdsTransposed = false;

    // The shape of the work of the optimisation ladder's rungs (docs/ladder.md); the
    // defaults are those of PMPP's kernels, one P element per thread in a TILE_WIDTH-square
    // block. With tile T a block computes (T * blockRowsFactor) x (T * blockColsFactor)
    // elements of P with (T * blockColsFactor / threadCols) x (T * blockRowsFactor /
    // threadRows) threads.
    /// Rows of P each thread computes (a register tile's TM).
    int threadRows = 1;
    /// Columns of P each thread computes (a register tile's TN, or COARSE_FACTOR).
    int threadCols = 1;
    /// The thread's columns lie T apart (thread coarsening, PMPP sec. 6.3) rather than side
    /// by side (a register tile).
    bool threadColsStrided = false;
    /// The thread's rows and columns come in two halves of threadRows/2 and threadCols/2,
    /// half a tile apart (matmul-conflict-free), rather than side by side.
    bool threadTileSplit = false;
    /// A block's columns of P, in tiles: COARSE_FACTOR for thread coarsening, else 1.
    int blockColsFactor = 1;
    /// A block's rows of P, in tiles: 2 on matmul-warptiled (a 2T x T tile of P), else 1.
    int blockRowsFactor = 1;
    /// Warp tiles (matmul-warptiled): warp w of a block computes the warpRows x warpCols tile
    /// of P at row (w / (block's columns / warpCols)) * warpRows and column
    /// (w % (block's columns / warpCols)) * warpCols of the block's tile. Lane (ly, lx) =
    /// (lane / (warpCols / threadCols), lane % (warpCols / threadCols)) holds threadRows x
    /// threadCols elements in 4 x 4 pieces: rows ly*4 + {0..3} of every warpRows /
    /// (threadRows / 4) rows, columns lx*4 + {0..3} of every warpCols / (threadCols / 4)
    /// columns. 0: no warp tiles.
    int warpRows = 0, warpCols = 0;
    /// Columns of M (rows of N) a phase loads (a register tile's BK); 0: the tile T.
    int tileK = 0;
    /// The tile `--tile` gives when none is named (the rung's tuned default).
    int defaultTile = 16;
};

/// Every kernel the simulator and the GPU can run, in the registry's order.
const std::vector<KernelInfo>& kernelList();
/// The kernel called `name`, or nullptr.
const KernelInfo* findKernel(const std::string& name);
/// Is `name` a registered convolution kernel (family Conv1D or Conv2D)?
bool isConvolution(const std::string& name);
/// The embedded text of a file under kernels/ (for the code view); empty if unknown.
const std::string& kernelSource(const std::string& file);

/// A kernel's compiled tile sizes as a sentence lists them: "2, 4, 8, 16 or 32", or
/// "2, 4, 8, 16, 32" without `withOr`.
std::string tileList(const KernelInfo& k, bool withOr = true);

}  // namespace ts::sim
