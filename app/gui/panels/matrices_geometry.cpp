// The Matrices panel's geometry from the kernel's index arithmetic (sim/kernel_view.hpp).
#include "matrices_geometry.hpp"

#include <algorithm>

#include "sim/kernel_info.hpp"

namespace ts::app {

POwner ownerOfP(const sim::Scenario& s, int row, int col)
{
    const sim::PElementOwner o = sim::ownerOfPElement(s, row, col);
    return POwner{o.block, static_cast<int>(o.tx), static_cast<int>(o.ty)};
}

int linearThread(const sim::Dim3& blockDim, int tx, int ty) { return ty * static_cast<int>(blockDim.x) + tx; }

std::optional<sim::TileRect> blockRectInP(const sim::Scenario& s, const sim::Uint3& block)
{
    const std::optional<sim::TileRect> t = sim::blockTileOfP(s, block);
    if (!t) return std::nullopt;
    const int r0 = std::max(0, t->row0), c0 = std::max(0, t->col0);
    const int r1 = std::min(s.j, t->row0 + t->rows), c1 = std::min(s.l, t->col0 + t->cols);
    if (r1 <= r0 || c1 <= c0) return std::nullopt;
    return sim::TileRect{r0, c0, r1 - r0, c1 - c0};
}

bool rectContains(const std::optional<sim::TileRect>& rect, int row, int col)
{
    return rect && row >= rect->row0 && col >= rect->col0 && row < rect->row0 + rect->rows &&
           col < rect->col0 + rect->cols;
}

sim::PElement threadPElement(const sim::Scenario& s, const sim::Trace& t, int thread)
{
    const int bdx = static_cast<int>(t.blockDim.x);
    return sim::pElementOf(s, t.block, t.blockDim, thread % bdx, thread / bdx);
}

std::vector<GhostCell> ghostCells(const sim::Scenario& s, const sim::Trace& t, const sim::ReplayState& r,
                                  const std::string& matrix, int rows, int cols)
{
    std::vector<GhostCell> out;
    for (size_t a = 0; a < t.arrays.size() && a < r.slots.size(); ++a) {
        if (sim::tileSourceArray(s, t.arrays[a].name) != matrix) continue;
        const std::vector<sim::SlotView>& slots = r.slots[a];
        const int w = t.arrays[a].cols;
        for (size_t i = 0; i < slots.size(); ++i) {
            const sim::SlotView& sl = slots[i];
            if (!sl.zeroFilled || sl.writeStep < 0) continue;
            const int ph = t.steps[sl.writeStep].phase;
            const auto e = sim::tileSlotElement(s, t.block, ph, t.arrays[a].name, static_cast<int>(i) / w,
                                                static_cast<int>(i) % w);
            if (!e) continue;   // a padding column: no element of the matrix
            if (e->row >= 0 && e->col >= 0 && e->row < rows && e->col < cols) continue;
            out.push_back(GhostCell{static_cast<int>(e->row), static_cast<int>(e->col), sl.writtenNow});
        }
    }
    return out;
}

TileGrid tileGrid(const sim::Scenario& s)
{
    TileGrid g;
    const sim::Uint3 first{0, 0, 0};
    if (const auto p = sim::blockTileOfP(s, first)) {
        g.rows = std::max(1, p->rows);
        g.cols = std::max(1, p->cols);
    }
    g.depth = std::max(1, s.tile);
    const auto m = sim::phaseTile(s, first, 0, "M");
    if (!m) return g;   // untiled: no phases, nothing zero-filled
    g.depth = std::max(1, m->cols);
    auto past = [](int n, int step) { return (n + step - 1) / step * step - n; };
    g.ghostJ = past(s.j, g.rows);
    g.ghostK = past(s.k, g.depth);
    g.ghostL = past(s.l, g.cols);
    return g;
}

std::vector<RegisterElement> registerElementsOfP(const sim::Scenario& s, const sim::Trace& t, int arrayP, int thread)
{
    std::vector<RegisterElement> out;
    const sim::KernelInfo* k = sim::findKernel(s.kernel);
    if (!k || (k->threadRows <= 1 && k->threadCols <= 1) || arrayP < 0 || thread < 0 || s.l < 1) return out;
    const bool twoD = k->threadRows > 1 && k->threadCols > 1;
    int inVector = 0;   // the element's place in a 128-bit store (0 for a plain one)
    for (const sim::Event& e : t.events) {
        if (e.op != sim::Op::GlobalStore || e.array != arrayP || e.thread != thread || e.unrolled == 0) continue;
        inVector = (e.flags & sim::kVectorTail) ? inVector + 1 : 0;
        const int i = e.unrolled - 1 + inVector;   // the iteration m*TN + n of the store loop
        RegisterElement r;
        r.row = e.index / s.l;
        r.col = e.index % s.l;
        r.m = twoD ? i / k->threadCols : i;
        r.n = twoD ? i % k->threadCols : 0;
        r.name = twoD ? "Pvalue[" + std::to_string(r.m) + "][" + std::to_string(r.n) + "]"
                      : "Pvalue[" + std::to_string(i) + "]";
        out.push_back(r);
    }
    return out;
}

}  // namespace ts::app
