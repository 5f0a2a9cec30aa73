#include "sim/engine/trace.hpp"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <map>
#include <set>
#include <tuple>

namespace ts::sim {

std::vector<int> Trace::phaseStarts() const
{
    std::vector<int> starts;
    for (size_t i = 0; i < steps.size(); ++i)
        if (i == 0 || steps[i].phase != steps[i - 1].phase) starts.push_back(static_cast<int>(i));
    return starts;
}

namespace {

bool endsStatement(Op op)
{
    return op == Op::SharedStore || op == Op::ZeroFill || op == Op::GlobalStore ||
           op == Op::Fma || op == Op::Atomic || op == Op::Shuffle;
}

/// Identifies a step within one barrier interval.
struct StepKey {
    int kind;        ///< 0 shared fill, 1 by line, 2 by mask element
    int a, b;        ///< (array, occurrence), (line, occurrence) or (mask element, occurrence)
    int line = 0;    ///< a shared fill split by source line: its line; else 0
    int phase = 0;   ///< phases counted from tile fills: the statements' phase; else 0
    bool operator<(const StepKey& o) const
    {
        return std::tie(phase, kind, a, line, b) < std::tie(o.phase, o.kind, o.a, o.line, o.b);
    }
};

/// One thread's statement: its events up to the one that ends it, as positions in the raw
/// events (`ids[begin, end)` of the interval's list of positions), so that grouping copies
/// no event until the trace receives it.
struct Statement {
    uint32_t begin = 0, end = 0;
};

/// The mask element a multiply-add statement reads from constant memory, or -1. A
/// convolution's loop iteration is the mask element it multiplies by (j, or i and j), so
/// threads that skip ghost elements still meet the others at the same iteration.
int maskElement(const Statement& st, const std::vector<uint32_t>& ids, const std::vector<Event>& raw)
{
    if (raw[ids[st.end - 1]].op != Op::Fma) return -1;
    for (uint32_t k = st.begin; k < st.end; ++k)
        if (raw[ids[k]].op == Op::ConstantLoad) return raw[ids[k]].index;
    return -1;
}

/// An order of `count` groups that keeps every thread's statements in program order
/// (`after[g]`: groups some thread runs right after a statement of g), taking among the
/// groups whose predecessors are all placed the one seen first. Where threads disagree
/// (no such order exists), the group seen first among the rest goes next.
std::vector<size_t> programOrder(size_t count, const std::vector<std::set<size_t>>& after)
{
    std::vector<int> before(count, 0);
    for (const auto& next : after)
        for (size_t g : next) ++before[g];
    std::vector<bool> placed(count, false);
    std::set<size_t> ready;
    for (size_t g = 0; g < count; ++g)
        if (before[g] == 0) ready.insert(g);
    std::vector<size_t> order;
    while (order.size() < count) {
        size_t g = 0;
        if (!ready.empty()) {
            g = *ready.begin();
            ready.erase(ready.begin());
        } else {
            while (placed[g]) ++g;
        }
        placed[g] = true;
        order.push_back(g);
        for (size_t n : after[g])
            if (!placed[n] && --before[n] == 0) ready.insert(n);
    }
    return order;
}

}  // namespace

Trace buildTrace(const Uint3& block, const Dim3& blockDim, const std::vector<ArrayInfo>& arrays,
                 const std::vector<Event>& raw, int barriersPerPhase, const Progress& progress, int fillPhases,
                 bool scan)
{
    Trace tr;
    tr.block = block;
    tr.blockDim = blockDim;
    tr.arrays = arrays;
    const size_t nThreads = blockDim.count();
    tr.events.reserve(raw.size());

    struct Group {
        StepKey key;
        Step step;
        std::vector<uint32_t> statements;   ///< indices into the interval's statements
        int firstSeen;
    };

    // With a barrier of the loop dropped, barrier intervals no longer line up with phases
    // (without the barrier after the use, one interval holds a phase's multiply-adds and the
    // next phase's loads). Each thread's phase is then counted from its own fills of the
    // first shared array the block fills (Mds): the loop runs `fillPhases` phases, so a
    // thread that fills it F times fills it F / fillPhases times a phase.
    bool byFills = barriersPerPhase > 0 && fillPhases > 0;
    int marker = -1;
    std::vector<int> fillsPerPhase(nThreads, 0), markerFills(nThreads, 0), threadPhase(nThreads, 0);
    if (byFills) {
        for (const Event& e : raw) {
            if (e.op != Op::SharedStore && e.op != Op::ZeroFill) continue;
            if (marker < 0) marker = e.array;
            if (e.array == marker && e.thread < nThreads) ++fillsPerPhase[e.thread];
        }
        for (int& f : fillsPerPhase) {
            // Every thread fills its share of every tile in PMPP's kernels and the ladder's;
            // a kernel that does not is numbered by its barriers, as without a drop.
            if (f == 0 || f % fillPhases != 0) byFills = false;
            f /= fillPhases;
        }
    }
    std::vector<int> statementPhase;   ///< by statement of the interval, when byFills

    int interval = 0;
    size_t i = 0;
    // Per interval, reused: each thread's events since its last statement ended, and every
    // statement's events in turn (positions in `raw`).
    std::vector<std::vector<uint32_t>> pendingByThread(nThreads);
    std::vector<uint32_t> ids;
    std::vector<Statement> statements;
    while (i <= raw.size()) {
        // Collect one barrier interval: raw events up to the next Barrier event, cut into
        // each thread's statements.
        const size_t intervalStart = i;
        for (auto& p : pendingByThread) p.clear();
        ids.clear();
        statements.clear();
        statementPhase.clear();
        // Shared arrays that some thread fills more than once in this interval (the left
        // halo, internal and right halo loads of a convolution tile): their fills form one
        // step per source line. Elsewhere every fill of an array is one step, whichever
        // line (a load, or the zero fill of the boundary check's other branch).
        std::map<std::tuple<uint16_t, uint8_t, int>, int> fillsByThread;   ///< by (thread, array, phase)
        std::set<uint8_t> splitArrays;
        for (; i < raw.size() && raw[i].op != Op::Barrier; ++i) {
            if ((i & 0xFFFF) == 0 && progress.stopRequested()) throw Cancelled();
            const Event& e = raw[i];
            auto& pending = pendingByThread.at(e.thread);
            pending.push_back(static_cast<uint32_t>(i));
            if (!endsStatement(e.op)) continue;
            const bool fill = e.op == Op::SharedStore || e.op == Op::ZeroFill;
            if (byFills) {
                // The fill that starts a phase belongs to it.
                if (fill && e.array == marker) threadPhase[e.thread] = markerFills[e.thread]++ / fillsPerPhase[e.thread];
                statementPhase.push_back(threadPhase[e.thread]);
            }
            if (fill && ++fillsByThread[{e.thread, e.array, byFills ? threadPhase[e.thread] : 0}] > 1)
                splitArrays.insert(e.array);
            const auto begin = static_cast<uint32_t>(ids.size());
            ids.insert(ids.end(), pending.begin(), pending.end());
            statements.push_back(Statement{begin, static_cast<uint32_t>(ids.size())});
            pending.clear();
        }
        std::map<StepKey, size_t> groupIndex;
        std::vector<Group> groups;
        std::vector<std::set<size_t>> after;                   ///< by group: see programOrder
        std::vector<long long> lastGroup(nThreads, -1);        ///< by thread
        // Per thread, per (phase, key kind, a, line): how many statements it has completed.
        std::vector<std::map<std::tuple<int, int, int, int>, int>> occurrences(nThreads);
        int seen = 0;
        // Progress: the raw events of the intervals before this one, and this interval's
        // share of its statements grouped.
        size_t done = 0;
        for (size_t si = 0; si < statements.size(); ++si) {
            const Statement& st = statements[si];
            if ((++done & 0x3FFF) == 0)
                progress.at((static_cast<double>(intervalStart) +
                             static_cast<double>(i - intervalStart) * static_cast<double>(done) /
                                 static_cast<double>(statements.size())) /
                            static_cast<double>(raw.size()));
            const Event& e = raw[ids[st.end - 1]];
            const int ph = byFills ? statementPhase[si] : 0;
            StepKey key;
            if (e.op == Op::SharedStore || e.op == Op::ZeroFill) {
                const int line = splitArrays.count(e.array) ? e.line : 0;
                int occ = occurrences[e.thread][{ph, 0, e.array, line}]++;
                key = StepKey{0, e.array, occ, line, ph};
            } else if (const int mask = maskElement(st, ids, raw); mask >= 0) {
                int occ = occurrences[e.thread][{ph, 2, mask, 0}]++;
                key = StepKey{2, mask, occ, 0, ph};
            } else {
                int occ = occurrences[e.thread][{ph, 1, e.line, 0}]++;
                key = StepKey{1, e.line, occ, 0, ph};
            }
            auto [it, inserted] = groupIndex.emplace(key, groups.size());
            if (inserted) {
                Group g;
                g.key = key;
                g.firstSeen = seen++;
                g.step.line = e.line;
                g.step.interval = interval;
                g.step.iteration = key.kind == 2 ? key.a : key.b;
                groups.push_back(std::move(g));
                after.emplace_back();
            }
            if (lastGroup[e.thread] >= 0 && lastGroup[e.thread] != static_cast<long long>(it->second))
                after[lastGroup[e.thread]].insert(it->second);
            lastGroup[e.thread] = static_cast<long long>(it->second);
            Group& g = groups[it->second];
            // A load line of the zero-filling branch may sit on a different line: keep the
            // smallest line as the step's line (the load comes first in the source).
            if (e.op == Op::SharedStore && e.line < g.step.line) g.step.line = e.line;
            g.statements.push_back(static_cast<uint32_t>(si));
        }
        // Statements after the last barrier (storing P) belong to no new phase.
        const bool tail = !byFills && i == raw.size() && interval > 0 && barriersPerPhase > 0 &&
                          interval % barriersPerPhase == 0;
        int phase = barriersPerPhase > 0
                        ? (tail ? interval / barriersPerPhase - 1 : interval / barriersPerPhase)
                        : 0;
        if (byFills) phase = *std::max_element(threadPhase.begin(), threadPhase.end());
        for (size_t gi : programOrder(groups.size(), after)) {
            Group& g = groups[gi];
            Step& s = g.step;
            s.phase = byFills ? g.key.phase : phase;
            bool hasFma = false, sharedOperands = false, globalOperands = false, hasAtomic = false;
            // Every atomic of the step left its element as it was: a read (a wait on a flag,
            // `atomicAdd(&flags[b], 0)`, PMPP sec. 11.7), not an add.
            bool atomicsRead = true;
            const Event* shuffle = nullptr;   // the shuffle of the group's lowest thread
            int sourceArray = -1, targetArray = -1;
            int firstSlot = -1, lastSlot = -1, zeroFills = 0, fills = 0, maskArray = -1;
            for (uint32_t si : g.statements)
            for (uint32_t k = statements[si].begin; k < statements[si].end; ++k) {
                const Event& e = raw[ids[k]];
                if (e.op == Op::Fma) hasFma = true;
                if (e.op == Op::SharedLoad) sharedOperands = true;
                // The mask in constant memory is an operand, not a source of tiles.
                if (e.op == Op::GlobalLoad) {
                    globalOperands = true;
                    if (sourceArray < 0) sourceArray = e.array;
                }
                if (e.op == Op::SharedStore || e.op == Op::ZeroFill || e.op == Op::GlobalStore || e.op == Op::Atomic)
                    targetArray = e.array;
                if (e.op == Op::Atomic) {
                    hasAtomic = true;
                    uint32_t after = 0;
                    std::memcpy(&after, &e.value, sizeof after);
                    atomicsRead = atomicsRead && after == static_cast<uint32_t>(e.origin);
                }
                if (e.op == Op::Shuffle && (!shuffle || e.thread < shuffle->thread)) shuffle = &e;
                if (e.op == Op::ConstantLoad) maskArray = e.array;
                if (e.op == Op::SharedStore || e.op == Op::ZeroFill) {
                    ++fills;
                    zeroFills += e.op == Op::ZeroFill;
                    firstSlot = firstSlot < 0 ? e.index : std::min(firstSlot, e.index);
                    lastSlot = std::max(lastSlot, e.index);
                }
            }
            // Counted from fills, the stores of P after the loop's last phase are the tail.
            const bool storeAfterLoop = byFills && i == raw.size() && g.key.kind == 1 && !hasFma &&
                                        targetArray >= 0 && arrays[targetArray].space == Space::Global;
            const std::string prefix = barriersPerPhase > 0 && !tail && !storeAfterLoop
                                           ? "phase " + std::to_string(s.phase) + ": "
                                           : "";
            if (g.key.kind == 0 && g.key.line != 0) {
                // One line's part of a tile: name the slots it fills ("load N into N_ds[0..1]").
                s.kind = StepKind::LoadTile;
                s.iteration = -1;
                s.line = g.key.line;
                const std::string slots = arrays[targetArray].name + "[" + std::to_string(firstSlot) +
                                          (lastSlot > firstSlot ? ".." + std::to_string(lastSlot) : "") + "]";
                if (zeroFills == fills) s.label = prefix + "zero-fill " + slots;
                else s.label = prefix + "load " + (sourceArray >= 0 ? arrays[sourceArray].name : "values") +
                               " into " + slots +
                               (zeroFills ? " (" + std::to_string(zeroFills) + " zero-filled)" : "");
            } else if (g.key.kind == 0) {
                s.kind = StepKind::LoadTile;
                s.iteration = -1;
                // A shared array updated from itself (a reduction tree's input_s[t] +=
                // input_s[t + stride], PMPP Fig. 10.11) is no tile load.
                bool fromItself = false;
                for (uint32_t si : g.statements)
                    for (uint32_t k = statements[si].begin; k < statements[si].end; ++k)
                        fromItself |= raw[ids[k]].op == Op::SharedLoad && raw[ids[k]].array == targetArray;
                // (A scan's section is no tile: "load X_in into XY".)
                std::string src = sourceArray >= 0 ? arrays[sourceArray].name + (scan ? "" : " tile") : "tile";
                s.label = prefix + (fromItself && sourceArray < 0 ? "update " + arrays[targetArray].name
                                    : scan && sourceArray < 0    ? "write sums into " + arrays[targetArray].name
                                                                 : "load " + src + " into " + arrays[targetArray].name);
            } else if (hasFma) {
                s.kind = StepKind::Use;
                // A 2D mask's iteration is the pair (i, j) of the element it multiplies by.
                const int maskCols = g.key.kind == 2 && maskArray >= 0 && arrays[maskArray].rows > 1
                                         ? arrays[maskArray].cols : 0;
                s.label = prefix + (sharedOperands && !globalOperands ? "use, iteration "
                                                                       : "multiply-add, iteration ") +
                          (maskCols ? "(" + std::to_string(s.iteration / maskCols) + ", " +
                                          std::to_string(s.iteration % maskCols) + ")"
                                    : std::to_string(s.iteration));
            } else if (shuffle && targetArray < 0) {
                // A warp shuffle: each lane's value comes from another lane's register.
                s.kind = StepKind::Other;
                s.iteration = -1;
                s.label = prefix + "warp shuffle, lane " + std::to_string(shuffle->thread % 32) + " reads lane " +
                          std::to_string(shuffle->index);
            } else if (targetArray >= 0 && arrays[targetArray].space == Space::Global) {
                s.kind = StepKind::Store;
                s.iteration = -1;
                s.label = prefix + (!hasAtomic ? "store " : atomicsRead ? "atomic read of " : "atomic add to ") + arrays[targetArray].name;
            } else {
                s.kind = StepKind::Other;
                s.label = prefix + "line " + std::to_string(s.line);
            }
            s.begin = static_cast<int>(tr.events.size());
            for (uint32_t si : g.statements)
                for (uint32_t k = statements[si].begin; k < statements[si].end; ++k) tr.events.push_back(raw[ids[k]]);
            s.end = static_cast<int>(tr.events.size());
            tr.steps.push_back(s);
        }
        // Loads not followed by any statement end (none in the project's kernels) are kept
        // in an extra step so that nothing recorded is dropped.
        const size_t leftoversBegin = tr.events.size();
        for (auto& p : pendingByThread)
            for (uint32_t k : p) tr.events.push_back(raw[k]);
        if (tr.events.size() > leftoversBegin) {
            Step s;
            s.phase = phase;
            s.interval = interval;
            s.kind = StepKind::Other;
            s.line = tr.events[leftoversBegin].line;
            s.label = "line " + std::to_string(s.line);
            // Only branch conditions (x.branch): the threads that went past the `if` without
            // taking it. Named by the innermost (last) condition they evaluated.
            bool branches = true;
            for (size_t k = leftoversBegin; k < tr.events.size(); ++k) branches &= tr.events[k].op == Op::Branch;
            if (branches) {
                s.line = 0;
                for (size_t k = leftoversBegin; k < tr.events.size(); ++k)
                    if (tr.events[k].value == 0.0f) s.line = std::max<unsigned>(s.line, tr.events[k].line);
                // Every thread took it (a loop's condition before the barrier at its top).
                const bool taken = s.line == 0;
                if (taken) s.line = tr.events[leftoversBegin].line;
                s.label = (taken ? "branch taken, line " : "branch not taken, line ") + std::to_string(s.line);
            }
            s.begin = static_cast<int>(leftoversBegin);
            s.end = static_cast<int>(tr.events.size());
            tr.steps.push_back(s);
        }
        if (i == raw.size()) break;
        // The barrier itself.
        Step b;
        b.kind = StepKind::Barrier;
        b.phase = phase;
        b.interval = interval;
        b.line = raw[i].line;
        b.label = (barriersPerPhase > 0 ? "phase " + std::to_string(phase) + ": " : "") + "barrier, __syncthreads()";
        b.begin = static_cast<int>(tr.events.size());
        tr.events.push_back(raw[i]);
        b.end = b.begin + 1;
        tr.steps.push_back(b);
        ++interval;
        ++i;
    }
    return tr;
}

}  // namespace ts::sim
