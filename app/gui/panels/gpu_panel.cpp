// GPU: the CUDA device, and on request the timing of the naive kernel, the tiled kernel and
// cuBLAS at a chosen size (median of repeats after warm-up, GFLOPS, max error against the
// reference), run on a worker thread. Without a usable device: one line saying why.
#include <imgui.h>

#include "panels.hpp"
#include "sim/engine/simulate.hpp"
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
            ImGui::TextUnformatted(r.request.scenario.kernel.c_str());
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
    const sim::Scenario& q = l.timings.front().request.scenario;
    ImGui::TextDisabled("measured on %s, %dx%dx%d", l.device ? l.device->name.c_str() : "the GPU", q.j, q.k, q.l);
}

/// DRAM bytes read by one launch, measured with Nsight Compute on an H100 (50 MiB of L2)
/// by scripts/gpu-memory.sh (docs/measurements/gpu-memory-h100.txt), for Width x Width
/// products with TILE_WIDTH 16: M and N must be read at least once, 8 x Width^2 bytes.
struct DramPoint {
    int width;
    double naiveRead, tiledRead;        ///< dram__bytes_read.sum
    double naiveRequests, tiledRequests;   ///< global load requests
};
constexpr DramPoint kH100Dram[] = {
    {256, 530432, 528896, 1048576, 65536},
    {1024, 8394752, 8393216, 67108864, 4194304},
    {2048, 33700864, 33603840, 536870912, 33554432},
    {4096, 11339917568.0, 17073251072.0, 4294967296.0, 268435456},
};

/// Why tiling cut the requests but not the DRAM traffic while the matrices fit in L2, with
/// the loaded scenario's requested and compulsory bytes and the H100 measurements.
void dramLesson(Frame& f)
{
    if (!ImGui::CollapsingHeader("Requests and DRAM traffic")) return;
    if (const auto& r = f.loaded.sim; r && r->counters.totals.global_ld_requests > 0) {
        const sim::Totals& t = r->counters.totals;
        ImGui::TextWrapped("This scenario asks global memory for %.3g MB (%llu load and %llu store sectors of 32 bytes); "
                           "a perfect cache would move %.3g MB (every element read or written once).",
                           static_cast<double>(sim::requestedBytes(t)) / 1e6,
                           static_cast<unsigned long long>(t.global_ld_sectors),
                           static_cast<unsigned long long>(t.global_st_sectors),
                           static_cast<double>(sim::compulsoryBytes(*r)) / 1e6);
    }
    ImGui::TextWrapped("Tiling divides the load requests by TILE_WIDTH, but while M and N fit in the L2 cache "
                       "(50 MiB, 52.4 MB, on an H100) the naive kernel's repeated reads are served by L2, and both "
                       "kernels read about the compulsory bytes from DRAM. Above L2's size that stops: at 4096 each "
                       "kernel reads M and N from DRAM many times over.");
    const ImGuiTableFlags tf = ImGuiTableFlags_BordersInnerH | ImGuiTableFlags_RowBg | ImGuiTableFlags_SizingStretchProp;
    if (ImGui::BeginTable("dram", 5, tf)) {
        ImGui::TableSetupColumn("Width");
        ImGui::TableSetupColumn("compulsory MB");
        ImGui::TableSetupColumn("naive: requests, DRAM MB");
        ImGui::TableSetupColumn("tiled 16: requests, DRAM MB");
        ImGui::TableSetupColumn("M + N vs L2");
        ImGui::TableHeadersRow();
        for (const DramPoint& p : kH100Dram) {
            const double compulsory = 8.0 * p.width * p.width;
            ImGui::TableNextRow();
            ImGui::TableNextColumn();
            ImGui::Text("%d", p.width);
            ImGui::TableNextColumn();
            ImGui::Text("%.3g", compulsory / 1e6);
            ImGui::TableNextColumn();
            ImGui::Text("%.3g, %.4g (%.2fx)", p.naiveRequests, p.naiveRead / 1e6, p.naiveRead / compulsory);
            ImGui::TableNextColumn();
            ImGui::Text("%.3g, %.4g (%.2fx)", p.tiledRequests, p.tiledRead / 1e6, p.tiledRead / compulsory);
            ImGui::TableNextColumn();
            ImGui::Text("%.3g MB %s 52.4 MB", compulsory / 1e6, compulsory <= 50.0 * (1 << 20) ? "<=" : ">");
        }
        ImGui::EndTable();
    }
    ImGui::TextDisabled("Nsight Compute on an H100, one launch each (scripts/gpu-memory.sh)");
    tooltip("dram__bytes_read.sum and l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum; the writes of P stay in L2 "
            "during the launch, so dram__bytes_write.sum reads 0 there");
}

/// The panel; it keeps no state of its own.
struct GpuPanel final : Panel {
    void draw(Frame& f) override;
};

}  // namespace

void GpuPanel::draw(Frame& f)
{
    if (beginPanel(f, id)) {
        dramLesson(f);
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
                        const sim::Scenario s = sim::matmulScenario(k, g.width, g.width, g.width, g.tile);
                        reqs.push_back(gpu::BenchRequest{s, g.reps});
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
