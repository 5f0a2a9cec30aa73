#include "sim/engine/work_estimate.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <sstream>

#include "sim/catalogue/loaded_kernels.hpp"
#include "sim/engine/problem.hpp"

#ifdef __linux__
#include <sys/resource.h>
#endif

namespace ts::sim {
namespace {

// ---------------------------------------------------------------------------------------
// The simulator's speed. Measured on the development machine (AMD EPYC, 2-core VM, Debian
// 12, GCC 12, Release build: -O3, -ffp-contract=off), one core, CPU time of sim::simulate()
// with every counter and the hazard detector on, over 31 scenarios of all seven kernels
// (matmul 256..512 with tiles 2..32; conv1d 2e6..4.2e6 elements, tiles 1..1024, Mask_Width
// 1..9; conv2d 700x900..1024x1024, tiles 2..32, Mask_Width 1..9), fitted by least squares of
// the relative error to the terms below; every scenario then lies within 0.75x..1.33x of its
// estimate. The traced block and the matrix-column walk were measured apart (see below). The
// test work_estimate_test.cpp (EstimateWithinFactorOfMeasuredRun) checks the model against a
// real run on the machine that builds it.
struct Speed {
    double thread = 126e-9;         ///< s per simulated thread: fiber, its first and last switch
    double block = 212e-9;          ///< s per block: counters, shared memory, rounds
    double globalAccess = 1.97e-9;  ///< s per global or constant element access (counted)
    double sharedAccess = 3.18e-9;  ///< s per shared access (counted, hazard bookkeeping)
    double barrierWait = 21.0e-9;   ///< s per thread parked at a barrier (two switches)
    double referenceFma = 1.8e-9;   ///< s per multiply-add of the CPU reference (std::fmaf)
    double inputElement = 12.0e-9;  ///< s per input element drawn, with its two counters
    /// s per recorded event of the traced block, recording and grouping into steps
    /// (buildTrace), which allocates much and so suffers most from a busy machine: one
    /// 1024-thread block of matmul-naive (no barriers: one interval holds every statement)
    /// took 675 ns an event with the machine nearly idle (12.6 M events, 8.5 s) and 1170 ns
    /// with other work on it (6.3 M events, 7.4 s); matmul-tiled 370 and 590 ns. Between.
    double tracedEventOneInterval = 800e-9;
    double tracedEventPhased = 450e-9;
};
constexpr Speed kSpeed;

/// The figures above are those of an idle machine. With other work on its two cores (two
/// builds and a test run), the same simulations took 1.1 to 1.5 times as long in CPU time
/// (shared caches), so the estimate adds a quarter: it errs on the long side, and stays
/// within about 1.7x of an idle run. tilescope-bench --benchmark_filter=EstimateVs compares
/// the estimate with real runs (two runs with a load average of 4 on the two cores: 0.67x to
/// 1.55x; the same run can differ by 1.6x from one time to the next on a busy machine).
constexpr double kBusyMargin = 1.25;

/// Bytes a recorded event costs while the trace is built: the raw event list and the
/// grouped one (sizeof(Event) each, vectors grown by doubling), plus, for a kernel without
/// barriers, every statement of the single interval at once (the 12.6 M events above peaked
/// at 1.5 GB, the tiled 13.1 M at 0.78 GB, measured with 20-byte events: the figures grow
/// with the event, which carries a shared store's origin since).
constexpr uint64_t kTraceBytesOneInterval = 128 * sizeof(Event) / 20;
constexpr uint64_t kTraceBytesPhased = 64 * sizeof(Event) / 20;

/// Walking down a column of N (matmul-naive's N[i*l + Col] with its load counter, the CPU
/// reference's inner loop) gets slower once a column's cache lines no longer fit in the
/// core's 512 KiB L2 cache (k above about 2048), and at any k from 1024 when a row of N is a
/// multiple of 4 KiB (l a multiple of 1024), whose rows then fall into the same cache sets.
/// Extra seconds per such load, measured with j = 64 and k = l from 724 to 8192: matmul-naive
/// took 5.3 ns per multiply-add at k = l = 1000, 1448 and 2000, 12.4 at 3000, 22 at 4096
/// and 5000, 15 to 19 at 1024 and 2048; the reference alone 1.5 to 1.8 ns up to 2000, 2.6 to
/// 2.8 at 3000 and 5000, 6.6 at 8000, 3.1, 5.7, 5.6 and 8.7 at 1024, 2048, 4096 and 8192.
/// Narrow rows (l below 1024) are walked faster (the prefetcher follows them): the extra is
/// scaled by l / 1024 (k = 8192, l = 512: 11.3 ns measured, 15 estimated).
struct ColumnWalk {
    double naive = 0, reference = 0;   ///< extra seconds per load
};

ColumnWalk columnWalk(uint64_t k, uint64_t l)
{
    auto ramp = [k](double from, double to) {
        return std::clamp(std::log2(static_cast<double>(k) / from) / std::log2(to / from), 0.0, 1.0);
    };
    ColumnWalk w{14e-9 * ramp(2048, 4096), 5e-9 * ramp(2048, 8192)};
    if (l % 1024 == 0 && k >= 1024) {
        w.naive = std::max(w.naive, 9e-9);
        w.reference = std::max(w.reference, 4e-9);
    }
    const double narrow = std::min(1.0, static_cast<double>(l) / 1024.0);
    w.naive *= narrow;
    w.reference *= narrow;
    return w;
}

constexpr uint64_t kStackBytes = 64 * 1024;      ///< one fiber's stack (sim/engine/machine.cpp)
constexpr uint64_t kBaseBytes = 32ull << 20;     ///< the program, its libraries and heap
constexpr uint64_t kTotalsBytes = sizeof(Totals);

/// Elements of `size` covered by a block of `edge` starting at `first`.
uint64_t valid(uint64_t first, uint64_t edge, uint64_t size)
{
    return first >= size ? 0 : std::min(edge, size - first);
}

/// "1.25e11", or the number itself below a million.
std::string countWords(uint64_t n)
{
    if (n < 1000000) return std::to_string(n);
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.2e", static_cast<double>(n));   // "1.25e+11"
    std::string t = buf;
    const size_t e = t.find('e');
    std::string mant = t.substr(0, e);
    while (mant.back() == '0') mant.pop_back();
    if (mant.back() == '.') mant.pop_back();
    return mant + "e" + std::to_string(std::stoi(t.substr(e + 1)));
}

/// The first number of `line` after its label ("MemAvailable:   123 kB" gives 123).
std::optional<uint64_t> numberAfter(const std::string& line, const std::string& label)
{
    if (line.rfind(label, 0) != 0) return std::nullopt;
    std::istringstream in(line.substr(label.size()));
    uint64_t v = 0;
    if (in >> v) return v;
    return std::nullopt;
}

/// A "Label: N kB" line of a /proc file, in bytes.
std::optional<uint64_t> procKilobytes(const char* file, const std::string& label)
{
    std::ifstream in(file);
    for (std::string line; std::getline(in, line);)
        if (auto v = numberAfter(line, label)) return *v * 1024;
    return std::nullopt;
}

/// A file holding one number ("max" or unreadable: empty).
std::optional<uint64_t> fileNumber(const char* file)
{
    std::ifstream in(file);
    uint64_t v = 0;
    if (in >> v) return v;
    return std::nullopt;
}

}  // namespace

WorkEstimate& WorkEstimate::operator+=(const WorkEstimate& o)
{
    blocks += o.blocks;
    threads += o.threads;
    fmas += o.fmas;
    globalAccesses += o.globalAccesses;
    sharedAccesses += o.sharedAccesses;
    barrierWaits += o.barrierWaits;
    stridedLoads += o.stridedLoads;
    referenceFmas += o.referenceFmas;
    tracedEvents += o.tracedEvents;
    dataBytes += o.dataBytes;
    counterBytes += o.counterBytes;
    stackBytes = std::max(stackBytes, o.stackBytes);   // one launch runs at a time
    traceBytes += o.traceBytes;
    baseBytes = std::max(baseBytes, o.baseBytes);
    setupSeconds += o.setupSeconds;
    runSeconds += o.runSeconds;
    traceSeconds += o.traceSeconds;
    return *this;
}

WorkEstimate estimateWork(const Scenario& s, const SimOptions& opt)
{
    WorkEstimate e;
    const KernelInfo* info = s.kernelInfo();
    if (!info) return e;
    const LaunchShape sh = launchShape(s);
    const uint64_t perBlock = sh.block.count();
    e.blocks = sh.grid.count();
    e.threads = e.blocks * perBlock;
    // A row of several launches runs every one (KernelInfo::laterGrids).
    for (int l = 1; l <= launchCount(s); ++l)
        if (l != s.launch) e.threads += launchShapeOf(s, l).grid.count() * launchShapeOf(s, l).block.count();
    const uint64_t T = static_cast<uint64_t>(std::max(1, s.tile));
    const unsigned dropped = static_cast<unsigned>(std::popcount(s.dropBarriers & info->barriers));
    const Uint3 tb = s.block;   // the traced block

    uint64_t elemM = 0, elemN = 0, elemP = 0;   // array sizes
    uint64_t blockEvents = 0;                   // events of the traced block
    bool phased = false;                        // the kernel has barriers (intervals)
    ColumnWalk walk;                            // extra cost of walking N's columns

    if (info->family == Family::Matmul) {
        const uint64_t j = s.j, k = s.k, l = s.l;
        elemM = j * k;
        elemN = k * l;
        elemP = j * l;
        walk = columnWalk(k, l);
        e.referenceFmas = j * k * l;
        // The traced block's rows and columns of P (along the grid's x for a kernel that
        // takes Row from x, matmul-naive-uncoalesced)
        const bool x = gridXOverRows(s);
        const uint64_t validRows = x ? valid(1ull * tb.x * sh.block.x, sh.block.x, j) : valid(1ull * tb.y * sh.block.y, sh.block.y, j);
        const uint64_t validCols = x ? valid(1ull * tb.y * sh.block.y, sh.block.y, l) : valid(1ull * tb.x * sh.block.x, sh.block.x, l);
        const uint64_t validThreads = validRows * validCols;
        if (!info->tiled) {
            // Every valid thread: k multiply-adds of M[Row*k + i] and N[i*l + Col], one store.
            e.fmas = j * k * l;
            e.globalAccesses = 2 * e.fmas + elemP;
            e.stridedLoads = e.fmas;
            blockEvents = validThreads * (3 * k + 1);
        } else {
            // Every thread fills one Mds and one Nds slot a phase; the valid ones multiply
            // TILE_WIDTH pairs a phase; each block loads its band of M and of N once.
            const uint64_t phases = (k + T - 1) / T;
            e.fmas = j * l * phases * T;
            e.globalAccesses = j * k * sh.grid.x + k * l * sh.grid.y + elemP;
            e.sharedAccesses = 2 * e.fmas + 2 * phases * e.threads;
            const uint64_t barriers = (2 - std::min(2u, dropped)) * phases;
            e.barrierWaits = e.threads * barriers;
            // A fill is a zero fill (one event) or a load and a store (two): the block loads
            // its rows of M and columns of N whole, k elements each.
            blockEvents = 2 * perBlock * phases + (validRows + validCols) * k +
                          validThreads * (3 * phases * T + 1) + barriers;
            phased = barriers > 0;
        }
    } else if (info->family == Family::Array) {
        // A student's array problem: each thread reads its inputs' elements, may pass them
        // through shared memory, and stores one output element; the reference evaluates the
        // formula once per output element.
        if (const std::shared_ptr<const ArraySpec> spec = arraySpecOf(info->name)) {
            const Variables v = spec->sizeValues(s);
            uint64_t* slot[2] = {&elemM, &elemN};
            size_t input = 0;
            for (const ArrayDecl& a : spec->arrays) {
                int rows = 0, cols = 0;
                std::string error;
                if (!spec->shape(a, v, rows, cols, error)) continue;
                const uint64_t n = 1ull * rows * cols;
                if (a.output) elemP = n;
                else if (!a.scratch && input < 2) *slot[input++] = n;
            }
        }
        e.referenceFmas = elemP;
        e.globalAccesses = elemM + elemN + elemP;
        e.sharedAccesses = 2 * elemP;
        blockEvents = perBlock * 6 + 1;
    } else {
        const bool twoD = info->family == Family::Conv2D;
        const uint64_t rows = twoD ? static_cast<uint64_t>(s.height) : 1;
        const uint64_t n = static_cast<uint64_t>(s.maskWidth / 2);
        const uint64_t taps = twoD ? 1ull * s.maskWidth * s.maskWidth : static_cast<uint64_t>(s.maskWidth);
        elemN = elemP = rows * s.width;
        elemM = taps;
        const uint64_t inRange = convUntiledGlobalLoads(s);   // taps inside N, all outputs
        e.referenceFmas = inRange;
        const uint64_t barrierWaits = e.threads * (1 - std::min(1u, dropped));
        if (!info->tiled) {
            // One thread per output: N and the mask for every tap inside N, one store.
            e.fmas = inRange;
            e.globalAccesses = 2 * inRange + elemP;
            blockEvents = perBlock * (3 * taps + 1);
        } else if (info->haloFromGlobal) {
            // N_ds holds the block's own tile; halo taps are read from global memory.
            const uint64_t halo = e.blocks * n * (n + 1);
            e.fmas = inRange;
            e.sharedAccesses = e.threads + (inRange - std::min(inRange, halo));
            e.globalAccesses = elemN + halo + inRange + elemP;
            e.barrierWaits = barrierWaits;
            blockEvents = perBlock * (2 + 3 * taps + 1) + 1;
            phased = barrierWaits > 0;
        } else {
            // N_ds holds the input tile with its halo (edge threads load the 1D halo; in 2D
            // the block is the input tile); every output-tile thread uses every tap.
            const uint64_t computing = twoD ? e.blocks * T * T : e.threads;
            const uint64_t fills = twoD ? e.threads : e.blocks * (T + 2 * n);
            e.fmas = computing * taps;
            e.sharedAccesses = e.fmas + fills;
            e.globalAccesses = fills + e.fmas + elemP;
            e.barrierWaits = barrierWaits;
            const uint64_t blockComputing = twoD ? T * T : perBlock;
            blockEvents = 2 * fills / std::max<uint64_t>(1, e.blocks) + blockComputing * (3 * taps + 1) + 1;
            phased = barrierWaits > 0;
        }
    }

    // Memory: the inputs, P and the reference as floats; a load and a store counter
    // (uint32_t) per element of M, N and P; the totals of every block; one block's stacks.
    e.dataBytes = 4 * (elemM + elemN + 2 * elemP);
    e.counterBytes = 8 * (elemM + elemN + elemP) + kTotalsBytes * e.blocks;
    const KernelInfo* stackOwner = s.kernelInfo();
    e.stackBytes = (stackOwner && stackOwner->stackBytes ? stackOwner->stackBytes : kStackBytes) * perBlock;
    e.baseBytes = kBaseBytes;
    if (opt.trace) {
        e.tracedEvents = blockEvents;
        e.traceBytes = blockEvents * (phased ? kTraceBytesPhased : kTraceBytesOneInterval);
        e.traceSeconds = static_cast<double>(blockEvents) *
                         (phased ? kSpeed.tracedEventPhased : kSpeed.tracedEventOneInterval);
    }

    e.setupSeconds = static_cast<double>(e.referenceFmas) * (kSpeed.referenceFma + walk.reference) +
                     static_cast<double>(elemM + elemN) * kSpeed.inputElement;
    e.runSeconds = static_cast<double>(e.threads) * kSpeed.thread +
                   static_cast<double>(e.blocks) * kSpeed.block +
                   static_cast<double>(e.globalAccesses) * kSpeed.globalAccess +
                   static_cast<double>(e.sharedAccesses) * kSpeed.sharedAccess +
                   static_cast<double>(e.barrierWaits) * kSpeed.barrierWait +
                   static_cast<double>(e.stridedLoads) * walk.naive;
    e.setupSeconds *= kBusyMargin;
    e.runSeconds *= kBusyMargin;
    e.traceSeconds *= kBusyMargin;
    return e;
}

std::optional<uint64_t> availableMemory()
{
#ifdef __linux__
    std::optional<uint64_t> best;
    auto take = [&](uint64_t v) { best = best ? std::min(*best, v) : v; };
    if (auto avail = procKilobytes("/proc/meminfo", "MemAvailable:")) take(*avail);
    // A cgroup v2 limit (containers): what is left of memory.max.
    if (auto max = fileNumber("/sys/fs/cgroup/memory.max")) {
        const uint64_t used = fileNumber("/sys/fs/cgroup/memory.current").value_or(0);
        take(*max - std::min(*max, used));
    }
    // ulimit -v: what is left of the address space.
    rlimit as{};
    if (getrlimit(RLIMIT_AS, &as) == 0 && as.rlim_cur != RLIM_INFINITY) {
        const uint64_t used = procKilobytes("/proc/self/status", "VmSize:").value_or(0);
        const uint64_t limit = static_cast<uint64_t>(as.rlim_cur);
        take(limit - std::min(limit, used));
    }
    return best;
#else
    return std::nullopt;
#endif
}

WorkVerdict judgeWork(const WorkEstimate& e, std::optional<uint64_t> available, double askAbove)
{
    if (available && e.bytes() > *available) return WorkVerdict::TooBig;
    if (e.seconds() > askAbove) return WorkVerdict::Ask;
    return WorkVerdict::Run;
}

std::string problemWords(const Scenario& s)
{
    std::ostringstream o;
    o << s.kernel << " at ";
    switch (familyOf(s)) {
    case Family::Matmul:
        if (s.j == s.k && s.k == s.l) o << "width " << s.j;
        else o << "j " << s.j << ", k " << s.k << ", l " << s.l;
        break;
    case Family::Conv1D: o << "width " << s.width << ", Mask_Width " << s.maskWidth; break;
    case Family::Conv2D:
        o << "height " << s.height << ", width " << s.width << ", Mask_Width " << s.maskWidth;
        break;
    case Family::Array:
        if (const std::shared_ptr<const ArraySpec> spec = arraySpecOf(s.kernel)) {
            const Variables v = spec->sizeValues(s);
            for (size_t i = 0; i < spec->sizes.size(); ++i) o << (i ? ", " : "") << spec->sizes[i] << " " << v.at(spec->sizes[i]);
        } else {
            o << "width " << s.width;
        }
        break;
    }
    o << ", tile " << s.tile;
    return o.str();
}

std::string durationWords(double seconds)
{
    if (!(seconds >= 1)) return "under a second";
    std::ostringstream o;
    if (seconds < 59.5) {
        o << std::llround(seconds) << " s";
        return o.str();
    }
    const long long minutes = std::llround(seconds / 60);
    const long long hours = minutes / 60, days = hours / 24;
    if (minutes < 60) o << minutes << " min";
    else if (hours < 48) o << hours << " h" << (minutes % 60 ? " " : "") << (minutes % 60 ? std::to_string(minutes % 60) + " min" : "");
    else o << days << " days" << (hours % 24 ? " " : "") << (hours % 24 ? std::to_string(hours % 24) + " h" : "");
    return o.str();
}

std::string byteWords(uint64_t bytes)
{
    char buf[32];
    const double b = static_cast<double>(bytes);
    if (bytes < (1ull << 20)) std::snprintf(buf, sizeof buf, "%.0f KiB", std::ceil(b / 1024));
    else if (bytes < (1ull << 30)) std::snprintf(buf, sizeof buf, "%.0f MiB", std::ceil(b / (1 << 20)));
    else std::snprintf(buf, sizeof buf, "%.1f GiB", b / (1ull << 30));
    return buf;
}

std::string durationSentence(const Scenario& s, const WorkEstimate& e)
{
    const std::string d = durationWords(e.seconds());
    std::string t = "Simulating " + problemWords(s) + " takes " + (e.seconds() >= 1 ? "about " : "") + d +
                    " on this machine when it is idle, up to " + durationWords(e.busySeconds()) +
                    " when it is busy (" + countWords(e.fmas) + " multiply-adds";
    if (e.tracedEvents && e.traceSeconds >= 0.1 * e.seconds())
        t += "; recording the " + countWords(e.tracedEvents) + " events of block (" + std::to_string(s.block.x) +
             ", " + std::to_string(s.block.y) + ") takes " + durationWords(e.traceSeconds) + " of it";
    return t + ")";
}

std::string memorySentence(const Scenario& s, const WorkEstimate& e, uint64_t available)
{
    std::string t = "Simulating " + problemWords(s) + " needs about " + byteWords(e.bytes()) +
                    " of memory (inputs, P and counters " + byteWords(e.dataBytes + e.counterBytes);
    if (e.traceBytes)
        t += ", trace of block (" + std::to_string(s.block.x) + ", " + std::to_string(s.block.y) + ") " +
             byteWords(e.traceBytes);
    return t + "), more than the " + byteWords(available) + " available on this machine";
}

}  // namespace ts::sim
