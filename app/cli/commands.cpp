#include "commands.hpp"

#include <unistd.h>

#include <algorithm>
#include <charconv>
#include <chrono>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <limits>
#include <nlohmann/json.hpp>
#include <random>
#include <sstream>

#include "array_options.hpp"
#include "conv_options.hpp"
#include "warps_output.hpp"
#include "grade_class.hpp"
#include "kernels/context.cuh"
#include "gpu/gpu.hpp"
#include "gpu/kernel_resources.hpp"
#include "sim/catalogue/agreement_cases.hpp"
#include "sim/catalogue/kernel_info.hpp"
#include "sim/catalogue/loaded_kernels.hpp"
#include "sim/files/results_file.hpp"
#include "sim/engine/loaded_runner.hpp"
#include "sim/engine/simulate.hpp"
#include "sim/engine/warp_memory.hpp"
#include "sim/engine/provenance.hpp"
#include "sim/teaching/scan_network.hpp"
#include "sim/teaching/wrong_element.hpp"
#include "work_check.hpp"
#ifdef TILESCOPE_HAVE_STUDENT
#include "sim/engine/work_estimate.hpp"
#include "student/exercise.hpp"
#include "student/module.hpp"
#include "student/confine.hpp"
#endif

namespace ts::cli {
namespace {

using nlohmann::ordered_json;

/// --seed, --schedule-seed: a whole number from 0 to 2^64 - 1. A negative seed is refused
/// (the conversion to unsigned would otherwise wrap it round without a word).
CLI::Validator seedValidator()
{
    return CLI::Validator(
        [](std::string& in) {
            if (!in.empty() && in.find_first_not_of("0123456789") == std::string::npos) return std::string();
            return "must be a whole number from 0 to " + std::to_string(std::numeric_limits<unsigned long long>::max()) +
                   " (a seed cannot be negative); got '" + in + "'";
        },
        "0..2^64-1");
}

/// --threads: the number of worker threads a simulation runs on, a whole number from 1 to
/// 1024 (leaving the option out means one per core; 0 is refused rather than taken as that).
CLI::Validator threadsValidator()
{
    return CLI::Validator(
        [](std::string& in) {
            unsigned long long n = 0;
            const auto [end, ec] = std::from_chars(in.data(), in.data() + in.size(), n);
            if (!in.empty() && ec == std::errc() && end == in.data() + in.size() && n >= 1 && n <= 1024)
                return std::string();
            return "must be a whole number of worker threads from 1 to 1024 (leave --threads out to use every core); got '" +
                   in + "'";
        },
        "1..1024");
}

/// Adds --threads to a subcommand that simulates.
void addThreadsOption(CLI::App* c, unsigned& threads)
{
    c->add_option("--threads", threads, "Worker threads that simulate blocks at once, 1 to 1024 (default: one per core)")
        ->check(threadsValidator());
}

}  // namespace

void addUnconfinedFlag(CLI::App* c)
{
    c->add_flag_callback(
        "--allow-unconfined",
        [] {
#ifdef TILESCOPE_HAVE_STUDENT
            student::allowUnconfined(true);
#endif
        },
        "Run a kernel file even where no sandbox can be made (bubblewrap missing, or no user namespaces): only for a "
        "file you trust (docs/security.md)");
}

namespace {

void addProblemOptions(CLI::App* c, ProblemOptions& o, bool kernelList, bool kernelFile = false)
{
    if (kernelFile) addUnconfinedFlag(c);
    CLI::Option* kernel = c->add_option(
        "--kernel", o.kernel,
        kernelList ? "Kernel name(s), comma-separated: matmul-naive, matmul-tiled, cublas, ...; ladder: every rung of the optimisation ladder and cuBLAS"
                   : "Kernel name: matmul-naive or matmul-tiled (list-kernels shows all)");
    if (kernelFile && kernelList) {
        // bench: the student's kernel is timed beside the --kernel list (default: PMPP's
        // kernel of its kind and cuBLAS).
        CLI::Option* file = c->add_option("--kernel-file", o.kernelFile,
                                          "Your own kernel file (docs/student-kernels.md), compiled by NVRTC and timed "
                                          "first, beside --kernel (default: matmul-tiled or matmul-naive, and cublas)");
        c->add_option("--exercise", o.exercise,
                      "With --kernel-file: the exercise (grade --list) whose launch the file gets; --kernel defaults to "
                      "its reference kernel")
            ->needs(file);
        c->callback([kernel, file] {
            if (kernel->count() == 0 && file->count() == 0)
                throw CLI::RequiredError("--kernel NAME or --kernel-file FILE");
        });
    } else if (kernelFile) {
        CLI::Option* file = c->add_option("--kernel-file", o.kernelFile,
                                          "Your own kernel: a plain CUDA file with one __global__ matrix multiplication or convolution "
                                          "kernel (docs/student-kernels.md), compiled and simulated instead of --kernel");
        kernel->excludes(file);
        c->add_option("--exercise", o.exercise,
                      "With --kernel-file: the exercise (grade --list) whose launch the file gets, run at its public size "
                      "unless sizes are given")
            ->needs(file);
        c->callback([kernel, file] {
            if (kernel->count() == 0 && file->count() == 0)
                throw CLI::RequiredError("--kernel NAME or --kernel-file FILE");
        });
    } else {
        kernel->required();
    }
    c->add_option("--width", o.width, "Square problem: M, N and P are Width x Width; convolution: elements per row of N");
    c->add_option("--j", o.j, "Rows of M and P");
    c->add_option("--k", o.k, "Columns of M, rows of N");
    c->add_option("--l", o.l, "Columns of N and P");
    c->add_option("--tile", o.tile,
                  "TILE_WIDTH (tiled) or block edge (naive), elements per side; default: the kernel's own (16, or the tuned "
                  "tile of an optimisation-ladder rung, list-kernels)");
    c->add_option("--seed", o.seed, "Input seed: M and N are pseudo-random in [-1, 1) drawn from it")
        ->capture_default_str()
        ->check(seedValidator());
    c->add_option("--text-file", o.textFile,
                  "Histograms (a char input): count this text file (at most 1 MiB of text) instead of the book's phrase; "
                  "--width defaults to its length");
    c->add_option("--text-skew", o.textSkew,
                  "Histograms: random letters instead of the book's phrase, this percent of them 'e' (0 to 100)");
    addConvOptions(c, o);
}

/// The time now, UTC, ISO 8601 ("2026-11-23T23:59:00Z").
std::string isoDateNow()
{
    const std::time_t t = std::time(nullptr);
    std::tm utc{};
    gmtime_r(&t, &utc);
    char b[32];
    std::strftime(b, sizeof b, "%Y-%m-%dT%H:%M:%SZ", &utc);
    return b;
}

/// A percentage with one decimal ("87.4").
std::string percentText(double p)
{
    std::ostringstream o;
    o << std::fixed << std::setprecision(1) << p;
    return o.str();
}

/// Builds a scenario from the size options; returns an error sentence or "".
std::string toScenario(const ProblemOptions& o, const std::string& kernel, sim::Scenario& s)
{
    if (sim::isConvolution(kernel) && (!o.textFile.empty() || o.textSkew))
        return "--text-file and --text-skew apply to kernels with a char input (the histograms), not " + kernel + ".";
    if (sim::isConvolution(kernel)) return toConvScenario(o, kernel, s);
    if (const sim::KernelInfo* k = sim::findKernel(kernel); k && k->family == sim::Family::Array)
        return toArrayScenario(o, kernel, s);
    if (!o.textFile.empty() || o.textSkew)
        return "--text-file and --text-skew apply to kernels with a char input (the histograms), not " + kernel + ".";
    s.kernel = kernel;
    if (o.height || o.maskWidth) return "--height and --mask-width apply to the convolution kernels only.";
    if (o.width && (o.j || o.k || o.l))
        return "Give either --width or --j/--k/--l, not both.";
    if (o.width) {
        if (*o.width < 1 || *o.width > sim::kMaxEdge)
            return "--width must be between 1 and " + std::to_string(sim::kMaxEdge) + "; got " +
                   std::to_string(*o.width) + ".";
        s.j = s.k = s.l = *o.width;
    } else if (o.j && o.k && o.l) {
        s.j = *o.j;
        s.k = *o.k;
        s.l = *o.l;
    } else {
        return "Give the problem size: --width W, or all three of --j, --k and --l.";
    }
    s.tile = tileOrDefault(o, kernel);
    s.seed = o.seed;
    return {};
}

ordered_json totalsJson(const sim::Totals& t)
{
    return ordered_json{{"global_loads", t.global_loads},     {"global_stores", t.global_stores},
                        {"shared_loads", t.shared_loads},     {"shared_stores", t.shared_stores},
                        {"constant_loads", t.constant_loads}, {"zero_fills", t.zero_fills},
                        {"barriers", t.barriers},             {"flops", t.flops}};
}

double ratio(uint64_t a, uint64_t b) { return b ? static_cast<double>(a) / static_cast<double>(b) : 0.0; }


/// The ts::kernels::Barrier bit named on the command line ("" for none).
unsigned barrierBits(const std::string& name)
{
    return sim::barrierBitNamed(name);
}

/// Rounds for JSON so that 10/3 prints as 3.333 (the spec's precision), not 3.3333333.
double round3(double v) { return std::round(v * 1000.0) / 1000.0; }

/// The longest scan whose one block simulate traces for its network (`scan` of --json).
constexpr int kScanTraceLimit = 1 << 16;

/// The `scan` object of simulate --json (docs/cli.md) for PMPP ch. 11's scans: the adds the
/// simulator counted, PMPP's formulas at the section's n, and, from the traced block, the
/// network's adds (a second count, from the events) and steps.
ordered_json scanJson(const sim::KernelInfo& k, const sim::Scenario& s, const sim::Simulation& r)
{
    const uint64_t n = k.scanElementsPerThread > 0 ? 1ull * static_cast<unsigned>(k.scanElementsPerThread) * r.block.x
                                                   : static_cast<uint64_t>(s.width);
    const uint64_t adds = r.counters.totals.fadds;
    ordered_json j{{"n", n},
                   {"adds", adds},
                   {"sequential_adds", sim::sequentialScanAdds(n)},
                   {"work_efficiency", round3(ratio(sim::sequentialScanAdds(n), adds))}};
    if ((n & (n - 1)) == 0) {
        j["kogge_stone_adds"] = sim::koggeStoneAdds(n);
        j["brent_kung_adds"] = sim::brentKungAdds(n);
    }
    if (r.grid.count() > 1) j["blocks"] = r.grid.count();
    // The traced block's network: the whole scan's when it is the only block of the only launch.
    if (!r.trace.events.empty() && r.grid.count() == 1 && sim::launchCount(k) == 1) {
        const sim::ScanNetwork net = sim::scanNetwork(r.trace);
        j["trace_adds"] = net.adds;
        j["steps"] = net.steps;
        j["levels"] = net.levels.size();
    }
    return j;
}

const char* spaceName(sim::Space s)
{
    return s == sim::Space::Global ? "global" : s == sim::Space::Shared ? "shared" : "constant";
}

/// The `memory` object of simulate --json (docs/cli.md): warp memory instructions and
/// their transactions, whole grid and per source line.
ordered_json memoryJson(const sim::Simulation& r)
{
    const sim::Totals& t = r.counters.totals;
    ordered_json m;
    m["global_ld_requests"] = t.global_ld_requests;
    m["global_ld_sectors"] = t.global_ld_sectors;
    m["global_st_requests"] = t.global_st_requests;
    m["global_st_sectors"] = t.global_st_sectors;
    m["sectors_per_request"] = round3(ratio(t.global_ld_sectors, t.global_ld_requests));
    m["shared_ld_requests"] = t.shared_ld_requests;
    m["shared_ld_wavefronts"] = t.shared_ld_wavefronts;
    m["shared_ld_bank_conflicts"] = t.shared_ld_wavefronts - t.shared_ld_requests;
    m["shared_st_requests"] = t.shared_st_requests;
    m["shared_st_wavefronts"] = t.shared_st_wavefronts;
    m["shared_st_bank_conflicts"] = t.shared_st_wavefronts - t.shared_st_requests;
    // Extension: the wavefronts beyond the fewest the requests' bytes need, Nsight Compute's
    // bank conflicts; the same as the contract's wavefronts - requests for 32-bit accesses,
    // fewer for 128-bit ones (which need up to 4 wavefronts without a conflict).
    m["shared_ld_wavefronts_beyond_needed"] = t.shared_ld_conflicts;
    m["shared_st_wavefronts_beyond_needed"] = t.shared_st_conflicts;
    m["constant_ld_requests"] = t.constant_ld_requests;
    m["constant_ld_serializations"] = t.constant_ld_passes - t.constant_ld_requests;
    m["requested_bytes"] = sim::requestedBytes(t);
    m["compulsory_bytes"] = sim::compulsoryBytes(r);
    m["compulsory_read_bytes"] = sim::compulsoryReadBytes(r);
    m["compulsory_write_bytes"] = sim::compulsoryWriteBytes(r);
    ordered_json lines = ordered_json::array();
    for (const sim::LineMemory& l : sim::memoryByLine(r.accessSites)) {
        ordered_json e;
        e["line"] = l.line;
        e["space"] = spaceName(l.space);
        e["op"] = l.store ? "st" : "ld";
        e["requests"] = l.requests;
        e["sectors"] = l.space == sim::Space::Global ? ordered_json(l.sectors) : ordered_json(nullptr);
        e["wavefronts"] = l.space == sim::Space::Global ? ordered_json(nullptr) : ordered_json(l.wavefronts);
        e["bank_conflicts"] = l.space == sim::Space::Shared ? ordered_json(l.wavefronts - l.requests) : ordered_json(nullptr);
        ordered_json names = ordered_json::array();
        for (uint8_t a : l.arrays) names.push_back(a < r.arrays.size() ? r.arrays[a].name : "?");
        e["arrays"] = names;
        e["lanes"] = l.lanes;
        e["vector_bits"] = l.wide ? 128 : 32;   // 128: x.ldg4, x.lds4, x.sts4 (one request, four elements a lane)
        e["wavefronts_beyond_needed"] = l.space == sim::Space::Shared ? ordered_json(l.conflicts()) : ordered_json(nullptr);
        lines.push_back(e);
    }
    m["per_line"] = lines;
    return m;
}

/// The statement on `line` of the source file of `s`'s kernel, trimmed ("" if unknown).
std::string statementOn(const sim::Scenario& s, unsigned line)
{
    const sim::KernelInfo* info = s.kernelInfo();
    if (!info) return "";
    std::istringstream in(sim::kernelSource(std::string(info->sourceFile)));
    std::string text;
    for (unsigned n = 1; std::getline(in, text); ++n)
        if (n == line) {
            const size_t a = text.find_first_not_of(" \t");
            return a == std::string::npos ? "" : text.substr(a);
        }
    return "";
}

/// The per-line table of simulate's text output, like Nsight Compute's source view.
void printMemoryTable(std::ostream& out, const sim::Simulation& r)
{
    const sim::Totals& t = r.counters.totals;
    out << "  memory (warps of 32 lanes; global in 32-byte sectors, shared in 32 banks)\n"
        << "    global loads   " << t.global_ld_requests << " requests, " << t.global_ld_sectors << " sectors ("
        << std::setprecision(3) << ratio(t.global_ld_sectors, t.global_ld_requests) << " per request)\n"
        << "    global stores  " << t.global_st_requests << " requests, " << t.global_st_sectors << " sectors\n"
        << "    shared loads   " << t.shared_ld_requests << " requests, " << t.shared_ld_wavefronts
        << " wavefronts, " << t.shared_ld_conflicts << " beyond the fewest needed (bank conflicts)\n"
        << "    shared stores  " << t.shared_st_requests << " requests, " << t.shared_st_wavefronts
        << " wavefronts, " << t.shared_st_conflicts << " beyond the fewest needed (bank conflicts)\n";
    if (t.constant_ld_requests)
        out << "    constant loads " << t.constant_ld_requests << " requests, "
            << t.constant_ld_passes - t.constant_ld_requests << " serializations\n";
    out << "    bytes          " << sim::requestedBytes(r.counters.totals) << " requested (sectors x 32), "
        << sim::compulsoryBytes(r) << " compulsory (distinct bytes read + written)\n";
    const std::vector<sim::LineMemory> lines = sim::memoryByLine(r.accessSites);
    if (lines.empty()) return;
    out << "  line  space     op  requests   sectors  sect/req  wavefronts  conflicts  statement\n";
    for (const sim::LineMemory& l : lines) {
        std::string stmt = statementOn(r.scenario, l.line);
        if (stmt.size() > 60) stmt = stmt.substr(0, 57) + "...";
        const bool global = l.space == sim::Space::Global;
        std::ostringstream sectors, perRequest, wave, conflicts;
        if (global) {
            sectors << l.sectors;
            perRequest << std::fixed << std::setprecision(2) << ratio(l.sectors, l.requests);
        } else {
            wave << l.wavefronts;
            conflicts << l.conflicts();
        }
        out << std::right << std::setw(6) << l.line << "  " << std::left << std::setw(8) << spaceName(l.space)
            << "  " << (l.store ? "st" : "ld") << std::right << std::setw(10) << l.requests << std::setw(10)
            << (global ? sectors.str() : "-") << std::setw(10) << (global ? perRequest.str() : "-")
            << std::setw(12) << (global ? "-" : wave.str()) << std::setw(11) << (global ? "-" : conflicts.str())
            << "  " << stmt << "\n";
    }
}

ordered_json paramsJson(const sim::Scenario& s)
{
    if (sim::isConvolution(s)) return convParamsJson(s);
    if (sim::familyOf(s) == sim::Family::Array) return arrayParamsJson(s);
    return ordered_json{{"j", s.j}, {"k", s.k}, {"l", s.l}, {"tile", s.tile}};
}

}  // namespace

Commands::Commands(CLI::App& app)
{
    // TILESCOPE_VERSION: project(VERSION) of CMakeLists.txt, the one place it is set.
    app.set_version_flag("--version", "tilescope-cli " TILESCOPE_VERSION, "Print \"tilescope-cli X.Y.Z\" and exit");
    simulate_ = app.add_subcommand("simulate", "Run a kernel in the instrumented simulator and report its counters");
    addProblemOptions(simulate_, simOpt_, false, true);
    simulate_->add_option("--block", block_, "Report the counters of block BX[,BY[,BZ]] (block_stats)");
    simulate_->add_option("--launch", launch_,
                          "A row of several launches (scan-hierarchical): the launch whose block --block and the scan "
                          "network follow, from 1; the counters are summed over every launch")
        ->capture_default_str();
    simulate_->add_option("--schedule", schedule_, "Which warp runs ahead between barriers")
        ->check(CLI::IsMember({"in-order", "reverse", "random"}))
        ->capture_default_str();
    simulate_->add_option("--schedule-seed", scheduleSeed_, "Seed of the random schedule")
        ->capture_default_str()
        ->check(seedValidator());
    simulate_->add_option("--drop-barrier", dropBarrier_,
                          "Skip one barrier of the tiled kernel to watch the race: after-load "
                          "(read-after-write) or after-compute (write-after-read); or fence, the __threadfence() "
                          "of scan-single-pass")
        ->check(CLI::IsMember({"after-load", "after-compute", "fence"}));
    simulate_->add_flag("--hazard-report", hazardReport_,
                        "Print the hazards like compute-sanitizer's racecheck (stderr with --json)");
    simulate_->add_flag("--json", simJson_, "Print one JSON object (spec: docs/cli.md)");
    simulate_->add_flag("--no-memory-model", noMemoryModel_,
                        "Skip the warp memory model (requests, sectors, bank conflicts): a faster run, no `memory` object");
    simulate_->add_flag("--yes", simYes_, "Run a simulation estimated to take more than 10 s (otherwise refused)");
    addThreadsOption(simulate_, simThreads_);
    simulate_->add_flag("--quiet", simQuiet_, "No progress line on stderr (shown on a terminal for runs over 0.3 s)");

    bench_ = app.add_subcommand("bench", "Time kernels on the GPU (CUDA events, median after warm-up)");
    addProblemOptions(bench_, benchOpt_, true, true);
    bench_->add_option("--reps", reps_, "Timed repeats after warm-up")->capture_default_str()->check(CLI::Range(1, 10000));
    bench_->add_flag("--json", benchJson_, "Print one JSON object");
    bench_->add_option("--out", benchOut_,
                       "Also write the JSON object to FILE, a results file with the driver, the date and the "
                       "measured FP32 and copy ceilings (docs/cli.md)");

    verify_ = app.add_subcommand(
        "verify", "Run every kernel on the GPU and in the simulator on random shapes and compare "
                  "P bit for bit and the per-element global-load counts");
    verify_->add_flag("--quick", verifyQuick_, "Fewer cases");
    addThreadsOption(verify_, simThreads_);
    verify_->add_option("--seed", verifySeed_, "Seed of the random shapes and inputs")
        ->capture_default_str()
        ->check(seedValidator());
    addStudentVerifyOptions(verify_, studentVerifyOpt_);

    listKernels_ = app.add_subcommand("list-kernels", "List the kernels with one line each");

    gpuRun_ = app.add_subcommand(
        "gpu-run", "Run one kernel, or your kernel file, on the GPU several times on the same inputs and count the runs "
                   "whose P differs from the reference (watch a race: a dropped barrier, histo[b]++ without atomicAdd)");
    addProblemOptions(gpuRun_, gpuRunOpt_, false, true);
    gpuRun_->add_option("--drop-barrier", gpuRunDrop_, "Skip this barrier on the GPU: after-load, after-compute or fence")
        ->check(CLI::IsMember({"after-load", "after-compute", "fence"}));
    gpuRun_->add_flag("--yes", gpuRunYes_, "Run the reference simulation even if it is estimated to take more than 10 s");
    addThreadsOption(gpuRun_, simThreads_);
    gpuRun_->add_flag("--quiet", gpuRunQuiet_, "No progress line on stderr for the reference simulation");
    gpuRun_->add_option("--runs", gpuRuns_, "How many launches")->capture_default_str()->check(CLI::Range(1, 100000));
    occupancy_ = addOccupancyCommand(app, occOpt_);
    reductionTable_ = addReductionTableCommand(app, reductionOpt_);
    roofline_ = addRooflineCommand(app, rooflineOpt_);
    translate_ = addTranslateCommand(app, translateOpt_);
    grade_ = addGradeCommand(app, gradeOpt_);
}

int Commands::run()
{
    try {
        if (simulate_->parsed()) return runSimulate();
        if (bench_->parsed()) return runBench();
        if (verify_->parsed()) return runVerify();
        if (listKernels_->parsed()) return runListKernels();
        if (gpuRun_->parsed()) return runGpuRun();
        if (occupancy_->parsed()) return runOccupancy(occOpt_);
        if (reductionTable_->parsed()) return runReductionTable(reductionOpt_);
        if (roofline_->parsed()) return runRoofline(rooflineOpt_);
        if (translate_->parsed()) return runTranslate(translateOpt_);
        if (grade_->parsed()) return runGrade(gradeOpt_);
    } catch (const gpu::Unavailable& e) {
        std::cerr << "tilescope-cli: " << e.what() << "\n";
        return kNoGpu;
    } catch (const gpu::LaunchError& e) {
        std::cerr << "tilescope-cli: " << e.what() << "\n";
        return kBadInput;
    } catch (const sim::RunStopped& e) {
        // A student's kernel whose confined run gave no result (student/confined_run.hpp).
        std::cerr << "tilescope-cli: " << e.what() << "\n";
        return kCheckFailed;
    }
    return kBadInput;
}

int Commands::runListKernels()
{
    // One column of names, two spaces wider than the longest.
    size_t width = std::strlen("cublas");
    for (const sim::KernelInfo& k : sim::kernelList()) width = std::max(width, std::strlen(k.name));
    const int column = static_cast<int>(width) + 2;
    for (const sim::KernelInfo& k : sim::kernelList())
        std::cout << std::left << std::setw(column) << k.name << k.summary << "\n";
    std::cout << std::left << std::setw(column) << "cublas" << "cuBLAS SGEMM, pure FP32 (bench only)\n";
    return kOk;
}

#ifdef TILESCOPE_HAVE_STUDENT
namespace {
/// Exercise `x`'s public size and mask width in `o` where it gives no size of its own.
void usePublicSize(ProblemOptions& o, const student::Exercise& x)
{
    const bool sized = o.width || o.j || o.k || o.l || o.height;
    if (!sized && x.publicSize) {
        const student::ExerciseSize& z = *x.publicSize;
        if (x.launch.family == "matmul") o.j = z.j, o.k = z.k, o.l = z.l;
        else if (x.launch.family == "conv2d" || z.twoD) o.height = z.height, o.width = z.width;
        else o.width = z.width;
    }
    if (!o.maskWidth && x.launch.family != "matmul" && x.launch.family != "array") o.maskWidth = x.maskWidth;
}
}  // namespace
#endif

int Commands::runSimulate()
{
    sim::Scenario s;
    int exerciseTile = 0;
    if (!simOpt_.kernelFile.empty()) {
#ifdef TILESCOPE_HAVE_STUDENT
        // With an exercise, the file gets the exercise's launch and its public size.
        student::LoadOptions lo;
        if (!simOpt_.exercise.empty()) {
            const std::optional<student::Exercise> found = exerciseOrSay(simOpt_.exercise);
            if (!found) return kBadInput;
            const student::Exercise& x = *found;
            lo.launch = x.launch;
            usePublicSize(simOpt_, x);
            exerciseTile = x.tile;
        }
        const student::LoadResult r = student::loadKernelFile(simOpt_.kernelFile, lo);
        for (const student::Diagnostic& d : r.errors)
            std::cerr << student::formatDiagnostic(simOpt_.kernelFile, d) << "\n";
        if (!r.ok()) return kBadInput;
        simOpt_.kernel = r.info->name;
        if (!simOpt_.tile && exerciseTile && !r.info->tiled) simOpt_.tile = exerciseTile;
#else
        std::cerr << "tilescope-cli: this build cannot load a kernel file: it was built without libclang "
                     "(install libclang-14-dev and rebuild).\n";
        return kBadInput;
#endif
    }
    if (std::string e = toScenario(simOpt_, simOpt_.kernel, s); !e.empty()) {
        std::cerr << "tilescope-cli: " << e << "\n";
        return kBadInput;
    }
    std::optional<sim::Uint3> block;
    if (!block_.empty()) {
        unsigned bx = 0, by = 0, bz = 0;
        char comma = 0;
        std::istringstream in(block_);
        bool ok = static_cast<bool>(in >> bx);
        if (ok && (in >> comma)) ok = comma == ',' && static_cast<bool>(in >> by);
        if (ok && !in.eof() && (in >> comma)) ok = comma == ',' && static_cast<bool>(in >> bz) && in.eof();
        if (!ok || block_.find('-') != std::string::npos) {
            std::cerr << "tilescope-cli: --block must be BX, BX,BY or BX,BY,BZ with non-negative integers; got '"
                      << block_ << "'.\n";
            return kBadInput;
        }
        block = sim::Uint3{bx, by, bz};
        s.block = *block;
    }
    s.dropBarriers = barrierBits(dropBarrier_);
    s.launch = launch_;
    if (std::string e = sim::validate(s); !e.empty()) {
        std::cerr << "tilescope-cli: " << e << "\n";
        return kBadInput;
    }
    sim::SimOptions opt;
    // A scan's network and depth are read from its traced block (its only one).
    const sim::KernelInfo* scanInfo = s.kernelInfo();
    opt.trace = scanInfo && scanInfo->scan && s.width <= kScanTraceLimit;
    opt.schedule = schedule_ == "reverse" ? sim::Schedule::Reverse
                   : schedule_ == "random" ? sim::Schedule::Random
                                           : sim::Schedule::InOrder;
    opt.scheduleSeed = scheduleSeed_;
    opt.memoryModel = !noMemoryModel_;
    opt.threads = simThreads_;
    std::variant<sim::Simulation, int> run = guardedSimulate(s, opt, simYes_, simQuiet_);
    if (const int* status = std::get_if<int>(&run)) return *status;
    const sim::Simulation& r = std::get<sim::Simulation>(run);
    if (!r.error.empty()) {
        std::cerr << "tilescope-cli: the simulated kernel faulted: " << r.error << "\n";
        return kCheckFailed;
    }
    const sim::Totals& t = r.counters.totals;
    const uint64_t untiled = sim::untiledGlobalLoads(s);
    ordered_json j;
    j["kernel"] = s.kernel;
    j["params"] = paramsJson(s);
    j["grid"] = {r.grid.x, r.grid.y, r.grid.z};
    j["block"] = {r.block.x, r.block.y, r.block.z};
    // A row of several launches (PMPP sec. 11.6): each one's grid; grid and block above are
    // the traced launch's, the totals every launch's.
    if (const int n = sim::launchCount(s); n > 1) {
        ordered_json grids = ordered_json::array();
        for (int l = 1; l <= n; ++l) {
            const sim::Dim3 g = sim::launchShapeOf(s, l).grid;
            grids.push_back({g.x, g.y, g.z});
        }
        j["launches"] = grids;
        j["launch"] = s.launch;
    }
    j["totals"] = totalsJson(t);
    j["ops_per_byte"] = round3(sim::opsPerByte(t));
    j["untiled_global_loads"] = untiled;
    j["reduction_vs_untiled"] = round3(ratio(untiled, t.global_loads));
    if (block) {
        const sim::Totals& b = r.counters.perBlock.at(sim::linearBlock(r.grid, *block));
        const uint64_t ub = sim::untiledGlobalLoads(s, *block);
        j["block_stats"] = ordered_json{{"block", block->z ? ordered_json{block->x, block->y, block->z} : ordered_json{block->x, block->y}},
                                        {"global_loads", b.global_loads},
                                        {"shared_loads", b.shared_loads},
                                        {"untiled_global_loads", ub},
                                        {"reduction_vs_untiled", round3(ratio(ub, b.global_loads))}};
        if (sim::isConvolution(s)) j["block_stats"]["constant_loads"] = b.constant_loads;
    }
    j["hazards"] = {{"raw", r.hazards.raw}, {"war", r.hazards.war}, {"waw", r.hazards.waw},
                    {"uninitialised", r.hazards.uninitialised}};
    if (hazardReport_) (simJson_ ? std::cerr : std::cout) << r.hazards.report(r.arrays, r.block);
    const sim::KernelInfo* info = s.kernelInfo();
    // Hand-overs between blocks through flags (PMPP sec. 11.7) that the GPU does not order: for
    // a kernel with a fence to drop, always (an empty list when there are none); a text report
    // on stderr with --json, else on stdout.
    if ((info && (info->barriers & kernels::FENCE)) || !r.orderSites.empty()) {
        ordered_json sites = ordered_json::array();
        for (const sim::OrderSite& o : r.orderSites)
            sites.push_back(ordered_json{{"kind", o.kind == sim::OrderKind::NoFence ? "no-fence" : "plain-read"},
                                         {"data", r.arrays.at(o.dataArray).name},
                                         {"flag", r.arrays.at(o.flagArray).name},
                                         {"store_line", o.storeLine},
                                         {"flag_line", o.flagLine},
                                         {"read_line", o.readLine},
                                         {"count", o.count}});
        j["hand_overs"] = sites;
        if (!r.orderSites.empty()) (simJson_ ? std::cerr : std::cout) << sim::orderReport(r.orderSites, r.arrays);
    }
    j["matches_reference"] = r.matchesReference;
    // A sum of arbitrary floats: its bits follow the order of its additions, so it is also
    // compared within a float sum's error bound (sim::SumOrderCheck).
    std::optional<sim::SumOrderCheck> order;
    if (info && info->orderDependent && r.error.empty()) {
        order = sim::sumOrderCheck(r.M, r.P, r.reference);
        j["order_dependent"] = ordered_json{{"output", r.P.empty() ? 0.0 : static_cast<double>(r.P[0])},
                                            {"reference", r.reference.empty() ? 0.0 : static_cast<double>(r.reference[0])},
                                            {"difference", order->difference},
                                            {"ulps", order->ulps},
                                            {"bound", order->bound},
                                            {"within_bound", order->within}};
    }
    if (sim::familyOf(s) == sim::Family::Array) j["reference_flops"] = r.referenceFlops;
    // A described registry row (PMPP's stencil) counts its arithmetic by its formula: the
    // OP/B of its chapter, flops over the bytes of its global loads.
    const bool describedRow = sim::familyOf(s) == sim::Family::Array && !sim::findLoadedKernel(s.kernel);
    if (describedRow) j["reference_ops_per_byte"] = round3(t.global_loads ? r.referenceFlops / (4.0 * t.global_loads) : 0.0);
    if (opt.memoryModel) j["memory"] = memoryJson(r);
    if (opt.memoryModel && hasWarpFigures(r)) j["warps"] = warpsJson(r);
    if (info && info->scan) j["scan"] = scanJson(*info, s, r);
    // A student's kernel whose P is not the reference's fails, naming the first wrong element.
    std::string firstWrong;
    if (!simOpt_.kernelFile.empty() && !r.matchesReference) {
        size_t i = 0;
        while (i < r.P.size() && std::memcmp(&r.P[i], &r.reference[i], sizeof(float)) == 0) ++i;
        if (i >= r.P.size()) {
            firstWrong = "P differs from the CPU reference";
        } else {
            // The writer's block again, traced (one block, no memory model): the sentence
            // then names the cause, as grade does (sim/teaching/wrong_element.hpp).
            sim::Simulation traced;
            if (const std::optional<sim::Writer> w = sim::writerOf(r, 2, static_cast<long long>(i))) {
                sim::Scenario again = s;
                again.block = w->block;
                sim::SimOptions o;
                o.trace = true;
                o.threads = 1;
                o.memoryModel = false;
                o.detectHazards = false;
                try {
                    traced = sim::simulate(again, o);
                } catch (const std::exception&) {
                    traced = sim::Simulation{};
                }
            }
            firstWrong = traced.P.size() == r.P.size() && traced.error.empty()
                             ? sim::wrongElementText(traced, static_cast<long long>(i))
                             : sim::wrongElementText(r, static_cast<long long>(i));
        }
        j["first_wrong"] = firstWrong;
    }
    const int status = firstWrong.empty() ? kOk : kCheckFailed;
    if (simJson_) {
        std::cout << j.dump() << "\n";
        return status;
    }
    const bool arrayProblem = sim::familyOf(s) == sim::Family::Array;
    if (sim::isConvolution(s)) std::cout << convProblemLine(s);
    else if (arrayProblem) std::cout << sim::problemWords(s);
    else std::cout << s.kernel << "  M " << s.j << "x" << s.k << " * N " << s.k << "x" << s.l << ", tile " << s.tile;
    std::cout << ", grid " << r.grid.x << "x" << r.grid.y << (r.grid.z > 1 ? "x" + std::to_string(r.grid.z) : std::string())
              << " blocks of " << r.block.x << "x" << r.block.y
              << (r.block.z > 1 ? "x" + std::to_string(r.block.z) : std::string()) << " threads\n"
              << "  global loads    " << t.global_loads << " (untiled kernel: " << untiled << ", "
              << std::setprecision(4) << ratio(untiled, t.global_loads) << "x fewer)\n"
              << "  global stores   " << t.global_stores << "\n"
              << "  shared loads    " << t.shared_loads << ", stores " << t.shared_stores
              << " (zero fills " << t.zero_fills << ")\n"
              << (sim::isConvolution(s) ? "  constant loads  " + std::to_string(t.constant_loads) + "\n" : "")
              << "  barriers        " << t.barriers << "\n"
              << "  flops           " << t.flops << "\n"
              << "  OP/B            " << sim::opsPerByte(t) << " = flops / (4 bytes x global loads)\n"
              << (arrayProblem ? "  reference flops " + std::to_string(r.referenceFlops) + " (the formula's, whole output)\n" : std::string())
              << (describedRow ? "  OP/B (formula)  " + std::to_string(t.global_loads ? r.referenceFlops / (4.0 * t.global_loads) : 0.0) +
                                     " = reference flops / (4 bytes x global loads)\n"
                               : std::string())
              << "  " << (arrayProblem ? r.arrays.at(2).name : std::string("P")) << " vs reference  "
              << (r.matchesReference ? "bit-identical" : "DIFFERS") << "\n";
    if (order) {
        std::ostringstream o;
        o << std::setprecision(9) << "  order of sums   " << (r.P.empty() ? 0.0f : r.P[0]) << " here, "
          << (r.reference.empty() ? 0.0f : r.reference[0]) << " in index order: " << std::setprecision(3) << order->difference
          << " apart (" << order->ulps << " units in the last place), " << (order->within ? "within" : "OUTSIDE") << " a float sum's bound of " << order->bound
          << " (the order of the additions decides the last bits)\n";
        std::cout << o.str();
    }
    if (!firstWrong.empty()) std::cout << "  first wrong     " << firstWrong << "\n";
    if (opt.memoryModel) printMemoryTable(std::cout, r);
    if (opt.memoryModel && hasWarpFigures(r))
        printWarpTable(std::cout, r, [&](unsigned line) { return statementOn(r.scenario, line); });
    return status;
}

int Commands::runGpuRun()
{
    // A student's file (PMPP Fig. 9.6 with `histo[b]++`, say): compiled by NVRTC, run as the
    // file is written, against the simulator's reference.
    std::optional<StudentFile> student;
    if (!gpuRunOpt_.kernelFile.empty()) {
#ifdef TILESCOPE_HAVE_STUDENT
        if (!gpuRunOpt_.exercise.empty()) {
            const std::optional<student::Exercise> found = exerciseOrSay(gpuRunOpt_.exercise);
            if (!found) return kBadInput;
            usePublicSize(gpuRunOpt_, *found);
        }
#endif
        student = loadStudentFile(gpuRunOpt_.kernelFile, gpuRunOpt_.exercise);
        if (!student) return kBadInput;
        gpuRunOpt_.kernel = student->info->name;
    }
    sim::Scenario s;
    if (std::string e = toScenario(gpuRunOpt_, gpuRunOpt_.kernel, s); !e.empty()) {
        std::cerr << "tilescope-cli: " << e << "\n";
        return kBadInput;
    }
    s.dropBarriers = barrierBits(gpuRunDrop_);
    if (std::string e = sim::validate(s); !e.empty()) {
        std::cerr << "tilescope-cli: " << e << "\n";
        return kBadInput;
    }
    const gpu::DeviceInfo dev = gpu::queryDevice();
    if (!dev.available) throw gpu::Unavailable(dev.why);
    // Inputs and the reference come from the simulator's problem set-up (the reference is
    // the barrier-correct result: it does not depend on s.dropBarriers).
    sim::SimOptions o;
    o.trace = false;
    o.threads = simThreads_;
    std::variant<sim::Simulation, int> run = guardedSimulate(s, o, gpuRunYes_, gpuRunQuiet_);
    if (const int* status = std::get_if<int>(&run)) return *status;
    const sim::Simulation& ref = std::get<sim::Simulation>(run);
    int wrong = 0;
    size_t worst = 0;
    std::vector<float> worstP;
    for (int run = 0; run < gpuRuns_; ++run) {
        std::vector<float> P = student ? gpu::runStudentPlain(student->kernel, s, ref.M, ref.N) : gpu::runPlain(s, ref.M, ref.N);
        size_t differ = 0;
        for (size_t i = 0; i < P.size(); ++i)
            differ += std::memcmp(&P[i], &ref.reference[i], sizeof(float)) != 0;
        wrong += differ > 0;
        if (differ > worst) worst = differ, worstP = std::move(P);
    }
    std::cout << s.kernel << (gpuRunDrop_.empty() ? "" : " without the " + gpuRunDrop_ + " barrier") << " on "
              << dev.name << ": " << wrong << " of " << gpuRuns_ << " runs gave a wrong P (at most "
              << worst << " of " << ref.reference.size() << " elements wrong in one run)\n";
    // The first wrong elements of that run with the reference beside them (a histogram's
    // lost counts, a race's wrong sums).
    for (size_t i = 0, shown = 0; i < worstP.size() && shown < 4; ++i)
        if (std::memcmp(&worstP[i], &ref.reference[i], sizeof(float)) != 0) {
            std::cout << "  element " << i << ": " << worstP[i] << " on the GPU, " << ref.reference[i] << " in the reference\n";
            ++shown;
        }
    return kOk;
}

int Commands::runBench()
{
    // A student's kernel file: loaded into the simulator (its launch, its bit-exact check)
    // and timed first, beside PMPP's kernel of its kind and cuBLAS unless --kernel names others.
    std::optional<StudentFile> student;
    if (!benchOpt_.kernelFile.empty()) {
        student = loadStudentFile(benchOpt_.kernelFile, benchOpt_.exercise);
        if (!student) return kBadInput;
        if (benchOpt_.kernel.empty() && !benchOpt_.exercise.empty()) {
            const std::string reference = student::findExercise(benchOpt_.exercise).reference;
            benchOpt_.kernel = student->info->family == sim::Family::Matmul ? reference + ",cublas" : reference;
        }
        if (benchOpt_.kernel.empty()) {
            const sim::Family f = student->info->family;
            const bool tiled = student->info->tiled;
            benchOpt_.kernel = f == sim::Family::Conv1D   ? (tiled ? "conv1d-tiled" : "conv1d-basic")
                               : f == sim::Family::Conv2D ? (tiled ? "conv2d-tiled" : "conv2d-basic")
                                                          : (tiled ? "matmul-tiled,cublas" : "matmul-naive,cublas");
        }
        if (!benchOpt_.tile && student->info->tiled) benchOpt_.tile = student->info->tiles.front();
    }
    auto isStudent = [&](const sim::Scenario& s) { return student && s.kernel == student->info->name; };
    std::vector<std::string> names;
    if (student) names.push_back(student->info->name);
    {
        std::stringstream in(benchOpt_.kernel);
        for (std::string n; std::getline(in, n, ',');) {
            if (n == "ladder") {
                // The optimisation ladder: every rung at its default tile, then cuBLAS.
                for (const char* r : sim::kLadderRungs) names.push_back(r);
                names.push_back("cublas");
            } else if (!n.empty()) {
                names.push_back(n);
            }
        }
    }
    std::vector<gpu::BenchRequest> reqs;
    for (const std::string& n : names) {
        sim::Scenario s;
        const std::string asSim = n == "cublas" ? "matmul-naive" : n;
        if (std::string e = toScenario(benchOpt_, asSim, s); !e.empty()) {
            std::cerr << "tilescope-cli: " << e << "\n";
            return kBadInput;
        }
        if (student && n != student->info->name) {
            // Beside a student's file the built-in kernels run at its tile where they have
            // that instance, else at their own default (said, not done silently).
            const sim::KernelInfo* k = sim::findKernel(asSim);
            const bool fits = k && (k->tiled ? std::find(k->tiles.begin(), k->tiles.end(), s.tile) != k->tiles.end()
                                             : s.tile <= k->maxBlockEdge);
            if (k && !fits) {
                if (n != "cublas")
                    std::cerr << "tilescope-cli: " << n << " has no tile " << s.tile << "; it is timed at its own tile "
                              << k->defaultTile << ".\n";
                s.tile = k->defaultTile;
            }
        }
        const std::string e = sim::validate(s);   // resolves s.info
        if (n != "cublas" && !s.info) {
            std::cerr << "tilescope-cli: bench knows the kernels that list-kernels prints and cublas; got '" << n << "'.\n";
            return kBadInput;
        }
        if (!e.empty()) {
            std::cerr << "tilescope-cli: " << e << "\n";
            return kBadInput;
        }
        if (n == "cublas") {
            // cuBLAS at the sizes (and the tile) checked as matmul-naive's.
            s.kernel = n;
            s.info = nullptr;
        }
        reqs.push_back(gpu::BenchRequest{s, reps_});
    }
    if (!benchOut_.empty()) {
        // Said before the timings start, not after.
        const std::filesystem::path parent = std::filesystem::absolute(benchOut_).parent_path();
        if (!std::filesystem::is_directory(parent) || access(parent.c_str(), W_OK) != 0) {
            std::cerr << "tilescope-cli: Cannot write the results file '" << benchOut_ << "': the folder '"
                      << parent.string() << "' does not exist or is not writable.\n";
            return kBadInput;
        }
    }
    const gpu::DeviceInfo dev = gpu::queryDevice();
    if (!dev.available) throw gpu::Unavailable(dev.why);
    ordered_json out;
    out["device"] = dev.name;
    out["compute_capability"] = dev.computeCapability();
    out["results"] = ordered_json::array();
    std::vector<gpu::BenchResult> results;
    std::optional<gpu::StudentBuild> studentBuild;
    for (const gpu::BenchRequest& rq : reqs) {
        if (!isStudent(rq.scenario)) {
            results.push_back(gpu::bench(rq));
            continue;
        }
        try {
            studentBuild = gpu::buildStudentKernel(student->kernel);
        } catch (const gpu::StudentCompileError& e) {
            printCompileErrors(e, benchOpt_.kernelFile);
            return kBadInput;
        }
        results.push_back(gpu::benchStudent(student->kernel, rq));
    }
    // Each kernel's share of cuBLAS's GFLOPS in the same run, where cuBLAS ran on the same
    // problem (extension: the ladder's last column).
    auto cublasGflops = [&](const sim::Scenario& s) -> std::optional<double> {
        for (size_t i = 0; i < reqs.size(); ++i)
            if (const sim::Scenario& c = reqs[i].scenario;
                c.kernel == "cublas" && c.j == s.j && c.k == s.k && c.l == s.l && results[i].gflops > 0)
                return results[i].gflops;
        return std::nullopt;
    };
    for (size_t ri = 0; ri < reqs.size(); ++ri) {
        const gpu::BenchRequest& rq = reqs[ri];
        const sim::Scenario& s = rq.scenario;
        const gpu::BenchResult& b = results[ri];
        const bool conv = sim::isConvolution(s);
        const std::optional<double> ofCublas = conv ? std::nullopt : cublasGflops(s);
        ordered_json r;
        r["kernel"] = s.kernel;
        r["params"] = conv ? convParamsJson(s) : ordered_json{{"j", s.j}, {"k", s.k}, {"l", s.l}, {"tile", s.tile}};
        r["ms_median"] = b.msMedian;
        r["ms_min"] = b.msMin;
        r["reps"] = rq.reps;
        r["gflops"] = b.gflops;
        r["gbytes_per_s"] = b.gbytesPerS;
        r["max_abs_err"] = b.maxAbsErr;
        if (b.bitExactVsSim) r["bit_exact_vs_sim"] = *b.bitExactVsSim;
        if (ofCublas) r["percent_of_cublas"] = 100.0 * b.gflops / *ofCublas;
        // Extension: what the launched instance takes from an SM (not for cuBLAS, whose
        // kernels are its own).
        sim::ResultEntry resources;
        if (isStudent(s)) {
            r["kernel_file"] = benchOpt_.kernelFile;
            resources.registers = studentBuild->registers;
            resources.staticSharedBytes = studentBuild->staticSharedBytes;
            sim::writeResourceKeys(resources, r);
        } else if (s.kernel != "cublas") {
            const gpu::KernelResources kr = gpu::kernelResources(s);
            resources.registers = kr.registers;
            resources.staticSharedBytes = kr.staticSharedBytes;
            sim::writeResourceKeys(resources, r);
        }
        out["results"].push_back(r);
        if (!benchJson_)
            std::cout << std::left << std::setw(14)
                      << (conv ? convProblemLine(s) + " "
                               : s.kernel + " " + std::to_string(s.j) + "x" + std::to_string(s.k) + "x" +
                                     std::to_string(s.l) + " tile ")
                      << std::setw(3) << (conv ? std::string() : std::to_string(s.tile))
                      << std::fixed << std::setprecision(3)
                      << " median " << b.msMedian << " ms  min " << b.msMin << " ms  "
                      << std::setprecision(1) << b.gflops << " GFLOPS  " << b.gbytesPerS
                      << " GB/s  max|err| " << std::scientific << std::setprecision(2) << b.maxAbsErr
                      << std::defaultfloat
                      << (b.bitExactVsSim ? (*b.bitExactVsSim ? "  bit-exact vs sim" : "  DIFFERS from sim") : "")
                      << (resources.registers ? "  " + std::to_string(*resources.registers) + " registers, " +
                                                    std::to_string(*resources.staticSharedBytes) + " B shared"
                                              : std::string())
                      << (ofCublas ? "  " + percentText(100.0 * b.gflops / *ofCublas) + "% of cuBLAS" : std::string())
                      << "\n";
    }
    if (!benchOut_.empty()) {
        const gpu::Ceilings c = gpu::measureCeilings();
        out["driver"] = c.driverCudaVersion;
        out["date"] = isoDateNow();
        out["peak_fp32_gflops"] = c.peakFp32Gflops;
        out["copy_gbytes_per_s"] = c.copyGbytesPerS;
        std::ofstream f(benchOut_, std::ios::trunc);
        if (!(f << out.dump(1) << "\n") || !f.flush()) {
            std::cerr << "tilescope-cli: Cannot write the results file '" << benchOut_ << "'.\n";
            return kBadInput;
        }
        if (!benchJson_)
            std::cout << "ceilings: FP32 " << std::fixed << std::setprecision(0) << c.peakFp32Gflops
                      << " GFLOPS, copy " << c.copyGbytesPerS << " GB/s; results written to " << benchOut_ << "\n"
                      << std::defaultfloat;
    }
    if (benchJson_) std::cout << out.dump() << "\n";
    else std::cout << "device: " << dev.name << " (compute capability " << dev.computeCapability() << ")\n";
    return kOk;
}

int Commands::runVerify()
{
    if (!studentVerifyOpt_.file.empty()) {
        studentVerifyOpt_.seed = verifySeed_;
        studentVerifyOpt_.threads = simThreads_;
        return runStudentVerify(studentVerifyOpt_);
    }
    const gpu::DeviceInfo dev = gpu::queryDevice();
    if (!dev.available) throw gpu::Unavailable(dev.why);
    std::cout << "verify on " << dev.name << " (compute capability " << dev.computeCapability() << ")\n";
    std::mt19937 rng(static_cast<unsigned>(verifySeed_));
    // Every kernel of the registry, on the cases its entry implies (sim/catalogue/agreement_cases.hpp).
    std::vector<sim::Scenario> cases;
    for (const sim::KernelInfo& k : sim::kernelList())
        for (const sim::Scenario& s : sim::agreementCases(k, rng, verifyQuick_)) cases.push_back(s);
    int passed = 0, failed = 0;
    for (const sim::Scenario& s : cases) {
        sim::SimOptions o;
        o.trace = false;
        o.threads = simThreads_;
        const sim::Simulation r = sim::simulate(s, o);
        std::ostringstream line;
        const sim::KernelInfo* k = s.kernelInfo();
        line << std::left << std::setw(27) << s.kernel << (k && k->tiled ? " tile " : " block edge ") << std::setw(4)
             << s.tile << "  " << sim::sizeList(s) << ": ";
        // A sum of arbitrary floats (KernelInfo::orderDependent) is compared within a float
        // sum's bound, since the GPU's atomics meet in an order of their own; the kernel itself
        // is checked bit for bit by its row of small integers.
        const bool orderDependent = k && k->orderDependent;
        bool ok = r.error.empty() && (orderDependent ? sim::sumOrderCheck(r.M, r.P, r.reference).within : r.matchesReference);
        std::string why;
        if (!ok) why = r.error.empty() ? (orderDependent ? "simulator P lies outside a float sum's bound of the CPU reference"
                                                         : "simulator P differs from the CPU reference")
                                       : r.error;
        try {
            const gpu::CountedRun c = gpu::runCounted(s, r.M, r.N);
            const std::vector<float> plain = gpu::runPlain(s, r.M, r.N);
            auto same = [&](const std::vector<float>& a, const std::vector<float>& b) {
                if (orderDependent) return sim::sumOrderCheck(r.M, a, r.reference).within;
                return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(float)) == 0;
            };
            const std::string apart = orderDependent ? " lies outside a float sum's bound of the reference" : " differs from the simulator's";
            if (ok && !same(c.P, r.P)) { ok = false; why = "counting GPU run's P" + apart; }
            if (ok && !same(plain, r.P)) { ok = false; why = "GPU P" + apart; }
            // The first two arrays are the inputs whatever their names (a described problem's `in`).
            const int iM = 0, iN = 1;
            // A convolution's mask M is in constant memory, which the counting context does not count.
            if (ok && !sim::isConvolution(s) && c.loadsM != r.counters.elementLoads[iM]) { ok = false; why = "per-element loads of M differ"; }
            if (ok && c.loadsN != r.counters.elementLoads[iN]) { ok = false; why = "per-element loads of N differ"; }
        } catch (const gpu::LaunchError& e) {
            ok = false;
            why = e.what();
        }
        line << (ok ? (orderDependent ? "pass (P within a float sum's bound of the reference: order-dependent; per-element loads equal)"
                                      : "pass (P bit-exact, per-element loads equal)")
                    : "FAIL: " + why);
        std::cout << line.str() << "\n";
        (ok ? passed : failed)++;
    }
    std::cout << passed << " passed, " << failed << " failed\n";
    return failed ? kCheckFailed : kOk;
}

std::optional<sim::Preset> presetOrSay(const std::string& name)
{
    try {
        return sim::findPreset(name);
    } catch (const sim::ScenarioFileError& e) {
        std::cerr << "tilescope-cli: " << e.what() << "\n";
        return std::nullopt;
    }
}

int tileOrDefault(const ProblemOptions& o, const std::string& kernel)
{
    if (o.tile) return *o.tile;
    const sim::KernelInfo* k = sim::findKernel(kernel);
    return k ? k->defaultTile : 16;
}

}  // namespace ts::cli
