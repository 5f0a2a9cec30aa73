#include "ladder_view.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <iterator>
#include <vector>

#include "sim/catalogue/kernel_info.hpp"
#include "sim/teaching/occupancy.hpp"
#include "sim/catalogue/kernel_registry.hpp"
#include "sim/teaching/roofline.hpp"
#include "theme.hpp"
#include "widgets.hpp"

namespace ts::app {

std::string thousands(double v, int decimals)
{
    char b[48];
    std::snprintf(b, sizeof b, "%.*f", decimals, v);
    const std::string s = b;
    const size_t dot = s.find('.');
    const size_t whole = dot == std::string::npos ? s.size() : dot;
    std::string out;
    for (size_t i = 0; i < s.size(); ++i) {
        if (i < whole && i > 0 && s[i - 1] != '-' && (whole - i) % 3 == 0) out += kGroupSeparator;
        out += s[i];
    }
    return out;
}

std::string groupedNoBreak(const std::string& text)
{
    std::string out;
    for (size_t i = 0; i < text.size(); ++i) {
        const bool digitBefore = i > 0 && std::isdigit(static_cast<unsigned char>(text[i - 1]));
        const bool threeAfter = i + 3 < text.size() + 0 && std::isdigit(static_cast<unsigned char>(text[i + 1])) &&
                                std::isdigit(static_cast<unsigned char>(text[i + 2])) &&
                                std::isdigit(static_cast<unsigned char>(text[i + 3])) &&
                                (i + 4 >= text.size() || !std::isdigit(static_cast<unsigned char>(text[i + 4])));
        if (text[i] == ',' && digitBefore && threeAfter) out += kGroupSeparator;
        else out += text[i];
    }
    return out;
}

std::string compactCount(uint64_t v)
{
    char b[32];
    if (v < 10000) std::snprintf(b, sizeof b, "%llu", static_cast<unsigned long long>(v));
    else if (v < 1000000) std::snprintf(b, sizeof b, "%.0fk", v / 1e3);
    else std::snprintf(b, sizeof b, "%.1fM", v / 1e6);
    return b;
}

const sim::Roofline* RooflineSource::get(const Loaded& loaded)
{
    if (!loaded.ladder) return nullptr;
    if (built_ && generation_ == loaded.resultsGeneration && model_ == loaded.ladder.get()) return &roofline_;
    generation_ = loaded.resultsGeneration;
    model_ = loaded.ladder.get();
    roofline_ = loaded.results ? sim::resultsRoofline(*loaded.results, loaded.ladder->counts) : loaded.ladder->textbook;
    built_ = true;
    return &roofline_;
}

std::string resultsCaption(const Loaded& loaded)
{
    return loaded.results ? loaded.results->measuredOn() : "textbook A100 profile (PMPP)";
}

KernelMark kernelMark(const std::string& kernel, const Palette& pal)
{
    // The chart background's lightness picks the colours (each 3:1 or more against it).
    const ImVec4 bg = ImGui::ColorConvertU32ToFloat4(pal.chartBg);
    const bool light = 0.2126f * bg.x + 0.7152f * bg.y + 0.0722f * bg.z > 0.5f;
    // Okabe-Ito's hues (and white) on the dark theme; on the light one darker versions, the
    // second kernel of a shape much darker than the first, so that the pair differs in grey.
    // The rungs take the marks in the ladder's order (sim::kLadderRungs), so a rung added to
    // the registry's ladder gets the next mark; cuBLAS has its own.
    struct Entry {
        MarkShape shape;
        ImU32 dark, light;
    };
    static const Entry rungs[] = {
        {MarkShape::Circle, IM_COL32(213, 94, 0, 255), IM_COL32(200, 80, 0, 255)},
        {MarkShape::Square, IM_COL32(86, 180, 233, 255), IM_COL32(0, 125, 195, 255)},
        {MarkShape::Diamond, IM_COL32(230, 159, 0, 255), IM_COL32(165, 100, 0, 255)},
        {MarkShape::TriangleUp, IM_COL32(204, 121, 167, 255), IM_COL32(170, 70, 130, 255)},
        {MarkShape::TriangleDown, IM_COL32(60, 150, 220, 255), IM_COL32(0, 70, 140, 255)},
        {MarkShape::Plus, IM_COL32(225, 228, 235, 255), IM_COL32(30, 30, 30, 255)},
        {MarkShape::Circle, IM_COL32(86, 180, 233, 255), IM_COL32(0, 95, 95, 255)},
        {MarkShape::Square, IM_COL32(213, 94, 0, 255), IM_COL32(140, 40, 0, 255)},
        {MarkShape::Diamond, IM_COL32(204, 121, 167, 255), IM_COL32(110, 30, 90, 255)},
        {MarkShape::TriangleUp, IM_COL32(239, 241, 89, 255), IM_COL32(90, 85, 0, 255)},
    };
    static const Entry cublas = {MarkShape::Star, IM_COL32(0, 158, 115, 255), IM_COL32(0, 125, 88, 255)};
    if (kernel == "cublas") return {cublas.shape, light ? cublas.light : cublas.dark};
    const size_t count = std::size(sim::kLadderRungs), marks = std::size(rungs);
    for (size_t i = 0; i < count; ++i)
        if (kernel == sim::kLadderRungs[i]) {
            const Entry& e = rungs[i % marks];
            return {e.shape, light ? e.light : e.dark};
        }
    return {MarkShape::Circle, pal.noOutput};
}

ImU32 kernelColour(const std::string& kernel, const Palette& pal) { return kernelMark(kernel, pal).colour; }

void drawMark(ImDrawList* dl, ImVec2 c, float r, MarkShape shape, ImU32 colour, bool filled, ImU32 edge, float thickness)
{
    // The outline of the shape, clockwise, sized so that the shapes look about as large.
    std::vector<ImVec2> v;
    auto at = [&](float dx, float dy) { v.push_back(ImVec2(c.x + dx, c.y + dy)); };
    switch (shape) {
    case MarkShape::Circle:
        for (int i = 0; i < 20; ++i) at(r * std::cos(i * 0.31416f), r * std::sin(i * 0.31416f));
        break;
    case MarkShape::Square: {
        const float s = r * 0.9f;
        at(-s, -s), at(s, -s), at(s, s), at(-s, s);
        break;
    }
    case MarkShape::Diamond: {
        const float s = r * 1.25f;
        at(0, -s), at(s, 0), at(0, s), at(-s, 0);
        break;
    }
    case MarkShape::TriangleUp: {
        const float s = r * 1.3f;
        at(0, -s), at(s * 0.866f, s * 0.5f), at(-s * 0.866f, s * 0.5f);
        break;
    }
    case MarkShape::TriangleDown: {
        const float s = r * 1.3f;
        at(0, s), at(-s * 0.866f, -s * 0.5f), at(s * 0.866f, -s * 0.5f);
        break;
    }
    case MarkShape::Plus: {
        const float s = r * 1.1f, t = r * 0.4f;
        at(-t, -s), at(t, -s), at(t, -t), at(s, -t), at(s, t), at(t, t), at(t, s), at(-t, s), at(-t, t), at(-s, t),
            at(-s, -t), at(-t, -t);
        break;
    }
    case MarkShape::Star:
        for (int i = 0; i < 10; ++i) {
            const float a = -1.5708f + i * 0.62832f, d = i % 2 ? r * 0.55f : r * 1.3f;
            at(d * std::cos(a), d * std::sin(a));
        }
        break;
    }
    const int n = static_cast<int>(v.size());
    if (filled) {
        // A fan from the centre fills the concave shapes (plus, star) as well as the convex.
        for (int i = 0; i < n; ++i) dl->AddTriangleFilled(c, v[i], v[(i + 1) % n], colour);
        dl->AddPolyline(v.data(), n, edge, ImDrawFlags_Closed, std::max(1.0f, thickness * 0.5f));
    } else {
        dl->AddPolyline(v.data(), n, colour, ImDrawFlags_Closed, thickness);
    }
}

void headingWithHelp(ImFont* bold, const std::string& heading, const std::string& help)
{
    const float marker = ImGui::CalcTextSize("(?)").x + ImGui::GetStyle().ItemSpacing.x;
    ImGui::PushFont(bold);
    ImGui::PushTextWrapPos(ImGui::GetCursorPosX() + std::max(1.0f, ImGui::GetContentRegionAvail().x - marker));
    ImGui::TextUnformatted(heading.c_str());
    ImGui::PopTextWrapPos();
    ImGui::PopFont();
    helpMarker(help.c_str());
}

std::string shortName(const std::string& kernel)
{
    return kernel.rfind("matmul-", 0) == 0 ? kernel.substr(7) : kernel;
}

std::vector<LadderRow> ladderRows(const Loaded& loaded)
{
    const std::vector<sim::RungCounts>* counts = loaded.ladder ? &loaded.ladder->counts : nullptr;
    auto countsOf = [&](const std::string& kernel, int tile) {
        return counts ? sim::findCounts(*counts, kernel, tile) : nullptr;
    };
    std::vector<LadderRow> rows;
    if (!loaded.results) {
        for (const char* name : sim::kLadderRungs) {
            LadderRow r;
            r.kernel = name;
            r.tile = sim::findKernel(name)->defaultTile;
            r.counts = countsOf(r.kernel, r.tile);
            rows.push_back(r);
        }
        return rows;
    }
    for (const sim::ResultEntry& e : loaded.results->results) {
        LadderRow r;
        r.kernel = e.kernel;
        r.gflops = e.gflops;
        r.percent = e.percentOfCublas;
        r.ms = e.msMedian;
        r.registers = e.registers;
        r.staticSharedBytes = e.staticSharedBytes;
        r.computeCapability = loaded.results->computeCapability;
        if (e.isMatmul()) {
            r.tile = *e.tile;
            r.j = *e.j;
            r.k = *e.k;
            r.l = *e.l;
            r.counts = countsOf(r.kernel, r.tile);
        }
        rows.push_back(r);
    }
    // A share of cuBLAS the file does not give: against cuBLAS on the same problem, if it ran.
    for (LadderRow& r : rows) {
        if (r.percent || !r.j) continue;
        for (const LadderRow& c : rows)
            if (c.kernel == "cublas" && c.j == r.j && c.k == r.k && c.l == r.l && c.gflops && *c.gflops > 0)
                r.percent = 100.0 * *r.gflops / *c.gflops;
    }
    return rows;
}

std::string kibibytesText(int bytes)
{
    if (bytes == 0) return "0";
    char b[32];
    std::snprintf(b, sizeof b, "%.2f", bytes / 1024.0);
    std::string s = b;
    while (s.back() == '0') s.pop_back();
    if (s.back() == '.') s.pop_back();
    return s + " KiB";
}

std::string ladderFmaText(const sim::RungCounts& c)
{
    if (c.totals.shared_loads == 0) return "\u2014";
    char b[32];
    const double v = c.fmasPerSharedLoad();
    std::snprintf(b, sizeof b, v < 10 ? "%.2f" : "%.1f", v);
    return b;
}

std::optional<sim::Occupancy> ladderOccupancy(const LadderRow& r)
{
    if (!r.registers || !r.staticSharedBytes || !r.counts || !r.counts->error.empty() || r.computeCapability.empty())
        return std::nullopt;
    std::string name = "sm_" + r.computeCapability;
    name.erase(std::remove(name.begin(), name.end(), '.'), name.end());
    const sim::OccupancyProfile* p = sim::findOccupancyProfile(name);
    if (!p) return std::nullopt;
    sim::OccupancyInput in;
    in.blockThreads = static_cast<int>(r.counts->threadsPerBlock);
    in.regsPerThread = *r.registers;
    in.smemPerBlock = *r.staticSharedBytes;
    if (!sim::checkOccupancyInput(*p, in).empty()) return std::nullopt;
    return sim::computeOccupancy(*p, in);
}

std::vector<std::string> ladderCells(const LadderRow& r, bool counting, bool slide)
{
    std::vector<std::string> out(kLadderColumns, counting && !r.counts && r.kernel != "cublas" ? "\u2026" : "\u2014");
    if (r.registers) out[6] = std::to_string(*r.registers);
    if (r.staticSharedBytes) out[7] = kibibytesText(*r.staticSharedBytes);
    const sim::RungCounts* c = r.counts;
    if (!c || !c->error.empty()) return out;
    auto count = [&](uint64_t v) { return slide ? compactCount(v) : thousands(static_cast<double>(v)); };
    out[0] = count(c->totals.global_ld_requests);
    out[1] = count(c->totals.global_ld_sectors);
    out[2] = count(c->totals.shared_ld_wavefronts + c->totals.shared_st_wavefronts);
    out[3] = count(c->sharedBankConflicts());
    out[4] = ladderFmaText(*c);
    out[5] = std::to_string(c->threadsPerBlock);
    if (const std::optional<sim::Occupancy> o = ladderOccupancy(r))
    {
        // Warps per SM and their share: "16 w 25 %", "8 w 12.5 %".
        const double pct = 100 * o->occupancy;
        char share[32];
        std::snprintf(share, sizeof share, pct == std::floor(pct) ? "%.0f" : "%.1f", pct);
        out[8] = std::to_string(o->warpsPerSm) + " w " + share + " %";
    }
    return out;
}

}  // namespace ts::app
