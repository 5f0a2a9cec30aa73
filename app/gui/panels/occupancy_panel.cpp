// Occupancy (PMPP sec. 4.7): how many blocks one SM runs at once for a block size, registers per
// thread and shared memory per block on a profile's SM (sim/teaching/occupancy.hpp), or for the loaded
// kernel as compiled ("this kernel": registers and static shared memory from the build's
// ptxas report). One bar per resource shows how many blocks it allows and which one limits;
// three charts show the active warps per SM against registers per thread, block size and
// shared memory per block, with the cliffs marked and the current point drawn.
#include <imgui.h>

#include <algorithm>
#include <cfloat>
#include <cstdio>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "chart_labels.hpp"
#include "figure_notes.hpp"
#include "kernel_resources.hpp"
#include "layout.hpp"
#include "panels.hpp"
#include "widgets.hpp"

namespace ts::app {
namespace {

/// The profile the form names: a built-in one, or `current` from the device's limits.
/// Empty with `why` set when there is no such profile here.
std::optional<sim::OccupancyProfile> profileOf(const Frame& f, std::string& why)
{
    const std::string& name = f.view.occupancy.profile;
    if (const sim::OccupancyProfile* p = sim::findOccupancyProfile(name)) return *p;
    if (name != "current") {
        why = sim::unknownProfileMessage(name);
        return std::nullopt;
    }
    if (!f.loaded.deviceLimits) {
        why = f.loaded.deviceLimitsError.empty() ? "Looking for a CUDA device..."
                                                 : "No current profile: " + f.loaded.deviceLimitsError;
        return std::nullopt;
    }
    try {
        return sim::currentProfile(*f.loaded.deviceLimits);
    } catch (const std::exception& e) {
        why = e.what();
        return std::nullopt;
    }
}

/// Active warps per SM for each x of a sweep, and where they drop (the cliffs).
struct Series {
    std::vector<int> x;
    std::vector<int> warps;
    std::vector<int> blocks;
};

/// Sweeps one input over `xs`, the others as in `in`.
Series sweep(const sim::OccupancyProfile& p, const sim::OccupancyInput& in, const std::vector<int>& xs,
             const std::function<void(sim::OccupancyInput&, int)>& set)
{
    Series s;
    for (int x : xs) {
        sim::OccupancyInput q = in;
        set(q, x);
        if (!sim::checkOccupancyInput(p, q).empty()) continue;
        const sim::Occupancy o = sim::computeOccupancy(p, q);
        s.x.push_back(x);
        s.warps.push_back(o.warpsPerSm);
        s.blocks.push_back(o.blocksPerSm);
    }
    return s;
}

/// The three sweeps of a profile and input, rebuilt when either changes.
struct Charts {
    std::string profile;
    int threads = -1, regs = -1, smem = -1;
    Series regsSeries, threadsSeries, smemSeries;
};

/// `c`, made again when the profile or the input has changed.
const Charts& charts(const sim::OccupancyProfile& p, const sim::OccupancyInput& in, Charts& c)
{
    if (c.profile == p.name && c.threads == in.blockThreads && c.regs == in.regsPerThread && c.smem == in.smemPerBlock)
        return c;
    c = Charts{p.name, in.blockThreads, in.regsPerThread, in.smemPerBlock, {}, {}, {}};
    // Registers: from 1 to the first count that leaves no block (and past the current one).
    std::vector<int> xs;
    int last = p.maxRegsPerThread;
    for (int r = 1; r <= p.maxRegsPerThread; ++r) {
        sim::OccupancyInput q = in;
        q.regsPerThread = r;
        if (sim::checkOccupancyInput(p, q).empty() && sim::computeOccupancy(p, q).blocksPerSm == 0) {
            last = r;
            break;
        }
    }
    last = std::min(p.maxRegsPerThread, std::max(last, in.regsPerThread + 8));
    for (int r = 1; r <= last; ++r) xs.push_back(r);
    c.regsSeries = sweep(p, in, xs, [](sim::OccupancyInput& q, int x) { q.regsPerThread = x; });
    xs.clear();
    for (int t = p.warpSize; t <= p.maxThreadsPerBlock; t += p.warpSize) xs.push_back(t);
    c.threadsSeries = sweep(p, in, xs, [](sim::OccupancyInput& q, int x) { q.blockThreads = x; });
    xs.clear();
    const int step = std::max(p.smemAllocUnit, (p.smemPerBlockOptin / 512 + p.smemAllocUnit - 1) / p.smemAllocUnit * p.smemAllocUnit);
    for (int b = 0; b <= p.smemPerBlockOptin; b += step) xs.push_back(b);
    c.smemSeries = sweep(p, in, xs, [](sim::OccupancyInput& q, int x) { q.smemPerBlock = x; });
    return c;
}

/// A step chart of active warps per SM over `s`, the cliffs (drops) marked, the last one at
/// or before `current` and the next one after it labelled, and the current point drawn.
void chart(const Frame& f, const char* id, const char* xLabel, const Series& s, int current, int currentWarps,
           int maxWarps, float height, bool heading = true)
{
    const Palette& pal = f.theme.palette;
    const ImVec2 top = ImGui::GetCursorScreenPos();
    if (heading) {
        ImGui::PushFont(f.theme.fonts.bold);
        ImGui::TextWrapped("%s", id);
        ImGui::PopFont();
    }
    if (s.x.size() < 2) {
        ImGui::TextDisabled("(no valid values to plot)");
        return;
    }
    ImDrawList* dl = ImGui::GetWindowDrawList();
    const float lh = ImGui::GetTextLineHeight();
    const ImVec2 o = ImGui::GetCursorScreenPos();
    const float w = ImGui::GetContentRegionAvail().x;
    const float left = ImGui::CalcTextSize("0000").x + 6, bottom = lh + 4;
    const ImVec2 a(o.x + left, o.y + 4), b(o.x + w - 8, o.y + height - bottom);
    ImGui::InvisibleButton(id, ImVec2(w, height));
    const bool hovered = ImGui::IsItemHovered();
    noteFigure(top, ImVec2(o.x + w, o.y + height));
    const float x0 = static_cast<float>(s.x.front()), x1 = static_cast<float>(s.x.back());
    auto X = [&](float x) { return a.x + (x - x0) / (x1 - x0) * (b.x - a.x); };
    auto Y = [&](float y) { return b.y - y / static_cast<float>(maxWarps) * (b.y - a.y); };
    dl->AddRectFilled(a, b, f.theme.palette.chartBg, 3);
    for (int q = 0; q <= 4; ++q) {
        const float y = static_cast<float>(maxWarps) * q / 4;
        dl->AddLine(ImVec2(a.x, Y(y)), ImVec2(b.x, Y(y)), f.theme.palette.chartLine);
        const std::string t = std::to_string(static_cast<int>(y));
        dl->AddText(ImVec2(a.x - ImGui::CalcTextSize(t.c_str()).x - 4, Y(y) - lh * 0.5f), pal.dimText, t.c_str());
    }
    // Cliffs: every drop as a faint line; the one the current point last fell from and the
    // next one after it in full.
    int prev = -1, next = -1;
    for (size_t i = 1; i < s.x.size(); ++i) {
        if (s.warps[i] >= s.warps[i - 1]) continue;
        const float xc = X(static_cast<float>(s.x[i]));
        dl->AddLine(ImVec2(xc, a.y), ImVec2(xc, b.y), (pal.error & 0x00FFFFFF) | 0x50000000u, 1.0f);
        if (s.x[i] <= current) prev = static_cast<int>(i);
        else if (next < 0) next = static_cast<int>(i);
    }
    // The step line, the two cliffs in full and the current point; then their labels, placed
    // clear of the line, the cliffs and each other (chart_labels.hpp) so that no label hides
    // the cliff it names.
    LabelProblem prob;
    prob.plot = {a.x, a.y, b.x, b.y};
    prob.gap = scaled(3);
    prob.step = std::max(2.0f, lh / 4);
    for (size_t i = 1; i < s.x.size(); ++i) {
        const float xa = X(static_cast<float>(s.x[i - 1])), xb = X(static_cast<float>(s.x[i]));
        const float ya = Y(static_cast<float>(s.warps[i - 1])), yb = Y(static_cast<float>(s.warps[i]));
        prob.lines.push_back({xa, ya, xb, ya});
        if (ya != yb) prob.lines.push_back({xb, ya, xb, yb});
    }
    struct Text {
        std::string text;
        ImU32 colour;
    };
    std::vector<Text> texts;
    auto cliffLabel = [&](int i, ImU32 colour, bool leftFirst) {
        const float xc = X(static_cast<float>(s.x[i]));
        prob.lines.push_back({xc, a.y, xc, b.y});
        char t[96];
        std::snprintf(t, sizeof t, "cliff at %d: %d -> %d warps", s.x[i], s.warps[i - 1], s.warps[i]);
        LabelRequest q;
        q.width = ImGui::CalcTextSize(t).x + 2 * scaled(2);
        q.height = lh + 2 * scaled(1);
        q.ax = xc;
        q.ay = b.y - q.height / 2 - prob.gap;
        const std::pair<float, float> left{xc - prob.gap - q.width, b.y - q.height - prob.gap},
            right{xc + prob.gap, b.y - q.height - prob.gap};
        const std::pair<float, float> leftHigh{left.first, left.second - q.height - prob.gap},
            rightHigh{right.first, right.second - q.height - prob.gap};
        q.preferred = leftFirst ? std::vector<std::pair<float, float>>{left, leftHigh, right, rightHigh}
                                : std::vector<std::pair<float, float>>{right, rightHigh, left, leftHigh};
        prob.labels.push_back(q);
        texts.push_back({t, colour});
    };
    // Only a cliff the current point still sits below (no rise since) is the one it fell from.
    if (prev >= 0 && s.warps[prev] == currentWarps) {
        const float xc = X(static_cast<float>(s.x[prev]));
        dl->AddLine(ImVec2(xc, a.y), ImVec2(xc, b.y), (pal.error & 0x00FFFFFF) | 0xA0000000u, std::max(1.5f, scaled(1.5f)));
        cliffLabel(prev, pal.error, true);   // opaque: 4.5:1 on the chart
    }
    for (size_t i = 1; i < s.x.size(); ++i) {
        const float xa = X(static_cast<float>(s.x[i - 1])), xb = X(static_cast<float>(s.x[i]));
        dl->AddLine(ImVec2(xa, Y(static_cast<float>(s.warps[i - 1]))), ImVec2(xb, Y(static_cast<float>(s.warps[i - 1]))),
                    pal.inShared, std::max(2.5f, scaled(2.5f)));
        dl->AddLine(ImVec2(xb, Y(static_cast<float>(s.warps[i - 1]))), ImVec2(xb, Y(static_cast<float>(s.warps[i]))),
                    pal.inShared, std::max(2.5f, scaled(2.5f)));
    }
    if (next >= 0) {
        const float xc = X(static_cast<float>(s.x[next]));
        dl->AddLine(ImVec2(xc, a.y), ImVec2(xc, b.y), pal.error, std::max(2.0f, scaled(2)));
        cliffLabel(next, pal.error, false);
    }
    const float dot = scaled(6);
    if (current >= s.x.front() && current <= s.x.back()) {
        const ImVec2 pt(X(static_cast<float>(current)), Y(static_cast<float>(currentWarps)));
        dl->AddCircleFilled(pt, dot, pal.readNow);
        dl->AddCircle(pt, dot, IM_COL32(0, 0, 0, 255), 0, std::max(1.5f, scaled(1.5f)));
        prob.marks.push_back({pt.x - dot, pt.y - dot, pt.x + dot, pt.y + dot});
        char t[64];
        std::snprintf(t, sizeof t, "%d warps", currentWarps);
        LabelRequest q;
        q.width = ImGui::CalcTextSize(t).x + 2 * scaled(2);
        q.height = lh + 2 * scaled(1);
        q.ax = pt.x;
        q.ay = pt.y;
        q.radius = dot;
        // Above and right of the point, off the line through it.
        q.preferred = {{pt.x + dot + prob.gap, pt.y - dot - prob.gap - q.height}, {pt.x - dot - prob.gap - q.width, pt.y - dot - prob.gap - q.height},
                       {pt.x + dot + prob.gap, pt.y + dot + prob.gap}};
        prob.labels.push_back(q);
        texts.push_back({t, pal.stepText});
    }
    const std::vector<LabelPlace> places = placeLabels(prob);
    for (size_t i = 0; i < places.size(); ++i) {
        if (!places[i].placed) continue;
        const Box& q = places[i].box;
        if (places[i].leader)
            dl->AddLine(ImVec2(places[i].leaderLine.x0, places[i].leaderLine.y0),
                        ImVec2(places[i].leaderLine.x1, places[i].leaderLine.y1), pal.dimText, std::max(1.0f, scaled(1)));
        dl->AddRectFilled(ImVec2(q.x0, q.y0), ImVec2(q.x1, q.y1), (pal.chartBg & 0x00FFFFFF) | 0xC0000000u, scaled(2));
        dl->AddText(ImVec2(q.x0 + scaled(2), q.y0 + scaled(1)), texts[i].colour, texts[i].text.c_str());
        noteChartLabel(ImVec2(q.x0, q.y0), ImVec2(q.x1, q.y1), texts[i].text);
    }
    char range[96];
    std::snprintf(range, sizeof range, "%d", s.x.front());
    dl->AddText(ImVec2(a.x, b.y + 2), pal.dimText, range);
    std::snprintf(range, sizeof range, "%s  %d", xLabel, s.x.back());
    dl->AddText(ImVec2(b.x - ImGui::CalcTextSize(range).x, b.y + 2), pal.dimText, range);
    if (hovered) {
        const float mx = ImGui::GetIO().MousePos.x;
        size_t i = 0;
        while (i + 1 < s.x.size() && X(static_cast<float>(s.x[i + 1])) <= mx) ++i;
        ImGui::SetTooltip("%s %d: %d blocks, %d warps per SM", xLabel, s.x[i], s.blocks[i], s.warps[i]);
    }
}

/// The words after a resource's bar: how many blocks it allows, and whether it limits.
std::string barLabel(std::optional<int> blocks, int scale, bool limiter, bool tie)
{
    if (!blocks) return "no limit";
    std::string label =
        std::to_string(*blocks) + (*blocks == 1 ? " block" : " blocks") + (*blocks > scale ? " (off the bar)" : "");
    if (limiter) label += "  <- limits";
    else if (tie) label += "  (also at the limit)";
    return label;
}

/// One resource's bar, `w` pixels long: a segment per block it allows (up to `scale`), the
/// limiter in full colour, `tie` when another resource allows as few; `detail` says what the
/// block takes and the SM has.
void bar(const Frame& f, const char* name, std::optional<int> blocks, int scale, bool limiter, bool tie,
         const std::string& detail, float w)
{
    const Palette& pal = f.theme.palette;
    const float lh = ImGui::GetTextLineHeight();
    const float nameW = ImGui::CalcTextSize("shared memory").x + scaled(12);
    ImGui::TextUnformatted(name);
    ImGui::SameLine(nameW);
    const ImVec2 p = ImGui::GetCursorScreenPos();
    const float h = lh + scaled(4);
    ImDrawList* dl = ImGui::GetWindowDrawList();
    dl->AddRectFilled(p, ImVec2(p.x + w, p.y + h), f.theme.palette.chartBg, 3);
    const std::string label = barLabel(blocks, scale, limiter, tie);
    if (blocks) {
        const ImU32 c = limiter ? pal.warnText : pal.inShared;   // both 3:1 on chartBg
        const int n = std::min(*blocks, scale);
        const float seg = w / static_cast<float>(scale);
        for (int i = 0; i < n; ++i)
            dl->AddRectFilled(ImVec2(p.x + i * seg + 1, p.y + 2), ImVec2(p.x + (i + 1) * seg - 1, p.y + h - 2), c, 2);
    }
    ImGui::Dummy(ImVec2(w, h));
    noteFigure(ImVec2(p.x - nameW + ImGui::GetStyle().WindowPadding.x, p.y), ImVec2(p.x + w, p.y + h));
    ImGui::SameLine();
    if (limiter) ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(pal.warnText), "%s", label.c_str());
    else ImGui::TextUnformatted(label.c_str());
    tooltip(detail);
}

bool takeKernel(Frame& f, const sim::OccupancyProfile* p, std::string& kernelNote);
void sliders(Frame& f, const sim::OccupancyProfile* p);

/// Profile, "this kernel" and the three inputs.
void inputs(Frame& f, const sim::OccupancyProfile* p, std::string& kernelNote)
{
    OccupancyForm& form = f.view.occupancy;
    const float w = ImGui::GetFontSize() * 9;
    ImGui::SetNextItemWidth(w);
    if (ImGui::BeginCombo("profile", form.profile.c_str())) {
        for (const sim::OccupancyProfile& q : sim::occupancyProfiles()) {
            if (ImGui::Selectable(q.name.c_str(), q.name == form.profile)) form.profile = q.name;
            tooltip(q.summary);
        }
        if (ImGui::Selectable("current", form.profile == "current")) form.profile = "current";
        tooltip(f.loaded.deviceLimits ? "The GPU in this machine: " + f.loaded.deviceLimits->name
                                      : "The GPU in this machine (none found: " + f.loaded.deviceLimitsError + ")");
        ImGui::EndCombo();
    }
    if (p) tooltip(p->summary);
    ImGui::SameLine(0, scaled(20));
    ImGui::Checkbox("this kernel", &form.thisKernel);
    const bool taken = takeKernel(f, p, kernelNote);
    // Where the figures were found, the note says where from in the tooltip (the sliders
    // show them); where not, the panel says why under the form.
    tooltip(std::string("Take the block size of the loaded scenario's kernel and the registers per thread and static "
                        "shared memory per block that ptxas gave it when this app was built (nvcc -Xptxas -v).") +
            (taken ? "\n\n" + kernelNote : std::string()));
    if (taken) kernelNote.clear();
    sliders(f, p);
}

/// With "this kernel" on: the loaded kernel's block size, and the registers and static
/// shared memory ptxas gave it, into the form; `kernelNote` says where they come from or
/// why they are unknown. True where the kernel's figures were taken.
bool takeKernel(Frame& f, const sim::OccupancyProfile* p, std::string& kernelNote)
{
    OccupancyForm& form = f.view.occupancy;
    const sim::Simulation* s = f.loaded.sim.get();
    if (form.thisKernel && s && p) {
        form.input.blockThreads = static_cast<int>(sim::launchShape(s->scenario).block.count());
        const KernelResourceTable& table = kernelResourceTable();
        // Textbook: the figures of the newest architecture compiled (the textbook SM has none).
        std::string arch = p->ccMajor ? archName(p->ccMajor, p->ccMinor) : std::string();
        if (arch.empty())
            for (const char* a : {"sm_90", "sm_89", "sm_86", "sm_80", "sm_75"})
                if (findKernelResources(s->scenario, a)) {
                    arch = a;
                    break;
                }
        const KernelResources* k = arch.empty() ? nullptr : findKernelResources(s->scenario, arch);
        if (!table.available) {
            kernelNote = std::string("Registers and shared memory of ") + s->scenario.kernel + ": " + table.why + ".";
        } else if (!k) {
            kernelNote = s->scenario.kernel + " (tile " + std::to_string(s->scenario.tile) + ") was not compiled for " +
                         (arch.empty() ? p->name : arch) + " in this build, so its registers are unknown here.";
        } else {
            form.input.regsPerThread = k->registers;
            form.input.smemPerBlock = k->staticSmem;
            kernelNote = kernelDisplayName(k->mangled) + " for " + k->arch + ": " + std::to_string(k->registers) +
                         " registers, " + std::to_string(k->staticSmem) + " B static shared memory (ptxas -v).";
            return true;
        }
    }
    return false;
}

/// The three inputs' sliders (greyed while "this kernel" sets them).
void sliders(Frame& f, const sim::OccupancyProfile* p)
{
    OccupancyForm& form = f.view.occupancy;
    const float w = ImGui::GetFontSize() * 9;
    ImGui::BeginDisabled(form.thisKernel);
    const int maxThreads = p ? p->maxThreadsPerBlock : 1024, maxRegs = p ? p->maxRegsPerThread : 255;
    const int maxSmem = p ? p->smemPerBlockOptin : 48 * 1024;
    ImGui::SetNextItemWidth(w * 1.6f);
    ImGui::SliderInt("threads per block", &form.input.blockThreads, 1, maxThreads);
    tooltip("Threads per block (blockDim.x * blockDim.y * blockDim.z); an SM takes them a warp at a time. "
            "Ctrl+click to type a value.");
    ImGui::SetNextItemWidth(w * 1.6f);
    ImGui::SliderInt("registers per thread", &form.input.regsPerThread, 0, maxRegs);
    tooltip("Registers each thread uses (ptxas -v reports them); 0: not counted");
    ImGui::SetNextItemWidth(w * 1.6f);
    ImGui::SliderInt("shared memory per block", &form.input.smemPerBlock, 0, maxSmem, "%d B");
    tooltip("Bytes of shared memory per block, static and dynamic together (Mds and Nds of TILE_WIDTH 16: "
            "2 x 16 x 16 x 4 B = 2048 B)");
    ImGui::EndDisabled();
}

void result(const Frame& f, const sim::OccupancyProfile& p, const sim::Occupancy& o, const sim::OccupancyInput& in)
{
    const Palette& pal = f.theme.palette;
    // The sentence heads the bars (it says what they add up to): the checks count it with them.
    const ImVec2 head = ImGui::GetCursorScreenPos();
    noteFigure(head, ImVec2(head.x + ImGui::GetContentRegionAvail().x, head.y + ImGui::GetTextLineHeight()));
    ImGui::PushFont(f.theme.fonts.bold);
    // The whole sentence where it fits on one line, else without the threads (in the tooltip).
    char line[160];
    std::snprintf(line, sizeof line, "%d blocks per SM = %d threads = %d warps: occupancy %.0f%%", o.blocksPerSm,
                  o.threadsPerSm, o.warpsPerSm, o.occupancy * 100);
    if (ImGui::CalcTextSize(line).x > ImGui::GetContentRegionAvail().x)
        std::snprintf(line, sizeof line, "%d blocks = %d warps per SM: occupancy %.0f%%", o.blocksPerSm, o.warpsPerSm,
                      o.occupancy * 100);
    ImGui::TextWrapped("%s", line);
    ImGui::PopFont();
    tooltip(std::to_string(o.blocksPerSm) + " blocks per SM = " + std::to_string(o.threadsPerSm) + " threads = " +
            std::to_string(o.warpsPerSm) + " warps. Occupancy: active warps over the " +
            std::to_string(p.maxWarpsPerSm()) + " warp slots of the SM");
    if (o.blocksPerSm == 0) colouredText(pal.error, o.why);
    const sim::OccupancyLimits& l = o.limits;
    int scale = p.maxBlocksPerSm;
    for (std::optional<int> v : {l.registers, l.sharedMemory, std::optional<int>(l.threads)})
        if (v) scale = std::max(scale, std::min(*v, 2 * p.maxBlocksPerSm));
    const std::string perBlock = p.regAllocation == sim::RegisterAllocation::PerThread
                                     ? std::to_string(in.blockThreads) + " threads x " + std::to_string(in.regsPerThread) +
                                           " = " + std::to_string(o.regsAllocatedPerBlock)
                                     : std::to_string(o.warpsPerBlock) + " warps x 32 x " + std::to_string(in.regsPerThread) +
                                           ", rounded up per warp to units of " + std::to_string(p.regAllocUnit) +
                                           ": " + std::to_string(o.regsAllocatedPerBlock);
    auto at = [&](std::optional<int> v) { return v && *v == o.blocksPerSm; };
    const bool limits[] = {o.blocksPerSm > 0 && o.limiter == sim::Limiter::Registers,
                           o.blocksPerSm > 0 && o.limiter == sim::Limiter::SharedMemory,
                           o.blocksPerSm > 0 && o.limiter == sim::Limiter::Threads,
                           o.blocksPerSm > 0 && o.limiter == sim::Limiter::Blocks};
    const std::optional<int> allows[] = {l.registers, l.sharedMemory, std::optional<int>(l.threads), l.blocks};
    // The bars are as long as the names and the longest label leave room for (at most 45%).
    float label = 0;
    for (int i = 0; i < 4; ++i)
        label = std::max(label, ImGui::CalcTextSize(barLabel(allows[i], scale, limits[i], at(allows[i])).c_str()).x);
    const float avail = ImGui::GetContentRegionAvail().x;
    const float nameW = ImGui::CalcTextSize("shared memory").x + scaled(12);
    const float w = std::max(scaled(40), std::min(avail * 0.45f, avail - nameW - label - ImGui::GetStyle().ItemSpacing.x - 2));
    bar(f, "registers", l.registers, scale, limits[0], at(l.registers),
        "A block takes " + perBlock + " registers; the SM has " + std::to_string(p.regsPerSm) + ".", w);
    bar(f, "shared memory", l.sharedMemory, scale, limits[1], at(l.sharedMemory),
        "A block takes " + std::to_string(o.smemAllocatedPerBlock) + " B (with the per-block reserve and rounding); the SM has " +
            std::to_string(o.smemPerSmConfigured) + " B in the carve-out used.", w);
    bar(f, "threads", l.threads, scale, limits[2], at(l.threads),
        "A block takes " + std::to_string(o.warpsPerBlock) + " warps of thread slots; the SM has " +
            std::to_string(p.maxThreadsPerSm) + " threads (" + std::to_string(p.maxWarpsPerSm()) + " warps).", w);
    bar(f, "blocks", l.blocks, scale, limits[3], at(l.blocks),
        "The SM has " + std::to_string(p.maxBlocksPerSm) + " block slots.", w);
}

/// The panel; it keeps the three sweeps of the profile and input shown.
struct OccupancyPanel final : Panel {
    void draw(Frame& f) override;

private:
    Charts charts_;
};

}  // namespace

