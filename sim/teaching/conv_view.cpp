#include "sim/teaching/conv_view.hpp"
#include "sim/catalogue/problem_desc.hpp"

#include <algorithm>
#include <cstdio>
#include <map>
#include <stdexcept>

#include "sim/engine/problem.hpp"
#include "sim/engine/provenance.hpp"
#include "sim/teaching/reduction_table.hpp"

namespace ts::sim {
namespace {

/// Outputs inside a dimension of `size` whose window (n either side) covers position p.
uint32_t windowCover(int p, int size, int n)
{
    if (p < 0 || p >= size) return 0;
    return static_cast<uint32_t>(std::min(size - 1, p + n) - std::max(0, p - n) + 1);
}

std::string fixed(double v, int digits)
{
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.*f", digits, v);
    return buf;
}

void sortUnique(std::vector<uint16_t>& v)
{
    std::sort(v.begin(), v.end());
    v.erase(std::unique(v.begin(), v.end()), v.end());
}

ConvLoads blockLoads(const Simulation& sim, const ConvGeometry& g)
{
    const Scenario& s = sim.scenario;
    ConvLoads l;
    l.block = sim.counters.perBlock.at(linearBlock(sim.grid, sim.trace.block));
    l.untiled = convUntiledGlobalLoads(s, sim.trace.block);
    if (l.block.global_loads > 0)
        l.reduction = static_cast<double>(l.untiled) / static_cast<double>(l.block.global_loads);
    const int T = s.tile, Mw = s.maskWidth, in = T + Mw - 1;
    const double f = reductionFormula(g.twoD ? 2 : 1, T, Mw);
    if (g.twoD)
        l.formulaText = "(TILE_SIZE^2*Mask_Width^2)/(TILE_SIZE+Mask_Width-1)^2 = (" + std::to_string(T) +
                        "^2*" + std::to_string(Mw) + "^2)/(" + std::to_string(T) + "+" + std::to_string(Mw) + "-1)^2 = " +
                        std::to_string(T * T * Mw * Mw) + "/" + std::to_string(in * in) + " = " + fixed(f, 2);
    else
        l.formulaText = "(TILE_SIZE*Mask_Width)/(TILE_SIZE+Mask_Width-1) = (" + std::to_string(T) + "*" +
                        std::to_string(Mw) + ")/(" + std::to_string(T) + "+" + std::to_string(Mw) + "-1) = " + std::to_string(T * Mw) +
                        "/" + std::to_string(in) + " = " + fixed(f, 2);
    const KernelInfo* k = s.kernelInfo();
    if (!k->tiled) {
        l.note = s.kernel + " is the basic kernel itself (reduction 1); the textbook's reduction "
                 "formula is for the tiled kernel.";
    } else if (k->haloFromGlobal) {
        l.note = s.kernel + " keeps only the internal tile in N_ds and reads the halo from global memory "
                 "(hoping a cache holds it), so the textbook's formula, for conv1d-tiled, does not count its loads.";
    } else {
        l.formula = f;
        if (!g.internalBlock())
            l.note = "The formula is for an internal block; this block's input tile has " +
                     std::to_string(g.ghostCount()) + " ghost cells, which it does not load from N.";
    }
    return l;
}

}  // namespace

ConvRole ConvGeometry::role(int row, int col) const
{
    if (row < inRow0 || col < inCol0 || row >= inRow0 + inRows || col >= inCol0 + inCols)
        return ConvRole::Outside;
    if (!insideN(row, col)) return ConvRole::Ghost;
    if (row >= outRow0 && col >= outCol0 && row < outRow0 + outRows && col < outCol0 + outCols)
        return ConvRole::Internal;
    return ConvRole::Halo;
}

bool ConvGeometry::internalBlock() const { return ghostCount() == 0; }

int ConvGeometry::ghostCount() const
{
    int ghosts = 0;
    for (int r = inRow0; r < inRow0 + inRows; ++r)
        for (int c = inCol0; c < inCol0 + inCols; ++c) ghosts += !insideN(r, c);
    return ghosts;
}

ConvGeometry convGeometry(const Scenario& s, const Uint3& b)
{
    const ProblemDesc& problem = problemOf(s);
    if (problem.picture != Picture::Convolution || !s.kernelInfo())
        throw std::invalid_argument("convGeometry needs a convolution kernel; got " + s.kernel + ".");
    ConvGeometry g;
    g.twoD = problem.dims == 2;
    g.height = g.twoD ? s.height : 1;
    g.width = s.width;
    g.maskWidth = s.maskWidth;
    g.tile = s.tile;
    g.n = s.maskWidth / 2;
    g.outCol0 = static_cast<int>(b.x) * s.tile;
    g.outCols = s.tile;
    g.inCol0 = g.outCol0 - g.n;
    g.inCols = s.tile + 2 * g.n;
    if (g.twoD) {
        g.outRow0 = static_cast<int>(b.y) * s.tile;
        g.outRows = s.tile;
        g.inRow0 = g.outRow0 - g.n;
        g.inRows = s.tile + 2 * g.n;
    }
    return g;
}

const ConvUse* ConvView::use(int row, int col) const
{
    const int r = row - geo.inRow0, c = col - geo.inCol0;
    if (r < 0 || c < 0 || r >= geo.inRows || c >= geo.inCols) return nullptr;
    return &uses[static_cast<size_t>(r) * geo.inCols + c];
}

const ConvSlot* ConvView::slotFor(int row, int col) const
{
    for (const ConvSlot& s : slots)
        if (s.row == row && s.col == col) return &s;
    return nullptr;
}

ConvView convView(const Simulation& sim)
{
    const Scenario& s = sim.scenario;
    ConvView v;
    v.geo = convGeometry(s, sim.trace.block);
    const ConvGeometry& g = v.geo;
    v.nArray = sim.arrayIndex("N");
    v.mArray = sim.arrayIndex("M");
    v.pArray = sim.arrayIndex("P");
    v.ndsArray = sim.arrayIndex("N_ds");

    for (int r = 0; r < g.inRows; ++r)
        for (int c = 0; c < g.inCols; ++c) {
            ConvUse u;
            u.row = g.inRow0 + r;
            u.col = g.inCol0 + c;
            u.role = g.role(u.row, u.col);
            if (u.role != ConvRole::Ghost)
                u.gridUses = windowCover(u.row, g.height, g.n) * windowCover(u.col, g.width, g.n);
            v.uses.push_back(u);
        }

    // Which N position each N_ds slot stands for: the origin of its last store, or for a
    // zero fill (a ghost cell) where its load step placed the elements it loaded
    // (sim/engine/provenance.hpp), in slot order.
    if (v.ndsArray >= 0) {
        const Trace& t = sim.trace;
        std::map<int32_t, ConvSlot> bySlot;
        for (int k = 0; k < static_cast<int>(t.steps.size()); ++k)
            for (int i = t.steps[k].begin; i < t.steps[k].end; ++i) {
                const Event& e = t.events[i];
                if (static_cast<int>(e.array) != v.ndsArray || (e.op != Op::SharedStore && e.op != Op::ZeroFill)) continue;
                std::optional<PElement> at;
                if (e.op == Op::SharedStore && e.origin >= 0) {
                    at = elementAt(t.arrays[e.originArray], e.origin);
                } else if (const std::optional<SlotPlacement> p = slotPlacement(t, k, e.array)) {
                    const PElement slot = elementAt(t.arrays[e.array], e.index);
                    at = p->element(slot.row, slot.col);
                }
                if (!at) continue;
                ConvSlot& sl = bySlot[e.index];
                sl.slot = e.index;
                sl.row = static_cast<int>(at->row);
                sl.col = static_cast<int>(at->col);
                sl.role = g.role(sl.row, sl.col);
            }
        for (auto& [index, sl] : bySlot) v.slots.push_back(sl);
    }
    auto useAt = [&](int row, int col) -> ConvUse* {
        const int r = row - g.inRow0, c = col - g.inCol0;
        if (r < 0 || c < 0 || r >= g.inRows || c >= g.inCols) return nullptr;
        return &v.uses[static_cast<size_t>(r) * g.inCols + c];
    };
    auto slotAt = [&](int32_t index) -> ConvSlot* {
        for (ConvSlot& sl : v.slots)
            if (sl.slot == index) return &sl;
        return nullptr;
    };

    // Loaders, readers and uses from the trace.
    const Trace& t = sim.trace;
    for (const Step& st : t.steps)
        for (int i = st.begin; i < st.end; ++i) {
            const Event& e = t.events[i];
            if (e.array == kNoArray || e.thread == kNoThread) continue;
            if (e.array == v.ndsArray) {
                ConvSlot* sl = slotAt(e.index);
                if (!sl) continue;
                if (e.op == Op::SharedStore || e.op == Op::ZeroFill) {
                    sl->written = true;
                    sl->zeroFilled = e.op == Op::ZeroFill;
                    sl->loader = e.thread;
                } else if (e.op == Op::SharedLoad) {
                    sl->readers.push_back(e.thread);
                    if (ConvUse* u = useAt(sl->row, sl->col)) {
                        ++u->sharedReads;
                        u->threads.push_back(e.thread);
                    }
                }
            } else if (static_cast<int>(e.array) == v.nArray && e.op == Op::GlobalLoad &&
                       st.kind != StepKind::LoadTile) {
                const int row = g.twoD ? e.index / g.width : 0, col = g.twoD ? e.index % g.width : e.index;
                if (ConvUse* u = useAt(row, col)) {
                    ++u->globalReads;
                    u->threads.push_back(e.thread);
                }
            }
        }
    for (ConvSlot& sl : v.slots) sortUnique(sl.readers);
    for (ConvUse& u : v.uses) sortUnique(u.threads);
    v.loads = blockLoads(sim, g);
    return v;
}

std::string convElementName(const ConvGeometry& g, int row, int col)
{
    if (!g.twoD) return "N[" + std::to_string(col) + "]";
    return "N[" + std::to_string(row) + "][" + std::to_string(col) + "]";
}

std::string useSentence(const ConvView& v, const ConvUse& u, int maxListed)
{
    const ConvGeometry& g = v.geo;
    std::string out = convElementName(g, u.row, u.col);
    if (u.threads.empty()) return out + (u.role == ConvRole::Ghost ? " is a ghost cell used by no thread (0X)"
                                                                   : " is used by no thread of this block (0X)");
    out += u.threads.size() == 1 ? " is used by thread " : " is used by threads ";
    // 1D: threads by i = bx*TILE_SIZE + tx, as the textbook numbers them; 2D: (ty, tx) in
    // the block, whose x extent is the input tile for conv2d-tiled and TILE_SIZE for conv2d-basic.
    const int blockX = v.ndsArray >= 0 ? g.inCols : g.tile;
    for (size_t i = 0; i < u.threads.size(); ++i) {
        if (static_cast<int>(i) == maxListed) {
            out += ", ...";
            break;
        }
        if (i) out += ", ";
        const int t = u.threads[i];
        if (g.twoD) out.append("(").append(std::to_string(t / blockX)).append(", ").append(std::to_string(t % blockX)).append(")");
        else out.append(std::to_string(g.outCol0 + t));
    }
    out += " (" + std::to_string(u.threads.size()) + "X)";
    return out;
}

}  // namespace ts::sim
