#include "sim/teaching/narration.hpp"
#include "sim/catalogue/problem_desc.hpp"

#include "sim/teaching/kernel_view.hpp"

#include <cstdint>
#include <cstring>
#include <algorithm>
#include <cctype>
#include <climits>
#include <map>
#include <set>
#include <sstream>
#include <tuple>

#include "kernels/context.cuh"
#include "sim/catalogue/kernel_info.hpp"
#include "sim/teaching/words.hpp"

namespace ts::sim {
namespace {

std::string str(long long v)
{
    return std::to_string(v);
}

/// "a..b", or "a" when a == b.
std::string span(int a, int b)
{
    return a == b ? str(a) : str(a) + ".." + str(b);
}

/// "1 time", "2 times".
std::string times(int n)
{
    return n == 1 ? "once" : n == 2 ? "twice" : str(n) + " times";
}

/// The elements `indices` of array `a` in words: A[r0..r1][c0..c1] (A[c0..c1] for a 1D
/// array) when they fill that box, else "K elements of A within A[..][..]".
std::string rangeText(const ArrayInfo& a, const std::set<int>& indices)
{
    if (indices.empty()) return "no element of " + a.name;
    int r0 = INT_MAX, r1 = INT_MIN, c0 = INT_MAX, c1 = INT_MIN;
    for (const int i : indices) {
        const auto [r, c] = a.rowCol(i);
        r0 = std::min(r0, r), r1 = std::max(r1, r), c0 = std::min(c0, c), c1 = std::max(c1, c);
    }
    const std::string box = a.rows == 1 ? a.name + "[" + span(c0, c1) + "]"
                                        : a.name + "[" + span(r0, r1) + "][" + span(c0, c1) + "]";
    const long long area = 1ll * (r1 - r0 + 1) * (c1 - c0 + 1);
    if (static_cast<long long>(indices.size()) == area) return box;
    return str(static_cast<long long>(indices.size())) + " elements of " + a.name + " within " + box;
}

/// What one step's events amount to, counted once.
struct StepFacts {
    std::set<int> threads;                       ///< linear thread ids that did anything
    std::map<int, std::set<int>> read, written;  ///< by array: elements or slots
    std::set<int> fillThreads, zeroThreads;      ///< threads that filled a shared slot / wrote 0
    std::set<int> storeThreads;                  ///< threads that stored to global memory
    int fills = 0, zeroFills = 0, stores = 0, fmas = 0, stale = 0;
    int target = -1;                             ///< the shared array filled, or global array stored to
};

StepFacts factsOf(const Trace& t, const Step& s)
{
    StepFacts f;
    for (int i = s.begin; i < s.end; ++i) {
        const Event& e = t.events[i];
        if (e.op == Op::Barrier) continue;
        f.threads.insert(e.thread);
        switch (e.op) {
        case Op::GlobalLoad:
        case Op::SharedLoad:
        case Op::ConstantLoad:
            f.read[e.array].insert(e.index);
            if (e.flags & kStale) ++f.stale;
            break;
        case Op::SharedStore:
        case Op::ZeroFill:
            f.written[e.array].insert(e.index);
            f.fillThreads.insert(e.thread);
            ++f.fills;
            if (e.op == Op::ZeroFill) {
                ++f.zeroFills;
                f.zeroThreads.insert(e.thread);
            }
            if (f.target < 0) f.target = e.array;
            break;
        case Op::GlobalStore:
            f.written[e.array].insert(e.index);
            f.storeThreads.insert(e.thread);
            ++f.stores;
            if (f.target < 0) f.target = e.array;
            break;
        case Op::Fma: ++f.fmas; break;
        case Op::Barrier:
        case Op::Branch:
        case Op::Atomic:
        case Op::Shuffle: break;
        }
    }
    return f;
}

/// What narration needs to know about the kernel and the traced block.
struct Context {
    const Simulation& sim;
    const Trace& t;
    const KernelInfo* kernel;
    const ProblemDesc& problem;   ///< what the narration asks instead of the family
    int phases = 0;   ///< phases of the tiled loop (0 for a kernel without them)
    int blockThreads;
    /// The threads' rows of P follow tx (Trace::outputs), as in matmul-naive-uncoalesced.
    bool rowFromTx = false;
    /// The trace's arrays under the names the source gives them (conv2d's mask in constant
    /// memory is Mc, the trace's M; a student's kernel's arrays are called as its file calls
    /// them: writtenArrayName()).
    std::vector<ArrayInfo> arrays;

