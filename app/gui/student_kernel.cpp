#include "student_kernel.hpp"

#include <chrono>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <sstream>

#include "sim/catalogue/loaded_kernels.hpp"
#include "sim/engine/work_estimate.hpp"
#ifdef TILESCOPE_HAVE_STUDENT
#include "student/module.hpp"
#endif

namespace ts::app {
namespace fs = std::filesystem;

std::vector<std::string> errorsByName(const std::vector<std::string>& errors, const std::string& path)
{
    const std::string name = fs::path(path).filename().string();
    std::vector<std::string> out = errors;
    for (std::string& e : out)
        if (!path.empty() && e.rfind(path + ":", 0) == 0) e = name + e.substr(path.size());
    return out;
}

bool canLoadKernelFiles()
{
#ifdef TILESCOPE_HAVE_STUDENT
    return true;
#else
    return false;
#endif
}

KernelBuild buildKernelFile(const std::string& path)
{
    KernelBuild b;
    b.path = path;
    const auto start = std::chrono::steady_clock::now();
#ifdef TILESCOPE_HAVE_STUDENT
    try {
        const student::LoadResult r = student::loadKernelFile(path);
        for (const student::Diagnostic& d : r.errors) b.errors.push_back(student::formatDiagnostic(path, d));
        if (r.ok()) b.info = r.info;
        else if (b.errors.empty()) b.errors.push_back(path + ": error: the kernel could not be loaded");
    } catch (const std::exception& e) {
        b.errors.push_back(path + ": error: " + e.what());
    }
#else
    b.errors.push_back("this build cannot load a kernel file: it was built without libclang (install libclang-14-dev "
                       "and rebuild)");
#endif
    b.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return b;
}

sim::Preset studentPreset(sim::Preset p, const sim::KernelInfo& k, const KernelProblem& size)
{
    sim::Scenario& s = p.scenario;
    s.kernel = k.name;
    s.info = nullptr;
    s.tile = size.tile > 0 ? size.tile : k.tiles.empty() ? 4 : k.tiles.front();
    const int side = size.width > 0 ? size.width : 2 * s.tile;
    s.j = s.k = s.l = side;
    if (size.j > 0 && size.k > 0 && size.l > 0) {
        s.j = size.j;
        s.k = size.k;
        s.l = size.l;
    }
    s.width = side;
    s.height = k.family == sim::Family::Conv2D ? (size.height > 0 ? size.height : 2 * s.tile) : 1;
    s.maskWidth = size.maskWidth > 0 ? size.maskWidth : 5;
    if (k.family == sim::Family::Array) {
        // An array problem: its file's default sizes, unless the command line gives others
        // (--width the last size, --height the first of two).
        if (const auto spec = sim::loadedArraySpec(k.name); spec && !spec->defaults.empty()) {
            s.width = size.width > 0 ? size.width : spec->defaults.back();
            s.height = spec->defaults.size() == 2 ? (size.height > 0 ? size.height : spec->defaults.front()) : 1;
        }
    }
    s.block = {};
    s.dropBarriers = 0;
    p.title = k.summary;
    p.name = k.name;
    p.step = 0;
    p.narration.clear();
    p.narrate.clear();
    p.questions.clear();
    p.questionProblems.clear();
    p.occupancy.reset();
    p.thread.reset();
    p.file.clear();
    return p;
}

std::string kernelFileOf(const sim::Scenario& s)
{
    const sim::KernelInfo* info = sim::findLoadedKernel(s.kernel);
    return info ? std::string(info->sourceFile) : std::string();
}

std::string runDiagnosis(const sim::Simulation& s)
{
    if (!s.error.empty()) return s.error;
    if (!s.hazards.sites.empty() || !s.hazards.uninitialisedSites.empty()) {
        // The first race's kind, array and two lines (else the first read of a slot no
        // thread wrote, with its line); counts and example threads are the Hazards panel's.
        const std::string report = s.hazards.report(s.arrays, s.trace.blockDim);
        return report.substr(0, report.find_first_of(";\n")) + ".";
    }
    if (!s.matchesReference) {
        // An array problem's output has the file's own name.
        const std::string out = sim::familyOf(s.scenario) == sim::Family::Array && s.arrays.size() > 2 ? s.arrays[2].name : "P";
        return out + " differs from the CPU reference: the wrong elements of " + out + " are marked.";
    }
    return "";
}

}  // namespace ts::app
