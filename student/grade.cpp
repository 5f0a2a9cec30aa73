// The grader (student/grade.hpp): each hidden size is simulated in the kernel's confined
// runner (student/confined_run.hpp), which sends the Simulation back; the checks are judged
// here, from what it sent.
#include "student/grade.hpp"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <new>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <map>
#include <regex>
#include <sstream>

#include "gpu/student_launch.hpp"
#include "sim/engine/provenance.hpp"
#include "sim/teaching/wrong_element.hpp"
#include "sim/engine/simulate.hpp"
#include "sim/engine/warp_memory.hpp"
#include "sim/engine/work_estimate.hpp"
#include "sim/engine/loaded_runner.hpp"
#include "sim/catalogue/loaded_kernels.hpp"

namespace ts::student {
namespace {

using sim::elementText;
using sim::floatText;
using sim::referenceTerms;
using sim::termsSummed;
using sim::termsText;
using sim::threadText;

/// The first "line N" in `text`, else 0.
unsigned lineIn(const std::string& text)
{
    static const std::regex re("line (\\d+)");
    std::smatch m;
    return std::regex_search(text, m, re) ? static_cast<unsigned>(std::stoul(m[1])) : 0u;
}

/// "FILE:LINE: " for the student's line `line` (nothing for 0).
std::string at(const std::string& file, unsigned line)
{
    return line ? std::filesystem::path(file).filename().string() + ":" + std::to_string(line) + ": " : std::string();
}

/// The lines of the student's global loads (store = false) or stores of array `array`,
/// with their requests and sectors.
std::vector<sim::LineMemory> globalLines(const sim::Simulation& r, int array, bool store)
{
    std::vector<sim::LineMemory> out;
    for (const sim::LineMemory& l : sim::memoryByLine(r.accessSites))
        if (l.space == sim::Space::Global && l.store == store &&
            std::find(l.arrays.begin(), l.arrays.end(), static_cast<uint8_t>(array)) != l.arrays.end())
            out.push_back(l);
    return out;
}

/// Sectors per request of the global loads of `array` (0 when there are none).
double sectorsPerRequest(const std::vector<sim::LineMemory>& lines)
{
    uint64_t s = 0, q = 0;
    for (const sim::LineMemory& l : lines) {
        s += l.sectors;
        q += l.requests;
    }
    return q ? static_cast<double>(s) / static_cast<double>(q) : 0.0;
}

std::string twoDecimals(double v)
{
    std::ostringstream o;
    o << std::fixed << std::setprecision(2) << v;
    return o.str();
}

/// The scenario of size `z` for kernel `kernel` (matmul or a convolution family).
sim::Scenario scenarioFor(const Exercise& x, const std::string& kernel, const ExerciseSize& z, int tile, uint64_t seed)
{
    if (x.launch.family == "matmul") return sim::matmulScenario(kernel, z.j, z.k, z.l, tile, {}, seed);
    if (x.launch.family == "array") return sim::convScenario(kernel, z.twoD ? z.height : 1, z.width, tile, 1, {}, seed);
    return sim::convScenario(kernel, z.height, z.width, tile, x.maskWidth, {}, seed);
}

/// "P[2][40]" (matmul, conv2d) or "P[40]" (conv1d) for flat index `i` of P.
/// The output's index among a simulation's arrays: M, N, P come first, whatever their
/// names (an array problem's output has the file's own).
constexpr int kOutputArray = 2;

std::string elementName(const sim::Simulation& r, int p, long long i, const std::string& family)
{
    // The output under its own name (an array problem's is the file's, e.g. C).
    const std::string& name = r.arrays.at(p).name;
    if (family == "conv1d" || (family == "array" && r.arrays.at(p).rows == 1)) return name + "[" + std::to_string(i) + "]";
    const sim::PElement e = sim::elementAt(r.arrays.at(p), i);
    return name + "[" + std::to_string(e.row) + "][" + std::to_string(e.col) + "]";
}

/// Who wrote each element of P: block and thread, as one key (-1: nobody).
std::vector<long long> writers(const sim::Simulation& r, int p)
{
    std::vector<long long> w(r.P.size(), -1);
    for (size_t i = 0; i < w.size(); ++i)
        if (const std::optional<sim::Writer> o = sim::writerOf(r, p, static_cast<long long>(i)))
            w[i] = ((static_cast<long long>(o->block.z) * 65536 + o->block.y) * 65536 + o->block.x) * 65536 + o->thread;
    return w;
}

std::string writerText(const sim::Simulation& r, int p, long long i)
{
    const std::optional<sim::Writer> o = sim::writerOf(r, p, i);
    if (!o) return "nobody";
    return "thread " + threadText(r.block, o->thread) + " of block (" + std::to_string(o->block.x) + ", " +
           std::to_string(o->block.y) + ")";
}

/// The scenario `s` run again with block `block` traced (one thread, no memory model).
sim::Simulation traceBlock(sim::Scenario s, const sim::Uint3& block)
{
    s.block = block;
    sim::SimOptions o;
    o.trace = true;
    o.threads = 1;
    o.memoryModel = false;
    o.detectHazards = false;
    sim::Simulation t = sim::simulate(s, o);
    for (sim::ArrayInfo& a : t.trace.arrays)
        if (a.space != sim::Space::Shared) a.name = sim::loadedArrayLabel(s.kernel, a.name);
    return t;
}

/// A reference term ("M[0][1] * N[1][0]") with each operand under the student's name of its
/// array ("A[0][1] * B[1][0]").
std::string studentTerm(const std::string& term, const std::string& kernel)
{
    std::string out;
    size_t from = 0;
    for (;;) {
        const size_t star = term.find(" * ", from);
        const std::string operand = term.substr(from, star == std::string::npos ? std::string::npos : star - from);
        const size_t bracket = operand.find('[');
        out += bracket == std::string::npos ? operand : sim::loadedArrayLabel(kernel, operand.substr(0, bracket)) + operand.substr(bracket);
        if (star == std::string::npos) break;
        out += " * ";
        from = star + 3;
    }
    return out;
}

/// The first shared read of the traced block of `t` that got a stale value (another thread
/// wrote the slot later in the same barrier interval, or nobody had written it:
/// sim::markStaleReads), as "thread (tx=.., ty=..) read N_ds[3] at line 25, ...", thread
/// `thread`'s own first if it made one; "" when there is none.
std::string firstStaleRead(const sim::Simulation& t, int thread, unsigned& line)
{
    // The thread's own stale read first, in its program order; else the block's first.
    const sim::Event* found = nullptr;
    for (const sim::Event& e : t.trace.events) {
        if (e.op != sim::Op::SharedLoad || !(e.flags & sim::kStale) || e.array >= t.trace.arrays.size()) continue;
        const bool own = e.thread == thread, foundOwn = found && found->thread == thread;
        if (!found || (own && !foundOwn) || (own == foundOwn && e.seq < found->seq)) found = &e;
    }
    if (!found) return "";
    const sim::Event& e = *found;
    line = e.line;
    return "in block (" + std::to_string(t.scenario.block.x) + ", " + std::to_string(t.scenario.block.y) + "), thread " +
           threadText(t.block, e.thread) + " read " + elementText(t.trace.arrays[e.array], e.index) + " at line " +
           std::to_string(e.line) +
           (std::isnan(e.value) ? " before any thread had stored it" : " before the value it needed was stored there");
}

/// "1st", "2nd", "3rd", "4th", ...: the n-th execution of a line.
std::string ordinal(unsigned n)
{
    const unsigned t = n % 100;
    const char* suffix = t >= 11 && t <= 13 ? "th" : n % 10 == 1 ? "st" : n % 10 == 2 ? "nd" : n % 10 == 3 ? "rd" : "th";
    return std::to_string(n) + suffix;
}

/// The `convergent` check (ExerciseChecks::convergent, PMPP sec. 10.4), from the traced
/// block's branch events (the front end marks every condition of the student's kernel):
/// the n-th evaluation of a line by each thread of the block forms one execution of that
/// branch by the block; its warps are divergent where some of their lanes took it and
/// some did not. The check fails on the first execution, in the order the schedule ran
/// them, at which more than 32 threads took the branch and at least one warp diverged.
Check convergentCheck(const std::string& file, const std::string& size, const sim::Simulation& r)
{
    std::vector<const sim::Event*> branches;
    for (const sim::Event& e : r.trace.events)
        if (e.op == sim::Op::Branch && e.thread != sim::kNoThread) branches.push_back(&e);
    std::sort(branches.begin(), branches.end(), [](const sim::Event* a, const sim::Event* b) { return a->seq < b->seq; });
    struct Execution {
        uint32_t firstSeq = 0;
        unsigned takers = 0;
        std::map<unsigned, std::pair<unsigned, unsigned>> warps;   ///< warp: lanes that took it, lanes that did not
    };
    std::map<std::pair<unsigned, unsigned>, unsigned> seen;        ///< (thread, line): evaluations so far
    std::map<std::pair<unsigned, unsigned>, Execution> executions; ///< (line, n): the block's n-th execution
    for (const sim::Event* e : branches) {
        const unsigned n = seen[{e->thread, e->line}]++;
        auto [it, fresh] = executions.try_emplace({e->line, n});
        if (fresh) it->second.firstSeq = e->seq;
        const bool took = e->value != 0.0f;
        it->second.takers += took;
        auto& w = it->second.warps[e->thread / 32u];
        (took ? w.first : w.second) += 1;
    }
    const std::string block = "block (" + std::to_string(r.trace.block.x) + ", " + std::to_string(r.trace.block.y) + ")";
    const std::pair<const std::pair<unsigned, unsigned>, Execution>* bad = nullptr;
    unsigned badWarps = 0, divergent = 0;
    for (const auto& entry : executions) {
        unsigned split = 0;
        for (const auto& [warp, lanes] : entry.second.warps) split += lanes.first > 0 && lanes.second > 0;
        divergent += split;
        if (split > 0 && entry.second.takers > 32 && (!bad || entry.second.firstSeq < bad->second.firstSeq)) {
            bad = &entry;
            badWarps = split;
        }
    }
    if (!bad)
        return Check{"convergent", true, false,
                     "no warp of " + block + " diverged at a branch while more than 32 of its threads took it (" +
                         std::to_string(divergent) + " divergent warp executions, all with 32 threads or fewer taking the branch; at " +
                         size + ")",
                     0};
    const unsigned line = bad->first.first;
    return Check{"convergent", false, false,
                 at(file, line) + "at " + size + ", the " + ordinal(bad->first.second + 1) + " execution of the branch on line " +
                     std::to_string(line) + " in " + block + " was taken by " + std::to_string(bad->second.takers) +
                     " threads, and " + std::to_string(badWarps) + (badWarps == 1 ? " warp" : " warps") +
                     " diverged (some lanes took it, some did not): keep the threads that work packed at the front of "
                     "the block (threadIdx.x < stride, PMPP sec. 10.4), so that whole warps drop out together",
                 line};
}

/// The `atomics per block` check (ExerciseChecks::atomicsPerBlock, PMPP sec. 10.7): the
/// launch's global atomics (Totals::global_atomics) must be exactly `perBlock` times its
/// blocks, or with `atMost` no more (PMPP sec. 9.4's privatized bins).
Check atomicsCheck(const std::string& file, const std::string& size, const sim::Scenario& s, const sim::Simulation& r,
                   int perBlock, bool atMost)
{
    const uint64_t blocks = static_cast<uint64_t>(sim::launchShape(s).grid.count());
    const uint64_t made = r.counters.totals.global_atomics;
    const uint64_t want = blocks * static_cast<uint64_t>(perBlock);
    unsigned line = 0;
    for (const sim::AccessSite& a : r.accessSites)
        if (a.kind == sim::AccessKind::GlobalAtomic && (line == 0 || a.line < line)) line = a.line;
    const std::string counted = std::to_string(made) + " global atomic" + (made == 1 ? "" : "s") + " for " +
                                std::to_string(blocks) + " block" + (blocks == 1 ? "" : "s");
    const std::string asked = (atMost ? "at most " : "") + std::to_string(perBlock) + " per block";
    if (made == want || (atMost && made < want))
        return Check{"atomics per block", true, false, counted + " at " + size + ", " + asked, 0};
    const std::string why =
        atMost ? ": count into a private copy of the bins in shared memory (__shared__ unsigned int histo_s[NUM_BINS]), "
                 "then let each thread add one bin of it to global memory after a barrier (PMPP sec. 9.4, Fig. 9.10); "
                 "the lanes of a warp on one global bin wait for each other"
        : made > want ? ": let the block add its threads' values in shared memory first, and one thread (threadIdx.x == 0) "
                      "add the block's total to the output with atomicAdd (PMPP sec. 10.7); every extra atomic on the "
                      "one address waits for the others"
                    : ": each block adds its partial sum to the output with atomicAdd (PMPP sec. 10.7), which combines "
                      "the blocks' sums whatever order they finish in";
    return Check{"atomics per block", false, false,
                 at(file, line) + "at " + size + " your kernel made " + counted + " where this exercise asks for " + asked + why,
                 line};
}

/// The `work` check (ExerciseChecks::addsAtMost, PMPP sec. 11.3): the launch's float adds
/// (Totals::fadds) at size `size` must be at most `most`. The simulator counts the adds of the
/// whole launch, not by line, so the diagnosis names no line.
Check workCheck(const std::string& size, const sim::Simulation& r, int most)
{
    const uint64_t adds = r.counters.totals.fadds;
    const std::string counted = std::to_string(adds) + " float add" + (adds == 1 ? "" : "s") + " at " + size;
    if (adds <= static_cast<uint64_t>(most))
        return Check{"work", true, false, counted + ", at most " + std::to_string(most) + " asked", 0};
    return Check{"work", false, false,
                 "your kernel made " + counted + " where this exercise allows at most " + std::to_string(most) +
                     ": each step of the network should add each pair once, as the figure's loop does (PMPP sec. 11.3 "
                     "compares a scan's adds with the sequential scan's n - 1); a thread that adds up its whole prefix "
                     "by itself makes n^2 / 2",
                 0};
}

/// The checks of one hidden size, judged on the simulation `r` of the student's kernel
/// (`exerciseChecks`: also the exercise's own ones), from the Simulation the runner sent back.
std::vector<Check> judge(const Exercise& x, const std::string& file, const sim::Scenario& s, const sim::Simulation& r,
                         const std::string& size, bool exerciseChecks)
{
    std::vector<Check> out;
    const std::string& family = x.launch.family;
    // The student's text, for the loops and conditions a diagnosis names.
    std::string unreadable;
    const std::string source = readKernelText(file, unreadable).value_or("");
    if (!r.error.empty()) {
        const bool barrier = r.error.find("barrier") != std::string::npos && r.error.find("never ends") == std::string::npos;
        unsigned line = lineIn(r.error);
        // The fault was worded in the runner, with the simulator's names of the arrays.
        std::string d = sim::inStudentNames(r.error, s.kernel);
        // A thread that kept reading: the loop it was in is the cause.
        if (r.error.find("a loop that never ends") != std::string::npos)
            if (const std::vector<unsigned> loops = sim::enclosingLoops(source, line); !loops.empty()) {
                line = loops.back();
                d = "the loop on line " + std::to_string(line) + " never ends: " + d;
            }
        out.push_back(Check{(barrier ? "barriers " : "runs ") + size, false, false,
                            at(file, line) + "at " + size + ", " + d +
                                (barrier ? " (every thread of a block must reach each __syncthreads(), PMPP sec. 4.3)" : ""),
                            line});
        return out;
    }
    out.push_back(Check{"runs " + size, true, false, "no thread faulted at " + size, 0});
    out.push_back(Check{"barriers " + size, true, false, "every thread reached every barrier it waited at", 0});

    const int p = kOutputArray;
    const std::vector<sim::LineMemory> stores = globalLines(r, p, true);
    const unsigned storeLine = stores.size() == 1 ? stores.front().line : 0;
    if (r.matchesReference) {
        out.push_back(Check{"correct " + size, true, false, "P equals the CPU reference bit for bit at " + size, 0});
    } else {
        size_t i = 0;
        while (i < r.P.size() && std::memcmp(&r.P[i], &r.reference[i], sizeof(float)) == 0) ++i;
        size_t wrong = 0;
        for (size_t n = 0; n < r.P.size(); ++n) wrong += std::memcmp(&r.P[n], &r.reference[n], sizeof(float)) != 0;
        std::string d;
        unsigned line = storeLine;
        if (i >= r.P.size()) {
            d = "P differs from the CPU reference at " + size;
        } else {
            const std::string name = elementName(r, p, static_cast<long long>(i), family);
            const std::optional<sim::Writer> w = sim::writerOf(r, p, static_cast<long long>(i));
            if (!w) {
                line = 0;
                d = "at " + size + ", " + name + " was never written (the reference gives " + floatText(r.reference[i]) +
                    "): no thread stores it; check that the grid covers all of " + r.arrays.at(p).name +
                    " and that the boundary check lets that thread through";
                // The store sits under a condition: that condition kept the element's thread out.
                if (const std::vector<unsigned> ifs = storeLine ? sim::enclosingIfs(source, storeLine) : std::vector<unsigned>{};
                    !ifs.empty()) {
                    line = ifs.back();
                    d = "at " + size + ", " + name + " was never written (the reference gives " + floatText(r.reference[i]) +
                        "): the store on line " + std::to_string(storeLine) + " is under the condition on line " +
                        std::to_string(line) + ", which no thread that would store " + name +
                        " passed (or the grid does not reach it)";
                }
            } else {
                const std::string stored = writerText(r, p, static_cast<long long>(i)) + " stored it" +
                                           (storeLine ? " at line " + std::to_string(storeLine) : std::string());
                d = "at " + size + ", " + name + " is " + floatText(r.P[i]) + " where the reference gives " +
                    floatText(r.reference[i]) + "; " + stored;
                // The writer's block again, traced: what the thread summed, and a stale shared
                // read there names the line where it went wrong.
                const sim::Simulation t = traceBlock(s, w->block);
                unsigned readLine = 0;
                const std::string stale = firstStaleRead(t, w->thread, readLine);
                // An array problem's formula is no sum of products to compare term by term.
                const std::vector<sim::SummedTerm> got =
                    family == "array" ? std::vector<sim::SummedTerm>{} : sim::termsSummedDetail(t, w->thread, kOutputArray, static_cast<long long>(i));
                std::vector<std::string> want = family == "array" ? std::vector<std::string>{} : referenceTerms(s, static_cast<long long>(i));
                for (std::string& term : want) term = studentTerm(term, s.kernel);
                std::vector<std::string> gotText;
                for (const sim::SummedTerm& term : got) gotText.push_back(term.a.element == "registers" ? "registers" : term.text());
                const std::string terms = family == "array" ? std::string() : termsText(gotText, want);
                const std::optional<sim::WrongCause> cause = stale.empty() ? sim::termCause(got, want) : std::nullopt;
                if (!stale.empty()) {
                    // A read before the value was stored: a missing barrier, at the read.
                    if (!terms.empty()) d += "; " + terms;
                    d += "; " + stale;
                    line = readLine;
                } else if (cause) {
                    // The cause first (the store that put the wrong operand in play), the store of P second.
                    line = cause->line;
                    d = "at " + size + ", " + name + " is " + floatText(r.P[i]) + " where the reference gives " +
                        floatText(r.reference[i]) + ": " + cause->text + "; " + stored;
                } else if (terms.rfind("it summed ", 0) == 0 && got.size() < want.size() && !got.empty()) {
                    // The sum was cut short: the loop around the multiply-add stopped early.
                    const std::vector<unsigned> loops = sim::enclosingLoops(source, got.back().a.readLine);
                    if (!loops.empty()) {
                        // Whole tiles summed: the phase loop (the outermost) lost its last phase.
                        const bool phases = loops.size() >= 2 && s.tile > 0 && got.size() % static_cast<size_t>(s.tile) == 0;
                        line = phases ? loops.front() : loops.back();
                        d = "at " + size + ", " + name + " is " + floatText(r.P[i]) + " where the reference gives " +
                            floatText(r.reference[i]) + ": the loop on line " + std::to_string(line) + " stopped early, " + terms +
                            (phases ? " (a phase count rounds up: (k + TILE_WIDTH - 1) / TILE_WIDTH phases cover k)"
                                    : " (look at its bound)") +
                            "; " + stored;
                    } else {
                        d += "; " + terms;
                    }
                } else if (!terms.empty()) {
                    d += "; " + terms;
                }
            }
            d += " (" + std::to_string(wrong) + " of " + std::to_string(r.P.size()) + " elements differ)";
        }
        out.push_back(Check{"correct " + size, false, false, at(file, line) + d, line});
    }

    const uint64_t hazards = r.hazards.raw + r.hazards.war + r.hazards.waw;
    if (hazards == 0) {
        out.push_back(Check{"no races " + size, true, false, "no two threads touch a shared slot without a barrier between", 0});
    } else {
        // The site with the most access pairs names the missing barrier best: without the
        // barrier after the load most pairs are RAW, without the one after the use WAR.
        sim::HazardLog top;
        if (!r.hazards.sites.empty())
            top.sites = {*std::max_element(r.hazards.sites.begin(), r.hazards.sites.end(),
                                           [](const sim::HazardSite& a, const sim::HazardSite& b) {
                                               return std::tie(a.count, b.kind) < std::tie(b.count, a.kind);
                                           })};
        std::string report = top.report(r.arrays, r.block);
        report = report.substr(0, report.find('\n'));
        const std::vector<sim::HazardSite>& sites = top.sites;
        const unsigned line = sites.empty() ? 0 : sites.front().secondLine;
        // A race on a global element is a read-modify-write that needs an atomic (PMPP sec.
        // 9.2); one on a shared slot, a barrier (PMPP sec. 5.4).
        const bool global = !sites.empty() && sites.front().array < r.arrays.size() &&
                            r.arrays[sites.front().array].space == sim::Space::Global;
        out.push_back(Check{"no races " + size, false, false,
                            at(file, line) + report + " (" + std::to_string(r.hazards.raw) + " RAW, " +
                                std::to_string(r.hazards.war) + " WAR, " + std::to_string(r.hazards.waw) + " WAW at " + size +
                                (global ? "; PMPP sec. 9.2: threads that update one element at the same time lose each "
                                          "other's updates unless each update is one atomic operation, atomicAdd"
                                        : "; PMPP sec. 5.4: a barrier after the tile load and one after its use") +
                                ")",
                            line});
    }
    if (r.hazards.uninitialised == 0 || r.hazards.uninitialisedSites.empty()) {
        out.push_back(Check{"initialised shared " + size, true, false, "every shared read found a value a thread had stored", 0});
    } else {
        sim::HazardLog first;
        first.uninitialisedSites = {r.hazards.uninitialisedSites.front()};
        std::string report = first.report(r.arrays, r.block);
        report = report.substr(0, report.find('\n'));
        const unsigned line = first.uninitialisedSites.front().line;
        out.push_back(Check{"initialised shared " + size, false, false,
                            at(file, line) + report + " (at " + size + "; a load the kernel forgot, such as a halo cell)",
                            line});
    }
    if (!exerciseChecks) return out;

    if (x.checks.onePer == "row" || x.checks.onePer == "column") {
        const bool rows = x.checks.onePer == "row";
        const std::vector<long long> w = writers(r, p);
        const sim::ArrayInfo& a = r.arrays.at(p);
        std::optional<Check> bad;
        for (int outer = 0; outer < (rows ? a.rows : a.cols) && !bad; ++outer)
            for (int inner = 1; inner < (rows ? a.cols : a.rows) && !bad; ++inner) {
                const long long first = rows ? a.flat(outer, 0) : a.flat(0, outer);
                const long long here = rows ? a.flat(outer, inner) : a.flat(inner, outer);
                // An element nobody wrote is the `correct` check's to report.
                if (w[static_cast<size_t>(here)] >= 0 && w[static_cast<size_t>(first)] >= 0 &&
                    w[static_cast<size_t>(here)] != w[static_cast<size_t>(first)])
                    bad = Check{std::string("one thread per ") + x.checks.onePer, false, false,
                                at(file, storeLine) + elementName(r, p, first, family) + " was computed by " +
                                    writerText(r, p, first) + " but " + elementName(r, p, here, family) + " by " +
                                    writerText(r, p, here) + ": this exercise asks for one thread per whole " +
                                    x.checks.onePer + " of P",
                                storeLine};
            }
        out.push_back(bad ? *bad
                          : Check{std::string("one thread per ") + x.checks.onePer, true, false,
                                  "each " + x.checks.onePer + " of P was computed by one thread", 0});
    }
    if (x.checks.minOutputsPerThread > 0) {
        const std::vector<long long> w = writers(r, p);
        std::vector<long long> distinct;
        for (long long v : w)
            if (v >= 0) distinct.push_back(v);
        const size_t written = distinct.size();
        std::sort(distinct.begin(), distinct.end());
        distinct.erase(std::unique(distinct.begin(), distinct.end()), distinct.end());
        const double each = distinct.empty() ? 0.0 : static_cast<double>(written) / static_cast<double>(distinct.size());
        const bool ok = each >= x.checks.minOutputsPerThread;
        out.push_back(Check{"thread coarsening", ok, false,
                            ok ? "each thread computes " + twoDecimals(each) + " elements of P on average"
                               : at(file, storeLine) + "your threads compute " + twoDecimals(each) +
                                     " elements of P each on average; coarsening asks for at least " +
                                     std::to_string(x.checks.minOutputsPerThread) +
                                     " (PMPP sec. 6.3: each thread computes COARSE_FACTOR elements of a row, reusing its Mds tile)",
                            ok ? 0 : storeLine});
    }
    if (x.checks.convergent) out.push_back(convergentCheck(file, size, r));
    if (x.checks.atomicsPerBlock > 0) out.push_back(atomicsCheck(file, size, s, r, x.checks.atomicsPerBlock, x.checks.atomicsAtMost));
    if (x.checks.addsAtMost > 0) out.push_back(workCheck(size, r, x.checks.addsAtMost));
    if (x.checks.coalesced) {
        // The reference kernel on the same problem, at the student's tile where it has it.
        sim::Scenario rs = scenarioFor(x, x.reference, {s.j, s.k, s.l, s.height, s.width}, s.tile, s.seed);
        if (!sim::validate(rs).empty()) rs.tile = rs.kernelInfo()->defaultTile;
        sim::SimOptions o;
        o.trace = false;
        o.threads = 1;
        o.detectHazards = false;
        const sim::Simulation ref = sim::simulate(rs, o);
        const int n = 1;   // N: M, N, P come first, whatever the student calls them
        const std::vector<sim::LineMemory> mine = globalLines(r, n, false);
        const double own = sectorsPerRequest(mine), theirs = sectorsPerRequest(globalLines(ref, ref.arrayIndex("N"), false));
        const bool ok = own <= theirs * 1.25 + 1e-9;
        unsigned line = 0;
        double worst = 0;
        for (const sim::LineMemory& l : mine)
            if (l.requests && static_cast<double>(l.sectors) / static_cast<double>(l.requests) > worst) {
                worst = static_cast<double>(l.sectors) / static_cast<double>(l.requests);
                line = l.line;
            }
        out.push_back(Check{"coalesced", ok, false,
                            ok ? "global loads of N take " + twoDecimals(own) + " sectors per request (" + x.reference +
                                     ": " + twoDecimals(theirs) + ")"
                               : at(file, line) + "your global loads of N take " + twoDecimals(own) +
                                     " 32-byte sectors per request (" + twoDecimals(worst) + " on line " +
                                     std::to_string(line) + ") where " + x.reference + "'s take " + twoDecimals(theirs) +
                                     ": consecutive threadIdx.x must read consecutive addresses of N" +
                                     (x.launch.nLayout == "column-major"
                                          ? ", and N is stored column-major here, so walk down a column and turn the corner in shared memory (PMPP sec. 6.1)"
                                          : " (PMPP sec. 6.1)"),
                            ok ? 0 : line});
    }
    return out;
}

/// Runs size `z` (in the kernel's confined runner) and returns its checks; a run that timed
/// out, crashed, ran out of memory or was stopped for a forbidden system call gives one
/// failing `runs` check with the runner's sentence.
std::vector<Check> runSize(const Exercise& x, const std::string& file, const std::string& kernel, const ExerciseSize& z,
                           int tile, uint64_t seed, bool exerciseChecks)
{
    const std::string size = z.text(x.launch.family);
    sim::Scenario s = scenarioFor(x, kernel, z, tile, seed);
    if (const std::string why = sim::validate(s); !why.empty()) {
        const sim::KernelInfo* info = s.kernelInfo();
        if (info && info->squareOnly && (z.j != z.k || z.k != z.l))
            return {Check{"runs " + size, false, false,
                          file + ": your kernel takes one size (Width), so it can only multiply square matrices, but "
                                 "this exercise also has " + size + ": take int j, int k, int l instead (M j x k, N k x l, P j x l)",
                          0}};
        return {Check{"runs " + size, false, false, "TileScope cannot launch your kernel at " + size + ": " + why, 0}};
    }
    sim::SimOptions opt;
    opt.trace = exerciseChecks && x.checks.convergent;   // `convergent` reads the traced block's branches
    opt.threads = 1;   // one run per hidden size at a time, each on one core
    const sim::WorkEstimate e = sim::estimateWork(s, opt);

    // The run happens in the kernel's confined runner (student/confined_run.hpp): a run that
    // ends without a result throws RunStopped with the sentence the student sees.
    try {
        sim::Simulation r = sim::simulate(s, opt, e);
        // The diagnoses call the arrays as the student does (A, B, C; the mask Mc).
        for (sim::ArrayInfo& a : r.arrays)
            if (a.space != sim::Space::Shared) a.name = sim::loadedArrayLabel(kernel, a.name);
        return judge(x, file, s, r, size, exerciseChecks);
    } catch (const sim::RunStopped& stopped) {
        return {Check{"runs " + size, false, false, "at " + size + ", " + stopped.what(), 0}};
    } catch (const std::exception& ex) {
        return {Check{"runs " + size, false, false, std::string("at ") + size + ", the simulation failed: " + ex.what(), 0}};
    }
}

}  // namespace

std::vector<std::string> checkNames(const Exercise& x)
{
    std::vector<std::string> names = {"compiles"};
    if (x.checks.tiled) names.push_back("tiled");
    for (const ExerciseSize& z : x.sizes) {
        const std::string size = z.text(x.launch.family);
        for (const char* kind : {"runs ", "barriers ", "correct ", "no races ", "initialised shared "}) names.push_back(kind + size);
    }
    if (x.checks.onePer == "row" || x.checks.onePer == "column") names.push_back("one thread per " + x.checks.onePer);
    if (x.checks.minOutputsPerThread > 0) names.push_back("thread coarsening");
    if (x.checks.convergent) names.push_back("convergent");
    if (x.checks.atomicsPerBlock > 0) names.push_back("atomics per block");
    if (x.checks.addsAtMost > 0) names.push_back("work");
    if (x.checks.coalesced) names.push_back("coalesced");
    names.push_back("gpu");
    return names;
}

namespace {

/// `g`'s checks as checkNames(x) lists them, each with its points: a check the grader did
/// not get to is failed, "not run: " and why.
void completeChecks(const Exercise& x, Grade& g)
{
    std::vector<Check> found = std::move(g.checks);
    auto take = [&](const std::string& name) -> std::optional<Check> {
        for (auto it = found.begin(); it != found.end(); ++it)
            if (it->name == name) {
                Check c = std::move(*it);
                found.erase(it);
                return c;
            }
        return std::nullopt;
    };
    auto failedCheck = [&](const std::string& name) {
        for (const Check& c : g.checks)
            if (c.name == name) return !c.passed && !c.skipped;
        for (const Check& c : found)
            if (c.name == name) return !c.passed && !c.skipped;
        return false;
    };
    const std::string last = x.sizes.empty() ? std::string() : x.sizes.back().text(x.launch.family);
    const bool compiled = !failedCheck("compiles");
    g.checks.clear();
    for (const std::string& name : checkNames(x)) {
        if (std::optional<Check> c = take(name)) {
            g.checks.push_back(std::move(*c));
            continue;
        }
        std::string why;
        if (!compiled) {
            why = "not run: the file does not compile";
        } else {
            std::string size;
            for (const char* kind : {"runs ", "barriers ", "correct ", "no races ", "initialised shared "})
                if (name.rfind(kind, 0) == 0) size = name.substr(std::string(kind).size());
            if (size.empty()) size = last;
            if (name == "runs " + size && failedCheck("barriers " + size))
                why = "not run to the end: at " + size + " the threads of a block waited at different barriers (see barriers " + size + ")";
            else if (name == "runs " + size || name == "barriers " + size || name == "correct " + size ||
                     name == "no races " + size || name == "initialised shared " + size)
                why = "not run: the kernel did not run to the end at " + size;
            else
                why = "not run: this check is judged at " + last + ", where the kernel did not run to the end";
        }
        g.checks.push_back(Check{name, false, false, why, 0});
    }
    for (Check& c : found) g.checks.push_back(std::move(c));
    for (Check& c : g.checks) {
        c.maxPoints = x.points.of(c.name);
        c.points = c.passed || c.skipped ? c.maxPoints : 0;
    }
}

}  // namespace

double Grade::score() const
{
    double s = 0;
    for (const Check& c : checks) s += c.points;
    return s;
}

double Grade::maxScore() const
{
    double s = 0;
    for (const Check& c : checks) s += c.maxPoints;
    return s;
}

bool Grade::passed() const
{
    return !checks.empty() && std::all_of(checks.begin(), checks.end(), [](const Check& c) { return c.passed || c.skipped; });
}

std::optional<Check> timeOnGpu(const Exercise& x, const std::string& kernelFile, const LoadResult& loaded, int tile)
{
    if (!gpu::queryDevice().available) return std::nullopt;
    std::string unreadable;
    const std::optional<std::string> text = readKernelText(kernelFile, unreadable);
    if (!text) return Check{"gpu", false, false, unreadable, 0};
    gpu::StudentKernel k{*text, kernelFile, {}};
    try {
        k.translation = translateCuda(k.source, kernelFile);
    } catch (const std::exception& e) {
        return Check{"gpu", false, false, std::string("the GPU check could not translate your file: ") + e.what(), 0};
    }
    // The largest hidden size: the GPU's P against the simulator's, then both times.
    sim::Scenario s = scenarioFor(x, loaded.info->name, x.sizes.back(), tile, 2026 + x.sizes.size() - 1);
    const std::string size = x.sizes.back().text(x.launch.family);
    if (!sim::validate(s).empty()) return std::nullopt;   // the run checks said why already
    try {
        const gpu::StudentGpuCheck c = gpu::checkStudentOnGpu(k, s, x.reference);
        if (!c.bitExactVsSim)
            return Check{"gpu", false, false, "on " + c.device + " at " + size + ", the GPU's P is not the simulator's: " + c.why, 0};
        return Check{"gpu", true, false,
                     "on " + c.device + " at " + size + ": P equals the simulator's bit for bit; your kernel " +
                         twoDecimals(c.studentMs * 1000) + " us, " + x.reference + " " + twoDecimals(c.referenceMs * 1000) + " us (" +
                         twoDecimals(c.referenceMs > 0 ? c.studentMs / c.referenceMs : 0) + "x its time)",
                     0};
    } catch (const gpu::StudentCompileError& e) {
        const unsigned line = e.errors.empty() ? 0 : e.errors.front().line;
        return Check{"gpu", false, false, std::string("NVRTC: ") + e.what(), line};
    } catch (const std::exception& e) {
        return Check{"gpu", false, false, std::string("on the GPU: ") + e.what(), 0};
    }
}

namespace {
Grade gradeChecks(const Exercise& x, const std::string& kernelFile, const GradeOptions& options);
}

Grade grade(const Exercise& x, const std::string& kernelFile, const GradeOptions& options)
{
    const auto started = std::chrono::steady_clock::now();
    Grade g = gradeChecks(x, kernelFile, options);
    completeChecks(x, g);
    g.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    return g;
}

namespace {

/// grade()'s checks in the order they were judged, only those judged.
Grade gradeChecks(const Exercise& x, const std::string& kernelFile, const GradeOptions& options)
{
    Grade g;
    g.exercise = x.name;
    g.kernelFile = kernelFile;
    LoadOptions lo;
    lo.launch = x.launch;
    lo.cacheDir = options.cacheDir;
    lo.useCache = options.useCache;
    const LoadResult loaded = loadKernelFile(kernelFile, lo);
    if (!loaded.ok()) {
        Check c{"compiles", false, false, "", 0};
        if (loaded.errors.empty()) {
            c.diagnosis = kernelFile + ": the kernel could not be loaded";
        } else {
            c.diagnosis = formatDiagnostic(kernelFile, loaded.errors.front());
            c.line = loaded.errors.front().line;
            if (loaded.errors.size() > 1)
                c.diagnosis += " (and " + std::to_string(loaded.errors.size() - 1) + " more error" +
                               (loaded.errors.size() > 2 ? "s" : "") + ")";
        }
        g.checks.push_back(c);
        return g;
    }
    g.checks.push_back(Check{"compiles", true, false, std::string("your kernel ") + loaded.info->name + " compiled", 0});
    const bool tiled = !loaded.info->tiles.empty();
    if (x.checks.tiled)
        g.checks.push_back(tiled ? Check{"tiled", true, false, "your kernel keeps its tiles in __shared__ arrays", 0}
                                 : Check{"tiled", false, false,
                                         kernelFile + std::string(": your kernel declares no __shared__ array: this exercise asks for "
                                                      "tiles in shared memory that the block loads together (PMPP sec. 5.4)"),
                                         0});
    const int tile = tiled ? loaded.info->tiles.front() : x.tile ? x.tile : 16;
    std::string stopped;   // the size where the kernel ran out of time: the larger ones are not run
    for (size_t i = 0; i < x.sizes.size(); ++i) {
        const std::string size = x.sizes[i].text(x.launch.family);
        if (!stopped.empty()) {
            g.checks.push_back(Check{"runs " + size, false, false,
                                     "not run: your kernel did not finish at " + stopped + ", so it was not started again", 0});
            continue;
        }
        const bool last = i + 1 == x.sizes.size();
        for (Check& c : runSize(x, kernelFile, loaded.info->name, x.sizes[i], tile, 2026 + i, last)) {
            if (!c.passed && (c.diagnosis.find("ran longer than") != std::string::npos ||
                              c.diagnosis.find("more CPU time than allowed") != std::string::npos))
                stopped = size;
            g.checks.push_back(std::move(c));
        }
    }
    // On the GPU only a kernel that passed everything else: a wrong one may fault or hang there.
    const bool allPassed = std::all_of(g.checks.begin(), g.checks.end(), [](const Check& c) { return c.passed; });
    if (!allPassed)
        g.checks.push_back(Check{"gpu", true, true, "skipped: the GPU runs a kernel that passed every other check", 0});
    else if (x.reference.empty())
        g.checks.push_back(Check{"gpu", true, true,
                                 "skipped: an array exercise has no built-in kernel to time against (verify --kernel-file "
                                 "checks your kernel on a GPU)", 0});
    else if (std::optional<Check> gpu = timeOnGpu(x, kernelFile, loaded, tile))
        g.checks.push_back(*gpu);
    else
        g.checks.push_back(Check{"gpu", true, true,
                                 "skipped: no GPU (the time against " + x.reference + " is measured on a CUDA device)", 0});
    return g;
}

}  // namespace

}  // namespace ts::student
