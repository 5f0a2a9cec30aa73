// The Roofline's labels (app/gui/panels/chart_labels.hpp, roofline_chart.hpp): every point
// of the committed H100 results file named, no two label boxes overlapping each other or a
// marker, at the plot sizes the Roofline panel has at 1280x720, 1600x900 and 1920x1080 at the
// desk and on a slide (text measured with the app's own DejaVu Sans at each scale); the same
// for synthetic crowds of points; the placer's choices on small hand-made problems; each
// kernel's marker its own pair of shape and colour, the colours 3:1 against both themes'
// chart backgrounds. Overlap and contrast are counted here a second way, not with the
// functions under test.
#include <gtest/gtest.h>
#include <imgui.h>

#include <cmath>
#include <cstdio>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "panels/chart_labels.hpp"
#include "panels/ladder_view.hpp"
#include "panels/roofline_chart.hpp"
#include "sim/catalogue/kernel_registry.hpp"
#include "sim/files/results_file.hpp"
#include "sim/teaching/roofline.hpp"
#include "theme.hpp"

using namespace ts;
using namespace ts::app;

namespace {

/// Whether the open boxes a and b share any pixel area (touching edges do not).
bool overlap(const Box& a, const Box& b)
{
    const float w = std::min(a.x1, b.x1) - std::max(a.x0, b.x0);
    const float h = std::min(a.y1, b.y1) - std::max(a.y0, b.y0);
    return w > 0 && h > 0;
}

bool inside(const Box& in, const Box& out)
{
    return in.x0 >= out.x0 && in.x1 <= out.x1 && in.y0 >= out.y0 && in.y1 <= out.y1;
}

/// An ImGui context with the app's fonts at `scale`, for measuring text as the panel does.
struct Fonts {
    explicit Fonts(float scale)
    {
        ctx = ImGui::CreateContext();
        theme = makeTheme(scale);
        unsigned char* pixels = nullptr;
        int w = 0, h = 0;
        ImGui::GetIO().Fonts->GetTexDataAsAlpha8(&pixels, &w, &h);
    }
    ~Fonts() { ImGui::DestroyContext(ctx); }
    TextMeasure measure() const
    {
        ImFont* f = theme.fonts.ui;
        TextMeasure m;
        m.width = [f](const std::string& t) { return f->CalcTextSizeA(f->FontSize, FLT_MAX, 0, t.c_str()).x; };
        m.lineHeight = f->FontSize;
        m.pad = 2 * theme.scale;
        return m;
    }
    ImGuiContext* ctx;
    Theme theme;
};

/// The roofline of the committed H100 file with the simulator's counts.
const sim::Roofline& h100()
{
    static const sim::Roofline r = [] {
        const sim::ResultsFile f = sim::loadResultsFile(std::string(TILESCOPE_ASSETS_DIR) + "/results/ladder-4096-h100.json");
        std::vector<sim::RungCounts> counts;
        for (const auto& [kernel, tile] : sim::rungsToCount(&f)) counts.push_back(sim::countRung(kernel, tile));
        return sim::resultsRoofline(f, counts);
    }();
    return r;
}

/// Lays `r` out in a plot `w` x `h` at `scale` as the panel does, and checks every point
/// named (in full or by number), every label in the plot, no two labels overlapping, no label
/// over a marker. Returns the labels.
std::vector<RooflineLabel> checkLayout(const sim::Roofline& r, float w, float h, float scale, const std::string& what)
{
    Fonts fonts(scale);
    const TextMeasure m = fonts.measure();
    const Box plot{40 * scale, 30 * scale, 40 * scale + w, 30 * scale + h};
    const float rad = 6 * scale;
    const RooflineAxes ax = rooflineAxes(r, plot, 1.5f * m.lineHeight + 6 * scale, 3 * (2 * rad + 2));
    const std::vector<RooflineMark> marks = rooflineMarks(r, ax, rad);
    const std::vector<RooflineLabel> labels = rooflineLabels(r, ax, marks, rad, m, 4 * scale);
    std::set<size_t> named;
    for (const RooflineLabel& l : labels) {
        // A roof's figure may go to the legend under the chart; a point's name and the note not.
        const bool roof = l.kind != RooflineLabelKind::Point && l.kind != RooflineLabelKind::Note;
        if (!roof) EXPECT_TRUE(l.place.placed) << what << ": '" << l.lines.front() << "' has no place";
        if (!l.place.placed) continue;
        if (l.kind == RooflineLabelKind::Point) named.insert(l.point);
        EXPECT_TRUE(inside(l.place.box, plot)) << what << ": '" << l.lines.front() << "' leaves the plot";
        for (const RooflineMark& k : marks) {
            const Box mb{k.x - rad, k.y - rad, k.x + rad, k.y + rad};
            EXPECT_FALSE(overlap(l.place.box, mb))
                << what << ": '" << l.lines.front() << "' covers the marker of " << r.points[k.point].kernel;
        }
    }
    for (size_t i = 0; i < labels.size(); ++i)
        for (size_t j = i + 1; j < labels.size(); ++j)
            if (labels[i].place.placed && labels[j].place.placed)
                EXPECT_FALSE(overlap(labels[i].place.box, labels[j].place.box))
                    << what << ": '" << labels[i].lines.front() << "' overlaps '" << labels[j].lines.front() << "'";
    int full = 0, numbered = 0, leaders = 0, legend = 0;
    for (const RooflineLabel& l : labels) {
        full += l.place.placed && !l.place.shortForm;
        numbered += l.place.placed && l.place.shortForm;
        leaders += l.place.placed && l.place.leader;
        legend += !l.place.placed;
    }
    std::printf("%s (%.0f x %.0f at %.0fx): %d labels in full, %d by number, %d with leader lines, %d roof figures in the legend\n",
                what.c_str(), w, h, scale, full, numbered, leaders, legend);
    for (size_t i = 0; i < r.points.size(); ++i)
        if (r.points[i].gflops > 0) EXPECT_TRUE(named.count(i)) << what << ": " << r.points[i].kernel << " is not named";
    // Every marker at its own intensity and throughput (issue 37: set aside, the cuBLAS star
    // went from 683 to 5 FLOP/B): the pixel the axes give for them, and back.
    for (const RooflineMark& k : marks) {
        const sim::RooflinePoint& p = r.points[k.point];
        const double intensity = k.requested ? *p.intensityRequested : *p.intensityDram;
        EXPECT_NEAR(k.x, ax.x(intensity), 0.01) << what << ": " << p.kernel;
        EXPECT_NEAR(k.y, ax.y(p.gflops), 0.01) << what << ": " << p.kernel;
        const double back = std::pow(10.0, ax.lx0 + (k.x - plot.x0) / plot.width() * (ax.lx1 - ax.lx0));
        EXPECT_NEAR(back / intensity, 1.0, 1e-3) << what << ": " << p.kernel;
        EXPECT_TRUE(k.x >= plot.x0 && k.x <= plot.x1 && k.y >= plot.y0 && k.y <= plot.y1) << what << ": " << p.kernel;
    }
    return labels;
}

}  // namespace

