#include "sim/engine/provenance.hpp"

#include <algorithm>
#include <map>

#include "sim/engine/simulate.hpp"

namespace ts::sim {

PElement elementAt(const ArrayInfo& a, long long index)
{
    if (a.rows < 1 || a.cols < 1) return PElement{0, index};
    const RowCol rc = a.rowCol(index);   // N of matmul-corner-turning is column-major
    return PElement{rc.row, rc.col};
}

std::optional<Writer> writerOf(const Simulation& sim, int array, long long index)
{
    const auto& all = sim.counters.elementWriters;
    if (array < 0 || array >= static_cast<int>(all.size())) return std::nullopt;
    const std::vector<uint32_t>& w = all[array];
    if (index < 0 || index >= static_cast<long long>(w.size()) || w[index] == 0) return std::nullopt;
    const uint64_t threads = sim.block.count(), linear = w[index] - 1ull;
    const uint64_t block = linear / threads;
    Writer out;
    out.thread = static_cast<int>(linear % threads);
    out.block = Uint3{static_cast<unsigned>(block % sim.grid.x), static_cast<unsigned>(block / sim.grid.x % sim.grid.y),
                      static_cast<unsigned>(block / (1ull * sim.grid.x * sim.grid.y))};
    return out;
}

std::optional<TileRect> writtenRect(const Simulation& sim, int array, const Uint3& block)
{
    const auto& all = sim.counters.elementWriters;
    if (array < 0 || array >= static_cast<int>(all.size()) || all[array].empty()) return std::nullopt;
    const std::vector<uint32_t>& w = all[array];
    const uint64_t threads = sim.block.count();
    const uint64_t linear = (1ull * block.z * sim.grid.y + block.y) * sim.grid.x + block.x;
    const uint64_t first = linear * threads + 1, last = first + threads;   // writer values of the block
    const ArrayInfo& a = sim.arrays[array];
    long long r0 = -1, r1 = -1, c0 = -1, c1 = -1;
    for (size_t i = 0; i < w.size(); ++i) {
        if (w[i] < first || w[i] >= last) continue;
        const PElement e = elementAt(a, static_cast<long long>(i));
        if (r0 < 0) r0 = r1 = e.row, c0 = c1 = e.col;
        r0 = std::min(r0, e.row), r1 = std::max(r1, e.row), c0 = std::min(c0, e.col), c1 = std::max(c1, e.col);
    }
    if (r0 < 0) return std::nullopt;
    return TileRect{static_cast<int>(r0), static_cast<int>(c0), static_cast<int>(r1 - r0 + 1), static_cast<int>(c1 - c0 + 1)};
}

std::vector<int32_t> storesOf(const Trace& t, int array, int thread)
{
    std::vector<int32_t> out;
    for (const Event& e : t.events)
        if (e.op == Op::GlobalStore && e.array == array && e.thread == thread) out.push_back(e.index);
    return out;
}

namespace {

/// One thread of the grid and the first element (smallest flat index) of an array it wrote.
struct FirstStore {
    uint64_t thread;   ///< linear index in its block
    long long bx, by;
    PElement e;
};

/// Every writing thread's FirstStore of `array`, in flat index order (from
/// Counters::elementWriters: the first time a writer's value turns up). Empty if none.
std::vector<FirstStore> firstStores(const Simulation& sim, int array)
{
    const auto& all = sim.counters.elementWriters;
    std::vector<FirstStore> out;
    if (array < 0 || array >= static_cast<int>(all.size())) return out;
    const std::vector<uint32_t>& w = all[array];
    const ArrayInfo& a = sim.arrays[array];
    const uint64_t threads = sim.block.count();
    std::vector<bool> seen(static_cast<size_t>(threads * sim.grid.count()) + 1, false);
    for (size_t i = 0; i < w.size(); ++i) {
        if (w[i] == 0 || seen[w[i]]) continue;
        seen[w[i]] = true;
        const uint64_t linear = w[i] - 1ull, block = linear / threads;
        out.push_back(FirstStore{linear % threads, static_cast<long long>(block % sim.grid.x),
                                 static_cast<long long>(block / sim.grid.x % sim.grid.y),
                                 elementAt(a, static_cast<long long>(i))});
    }
    return out;
}

}  // namespace

std::optional<ThreadLayout> threadLayout(const Simulation& sim, int array)
{
    struct Sample {
        long long v[4];   // tx, ty, bx, by
        PElement e;
    };
    std::vector<Sample> samples;
    const long long bdx = sim.block.x;
    for (const FirstStore& f : firstStores(sim, array))
        samples.push_back(Sample{{static_cast<long long>(f.thread) % bdx, static_cast<long long>(f.thread) / bdx, f.bx, f.by}, f.e});
    if (samples.empty()) return std::nullopt;
    // A coefficient from the first sample and the first that differs from it in that
    // variable alone; a variable without such a pair gets 0 (it takes one value).
    long long rc[4] = {0, 0, 0, 0}, cc[4] = {0, 0, 0, 0};
    bool found[4] = {false, false, false, false};
    const Sample& s0 = samples.front();
    for (const Sample& s : samples)
        for (int d = 0; d < 4; ++d) {
            if (found[d] || s.v[d] == s0.v[d]) continue;
            bool alone = true;
            for (int o = 0; o < 4; ++o) alone = alone && (o == d || s.v[o] == s0.v[o]);
            if (!alone) continue;
            const long long step = s.v[d] - s0.v[d];
            if ((s.e.row - s0.e.row) % step || (s.e.col - s0.e.col) % step) return std::nullopt;
            rc[d] = (s.e.row - s0.e.row) / step;
            cc[d] = (s.e.col - s0.e.col) / step;
            found[d] = true;
        }
    ThreadLayout l{0, rc[0], rc[1], rc[2], rc[3], 0, cc[0], cc[1], cc[2], cc[3]};
    l.row0 = s0.e.row - (rc[0] * s0.v[0] + rc[1] * s0.v[1] + rc[2] * s0.v[2] + rc[3] * s0.v[3]);
    l.col0 = s0.e.col - (cc[0] * s0.v[0] + cc[1] * s0.v[1] + cc[2] * s0.v[2] + cc[3] * s0.v[3]);
    for (const Sample& s : samples) {
        const PElement p = l.at(s.v[0], s.v[1], s.v[2], s.v[3]);
        if (p.row != s.e.row || p.col != s.e.col) return std::nullopt;
    }
    return l;
}

namespace {

/// Where thread `thread` (linear, in its block) stores its first element in some block of the
/// grid, less that block's offset: the element it would have in block (0, 0). The blocks'
/// offsets are fitted as whole multiples of bx and by from threads that store in two blocks
/// differing in one coordinate; empty when no block of the grid has the thread store
/// anything, or the blocks do not differ by one such offset.
struct BlockLayout {
    long long rowBx = 0, rowBy = 0, colBx = 0, colBy = 0;
    std::vector<std::optional<PElement>> base;   ///< by linear thread
};
std::optional<BlockLayout> blockLayout(const Simulation& sim, int array)
{
    using Sample = FirstStore;
    const std::vector<Sample> samples = firstStores(sim, array);
    const uint64_t threads = sim.block.count();
    BlockLayout l;
    // The first sample of each thread, then the offsets from a second sample of it.
    std::vector<const Sample*> first(threads, nullptr);
    bool foundX = false, foundY = false;
    for (const Sample& s : samples) {
        const Sample*& f = first[s.thread];
        if (!f) {
            f = &s;
            continue;
        }
        if (!foundX && s.by == f->by && s.bx != f->bx) {
            const long long d = s.bx - f->bx;
            if ((s.e.row - f->e.row) % d || (s.e.col - f->e.col) % d) return std::nullopt;
            l.rowBx = (s.e.row - f->e.row) / d, l.colBx = (s.e.col - f->e.col) / d, foundX = true;
        }
        if (!foundY && s.bx == f->bx && s.by != f->by) {
            const long long d = s.by - f->by;
            if ((s.e.row - f->e.row) % d || (s.e.col - f->e.col) % d) return std::nullopt;
            l.rowBy = (s.e.row - f->e.row) / d, l.colBy = (s.e.col - f->e.col) / d, foundY = true;
        }
    }
    l.base.assign(threads, std::nullopt);
    for (const Sample& s : samples) {
        const PElement b{s.e.row - l.rowBx * s.bx - l.rowBy * s.by, s.e.col - l.colBx * s.bx - l.colBy * s.by};
        std::optional<PElement>& have = l.base[s.thread];
        if (have && (have->row != b.row || have->col != b.col)) return std::nullopt;
        have = b;
    }
    return l;
}

}  // namespace

void setThreadOutputs(Trace& t, const Simulation& sim, int array)
{
    t.outputArray = array;
    t.outputs.assign(t.blockDim.count(), Trace::Output{});
    if (array < 0 || array >= static_cast<int>(t.arrays.size())) return;
    for (const Event& e : t.events)
        if (e.op == Op::GlobalStore && e.array == array && e.thread < t.outputs.size()) {
            Trace::Output& o = t.outputs[e.thread];
            const PElement p = elementAt(t.arrays[array], e.index);
            const bool oneRow = !o.known || (o.oneRow && p.row == o.row), oneCol = !o.known || (o.oneCol && p.col == o.col);
            // The thread's first element: its smallest, as the layouts count it.
            if (!o.known || p.row < o.row || (p.row == o.row && p.col < o.col)) o = Trace::Output{true, true, p.row, p.col};
            o.oneRow = oneRow;
            o.oneCol = oneCol;
        }
    if (array >= static_cast<int>(sim.counters.elementWriters.size()) || sim.counters.elementWriters[array].empty())
        return;
    // A thread that stores nothing here: where the same thread stores in another block, moved
    // by the blocks' offset; else where the grid's affine layout puts it.
    // Both fits scan every element of the array, so they are made only for a traced block
    // with such a thread (a block at the array's edge), not for every simulation.
    std::optional<BlockLayout> bl;
    std::optional<ThreadLayout> affine;
    bool blockTried = false, affineTried = false;
    const long long bdx = t.blockDim.x, bx = t.block.x, by = t.block.y;
    for (size_t th = 0; th < t.outputs.size(); ++th) {
        if (t.outputs[th].known) continue;
        if (!blockTried) bl = blockLayout(sim, array), blockTried = true;
        if (bl && bl->base[th]) {
            const PElement& b = *bl->base[th];
            t.outputs[th] = Trace::Output{true, false, b.row + bl->rowBx * bx + bl->rowBy * by,
                                          b.col + bl->colBx * bx + bl->colBy * by};
            continue;
        }
        if (!affineTried) affine = threadLayout(sim, array), affineTried = true;
        if (!affine) continue;
        const PElement p = affine->at(static_cast<long long>(th) % bdx, static_cast<long long>(th) / bdx, bx, by);
        t.outputs[th] = Trace::Output{true, false, p.row, p.col};
    }
}

std::optional<PElement> threadElement(const Trace& t, int array, int thread)
{
    if (array < 0 || array != t.outputArray || thread < 0 || thread >= static_cast<int>(t.outputs.size()))
        return std::nullopt;
    const Trace::Output& o = t.outputs[thread];
    if (!o.known) return std::nullopt;
    return PElement{o.row, o.col};
}

namespace {

/// Whether the stores with an origin in events[begin, end) into shared array `array` fit
/// the placement with `swapped`; sets its offsets from the first of them.
bool fits(const Trace& t, int begin, int end, int array, bool swapped, SlotPlacement& p)
{
    const ArrayInfo& slots = t.arrays[array];
    bool first = true;
    for (int n = begin; n < end; ++n) {
        const Event& e = t.events[n];
        if (e.array != array || e.op != Op::SharedStore || e.origin < 0) continue;
        const PElement slot = elementAt(slots, e.index), el = elementAt(t.arrays[e.originArray], e.origin);
        const long long r = swapped ? slot.col : slot.row, c = swapped ? slot.row : slot.col;
        if (first) {
            p.source = e.originArray;
            p.swapped = swapped;
            p.rowOffset = el.row - r;
            p.colOffset = el.col - c;
            first = false;
        } else if (e.originArray != p.source || el.row - r != p.rowOffset || el.col - c != p.colOffset) {
            return false;
        }
    }
    return !first;
}

/// The orientation of the array's first load step that only one orientation fits.
std::optional<bool> decidedOrientation(const Trace& t, int array)
{
    for (const Step& st : t.steps) {
        SlotPlacement a, b;
        const bool straight = fits(t, st.begin, st.end, array, false, a), swapped = fits(t, st.begin, st.end, array, true, b);
        if (straight != swapped) return swapped;
    }
    return std::nullopt;
}

}  // namespace

std::optional<SlotPlacement> slotPlacement(const Trace& t, int step, int array)
{
    if (step < 0 || step >= static_cast<int>(t.steps.size()) || array < 0 || array >= static_cast<int>(t.arrays.size()))
        return std::nullopt;
    auto fitStep = [&](const Step& st) -> std::optional<SlotPlacement> {
        SlotPlacement straight, swapped;
        const bool a = fits(t, st.begin, st.end, array, false, straight), b = fits(t, st.begin, st.end, array, true, swapped);
        if (a && b) return decidedOrientation(t, array).value_or(false) ? swapped : straight;
        if (a) return straight;
        if (b) return swapped;
        return std::nullopt;
    };
    if (std::optional<SlotPlacement> p = fitStep(t.steps[step])) return p;
    // A step of zero fills only (the ghost halo of block 0): the placement of the array's
    // nearest step in the same barrier interval that loaded something.
    const int n = static_cast<int>(t.steps.size());
    for (int d = 1; d < n; ++d)
        for (int k : {step - d, step + d}) {
            if (k < 0 || k >= n || t.steps[k].interval != t.steps[step].interval) continue;
            if (std::optional<SlotPlacement> p = fitStep(t.steps[k])) return p;
        }
    // A fill of its own, in a phase that fills the array several times (the coarsened
    // kernel's N tiles one after the other): the array's fills in the phase advance by one
    // stride, taken from the two nearest that loaded something.
    std::vector<int> fills;
    for (int k = 0; k < n; ++k) {
        if (t.steps[k].phase != t.steps[step].phase) continue;
        for (int e = t.steps[k].begin; e < t.steps[k].end; ++e)
            if (t.events[e].array == array && (t.events[e].op == Op::SharedStore || t.events[e].op == Op::ZeroFill)) {
                fills.push_back(k);
                break;
            }
    }
    const long long at = std::find(fills.begin(), fills.end(), step) - fills.begin();
    std::vector<std::pair<long long, SlotPlacement>> known;
    for (size_t i = 0; i < fills.size(); ++i)
        if (std::optional<SlotPlacement> p = fitStep(t.steps[fills[i]])) known.emplace_back(static_cast<long long>(i), *p);
    if (known.size() < 2 || at >= static_cast<long long>(fills.size())) return std::nullopt;
    const auto& [i0, p0] = known[known.size() - 2];
    const auto& [i1, p1] = known.back();
    if (p0.swapped != p1.swapped || p0.source != p1.source) return std::nullopt;
    const long long dr = p1.rowOffset - p0.rowOffset, dc = p1.colOffset - p0.colOffset, di = i1 - i0;
    if (dr % di || dc % di) return std::nullopt;
    SlotPlacement p = p1;
    p.rowOffset += dr / di * (at - i1);
    p.colOffset += dc / di * (at - i1);
    return p;
}

uint8_t sourceOf(const Trace& t, int array)
{
    for (const Event& e : t.events)
        if (e.array == array && e.op == Op::SharedStore && e.origin >= 0) return e.originArray;
    return kNoArray;
}

std::optional<TileRect> phaseTileOf(const Trace& t, int phase, int source)
{
    long long r0 = 0, r1 = -1, c0 = 0, c1 = -1;
    auto add = [&](const PElement& e) {
        if (r1 < r0) r0 = r1 = e.row, c0 = c1 = e.col;
        r0 = std::min(r0, e.row), r1 = std::max(r1, e.row), c0 = std::min(c0, e.col), c1 = std::max(c1, e.col);
    };
    for (int k = 0; k < static_cast<int>(t.steps.size()); ++k) {
        const Step& st = t.steps[k];
        if (st.phase != phase) continue;
        std::map<int, std::optional<SlotPlacement>> placements;   // by shared array
        for (int n = st.begin; n < st.end; ++n) {
            const Event& e = t.events[n];
            if (e.op != Op::SharedStore && e.op != Op::ZeroFill) continue;
            if (e.op == Op::SharedStore && e.origin >= 0) {
                if (e.originArray == source) add(elementAt(t.arrays[source], e.origin));
                continue;
            }
            auto it = placements.find(e.array);
            if (it == placements.end()) it = placements.emplace(e.array, slotPlacement(t, k, e.array)).first;
            if (!it->second || it->second->source != source) continue;
            const PElement slot = elementAt(t.arrays[e.array], e.index);
            add(it->second->element(slot.row, slot.col));
        }
    }
    if (r1 < r0) return std::nullopt;
    return TileRect{static_cast<int>(r0), static_cast<int>(c0), static_cast<int>(r1 - r0 + 1), static_cast<int>(c1 - c0 + 1)};
}

}  // namespace ts::sim
