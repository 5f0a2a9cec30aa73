#include "student_kernel.hpp"

#include <chrono>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <optional>
#include <regex>
#include <sstream>

#include "sim/catalogue/loaded_kernels.hpp"
#include "sim/catalogue/problem_desc.hpp"
#include "sim/engine/work_estimate.hpp"
#include "sim/teaching/wrong_element.hpp"
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
    const sim::ParamLimit* height = sim::paramLimit(k, sim::ParamId::Height);
    s.height = height && height->max > 1 ? (size.height > 0 ? size.height : 2 * s.tile) : 1;
    s.maskWidth = size.maskWidth > 0 ? size.maskWidth : 5;
    // An array problem: its file's default sizes, unless the command line gives others
    // (--width the last size, --height the first of two).
    if (const auto spec = sim::arraySpecOf(k.name); spec && !spec->defaults.empty()) {
        s.width = size.width > 0 ? size.width : spec->defaults.back();
        s.height = spec->defaults.size() == 2 ? (size.height > 0 ? size.height : spec->defaults.front()) : 1;
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

namespace {

bool sameBits(float a, float b) { return std::memcmp(&a, &b, sizeof a) == 0; }

/// The output element a wrong-P diagnosis explains: the traced block's first store (in
/// step order) of an element that ends up wrong, with its step and line; else the grid's
/// first wrong element (step -1, line 0); nullopt where P is right.
struct WrongStore {
    long long element = -1;
    int step = -1;
    unsigned line = 0;
    int thread = -1;   ///< the traced block's thread that stored it (-1: outside the traced block)
};
std::optional<WrongStore> firstWrongStore(const sim::Simulation& s)
{
    if (s.matchesReference || s.P.size() != s.reference.size()) return std::nullopt;
    const sim::Trace& t = s.trace;
    const int out = t.outputArray >= 0 ? t.outputArray : 2;
    for (size_t i = 0; i < t.steps.size(); ++i)
        for (int e = t.steps[i].begin; e < t.steps[i].end; ++e) {
            const sim::Event& ev = t.events[e];
            if (ev.op != sim::Op::GlobalStore || ev.array != out || ev.index < 0) continue;
            const size_t k = static_cast<size_t>(ev.index);
            if (k < s.P.size() && !sameBits(s.P[k], s.reference[k]))
                return WrongStore{ev.index, static_cast<int>(i), ev.line, static_cast<int>(ev.thread)};
        }
    for (size_t k = 0; k < s.P.size(); ++k)
        if (!sameBits(s.P[k], s.reference[k])) return WrongStore{static_cast<long long>(k), -1, 0, -1};
    return std::nullopt;
}

}  // namespace

std::string runDiagnosis(const sim::Simulation& s)
{
    if (!s.error.empty()) return s.error;
    if (!s.hazards.sites.empty() || !s.hazards.uninitialisedSites.empty()) {
        // The first race's kind, array and two lines (else the first read of a slot no
        // thread wrote, with its line); counts and example threads are the Hazards panel's.
        const std::string report = s.hazards.report(s.arrays, s.trace.blockDim);
        return report.substr(0, report.find_first_of(";\n")) + ".";
    }
    // A sum of arbitrary floats whose last bits follow the order of its additions
    // (KernelInfo::orderDependent) is not wrong within a float sum's bound.
    const sim::KernelInfo* info = sim::findKernel(s.scenario.kernel);
    if (!s.matchesReference && info && info->orderDependent && sim::sumOrderCheck(s.M, s.P, s.reference).within) return "";
    if (!s.matchesReference) {
        // An array problem's output has the file's own name.
        const std::string out = s.arrays.size() > 2 ? s.arrays[2].name : "P";
        size_t wrong = 0;
        for (size_t k = 0; k < s.P.size() && k < s.reference.size(); ++k) wrong += !sameBits(s.P[k], s.reference[k]);
        const std::string count = " (" + std::to_string(wrong) + " of " + std::to_string(s.P.size()) + " elements of " + out +
                                  " differ, framed in red).";
        // The element the grader would name, in its words: its value, who stored it, and the
        // first product its thread summed that the reference does not.
        try {
            if (const std::optional<WrongStore> w = firstWrongStore(s))
                return sim::wrongElementText(s, w->element, w->line) + count;
        } catch (const std::exception&) {
            // An output the trace does not describe: the plain sentence below.
        }
        return out + " differs from the CPU reference: the wrong elements of " + out + " are marked.";
    }
    return "";
}

namespace {

/// The step of `t` that holds the event with Event::seq `seq`, or -1.
int stepOfSeq(const sim::Trace& t, uint32_t seq)
{
    for (size_t i = 0; i < t.steps.size(); ++i)
        for (int e = t.steps[i].begin; e < t.steps[i].end; ++e)
            if (t.events[e].seq == seq) return static_cast<int>(i);
    return -1;
}

/// The first step of `t` with an event on source line `line` (else whose main statement is
/// on it), or -1.
int stepOnLine(const sim::Trace& t, unsigned line)
{
    if (line == 0) return -1;
    for (size_t i = 0; i < t.steps.size(); ++i)
        for (int e = t.steps[i].begin; e < t.steps[i].end; ++e)
            if (t.events[e].line == line) return static_cast<int>(i);
    for (size_t i = 0; i < t.steps.size(); ++i)
        if (t.steps[i].line == line) return static_cast<int>(i);
    return -1;
}

}  // namespace

Diagnosis diagnose(const sim::Simulation& s)
{
    Diagnosis d;
    d.sentence = runDiagnosis(s);
    if (d.sentence.empty()) return d;
    const sim::Trace& t = s.trace;
    if (!s.error.empty()) {
        d.kind = Diagnosis::Kind::Fault;
        std::smatch m;
        if (std::regex_search(s.error, m, std::regex("line ([0-9]+)"))) d.line = static_cast<unsigned>(std::stoul(m[1]));
        d.step = stepOnLine(t, d.line);
        if (d.step < 0 && !t.steps.empty()) d.step = static_cast<int>(t.steps.size()) - 1;
        return d;
    }
    if (!s.hazards.sites.empty()) {
        // The site the sentence names: the first by kind, then lines (HazardLog::report).
        const sim::HazardSite* site = &s.hazards.sites.front();
        for (const sim::HazardSite& h : s.hazards.sites)
            if (std::tie(h.kind, h.firstLine, h.secondLine) < std::tie(site->kind, site->firstLine, site->secondLine))
                site = &h;
        d.kind = Diagnosis::Kind::Race;
        d.line = site->secondLine;
        for (const sim::Hazard& h : s.hazards.traced)
            if (h.kind == site->kind && h.first.line == site->firstLine && h.second.line == site->secondLine) {
                d.step = stepOfSeq(t, h.second.seq);
                break;
            }
        if (d.step < 0) d.step = stepOnLine(t, d.line);
        return d;
    }
    if (!s.hazards.uninitialisedSites.empty()) {
        d.kind = Diagnosis::Kind::Uninitialised;
        d.line = s.hazards.uninitialisedSites.front().line;
        for (size_t i = 0; i < t.steps.size() && d.step < 0; ++i)
            for (int e = t.steps[i].begin; e < t.steps[i].end; ++e)
                if (t.events[e].line == d.line && (t.events[e].flags & sim::kStale)) {
                    d.step = static_cast<int>(i);
                    break;
                }
        if (d.step < 0) d.step = stepOnLine(t, d.line);
        return d;
    }
    d.kind = Diagnosis::Kind::WrongOutput;
    // The traced block's first store of an output element that ends up wrong.
    if (const std::optional<WrongStore> w = firstWrongStore(s); w && w->step >= 0) {
        d.step = w->step;
        d.line = w->line;
        // Where the trace names it, the line that put the wrong operand in play (the
        // grader's cause, sim::termCause): the Code panel and G go there, not to P's store.
        if (w->thread >= 0 && sim::problemOf(s.scenario).referenceTerms)
            if (const std::optional<sim::WrongCause> cause =
                    sim::termCause(sim::termsSummedDetail(s, w->thread, 2, w->element),
                                   sim::referenceTerms(s.scenario, w->element))) {
                d.line = cause->line;
                if (const int step = stepOnLine(t, cause->line); step >= 0) d.step = step;
            }
    }
    if (d.step < 0)   // no wrong element in the traced block: its last store
        for (int i = static_cast<int>(t.steps.size()) - 1; i >= 0 && d.step < 0; --i)
            for (int e = t.steps[i].begin; e < t.steps[i].end; ++e)
                if (t.events[e].op == sim::Op::GlobalStore) {
                    d.step = i;
                    d.line = t.events[e].line;
                    break;
                }
    return d;
}

}  // namespace ts::app
