// The roofline of the optimisation ladder (docs/roofline.md): two ceilings, the FP32 peak
// and the memory bandwidth, and one point per timed kernel at its arithmetic intensity in
// FLOP per byte. A kernel at intensity I can run no faster than min(peak, bandwidth x I);
// PMPP sec. 5.1 makes the argument with an A100 (19,500 GFLOPS, 1,555 GB/s: the naive
// kernel's 0.25 OP/B bounds it at 389 GFLOPS). Points come from a results file
// (sim/files/results_file.hpp), their intensities from the simulator's memory model; with no file,
// the textbook's own examples. Also the counts that explain each rung of the ladder, taken
// from one simulation of each on a small problem. No UI, no CUDA.
#pragma once
#include <atomic>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "sim/files/results_file.hpp"
#include "sim/engine/types.hpp"

namespace ts::sim {

/// The A100 of PMPP 4th ed. sec. 5.1: peak single-precision throughput, GFLOPS.
inline constexpr double kTextbookA100PeakGflops = 19500;
/// The A100 of PMPP 4th ed. sec. 5.1: global (DRAM) memory bandwidth, GB/s.
inline constexpr double kTextbookA100MemoryGbytesPerS = 1555;

/// Where the ceilings come from.
enum class CeilingSource {
    Textbook,   ///< PMPP's A100 (sec. 5.1)
    Measured,   ///< a results file's peak_fp32_gflops and copy_gbytes_per_s, or this GPU now
    Unknown,    ///< a results file without them
};
/// "textbook", "measured", "unknown": as the JSON writes it.
const char* ceilingSourceName(CeilingSource s);

/// The two ceilings of a roofline.
struct RooflineCeilings {
    std::optional<double> peakFp32Gflops;      ///< GFLOPS
    std::optional<double> memoryGbytesPerS;    ///< GB/s
    CeilingSource source = CeilingSource::Unknown;
    /// How they were found, one sentence without its full stop ("independent fused
    /// multiply-adds and a device-to-device copy, measured on ...").
    std::string detail;

    /// The ridge point: peak / bandwidth, FLOP per byte, where the two roofs meet (empty
    /// unless both are known).
    std::optional<double> ridge() const;
    /// The roof at `intensity` FLOP per byte: min(peak, bandwidth x intensity), GFLOPS
    /// (empty unless both are known).
    std::optional<double> bound(double intensity) const;
};

/// Where a point's DRAM intensity comes from.
enum class DramSource {
    Measured,     ///< the results file's dram_bytes
    Compulsory,   ///< the compulsory-bytes model: M and N read once, P written once, 4 bytes an element
    Textbook,     ///< PMPP's count: every global load comes from DRAM, 4 bytes each (its OP/B)
    Unknown,      ///< no sizes to model it with
};
/// "measured", "compulsory", "textbook", "unknown": as the JSON writes it.
const char* dramSourceName(DramSource s);

/// One kernel on the roofline.
struct RooflinePoint {
    std::string kernel;
    /// The problem (matrix multiplication); 0 where unknown. The textbook's points have only
    /// a tile (TILE_WIDTH), or none for the naive kernel.
    int j = 0, k = 0, l = 0, tile = 0;
    double gflops = 0;                          ///< measured; for the textbook, its bound
    /// FLOPs per byte moved between DRAM and the chip (dramSource says which bytes).
    std::optional<double> intensityDram;
    DramSource dramSource = DramSource::Unknown;
    /// FLOPs per byte the kernel's global requests ask for (32 bytes per sector of its warp
    /// memory instructions, sim/engine/warp_memory.hpp), from a simulation; empty where unknown
    /// (cuBLAS, a convolution, a size the small simulation does not stand for).
    std::optional<double> intensityRequested;
    bool textbook = false;                      ///< PMPP's example, not a measurement
    std::optional<double> percentOfCublas;      ///< from the results file
    std::optional<int> registers;               ///< from the results file
    std::optional<int> staticSharedBytes;       ///< from the results file (bytes per block)
    std::string note;                           ///< what the textbook says of it ("" otherwise)
};

/// A roofline: its ceilings, its points and what they were measured on.
struct Roofline {
    RooflineCeilings ceilings;
    std::vector<RooflinePoint> points;
    bool textbook = false;        ///< PMPP's A100 profile and examples, nothing measured
    std::string device, driver, date, path;   ///< of the results file ("" for the textbook)
    /// "measured on NVIDIA H100 80GB HBM3, driver 13.0, 2026-11-23", or
    /// "textbook A100 profile (PMPP)".
    std::string caption;
};

/// FLOPs per compulsory byte of a j x k by k x l product: 2jkl / (4 (jk + kl + jl)).
double compulsoryIntensity(int j, int k, int l);

/// What the simulator counts for one kernel of the ladder on a small square problem: the
/// figures that explain a rung (docs/ladder.md) and the traffic its requests ask for.
struct RungCounts {
    std::string kernel;
    int tile = 0;
    int edge = 0;                 ///< the problem simulated: edge x edge times edge x edge
    std::string error;            ///< why there are no counts (then the rest is zero)
    unsigned threadsPerBlock = 0;
    Totals totals;                ///< the whole grid, memory model on