// The plot sizes (width x height of the plot box inside the axes) the Roofline panel had in
// the app with the H100 file (tests/gui/scenarios/ladder-roofline.toml), measured at each
// window size at the desk (scale 1) and on a slide (scale 2; at 1280 x 720 the layout folds
// both panels today, as on main, so that size is the 1280-wide column with the chart's
// least height and a little more), and a square one.
TEST(ChartLabels, H100AtThePanelsSizes)
{
    const sim::Roofline& r = h100();
    ASSERT_EQ(r.points.size(), 11u);
    struct Size {
        const char* what;
        float w, h, scale;
    };
    const Size sizes[] = {
        {"1280x720 desk", 356, 422, 1},   {"1600x900 desk", 1529, 231, 1},  {"1920x1080 desk", 1849, 321, 1},
        {"1280x720 slide", 1111, 300, 2}, {"1600x900 slide", 1431, 304, 2}, {"1920x1080 slide", 623, 534, 2},
        {"1920x1080 slide, square", 900, 800, 2},
    };
    for (const Size& s : sizes) {
        const std::vector<RooflineLabel> labels = checkLayout(r, s.w, s.h, s.scale, s.what);
        // matmul-naive runs above its memory roof (5,355 GFLOPS > 2,944 GB/s x 0.50 FLOP/B), and
        // the note that says why is there, anchored on it.
        int notes = 0;
        for (const RooflineLabel& l : labels)
            if (l.kind == RooflineLabelKind::Note) {
                ++notes;
                EXPECT_EQ(r.points[l.point].kernel, "matmul-naive") << s.what;
                // In full on the chart, or as a "*" by the point with the sentence in the legend.
                EXPECT_TRUE(l.place.placed) << s.what;
                if (l.place.shortForm) {
                    std::printf("  %s: the note is a * by naive, its sentence under the chart\n", s.what);
                    EXPECT_LT(l.place.box.height(), 2 * 17 * s.scale) << s.what << ": the * is one line high";
                }
            }
        EXPECT_EQ(notes, 1) << s.what;
    }
}