    explicit Context(const Simulation& s)
        : sim(s), t(s.trace), kernel(s.scenario.kernelInfo()), problem(problemOf(s.scenario)),
          blockThreads(static_cast<int>(s.trace.blockDim.count())), arrays(s.trace.arrays)
    {
        for (ArrayInfo& a : arrays) a.name = writtenArrayName(s.scenario, a);
        findAccumulator();
        // Threads 0 and 1 (tx 0 and 1) compute elements one row apart in the same column.
        if (t.outputs.size() > 1 && t.blockDim.x > 1 && t.outputs[0].known && t.outputs[1].known)
            rowFromTx = t.outputs[1].row - t.outputs[0].row == 1 && t.outputs[1].col == t.outputs[0].col;
        if (kernel && kernel->barriersPerPhase > 0)
            for (const Step& st : t.steps) phases = std::max(phases, st.phase + 1);
    }
    int tx(int thread) const { return thread % static_cast<int>(t.blockDim.x); }
    int ty(int thread) const { return thread / static_cast<int>(t.blockDim.x); }
    bool oneD() const { return t.blockDim.y == 1; }
    std::string block() const
    {
        return oneD() && t.block.y == 0 ? "block " + str(t.block.x)
                                        : "block (" + str(t.block.x) + ", " + str(t.block.y) +
                                              (t.block.z ? ", " + str(t.block.z) : std::string()) + ")";
    }
    /// "the 4 threads of block (0, 0)", "threads 6 and 7", "the 36 threads with ty 0..5, tx 0..5".
    std::string threads(const std::set<int>& ids) const
    {
        const int k = static_cast<int>(ids.size());
        if (k == blockThreads) return k == 1 ? "the one thread of " + block() : "the " + str(k) + " threads of " + block();
        int x0 = INT_MAX, x1 = INT_MIN, y0 = INT_MAX, y1 = INT_MIN;
        for (const int id : ids) {
            x0 = std::min(x0, tx(id)), x1 = std::max(x1, tx(id));
            y0 = std::min(y0, ty(id)), y1 = std::max(y1, ty(id));
        }
        const bool box = 1ll * (x1 - x0 + 1) * (y1 - y0 + 1) == k;
        if (k == 1) return oneD() ? "thread " + str(x0) : "thread (tx=" + str(x0) + ", ty=" + str(y0) + ")";
        if (oneD() && box) return k == 2 ? "threads " + str(x0) + " and " + str(x1) : "threads " + span(x0, x1);
        if (box) return "the " + str(k) + " threads with ty " + span(y0, y1) + ", tx " + span(x0, x1);
        return str(k) + " of the " + str(blockThreads) + " threads";
    }
    /// The input a shared array holds a tile of: Mds -> M, N_ds -> N (by the kernels' names).
    std::string sourceOf(const std::string& shared) const
    {
        for (const char* suffix : {"_ds", "ds", "s"}) {
            const std::string sfx(suffix);
            if (shared.size() > sfx.size() && shared.compare(shared.size() - sfx.size(), sfx.size(), sfx) == 0) {
                const std::string base = shared.substr(0, shared.size() - sfx.size());
                for (const ArrayInfo& a : arrays)
                    if (a.name == base && a.space == Space::Global) return base;
            }
        }
        return "the input";
    }
    std::string phasePrefix(const Step& s) const
    {
        return phases > 1 ? "Phase " + str(s.phase) + " of " + str(phases) + ": " : "";
    }
    std::string acc = "accumulator";   ///< the kernel's name for its sum (accumulator())