    /// Multiply-adds per element read from shared memory (0 when none is read).
    double fmasPerSharedLoad() const;
    /// Shared-memory bank conflicts, loads and stores: the wavefronts beyond the fewest the
    /// requests' bytes need (Totals::shared_ld_conflicts: one per request for 32-bit
    /// accesses, one per 128 distinct bytes of each half-warp for 128-bit ones), as Nsight
    /// Compute counts them.
    uint64_t sharedBankConflicts() const;
    /// Bytes of global load requests per FLOP: 32 x load sectors / flops. The same at every
    /// size whose edges are multiples of sizeGrain(): each block reads the same tiles, so
    /// the sectors grow with j x k x l as the FLOPs do.
    double loadBytesPerFlop() const;
    /// Bytes of global store requests per element of P: 32 x store sectors / edge^2.
    double storeBytesPerElement() const;
    /// FLOPs per requested byte of a j x k by k x l product of this kernel and tile:
    /// 2jkl / (loadBytesPerFlop x 2jkl + storeBytesPerElement x jl). Exact where j, k and l
    /// are multiples of the grain the counts were taken at (sizeGrain()); empty elsewhere,
    /// and when there are no counts.
    std::optional<double> requestedIntensity(int j, int k, int l) const;
};

/// The grain of a matmul kernel at a tile: the least multiple of the block's rows of P,
/// its columns of P, a phase's columns of M and 8 (32-byte sectors), so that a problem
/// whose j, l and k are multiples of it keeps every block's and every phase's access
/// pattern. 0 for a kernel that is not a matrix multiplication or a tile it lacks.
int sizeGrain(const std::string& kernel, int tile);

/// The smallest edge of the problem countRung simulates by default: 128.
inline constexpr int kRungCountEdge = 128;

/// The edge countRung simulates every rung of the ladder at by default, so that their
/// counts compare directly: the least common multiple of kRungCountEdge and every rung's
/// sizeGrain() at its default tile (256: matmul-warptiled's block covers 256 x 128 of P).
int ladderCountEdge();

/// Simulates `kernel` at `tile` on an edge^3 problem (0: the smallest common multiple of
/// ladderCountEdge() and sizeGrain()), no trace, the memory model on. A kernel that is
/// not a matrix multiplication, a tile it was not compiled for or a fault gives counts
/// with `error` set; never throws. `cancel`: as SimOptions::cancel.
RungCounts countRung(const std::string& kernel, int tile, int edge = 0, const std::atomic<bool>* cancel = nullptr);

/// The (kernel, tile) pairs a roofline or the Ladder panel needs counts of: every rung of
/// the ladder at its default tile, then each matrix multiplication of `results` (if any)
/// that is not one of them, cuBLAS excepted.
std::vector<std::pair<std::string, int>> rungsToCount(const ResultsFile* results);

/// The counts for `kernel` at `tile` among `counts`, or nullptr.
const RungCounts* findCounts(const std::vector<RungCounts>& counts, const std::string& kernel, int tile);

/// The textbook profile: PMPP's A100 ceilings and its examples as points, each at its
/// bound, with OP/B (flops / (4 x global loads), sim::opsPerByte) from a simulation of the
/// 64 x 64 product: matmul-naive (0.25 OP/B), matmul-tiled at TILE_WIDTH 16 (4 OP/B) and
/// 32 (8 OP/B).
Roofline textbookRoofline();

/// The roofline of a results file: its measured ceilings (or none), one point per result
/// in file order, intensities from `counts` (countRung of rungsToCount(&results); a point
/// whose counts are missing has no requested intensity).
Roofline resultsRoofline(const ResultsFile& results, const std::vector<RungCounts>& counts);

/// The same points against other ceilings (the textbook's, or the GPU's measured now).
Roofline withCeilings(Roofline r, const RooflineCeilings& c);

/// PMPP's A100 ceilings.
RooflineCeilings textbookCeilings();

/// The roofline as `tilescope-cli roofline --json` prints it (docs/cli.md): `profile`,
/// `caption`, the results file's device, driver, date and path where there is one,
/// `ceilings` {peak_fp32_gflops, memory_gbytes_per_s, source, detail, ridge_flop_per_byte}
/// and `points`, one object per point {kernel, params, gflops, intensity_dram,
/// intensity_requested, dram_source, requested_source, bound_gflops {dram, requested},
/// textbook, and where known percent_of_cublas, registers, static_shared_bytes, note}; null where unknown.
std::string rooflineJson(const Roofline& r, const std::string& profile);

}  // namespace ts::sim
