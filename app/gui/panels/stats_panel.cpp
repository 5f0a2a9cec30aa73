// Stats: global and shared loads of the traced block (up to the cursor and in total) and
// of the grid, with the bytes their warp requests moved (32 per sector, sim::requestedBytes),
// the compulsory bytes of the launch (sim::compulsoryBytes) and the shared-memory bank
// conflicts; OP/B with its formula, the reduction against the naive kernel, and the heatmap
// toggle of the Matrices panel. Every figure here is simulated.
#include <imgui.h>

#include <cstdio>
#include <string>
#include <string_view>
#include <vector>

#include "panels.hpp"
#include "sim/catalogue/loaded_kernels.hpp"
#include "sim/catalogue/problem_desc.hpp"
#include "sim/teaching/warp_view.hpp"
#include "widgets.hpp"
#include "word_wrap.hpp"

namespace ts::app {
namespace {

void row(const char* what, const char* tip, const std::string& cursor, const std::string& block,
         const std::string& grid)
{
    ImGui::TableNextRow();
    ImGui::TableNextColumn();
    ImGui::TextUnformatted(what);
    tooltip(tip);
    ImGui::TableNextColumn();
    ImGui::TextUnformatted(cursor.c_str());
    ImGui::TableNextColumn();
    ImGui::TextUnformatted(block.c_str());
    ImGui::TableNextColumn();
    ImGui::TextUnformatted(grid.c_str());
}

/// A count as the table shows it: exact below a million, above that in 3 significant
/// digits with M, G or T (1638400 -> "1.64 M"), so that the grid column of a big launch
/// still fits the panel; the exact figure is on hover (countCell).
std::string shortCount(uint64_t v)
{
    if (v < 1000000) return std::to_string(v);
    const char* units[] = {"M", "G", "T"};
    double x = static_cast<double>(v) / 1e6;
    int u = 0;
    while (x >= 1000 && u < 2) {
        x /= 1000;
        ++u;
    }
    char b[32];
    std::snprintf(b, sizeof b, x < 10 ? "%.2f %s" : x < 100 ? "%.1f %s" : "%.0f %s", x, units[u]);
    return b;
}

/// One cell of a count: shortCount(v), and the exact figure on hover where it is shortened.
void countCell(uint64_t v)
{
    ImGui::TableNextColumn();
    ImGui::TextUnformatted(shortCount(v).c_str());
    if (v >= 1000000) tooltip(std::to_string(v).c_str());
}

/// A row of counts: the step so far, the traced block, the grid.
void row(const char* what, const char* tip, uint64_t cursor, uint64_t block, uint64_t grid)
{
    ImGui::TableNextRow();
    ImGui::TableNextColumn();
    ImGui::TextUnformatted(what);
    tooltip(tip);
    countCell(cursor);
    countCell(block);
    countCell(grid);
}

std::string fixed(double v, int decimals)
{
    char b[64];
    std::snprintf(b, sizeof b, "%.*f", decimals, v);
    return b;
}

/// Bytes in at most 3 significant digits and a decimal unit: 448 B, 49.2 KB, 1.06 MB.
std::string bytes(uint64_t v)
{
    const char* units[] = {"B", "KB", "MB", "GB", "TB"};
    double x = static_cast<double>(v);
    int u = 0;
    while (x >= 1000 && u < 4) {
        x /= 1000;
        ++u;
    }
    char b[32];
    if (u == 0) std::snprintf(b, sizeof b, "%llu B", static_cast<unsigned long long>(v));
    else std::snprintf(b, sizeof b, x < 10 ? "%.2f %s" : x < 100 ? "%.1f %s" : "%.0f %s", x, units[u]);
    return b;
}

/// `text` wrapped at the panel's edge, only at its spaces (word_wrap.hpp): a figure such as
/// "4.000" or "1,064,960" is never cut in two, as ImGui's TextWrapped cuts it after the
/// full stop or a comma.
void textWrappedAtSpaces(const std::string& text)
{
    const float width = ImGui::GetContentRegionAvail().x;
    for (const std::string& line : wrapAtSpaces(text, width, [](std::string_view s) {
             return ImGui::CalcTextSize(s.data(), s.data() + s.size()).x;
         }))
        ImGui::TextUnformatted(line.c_str());
}

std::string printed(const char* format, auto... values)
{
    char b[256];
    std::snprintf(b, sizeof b, format, values...);
    return b;
}

uint64_t bankConflicts(const sim::Totals& t)
{
    return t.shared_ld_conflicts + t.shared_st_conflicts;
}

/// The panel: it keeps the traced block's warp memory figures up to each step.
struct StatsPanel final : Panel {
    void draw(Frame& f) override;

private:
    uint64_t generation_ = ~0ull;
    std::vector<sim::Totals> upTo_;   ///< by step: the block's memory figures up to and with it
    uint64_t compulsory_ = 0;
};

}  // namespace

void StatsPanel::draw(Frame& f)
{
    if (beginPanel(f, id)) {
        const sim::Simulation* s = f.loaded.sim.get();
        if (!s) {
            ImGui::TextUnformatted("Simulating...");
        } else {
            const sim::Totals& now = f.replay.soFar;
            if (generation_ != f.loaded.generation) {
                generation_ = f.loaded.generation;
                upTo_ = sim::memoryPerStep(s->trace);
                for (size_t i = 1; i < upTo_.size(); ++i) upTo_[i] += upTo_[i - 1];
                compulsory_ = sim::compulsoryBytes(*s);
            }
            const bool memory = !s->accessSites.empty();
            const sim::Totals none;
            const sim::Totals& mem = f.view.cursor >= 0 && f.view.cursor < static_cast<int>(upTo_.size())
                                         ? upTo_[f.view.cursor] : none;
            const sim::Totals& blk = s->counters.perBlock.at(sim::linearBlock(s->grid, s->trace.block));
            const sim::Totals& all = s->counters.totals;
            // Short headers, each saying more on hover, so that the table fits a narrow column.
            const ImGuiTableFlags tf = ImGuiTableFlags_BordersInnerH | ImGuiTableFlags_RowBg | ImGuiTableFlags_SizingFixedFit;
            if (ImGui::BeginTable("counts", 4, tf)) {
                ImGui::TableSetupColumn("counts");
                ImGui::TableSetupColumn("so far");
                ImGui::TableSetupColumn("block");
                ImGui::TableSetupColumn("grid");
                ImGui::TableNextRow(ImGuiTableRowFlags_Headers);
                const std::string block = "block (" + std::to_string(s->trace.block.x) + ", " +
                                          std::to_string(s->trace.block.y) + ")";
                const std::string heads[] = {
                    "Simulated counts of element reads and writes",
                    "The traced block, " + block + ", up to and with the step shown",
                    "The traced block, " + block + ", all its steps", "Every block of the grid, all their steps"};
                for (int c = 0; c < 4; ++c) {
                    ImGui::TableSetColumnIndex(c);
                    ImGui::TableHeader(c ? ImGui::TableGetColumnName(c) : "counts");
                    tooltip(heads[c]);
                }
                row("global loads", "Elements of M and N read from global memory", now.global_loads,
                    blk.global_loads, all.global_loads);
                if (memory) {
                    const std::string moved =
                        "Bytes the warps' global memory requests moved: 32 per sector, loads and stores (the sectors "
                        "of the warp memory model). The whole grid: " + std::to_string(sim::requestedBytes(all)) +
                        " bytes in " + std::to_string(all.global_ld_sectors + all.global_st_sectors) + " sectors.";
                    row("bytes moved", moved.c_str(), bytes(sim::requestedBytes(mem)), bytes(sim::requestedBytes(blk)),
                        bytes(sim::requestedBytes(all)));
                    const std::string least =
                        "Compulsory bytes: what a perfect cache would move, 4 bytes for every element of M, N and P "
                        "read or written at least once by the grid (" + std::to_string(compulsory_) + " bytes).";
                    row("compulsory", least.c_str(), "-", "-", bytes(compulsory_));
                }
                row("shared loads", "Slots of Mds and Nds read from shared memory", now.shared_loads,
                    blk.shared_loads, all.shared_loads);
                if (memory)
                    row("bank confl.",
                        "Shared-memory bank conflicts, loads and stores: the wavefronts beyond one per warp request "
                        "(lanes reading different words of one bank are served one after the other).",
                        bankConflicts(mem), bankConflicts(blk), bankConflicts(all));
                row("zero fills", "Tile slots set to 0 because the tile leaves the matrix (boundary checks)",
                    now.zero_fills, blk.zero_fills, all.zero_fills);
                row("flops", "2 per multiply-add executed", now.flops, blk.flops, all.flops);
                ImGui::EndTable();
            }
            ImGui::Spacing();
            const double opb = sim::opsPerByte(all);
            textWrappedAtSpaces("OP/B = flops / (4 B \u00d7 global loads)");
            textWrappedAtSpaces(printed("     = %llu / (4 \u00d7 %llu) = %.3f", static_cast<unsigned long long>(all.flops),
                                        static_cast<unsigned long long>(all.global_loads), opb));
            tooltip("Compute-to-global-memory-access ratio of the whole grid: floating-point operations "
                    "per byte read from global memory (4 bytes per float).");
            // An array problem has no naive counterpart; its formula's flops are the measure.
            const bool arrayProblem = sim::problemOf(s->scenario).picture == sim::Picture::Arrays;
            if (arrayProblem)
                textWrappedAtSpaces(printed("the reference formula: %llu flops over the whole output",
                                            static_cast<unsigned long long>(s->referenceFlops)));
            // A kernel whose arithmetic the simulator does not count as multiply-adds of a loop
            // (PMPP's stencil: one fused sum per point) has the OP/B of its formula.
            if (arrayProblem && all.flops == 0 && s->referenceFlops > 0 && all.global_loads > 0) {
                textWrappedAtSpaces(printed("OP/B of the formula = %llu / (4 \u00d7 %llu) = %.3f",
                                            static_cast<unsigned long long>(s->referenceFlops),
                                            static_cast<unsigned long long>(all.global_loads),
                                            static_cast<double>(s->referenceFlops) / (4.0 * static_cast<double>(all.global_loads))));
                tooltip("The reference formula's floating-point operations (a fused multiply-add counts 2) per byte "
                        "the grid reads from global memory: PMPP's measure of a stencil (ch. 8).");
            }
            const uint64_t naive = sim::untiledGlobalLoads(s->scenario);
            const uint64_t naiveBlock = sim::untiledGlobalLoads(s->scenario, s->trace.block);
            if (all.global_loads && !arrayProblem) {
                textWrappedAtSpaces(printed("naive kernel: %llu global loads, %s\u00d7 as many",
                                            static_cast<unsigned long long>(naive),
                                            fixed(static_cast<double>(naive) / static_cast<double>(all.global_loads), 2).c_str()));
                tooltip("The untiled kernel (matmul-naive) reads 2k elements for every P element: 2 x j x l x k "
                        "global loads. The reduction is naive loads / these loads.");
            }
            if (blk.global_loads && !arrayProblem)
                textWrappedAtSpaces(printed("this block: naive %llu, here %llu: %s\u00d7 fewer",
                                            static_cast<unsigned long long>(naiveBlock),
                                            static_cast<unsigned long long>(blk.global_loads),
                                            fixed(static_cast<double>(naiveBlock) / static_cast<double>(blk.global_loads), 2).c_str()));
            ImGui::Spacing();
            ImGui::Checkbox("heatmap of global loads", &f.view.heatmap);
            tooltip("Colour every element of M and N by how often the whole grid read it from global "
                    "memory (Counters, simulated). In the tiled kernel each element is read once per "
                    "block that needs it: fewer reads the larger TILE_WIDTH is.");
            if (arrayProblem) {
                const std::string out = s->arrays.size() > 2 ? s->arrays[2].name : std::string("The output");
                const char* whose = sim::findLoadedKernel(s->scenario.kernel) ? " (the header's formula)." : " (the description's formula).";
                const sim::KernelInfo* info = sim::findKernel(s->scenario.kernel);
                const bool orderOnly = !s->matchesReference && info && info->orderDependent && s->error.empty() &&
                                       sim::sumOrderCheck(s->M, s->P, s->reference).within;
                if (orderOnly)
                    colouredText(f.theme.palette.dimText, (out + " is the reference's sum in another order: the last bits differ, "
                                                                 "within a float sum's bound" + std::string(whose)).c_str());
                else if (!s->matchesReference)
                    colouredText(f.theme.palette.error, (out + " differs from the CPU reference" + whose).c_str());
                else
                    colouredText(f.theme.palette.dimText, (out + " is bit-identical to the CPU reference" + whose).c_str());
            } else if (!s->matchesReference)
                colouredText(f.theme.palette.error, "P differs from the CPU reference (fmaf in k order).");
            else
                colouredText(f.theme.palette.dimText, "P is bit-identical to the CPU reference (fmaf in k order).");
        }
    }
    ImGui::End();
}

std::unique_ptr<Panel> makeStatsPanel() { return std::make_unique<StatsPanel>(); }

}  // namespace ts::app