void OccupancyPanel::draw(Frame& f)
{
    if (f.view.focusOccupancy > 0) {
        ImGui::SetNextWindowFocus();
        --f.view.focusOccupancy;
    }
    if (beginPanel(f, id)) {
        // A slide leaves the general sentence to the lecturer (and to this tooltip).
        const char* intro = "An SM divides its registers, shared memory, thread slots and block slots among the blocks "
                            "it runs; the scarcest decides how many fit (PMPP sec. 4.7). Textbook bound, not measured.";
        std::string why, kernelNote;
        const std::optional<sim::OccupancyProfile> p = profileOf(f, why);
        const sim::OccupancyInput& in = f.view.occupancy.input;
        if (f.view.presentation) {
            // On a slide the chart is the picture: the inputs fold into a header that says
            // them in one line (open it to change them).
            const OccupancyForm& form = f.view.occupancy;
            std::string unusedNote;
            takeKernel(f, p ? &*p : nullptr, unusedNote);   // the summary says this frame's figures
            const std::string summary = form.profile + (form.thisKernel ? ", this kernel: " : ": ") +
                                        std::to_string(in.blockThreads) + " threads, " +
                                        std::to_string(in.regsPerThread) + " registers, " +
                                        std::to_string(in.smemPerBlock) + " B shared per block###inputs";
            if (ImGui::CollapsingHeader(summary.c_str())) inputs(f, p ? &*p : nullptr, kernelNote);
            else takeKernel(f, p ? &*p : nullptr, kernelNote);
            tooltip(intro);
        } else {
            // At the desk the general sentence sits behind a "(?)" beside the form, so that
            // the bars and charts keep the panel's room.
            inputs(f, p ? &*p : nullptr, kernelNote);
            ImGui::SameLine();
            colouredText(f.theme.palette.dimText, "(?)");
            tooltip(intro);
            if (!kernelNote.empty()) colouredText(f.theme.palette.dimText, kernelNote);
        }
        const std::string bad = p ? sim::checkOccupancyInput(*p, in) : why;
        ImGui::Separator();
        if (!bad.empty()) {
            colouredText(f.theme.palette.error, bad);
        } else {
            const sim::Occupancy o = sim::computeOccupancy(*p, in);
            result(f, *p, o, in);
            ImGui::Separator();
            const Charts& c = charts(*p, in, charts_);
            // The three charts share what the panel has left, each at least 110 px (at 1x), as
            // tall as the room allows; where they do not fit, tabs show one at a time.
            const float spacing = ImGui::GetStyle().ItemSpacing.y;
            const float heads = 3 * (ImGui::GetTextLineHeightWithSpacing() + spacing);
            const float tabs = ImGui::GetFrameHeightWithSpacing() + spacing;
            const float all = heads + 3 * scaled(110);
            const float room = elasticHeight(std::min(all, tabs + scaled(90)), FLT_MAX);
            const int maxWarps = p->maxWarpsPerSm();
            if (room >= all) {
                const float h = (room - heads) / 3;
                chart(f, "Active warps per SM against registers per thread", "registers", c.regsSeries, in.regsPerThread,
                      o.warpsPerSm, maxWarps, h);
                chart(f, "... against threads per block", "threads", c.threadsSeries, in.blockThreads, o.warpsPerSm,
                      maxWarps, h);
                chart(f, "... against shared memory per block", "bytes", c.smemSeries, in.smemPerBlock, o.warpsPerSm,
                      maxWarps, h);
            } else if (ImGui::BeginTabBar("charts")) {
                const float h = room - tabs;
                if (ImGui::BeginTabItem("warps against registers")) {
                    chart(f, "regs", "registers per thread", c.regsSeries, in.regsPerThread, o.warpsPerSm, maxWarps, h, false);
                    ImGui::EndTabItem();
                }
                tooltip("Active warps per SM against registers per thread");
                if (ImGui::BeginTabItem("threads")) {
                    chart(f, "threads", "threads per block", c.threadsSeries, in.blockThreads, o.warpsPerSm, maxWarps, h,
                          false);
                    ImGui::EndTabItem();
                }
                tooltip("Active warps per SM against threads per block");
                if (ImGui::BeginTabItem("shared memory")) {
                    chart(f, "smem", "bytes per block", c.smemSeries, in.smemPerBlock, o.warpsPerSm, maxWarps, h, false);
                    ImGui::EndTabItem();
                }
                tooltip("Active warps per SM against shared memory per block");
                ImGui::EndTabBar();
            }
        }
    }
    ImGui::End();
}

std::unique_ptr<Panel> makeOccupancyPanel() { return std::make_unique<OccupancyPanel>(); }

}  // namespace ts::app
