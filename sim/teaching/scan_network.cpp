// A scan's network read from the trace of one block (see scan_network.hpp).
#include "sim/teaching/scan_network.hpp"

#include <algorithm>
#include <map>
#include <numeric>

namespace ts::sim {
namespace {

bool isStore(Op op) { return op == Op::GlobalStore || op == Op::SharedStore || op == Op::ZeroFill; }
bool isLoad(Op op) { return op == Op::GlobalLoad || op == Op::SharedLoad; }

int log2Floor(uint64_t n)
{
    int k = 0;
    while (n > 1) {
        n >>= 1;
        ++k;
    }
    return k;
}

/// A store with the loads its thread made since its previous store.
struct Store {
    const Event* store;
    int step;
    std::vector<const Event*> loads;
};

/// Every store of `t` in execution order, with its thread's loads since its previous store.
std::vector<Store> storesInOrder(const Trace& t)
{
    std::vector<int> stepOf(t.events.size(), -1);
    for (size_t s = 0; s < t.steps.size(); ++s)
        for (int k = t.steps[s].begin; k < t.steps[s].end && k < static_cast<int>(t.events.size()); ++k)
            stepOf[static_cast<size_t>(k)] = static_cast<int>(s);
    std::vector<size_t> order(t.events.size());
    std::iota(order.begin(), order.end(), size_t{0});
    std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return t.events[a].seq < t.events[b].seq; });
    std::vector<Store> out;
    std::map<uint16_t, std::vector<const Event*>> pending;
    for (size_t k : order) {
        const Event& e = t.events[k];
        if (e.thread == kNoThread) continue;
        if (isLoad(e.op)) pending[e.thread].push_back(&e);
        else if (isStore(e.op)) {
            out.push_back(Store{&e, stepOf[k], std::move(pending[e.thread])});
            pending[e.thread].clear();
        }
    }
    return out;
}

}  // namespace

uint64_t sequentialScanAdds(uint64_t n) { return n ? n - 1 : 0; }
uint64_t koggeStoneAdds(uint64_t n) { return n ? n * static_cast<uint64_t>(log2Floor(n)) - (n - 1) : 0; }
uint64_t brentKungAdds(uint64_t n) { return n > 1 ? 2 * n - 2 - static_cast<uint64_t>(log2Floor(n)) : 0; }

uint64_t ScanNetwork::addsBefore(int step) const
{
    uint64_t n = 0;
    for (const ScanLevel& l : levels)
        for (const ScanOp& op : l.ops)
            if (op.add() && l.firstStep >= 0 && l.firstStep <= step) ++n;
    return n;
}

int ScanNetwork::levelAt(int step) const
{
    int found = -1;
    for (size_t i = 0; i < levels.size(); ++i)
        if (levels[i].firstStep <= step) found = static_cast<int>(i);
    return found;
}

ScanNetwork scanNetwork(const Trace& t)
{
    ScanNetwork net;
    const std::vector<Store> stores = storesInOrder(t);
    // The array: the one whose stores most often add an element of the same array.
    std::map<int, int> adds;
    // An operand: an element of the array itself or of a global array (the input); a load of
    // another shared array (the single-pass scan's bid_s, an index) is not one.
    auto global = [&](const Event* l) { return l->array < t.arrays.size() && t.arrays[l->array].space == Space::Global; };
    for (const Store& s : stores) {
        int same = 0, other = 0;
        for (const Event* l : s.loads) (l->array == s.store->array ? same : other) += l->array == s.store->array || global(l);
        if (same >= 1 && same + other >= 2) ++adds[s.store->array];
    }
    int best = 0;
    for (const auto& [array, n] : adds)
        if (n > best) {
            best = n;
            net.array = array;
        }
    if (net.array < 0 || net.array >= static_cast<int>(t.arrays.size())) {
        net.array = -1;
        return net;
    }
    const ArrayInfo& a = t.arrays[static_cast<size_t>(net.array)];
    net.size = a.size();
    net.doubleBuffer = a.rows == 2 && a.space == Space::Shared;
    net.section = net.doubleBuffer ? a.cols : net.size;
    // One level per barrier interval that stores into the array.
    std::map<int, size_t> levelOf;
    for (const Store& s : stores) {
        if (s.store->array != net.array || s.step < 0) continue;
        const int interval = t.steps[static_cast<size_t>(s.step)].interval;
        auto [it, inserted] = levelOf.emplace(interval, net.levels.size());
        if (inserted) {
            ScanLevel l;
            l.interval = interval;
            l.firstStep = s.step;
            net.levels.push_back(l);
        }
        ScanLevel& level = net.levels[it->second];
        level.firstStep = std::min(level.firstStep, s.step);
        ScanOp op;
        op.thread = s.store->thread;
        op.target = s.store->index;
        op.seq = s.store->seq;
        for (const Event* l : s.loads) {
            if (l->array == net.array && l->index >= 0 && l->index < net.size) op.sources.push_back(l->index);
            else if (global(l)) ++op.others;
        }
        level.ops.push_back(std::move(op));
    }
    for (ScanLevel& l : net.levels) {
        std::map<uint16_t, int> active;   // thread -> its adds in the level
        int stride = -1;
        for (const ScanOp& op : l.ops) {
            if (!op.add()) continue;
            ++l.adds;
            ++active[op.thread];
            int far = 0;
            for (int src : op.sources) {
                // Within a double buffer, the distance between columns (the halves swap).
                const int from = net.doubleBuffer ? src % net.section : src;
                const int to = net.doubleBuffer ? op.target % net.section : op.target;
                far = std::max(far, std::abs(to - from));
            }
            stride = stride < 0 || stride == far ? far : 0;
        }
        l.activeThreads = static_cast<int>(active.size());
        for (const auto& [thread, n] : active) l.steps = std::max(l.steps, n);
        l.stride = std::max(stride, 0);
        net.adds += static_cast<uint64_t>(l.adds);
        net.steps += l.steps;
    }
    return net;
}

}  // namespace ts::sim