// The H100 file's cuBLAS entry: 2 x 4096^3 FLOPs over the compulsory 3 x 4096^2 x 4 bytes
// is 683 FLOP/B, where its star goes (issue 37 found it at about 5), and its GFLOPS at the
// matching height; the y range fits the measured points (the slowest, naive at 5,355 GFLOPS,
// within a fifth of a decade of the bottom) and the FP32 peak, so that a decade of
// throughput takes more than half the plot's height rather than a sliver.
TEST(ChartLabels, MarkersAtTheirIntensity)
{
    const sim::Roofline& r = h100();
    const Box plot{80, 60, 80 + 623, 60 + 534};
    const RooflineAxes ax = rooflineAxes(r, plot, 60, 3 * 26);
    const std::vector<RooflineMark> marks = rooflineMarks(r, ax, 12);
    const double compulsory = 2.0 * 4096.0 * 4096.0 * 4096.0 / (3.0 * 4096.0 * 4096.0 * 4.0);
    EXPECT_NEAR(compulsory, 682.67, 0.01);
    int stars = 0;
    for (const RooflineMark& m : marks) {
        if (r.points[m.point].kernel != "cublas") continue;
        ++stars;
        EXPECT_FALSE(m.requested);   // the simulator does not run cuBLAS: only the DRAM marker
        const double at = std::pow(10.0, ax.lx0 + (m.x - plot.x0) / plot.width() * (ax.lx1 - ax.lx0));
        EXPECT_NEAR(at, compulsory, 1.0) << "the cuBLAS star at " << at << " FLOP/B";
        const double gflops = std::pow(10.0, ax.ly0 + (plot.y1 - m.y) / plot.height() * (ax.ly1 - ax.ly0));
        EXPECT_NEAR(gflops / 51374.9, 1.0, 1e-3);
    }
    EXPECT_EQ(stars, 1);
    // The axes' own mapping: the ends of the ranges at the plot's edges.
    EXPECT_NEAR(ax.x(std::pow(10.0, ax.lx0)), plot.x0, 0.01);
    EXPECT_NEAR(ax.x(std::pow(10.0, ax.lx1)), plot.x1, 0.01);
    EXPECT_NEAR(ax.y(std::pow(10.0, ax.ly0)), plot.y1, 0.01);
    EXPECT_NEAR(ax.y(std::pow(10.0, ax.ly1)), plot.y0, 0.01);
    EXPECT_LE(ax.ly0, std::log10(5354.70));
    EXPECT_GE(ax.ly0, std::log10(5354.70) - 0.2);
    EXPECT_GT(ax.y(5354.70) - ax.y(53547.0), 0.5f * plot.height());
}

