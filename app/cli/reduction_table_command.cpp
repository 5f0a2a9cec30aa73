#include "reduction_table_command.hpp"

#include <cmath>
#include <iomanip>
#include <iostream>
#include <nlohmann/json.hpp>

#include "commands.hpp"
#include "sim/teaching/reduction_table.hpp"

namespace ts::cli {
namespace {

/// Three decimals, as simulate prints reduction_vs_untiled (the printed tables round to one).
double round3(double v) { return std::round(v * 1000.0) / 1000.0; }

nlohmann::ordered_json toJson(const sim::ReductionTable& t)
{
    nlohmann::ordered_json j;
    j["dims"] = t.dims;
    j["rows"] = nlohmann::ordered_json::array();
    for (const sim::ReductionRow& r : t.rows) {
        nlohmann::ordered_json row;
        row["mask_width"] = r.maskWidth;
        row["cells"] = nlohmann::ordered_json::array();
        for (const sim::ReductionCell& c : r.cells) {
            nlohmann::ordered_json cell;
            cell["tile"] = c.tile;
            cell["formula"] = round3(c.formula);
            cell["simulated"] = c.simulated ? nlohmann::ordered_json(round3(*c.simulated)) : nullptr;
            cell["launchable"] = c.launchable;
            if (!c.launchable) cell["why"] = c.why;
            row["cells"].push_back(cell);
        }
        j["rows"].push_back(row);
    }
    return j;
}

void printTable(const sim::ReductionTable& t)
{
    const bool twoD = t.dims == 2;
    std::cout << "Bandwidth reduction in " << t.dims << "D (PMPP ch. 7): "
              << (twoD ? "TILE_SIZE^2 * Mask_Width^2 / (TILE_SIZE + Mask_Width - 1)^2"
                       : "TILE_SIZE * Mask_Width / (TILE_SIZE + Mask_Width - 1)")
              << "\nsimulated: global loads of " << (twoD ? "conv2d-basic / conv2d-tiled" : "conv1d-basic / conv1d-tiled")
              << " for an internal block\n\n"
              << std::left << std::setw(28) << "TILE_SIZE" << std::right;
    for (const sim::ReductionCell& c : t.rows.front().cells) std::cout << std::setw(9) << c.tile;
    std::cout << "\n" << std::fixed << std::setprecision(3);
    std::vector<std::string> notes;
    for (const sim::ReductionRow& r : t.rows) {
        std::cout << std::left << std::setw(18) << "Mask_Width = " + std::to_string(r.maskWidth) << std::setw(10)
                  << "formula" << std::right;
        for (const sim::ReductionCell& c : r.cells) std::cout << std::setw(9) << c.formula;
        std::cout << "\n" << std::left << std::setw(18) << "" << std::setw(10) << "simulated" << std::right;
        for (const sim::ReductionCell& c : r.cells) {
            if (c.simulated) {
                std::cout << std::setw(9) << *c.simulated;
            } else {
                notes.push_back(c.why);
                std::cout << std::setw(9) << "(" + std::to_string(notes.size()) + ")";
            }
        }
        std::cout << "\n";
    }
    std::cout << std::defaultfloat;
    for (size_t i = 0; i < notes.size(); ++i) std::cout << "(" << i + 1 << ") not simulated: " << notes[i] << "\n";
}

}  // namespace

CLI::App* addReductionTableCommand(CLI::App& app, ReductionTableOptions& o)
{
    CLI::App* c = app.add_subcommand(
        "reduction-table", "The bandwidth-reduction tables for tiled convolution (PMPP ch. 7), the "
                           "formula beside a simulation of an internal block");
    c->add_option("--dims", o.dims, "1 (TILE_SIZE 16 to 256) or 2 (TILE_SIZE 8 to 64); Mask_Width 5 and 9")
        ->required();
    c->add_flag("--json", o.json, "Print one JSON object (spec: docs/cli.md)");
    return c;
}

int runReductionTable(const ReductionTableOptions& o)
{
    if (o.dims != 1 && o.dims != 2) {
        std::cerr << "tilescope-cli: --dims must be 1 or 2 (the 1D and 2D tables); got " << o.dims << ".\n";
        return kBadInput;
    }
    const sim::ReductionTable t = sim::reductionTable(o.dims);
    if (o.json) std::cout << toJson(t).dump() << "\n";
    else printTable(t);
    return kOk;
}

}  // namespace ts::cli
