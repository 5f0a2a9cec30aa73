#include "trace.hpp"

#include <map>
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
           op == Op::Fma;
}

/// Identifies a step within one barrier interval.
struct StepKey {
    int kind;        ///< 0 shared fill, 1 by line
    int a, b;        ///< (array, occurrence) or (line, occurrence)
    bool operator<(const StepKey& o) const
    {
        return std::tie(kind, a, b) < std::tie(o.kind, o.a, o.b);
    }
};

}  // namespace

Trace buildTrace(const Uint3& block, const Dim3& blockDim, const std::vector<ArrayInfo>& arrays,
                 const std::vector<Event>& raw, int barriersPerPhase)
{
    Trace tr;
    tr.block = block;
    tr.blockDim = blockDim;
    tr.arrays = arrays;
    const size_t nThreads = blockDim.count();

    struct Pending {
        std::vector<Event> events;
    };
    struct Group {
        StepKey key;
        Step step;
        std::vector<Event> events;
        int firstSeen;
    };

    int interval = 0;
    size_t i = 0;
    while (i <= raw.size()) {
        // Collect one barrier interval: raw events up to the next Barrier event.
        std::vector<std::vector<Event>> pendingByThread(nThreads);
        std::map<StepKey, size_t> groupIndex;
        std::vector<Group> groups;
        // Per thread, per (key kind, a): how many statements it has completed.
        std::vector<std::map<std::pair<int, int>, int>> occurrences(nThreads);
        int seen = 0;
        for (; i < raw.size() && raw[i].op != Op::Barrier; ++i) {
            const Event& e = raw[i];
            auto& pending = pendingByThread.at(e.thread);
            pending.push_back(e);
            if (!endsStatement(e.op)) continue;
            StepKey key;
            if (e.op == Op::SharedStore || e.op == Op::ZeroFill) {
                int occ = occurrences[e.thread][{0, e.array}]++;
                key = StepKey{0, e.array, occ};
            } else {
                int occ = occurrences[e.thread][{1, e.line}]++;
                key = StepKey{1, e.line, occ};
            }
            auto [it, inserted] = groupIndex.emplace(key, groups.size());
            if (inserted) {
                Group g;
                g.key = key;
                g.firstSeen = seen++;
                g.step.line = e.line;
                g.step.interval = interval;
                g.step.iteration = key.b;
                groups.push_back(std::move(g));
            }
            Group& g = groups[it->second];
            // A load line of the zero-filling branch may sit on a different line: keep the
            // smallest line as the step's line (the load comes first in the source).
            if (e.op == Op::SharedStore && e.line < g.step.line) g.step.line = e.line;
            g.events.insert(g.events.end(), pending.begin(), pending.end());
            pending.clear();
        }
        // Statements after the last barrier (storing P) belong to no new phase.
        const bool tail = i == raw.size() && interval > 0 && barriersPerPhase > 0 &&
                          interval % barriersPerPhase == 0;
        const int phase = barriersPerPhase > 0
                              ? (tail ? interval / barriersPerPhase - 1 : interval / barriersPerPhase)
                              : 0;
        const std::string prefix =
            barriersPerPhase > 0 && !tail ? "phase " + std::to_string(phase) + ": " : "";
        for (Group& g : groups) {
            Step& s = g.step;
            s.phase = phase;
            bool hasFma = false, sharedOperands = false, globalOperands = false;
            int sourceArray = -1, targetArray = -1;
            for (const Event& e : g.events) {
                if (e.op == Op::Fma) hasFma = true;
                if (e.op == Op::SharedLoad) sharedOperands = true;
                if (e.op == Op::GlobalLoad || e.op == Op::ConstantLoad) {
                    globalOperands = true;
                    if (sourceArray < 0) sourceArray = e.array;
                }
                if (e.op == Op::SharedStore || e.op == Op::ZeroFill || e.op == Op::GlobalStore)
                    targetArray = e.array;
            }
            if (g.key.kind == 0) {
                s.kind = StepKind::LoadTile;
                s.iteration = -1;
                std::string src = sourceArray >= 0 ? arrays[sourceArray].name + " tile" : "tile";
                s.label = prefix + "load " + src + " into " + arrays[targetArray].name;
            } else if (hasFma) {
                s.kind = StepKind::Use;
                s.label = prefix + (sharedOperands && !globalOperands ? "use, iteration "
                                                                       : "multiply-add, iteration ") +
                          std::to_string(s.iteration);
            } else if (targetArray >= 0 && arrays[targetArray].space == Space::Global) {
                s.kind = StepKind::Store;
                s.iteration = -1;
                s.label = prefix + "store " + arrays[targetArray].name;
            } else {
                s.kind = StepKind::Other;
                s.label = prefix + "line " + std::to_string(s.line);
            }
            s.begin = static_cast<int>(tr.events.size());
            tr.events.insert(tr.events.end(), g.events.begin(), g.events.end());
            s.end = static_cast<int>(tr.events.size());
            tr.steps.push_back(s);
        }
        // Loads not followed by any statement end (none in the project's kernels) are kept
        // in an extra step so that nothing recorded is dropped.
        std::vector<Event> leftovers;
        for (auto& p : pendingByThread) leftovers.insert(leftovers.end(), p.begin(), p.end());
        if (!leftovers.empty()) {
            Step s;
            s.phase = phase;
            s.interval = interval;
            s.kind = StepKind::Other;
            s.line = leftovers.front().line;
            s.label = "line " + std::to_string(s.line);
            s.begin = static_cast<int>(tr.events.size());
            tr.events.insert(tr.events.end(), leftovers.begin(), leftovers.end());
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
        b.label = prefix + "barrier, __syncthreads()";
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