    /// The variable the kernel sums into, as its source names it on the line of its first
    /// multiply-add: Pvalue (PMPP's kernels), output (conv2d-tiled); "Pvalue array" where a
    /// thread sums several outputs (the ladder's register tiles).
    std::string accumulator() const { return acc; }
    void findAccumulator()
    {
        if (!kernel) return;
        const std::string& src = kernelSource(kernel->sourceFile);
        for (const Step& st : t.steps) {
            if (st.kind != StepKind::Use || st.line == 0) continue;
            size_t at = 0;
            for (unsigned l = 1; l < st.line && at != std::string::npos; ++l) at = src.find('\n', at) + 1;
            if (at == std::string::npos || (at == 0 && st.line > 1)) return;
            const size_t end = src.find('\n', at);
            const std::string line = src.substr(at, end == std::string::npos ? std::string::npos : end - at);
            size_t b = line.find_first_not_of(" \t");
            size_t e = b;
            while (e < line.size() && (std::isalnum(static_cast<unsigned char>(line[e])) || line[e] == '_')) ++e;
            if (b == std::string::npos || e == b) return;
            acc = line.substr(b, e - b);
            if (e < line.size() && line[e] == '[') acc += " array";
            return;
        }
    }
};

/// The reads of the slots `slots` of shared array `array` after step `from` until a later
/// step writes one of them again: min and max reads per slot, and how many slots are read.
std::tuple<int, int, int> readsUntilOverwritten(const Trace& t, int from, int array, const std::set<int>& slots)
{
    std::map<int, int> reads;
    for (const int s : slots) reads[s] = 0;
    for (size_t si = static_cast<size_t>(from) + 1; si < t.steps.size(); ++si) {
        const Step& st = t.steps[si];
        bool overwritten = false;
        for (int i = st.begin; i < st.end; ++i) {
            const Event& e = t.events[i];
            if (e.array != array || !slots.count(e.index)) continue;
            if (e.op == Op::SharedLoad) ++reads[e.index];
            if (e.op == Op::SharedStore || e.op == Op::ZeroFill) overwritten = true;
        }
        if (overwritten) break;
    }
    int lo = INT_MAX, hi = 0, used = 0;
    for (const auto& [slot, n] : reads) lo = std::min(lo, n), hi = std::max(hi, n), used += n > 0;
    return {lo == INT_MAX ? 0 : lo, hi, used};
}

std::string loadLine(const Context& c, int index)
{
    const Step& s = c.t.steps[index];
    const StepFacts f = factsOf(c.t, s);
    if (f.target < 0) return "";
    const ArrayInfo& target = c.arrays[f.target];
    const std::string slots = rangeText(target, f.written.at(f.target));
    const std::string source = c.sourceOf(target.name);
    std::ostringstream o;
    o << c.phasePrefix(s);
    const std::string who = c.threads(f.fillThreads);
    o << (c.phasePrefix(s).empty() ? capitalised(who) : who);
    std::vector<std::string> from;
    for (const auto& [array, elements] : f.read)
        if (c.arrays[array].space == Space::Global) from.push_back(rangeText(c.arrays[array], elements));
    const bool pastEdge = c.problem.boundary == Boundary::PastTheEdge;
    // PMPP ch. 11's scans: a slot past N holds 0, the identity of +, and a slot written from
    // registers holds a sum of the step (Fig. 11.3's temp), whatever its value.
    const bool scan = c.kernel && c.kernel->scan;
    const std::string edge = scan       ? " lie past the end of " + source + " and write 0, the identity of +"
                             : pastEdge ? " would load past the edge of " + source + " and write 0 instead"
                                        : " stand for ghost cells outside " + source + " and write 0";
    if (scan && from.empty() && f.zeroFills < f.fills) {
        o << " write the sums they added up into " << slots;
    } else if (scan && f.zeroFills == f.fills) {
        o << " write 0 into " << slots << ": they lie past the end of " << source
          << ", and 0, the identity of +, changes no sum";
    } else if (f.zeroFills == f.fills) {
        o << " write 0 into " << slots << ": "
          << (pastEdge
                  ? "the elements of " + source + " they would load lie outside it, so they add nothing to the sum"
                  : std::string("the input elements they stand for are ghost cells, outside ") + source +
                        ", which the convolution counts as 0");
    } else if (f.zeroFills) {
        const int loaders = static_cast<int>(f.fillThreads.size() - f.zeroThreads.size());
        o << " fill " << slots << ": " << loaders << " load " << (from.empty() ? "values from registers" : joinList(from)) << ", and "
          << f.zeroThreads.size() << edge;
    } else if (from.empty()) {
        // (The ladder's rungs load into registers first and store them a statement later.)
        o << " write values held in registers into " << slots;
    } else if (from.size() > 1) {
        o << " read " << joinList(from) << " from global memory and write " << slots;
    } else {
        o << " load " << from.front() << " into " << slots;
    }
    const std::set<int>& filled = f.written.at(f.target);
    const auto [lo, hi, used] = readsUntilOverwritten(c.t, index, f.target, filled);
    const std::string instead = f.zeroFills < f.fills && !from.empty() ? " instead of from global memory" : "";
    if (hi > 0 && lo == hi)
        o << "; each value is then read " << times(lo) << " from " << target.name << instead;
    else if (hi > 0 && lo > 0)
        o << "; each value is then read " << (lo == 1 && hi == 2 ? "once or twice" : str(lo) + " to " + str(hi) + " times")
          << " from " << target.name << instead;
    else if (hi > 0)
        o << "; " << used << " of these " << filled.size() << " slots are then read, up to " << times(hi) << " each";
    o << ".";
    return o.str();
}

/// One coordinate of an operand, the same formula for every thread: "3", "tx", "ty + 2",
/// "Row", "Col"; or "" when no such formula fits.
std::string coordinate(const Context& c, const std::vector<std::pair<int, int>>& threadValue, bool global)
{
    auto fits = [&](auto formula) {
        for (const auto& [thread, v] : threadValue)
            if (formula(thread) != v) return false;
        return true;
    };
    const int v0 = threadValue.front().second;
    if (fits([&](int) { return v0; })) return str(v0);
    const int bdx = static_cast<int>(c.t.blockDim.x), bdy = static_cast<int>(c.t.blockDim.y);
    if (global && c.kernel) {
        // PMPP's Row and Col; Row follows tx where the threads' stores of P say so
        // (matmul-naive-uncoalesced takes Row from the x axis).
        const bool swap = c.rowFromTx;
        const int rowBase = swap ? static_cast<int>(c.t.block.x) * bdx : static_cast<int>(c.t.block.y) * bdy;
        const int colBase = swap ? static_cast<int>(c.t.block.y) * bdy : static_cast<int>(c.t.block.x) * bdx;
        if (fits([&](int th) { return rowBase + (swap ? c.tx(th) : c.ty(th)); })) return "Row";
        if (fits([&](int th) { return colBase + (swap ? c.ty(th) : c.tx(th)); })) return "Col";
        return "";
    }
    for (const auto& [name, axis] : {std::pair{"tx", 0}, std::pair{"ty", 1}}) {
        auto at = [&, axis = axis](int th) { return axis == 0 ? c.tx(th) : c.ty(th); };
        const int off = v0 - at(threadValue.front().first);
        if (fits([&](int th) { return at(th) + off; }))
            return std::string(name) + (off > 0 ? " + " + str(off) : off < 0 ? " - " + str(-off) : "");
    }
    return "";
}

std::string useLine(const Context& c, int index)
{
    const Step& s = c.t.steps[index];
    const StepFacts f = factsOf(c.t, s);
    // Each thread's reads in order: (array, element).
    std::map<int, std::vector<std::pair<int, int>>> byThread;
    for (int i = s.begin; i < s.end; ++i) {
        const Event& e = c.t.events[i];
        if (e.op == Op::GlobalLoad || e.op == Op::SharedLoad || e.op == Op::ConstantLoad)
            byThread[e.thread].push_back({e.array, e.index});
        else if (e.op == Op::Fma)
            byThread[e.thread];
    }
    std::ostringstream o;
    // "Iteration 3 of phase 1", "Iteration (1, 2)" for a 2D mask.
    int maskCols = 0;
    for (const auto& [array, elements] : f.read)
        if (c.arrays[array].space == Space::Constant && c.arrays[array].rows > 1) maskCols = c.arrays[array].cols;
    const std::string iteration = maskCols ? "(" + str(s.iteration / maskCols) + ", " + str(s.iteration % maskCols) + ")"
                                           : str(s.iteration);
    o << "Iteration " << iteration << (c.phases > 1 ? " of phase " + str(s.phase) : "") << ": ";
    const int k = static_cast<int>(byThread.size());
    std::set<int> computing;
    for (const auto& [thread, reads] : byThread) computing.insert(thread);
    const std::string each = k == c.blockThreads ? "each thread"
                             : k == 1            ? c.threads(computing) + ", the only one with an output element,"
                                                 : "each of the " + str(k) + " threads with an output element";
    const std::string acc = c.accumulator();
    // One formula per operand when every thread reads the same arrays once each.
    bool uniform = !byThread.empty();
    const std::vector<std::pair<int, int>>& first = byThread.begin()->second;
    for (const auto& [thread, reads] : byThread) {
        if (reads.size() != first.size()) uniform = false;
        for (size_t r = 0; uniform && r < reads.size(); ++r)
            if (reads[r].first != first[r].first) uniform = false;
    }
    std::vector<std::string> operands;
    if (uniform && first.size() == 2 && f.fmas == k) {
        for (size_t r = 0; r < 2; ++r) {
            const ArrayInfo& a = c.arrays[first[r].first];
            std::vector<std::pair<int, int>> rows, cols;
            for (const auto& [thread, reads] : byThread) {
                rows.push_back({thread, a.rowCol(reads[r].second).row});
                cols.push_back({thread, a.rowCol(reads[r].second).col});
            }
            const bool global = a.space == Space::Global;
            const std::string rc = a.rows == 1 ? "" : coordinate(c, rows, global);
            const std::string cc = coordinate(c, cols, global);
            if ((a.rows != 1 && rc.empty()) || cc.empty()) {
                operands.clear();
                break;
            }
            operands.push_back(a.name + (a.rows == 1 ? "" : "[" + rc + "]") + "[" + cc + "]");
        }
    }
    if (operands.size() == 2) {
        o << each << " adds " << operands[0] << " * " << operands[1] << " to its " << acc;
        bool global = false;
        for (const auto& [array, elements] : f.read) global = global || c.arrays[array].space == Space::Global;
        if (global) o << ", both read from global memory";
    } else if (f.read.empty()) {
        o << each << " makes " << (f.fmas == k ? "one multiply-add" : str(f.fmas / std::max(1, k)) + " multiply-adds")
          << " from values already in its registers";
    } else {
        // Each array with the number of threads that read it where not all do (the cached
        // halo: some threads read N_ds, others N).
        std::map<int, std::set<int>> readers;
        for (int i = s.begin; i < s.end; ++i) {
            const Event& e = c.t.events[i];
            if (e.op == Op::GlobalLoad || e.op == Op::SharedLoad || e.op == Op::ConstantLoad) readers[e.array].insert(e.thread);
        }
        std::vector<std::string> from;
        for (const auto& [array, elements] : f.read) {
            const int n = static_cast<int>(readers[array].size());
            from.push_back(rangeText(c.arrays[array], elements) +
                           (n < k ? " (" + str(n) + (n == 1 ? " thread" : " threads") + ")" : ""));
        }
        o << "the " << k << " threads make " << f.fmas << " multiply-add" << (f.fmas == 1 ? "" : "s") << " into their "
          << acc << ", reading " << joinList(from);
    }
    // Why it pays: how many threads share each value read from shared memory.
    std::vector<std::string> shares, sharedNames;
    for (const auto& [array, elements] : f.read) {
        const ArrayInfo& a = c.arrays[array];
        if (a.space != Space::Shared || elements.empty()) continue;
        std::map<int, int> readers;
        for (int i = s.begin; i < s.end; ++i) {
            const Event& e = c.t.events[i];
            if (e.op == Op::SharedLoad && e.array == array) ++readers[e.index];
        }
        int lo = INT_MAX, hi = 0;
        for (const auto& [slot, n] : readers) lo = std::min(lo, n), hi = std::max(hi, n);
        if (hi > 1) shares.push_back(lo == hi ? str(lo) : "up to " + str(hi));
        if (hi > 1) sharedNames.push_back(a.name);
    }
    if (shares.size() == 2 && shares[0] == shares[1])
        o << "; each " << sharedNames[0] << " and " << sharedNames[1] << " value serves " << shares[0] << " threads";
    else if (!shares.empty()) {
        o << "; each " << sharedNames[0] << " value serves " << shares[0] << " threads";
        for (size_t i = 1; i < shares.size(); ++i) o << ", each " << sharedNames[i] << " value " << shares[i];
    }
    // The mask: every thread reads the same element, one broadcast from the constant cache.
    for (const auto& [array, elements] : f.read)
        if (c.arrays[array].space == Space::Constant && elements.size() == 1 && k > 1)
            o << "; all " << k << " read the same " << rangeText(c.arrays[array], elements)
              << ", one broadcast from the constant cache";
    const HazardLog& h = c.sim.hazards;
    if (f.stale > 0 && c.sim.scenario.dropBarriers == 0 && h.raw + h.war + h.waw == 0 && h.uninitialised > 0) {
        // No race: the slots were never stored (a load the kernel leaves out, such as a halo).
        o << "; " << f.stale << " of its reads find" << (f.stale == 1 ? "s" : "")
          << " a shared slot no thread of the block stored (uninitialised shared memory)";
    } else if (f.stale > 0) {
        const unsigned d = c.sim.scenario.dropBarriers;
        o << "; " << f.stale << " of its reads get" << (f.stale == 1 ? "s" : "") << " a stale value, because the kernel skips the barrier "
          << ((d & kernels::AFTER_LOAD) && (d & kernels::AFTER_COMPUTE) ? "after the load and the one after the use"
              : (d & kernels::AFTER_LOAD)                               ? "after the load"
              : (d & kernels::AFTER_COMPUTE)                            ? "after the use"
                                                                        : "that should order them");
    }
    o << ".";
    return o.str();
}

std::string barrierLine(const Context& c, int index)
{
    const Step& s = c.t.steps[index];
    std::ostringstream o;
    o << "Barrier" << (c.phases > 1 ? " of phase " + str(s.phase) : "") << ": ";
    // The shared arrays written and read since the last barrier; which came last decides
    // what this barrier protects (with a barrier of the loop dropped, one interval holds
    // both the loads and the uses). And whether any later step writes shared memory.
    std::set<std::string> filledBefore, readBefore, filledAfter;
    StepKind last = StepKind::Other;
    for (int i = index - 1; i >= 0 && c.t.steps[i].kind != StepKind::Barrier; --i) {
        if (last == StepKind::Other) last = c.t.steps[i].kind;
        // (Array by array, not element by element: a step of a big block has thousands.)
        std::set<int> written, read;
        for (int e = c.t.steps[i].begin; e < c.t.steps[i].end; ++e) {
            const Event& ev = c.t.events[e];
            if (ev.array >= c.arrays.size() || c.arrays[ev.array].space != Space::Shared) continue;
            if (ev.op == Op::SharedStore || ev.op == Op::ZeroFill) written.insert(ev.array);
            else if (ev.op == Op::SharedLoad) read.insert(ev.array);
        }
        for (const int a : written) filledBefore.insert(c.arrays[a].name);
        for (const int a : read) readBefore.insert(c.arrays[a].name);
    }
    if (last != StepKind::LoadTile) filledBefore.clear();
    for (size_t i = static_cast<size_t>(index) + 1; i < c.t.steps.size() && filledAfter.empty(); ++i) {
        const Step& st = c.t.steps[i];
        for (int e = st.begin; e < st.end; ++e)
            if (c.t.events[e].op == Op::SharedStore || c.t.events[e].op == Op::ZeroFill) {
                filledAfter.insert(c.arrays[c.t.events[e].array].name);
                break;
            }
    }
    auto names = [](const std::set<std::string>& s) { return joinList(std::vector<std::string>(s.begin(), s.end())); };
    const std::string all = "all " + str(c.blockThreads);
    // PMPP ch. 11's scans: the slots hold a step's sums, not a tile.
    const bool scan = c.kernel && c.kernel->scan;
    if (!filledBefore.empty() && scan) {
        o << "no thread reads " << names(filledBefore) << " until " << all
          << " threads have written their slots of it (a read-after-write dependence).";
    } else if (!readBefore.empty() && !filledAfter.empty() && scan) {
        o << "no thread writes its new sum into " << names(filledAfter) << " until " << all
          << " threads have read the slots they add (a write-after-read dependence).";
    } else if (!filledBefore.empty()) {
        o << "no thread reads " << names(filledBefore) << " until " << all << " threads have written their part of the "
          << (filledBefore.size() > 1 ? "tiles" : "tile") << " (a read-after-write dependence).";
    } else if (!readBefore.empty() && !filledAfter.empty()) {
        o << "no thread overwrites " << names(readBefore) << " with the next " << (readBefore.size() > 1 ? "tiles" : "tile")
          << " until " << all << " threads have finished reading " << (readBefore.size() > 1 ? "them" : "it")
          << " (a write-after-read dependence).";
    } else if (!readBefore.empty()) {
        o << "the loop's last barrier; no later step writes shared memory, so nothing waits on it, and the "
          << c.blockThreads << " threads leave the loop.";
    } else {
        o << "each of the " << c.blockThreads << " threads waits here until " << all << " have arrived.";
    }
    return o.str();
}

std::string storeLine(const Context& c, int index)
{
    const Step& s = c.t.steps[index];
    const StepFacts f = factsOf(c.t, s);
    if (f.target < 0) return "";
    const ArrayInfo& out = c.arrays[f.target];
    const int k = static_cast<int>(f.storeThreads.size());
    std::ostringstream o;
    // (After the loop: no phase.)
    o << capitalised(c.threads(f.storeThreads));
    // An array problem with no multiply-add (a copy, a transpose, a sum of two) has no
    // accumulator: each thread stores what it computed.
    const std::string acc = c.accumulator() == "accumulator" ? std::string(c.problem.resultWord) : c.accumulator();
    const bool several = acc.size() > 6 && acc.compare(acc.size() - 6, 6, " array") == 0;   // Pvalue[c]
    if (f.stores == k && several)
        o << (k == 1 ? " stores one element of its " : " store one element of their ") << acc << " each to "
          << rangeText(out, f.written.at(f.target));
    else if (f.stores == k)
        o << (k == 1 ? " stores its " : " store their ") << acc << " to " << rangeText(out, f.written.at(f.target));
    else o << " store " << f.stores / std::max(1, k) << " results each to " << rangeText(out, f.written.at(f.target));
    if (k < c.blockThreads) {
        o << "; the other " << c.blockThreads - k << " store nothing";
        if (*c.problem.idleStoreReason) o << c.problem.idleStoreReason;
        else if (c.kernel && c.kernel->blockIsInputTile) o << " (they only loaded the halo of the input tile)";
    }
    int globalLoads = 0;
    for (const Event& e : c.t.events) globalLoads += e.op == Op::GlobalLoad;
    o << ". In all, " << c.block() << " read " << globalLoads << " element" << (globalLoads == 1 ? "" : "s")
      << " from global memory.";
    return o.str();
}

std::string otherLine(const Context& c, int index)
{
    const Step& s = c.t.steps[index];
    const StepFacts f = factsOf(c.t, s);
    std::ostringstream o;
    const std::string prefix = c.phasePrefix(s);
    const std::string who = c.threads(f.threads);
    // The threads that evaluated a marked branch (x.branch) and did nothing else: those that
    // found the condition on the step's line false, or (all of them true) went on.
    bool branches = s.end > s.begin;
    std::set<int> skipped;
    for (int k = s.begin; k < s.end; ++k) {
        const Event& e = c.t.events[static_cast<size_t>(k)];
        branches &= e.op == Op::Branch;
        if (e.op == Op::Branch && e.line == s.line && e.value == 0.0f) skipped.insert(e.thread);
    }
    if (branches && skipped.empty()) {
        o << prefix << (prefix.empty() ? capitalised(who) : who) << (f.threads.size() == 1 ? " finds" : " find")
          << " the condition on line " << s.line << " true and " << (f.threads.size() == 1 ? "goes" : "go") << " on.";
        return o.str();
    }
    if (branches) {
        const std::string them = c.threads(skipped);
        o << prefix << (prefix.empty() ? capitalised(them) : them) << (skipped.size() == 1 ? " finds" : " find")
          << " the condition on line " << s.line << " false and " << (skipped.size() == 1 ? "skips" : "skip")
          << " the code it guards; a warp holding lanes of both kinds runs the two paths one after "
             "the other, its skipping lanes idle meanwhile.";
        return o.str();
    }
    // Warp shuffles (Op::Shuffle): each lane receives a register of another lane.
    std::set<int> shufflers, own, atomics;
    int up = 0, down = 0, distance = -1;
    unsigned atomicArray = kNoArray;
    bool atomicsRead = true;   // every atomic left its element as it was
    std::set<int> atomicElements;
    for (int k = s.begin; k < s.end; ++k) {
        const Event& e = c.t.events[static_cast<size_t>(k)];
        if (e.op == Op::Shuffle) {
            shufflers.insert(e.thread);
            const int lane = e.thread % 32, d = static_cast<int>(e.index) - lane;
            if (d == 0) own.insert(e.thread);
            else {
                (d > 0 ? down : up)++;
                distance = distance < 0 || distance == std::abs(d) ? std::abs(d) : 0;
            }
        }
        if (e.op == Op::Atomic) {
            uint32_t after = 0;
            std::memcpy(&after, &e.value, sizeof after);
            atomicsRead = atomicsRead && after == static_cast<uint32_t>(e.origin);
            atomics.insert(e.thread);
            atomicArray = e.array;
            atomicElements.insert(static_cast<int>(e.index));
        }
    }
    if (!shufflers.empty()) {
        const std::string them = c.threads(shufflers);
        o << prefix << (prefix.empty() ? capitalised(them) : them) << (shufflers.size() == 1 ? " receives a value another lane of its warp "
                                                                   : " each receive a value another lane of their warp ")
          << "holds in a register, through the warp shuffle on line " << s.line;
        if (distance > 0 && (up == 0 || down == 0))
            o << " (lane l gets lane l " << (up == 0 ? "+ " : "- ") << distance << "'s)";
        if (!own.empty()) o << "; " << c.threads(own) << (own.size() == 1 ? ", whose source lane would be outside the warp, gets its own back"
                                                     : ", whose source lanes would be outside the warp, get their own back");
        o << ". No memory is read for it and no barrier is needed: the lanes of the warp meet at the shuffle.";
        return o.str();
    }
    if (!atomics.empty() && atomicArray < c.arrays.size() && atomicsRead) {
        // An atomic that adds 0: a read of a flag another block sets (PMPP sec. 11.7).
        const std::string them = c.threads(atomics);
        o << prefix << (prefix.empty() ? capitalised(them) : them) << (atomics.size() == 1 ? " reads " : " read ")
          << rangeText(c.arrays[atomicArray], atomicElements) << " with an atomic that leaves it as it was (line " << s.line
          << "): a read that never comes from a stale cached copy, the way to wait for a flag another block sets.";
        return o.str();
    }
    if (!atomics.empty() && atomicArray < c.arrays.size()) {
        const std::string them = c.threads(atomics);
        o << prefix << (prefix.empty() ? capitalised(them) : them) << (atomics.size() == 1 ? " adds to " : " add to ")
          << rangeText(c.arrays[atomicArray], atomicElements) << " with atomicAdd (line " << s.line
          << "): a read-modify-write no other thread can come between, so every thread's addition reaches it whole, one at a time.";
        return o.str();
    }
    o << prefix << (prefix.empty() ? capitalised(who) : who) << " run source line " << s.line;
    std::vector<std::string> reads, writes;
    for (const auto& [array, e] : f.read) reads.push_back(rangeText(c.arrays[array], e));
    for (const auto& [array, e] : f.written) writes.push_back(rangeText(c.arrays[array], e));
    if (!reads.empty()) o << ", reading " << joinList(reads);
    if (!writes.empty()) o << (reads.empty() ? ", writing " : " and writing ") << joinList(writes);
    o << ".";
    return o.str();
}

}  // namespace

PlacedNarration placeNarration(const Preset& p, const Trace& t)
{
    PlacedNarration out;
    out.lines.assign(t.steps.size(), "");
    const std::string file = p.file.empty() ? p.name : p.file;
    for (size_t i = 0; i < p.narration.size() && i < t.steps.size(); ++i) out.lines[i] = p.narration[i];
    if (p.narration.size() > t.steps.size())
        out.problems.push_back(file + ": narration has " + str(static_cast<long long>(p.narration.size())) +
                               " lines but the trace has " + str(static_cast<long long>(t.steps.size())) +
                               " steps; lines " + str(static_cast<long long>(t.steps.size()) + 1) + " to " +
                               str(static_cast<long long>(p.narration.size())) + " are never shown.");
    std::vector<int> placedBy(t.steps.size(), 0);
    for (const NarrationAnchor& a : p.narrate) {
        std::string why;
        const int step = resolveAnchor(a, t, &why);
        const std::string where = file + ", line " + str(a.line) + ": ";
        if (step < 0) {
            out.problems.push_back(where + "the [[narrate]] line is never shown: " + why);
        } else if (placedBy[step]) {
            out.problems.push_back(where + "the [[narrate]] line with " + describeAnchor(a) + " lands on step " +
                                   str(step) + ", which the table at line " + str(placedBy[step]) +
                                   " already narrates; give nth, phase or iteration to tell them apart.");
        } else {
            placedBy[step] = a.line;
            out.lines[step] = a.text;
        }
    }
    return out;
}

std::string generatedNarration(const Simulation& s, int step)
{
    const Context c(s);
    if (step < 0 || step >= static_cast<int>(c.t.steps.size())) return "";
    std::string line;
    switch (c.t.steps[step].kind) {
    case StepKind::LoadTile: line = loadLine(c, step); break;
    case StepKind::Use: line = useLine(c, step); break;
    case StepKind::Barrier: line = barrierLine(c, step); break;
    case StepKind::Store: line = storeLine(c, step); break;
    case StepKind::Other: break;
    }
    return line.empty() ? otherLine(c, step) : line;
}

std::vector<StepNarration> narrateSteps(const Preset& p, const Simulation& s, std::vector<std::string>* problems)
{
    PlacedNarration placed = placeNarration(p, s.trace);
    if (problems) *problems = placed.problems;
    std::vector<StepNarration> out(s.trace.steps.size());
    for (size_t i = 0; i < out.size(); ++i) {
        if (!placed.lines[i].empty()) out[i] = {placed.lines[i], true};
        else out[i] = {generatedNarration(s, static_cast<int>(i)), false};
    }
    return out;
}

}  // namespace ts::sim
