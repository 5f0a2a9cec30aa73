#include "roofline_chart.hpp"

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <optional>

#include <imgui.h>

#include "ladder_view.hpp"

namespace ts::app {

float RooflineAxes::x(double v) const
{
    return plot.x0 + static_cast<float>((std::log10(v) - lx0) / (lx1 - lx0)) * plot.width();
}

float RooflineAxes::y(double v) const
{
    return plot.y1 - static_cast<float>((std::log10(v) - ly0) / (ly1 - ly0)) * plot.height();
}

RooflineAxes rooflineAxes(const sim::Roofline& r, const Box& plot, float headroom, float right)
{
    const sim::RooflineCeilings& c = r.ceilings;
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
    if (xhi <= 0) xlo = 0.1, xhi = 100;
    // The y range fits the points and the FP32 peak: the memory roof enters where it reaches
    // the slowest point's throughput (a roof far below every point would squeeze the points,
    // which differ by a decade or so, into a sliver of the plot). Without points, the memory
    // roof under the ridge and the peak.
    if (c.peakFp32Gflops) yhi = std::max(yhi, *c.peakFp32Gflops), ylo = std::min(ylo, *c.peakFp32Gflops);
    if (ylo == DBL_MAX && c.memoryGbytesPerS && xlo > 0 && xlo < DBL_MAX) ylo = *c.memoryGbytesPerS * xlo;
    if (yhi <= 0 || ylo == DBL_MAX) ylo = 100, yhi = 1e5;

    RooflineAxes a;
    a.plot = plot;
    a.lx0 = std::log10(xlo / 2);
    const double fr = std::clamp(plot.width() > 0 ? right / plot.width() : 0.0f, 0.0f, 0.5f);
    a.lx1 = std::max({a.lx0 + 2, std::log10(xhi * 1.2), a.lx0 + (std::log10(xhi) - a.lx0) / (1 - fr)});
    a.ly0 = std::log10(ylo) - 0.15;
    a.ly1 = std::log10(yhi * 1.15);
    if (a.ly1 - a.ly0 < 0.5) a.ly0 = a.ly1 - 0.5;
    // Room for the peak's figure above the flat roof: the top raised until the peak lies
    // `headroom` pixels under it.
    const double d = plot.height() > 0 ? std::min(0.5, static_cast<double>(headroom / plot.height())) : 0;
    const double top = std::log10(yhi);
    if ((a.ly1 - top) / (a.ly1 - a.ly0) < d) a.ly1 = (top - d * a.ly0) / (1 - d);
    return a;
}

std::vector<RooflineMark> rooflineMarks(const sim::Roofline& r, const RooflineAxes& axes, float radius)
{
    std::vector<RooflineMark> marks;
    for (size_t i = 0; i < r.points.size(); ++i) {
        const sim::RooflinePoint& p = r.points[i];
        if (p.gflops <= 0) continue;
        if (p.intensityRequested && *p.intensityRequested > 0)
            marks.push_back({i, true, axes.x(*p.intensityRequested), axes.y(p.gflops), axes.x(*p.intensityRequested)});
        if (p.intensityDram && *p.intensityDram > 0)
            marks.push_back({i, false, axes.x(*p.intensityDram), axes.y(p.gflops), axes.x(*p.intensityDram)});
    }
    // Every marker at its own intensity and throughput: a marker set aside to clear another
    // would claim an intensity the kernel does not have (a cuBLAS star moved from 683 to
    // 5 FLOP/B). Markers that coincide are drawn over each other; their shapes differ and
    // their labels (placed clear of them) and tooltips name each.
    (void)radius;
    return marks;
}

bool aboveMemoryRoof(const sim::RooflineCeilings& c, const sim::RooflinePoint& p)
{
    return !p.textbook && p.gflops > 0 && p.intensityRequested && c.memoryGbytesPerS &&
           p.gflops > *c.memoryGbytesPerS * *p.intensityRequested;
}

std::string rooflinePointName(const sim::RooflinePoint& p)
{
    std::string s = shortName(p.kernel);
    if (p.textbook) {
        if (p.tile) s += " " + std::to_string(p.tile);
        if (p.intensityDram) s += ", " + thousands(*p.intensityDram, 2) + " OP/B: " + thousands(p.gflops);
    }
    return s;
}

namespace {
NotedPlot gPlot;
}  // namespace

void noteRooflinePlot(const Box& plot)
{
    gPlot.plot = plot;
    gPlot.frame = ImGui::GetCurrentContext() ? ImGui::GetFrameCount() : -1;
}

NotedPlot lastRooflinePlot() { return gPlot; }

Segment memoryRoofSegment(const sim::RooflineCeilings& c, const RooflineAxes& axes)
{
    if (!c.memoryGbytesPerS) return {};
    const double bw = *c.memoryGbytesPerS;
    const std::optional<double> ridge = c.ridge();
    const double xs = std::max(std::pow(10.0, axes.lx0), std::pow(10.0, axes.ly0) / bw);
    const double xe = std::min(ridge ? *ridge : std::pow(10.0, axes.lx1), std::pow(10.0, axes.lx1));
    if (xe <= xs) return {};
    return {axes.x(xs), axes.y(bw * xs), axes.x(xe), axes.y(bw * xe)};
}

namespace {

/// `text` broken into lines at most `width` pixels wide (at spaces; a longer word alone).
std::vector<std::string> wrap(const std::string& text, float width, const TextMeasure& m)
{
    std::vector<std::string> lines;
    std::string line, word;
    auto flush = [&] {
        if (word.empty()) return;
        const std::string joined = line.empty() ? word : line + " " + word;
        if (!line.empty() && m.width(joined) > width) {
            lines.push_back(line);
            line = word;
        } else {
            line = joined;
        }
        word.clear();
    };
    for (char ch : text) {
        if (ch == ' ') flush();
        else word += ch;
    }
    flush();
    if (!line.empty()) lines.push_back(line);
    return lines;
}

}  // namespace

std::vector<RooflineLabel> rooflineLabels(const sim::Roofline& r, const RooflineAxes& axes,
                                          const std::vector<RooflineMark>& marks, float radius, const TextMeasure& text,
                                          float gap)
{
    const sim::RooflineCeilings& c = r.ceilings;
    const float lh = text.lineHeight, pad = text.pad;
    const Box& plot = axes.plot;
    std::vector<RooflineLabel> labels;
    LabelProblem prob;
    prob.plot = plot;
    prob.gap = gap;
    prob.step = std::max(2.0f, lh / 4);
    for (const RooflineMark& m : marks) prob.marks.push_back({m.x - radius, m.y - radius, m.x + radius, m.y + radius});

    // The lines labels keep off: the roofs and the ridge's dashed line; where they can, the
    // faint line that joins another point's two markers (its own reads as its name's line).
    for (const RooflineMark& a : marks)
        for (const RooflineMark& b : marks)
            if (a.point == b.point && a.requested && !b.requested)
                prob.softLines.push_back({{a.x, a.y, b.x, b.y}, static_cast<int>(a.point)});
    const Segment memory = memoryRoofSegment(c, axes);
    if (memory.x0 != memory.x1) prob.lines.push_back(memory);
    const std::optional<double> ridge = c.ridge();
    if (c.peakFp32Gflops) {
        const float py = axes.y(*c.peakFp32Gflops), rx = ridge ? axes.x(*ridge) : plot.x0;
        prob.lines.push_back({std::max(plot.x0, rx), py, plot.x1, py});
        if (ridge) prob.lines.push_back({rx, py, rx, plot.y1});
    }

    auto request = [&](const std::vector<std::string>& lines, float ax, float ay, float rad) {
        LabelRequest q;
        for (const std::string& l : lines) q.width = std::max(q.width, text.width(l));
        q.width += 2 * pad;
        q.height = lh * static_cast<float>(lines.size()) + 2 * pad;
        q.ax = ax;
        q.ay = ay;
        q.radius = rad;
        return q;
    };

    // Each point's name at its requested marker, or its only one.
    int number = 0;
    size_t firstAbove = r.points.size();
    for (size_t i = 0; i < r.points.size(); ++i) {
        const sim::RooflinePoint& p = r.points[i];
        const RooflineMark* at = nullptr;
        for (const RooflineMark& m : marks)
            if (m.point == i && (!at || m.requested)) at = &m;
        if (!at) continue;
        ++number;
        RooflineLabel l;
        l.kind = RooflineLabelKind::Point;
        l.point = i;
        l.lines = {rooflinePointName(p)};
        l.shortText = std::to_string(number);
        LabelRequest q = request(l.lines, at->x, at->y, radius);
        q.shortWidth = text.width(l.shortText) + 2 * pad;
        q.owner = static_cast<int>(i);
        labels.push_back(l);
        prob.labels.push_back(q);
        if (firstAbove == r.points.size() && aboveMemoryRoof(c, p)) firstAbove = i;
    }
    // The roofs' figures: along the slope above and left of it, else below and right; the
    // peak's above the flat roof at the right, else left of the ridge; the ridge's at the
    // foot of its line.
    if (memory.x0 != memory.x1) {
        RooflineLabel l;
        l.kind = RooflineLabelKind::Memory;
        l.lines = {"memory " + thousands(*c.memoryGbytesPerS) + " GB/s"};
        const float mx = (memory.x0 + memory.x1) / 2, my = (memory.y0 + memory.y1) / 2;
        LabelRequest q = request(l.lines, mx, my, 0);
        for (float f : {0.55f, 0.75f, 0.35f, 0.9f}) {
            const float x = memory.x0 + (memory.x1 - memory.x0) * f, y = memory.y0 + (memory.y1 - memory.y0) * f;
            q.preferred.push_back({x - q.width - gap, y - q.height - gap});
        }
        for (float f : {0.4f, 0.2f, 0.6f}) {
            const float x = memory.x0 + (memory.x1 - memory.x0) * f, y = memory.y0 + (memory.y1 - memory.y0) * f;
            q.preferred.push_back({x + gap, y + gap});
        }
        q.rank = 2;
        labels.push_back(l);
        prob.labels.push_back(q);
    }
    if (c.peakFp32Gflops) {
        RooflineLabel l;
        l.kind = RooflineLabelKind::Peak;
        l.lines = {"FP32 peak " + thousands(*c.peakFp32Gflops) + " GFLOPS"};
        const float py = axes.y(*c.peakFp32Gflops), rx = ridge ? axes.x(*ridge) : plot.x0;
        LabelRequest q = request(l.lines, plot.x1 - gap, py, 0);
        q.preferred = {{plot.x1 - q.width - gap, py - q.height - gap},
                       {rx + gap, py - q.height - gap},
                       {rx - gap - q.width, py - q.height / 2},
                       {plot.x1 - q.width - gap, py + gap}};
        q.rank = 2;
        labels.push_back(l);
        prob.labels.push_back(q);
    }
    if (ridge && c.peakFp32Gflops) {
        RooflineLabel l;
        l.kind = RooflineLabelKind::Ridge;
        l.lines = {"ridge " + thousands(*ridge, *ridge < 100 ? 1 : 0) + " FLOP/B"};
        const float rx = axes.x(*ridge);
        LabelRequest q = request(l.lines, rx, plot.y1, 0);
        q.ay = plot.y1 - q.height / 2 - gap;
        q.preferred = {{rx + gap, plot.y1 - q.height - gap}, {rx - gap - q.width, plot.y1 - q.height - gap}};
        q.rank = 2;
        labels.push_back(l);
        prob.labels.push_back(q);
    }
    // Why a point beats its memory roof, at the first that does.
    if (firstAbove < r.points.size()) {
        const RooflineMark* at = nullptr;
        for (const RooflineMark& m : marks)
            if (m.point == firstAbove && m.requested) at = &m;
        std::vector<std::string> names;
        for (const sim::RooflinePoint& p : r.points)
            if (aboveMemoryRoof(c, p)) names.push_back(shortName(p.kernel));
        std::string who = names.front();
        for (size_t i = 1; i < names.size(); ++i) who += (i + 1 == names.size() ? " and " : ", ") + names[i];
        const bool one = names.size() == 1;
        const std::string note = who + (one ? " beats its memory roof" : " beat their memory roofs") +
                                 ": the L1 and L2 caches served the reuse, so DRAM bandwidth does not bound " +
                                 (one ? "it." : "them.");
        RooflineLabel l;
        l.kind = RooflineLabelKind::Note;
        l.point = firstAbove;
        labels.push_back(l);
        prob.labels.push_back({});
        // The note wrapped to a few words a line, a third of the plot, as narrow as its words
        // allow, then wider, until it finds a place; then the short note the same way.
        const std::string shortNote = "caches (L1, L2) served the reuse: DRAM does not bound " +
                                      std::string(one ? "it" : "them");
        bool placed = false;
        labels.back().shortText = "*";
        for (const std::string& t : {note, shortNote}) {
            const float narrow = text.width("the reuse: DRAM");
            for (float width : {text.width("served the reuse, so DRAM"), plot.width() * 0.3f, narrow, plot.width() * 0.45f,
                                plot.width() * 0.6f}) {
                labels.back().lines = wrap(t, std::max(narrow, width), text);
                prob.labels.back() = request(labels.back().lines, at->x, at->y, radius);
                prob.labels.back().rank = 1;
                prob.labels.back().owner = static_cast<int>(firstAbove);
                prob.labels.back().shortWidth = text.width("*") + 2 * pad;
                prob.labels.back().shortHeight = lh + 2 * pad;
                const LabelPlace last = placeLabels(prob).back();
                placed = last.placed && !last.shortForm;
                if (placed) break;
            }
            if (placed) break;
        }
        // No room on the chart: a "*" by the point, and the whole note under the chart.
        if (!placed) labels.back().lines = {note};
    }
    const std::vector<LabelPlace> places = placeLabels(prob);
    for (size_t i = 0; i < labels.size(); ++i) labels[i].place = places[i];
    return labels;
}

}  // namespace ts::app
