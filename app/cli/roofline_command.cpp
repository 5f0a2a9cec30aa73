#include "roofline_command.hpp"

#include <cstdio>
#include <iomanip>
#include <iostream>
#include <sstream>

#include "commands.hpp"
#include "gpu/gpu.hpp"
#include "sim/teaching/roofline.hpp"
#include "sim/files/scenario_file.hpp"

namespace ts::cli {
namespace {

/// "60,406": a figure with thousands separated and `decimals` decimals.
std::string figure(double v, int decimals = 0)
{
    char b[48];
    std::snprintf(b, sizeof b, "%.*f", decimals, v);
    std::string s = b;
    const size_t dot = s.find('.');
    const size_t whole = dot == std::string::npos ? s.size() : dot;
    std::string out;
    for (size_t i = 0; i < s.size(); ++i) {
        if (i < whole && i > 0 && s[i - 1] != '-' && (whole - i) % 3 == 0) out += ',';
        out += s[i];
    }
    return out;
}

std::string orDash(const std::optional<double>& v, int decimals)
{
    return v ? figure(*v, decimals) : "-";
}

/// The intensity with 2 decimals below 100, none above.
std::string intensity(const std::optional<double>& v) { return v ? figure(*v, *v < 100 ? 2 : 0) : "-"; }

void printTable(const sim::Roofline& r)
{
    const sim::RooflineCeilings& c = r.ceilings;
    std::cout << "Roofline: " << r.caption << (r.path.empty() ? "" : " (" + r.path + ")") << "\n"
              << "  FP32 peak    " << std::right << std::setw(8) << orDash(c.peakFp32Gflops, 0) << " GFLOPS\n"
              << "  memory       " << std::setw(8) << orDash(c.memoryGbytesPerS, 0) << " GB/s\n"
              << "  ridge point  " << std::setw(8) << orDash(c.ridge(), 2)
              << " FLOP/B (below it a kernel is bound by memory, above it by the FP32 peak)\n"
              << "  ceilings: " << c.detail << "\n\n";
    if (r.textbook) {
        std::cout << "  " << std::left << std::setw(16) << "kernel" << std::setw(12) << "TILE_WIDTH" << std::right
                  << std::setw(8) << "OP/B" << std::setw(14) << "bound GFLOPS" << "  the textbook's argument\n";
        for (const sim::RooflinePoint& p : r.points)
            std::cout << "  " << std::left << std::setw(16) << p.kernel << std::setw(12)
                      << (p.tile ? std::to_string(p.tile) : "-") << std::right << std::setw(8)
                      << intensity(p.intensityDram) << std::setw(14) << figure(p.gflops) << "  " << p.note << "\n";
        std::cout << "\nOP/B = flops / (4 bytes x global loads), every load taken to come from DRAM; textbook bounds, "
                     "not measurements.\n";
        return;
    }
    std::cout << "  " << std::left << std::setw(24) << "kernel" << std::setw(18) << "problem" << std::right
              << std::setw(9) << "GFLOPS" << std::setw(11) << "of cuBLAS" << std::setw(12) << "FLOP/B req"
              << std::setw(10) << "roof" << std::setw(12) << "FLOP/B DRAM" << std::setw(10) << "roof" << "\n";
    bool compulsory = false;
    for (const sim::RooflinePoint& p : r.points) {
        std::string problem = "-";
        if (p.j) {
            problem = p.j == p.k && p.k == p.l ? std::to_string(p.j) + "^3"
                                               : std::to_string(p.j) + "x" + std::to_string(p.k) + "x" + std::to_string(p.l);
            if (p.kernel != "cublas") problem += ", tile " + std::to_string(p.tile);
        }
        const char* mark = p.dramSource == sim::DramSource::Compulsory ? " c" : p.dramSource == sim::DramSource::Measured ? " m" : "  ";
        compulsory = compulsory || p.dramSource == sim::DramSource::Compulsory;
        std::cout << "  " << std::left << std::setw(24) << p.kernel << std::setw(18) << problem << std::right
                  << std::setw(9) << figure(p.gflops) << std::setw(11)
                  << (p.percentOfCublas ? figure(*p.percentOfCublas, 1) + " %" : "-") << std::setw(12)
                  << intensity(p.intensityRequested) << std::setw(10)
                  << (p.intensityRequested ? orDash(c.bound(*p.intensityRequested), 0) : "-") << std::setw(10)
                  << intensity(p.intensityDram) << mark << std::setw(10)
                  << (p.intensityDram ? orDash(c.bound(*p.intensityDram), 0) : "-") << "\n";
    }
    std::cout << "\nFLOP/B req: per byte the kernel's global requests ask for (32 bytes a sector; the simulator's "
                 "memory model on a " << sim::ladderCountEdge() << "^3 problem).\n"
              << "FLOP/B DRAM: per byte between DRAM and the chip"
              << (compulsory ? "; c: the compulsory bytes (M and N read once, P written once)" : "")
              << "; m: measured. roof: min(peak, bandwidth x FLOP/B), GFLOPS.\n";
}

}  // namespace

CLI::App* addRooflineCommand(CLI::App& app, RooflineOptions& o)
{
    CLI::App* c = app.add_subcommand(
        "roofline", "The roofline: FP32 and memory ceilings and each timed kernel at its FLOPs per byte "
                    "(PMPP sec. 5.1; docs/roofline.md)");
    c->add_option("--results", o.results,
                  "A results file (tilescope-cli bench --json --out FILE), or the name of one in assets/results");
    c->add_option("--profile", o.profile,
                  "The ceilings: textbook-a100 (PMPP's A100: 19,500 GFLOPS, 1,555 GB/s) or current (measured on this "
                  "GPU); default: the results file's own, else textbook-a100");
    c->add_flag("--json", o.json, "Print one JSON object (spec: docs/cli.md)");
    return c;
}

int runRoofline(const RooflineOptions& o)
{
    if (!o.profile.empty() && o.profile != "textbook-a100" && o.profile != "current") {
        std::cerr << "tilescope-cli: --profile must be textbook-a100 or current; got '" << sim::oneLine(o.profile)
                  << "'.\n";
        return kBadInput;
    }
    std::optional<sim::ResultsFile> file;
    if (!o.results.empty()) {
        try {
            file = sim::loadResultsFile(o.results);
        } catch (const sim::ResultsFileError& e) {
            std::cerr << "tilescope-cli: " << e.what() << "\n";
            return kBadInput;
        }
    }
    sim::Roofline r;
    if (file) {
        std::vector<sim::RungCounts> counts;
        for (const auto& [kernel, tile] : sim::rungsToCount(&*file)) counts.push_back(sim::countRung(kernel, tile));
        r = sim::resultsRoofline(*file, counts);
    } else {
        r = sim::textbookRoofline();
    }
    std::string profile = o.profile.empty() ? (file ? "results" : "textbook-a100") : o.profile;
    if (o.profile == "textbook-a100" && file) {
        r.ceilings = sim::textbookCeilings();
    } else if (o.profile == "current") {
        // Not testable without a GPU: the device's ceilings measured now (gpu/ceilings.cu).
        const gpu::DeviceInfo dev = gpu::queryDevice();
        if (!dev.available) throw gpu::Unavailable(dev.why);
        const gpu::Ceilings m = gpu::measureCeilings();
        r.ceilings.peakFp32Gflops = m.peakFp32Gflops;
        r.ceilings.memoryGbytesPerS = m.copyGbytesPerS;
        r.ceilings.source = sim::CeilingSource::Measured;
        r.ceilings.detail = "independent fused multiply-adds and a device-to-device copy, measured now on " + dev.name +
                            ", driver " + m.driverCudaVersion;
        if (!file) {
            // The textbook's examples keep their OP/B; their bounds are this GPU's.
            for (sim::RooflinePoint& p : r.points) {
                p.gflops = *r.ceilings.bound(*p.intensityDram);
                p.note.clear();   // the note works the A100's figures
            }
            r.caption = "PMPP's examples against " + dev.name + " (measured now)";
        }
    }
    if (o.json) std::cout << sim::rooflineJson(r, profile) << "\n";
    else printTable(r);
    return kOk;
}

}  // namespace ts::cli
