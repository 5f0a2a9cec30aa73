// simulate's figures of warps at branches and of atomics (see warps_output.hpp).
#include "warps_output.hpp"

#include <algorithm>
#include <cmath>
#include <iomanip>
#include <vector>

#include "sim/engine/warp_memory.hpp"
#include "sim/teaching/warp_view.hpp"

namespace ts::cli {
namespace {

using nlohmann::ordered_json;

double ratio(uint64_t a, uint64_t b) { return b ? static_cast<double>(a) / static_cast<double>(b) : 0.0; }
/// Three decimals, the JSON contract's precision.
double round3(double v) { return std::round(v * 1000.0) / 1000.0; }

/// Does nvcc compile the branch on `line` of `s`'s kernel to predicated instructions (a
/// registry note with no array on that line, sim/catalogue/compiled_notes.hpp)?
bool predicatedBranch(const sim::Scenario& s, unsigned line)
{
    for (const sim::CompiledNote* n : sim::compiledNotesFor(s, line))
        if (!*n->array) return true;
    return false;
}

}  // namespace

/// Does the simulation have warp-level control flow or atomics to report (a kernel that
/// marks branches with x.branch or makes atomics)? Other kernels' output stays as it was.
bool hasWarpFigures(const sim::Simulation& r)
{
    const sim::Totals& t = r.counters.totals;
    return t.branch_uniform + t.branch_divergent + t.global_atomics + t.shared_atomics != 0;
}

/// The `warps` object of simulate --json (docs/cli.md): branch executions per warp, uniform
/// or divergent, SIMD efficiency, global atomics; whole grid and per source line.
ordered_json warpsJson(const sim::Simulation& r)
{
    const sim::Totals& t = r.counters.totals;
    ordered_json w;
    const uint64_t executions = t.branch_uniform + t.branch_divergent;
    w["branch_executions"] = executions;
    w["branch_uniform"] = t.branch_uniform;
    w["branch_divergent"] = t.branch_divergent;
    w["branch_active_lanes"] = t.branch_lanes;
    // Extension: the same counts over the lines nvcc compiles to a branch instruction (a line
    // whose registry notes say it is predicated is left out): what Nsight Compute's
    // smsp__sass_branch_targets_threads_divergent / _uniform count (scripts/gpu-warps.sh).
    uint64_t compiledDivergent = 0, compiledUniform = 0;
    for (const sim::AccessSite& a : r.accessSites)
        if (a.kind == sim::AccessKind::Branch && !predicatedBranch(r.scenario, a.line)) {
            compiledDivergent += a.divergent;
            compiledUniform += a.requests - a.divergent;
        }
    w["branch_divergent_compiled"] = compiledDivergent;
    w["branch_uniform_compiled"] = compiledUniform;
    w["global_atomics"] = t.global_atomics;
    w["global_atom_requests"] = t.global_atom_requests;
    w["global_atom_passes"] = t.global_atom_passes;
    // Atomics on shared memory (PMPP Fig. 9.10), only for a kernel that makes them.
    if (t.shared_atomics) {
        w["shared_atomics"] = t.shared_atomics;
        w["shared_atom_requests"] = t.shared_atom_requests;
        w["shared_atom_passes"] = t.shared_atom_passes;
    }
    ordered_json lines = ordered_json::array();
    for (const sim::AccessSite& a : r.accessSites) {
        if (a.requests == 0 || (a.kind != sim::AccessKind::Branch && a.kind != sim::AccessKind::GlobalAtomic)) continue;
        ordered_json e;
        e["line"] = a.line;
        if (a.kind == sim::AccessKind::Branch) {
            e["kind"] = "branch";
            e["executions"] = a.requests;
            e["divergent"] = a.divergent;
            e["uniform"] = a.requests - a.divergent;
            e["active_lanes"] = a.lanes;
            e["taken_lanes"] = a.taken;
            // The lanes busy in the code the branch guards, over 32 per warp that ran it.
            e["entered"] = a.entered;
            e["simd_efficiency"] = round3(ratio(a.taken, 32 * a.entered));
            e["nvcc"] = predicatedBranch(r.scenario, a.line) ? "predicated" : "branch";
        } else {
            e["kind"] = "atomic";
            e["array"] = a.array < r.arrays.size() ? r.arrays[a.array].name : "?";
            e["requests"] = a.requests;
            e["lanes"] = a.lanes;
            e["passes"] = a.wavefronts;
        }
        lines.push_back(e);
    }
    std::stable_sort(lines.begin(), lines.end(),
                     [](const ordered_json& a, const ordered_json& b) { return a["line"] < b["line"]; });
    w["per_line"] = lines;
    return w;
}

/// simulate's text table of branches and atomics (hasWarpFigures only).
void printWarpTable(std::ostream& out, const sim::Simulation& r, const std::function<std::string(unsigned)>& statement)
{
    const sim::Totals& t = r.counters.totals;
    const uint64_t executions = t.branch_uniform + t.branch_divergent;
    out << "  warps (branches marked x.branch, per warp execution)\n"
        << "    branches       " << executions << " executions, " << t.branch_uniform << " uniform, " << t.branch_divergent
        << " divergent\n";
    if (t.global_atomics)
        out << "    atomics        " << t.global_atomics << " global, " << t.global_atom_requests << " warp requests, "
            << t.global_atom_passes << " passes (the most lanes on one address in each 128-byte line, per request)\n";
    if (t.shared_atomics)
        out << "    atomics        " << t.shared_atomics << " shared, " << t.shared_atom_requests << " warp instructions, "
            << t.shared_atom_passes << " passes (the most lanes on one slot, per instruction)\n";
    out << "  line  kind      executions  divergent  active lanes  SIMD eff.  statement\n";
    std::vector<const sim::AccessSite*> sites;
    for (const sim::AccessSite& a : r.accessSites)
        if (a.requests && (a.kind == sim::AccessKind::Branch || a.kind == sim::AccessKind::GlobalAtomic)) sites.push_back(&a);
    std::stable_sort(sites.begin(), sites.end(), [](auto* a, auto* b) { return a->line < b->line; });
    for (const sim::AccessSite* a : sites) {
        std::string stmt = statement(a->line);
        if (stmt.size() > 60) stmt = stmt.substr(0, 57) + "...";
        const bool branch = a->kind == sim::AccessKind::Branch;
        out << std::right << std::setw(6) << a->line << "  " << std::left << std::setw(8) << (branch ? "branch" : "atomic")
            << std::right << std::setw(12) << a->requests << std::setw(11) << (branch ? std::to_string(a->divergent) : "-")
            << std::setw(14) << a->lanes << std::setw(11);
        if (branch) out << std::fixed << std::setprecision(3) << ratio(a->taken, 32 * a->entered) << std::defaultfloat;
        else out << "-";
        out << "  " << stmt << (branch && predicatedBranch(r.scenario, a->line) ? "  (nvcc: predicated)" : "") << "\n";
    }
}

}  // namespace ts::cli
