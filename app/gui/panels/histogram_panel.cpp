// Histogram: PMPP ch. 9's text histogram drawn from the traced block
// (sim/teaching/histogram_view.hpp). Top, the bins as bars that grow with each atomic, the
// lanes of the step's warp atomic stacked on the bins they hit (the passes the hardware
// serialises the instruction into: the tallest stack). Below, the warp's 32 lanes with the
// character each read, a line from each to its bin. Last, the warp's load of the text: the
// bytes its lanes read, in 32-byte sectors, beside the bytes the other partitioning of PMPP
// sec. 9.5 would have them read (contiguous, Fig. 9.12, against interleaved, Fig. 9.14).
#include <imgui.h>

#include <algorithm>
#include <cfloat>
#include <cstdio>
#include <cstdint>
#include <map>
#include <set>
#include <string>

#include "figure_notes.hpp"
#include "layout.hpp"
#include "panels.hpp"
#include "sim/teaching/histogram_view.hpp"
#include "theme.hpp"
#include "widgets.hpp"

namespace ts::app {
namespace {

struct HistogramPanel final : Panel {
    void draw(Frame& f) override;

private:
    uint64_t generation_ = ~0ull;
    sim::HistogramPicture picture_;
};

/// "a-d" for bin b of four letters (PMPP sec. 9.2); "bin b" past the alphabet.
std::string binLabel(int b)
{
    if (b < 0 || b > 6) return "bin " + std::to_string(b);
    const char first = static_cast<char>('a' + 4 * b), last = static_cast<char>(std::min<int>('a' + 4 * b + 3, 'z'));
    return std::string(1, first) + "-" + std::string(1, last);
}

/// The character as the strip shows it: the letter, "_" for a space, "?" for the rest.
std::string charLabel(int c)
{
    if (c == ' ') return "_";
    if (c > 32 && c < 127) return std::string(1, static_cast<char>(c));
    return "?";
}

/// A colour per bin, from the palette's distinct state colours.
ImU32 binColour(const Palette& p, int b)
{
    const ImU32 colours[] = {p.inShared, p.loadedThisPhase, p.finished, p.zeroFill, p.halo, p.readNow, p.wrongRead};
    return colours[static_cast<size_t>(((b % 7) + 7) % 7)];
}

/// The bars of bins array `array` at the cursor, with the request's lanes stacked on theirs.
void drawBins(Frame& f, const sim::HistogramPicture& h, const sim::Trace& t, int array, const sim::BinRequest* now, float height)
{
    const Palette& pal = f.theme.palette;
    const int bins = array >= 0 && array < static_cast<int>(t.arrays.size()) ? std::min(t.arrays[static_cast<size_t>(array)].size(), 64) : 0;
    if (bins <= 0) return;
    const std::vector<float> v = h.valuesAt(array, bins, f.view.cursor);
    const std::vector<float> end = h.valuesAt(array, bins, INT32_MAX);
    float top = 1;
    for (float e : end) top = std::max(top, e);
    const float lh = ImGui::GetTextLineHeightWithSpacing();
    const float w = ImGui::GetContentRegionAvail().x;
    const ImVec2 o = ImGui::GetCursorScreenPos();
    ImGui::InvisibleButton("bins", ImVec2(w, height));
    noteFigure(o, ImVec2(o.x + w, o.y + height));
    ImDrawList* dl = ImGui::GetWindowDrawList();
    const float barW = w / static_cast<float>(bins);
    const float base = o.y + height - lh;
    const float room = height - 2.2f * lh;
    std::map<int, int> stack;
    if (now && now->array == array)
        for (const sim::BinLane& l : now->lanes) ++stack[l.bin];
    const int passes = now && now->array == array ? now->passes() : 0;
    // The stacks beside the bars: the tallest (the passes) takes up to 60% of the bars' height,
    // so that a stack of a few lanes still reads from the back of a hall.
    const float box = std::min(barW * 0.22f, room * 0.6f / static_cast<float>(std::max(passes, 4)));
    for (int b = 0; b < bins; ++b) {
        const float x = o.x + barW * static_cast<float>(b);
        const float hgt = room * std::clamp(v[static_cast<size_t>(b)] / top, 0.0f, 1.0f);
        dl->AddRectFilled(ImVec2(x + barW * 0.06f, base - room), ImVec2(x + barW * 0.70f, base), pal.chartBg);
        dl->AddRectFilled(ImVec2(x + barW * 0.06f, base - hgt), ImVec2(x + barW * 0.70f, base), binColour(pal, b));
        char count[32];
        std::snprintf(count, sizeof count, "%.0f", static_cast<double>(v[static_cast<size_t>(b)]));
        const std::string label = bins == 7 ? binLabel(b) : std::to_string(b);
        dl->AddText(ImVec2(x + (barW * 0.76f - ImGui::CalcTextSize(label.c_str()).x) * 0.5f, base + 2), pal.cellText, label.c_str());
        // The counts above the bars where they fit (not over Fig. 9.9's 7 x blocks bins).
        if (bins <= 14)
            dl->AddText(ImVec2(x + (barW * 0.76f - ImGui::CalcTextSize(count).x) * 0.5f, base - hgt - lh), pal.cellText, count);
        // The lanes of the step's atomic on this bin, stacked beside the bar: the tallest
        // stack is the number of passes.
        if (const auto it = stack.find(b); it != stack.end()) {
            for (int k = 0; k < it->second; ++k) {
                const float y = base - (static_cast<float>(k) + 1) * box;
                const ImVec2 a(x + barW * 0.72f, y), c(x + barW * 0.72f + box * 0.9f, y + box * 0.9f);
                dl->AddRectFilled(a, c, it->second == passes ? pal.warnText : pal.readNow);
            }
        }
    }
}

/// The warp's lanes with their characters and a line from each lane to its bin's column.
void drawLanes(Frame& f, const sim::BinRequest& r, int bins, float height)
{
    const Palette& pal = f.theme.palette;
    const float w = ImGui::GetContentRegionAvail().x;
    const ImVec2 o = ImGui::GetCursorScreenPos();
    ImGui::InvisibleButton("lanes", ImVec2(w, height));
    noteFigure(o, ImVec2(o.x + w, o.y + height));
    ImDrawList* dl = ImGui::GetWindowDrawList();
    const float laneW = w / 32.0f;
    const float barW = w / static_cast<float>(std::max(bins, 1));
    const float boxH = std::min(laneW * 1.2f, height * 0.45f);
    for (const sim::BinLane& l : r.lanes) {
        const int lane = l.thread % 32;
        const float x = o.x + laneW * static_cast<float>(lane);
        const ImVec2 a(x + 1, o.y + height - boxH), b(x + laneW - 1, o.y + height);
        dl->AddRectFilled(a, b, binColour(pal, l.bin));
        const std::string c = charLabel(l.character);
        const ImVec2 ts = ImGui::CalcTextSize(c.c_str());
        dl->AddText(ImVec2(x + (laneW - ts.x) * 0.5f, b.y - (boxH + ts.y) * 0.5f), textOn(binColour(pal, l.bin)), c.c_str());
        const float bx = o.x + barW * (static_cast<float>(std::clamp(l.bin, 0, std::max(bins - 1, 0))) + 0.5f);
        dl->AddLine(ImVec2(x + laneW * 0.5f, a.y), ImVec2(bx, o.y), binColour(pal, l.bin), 1.5f);
    }
}

/// A warp's text load: the bytes from the first sector its lanes touch to the last, the read
/// ones marked, sector borders drawn; `label` on the left.
void drawLoadStrip(Frame& f, const std::vector<long long>& bytes, const std::string& label, const std::vector<float>& text)
{
    const Palette& pal = f.theme.palette;
    if (bytes.empty()) return;
    const long long lo = *std::min_element(bytes.begin(), bytes.end()) / 32 * 32;
    const long long hi = (*std::max_element(bytes.begin(), bytes.end()) / 32 + 1) * 32;
    const long long span = std::min<long long>(hi - lo, 4096);
    const float lh = ImGui::GetTextLineHeightWithSpacing();
    const float w = ImGui::GetContentRegionAvail().x;
    const float labelW = ImGui::CalcTextSize("interleaved (9.14) ").x;
    const ImVec2 o = ImGui::GetCursorScreenPos();
    ImGui::InvisibleButton(label.c_str(), ImVec2(w, lh * 1.3f));
    noteFigure(o, ImVec2(o.x + w, o.y + lh * 1.3f));
    ImDrawList* dl = ImGui::GetWindowDrawList();
    dl->AddText(ImVec2(o.x, o.y + lh * 0.15f), pal.cellText, label.c_str());
    const float x0 = o.x + labelW, cw = (w - labelW) / static_cast<float>(span);
    std::vector<bool> read(static_cast<size_t>(span), false);
    for (long long b : bytes)
        if (b - lo < span) read[static_cast<size_t>(b - lo)] = true;
    for (long long i = 0; i < span; ++i) {
        const float x = x0 + cw * static_cast<float>(i);
        const bool r = read[static_cast<size_t>(i)];
        dl->AddRectFilled(ImVec2(x, o.y), ImVec2(x + std::max(cw - (cw > 3 ? 1.0f : 0.0f), 1.0f), o.y + lh), r ? pal.readNow : pal.cell);
        if (cw >= ImGui::GetFontSize() * 0.7f && static_cast<size_t>(lo + i) < text.size()) {
            const std::string c = charLabel(static_cast<int>(text[static_cast<size_t>(lo + i)]));
            dl->AddText(ImVec2(x + (cw - ImGui::CalcTextSize(c.c_str()).x) * 0.5f, o.y), textOn(r ? pal.readNow : pal.cell), c.c_str());
        }
        if (i % 32 == 0) dl->AddLine(ImVec2(x, o.y - 2), ImVec2(x, o.y + lh + 2), pal.selected, 2.0f);
    }
}

}  // namespace

void HistogramPanel::draw(Frame& f)
{
    if (f.loaded.sim && f.loaded.generation != generation_) {
        generation_ = f.loaded.generation;
        picture_ = sim::histogramPicture(f.loaded.sim->trace);
    }
    if (beginPanel(f, id)) {
        if (!f.loaded.sim) {
            ImGui::TextUnformatted("Simulating...");
        } else if (picture_.requests.empty()) {
            ImGui::TextWrapped("No histogram: the traced block makes no atomic operations (PMPP ch. 9's histograms add "
                               "each letter to its bin with atomicAdd).");
        } else {
            const sim::Simulation& s = *f.loaded.sim;
            const sim::Trace& t = s.trace;
            const unsigned warp = static_cast<unsigned>(std::max(f.view.thread, 0)) / 32u;
            const int ri = picture_.requestAt(f.view.cursor, warp);
            const sim::BinRequest* now = ri >= 0 ? &picture_.requests[static_cast<size_t>(ri)] : nullptr;
            const int array = now ? now->array : picture_.binArrays.front();
            const std::string name = t.arrays[static_cast<size_t>(array)].name;
            const bool shared = t.arrays[static_cast<size_t>(array)].space == sim::Space::Shared;
            const std::string legend =
                "The bins of " + name + (shared ? " (the block's private copy in shared memory)" : " (global memory, the whole grid's)") +
                " as the traced block's atomics leave them. Beside a bar, the lanes of this step's warp atomic that hit it: "
                "lanes on one bin are serialised, so the tallest stack (orange) is the passes the instruction takes.";
            if (!f.view.presentation) colouredText(f.theme.palette.dimText, legend);
            if (now) {
                const int bin = now->busiestBin();
                ImGui::TextWrapped("Now: warp %u's atomicAdd on %s (line %u): %zu lanes, %d on bin %s, so %d pass%s.", now->warp,
                                   name.c_str(), now->line, now->lanes.size(), now->passes(),
                                   t.arrays[static_cast<size_t>(array)].size() == 7 ? binLabel(bin).c_str() : std::to_string(bin).c_str(),
                                   now->passes(), now->passes() == 1 ? "" : "es");
            } else {
                ImGui::TextWrapped("Before the first atomic: step on to see the warps add their letters.");
            }
            if (f.view.presentation) tooltip(legend.c_str());
            const float lh = ImGui::GetTextLineHeightWithSpacing();
            const float gap = ImGui::GetStyle().ItemSpacing.y;
            const int bins = t.arrays[static_cast<size_t>(array)].size();
            const int li = picture_.loadAt(f.view.cursor, warp);
            const std::string kernel = s.scenario.kernel;
            const bool contiguous = kernel == "histogram-contiguous";
            const bool interleaved = kernel == "histogram-interleaved" || kernel == "histogram-aggregated";
            // The warp's text load (and, for a coarsened kernel, the same lanes' load under the
            // other partitioning of PMPP sec. 9.5, from its figure's index: contiguous reads
            // tid*CFACTOR + k, interleaved tid + k*blockDim*gridDim), each a sentence and a strip.
            struct Strip {
                std::string sentence, label;
                std::vector<long long> bytes;
            };
            std::vector<Strip> strips;
            if (li >= 0) {
                const sim::TextLoad& l = picture_.loads[static_cast<size_t>(li)];
                Strip mine{"Warp " + std::to_string(l.warp) + "'s load of the text (line " + std::to_string(l.line) + "): " +
                               std::to_string(l.lanes.size()) + " lanes, " + std::to_string(l.sectors()) + " sector" +
                               (l.sectors() == 1 ? "" : "s") + " of 32 bytes.",
                           contiguous ? "contiguous (9.12)" : interleaved ? "interleaved (9.14)" : "this kernel", {}};
                for (const auto& [thread, byte] : l.lanes) mine.bytes.push_back(byte);
                strips.push_back(std::move(mine));
                if (contiguous || interleaved) {
                    const long long threads = 1ll * t.blockDim.x * s.grid.x;
                    const long long k = l.occurrence;
                    Strip other{"", contiguous ? "interleaved (9.14)" : "contiguous (9.12)", {}};
                    std::set<long long> sectors;
                    for (const auto& [thread, byte] : l.lanes) {
                        const long long tid = 1ll * t.block.x * t.blockDim.x + thread;
                        other.bytes.push_back(contiguous ? tid + k * threads : tid * 4 + k);
                        sectors.insert(other.bytes.back() / 32);
                    }
                    const char* nth = k == 0 ? "st" : k == 1 ? "nd" : k == 2 ? "rd" : "th";
                    other.sentence = "The same lanes' " + std::to_string(k + 1) + nth + " load under the other partitioning: " +
                                     std::to_string(sectors.size()) + " sector" + (sectors.size() == 1 ? "" : "s") + ".";
                    strips.push_back(std::move(other));
                }
            }
            // The bars and the lanes share what the sentences and strips leave, so that the
            // figure fills the panel.
            const float wrap = ImGui::GetContentRegionAvail().x;
            float below = 0;
            for (const Strip& st : strips)
                below += ImGui::CalcTextSize(st.sentence.c_str(), nullptr, false, wrap).y + gap + lh * 1.3f + gap;
            const float figure = std::max(lh * 7.0f, ImGui::GetContentRegionAvail().y - below - (now ? 2.0f : 1.0f) * gap);
            drawBins(f, picture_, t, array, now, now ? figure * 0.7f : figure);
            if (now) drawLanes(f, *now, std::min(bins, 64), figure * 0.3f);
            for (const Strip& st : strips) {
                ImGui::TextWrapped("%s", st.sentence.c_str());
                drawLoadStrip(f, st.bytes, st.label, s.M);
            }
        }
    }
    ImGui::End();
}

std::unique_ptr<Panel> makeHistogramPanel() { return std::make_unique<HistogramPanel>(); }

}  // namespace ts::app
