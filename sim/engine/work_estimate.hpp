// How much work a simulation is before it starts: counted from the scenario alone (kernel,
// sizes, tile, Mask_Width, dropped barriers, whether a block is traced), turned into an
// estimated time with the simulator's speed measured on the development machine, and the
// memory it needs compared with what this machine has free. The CLI asks for --yes and
// the app asks before a long run; both refuse a run that would not fit in memory.
#pragma once
#include <cstdint>
#include <optional>
#include <string>

#include "sim/catalogue/scenario.hpp"
#include "sim/engine/simulate.hpp"

namespace ts::sim {

/// Above this many estimated seconds the CLI wants --yes and the app asks first.
inline constexpr double kAskAboveSeconds = 10.0;

/// How much longer a run takes while other programs keep the machine's cores busy: the
/// app's 1024 x 1024 run took 52 s against an estimate of 21 s with six builds sharing the
/// development machine's two cores (2.5x). The estimate gives this as the upper end of its
/// range (WorkEstimate::busySeconds).
inline constexpr double kBusySlowdown = 2.5;

/// The work of one sim::simulate() call. Counts are whole-grid figures of the simulated
/// kernel; exact for matrix multiplication, within a few per cent for convolutions (halo
/// and ghost cells are not told apart). Bytes are the peak the simulation holds at once.
struct WorkEstimate {
    uint64_t blocks = 0;           ///< blocks in the grid
    uint64_t threads = 0;          ///< simulated CUDA threads (one fiber each)
    uint64_t fmas = 0;             ///< multiply-adds the kernel executes (flops / 2)
    uint64_t globalAccesses = 0;   ///< global loads and stores and constant loads, elements
    uint64_t sharedAccesses = 0;   ///< shared loads and stores (zero fills included), elements
    uint64_t barrierWaits = 0;     ///< times a thread waits at a __syncthreads(), summed
    uint64_t stridedLoads = 0;     ///< loads that walk down a column of N, one row apart
    uint64_t referenceFmas = 0;    ///< multiply-adds of the CPU reference
    uint64_t tracedEvents = 0;     ///< events recorded for the traced block (0 without trace)

    uint64_t dataBytes = 0;        ///< inputs, P and the reference
    uint64_t counterBytes = 0;     ///< per-element load and store counters, per-block totals
    uint64_t stackBytes = 0;       ///< fiber stacks of one block
    uint64_t traceBytes = 0;       ///< the traced block's events and steps while they are built
    uint64_t baseBytes = 0;        ///< the program itself, roughly

    double setupSeconds = 0;       ///< inputs and CPU reference
    double runSeconds = 0;         ///< the grid of fibers with every counter
    double traceSeconds = 0;       ///< recording and grouping the traced block's events

    /// Estimated time on this machine, seconds (CPU time of one core, the machine otherwise
    /// idle, with a margin of a quarter for light load).
    double seconds() const { return setupSeconds + runSeconds + traceSeconds; }
    /// The longest it is likely to take while other programs keep the cores busy, seconds.
    double busySeconds() const { return seconds() * kBusySlowdown; }
    /// Estimated peak memory, bytes.
    uint64_t bytes() const { return dataBytes + counterBytes + stackBytes + traceBytes + baseBytes; }
    /// Adds the work of a second simulation held at the same time (the app's run with every
    /// barrier in place next to one with a dropped barrier): times and bytes add up.
    WorkEstimate& operator+=(const WorkEstimate& o);
};

/// The work of simulate(s, opt); `s` must pass validate(). Cheap (no simulation is run).
WorkEstimate estimateWork(const Scenario& s, const SimOptions& opt = {});

/// Bytes this process may still allocate: the smallest of MemAvailable in /proc/meminfo,
/// the cgroup's memory.max less memory.current, and RLIMIT_AS less the process's virtual
/// size, where each is known; empty where none is (not Linux).
std::optional<uint64_t> availableMemory();

/// What to do with a simulation of estimate `e`.
enum class WorkVerdict {
    Run,      ///< short enough: run it
    Ask,      ///< longer than `askAbove` seconds: run only when the user agrees
    TooBig,   ///< needs more memory than `available`: refuse, whatever the user says
};

/// Judges `e` against `available` bytes (no memory check when empty) and `askAbove` seconds.
WorkVerdict judgeWork(const WorkEstimate& e, std::optional<uint64_t> available,
                      double askAbove = kAskAboveSeconds);

/// "matmul-naive at width 5000, tile 16": the scenario's kernel and sizes in words.
std::string problemWords(const Scenario& s);
/// "45 s", "13 min", "3 h 10 min", "2 days 4 h": a duration rounded for people.
std::string durationWords(double seconds);
/// "512 MiB", "2.4 GiB": a size in binary units.
std::string byteWords(uint64_t bytes);

/// "Simulating matmul-naive at width 5000, tile 16 takes about 1 h on this machine when it
/// is idle, up to 2 h 30 min when it is busy (1.25e11 multiply-adds)": the estimate and
/// busySeconds(), no final stop, so that the CLI and the app can add their own ending
/// ("; add --yes to run it anyway.").
std::string durationSentence(const Scenario& s, const WorkEstimate& e);
/// "Simulating ... needs about 26.3 GiB of memory (inputs and counters 2.1 GiB, trace of
/// block (0, 0) 24.2 GiB), more than the 21.5 GiB available on this machine": no final stop.
std::string memorySentence(const Scenario& s, const WorkEstimate& e, uint64_t available);

}  // namespace ts::sim
