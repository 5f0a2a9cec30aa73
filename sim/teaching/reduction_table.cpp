#include "sim/teaching/reduction_table.hpp"

#include <stdexcept>

#include "sim/engine/simulate.hpp"

namespace ts::sim {
namespace {

void checkDims(int dims)
{
    if (dims != 1 && dims != 2)
        throw std::invalid_argument("The reduction tables have 1 or 2 dimensions; got " +
                                    std::to_string(dims) + ".");
}

}  // namespace

double reductionFormula(int dims, int tile, int maskWidth)
{
    checkDims(dims);
    // Whole numbers over whole numbers, as the simulated ratio of load counts is.
    const long long replaced = 1ll * tile * maskWidth, loaded = tile + maskWidth - 1ll;
    return dims == 1 ? static_cast<double>(replaced) / static_cast<double>(loaded)
                     : static_cast<double>(replaced * replaced) / static_cast<double>(loaded * loaded);
}

ReductionCell reductionCell(int dims, int tile, int maskWidth)
{
    ReductionCell c;
    c.tile = tile;
    c.maskWidth = maskWidth;
    c.formula = reductionFormula(dims, tile, maskWidth);
    Scenario s;
    s.kernel = dims == 1 ? "conv1d-tiled" : "conv2d-tiled";
    s.tile = tile;
    s.maskWidth = maskWidth;
    s.width = 3 * tile;
    s.height = dims == 1 ? 1 : 3 * tile;
    s.block = Uint3{1, dims == 1 ? 0u : 1u, 0};
    c.why = validate(s);
    c.launchable = c.why.empty();
    if (!c.launchable) return c;
    SimOptions o;
    o.trace = false;
    const Simulation r = simulate(s, o);
    if (!r.error.empty() || !r.matchesReference)
        throw std::logic_error("the simulation of " + s.kernel + " for the reduction table failed: " +
                               (r.error.empty() ? "P differs from the reference" : r.error));
    const Totals& b = r.counters.perBlock.at(linearBlock(r.grid, s.block));
    c.simulated = static_cast<double>(untiledGlobalLoads(s, s.block)) / static_cast<double>(b.global_loads);
    return c;
}

ReductionTable reductionTable(int dims)
{
    checkDims(dims);
    ReductionTable t;
    t.dims = dims;
    for (int mask : kReductionMasks) {
        ReductionRow row;
        row.maskWidth = mask;
        if (dims == 1)
            for (int tile : kReductionTiles1D) row.cells.push_back(reductionCell(dims, tile, mask));
        else
            for (int tile : kReductionTiles2D) row.cells.push_back(reductionCell(dims, tile, mask));
        t.rows.push_back(std::move(row));
    }
    return t;
}

}  // namespace ts::sim
