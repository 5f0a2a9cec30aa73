// What the project knows about each of its kernels, as plain data: the part of the kernel
// registry (sim/catalogue/kernel_registry.hpp) that validation, the CLI, the app's kernel list and the
// code view read. No templates, no kernel bodies: cheap to include anywhere.
#pragma once
#include <span>
#include <string>
#include <vector>

namespace ts::sim {

/// What family of problem a kernel solves; the family fixes the kernel's arguments
/// (sim/catalogue/kernel_registry.hpp, MatmulArgs / ConvArgs / ArrayProblemArgs) and the
/// scenario's size parameters. Array is a problem described rather than enumerated: its
/// arrays, sizes and CPU reference formula are stated by a student's file or by the
/// registry row itself (KernelInfo::arrays; sim/catalogue/array_spec.hpp), as PMPP's 3D
/// stencil is.
enum class Family { Matmul, Conv1D, Conv2D, Array };

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

/// A source line of a kernel where the instructions nvcc emits differ from the simulator's
/// per-element model, so that the hardware's counts on that line differ from the
/// simulator's. Read from the SASS of nvcc 13.0 for sm_90 (nvdisasm with line information)
/// of the plain device instances; the registry's notes are in sim/catalogue/compiled_notes.hpp.
struct CompiledNote {
    const char* statement;   ///< the source line's text, trimmed: how the note finds its line
    const char* array;       ///< the array the note is about
    bool store;              ///< about its store (else its load)
    int minTile, maxTile;    ///< the TILE_WIDTH / TILE_SIZE it holds for (inclusive)
    const char* brief;       ///< a few words for the screen ("nvcc: one LDS.128 per 4 elements")
    const char* note;        ///< one or two sentences
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
    /// The launch, as the kernel file's comment states it: `<<<grid, block>>>`, each x first
    /// and comma-separated, as integer expressions (sim::evaluate) of the kernel's sizes (j, k,
    /// l; width, height, Mask_Width) and its tile under the file's own name (TILE_WIDTH,
    /// TILE_SIZE or TILE; an untiled kernel's block edge is BLOCK_WIDTH). `blockOutput` is the
    /// rows and columns of the output a block computes (matrix multiplication; "" for a
    /// convolution). launchShape() evaluates them; validation reports a block over 1024 threads.
    const char* grid = "";
    const char* block = "";
    const char* blockOutput = "";
    /// Family::Array: the problem, stated as a student's launch header states it
    /// (sim/engine/array_spec_text.hpp): the arrays in the kernel's argument order ("in
    /// in[N][N][N], out out[N][N][N]"; the sizes follow them), the sizes with their defaults
    /// ("N = 16") and the CPU reference formula (sim/engine/array_formula.hpp). The launch
    /// expressions above may name the sizes. "" for the other families.
    const char* arrays = "";
    const char* sizes = "";
    const char* formula = "";
    // How the host launches the kernel (its <<<grid, block>>> as the kernel file's comment
    // states it) and what its loop does per phase: counts, not places. Which element of P a
    // thread computes and which global element a shared slot holds are not written here: the
    // views read them from what the simulator recorded (sim/engine/provenance.hpp).
    /// conv2d-tiled: a block is the input tile, (TILE_SIZE + Mask_Width - 1) threads a side.
    bool blockIsInputTile = false;
    /// conv1d-tiled: Mask_Width/2 edge threads load each halo, so TILE_SIZE >= Mask_Width/2
    /// (a limit on the parameters, checked by validation).
    bool haloByEdgeThreads = false;
    /// conv1d-tiled-cache: N_ds holds the internal tile only and the halo is read from global
    /// memory (where the caches serve it): the textbook's reduction formula does not count
    /// its loads, and the work estimate counts its global reads.
    bool haloFromGlobal = false;
    /// The launch's grid x runs over the rows of P (ceil(j / edge) x ceil(l / edge) blocks),
    /// not its columns (matmul-naive-uncoalesced, whose Row comes from blockIdx.x).
    bool gridXOverRows = false;
    /// The kernel takes one size, Width, for square matrices (PMPP Fig. 5.9's signature, as
    /// a student's own kernel may): j, k and l must be equal.
    bool squareOnly = false;
    /// A block covers (T * blockRowsFactor) x (T * blockColsFactor) elements of P with
    /// (T * blockColsFactor / threadCols) x (T * blockRowsFactor / threadRows) threads, where T
    /// is the tile: PMPP's kernels one element per thread in a TILE_WIDTH-square block, the
    /// optimisation ladder's rungs several (docs/ladder.md).
    /// Rows of P each thread computes (a register tile's TM).
    int threadRows = 1;
    /// Columns of P each thread computes (a register tile's TN, or COARSE_FACTOR).
    int threadCols = 1;
    /// A block's columns of P, in tiles: COARSE_FACTOR for thread coarsening, else 1.
    int blockColsFactor = 1;
    /// A block's rows of P, in tiles: 2 on matmul-warptiled (a 2T x T tile of P), else 1.
    int blockRowsFactor = 1;
    /// Columns of M (rows of N) a phase loads (a register tile's BK); 0: the tile T. The loop
    /// runs ceil(k / BK) phases (phases of a run with a dropped barrier are counted from it).
    int tileK = 0;
    /// The tile `--tile` gives when none is named (the rung's tuned default).
    int defaultTile = 16;
    /// Lines where nvcc's instructions differ from the per-element model (warp view, Code panel).
    std::span<const CompiledNote> compiledNotes = {};
    /// PMPP ch. 10's reduction trees: a stride doubles up to blockDim.x or halves from it, so
    /// the block must have a power-of-two number of threads; a one-block launch (grid "1")
    /// sums an input of exactly two elements per thread (its first size is 2 x the block).
    bool reductionTree = false;
    /// The kernel makes atomic operations on global memory (x.atomicAdd): the simulator runs
    /// its blocks on one worker, in the schedule's order (LaunchConfig::blocksInScheduleOrder:
    /// block order, its reverse, or seeded), so the order of its atomics, and a float sum's
    /// rounding, is the same on every run with the same schedule.
    bool atomics = false;
    /// The output is a float sum of arbitrary values, not of small integers: its last bits
    /// depend on the order of the additions (the tree's, the blocks' atomics'), so it differs
    /// from the reference (a sum in index order) on purpose. The views and `verify` compare it
    /// within a float sum's error bound instead (sim::sumOrderCheck); a preset shows it.
    bool orderDependent = false;
    /// PMPP ch. 9's text histograms: a char input counted into integer bins with atomics; the
    /// views draw the bins and each warp's atomic with the lanes that collide on a bin.
    bool histogram = false;
    /// PMPP ch. 11's scans of one section in one block: the section's elements per thread of
    /// the block (1: Kogge-Stone, Fig. 11.3; 2: Brent-Kung, Fig. 11.7; SCAN_COARSE_FACTOR: the
    /// coarsened three-phase scan), so N may be at most this x BLOCK_DIM; 0 for every other
    /// kernel, the sequential scan among them (one thread, any N). The views draw the scan's
    /// network and its work against the sequential N - 1 adds (sim/teaching/scan_network.hpp).
    int scanElementsPerThread = 0;
    /// PMPP ch. 11's scans, the sequential one and the single-pass one of many blocks
    /// (scanElementsPerThread 0) included (scan_network.hpp).
    bool scan = false;
    /// Bytes of each simulated thread's fiber stack (LaunchConfig::stackBytes); 0: the
    /// default. Set for a student's kernel from the local arrays its threads declare.
    size_t stackBytes = 0;
    /// A row of several kernels that the host launches one after the other on the same arrays
    /// (PMPP sec. 11.6's hierarchical scan): the grids of the launches after the first, as
    /// `grid` states one, separated by ";" (each launch's block is `block`). The row's run()
    /// tells them apart by ArrayProblemArgs::launch (0 for the first). "" for one launch.
    const char* laterGrids = "";
    /// PMPP sec. 11.6: the second launch scans the sums of the first launch's sections in one
    /// block, a thread a sum, so the first launch may have at most BLOCK_DIM blocks (the first
    /// size at most BLOCK_DIM x BLOCK_DIM); validation says so in one sentence.
    bool sectionSumsInOneBlock = false;
};

/// The launches of `k`'s row: 1 plus the grids in KernelInfo::laterGrids.
int launchCount(const KernelInfo& k);

/// Every kernel the simulator and the GPU can run, in the registry's order.
const std::vector<KernelInfo>& kernelList();
/// The kernel called `name`: a built-in one, else one loaded at run time
/// (sim/catalogue/loaded_kernels.hpp); nullptr if neither.
const KernelInfo* findKernel(const std::string& name);
/// Is `name` a registered convolution kernel (family Conv1D or Conv2D)?
bool isConvolution(const std::string& name);
/// The embedded text of a file under kernels/, or of a loaded kernel's file
/// (sim/catalogue/loaded_kernels.hpp), for the code view; empty if unknown.
const std::string& kernelSource(const std::string& file);

/// A kernel's compiled tile sizes as a sentence lists them: "2, 4, 8, 16 or 32", or
/// "2, 4, 8, 16, 32" without `withOr`.
std::string tileList(const KernelInfo& k, bool withOr = true);

}  // namespace ts::sim
