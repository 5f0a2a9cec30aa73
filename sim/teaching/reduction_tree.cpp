// A reduction tree read from the trace of one block (see reduction_tree.hpp).
#include "sim/teaching/reduction_tree.hpp"

#include <algorithm>
#include <map>

namespace ts::sim {
namespace {

bool isStore(Op op) { return op == Op::GlobalStore || op == Op::SharedStore || op == Op::ZeroFill; }
bool isLoad(Op op) { return op == Op::GlobalLoad || op == Op::SharedLoad; }

/// Per thread, the loads made since its last store in the events [begin, end) of a step,
/// each store paired with them.
struct Store {
    const Event* store;
    std::vector<const Event*> loads;
};

std::vector<Store> storesOf(const Trace& t, int begin, int end)
{
    std::vector<Store> out;
    std::map<uint16_t, std::vector<const Event*>> loads;
    for (int k = begin; k < end; ++k) {
        const Event& e = t.events[static_cast<size_t>(k)];
        if (isLoad(e.op)) loads[e.thread].push_back(&e);
        if (isStore(e.op)) {
            out.push_back(Store{&e, std::move(loads[e.thread])});
            loads[e.thread].clear();
        }
    }
    return out;
}

}  // namespace

int TreeLevel::divergentWarps() const
{
    return static_cast<int>(std::count_if(warps.begin(), warps.end(), [](const TreeWarp& w) { return w.divergent(); }));
}

int ReductionTree::levelAt(int step) const
{
    int found = -1;
    for (size_t i = 0; i < levels.size(); ++i)
        if (levels[i].firstStep <= step) found = static_cast<int>(i);
    return found;
}

ReductionTree reductionTree(const Trace& t)
{
    ReductionTree tree;
    // The array: the one whose stores most often add an element of the same array.
    std::map<int, int> adds;
    for (const Store& s : storesOf(t, 0, static_cast<int>(t.events.size())))
        for (const Event* l : s.loads)
            if (l->array == s.store->array && l->index != s.store->index) {
                ++adds[s.store->array];
                break;
            }
    int best = 0;
    for (const auto& [array, n] : adds)
        if (n > best) {
            best = n;
            tree.array = array;
        }
    if (tree.array < 0 || tree.array >= static_cast<int>(t.arrays.size())) {
        tree.array = -1;
        return tree;
    }
    tree.size = t.arrays[static_cast<size_t>(tree.array)].size();
    // One level per barrier interval that stores into the array.
    std::map<int, size_t> levelOf;
    for (size_t si = 0; si < t.steps.size(); ++si) {
        const Step& step = t.steps[si];
        for (const Store& s : storesOf(t, step.begin, step.end)) {
            if (s.store->array != tree.array) continue;
            auto [it, inserted] = levelOf.emplace(step.interval, tree.levels.size());
            if (inserted) {
                TreeLevel l;
                l.interval = step.interval;
                l.firstStep = static_cast<int>(si);
                tree.levels.push_back(l);
            }
            TreeAdd a;
            a.thread = s.store->thread;
            a.target = s.store->index;
            for (const Event* l : s.loads) {
                if (l->array != tree.array) a.fromOther = true;
                else if (l->index != a.target) a.source = l->index;
            }
            tree.levels[it->second].adds.push_back(a);
        }
    }
    // The tree's branch in each level: of the lines marked with x.branch in the interval, the
    // one whose takers are the threads that store (the `if` around the add); lanes by warp.
    // (A step holds its statements' events; the branch events of a thread that skipped the
    // add are in the interval's last step, with the leftovers.)
    for (TreeLevel& l : tree.levels) {
        std::sort(l.adds.begin(), l.adds.end(), [](const TreeAdd& a, const TreeAdd& b) { return a.thread < b.thread; });
        std::map<unsigned, std::map<unsigned, TreeWarp>> byLine;   // line -> warp -> lanes
        for (const Step& step : t.steps) {
            if (step.interval != l.interval) continue;
            for (int k = step.begin; k < step.end; ++k) {
                const Event& e = t.events[static_cast<size_t>(k)];
                if (e.op != Op::Branch || e.thread == kNoThread) continue;
                TreeWarp& w = byLine[e.line][e.thread / 32u];
                w.warp = e.thread / 32u;
                w.active |= 1u << (e.thread % 32u);
                if (e.value != 0.0f) w.taken |= 1u << (e.thread % 32u);
            }
        }
        std::map<unsigned, uint32_t> storers;   // warp -> lanes that stored
        for (const TreeAdd& a : l.adds) storers[a.thread / 32u] |= 1u << (a.thread % 32u);
        for (const auto& [line, warps] : byLine) {
            bool match = true;
            for (const auto& [w, lanes] : warps) match &= (storers.count(w) ? storers[w] : 0u) == lanes.taken;
            for (const auto& [w, mask] : storers) match &= warps.count(w) > 0;
            if (!match) continue;
            // The last line that matches: the innermost condition (a loop's condition, all of
            // whose lanes go on, matches too where every thread adds).
            l.branchLine = line;
            l.warps.clear();
            for (const auto& [w, lanes] : warps) l.warps.push_back(lanes);
        }
        int stride = -1;
        for (const TreeAdd& a : l.adds) {
            const int d = a.source < 0 || a.fromOther ? 0 : std::abs(a.source - a.target);
            stride = stride < 0 || stride == d ? d : 0;
        }
        l.stride = std::max(stride, 0);
    }
    // The warp shuffles: a level per step, the lanes that received another lane's value.
    for (size_t si = 0; si < t.steps.size(); ++si) {
        const Step& step = t.steps[si];
        TreeLevel l;
        l.interval = step.interval;
        l.firstStep = static_cast<int>(si);
        l.shuffle = true;
        int stride = -1;
        for (int k = step.begin; k < step.end; ++k) {
            const Event& e = t.events[static_cast<size_t>(k)];
            if (e.op != Op::Shuffle || e.thread == kNoThread) continue;
            const int lane = e.thread % 32, source = e.thread - lane + static_cast<int>(e.index);
            if (source == e.thread) continue;   // kept its own value (past the end of its group)
            l.adds.push_back(TreeAdd{e.thread, e.thread, source, false});
            const int d = std::abs(source - e.thread);
            stride = stride < 0 || stride == d ? d : 0;
        }
        if (l.adds.empty()) continue;
        std::sort(l.adds.begin(), l.adds.end(), [](const TreeAdd& a, const TreeAdd& b) { return a.thread < b.thread; });
        l.stride = std::max(stride, 0);
        // A shuffle down by a fixed distance d (the tree's finish in registers): of the lanes
        // that receive another lane's value, those below d carry the sums on toward lane 0;
        // the others' results are never read. The level keeps those, as the tree draws them.
        const bool down = std::all_of(l.adds.begin(), l.adds.end(), [](const TreeAdd& a) { return a.source > a.target; });
        if (down && l.stride > 0) {
            l.lanes = static_cast<int>(l.adds.size());
            std::erase_if(l.adds, [&](const TreeAdd& a) { return a.thread % 32 >= l.stride; });
        }
        tree.levels.push_back(std::move(l));
    }
    std::stable_sort(tree.levels.begin(), tree.levels.end(),
                     [](const TreeLevel& a, const TreeLevel& b) { return a.firstStep < b.firstStep; });
    return tree;
}

}  // namespace ts::sim
