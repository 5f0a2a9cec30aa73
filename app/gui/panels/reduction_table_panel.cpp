// Reduction tables: the bandwidth reduction of tiled convolution in 1D and 2D (PMPP ch. 7),
// each cell the textbook's formula beside the simulated reduction of an internal block of
// the tiled kernel, or marked formula-only where that block cannot launch (over 1024
// threads), with the reason on hover. The tables are simulated once, off the frame loop,
// when first opened.
#include <imgui.h>

#include <cstdio>
#include <optional>
#include <string>

#include "job.hpp"
#include "panels.hpp"
#include "sim/teaching/reduction_table.hpp"
#include "widgets.hpp"

namespace ts::app {
namespace {

/// Both tables, or why they could not be made.
struct Tables {
    sim::ReductionTable oneD, twoD;
    std::string error;
};

Tables makeTables()
{
    Tables t;
    try {
        t.oneD = sim::reductionTable(1);
        t.twoD = sim::reductionTable(2);
    } catch (const std::exception& e) {
        t.error = e.what();
    }
    return t;
}

std::string fixed(double v)
{
    char b[32];
    std::snprintf(b, sizeof b, "%.4f", v);
    return b;
}

void table(const Frame& f, const sim::ReductionTable& t)
{
    const Palette& pal = f.theme.palette;
    const size_t cols = t.rows.empty() ? 0 : t.rows.front().cells.size();
    const ImGuiTableFlags tf = ImGuiTableFlags_Borders | ImGuiTableFlags_RowBg | ImGuiTableFlags_SizingStretchSame;
    if (!ImGui::BeginTable(t.dims == 1 ? "red1d" : "red2d", static_cast<int>(cols) + 1, tf)) return;
    ImGui::TableSetupColumn("TILE_SIZE");
    for (size_t i = 0; i < cols; ++i) {
        const std::string h = std::to_string(t.rows.front().cells[i].tile);
        ImGui::TableSetupColumn(h.c_str());
    }
    ImGui::TableHeadersRow();
    for (const sim::ReductionRow& row : t.rows) {
        ImGui::TableNextRow();
        ImGui::TableNextColumn();
        ImGui::Text("Mask_Width %d", row.maskWidth);
        for (const sim::ReductionCell& c : row.cells) {
            ImGui::TableNextColumn();
            ImGui::Text("%.2f", c.simulated ? *c.simulated : c.formula);
            if (c.simulated) {
                ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(pal.okText), "simulated");
                tooltip("Simulated: block " + std::string(t.dims == 1 ? "1" : "(1, 1)") + " of " +
                        (t.dims == 1 ? "conv1d-tiled on N of 3 x TILE_SIZE elements"
                                     : "conv2d-tiled on N of 3 x TILE_SIZE squared") +
                        " (an internal block) made " + fixed(c.simulated.value()) +
                        " times fewer global loads than conv" + std::to_string(t.dims) +
                        "d-basic. The textbook's formula gives " + fixed(c.formula) + ".");
            } else {
                ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(pal.error), "formula only");
                tooltip("Formula only, not simulated: " + c.why);
            }
        }
    }
    ImGui::EndTable();
}

/// The panel; it simulates the tables on a worker the first time it is shown and keeps them.
struct ReductionTablePanel final : Panel {
    void draw(Frame& f) override;

private:
    Job<Tables> job_;
    std::optional<Tables> tables_;
};

}  // namespace

void ReductionTablePanel::draw(Frame& f)
{
    if (!tables_ && !job_.running()) job_.start([](std::atomic<float>&) { return makeTables(); });
    if (!tables_) tables_ = job_.poll();
    const std::optional<Tables>& tables = tables_;
    if (beginPanel(f, id)) {
        colouredText(f.theme.palette.dimText,
                     "PMPP ch. 7: how many times fewer global loads the tiled kernel makes than the basic one for an "
                     "internal block. 1D: (TILE_SIZE*Mask_Width)/(TILE_SIZE+Mask_Width-1); 2D: "
                     "(TILE_SIZE^2*Mask_Width^2)/(TILE_SIZE+Mask_Width-1)^2. A cell is simulated where the tiled "
                     "kernel can launch, else computed from the formula (hover for why).");
        if (!tables) {
            ImGui::TextUnformatted("Simulating the tables...");
        } else if (!tables->error.empty()) {
            colouredText(f.theme.palette.error, tables->error);
        } else {
            ImGui::PushFont(f.theme.fonts.bold);
            ImGui::TextUnformatted("Bandwidth reduction in 1D (conv1d-tiled)");
            ImGui::PopFont();
            table(f, tables->oneD);
            ImGui::Spacing();
            ImGui::PushFont(f.theme.fonts.bold);
            ImGui::TextUnformatted("Bandwidth reduction in 2D (conv2d-tiled)");
            ImGui::PopFont();
            table(f, tables->twoD);
        }
    }
    ImGui::End();
}

std::unique_ptr<Panel> makeReductionTablePanel() { return std::make_unique<ReductionTablePanel>(); }

}  // namespace ts::app
