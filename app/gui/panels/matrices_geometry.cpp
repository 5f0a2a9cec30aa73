// The Matrices panel's geometry from the simulator's provenance (sim/engine/provenance.hpp).
#include "matrices_geometry.hpp"

#include <algorithm>
#include <map>
#include <set>

namespace ts::app {

namespace {

/// The id of global array `name` in the trace, or -1.
int arrayOf(const sim::Trace& t, const std::string& name)
{
    for (size_t a = 0; a < t.arrays.size(); ++a)
        if (t.arrays[a].name == name && t.arrays[a].space == sim::Space::Global) return static_cast<int>(a);
    return -1;
}

}  // namespace

std::optional<POwner> ownerOfP(const sim::Simulation& sim, int row, int col)
{
    const int p = sim.arrayIndex("P");
    if (p < 0 || row < 0 || col < 0 || row >= sim.arrays[p].rows || col >= sim.arrays[p].cols) return std::nullopt;
    const std::optional<sim::Writer> w = sim::writerOf(sim, p, sim.arrays[p].flat(row, col));
    if (!w) return std::nullopt;
    const int bdx = static_cast<int>(sim.block.x);
    return POwner{w->block, w->thread % bdx, w->thread / bdx};
}

int linearThread(const sim::Dim3& blockDim, int tx, int ty) { return ty * static_cast<int>(blockDim.x) + tx; }

std::optional<sim::TileRect> blockRectInP(const sim::Simulation& sim, const sim::Uint3& block)
{
    return sim::writtenRect(sim, sim.arrayIndex("P"), block);
}

bool rectContains(const std::optional<sim::TileRect>& rect, int row, int col)
{
    return rect && row >= rect->row0 && col >= rect->col0 && row < rect->row0 + rect->rows &&
           col < rect->col0 + rect->cols;
}

std::optional<sim::PElement> threadPElement(const sim::Trace& t, int thread)
{
    return sim::threadElement(t, arrayOf(t, "P"), thread);
}

std::vector<GhostCell> ghostCells(const sim::Trace& t, const sim::ReplayState& r, const std::string& matrix,
                                  int rows, int cols)
{
    std::vector<GhostCell> out;
    const int source = arrayOf(t, matrix);
    if (source < 0) return out;
    // One placement per load step and shared array (sim::slotPlacement).
    std::map<std::pair<int, size_t>, std::optional<sim::SlotPlacement>> placements;
    for (size_t a = 0; a < t.arrays.size() && a < r.slots.size(); ++a) {
        const std::vector<sim::SlotView>& slots = r.slots[a];
        for (size_t i = 0; i < slots.size(); ++i) {
            const sim::SlotView& sl = slots[i];
            if (!sl.zeroFilled || sl.writeStep < 0) continue;
            auto it = placements.find({sl.writeStep, a});
            if (it == placements.end())
                it = placements.emplace(std::pair{sl.writeStep, a}, sim::slotPlacement(t, sl.writeStep, static_cast<int>(a))).first;
            const std::optional<sim::SlotPlacement>& p = it->second;
            if (!p || p->source != source) continue;
            const sim::PElement slot = sim::elementAt(t.arrays[a], static_cast<long long>(i));
            const sim::PElement e = p->element(slot.row, slot.col);
            if (e.row >= 0 && e.col >= 0 && e.row < rows && e.col < cols) continue;
            out.push_back(GhostCell{static_cast<int>(e.row), static_cast<int>(e.col), sl.writtenNow});
        }
    }
    return out;
}

TileGrid tileGrid(const sim::Simulation& sim)
{
    TileGrid g;
    const sim::Scenario& s = sim.scenario;
    const sim::Trace& t = sim.trace;
    // The block's tile of P is the launch's (grid and block from the sizes); the depth of a
    // phase is what the traced block's first phase loaded of M.
    const sim::LaunchShape sh = sim::launchShape(s);
    g.rows = static_cast<int>(std::max(1u, sh.pRows));
    g.cols = static_cast<int>(std::max(1u, sh.pCols));
    g.depth = std::max(1, s.tile);
    const int M = arrayOf(t, "M");
    const int phase = t.steps.empty() ? 0 : t.steps.front().phase;
    const auto m = M < 0 ? std::nullopt : sim::phaseTileOf(t, phase, M);
    if (!m) return g;   // untiled: no phases, nothing zero-filled
    g.depth = std::max(1, m->cols);
    auto past = [](int count, int step) { return (count + step - 1) / step * step - count; };
    g.ghostJ = past(s.j, g.rows);
    g.ghostK = past(s.k, g.depth);
    g.ghostL = past(s.l, g.cols);
    return g;
}

std::vector<RegisterElement> registerElementsOfP(const sim::Trace& t, int arrayP, int thread)
{
    std::vector<RegisterElement> out;
    if (arrayP < 0 || arrayP >= static_cast<int>(t.arrays.size()) || thread < 0) return out;
    const sim::ArrayInfo& P = t.arrays[arrayP];
    // The most rows and columns of P one thread of the block stores: Pvalue's shape.
    std::vector<std::set<long long>> rows(t.blockDim.count()), cols(t.blockDim.count());
    for (const sim::Event& e : t.events)
        if (e.op == sim::Op::GlobalStore && e.array == arrayP && e.thread < rows.size()) {
            const sim::PElement p = sim::elementAt(P, e.index);
            rows[e.thread].insert(p.row);
            cols[e.thread].insert(p.col);
        }
    size_t tm = 0, tn = 0, most = 0;
    for (size_t th = 0; th < rows.size(); ++th) {
        tm = std::max(tm, rows[th].size());
        tn = std::max(tn, cols[th].size());
        most = std::max(most, rows[th].size() * cols[th].size());
    }
    if (most <= 1) return out;
    const bool twoD = tm > 1 && tn > 1;
    int inVector = 0;   // the element's place in a 128-bit store (0 for a plain one)
    for (const sim::Event& e : t.events) {
        if (e.op != sim::Op::GlobalStore || e.array != arrayP || e.thread != thread || e.unrolled == 0) continue;
        inVector = (e.flags & sim::kVectorTail) ? inVector + 1 : 0;
        const int i = e.unrolled - 1 + inVector;   // the iteration m*TN + n of the store loop
        RegisterElement r;
        const sim::PElement p = sim::elementAt(P, e.index);
        r.row = static_cast<int>(p.row);
        r.col = static_cast<int>(p.col);
        r.m = twoD ? i / static_cast<int>(tn) : i;
        r.n = twoD ? i % static_cast<int>(tn) : 0;
        r.name = twoD ? "Pvalue[" + std::to_string(r.m) + "][" + std::to_string(r.n) + "]"
                      : "Pvalue[" + std::to_string(i) + "]";
        out.push_back(r);
    }
    return out;
}

}  // namespace ts::app
