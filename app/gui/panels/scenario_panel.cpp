// Scenario: kernel, sizes (Width, or j, k, l; for convolution width, height, Mask_Width,
// TILE_SIZE), TILE_WIDTH, the traced block, the input
// seed, the warp schedule; Apply re-simulates. Invalid values are refused with
// sim::validate's sentence. Lecture presets and scenario files open from here too.
#include <imgui.h>
#include <imgui_stdlib.h>

#include <algorithm>
#include <vector>

#include "layout.hpp"
#include "panels.hpp"
#include "sim/catalogue/problem_desc.hpp"
#include "sim/engine/work_estimate.hpp"
#include "widgets.hpp"

namespace ts::app {
namespace {

void sizeInputs(ScenarioForm& form, const sim::KernelInfo* info)
{
    const bool tiled = info && info->tiled;
    sim::Scenario& d = form.draft;
    const float w = ImGui::GetFontSize() * 7;
    ImGui::Checkbox("square", &form.square);
    tooltip("Square matrices: M, N and P are Width x Width. Untick for M (j x k) times N (k x l), "
            "the general case that PMPP sec. 5.5 leaves open.");
    if (form.square) {
        ImGui::SameLine();
        ImGui::SetNextItemWidth(w);
        int width = d.j;
        if (ImGui::InputInt("Width", &width)) d.j = d.k = d.l = width;
        tooltip("Rows and columns of M, N and P (1 to 8192)");
    } else {
        // Three fields in one row of the panel's width: j, k and l.
        int jkl[3] = {d.j, d.k, d.l};
        ImGui::SetNextItemWidth(w * 1.7f);
        if (ImGui::InputInt3("j, k, l", jkl)) {
            d.j = jkl[0];
            d.k = jkl[1];
            d.l = jkl[2];
        }
        tooltip("j: rows of M and of P; k: columns of M and rows of N, the length of each inner product; "
                "l: columns of N and of P");
    }
    ImGui::SetNextItemWidth(w);
    if (tiled) {
        const std::string cur = std::to_string(d.tile);
        // The kernel's compiled instances (a ladder rung has its own, docs/ladder.md).
        // A rung whose tile is the block's tile of P rather than TILE_WIDTH: its threads compute
        // several elements, more than one tile across (coarsening keeps TILE_WIDTH).
        const bool blockTile = info->threadRows > 1 || (info->threadCols > 1 && info->blockColsFactor == 1);
        if (ImGui::BeginCombo(blockTile ? "tile of P" : "TILE_WIDTH", cur.c_str())) {
            for (int t : info->tiles)
                if (ImGui::Selectable(std::to_string(t).c_str(), t == d.tile)) d.tile = t;
            ImGui::EndCombo();
        }
        tooltip(blockTile ? "Edge of the square tile of P each block computes (a template parameter: " +
                                sim::tileList(*info) + ")"
                          : "Edge of the square tiles of M and N held in Mds and Nds, and of the thread block "
                            "(a template parameter: " + sim::tileList(*info) + ")");
    } else {
        ImGui::InputInt("block edge", &d.tile);
        tooltip("The block is block edge x block edge threads (1 to 32)");
    }
}

/// Convolution sizes (PMPP ch. 7): N's width (and height for 2D), Mask_Width, and TILE_SIZE
/// (tiled kernels) or the block edge (basic kernels).
void convInputs(ScenarioForm& form, const sim::KernelInfo& k)
{
    sim::Scenario& d = form.draft;
    const float w = ImGui::GetFontSize() * 7;
    const sim::ParamLimit* height = sim::paramLimit(k, sim::ParamId::Height);
    const bool twoD = height && height->max > 1;
    if (twoD) {
        ImGui::SetNextItemWidth(w);
        ImGui::InputInt("height", &d.height);
        tooltip("Rows of the input N and of the output P");
    }
    ImGui::SetNextItemWidth(w);
    ImGui::InputInt("width", &d.width);
    tooltip(twoD ? "Columns of the input N and of the output P" : "Elements of the input N and of the output P");
    ImGui::SetNextItemWidth(w);
    ImGui::InputInt("Mask_Width", &d.maskWidth);
    tooltip("Elements per side of the mask M (odd, at most MAX_MASK_WIDTH = 9); M lives in constant memory");
    ImGui::SetNextItemWidth(w);
    ImGui::InputInt(k.tiled ? "TILE_SIZE" : "block size", &d.tile);
    tooltip(k.tiled ? "Output elements per block and side; the input tile adds Mask_Width - 1 halo cells"
                    : "Threads per block (per side in 2D), one per output element");
}

/// The schedule combo and, for the random schedule, its seed.
void scheduleInputs(ScenarioForm& form, float w)
{
    ImGui::SetNextItemWidth(w);
    if (ImGui::BeginCombo("schedule", sim::scheduleName(form.schedule))) {
        for (sim::Schedule s : {sim::Schedule::InOrder, sim::Schedule::Reverse, sim::Schedule::Random})
            if (ImGui::Selectable(sim::scheduleName(s), s == form.schedule)) form.schedule = s;
        ImGui::EndCombo();
    }
    tooltip("Which warp runs ahead between barriers. The simulator groups the block's threads into warps of "
            "32 (thread index / 32) and runs one thread at a time until it reaches a barrier or ends: the "
            "lanes of a warp in lane order, the warps in this order. in-order: warp 0 first; reverse: the "
            "last warp first; random: a fresh shuffle of the warps from the seed at every barrier. With every "
            "barrier in place all three give the same P; with one dropped, the schedule decides which stale "
            "values are read. A block of at most 32 threads is a single warp, so there the schedule changes "
            "nothing.");
    if (form.schedule == sim::Schedule::Random) {
        ImGui::SetNextItemWidth(w);
        ImGui::InputScalar("schedule seed", ImGuiDataType_U64, &form.scheduleSeed);
        tooltip("Seed of the random warp order");
    }
}

void presetList(Frame& f)
{
    if (!f.loaded.presetsError.empty()) {
        colouredText(f.theme.palette.error, f.loaded.presetsError);
        return;
    }
    if (f.loaded.presets.empty()) {
        ImGui::TextDisabled("No lecture presets found in %s", sim::presetDirectory().c_str());
        return;
    }
    // The presets in the order of PMPP's chapters (the app sorts them, sim/teaching/lessons.hpp),
    // each with its section number before its title wrapped to the list's width; as many as
    // fit above the file row (at least two and a half rows, at most all of them): a list,
    // which scrolls when the panel is short.
    const ImGuiStyle& st = ImGui::GetStyle();
    const float number = ImGui::CalcTextSize("00.0 ").x;
    const float wrap = ImGui::GetContentRegionAvail().x - 2 * st.FramePadding.x - st.ScrollbarSize - number;
    std::vector<float> heights;
    float all = 0;
    for (const sim::Preset& p : f.loaded.presets) {
        heights.push_back(ImGui::CalcTextSize(p.title.c_str(), nullptr, false, wrap).y);
        all += heights.back() + st.ItemSpacing.y;
    }
    const float row = ImGui::GetTextLineHeightWithSpacing();
    const float pad = 2 * st.FramePadding.y;
    const float h = elasticHeight(std::min(all, 2.5f * row) + pad, all + pad,
                                  ImGui::GetFrameHeightWithSpacing() + st.ItemSpacing.y);
    if (ImGui::BeginListBox("##presets", ImVec2(-1, h))) {
        markScrollingList();
        for (size_t i = 0; i < f.loaded.presets.size(); ++i) {
            const sim::Preset& p = f.loaded.presets[i];
            const bool current = p.name == f.loaded.preset.name;
            const ImVec2 at = ImGui::GetCursorScreenPos();
            if (ImGui::Selectable(("##" + p.name).c_str(), current, 0, ImVec2(0, heights[i]))) f.requests.open = p.name;
            tooltip(p.name + ": " + describe(p.scenario) + (p.chapter.empty() ? "" : "\nPMPP sec. " + p.chapter) +
                    (p.summary.empty() ? "" : "\n" + p.summary));
            ImGui::GetWindowDrawList()->AddText(at, ImGui::GetColorU32(ImGuiCol_TextDisabled), p.chapter.c_str());
            ImGui::GetWindowDrawList()->AddText(ImGui::GetFont(), ImGui::GetFontSize(), ImVec2(at.x + number, at.y),
                                                ImGui::GetColorU32(ImGuiCol_Text), p.title.c_str(), nullptr, wrap);
        }
        ImGui::EndListBox();
    }
}

/// The panel; it keeps no state of its own.
struct ScenarioPanel final : Panel {
    void draw(Frame& f) override;
};

}  // namespace

void ScenarioPanel::draw(Frame& f)
{
    ScenarioForm& form = f.view.form;
    // The form shows the scenario being simulated while it simulates (a preset or file opened,
    // the sizes applied), else the one loaded; each once, so that what the user types stays.
    auto show = [&form](const sim::Scenario& s, sim::Schedule schedule, uint64_t seed) {
        form.draft = s;
        form.square = s.j == s.k && s.k == s.l;
        form.schedule = schedule;
        form.scheduleSeed = seed;
    };
    if (f.busy.simulating) {
        if (form.syncedRun != f.busy.simulatingRun) {
            show(f.busy.simulatingScenario, f.busy.simulatingSchedule, f.busy.simulatingScheduleSeed);
            form.syncedRun = f.busy.simulatingRun;
            form.syncedGeneration = ~0ull;   // the loaded one again once the run ends or is cancelled
        }
    } else if (f.loaded.sim && form.syncedGeneration != f.loaded.generation) {
        show(f.loaded.sim->scenario, f.loaded.preset.schedule, f.loaded.preset.scheduleSeed);
        form.syncedGeneration = f.loaded.generation;
    }
    if (beginPanel(f, id)) {
        sim::Scenario& d = form.draft;
        const float w = ImGui::GetFontSize() * 7;
        ImGui::SetNextItemWidth(ImGui::GetFontSize() * 12);
        if (ImGui::BeginCombo("kernel", d.kernel.c_str())) {
            for (const sim::KernelInfo& k : sim::kernelList()) {
                if (ImGui::Selectable(k.name, d.kernel == k.name)) {
                    d.kernel = k.name;
                    d.info = &k;
                    if (d.launch > sim::launchCount(k)) d.launch = 1;
                    // A tile the new kernel was not compiled for becomes its default tile.
                    if ((k.tiled && std::find(k.tiles.begin(), k.tiles.end(), d.tile) == k.tiles.end()) ||
                        (!k.tiled && d.tile > k.maxBlockEdge))
                        d.tile = k.defaultTile;
                }
                tooltip(k.summary);
            }
            ImGui::EndCombo();
        }
        const sim::KernelInfo* info = d.kernelInfo();
        if (info) tooltip(info->summary);
        if (info && sim::paramLimit(*info, sim::ParamId::Width))
            convInputs(form, *info);
        else
            sizeInputs(form, info);

        int b[2] = {static_cast<int>(d.block.x), static_cast<int>(d.block.y)};
        ImGui::SetNextItemWidth(w * 1.4f);
        if (ImGui::InputInt2("block (bx, by)", b)) {
            // Negative values stay visible as typed, and are refused on Apply.
            form.error = b[0] < 0 || b[1] < 0 ? "Block indices cannot be negative; got (" + std::to_string(b[0]) +
                                                    ", " + std::to_string(b[1]) + ")."
                                              : std::string();
            d.block.x = static_cast<unsigned>(std::max(0, b[0]));
            d.block.y = static_cast<unsigned>(std::max(0, b[1]));
        }
        tooltip("The block whose threads, shared memory and steps the views follow. Clicking a "
                "tile of P in Matrices selects it too.");
        // A row of several launches (PMPP sec. 11.6's hierarchical scan): which one is traced.
        if (info && sim::launchCount(*info) > 1) {
            ImGui::SetNextItemWidth(w * 1.4f);
            const std::string current = "launch " + std::to_string(d.launch) + " of " + std::to_string(sim::launchCount(*info));
            if (ImGui::BeginCombo("launch", current.c_str())) {
                for (int l = 1; l <= sim::launchCount(*info); ++l) {
                    const sim::Dim3 g = sim::launchShapeOf(d, l).grid;
                    const std::string item = "launch " + std::to_string(l) + ": " + std::to_string(g.count()) +
                                             (g.count() == 1 ? " block" : " blocks");
                    // A block outside the chosen launch's grid is refused on Apply, in a sentence.
                    if (ImGui::Selectable(item.c_str(), d.launch == l)) d.launch = l;
                }
                ImGui::EndCombo();
            }
            tooltip("This kernel is several launches, one after the other on the same arrays. The counters add "
                    "them all up; the steps, the scan network and the block follow this launch.");
        }
        ImGui::SetNextItemWidth(w * 1.4f);
        ImGui::InputScalar("input seed", ImGuiDataType_U64, &d.seed);
        tooltip("M and N are pseudo-random in [-1, 1), drawn from this seed (never zero)");
        scheduleInputs(form, w * 1.4f);

        const bool busy = f.busy.simulating;
        ImGui::BeginDisabled(busy);
        if (ImGui::Button("Apply", ImVec2(ImGui::GetFontSize() * 6, 0))) {
            std::string e = form.error.empty() ? sim::validate(d) : form.error;
            if (e.empty()) f.requests.load = presetFor(f.loaded, d, form.schedule, form.scheduleSeed);
            form.error = e;
        }
        ImGui::EndDisabled();
        tooltip("Simulate this scenario (every block, all counters) and trace the chosen block");
        if (busy) {
            ImGui::SameLine();
            ImGui::Text("simulating... %.1f s", f.busy.simulatingSeconds);
            tooltip("The simulation of the sizes above runs on a worker thread; the other panels keep showing " +
                    sim::problemWords(f.loaded.sim ? f.loaded.sim->scenario : f.busy.simulatingScenario) +
                    " until it ends.");
        }
        if (!form.error.empty()) colouredText(f.theme.palette.error, form.error);

        ImGui::Separator();
        ImGui::PushFont(f.theme.fonts.bold);
        ImGui::TextUnformatted("Lecture presets");
        ImGui::PopFont();
        presetList(f);
        ImGui::SetNextItemWidth(-ImGui::GetFontSize() * 4);
        const bool enter = ImGui::InputTextWithHint("##file", "scenario file path", &form.file,
                                                    ImGuiInputTextFlags_EnterReturnsTrue);
        tooltip("A scenario file (TOML: kernel, width or j/k/l, tile, seed, block, step, narration)");
        ImGui::SameLine();
        if (ImGui::Button("Open") || enter) f.requests.open = form.file;
    }
    ImGui::End();
}

std::unique_ptr<Panel> makeScenarioPanel() { return std::make_unique<ScenarioPanel>(); }

}  // namespace ts::app
