// Roofline (docs/roofline.md): FLOPs per byte on x, GFLOPS on y, both logarithmic; the
// memory roof (bandwidth x intensity) and the FP32 roof (the peak) with their figures and
// where they come from, the ridge point where they meet, and every kernel of the loaded
// results file at its measured GFLOPS twice: at the intensity of the bytes its requests ask
// for (filled marker, from the simulator) and at its DRAM intensity (hollow marker, measured
// or the compulsory bytes), joined by a faint line. Hovering a marker names the kernel and
// its figures. With no results file, PMPP's A100 and its examples, each at its bound.
#include <imgui.h>

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <optional>
#include <string>
#include <vector>

#include "ladder_view.hpp"
#include "layout.hpp"
#include "panels.hpp"
#include "widgets.hpp"

namespace ts::app {
namespace {

/// "0.1", "1", "10", "1k", "10k": a power of ten on an axis.
std::string decade(double v)
{
    if (v >= 1e3) return thousands(v / 1e3) + "k";
    if (v >= 1) return thousands(v);
    char b[16];
    std::snprintf(b, sizeof b, "%g", v);
    return b;
}

/// An intensity in words: 2 decimals below 100, none above.
std::string intensityText(double v) { return thousands(v, v < 100 ? 2 : 0); }

/// What hovering a point's marker says.
std::string pointTip(const sim::Roofline& r, const sim::RooflinePoint& p)
{
    std::string s = p.kernel;
    if (p.tile && p.kernel != "cublas") s += std::string(p.textbook ? " (TILE_WIDTH " : " (tile ") + std::to_string(p.tile) + ")";
    if (p.j) s += ", " + std::to_string(p.j) + " x " + std::to_string(p.k) + " x " + std::to_string(p.l);
    if (p.textbook) {
        s += "\nThe textbook's example, not a measurement: " + groupedNoBreak(p.note) + ".";
        return s;
    }
    s += "\n" + thousands(p.gflops) + " GFLOPS measured";
    if (p.percentOfCublas) s += ", " + thousands(*p.percentOfCublas, 1) + " % of cuBLAS";
    s += ".";
    auto roof = [&](double i) {
        const std::optional<double> b = r.ceilings.bound(i);
        return b ? " (roof " + thousands(*b) + " GFLOPS)" : std::string();
    };
    if (p.intensityRequested)
        s += "\nRequested: " + intensityText(*p.intensityRequested) + " FLOP/B" + roof(*p.intensityRequested) +
             ", the bytes its global requests ask for (simulated, 32 a sector).";
    else
        s += "\nRequested: unknown (no simulation of this kernel at this size).";
    if (p.intensityDram)
        s += "\nDRAM: " + intensityText(*p.intensityDram) + " FLOP/B" + roof(*p.intensityDram) +
             (p.dramSource == sim::DramSource::Measured ? ", bytes measured." : ", compulsory bytes (M and N read once, P written once).");
    return s;
}

/// A small legend entry: a marker drawn by `draw` in a box one line high, then `label`;
/// entries after the first go on the same line while they fit.
template <class Draw>
void markerLegend(const char* label, bool first, Draw draw)
{
    const float h = ImGui::GetTextLineHeight();
    if (!first) {
        const float width = h * 1.3f + scaled(5) + ImGui::CalcTextSize(label).x;
        const float right = ImGui::GetWindowPos().x + ImGui::GetWindowContentRegionMax().x;
        if (ImGui::GetItemRectMax().x + scaled(14) + width <= right) ImGui::SameLine(0, scaled(14));
    }
    const ImVec2 p = ImGui::GetCursorScreenPos();
    draw(ImGui::GetWindowDrawList(), ImVec2(p.x + h * 0.65f, p.y + h * 0.5f));
    ImGui::Dummy(ImVec2(h * 1.3f, h));
    ImGui::SameLine(0, scaled(5));
    ImGui::TextUnformatted(label);
}

struct RooflinePanel final : Panel {
    void draw(Frame& f) override;

private:
    void chart(Frame& f, const sim::Roofline& r);
    RooflineSource source_;
    float legendHeight_ = 0;   ///< what the legend under the chart took in the frame before
};

void RooflinePanel::chart(Frame& f, const sim::Roofline& r)
{
    const Palette& pal = f.theme.palette;
    const sim::RooflineCeilings& c = r.ceilings;
    const float lh = ImGui::GetTextLineHeight();
    const float w = ImGui::GetContentRegionAvail().x;
    // A picture: as tall as three quarters of its width where there is room, at least a
    // few lines of text less than that where there is not.
    const float h = elasticHeight(std::min(scaled(150), w * 0.6f), w * 0.75f, legendHeight_);

    // The ranges: every intensity and GFLOPS, the ridge and the peak, in whole decades.
    double xlo = DBL_MAX, xhi = 0, ylo = DBL_MAX, yhi = 0;
    for (const sim::RooflinePoint& p : r.points) {
        if (p.gflops <= 0) continue;
        for (const std::optional<double>& i : {p.intensityRequested, p.intensityDram})
            if (i && *i > 0) xlo = std::min(xlo, *i), xhi = std::max(xhi, *i);
        ylo = std::min(ylo, p.gflops);
        yhi = std::max(yhi, p.gflops);
    }
    const std::optional<double> ridge = c.ridge();
    if (ridge) xlo = std::min(xlo, *ridge), xhi = std::max(xhi, *ridge);
    if (c.peakFp32Gflops) yhi = std::max(yhi, *c.peakFp32Gflops), ylo = std::min(ylo, *c.peakFp32Gflops);
    if (xhi <= 0) xlo = 0.1, xhi = 100;
    if (yhi <= 0) ylo = 100, yhi = 1e5;
    const double lx0 = std::floor(std::log10(xlo / 1.2)), lx1 = std::max(lx0 + 2, std::ceil(std::log10(xhi * 1.2)));
    double ly1 = std::ceil(std::log10(yhi * 1.3));
    const double ly0 = std::min(ly1 - 2, std::floor(std::log10(ylo / 1.5)));

    const ImVec2 o = ImGui::GetCursorScreenPos();
    ImGui::InvisibleButton("chart", ImVec2(w, h));
    const bool hovered = ImGui::IsItemHovered();
    ImDrawList* dl = ImGui::GetWindowDrawList();
    // The y axis's title on a line above the plot, the x axis's figures and title below it.
    const float left = ImGui::CalcTextSize("100k").x + scaled(8), bottom = 2 * lh + scaled(6);
    const ImVec2 a(o.x + left, o.y + lh + scaled(4)), b(o.x + w - scaled(10), o.y + h - bottom);
    if (b.x - a.x < scaled(40) || b.y - a.y < scaled(40)) return;
    // Room for the peak's label above the flat roof: the top of the plot raised until the
    // peak lies a line and a half below it.
    if (c.peakFp32Gflops) {
        const double d = (1.5 * lh) / (b.y - a.y), top = std::log10(*c.peakFp32Gflops);
        if ((ly1 - top) / (ly1 - ly0) < d) ly1 = (top - d * ly0) / (1 - d);
    }
    auto X = [&](double v) { return a.x + static_cast<float>((std::log10(v) - lx0) / (lx1 - lx0)) * (b.x - a.x); };
    auto Y = [&](double v) { return b.y - static_cast<float>((std::log10(v) - ly0) / (ly1 - ly0)) * (b.y - a.y); };
    dl->AddRectFilled(a, b, pal.chartBg, 3);
    dl->PushClipRect(a, b, true);
    // Decades, with faint lines at 2 to 9 times each.
    for (double e = lx0; e <= lx1; ++e)
        for (int m = 1; m < 10 && e + std::log10(m) <= lx1; ++m) {
            const float x = X(std::pow(10.0, e) * m);
            dl->AddLine(ImVec2(x, a.y), ImVec2(x, b.y), m == 1 ? pal.chartLine : (pal.chartLine & 0x00FFFFFF) | 0x30000000u);
        }
    for (double e = ly0; e <= ly1; ++e)
        for (int m = 1; m < 10 && e + std::log10(m) <= ly1; ++m) {
            const float y = Y(std::pow(10.0, e) * m);
            dl->AddLine(ImVec2(a.x, y), ImVec2(b.x, y), m == 1 ? pal.chartLine : (pal.chartLine & 0x00FFFFFF) | 0x30000000u);
        }
    dl->PopClipRect();
    for (double e = lx0; e <= lx1; ++e) {
        const std::string t = decade(std::pow(10.0, e));
        const float tw = ImGui::CalcTextSize(t.c_str()).x;
        dl->AddText(ImVec2(std::clamp(X(std::pow(10.0, e)) - tw / 2, o.x, b.x - tw), b.y + 2), pal.dimText, t.c_str());
    }
    for (double e = ly0; e <= ly1; ++e) {
        const std::string t = decade(std::pow(10.0, e));
        dl->AddText(ImVec2(a.x - ImGui::CalcTextSize(t.c_str()).x - 4, std::clamp(Y(std::pow(10.0, e)) - lh / 2, a.y, b.y - lh)),
                    pal.dimText, t.c_str());
    }
    const char* xTitle = "FLOP per byte (log)";
    dl->AddText(ImVec2(b.x - ImGui::CalcTextSize(xTitle).x, b.y + lh + 4), pal.dimText, xTitle);
    dl->AddText(ImVec2(o.x, o.y), pal.dimText, "GFLOPS (log)");

    // Where the points' markers go, before anything is labelled (labels keep clear of them).
    struct Marker {
        ImVec2 at;
        size_t point;
        bool requested;
    };
    std::vector<Marker> markers;
    const float rad = scaled(5.5f);
    for (size_t i = 0; i < r.points.size(); ++i) {
        const sim::RooflinePoint& p = r.points[i];
        if (p.gflops <= 0) continue;
        if (p.intensityDram) markers.push_back({ImVec2(X(*p.intensityDram), Y(p.gflops)), i, false});
        if (p.intensityRequested) markers.push_back({ImVec2(X(*p.intensityRequested), Y(p.gflops)), i, true});
    }
    // Labels: the first of the candidate places that stays in the plot and covers no marker
    // and no label before it (the first candidate, if none does).
    std::vector<ImVec4> taken;   // x0, y0, x1, y1
    if (ridge && c.peakFp32Gflops) {
        const ImVec2 rp(X(*ridge), Y(*c.peakFp32Gflops));
        const float e = scaled(6);
        taken.push_back(ImVec4(rp.x - e, rp.y - e, rp.x + e, rp.y + e));
    }
    auto freeAt = [&](const ImVec4& q) {
        bool free = q.x >= a.x && q.z <= b.x && q.y >= a.y && q.w <= b.y;
        // A little air between labels, so that two names never read as one.
        const float air = scaled(6);
        for (const ImVec4& t : taken) free = free && (q.z + air < t.x || q.x > t.z + air || q.w < t.y || q.y > t.w);
        for (const Marker& m : markers)
            free = free && (m.at.x + rad < q.x || m.at.x - rad > q.z || m.at.y + rad < q.y || m.at.y - rad > q.w);
        return free;
    };
    auto label = [&](const std::string& t, ImU32 col, std::initializer_list<ImVec2> places, bool always = true) -> bool {
        const ImVec2 ts = ImGui::CalcTextSize(t.c_str());
        auto rect = [&](ImVec2 p) {
            p.x = std::clamp(p.x, a.x + 2, std::max(a.x + 2, b.x - ts.x - 2));
            p.y = std::clamp(p.y, a.y + 2, std::max(a.y + 2, b.y - ts.y - 2));
            return ImVec4(p.x - 2, p.y - 1, p.x + ts.x + 2, p.y + ts.y + 1);
        };
        std::optional<ImVec4> at;
        for (const ImVec2& p : places)
            if (freeAt(rect(p))) {
                at = rect(p);
                break;
            }
        if (!at && !always) return false;
        const ImVec4 q = at ? *at : rect(*places.begin());
        dl->AddRectFilled(ImVec2(q.x, q.y), ImVec2(q.z, q.w), (pal.chartBg & 0x00FFFFFF) | 0xD0000000u, 2);
        dl->AddText(ImVec2(q.x + 2, q.y + 1), col, t.c_str());
        taken.push_back(q);
        return true;
    };

    // The roofs themselves keep labels off them: small squares along each, as obstacles.
    {
        const float e = scaled(2);
        auto along = [&](ImVec2 p, ImVec2 q) {
            const float len = std::hypot(q.x - p.x, q.y - p.y);
            for (float t = 0; t <= len; t += scaled(8)) {
                const float x = p.x + (q.x - p.x) * t / len, y = p.y + (q.y - p.y) * t / len;
                if (x >= a.x && x <= b.x && y >= a.y && y <= b.y) taken.push_back(ImVec4(x - e, y - e, x + e, y + e));
            }
        };
        if (c.memoryGbytesPerS) {
            const double bw = *c.memoryGbytesPerS;
            const double xs = std::max(std::pow(10.0, lx0), std::pow(10.0, ly0) / bw);
            const double xe = ridge ? *ridge : std::pow(10.0, lx1);
            if (xe > xs) along(ImVec2(X(xs), Y(bw * xs)), ImVec2(X(xe), Y(bw * xe)));
        }
        if (c.peakFp32Gflops)
            along(ImVec2(ridge ? X(*ridge) : a.x, Y(*c.peakFp32Gflops)), ImVec2(b.x, Y(*c.peakFp32Gflops)));
    }

    // The roofs and the ridge (their source is in the panel's heading).
    const ImU32 roofColour = ImGui::GetColorU32(ImGuiCol_Text);
    const float thick = std::max(2.0f, scaled(2.5f));
    if (ridge && c.peakFp32Gflops) {
        const ImVec2 rp(X(*ridge), Y(*c.peakFp32Gflops));
        for (float y = rp.y; y < b.y; y += scaled(8))
            dl->AddLine(ImVec2(rp.x, y), ImVec2(rp.x, std::min(b.y, y + scaled(4))), pal.dimText, 1.5f);
    }
    if (c.memoryGbytesPerS) {
        const double bw = *c.memoryGbytesPerS;
        const double xs = std::max(std::pow(10.0, lx0), std::pow(10.0, ly0) / bw);
        const double xe = ridge ? *ridge : std::pow(10.0, lx1);
        dl->PushClipRect(a, b, true);
        if (xe > xs) dl->AddLine(ImVec2(X(xs), Y(bw * xs)), ImVec2(X(xe), Y(bw * xe)), roofColour, thick);
        dl->PopClipRect();
        // Along the slope: above and left of it (where only a kernel that beats the roof with
        // its caches lies), else below and right of it.
        const std::string t = "memory " + thousands(bw) + " GB/s";
        const float tw = ImGui::CalcTextSize(t.c_str()).x;
        auto above = [&](double f) {
            const double x = xs * std::pow(xe / xs, f);
            return ImVec2(X(x) - tw - scaled(8), Y(bw * x) - lh - scaled(6));
        };
        auto below = [&](double f) {
            const double x = xs * std::pow(xe / xs, f);
            return ImVec2(X(x) + scaled(8), Y(bw * x) + scaled(4));
        };
        label(t, roofColour, {above(0.55), above(0.75), above(0.35), below(0.4), below(0.2), below(0.6)});
    }
    if (c.peakFp32Gflops) {
        const double peak = *c.peakFp32Gflops;
        const float xs = ridge ? X(*ridge) : a.x;
        dl->AddLine(ImVec2(xs, Y(peak)), ImVec2(b.x, Y(peak)), roofColour, thick);
        // Left of the ridge at the peak's height (above the memory roof), else above the flat roof.
        const std::string t = "FP32 peak " + thousands(peak) + " GFLOPS";
        const float tw = ImGui::CalcTextSize(t.c_str()).x;
        label(t, roofColour,
              {ImVec2(b.x - tw - scaled(4), Y(peak) - lh - scaled(4)), ImVec2(xs - scaled(10) - tw, Y(peak) - lh / 2),
               ImVec2(xs + scaled(10), Y(peak) - lh - scaled(4)), ImVec2(b.x - tw, Y(peak) + scaled(4))});
    }
    if (ridge && c.peakFp32Gflops) {
        const ImVec2 rp(X(*ridge), Y(*c.peakFp32Gflops));
        dl->AddCircleFilled(rp, scaled(4.5f), roofColour);
        // Its figure at the foot of the dashed line, where the points seldom are.
        const std::string t = "ridge " + intensityText(*ridge) + " FLOP/B";
        const float tw = ImGui::CalcTextSize(t.c_str()).x;
        label(t, pal.dimText, {ImVec2(rp.x + scaled(4), b.y - lh - scaled(4)), ImVec2(rp.x - scaled(4) - tw, b.y - lh - scaled(4))});
    }

    // The points: requested (filled) and DRAM (hollow) joined by a faint line; the textbook's
    // examples as squares.
    const ImU32 edge = (pal.cellText & 0x00FFFFFF) | 0xD0000000u;
    for (size_t i = 0; i < r.points.size(); ++i) {
        const sim::RooflinePoint& p = r.points[i];
        if (p.gflops <= 0 || !p.intensityRequested || !p.intensityDram) continue;
        const ImU32 col = kernelColour(p.kernel, pal);
        dl->AddLine(ImVec2(X(*p.intensityRequested), Y(p.gflops)), ImVec2(X(*p.intensityDram), Y(p.gflops)),
                    (col & 0x00FFFFFF) | 0x70000000u, std::max(1.0f, scaled(1.5f)));
    }
    // The textbook's examples with their figures (shorter where that does not fit); a
    // measured kernel's short name beside its filled marker where that covers nothing (the
    // legend names them all).
    for (const Marker& m : markers) {
        const sim::RooflinePoint& p = r.points[m.point];
        if (!p.textbook && !m.requested) continue;
        const std::string name = shortName(p.kernel) + (p.textbook && p.tile ? " " + std::to_string(p.tile) : "");
        std::vector<std::string> texts{name};
        if (p.textbook)
            texts = {name + ", " + intensityText(*p.intensityDram) + " OP/B: " + thousands(p.gflops),
                     name + ": " + thousands(p.gflops), name};
        for (const std::string& t : texts) {
            const float tw = ImGui::CalcTextSize(t.c_str()).x;
            const ImVec2 right(m.at.x + rad + scaled(4), m.at.y - lh / 2), leftOf(m.at.x - rad - scaled(4) - tw, m.at.y - lh / 2);
            const ImVec2 under(m.at.x - tw / 2, m.at.y + rad + scaled(2)), over(m.at.x - tw / 2, m.at.y - rad - lh - scaled(2));
            // Below and right of the marker, above and left of it: off a roof through the marker.
            const ImVec2 belowRight(m.at.x + rad + scaled(3), m.at.y + rad + scaled(2));
            const ImVec2 aboveLeft(m.at.x - rad - tw - scaled(6), m.at.y - rad - lh - scaled(2));
            if (label(t, p.textbook ? roofColour : pal.dimText, {right, leftOf, belowRight, aboveLeft, under, over}, false))
                break;
        }
    }
    // The markers last, over everything.
    for (const Marker& m : markers) {
        const sim::RooflinePoint& p = r.points[m.point];
        const ImU32 col = kernelColour(p.kernel, pal);
        const ImVec2 d = m.at;
        if (p.textbook) {
            dl->AddRectFilled(ImVec2(d.x - rad, d.y - rad), ImVec2(d.x + rad, d.y + rad), col);
            dl->AddRect(ImVec2(d.x - rad, d.y - rad), ImVec2(d.x + rad, d.y + rad), edge, 0, 0, 1.5f);
        } else if (m.requested) {
            dl->AddCircleFilled(d, rad, col);
            dl->AddCircle(d, rad, edge, 0, 1.5f);
        } else {
            dl->AddCircle(d, rad + 1.0f, edge, 0, 1.0f);
            dl->AddCircle(d, rad - 1.0f, col, 0, std::max(2.0f, scaled(2.5f)));
        }
    }
    if (hovered) {
        const ImVec2 mouse = ImGui::GetIO().MousePos;
        const Marker* best = nullptr;
        float bestD = scaled(12) * scaled(12);
        for (const Marker& m : markers) {
            const float d = (m.at.x - mouse.x) * (m.at.x - mouse.x) + (m.at.y - mouse.y) * (m.at.y - mouse.y);
            if (d <= bestD) bestD = d, best = &m;
        }
        if (best) {
            dl->AddCircle(best->at, rad + scaled(4), roofColour, 0, 2.0f);
            ImGui::BeginTooltip();
            ImGui::PushTextWrapPos(ImGui::GetFontSize() * 30.0f);
            ImGui::TextUnformatted(pointTip(r, r.points[best->point]).c_str());
            ImGui::PopTextWrapPos();
            ImGui::EndTooltip();
        }
    }
}

void RooflinePanel::draw(Frame& f)
{
    if (beginPanel(f, id)) {
        const Palette& pal = f.theme.palette;
        const sim::Roofline* r = source_.get(f.loaded);
        if (!r) {
            ImGui::PushFont(f.theme.fonts.bold);
            ImGui::TextWrapped("%s", resultsCaption(f.loaded).c_str());
            ImGui::PopFont();
            colouredText(pal.dimText, "Counting the kernels in the simulator...");
        } else {
            // What the markers and the ceilings are, behind a (?) beside the heading.
            std::string intro = r->textbook
                                    ? "PMPP's examples, each at the bound its OP/B allows (flops / (4 B x global loads), "
                                      "every load from DRAM): textbook bounds, not measurements."
                                    : "Each kernel at its measured GFLOPS twice: filled, at the FLOPs per byte its global "
                                      "requests ask for (the simulator's sectors x 32); hollow, per byte between DRAM and "
                                      "the chip" +
                                          std::string(std::any_of(r->points.begin(), r->points.end(),
                                                                  [](const sim::RooflinePoint& p) {
                                                                      return p.dramSource == sim::DramSource::Compulsory;
                                                                  })
                                                          ? " (the compulsory bytes: M and N read once, P written once)"
                                                          : "") +
                                          ". Ceilings: " + groupedNoBreak(r->ceilings.detail) + ".";
            headingWithHelp(f.theme.fonts.bold, r->caption, intro);
            chart(f, *r);
            // The legend: the markers, then each kernel's colour.
            const float top = ImGui::GetCursorPosY();
            const float rad = scaled(5.0f);
            const ImU32 text = ImGui::GetColorU32(ImGuiCol_Text);
            if (r->textbook) {
                markerLegend("the textbook's bound", true, [&](ImDrawList* dl, ImVec2 c) {
                    dl->AddRectFilled(ImVec2(c.x - rad, c.y - rad), ImVec2(c.x + rad, c.y + rad), text);
                });
                // The argument itself, example by example.
                for (const sim::RooflinePoint& p : r->points)
                    colouredText(pal.dimText, shortName(p.kernel) + (p.tile ? " " + std::to_string(p.tile) : "") + ": " + groupedNoBreak(p.note) + ".");
            } else {
                markerLegend("requested (simulated)", true, [&](ImDrawList* dl, ImVec2 c) { dl->AddCircleFilled(c, rad, text); });
                const bool compulsory = std::any_of(r->points.begin(), r->points.end(), [](const sim::RooflinePoint& p) {
                    return p.dramSource == sim::DramSource::Compulsory;
                });
                markerLegend(compulsory ? "DRAM (compulsory bytes)" : "DRAM", false,
                             [&](ImDrawList* dl, ImVec2 c) { dl->AddCircle(c, rad - 1, text, 0, 2.5f); });
                std::vector<std::string> seen;
                for (const sim::RooflinePoint& p : r->points) {
                    if (std::find(seen.begin(), seen.end(), p.kernel) != seen.end()) continue;
                    seen.push_back(p.kernel);
                    legendItem(kernelColour(p.kernel, pal), shortName(p.kernel).c_str(), p.kernel.c_str(), Swatch::Fill, false);
                }
            }
            legendHeight_ = ImGui::GetCursorPosY() - top;
        }
    }
    ImGui::End();
}

}  // namespace

std::unique_ptr<Panel> makeRooflinePanel() { return std::make_unique<RooflinePanel>(); }

}  // namespace ts::app
