// The Roofline panel's geometry (docs/roofline.md): the logarithmic axes a roofline gets in
// a plot box, where each point's markers go (markers that would cover each other set side
// by side), which points beat their memory roof, and where every label goes
// (chart_labels.hpp). Pixels, x right and y down; no ImGui (text is measured through a
// function the caller gives), so that tests/app/chart_labels_test.cpp can lay out the
// committed H100 file at the panel's sizes without a window.
#pragma once
#include <cstddef>
#include <functional>
#include <string>
#include <vector>

#include "chart_labels.hpp"
#include "sim/teaching/roofline.hpp"

namespace ts::app {

/// The axes of a roofline in a plot box: log10 of FLOP per byte from lx0 to lx1 across,
/// log10 of GFLOPS from ly0 (bottom) to ly1 (top). The ends need not be whole decades.
struct RooflineAxes {
    Box plot;
    double lx0 = -1, lx1 = 2, ly0 = 2, ly1 = 5;
    float x(double flopPerByte) const;   ///< pixel column of an intensity (> 0)
    float y(double gflops) const;        ///< pixel row of a throughput (> 0)
};

/// The axes of `r` in `plot`: every point's intensities and the ridge fit with a margin
/// across; the points' throughputs and the FP32 peak fit up and down (at least half a
/// decade; the memory roof enters from the bottom edge), the peak at least `headroom`
/// pixels under the top (room for its figure); the rightmost intensity at least `right`
/// pixels left of the plot's edge.
RooflineAxes rooflineAxes(const sim::Roofline& r, const Box& plot, float headroom, float right);

/// One marker: a point of the roofline at one of its intensities.
struct RooflineMark {
    size_t point = 0;         ///< index into Roofline::points
    bool requested = false;   ///< at the requested intensity (filled), else the DRAM one (hollow)
    float x = 0, y = 0;       ///< where it is drawn
    float trueX = 0;          ///< where its intensity lies (always x: markers are never set aside)
};

/// The markers of `r` on `axes`, each `radius` pixels: the requested one of every point
/// that has that intensity, the DRAM one of every point that has that one, in points'
/// order, each exactly at its intensity (x) and throughput (y); coinciding markers are not
/// moved apart.
std::vector<RooflineMark> rooflineMarks(const sim::Roofline& r, const RooflineAxes& axes, float radius);

/// Whether point `p` runs faster than the memory roof at its requested intensity allows
/// (a measured point only): the caches (L1, L2) served part of the bytes it asked for, so
/// the DRAM bandwidth does not bound it.
bool aboveMemoryRoof(const sim::RooflineCeilings& c, const sim::RooflinePoint& p);

/// What a label of the roofline says.
enum class RooflineLabelKind {
    Point,    ///< a point's name (its requested marker, or its only one)
    Memory,   ///< the memory roof's figure
    Peak,     ///< the FP32 roof's figure
    Ridge,    ///< the ridge point's intensity
    Note,     ///< why a point lies above its memory roof
};

/// One label of the roofline and where it goes.
struct RooflineLabel {
    RooflineLabelKind kind = RooflineLabelKind::Point;
    std::vector<std::string> lines;   ///< its text, one entry a line
    std::string shortText;            ///< the point's number ("3"), or "*" for the note, drawn where the whole does not fit
    size_t point = 0;                 ///< Point, Note: the point it names (index into Roofline::points)
    LabelPlace place;
};

/// How the caller measures text: the width of one line in pixels, and the line height.
struct TextMeasure {
    std::function<float(const std::string&)> width;
    float lineHeight = 0;
    float pad = 2;   ///< pixels between a label's text and its box's edge
};

/// The short name a point goes by on the chart: "tiled" for matmul-tiled, the textbook's
/// tiled examples with their TILE_WIDTH and OP/B ("tiled 16, 4.00 OP/B").
std::string rooflinePointName(const sim::RooflinePoint& p);

/// Every label of the roofline `r` drawn on `axes` with `marks` (markers `radius` pixels):
/// each point's name, the roofs' figures, the ridge's intensity and, where a point beats its
/// memory roof, a note saying why (anchored on the first such point; where it finds no room
/// it becomes a "*" by the point, its whole sentence in `lines` for the legend), placed by
/// placeLabels() clear of the markers, the roofs, the ridge's line and the lines joining a
/// point's two markers. `gap`: pixels between labels and what they keep clear of.
std::vector<RooflineLabel> rooflineLabels(const sim::Roofline& r, const RooflineAxes& axes,
                                          const std::vector<RooflineMark>& marks, float radius, const TextMeasure& text,
                                          float gap);

/// The least height of the Roofline's chart on a slide, as a share of the window's height
/// (its plot then about 0.3 of it: 320 px at 1080 lines).
constexpr float kSlideRooflineShare = 0.40f;

/// Records the plot box the Roofline panel drew its axes in this frame (pixels), for
/// --print-layout (layout.hpp's textReport); lastRooflinePlot() gives it with the ImGui frame
/// it was drawn in.
void noteRooflinePlot(const Box& plot);
struct NotedPlot {
    Box plot;
    int frame = -1;   ///< ImGui's frame count when noted (-1: never)
};
NotedPlot lastRooflinePlot();

/// The segment of the memory roof inside the axes (from the bottom or left edge to the
/// ridge, or to the right edge without a peak); empty (all zero) without a bandwidth.
Segment memoryRoofSegment(const sim::RooflineCeilings& c, const RooflineAxes& axes);

}  // namespace ts::app
