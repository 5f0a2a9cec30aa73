// Where a chart's labels go (the Roofline's point names, its roofs' figures, its notes): a
// place for every label inside the plot where it covers no mark, no line and no other
// label, beside its mark where there is room, else as near as there is room with a leader
// line back to the mark, else (the label's short form, a number keyed in the legend) the
// same. Pure geometry in pixels, x right and y down; no ImGui, so that the unit tests
// (tests/app/chart_labels_test.cpp) can check it without a window.
#pragma once
#include <utility>
#include <vector>

namespace ts::app {

/// An axis-aligned box in pixels: [x0, x1] x [y0, y1].
struct Box {
    float x0 = 0, y0 = 0, x1 = 0, y1 = 0;
    float width() const { return x1 - x0; }
    float height() const { return y1 - y0; }
};

/// Whether `a` and `b` come closer than `air` pixels (0: whether they overlap; boxes that
/// only touch do not).
bool boxesClose(const Box& a, const Box& b, float air = 0);

/// A straight line drawn on the chart (a roof, a leader line) that labels keep off.
struct Segment {
    float x0 = 0, y0 = 0, x1 = 0, y1 = 0;
};

/// Whether segment `s` passes through box `b` grown by `air` pixels on every side.
bool segmentCrossesBox(const Segment& s, const Box& b, float air = 0);

/// One label to place: its box's size, the mark it names and where it would rather be.
struct LabelRequest {
    float width = 0, height = 0;      ///< the whole label box (text and padding), pixels
    float ax = 0, ay = 0;             ///< the mark it names (its centre)
    float radius = 0;                 ///< the mark's half-size: the box keeps `gap` clear of it
    /// Preferred top-left corners, tried in order before the places around the mark (a roof's
    /// figure along its roof, say). Taken only where free; no leader line from them.
    std::vector<std::pair<float, float>> preferred;
    /// The short form's width (a number keyed in the legend), tried where the whole label
    /// fits nowhere; 0: none.
    float shortWidth = 0;
    float shortHeight = 0;            ///< the short form's height; 0: `height`
    bool leaderAllowed = true;        ///< may sit away from its mark, joined to it by a line
    int rank = 0;                     ///< lower ranks are placed first (all their places tried)
    int owner = -1;                   ///< the item it names: it may lie on that item's soft lines
};

/// What placeLabels decided for one request.
struct LabelPlace {
    Box box;                  ///< where the label goes (meaningless when !placed)
    bool placed = false;      ///< false: no free place in the plot, not even for the short form
    bool shortForm = false;   ///< the short form (LabelRequest::shortWidth) went there
    bool leader = false;      ///< away from its mark: draw `leaderLine` from the mark to it
    Segment leaderLine;       ///< from the mark's edge to the nearest point of the box
};

/// A faint line that belongs to one item (the line joining a point's two markers): its own
/// label may lie on it; others avoid it where they can, and lie on it where nothing else is free.
struct SoftLine {
    Segment line;
    int owner = -1;
};

/// A chart's labelling problem: the plot's box, what labels must not cover, the labels.
struct LabelProblem {
    Box plot;                         ///< every label stays inside it
    std::vector<Box> marks;           ///< the markers' boxes (labels never cover one)
    std::vector<Segment> lines;       ///< roofs and other lines (labels never cross one)
    std::vector<SoftLine> softLines;  ///< lines labels keep off where they can
    std::vector<LabelRequest> labels;
    float gap = 4;                    ///< pixels between a label and a mark, a line or another label
    float step = 4;                   ///< the grid, in pixels, on which far places are searched
};

/// Places every label of `p`, rank by rank (LabelRequest::rank, lowest first). Within a
/// rank: first each label's preferred places and the eight places around its mark (right,
/// left, above, below, then the corners), labels with the fewest free choices first; then
/// those left over at the free place nearest their mark on a grid over the plot, joined to
/// the mark by a leader line that crosses no label, mark or earlier leader where one exists;
/// each step first keeping off other items' soft lines, then not. Last, the short forms of
/// labels with no place, the same way. A placed box overlaps no other placed box, no mark
/// and no line, with `gap` to spare, and lies in the plot. One LabelPlace per request, in
/// the requests' order.
std::vector<LabelPlace> placeLabels(const LabelProblem& p);

}  // namespace ts::app
