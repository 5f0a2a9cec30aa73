// GPU: the CUDA device, and on request the timing of the naive kernel, the tiled kernel and
// cuBLAS at a chosen size (median of repeats after warm-up, GFLOPS, max error against the
// reference), run on a worker thread. Without a usable device: one line saying why.
#include <imgui.h>

#include "panels.hpp"
#include "widgets.hpp"

namespace ts::app {
namespace {

void results(Frame& f)
{
    const Loaded& l = f.loaded;
    if (l.timings.empty()) return;
    const ImGuiTableFlags tf = ImGuiTableFlags_BordersInnerH | ImGuiTableFlags_RowBg | ImGuiTableFlags_SizingStretchProp;
    if (ImGui::BeginTable("timings", 4, tf)) {
        ImGui::TableSetupColumn("kernel");
        ImGui::TableSetupColumn("ms (median)");
        ImGui::TableSetupColumn("GFLOPS");
        ImGui::TableSetupColumn("max |error|");
        ImGui::TableHeadersRow();
        for (const gpu::BenchResult& r : l.timings) {
            ImGui::TableNextRow();
            ImGui::TableNextColumn();
            ImGui::TextUnformatted(r.request.kernel.c_str());
            ImGui::TableNextColumn();
            ImGui::Text("%.3f", r.msMedian);
            tooltip("CUDA events, median of " + std::to_string(r.request.reps) + " runs after warm-up; fastest " +
                    std::to_string(r.msMin) + " ms");
            ImGui::TableNextColumn();
            ImGui::Text("%.0f", r.gflops);
            tooltip("2 x j x k x l floating-point operations / median time");
            ImGui::TableNextColumn();
            ImGui::Text("%.2g", r.maxAbsErr);
            tooltip("Largest |P - reference| over all elements; the reference is accumulated in double precision");
        }
        ImGui::EndTable();
    }
    const gpu::BenchRequest& q = l.timings.front().request;
    ImGui::TextDisabled("measured on %s, %dx%dx%d", l.device ? l.device->name.c_str() : "the GPU", q.j, q.k, q.l);
}

/// The panel; it keeps no state of its own.
struct GpuPanel final : Panel {
    void draw(Frame& f) override;
};

}  // namespace

void GpuPanel::draw(Frame& f)
{
    if (beginPanel(f, id)) {
        const Palette& pal = f.theme.palette;
        const std::optional<gpu::DeviceInfo>& d = f.loaded.device;
        if (!d) {
            ImGui::TextUnformatted("Looking for a CUDA device...");
        } else if (!d->available) {
            colouredText(pal.dimText, "No GPU timings: " + d->why);
        } else {
            ImGui::PushFont(f.theme.fonts.bold);
            ImGui::TextUnformatted(d->name.c_str());
            ImGui::PopFont();
            ImGui::Text("compute capability %s, %d SMs, %.2f GHz, %.0f GiB", d->computeCapability().c_str(),
                        d->smCount, d->clockGHz, static_cast<double>(d->globalMemBytes) / (1ull << 30));
            GpuForm& g = f.view.gpuForm;
            const float w = ImGui::GetFontSize() * 6;
            ImGui::SetNextItemWidth(w);
            ImGui::InputInt("Width", &g.width, 256, 1024);
            tooltip("Square problem: M, N and P are Width x Width");
            ImGui::SameLine();
            ImGui::SetNextItemWidth(w * 0.8f);
            if (ImGui::BeginCombo("TILE_WIDTH", std::to_string(g.tile).c_str())) {
                for (int t : sim::kTileWidths)
                    if (ImGui::Selectable(std::to_string(t).c_str(), t == g.tile)) g.tile = t;
                ImGui::EndCombo();
            }
            tooltip("TILE_WIDTH of the tiled kernel, and the block edge of the naive kernel");
            ImGui::SetNextItemWidth(w);
            ImGui::InputInt("repeats", &g.reps);
            tooltip("Timed runs after warm-up; the median is shown");
            ImGui::BeginDisabled(f.busy.timing);
            if (ImGui::Button("Time naive, tiled and cuBLAS")) {
                g.error.clear();
                if (g.width < 1 || g.width > 16384)
                    g.error = "Width must be between 1 and 16384; got " + std::to_string(g.width) + ".";
                else if (g.reps < 1 || g.reps > 1000)
                    g.error = "Repeats must be between 1 and 1000; got " + std::to_string(g.reps) + ".";
                if (g.error.empty()) {
                    std::vector<gpu::BenchRequest> reqs;
                    for (const char* k : {"matmul-naive", "matmul-tiled", "cublas"}) {
                        gpu::BenchRequest r;
                        r.kernel = k;
                        r.j = r.k = r.l = g.width;
                        r.tile = g.tile;
                        r.reps = g.reps;
                        reqs.push_back(r);
                    }
                    f.requests.bench = std::move(reqs);
                }
            }
            tooltip("Runs on a worker thread: inputs from the input seed, warm-up, CUDA-event timing, "
                    "then each P is checked against the reference");
            ImGui::EndDisabled();
            if (!g.error.empty()) colouredText(pal.error, g.error);
            if (f.busy.timing) ImGui::ProgressBar(f.busy.timingProgress, ImVec2(-1, 0));
            if (!f.loaded.timingError.empty()) colouredText(pal.error, f.loaded.timingError);
            results(f);
        }
    }
    ImGui::End();
}

std::unique_ptr<Panel> makeGpuPanel() { return std::make_unique<GpuPanel>(); }

}  // namespace ts::app
