// Roofline (docs/roofline.md): FLOPs per byte on x, GFLOPS on y, both logarithmic; the
// memory roof (bandwidth x intensity) and the FP32 roof (the peak) with their figures and
// where they come from, the ridge point where they meet, and every kernel of the loaded
// results file at its measured GFLOPS twice: at the intensity of the bytes its requests ask
// for (filled marker, from the simulator) and at its DRAM intensity (hollow marker, measured
// or the compulsory bytes), joined by a faint line, each kernel with its own shape and colour
// and named beside its marker (roofline_chart.hpp places the labels clear of every marker,
// line and other label); a note says why a point above its memory roof is there. Hovering a
// marker names the kernel and its figures. With no results file, PMPP's A100 and its
// examples, each at its bound.
#include <imgui.h>

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstdio>
#include <optional>
#include <string>
#include <vector>

#include "figure_notes.hpp"
#include "ladder_view.hpp"
#include "layout.hpp"
#include "panels.hpp"
#include "roofline_chart.hpp"
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
    float legendReserve_ = 0;  ///< the most it took since the panel's size last changed
    std::string legendKey_;    ///< that size
    std::vector<std::string> keyed_;   ///< "3 regtile-1d": points the chart numbers for want of room
    std::vector<std::string> unplacedRoofs_;
    std::string layoutKey_;                 ///< what the markers and labels below were placed for
    std::vector<RooflineMark> marks_;
    std::vector<RooflineLabel> labels_;   ///< the note ("* ...") and roofs' figures the chart had no room for
};