TEST(ChartLabels, OnlyTheNaivePointBeatsItsMemoryRoof)
{
    const sim::Roofline& r = h100();
    const double bw = *r.ceilings.memoryGbytesPerS;
    for (const sim::RooflinePoint& p : r.points) {
        // Worked out here from the figures: GFLOPS against bandwidth x requested intensity.
        const bool above = p.intensityRequested && p.gflops > bw * *p.intensityRequested;
        EXPECT_EQ(aboveMemoryRoof(r.ceilings, p), above) << p.kernel;
        EXPECT_EQ(above, p.kernel == "matmul-naive") << p.kernel << " at " << p.gflops;
    }
}

TEST(ChartLabels, TextbookProfile)
{
    const sim::Roofline r = sim::textbookRoofline();
    checkLayout(r, 560, 380, 1, "textbook desk");
    checkLayout(r, 500, 300, 2, "textbook slide");
}

// Twenty points crowded into a factor of 1.6 of intensity and of GFLOPS (and their twenty
// DRAM markers in one column): every one named, by number where its name finds no room, and
// no two labels overlapping.
TEST(ChartLabels, SyntheticCrowd)
{
    sim::Roofline r;
    r.ceilings.peakFp32Gflops = 60000;
    r.ceilings.memoryGbytesPerS = 3000;
    r.ceilings.source = sim::CeilingSource::Measured;
    for (int i = 0; i < 20; ++i) {
        sim::RooflinePoint p;
        p.kernel = sim::kLadderRungs[i % 10];
        p.gflops = 20000 * std::pow(1.6, (i * 7 % 20) / 20.0);
        p.intensityRequested = 30 * std::pow(1.6, i / 20.0);
        p.intensityDram = 683;
        p.dramSource = sim::DramSource::Compulsory;
        r.points.push_back(p);
    }
    checkLayout(r, 600, 360, 1, "crowd at the desk");
    checkLayout(r, 1200, 560, 2, "crowd on a slide");
}

// All points on one spot: the markers stay on it, every point still named.
TEST(ChartLabels, PointsOnOneSpot)
{
    sim::Roofline r;
    r.ceilings.peakFp32Gflops = 20000;
    r.ceilings.memoryGbytesPerS = 1500;
    for (int i = 0; i < 6; ++i) {
        sim::RooflinePoint p;
        p.kernel = sim::kLadderRungs[i];
        p.gflops = 5000;
        p.intensityRequested = 4;
        r.points.push_back(p);
    }
    checkLayout(r, 600, 360, 1, "one spot");
}

