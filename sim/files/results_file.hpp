// Results files: what `tilescope-cli bench --json --out FILE` writes (docs/cli.md, "bench"),
// read back so that a machine without a GPU can show timings measured on another one (the
// Ladder and Roofline panels, `tilescope-cli roofline --results FILE`). Plain data; the
// roofline built from it is in sim/roofline.hpp. No UI, no CUDA.
#pragma once
#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace ts::sim {

/// A results file that cannot be used. what() is one sentence on one line that starts with
/// the file's path: "PATH: problem." (whatever the file brings into it passes through
/// oneLine).
struct ResultsFileError : std::runtime_error {
    explicit ResultsFileError(const std::string& message);
};

/// One timed kernel of a results file (an element of its `results` array).
struct ResultEntry {
    std::string kernel;                 ///< "matmul-tiled", "cublas", "conv2d-tiled", ...
    /// Matrix multiplication (a kernel of the matmul family, or cublas): M is j x k, N is
    /// k x l, and `tile` the kernel's --tile; all four present, each at least 1. Empty for a
    /// convolution or another kernel whose params are not j, k, l and tile.
    std::optional<int> j, k, l, tile;
    double gflops = 0;                  ///< 2 j k l / median time, in GFLOPS (>= 0)
    std::optional<double> msMedian;     ///< median time of one launch, milliseconds
    std::optional<double> percentOfCublas;   ///< its GFLOPS over cuBLAS's in the same run, percent
    /// Extension: registers per thread of the launched instance as compiled (what
    /// cudaFuncGetAttributes reports as numRegs, ptxas -v's figure), when the file says so
    /// (`registers`); the Ladder panel shows "—" without it.
    std::optional<int> registers;
    /// Extension: static shared memory per block of the launched instance, bytes
    /// (cudaFuncGetAttributes' sharedSizeBytes: the kernel's __shared__ arrays), when the file
    /// says so (`static_shared_bytes`, 0 for a kernel without shared memory).
    std::optional<int> staticSharedBytes;
    /// Extension: bytes the launch moved between DRAM and the chip, measured (a profiler's
    /// DRAM read + write bytes); without it the roofline uses the compulsory-bytes model.
    std::optional<double> dramBytes;

    /// Whether j, k, l and tile are all known (a matrix multiplication).
    bool isMatmul() const { return j && k && l && tile; }
};

/// A results file: where its timings were measured and the timings themselves.
struct ResultsFile {
    std::string path;                   ///< the file it was read from
    std::string device;                 ///< "NVIDIA H100 80GB HBM3"
    std::string computeCapability;      ///< "9.0" ("" when the file does not say)
    std::string driver;                 ///< the driver's CUDA version, "13.0" ("" when not said)
    std::string date;                   ///< ISO 8601, "2026-11-23T23:57:29Z" ("" when not said)
    /// The roofline's ceilings as measured when the file was written (bench --out): the FP32
    /// rate of independent fused multiply-adds (GFLOPS) and a device-to-device copy's
    /// bandwidth, bytes read plus bytes written (GB/s). Empty when the file has none (the
    /// output of bench --json without --out).
    std::optional<double> peakFp32Gflops, copyGbytesPerS;
    std::vector<ResultEntry> results;   ///< in file order; never empty

    /// "measured on NVIDIA H100 80GB HBM3, driver 13.0, 2026-11-23": the device, the driver
    /// and the day, those the file gives.
    std::string measuredOn() const;
};

/// The most bytes a results file may have (a ladder's file is about 4 KB).
inline constexpr size_t kMaxResultsBytes = 4u << 20;

/// Reads a results file's text; `path` names it in messages. Required: a JSON object with
/// `device` (a string) and `results` (a non-empty array of objects, each with `kernel`, a
/// non-empty string, `gflops`, a number >= 0, and `params`, an object; for a matrix
/// multiplication `params` holds whole numbers j, k, l and tile of at least 1). Optional,
/// checked where present: compute_capability, driver, date (strings), peak_fp32_gflops and
/// copy_gbytes_per_s (numbers > 0), and per result ms_median (> 0), percent_of_cublas
/// (>= 0), registers (a whole number of at least 1), static_shared_bytes (a whole number of
/// at least 0) and dram_bytes (> 0). Other keys are ignored. Throws ResultsFileError for
/// anything else; never crashes.
ResultsFile parseResultsText(std::string_view text, const std::string& path);

/// Writes the extension keys of one result that `bench` records for a kernel of the project
/// (not cuBLAS) into `result`, one object of a results file's `results` array:
/// `registers` (per thread) and `static_shared_bytes` (per block), each only where `e` has
/// it, so that parseResultsText reads back the same values. Other keys are left alone.
void writeResourceKeys(const ResultEntry& e, nlohmann::ordered_json& result);

/// Reads the results file at `path`: a path, or the name of a file in the assets' results
/// folder (resultsDirectory(), with or without ".json"). Throws ResultsFileError for a
/// missing, unreadable, empty or oversized file, a folder, or a malformed one.
ResultsFile loadResultsFile(const std::string& path);

/// The folder of the committed results files: `results/` beside the presets' `scenarios/`
/// (presetDirectory()).
std::string resultsDirectory();

}  // namespace ts::sim