void RooflinePanel::chart(Frame& f, const sim::Roofline& r)
{
    const Palette& pal = f.theme.palette;
    const sim::RooflineCeilings& c = r.ceilings;
    const float lh = ImGui::GetTextLineHeight();
    const float w = ImGui::GetContentRegionAvail().x;
    // A picture that takes all the height the panel has (its legend below it), at least
    // twelve lines of text at the desk and seven on a slide (a 1280 x 720 slide has room for
    // that under the caption).
    // The legend's room: the most it took since the panel last changed size, so that a legend
    // that grows when a label goes under the chart does not make the chart grow back and the
    // label return (a loop between two frames).
    const std::string sizeKey = std::to_string(w) + " " + std::to_string(ImGui::GetWindowHeight()) + " " + std::to_string(lh);
    if (sizeKey != legendKey_) legendKey_ = sizeKey, legendReserve_ = 0;
    legendReserve_ = std::max(legendReserve_, legendHeight_);
    // On a slide the chart takes at least kSlideRooflineShare of the window's height (a plot
    // of a few lines squeezes a decade of throughput into a sliver the back row cannot read).
    const float least = f.view.presentation ? std::max(7 * lh, kSlideRooflineShare * ImGui::GetIO().DisplaySize.y) : 12 * lh;
    const float h = elasticHeight(least, FLT_MAX, legendReserve_ + ImGui::GetStyle().ItemSpacing.y);

    const ImVec2 o = ImGui::GetCursorScreenPos();
    ImGui::InvisibleButton("chart", ImVec2(w, h));
    const bool hovered = ImGui::IsItemHovered();
    noteFigure(o, ImVec2(o.x + w, o.y + h));
    ImDrawList* dl = ImGui::GetWindowDrawList();
    // The y axis's title on a line above the plot, the x axis's figures and title below it.
    const float left = ImGui::CalcTextSize("100k").x + scaled(8), bottom = 2 * lh + scaled(6);
    const Box plot{o.x + left, o.y + lh + scaled(4), o.x + w - scaled(6), o.y + h - bottom};
    if (plot.width() < scaled(40) || plot.height() < scaled(40)) return;
    noteRooflinePlot(plot);
    const float rad = scaled(6.0f);
    const RooflineAxes ax = rooflineAxes(r, plot, 1.5f * lh + scaled(6), 3 * (2 * rad + 2));
    const ImVec2 a(plot.x0, plot.y0), b(plot.x1, plot.y1);
    auto X = [&](double v) { return ax.x(v); };
    auto Y = [&](double v) { return ax.y(v); };
    auto text = [&](ImVec2 at, ImU32 col, const std::string& t) {
        const ImVec2 ts = ImGui::CalcTextSize(t.c_str());
        dl->AddText(at, col, t.c_str());
        noteChartLabel(at, ImVec2(at.x + ts.x, at.y + ts.y), t);
    };
    dl->AddRectFilled(a, b, pal.chartBg, 3);
    dl->PushClipRect(a, b, true);
    // Decades, with faint lines at 2 to 9 times each.
    const ImU32 faint = (pal.chartLine & 0x00FFFFFF) | 0x30000000u;
    for (double e = std::floor(ax.lx0); e <= ax.lx1; ++e)
        for (int m = 1; m < 10; ++m) {
            const double v = std::pow(10.0, e) * m;
            if (std::log10(v) < ax.lx0 || std::log10(v) > ax.lx1) continue;
            dl->AddLine(ImVec2(X(v), a.y), ImVec2(X(v), b.y), m == 1 ? pal.chartLine : faint);
        }
    for (double e = std::floor(ax.ly0); e <= ax.ly1; ++e)
        for (int m = 1; m < 10; ++m) {
            const double v = std::pow(10.0, e) * m;
            if (std::log10(v) < ax.ly0 || std::log10(v) > ax.ly1) continue;
            dl->AddLine(ImVec2(a.x, Y(v)), ImVec2(b.x, Y(v)), m == 1 ? pal.chartLine : faint);
        }
    dl->PopClipRect();
    // The axes' figures: every decade, and on the y axis 2 and 5 times it where they leave a
    // line between figures.
    float lastX = -FLT_MAX;
    for (double e = std::ceil(ax.lx0); e <= ax.lx1; ++e) {
        const std::string t = decade(std::pow(10.0, e));
        const float tw = ImGui::CalcTextSize(t.c_str()).x;
        const float x = std::clamp(X(std::pow(10.0, e)) - tw / 2, o.x, b.x - tw);
        if (x < lastX + scaled(8)) continue;
        text(ImVec2(x, b.y + 2), pal.dimText, t);
        lastX = x + tw;
    }
    float lastY = FLT_MAX;
    for (double e = std::floor(ax.ly0); e <= ax.ly1; ++e)
        for (int m : {1, 2, 5}) {
            const double v = std::pow(10.0, e) * m;
            if (std::log10(v) < ax.ly0 || std::log10(v) > ax.ly1) continue;
            const float y = std::clamp(Y(v) - lh / 2, a.y, b.y - lh);
            if (y > lastY - 1.5f * lh) continue;
            const std::string t = decade(v);
            text(ImVec2(a.x - ImGui::CalcTextSize(t.c_str()).x - scaled(4), y), pal.dimText, t);
            lastY = y;
        }
    const char* xTitle = "FLOP per byte (log)";
    text(ImVec2(b.x - ImGui::CalcTextSize(xTitle).x, b.y + lh + scaled(4)), pal.dimText, xTitle);
    text(ImVec2(o.x, o.y), pal.dimText, "GFLOPS (log)");

    // The roofs and the ridge (their source is in the panel's heading).
    const ImU32 roofColour = ImGui::GetColorU32(ImGuiCol_Text);
    const float thick = std::max(2.0f, scaled(2.5f));
    const std::optional<double> ridge = c.ridge();
    if (ridge && c.peakFp32Gflops) {
        const ImVec2 rp(X(*ridge), Y(*c.peakFp32Gflops));
        for (float y = rp.y; y < b.y; y += scaled(8))
            dl->AddLine(ImVec2(rp.x, y), ImVec2(rp.x, std::min(b.y, y + scaled(4))), pal.dimText, 1.5f);
    }
    const Segment memory = memoryRoofSegment(c, ax);
    if (memory.x0 != memory.x1) {
        dl->PushClipRect(a, b, true);
        dl->AddLine(ImVec2(memory.x0, memory.y0), ImVec2(memory.x1, memory.y1), roofColour, thick);
        dl->PopClipRect();
    }
    if (c.peakFp32Gflops) {
        const float y = Y(*c.peakFp32Gflops);
        dl->AddLine(ImVec2(ridge ? std::max(a.x, X(*ridge)) : a.x, y), ImVec2(b.x, y), roofColour, thick);
    }
    if (ridge && c.peakFp32Gflops) dl->AddCircleFilled(ImVec2(X(*ridge), Y(*c.peakFp32Gflops)), scaled(4.5f), roofColour);

    // The markers (set aside where they would cover each other) and every label, placed
    // clear of them (chart_labels.hpp).
    TextMeasure measure;
    measure.width = [](const std::string& t) { return ImGui::CalcTextSize(t.c_str()).x; };
    measure.lineHeight = lh;
    measure.pad = scaled(2);
    // Placed again only when the plot, the text's size or the points change (a search over
    // the plot for each label that does not fit beside its marker).
    std::string key = std::to_string(plot.x0) + " " + std::to_string(plot.y0) + " " + std::to_string(plot.x1) + " " +
                      std::to_string(plot.y1) + " " + std::to_string(lh) + " " + r.caption + " " +
                      std::to_string(c.peakFp32Gflops.value_or(0)) + " " + std::to_string(c.memoryGbytesPerS.value_or(0));
    for (const sim::RooflinePoint& p : r.points) key += " " + p.kernel + std::to_string(p.gflops);
    if (key != layoutKey_) {
        layoutKey_ = key;
        marks_ = rooflineMarks(r, ax, rad);
        labels_ = rooflineLabels(r, ax, marks_, rad, measure, scaled(4));
    }
    const std::vector<RooflineMark>& marks = marks_;
    const std::vector<RooflineLabel>& labels = labels_;
    // A point's two markers joined by a faint line in its colour.
    for (const RooflineMark& q : marks)
        for (const RooflineMark& d : marks)
            if (q.point == d.point && q.requested && !d.requested)
                dl->AddLine(ImVec2(q.x, q.y), ImVec2(d.x, d.y), (kernelColour(r.points[q.point].kernel, pal) & 0x00FFFFFF) | 0x90000000u,
                            std::max(1.0f, scaled(1.5f)));
    for (const RooflineLabel& l : labels)
        if (l.place.placed && l.place.leader)
            dl->AddLine(ImVec2(l.place.leaderLine.x0, l.place.leaderLine.y0), ImVec2(l.place.leaderLine.x1, l.place.leaderLine.y1),
                        pal.dimText, std::max(1.0f, scaled(1.25f)));
    const ImU32 edge = (pal.cellText & 0x00FFFFFF) | 0xE0000000u;
    for (const RooflineMark& m : marks) {
        const KernelMark k = kernelMark(r.points[m.point].kernel, pal);
        drawMark(dl, ImVec2(m.x, m.y), rad, k.shape, k.colour, m.requested || r.points[m.point].textbook, edge,
                 std::max(2.0f, scaled(2.5f)));
    }
    for (const RooflineLabel& l : labels) {
        if (!l.place.placed) continue;
        const Box& q = l.place.box;
        const bool note = l.kind == RooflineLabelKind::Note;
        dl->AddRectFilled(ImVec2(q.x0, q.y0), ImVec2(q.x1, q.y1), (pal.chartBg & 0x00FFFFFF) | 0xE0000000u, scaled(3));
        if (note) dl->AddRect(ImVec2(q.x0, q.y0), ImVec2(q.x1, q.y1), pal.dimText, scaled(3), 0, std::max(1.0f, scaled(1)));
        const ImU32 col = l.kind == RooflineLabelKind::Ridge ? pal.dimText : roofColour;
        float y = q.y0 + measure.pad;
        if (l.place.shortForm) {
            dl->AddText(ImVec2(q.x0 + measure.pad, y), col, l.shortText.c_str());
        } else {
            for (const std::string& line : l.lines) {
                dl->AddText(ImVec2(q.x0 + measure.pad, y), col, line.c_str());
                y += lh;
            }
        }
        noteChartLabel(ImVec2(q.x0, q.y0), ImVec2(q.x1, q.y1), l.place.shortForm ? l.shortText : l.lines.front());
    }
    keyed_.clear();
    unplacedRoofs_.clear();
    for (const RooflineLabel& l : labels)
        if (!l.place.placed && (l.kind == RooflineLabelKind::Memory || l.kind == RooflineLabelKind::Peak ||
                                l.kind == RooflineLabelKind::Ridge))
            unplacedRoofs_.push_back(l.lines.front());
    for (const RooflineLabel& l : labels)
        if (l.kind == RooflineLabelKind::Point && (!l.place.placed || l.place.shortForm))
            keyed_.push_back(l.shortText + " " + l.lines.front());
        else if (l.kind == RooflineLabelKind::Note && (!l.place.placed || l.place.shortForm))
            unplacedRoofs_.insert(unplacedRoofs_.begin(), "* " + l.lines.front());
    if (hovered) {
        const ImVec2 mouse = ImGui::GetIO().MousePos;
        const RooflineMark* best = nullptr;
        float bestD = scaled(12) * scaled(12);
        for (const RooflineMark& m : marks) {
            const float d = (m.x - mouse.x) * (m.x - mouse.x) + (m.y - mouse.y) * (m.y - mouse.y);
            if (d <= bestD) bestD = d, best = &m;
        }
        if (best) {
            dl->AddCircle(ImVec2(best->x, best->y), rad + scaled(5), roofColour, 0, 2.0f);
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
            if (r->textbook && f.view.presentation)
                for (const sim::RooflinePoint& p : r->points)
                    intro += "\n" + shortName(p.kernel) + (p.tile ? " " + std::to_string(p.tile) : "") + ": " + groupedNoBreak(p.note) + ".";
            // On a slide beside the Ladder, whose heading says where and when the runs were
            // measured, the chart's heading is one short line: the two it saves keep the chart
            // its height under a caption bar with a notice in it.
            static const PanelId ladder = panelId("ladder");
            const bool besideLadder = f.view.presentation && !r->textbook && f.view.open[ladder];
            headingWithHelp(f.theme.fonts.bold, besideLadder ? "The same runs on the roofline" : r->caption, intro);
            chart(f, *r);
            // The legend: what filled and hollow markers are (each point is named on the chart;
            // those it had to number, by number).
            const float top = ImGui::GetCursorPosY();
            const float rad = scaled(5.0f);
            const ImU32 text = ImGui::GetColorU32(ImGuiCol_Text);
            float legendBottom = 0;
            if (r->textbook) {
                markerLegend("the textbook's bound", true, [&](ImDrawList* dl, ImVec2 c) { dl->AddCircleFilled(c, rad, text); });
                for (const std::string& k : keyed_) markerLegend(k.c_str(), false, [&](ImDrawList* dl, ImVec2 c) { dl->AddCircleFilled(c, rad, text); });
                legendBottom = ImGui::GetCursorScreenPos().y;
                // The argument itself, example by example (on a slide in the heading's "(?)").
                if (!f.view.presentation)
                    for (const sim::RooflinePoint& p : r->points)
                        colouredText(pal.dimText, shortName(p.kernel) + (p.tile ? " " + std::to_string(p.tile) : "") + ": " + groupedNoBreak(p.note) + ".");
            } else {
                markerLegend("filled: bytes requested (simulated)", true, [&](ImDrawList* dl, ImVec2 c) { dl->AddCircleFilled(c, rad, text); });
                const bool compulsory = std::any_of(r->points.begin(), r->points.end(), [](const sim::RooflinePoint& p) {
                    return p.dramSource == sim::DramSource::Compulsory;
                });
                markerLegend(compulsory ? "hollow: DRAM bytes (compulsory)" : "hollow: DRAM bytes", false,
                             [&](ImDrawList* dl, ImVec2 c) { dl->AddCircle(c, rad - 1, text, 0, 2.5f); });
                // The points the chart had to number for want of room, by number.
                for (const std::string& k : keyed_) {
                    const std::string name = k.substr(k.find(' ') + 1);
                    const sim::RooflinePoint* p = nullptr;
                    for (const sim::RooflinePoint& q : r->points)
                        if (rooflinePointName(q) == name) p = &q;
                    markerLegend(k.c_str(), false, [&](ImDrawList* dl, ImVec2 c) {
                        const KernelMark m = kernelMark(p ? p->kernel : "", pal);
                        drawMark(dl, c, rad, m.shape, m.colour, true, text, 1.5f);
                    });
                }
                legendBottom = ImGui::GetCursorScreenPos().y;
            }
            // The note and the roofs' figures the chart had no room for.
            if (!unplacedRoofs_.empty()) {
                std::string roofs;
                for (const std::string& t : unplacedRoofs_) {
                    if (t.rfind("* ", 0) == 0) colouredText(text, t);
                    else roofs += (roofs.empty() ? "" : ", ") + t;
                }
                if (!roofs.empty()) colouredText(text, roofs);
                legendBottom = ImGui::GetCursorScreenPos().y;
            }
            // The legend belongs to the figure (the pixel checks measure them together).
            const ImVec2 wp = ImGui::GetWindowPos();
            noteFigure(ImVec2(wp.x + ImGui::GetWindowContentRegionMin().x, wp.y + top - ImGui::GetScrollY()),
                       ImVec2(wp.x + ImGui::GetWindowContentRegionMax().x, legendBottom));
            legendHeight_ = ImGui::GetCursorPosY() - top;
        }
    }
    ImGui::End();
}

}  // namespace

std::unique_ptr<Panel> makeRooflinePanel() { return std::make_unique<RooflinePanel>(); }

}  // namespace ts::app