// The placer's own choices: right of the mark where that is free; left where a second mark
// takes the right; the short form where the whole label finds no room; the plot's edge kept.
TEST(ChartLabels, PlacerChoices)
{
    LabelProblem p;
    p.plot = {0, 0, 400, 200};
    p.gap = 4;
    LabelRequest q;
    q.width = 60;
    q.height = 20;
    q.ax = 200;
    q.ay = 100;
    q.radius = 5;
    p.marks.push_back({195, 95, 205, 105});
    p.labels.push_back(q);
    std::vector<LabelPlace> out = placeLabels(p);
    ASSERT_TRUE(out[0].placed);
    // Right of the mark: left edge at 200 + 5 + 4, centred on the mark's row.
    EXPECT_FLOAT_EQ(out[0].box.x0, 209);
    EXPECT_FLOAT_EQ(out[0].box.y0, 90);
    EXPECT_FALSE(out[0].leader);

    p.marks.push_back({215, 95, 225, 105});   // a second mark where the label went
    out = placeLabels(p);
    ASSERT_TRUE(out[0].placed);
    EXPECT_FLOAT_EQ(out[0].box.x1, 191);   // left of the mark: 200 - 5 - 4
    EXPECT_FALSE(out[0].leader);

    // A plot only just taller than the label and a wall of marks beside the anchor: the
    // label goes far, with a leader line from the mark's edge to its box.
    LabelProblem far;
    far.plot = {0, 0, 400, 30};
    far.gap = 4;
    for (float x = 150; x <= 250; x += 12) far.marks.push_back({x - 5, 10, x + 5, 20});
    LabelRequest r = q;
    r.ax = 198;
    r.ay = 15;
    far.labels.push_back(r);
    out = placeLabels(far);
    ASSERT_TRUE(out[0].placed);
    EXPECT_TRUE(out[0].leader);
    EXPECT_TRUE(out[0].box.x1 <= 143 || out[0].box.x0 >= 253) << out[0].box.x0;   // 2 px (gap / 2) clear of the wall
    EXPECT_GT(std::hypot(out[0].leaderLine.x0 - r.ax, out[0].leaderLine.y0 - r.ay), 0);

    // No room for 60 pixels anywhere, room for 12: the short form.
    LabelProblem tight;
    tight.plot = {0, 0, 50, 30};
    tight.gap = 2;
    LabelRequest s = q;
    s.ax = 10;
    s.ay = 15;
    s.radius = 3;
    s.shortWidth = 12;
    tight.labels.push_back(s);
    out = placeLabels(tight);
    ASSERT_TRUE(out[0].placed);
    EXPECT_TRUE(out[0].shortForm);
    EXPECT_FLOAT_EQ(out[0].box.width(), 12);
    EXPECT_TRUE(inside(out[0].box, tight.plot));
}

TEST(ChartLabels, SegmentAndBox)
{
    const Box b{10, 10, 20, 20};
    EXPECT_TRUE(segmentCrossesBox({0, 0, 30, 30}, b));     // the diagonal
    EXPECT_FALSE(segmentCrossesBox({0, 30, 30, 25}, b));   // passes under it
    EXPECT_TRUE(segmentCrossesBox({0, 22, 30, 22}, b, 3));   // within 3 px
    EXPECT_FALSE(segmentCrossesBox({0, 22, 30, 22}, b, 1));
    EXPECT_FALSE(segmentCrossesBox({0, 0, 5, 5}, b));       // stops short
}

// Each rung and cuBLAS: a pair of shape and colour no other has, neighbours differing in
// both, every colour at least 3:1 against the chart background of both themes (WCAG 2.1
// relative luminance, computed here).
TEST(ChartLabels, KernelMarks)
{
    auto lum = [](ImU32 c) {
        auto ch = [](unsigned v) {
            const double s = v / 255.0;
            return s <= 0.04045 ? s / 12.92 : std::pow((s + 0.055) / 1.055, 2.4);
        };
        return 0.2126 * ch(c & 0xFF) + 0.7152 * ch((c >> 8) & 0xFF) + 0.0722 * ch((c >> 16) & 0xFF);
    };
    std::vector<std::string> kernels(std::begin(sim::kLadderRungs), std::end(sim::kLadderRungs));
    kernels.push_back("cublas");
    for (const Palette& pal : {Palette{}, lightPalette()}) {
        std::set<std::pair<int, ImU32>> pairs;
        for (size_t i = 0; i < kernels.size(); ++i) {
            const KernelMark m = kernelMark(kernels[i], pal);
            EXPECT_TRUE(pairs.insert({static_cast<int>(m.shape), m.colour}).second) << kernels[i];
            const double a = lum(m.colour), b = lum(pal.chartBg);
            EXPECT_GE((std::max(a, b) + 0.05) / (std::min(a, b) + 0.05), 3.0) << kernels[i];
            if (i > 0) {
                const KernelMark before = kernelMark(kernels[i - 1], pal);
                EXPECT_NE(m.shape, before.shape) << kernels[i];
                EXPECT_NE(m.colour, before.colour) << kernels[i];
            }
        }
    }
}
