#include "chart_labels.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

namespace ts::app {

bool boxesClose(const Box& a, const Box& b, float air)
{
    return a.x0 < b.x1 + air && b.x0 < a.x1 + air && a.y0 < b.y1 + air && b.y0 < a.y1 + air;
}

bool segmentCrossesBox(const Segment& s, const Box& b, float air)
{
    // Liang-Barsky: clip the segment's parameter range [0, 1] against the grown box's slabs.
    const float x0 = b.x0 - air, x1 = b.x1 + air, y0 = b.y0 - air, y1 = b.y1 + air;
    const float dx = s.x1 - s.x0, dy = s.y1 - s.y0;
    float lo = 0, hi = 1;
    auto clip = [&](float p, float q) {   // p t <= q
        if (p == 0) return q >= 0;
        const float t = q / p;
        if (p < 0) lo = std::max(lo, t);
        else hi = std::min(hi, t);
        return lo <= hi;
    };
    return clip(-dx, s.x0 - x0) && clip(dx, x1 - s.x0) && clip(-dy, s.y0 - y0) && clip(dy, y1 - s.y0) && lo < hi;
}

namespace {

/// Whether segments a and b cross (touching ends count).
bool segmentsCross(const Segment& a, const Segment& b)
{
    auto side = [](float ax, float ay, float bx, float by, float px, float py) {
        const float v = (bx - ax) * (py - ay) - (by - ay) * (px - ax);
        return (v > 0) - (v < 0);
    };
    const int d1 = side(b.x0, b.y0, b.x1, b.y1, a.x0, a.y0), d2 = side(b.x0, b.y0, b.x1, b.y1, a.x1, a.y1);
    const int d3 = side(a.x0, a.y0, a.x1, a.y1, b.x0, b.y0), d4 = side(a.x0, a.y0, a.x1, a.y1, b.x1, b.y1);
    return d1 * d2 <= 0 && d3 * d4 <= 0 && !(d1 == 0 && d2 == 0);
}

/// The labelling under way: what is placed so far.
struct Placer {
    const LabelProblem& p;
    std::vector<Box> placed;
    std::vector<Segment> leaders;

    bool strict = true;   ///< keep off the soft lines of other items

    /// Free of the plot's edges, marks, lines, placed labels and leaders (and, while strict,
    /// of the soft lines of items other than `owner`).
    bool free(const Box& b, int owner) const
    {
        if (b.x0 < p.plot.x0 || b.x1 > p.plot.x1 || b.y0 < p.plot.y0 || b.y1 > p.plot.y1) return false;
        const float half = p.gap / 2;
        for (const Box& m : p.marks)
            if (boxesClose(b, m, half)) return false;
        for (const Segment& s : p.lines)
            if (segmentCrossesBox(s, b, half)) return false;
        if (strict)
            for (const SoftLine& s : p.softLines)
                if (s.owner != owner && segmentCrossesBox(s.line, b, 1)) return false;
        for (const Box& q : placed)
            if (boxesClose(b, q, p.gap)) return false;
        for (const Segment& s : leaders)
            if (segmentCrossesBox(s, b, 1)) return false;
        return true;
    }

    /// Free of the marks and lines alone (how many choices a label has before any is placed).
    bool freeOfStatic(const Box& b) const
    {
        if (b.x0 < p.plot.x0 || b.x1 > p.plot.x1 || b.y0 < p.plot.y0 || b.y1 > p.plot.y1) return false;
        const float half = p.gap / 2;
        for (const Box& m : p.marks)
            if (boxesClose(b, m, half)) return false;
        for (const Segment& s : p.lines)
            if (segmentCrossesBox(s, b, half)) return false;
        return true;
    }

    /// The leader from the mark of `r` to the nearest point of `b`, and how many placed
    /// labels, marks other than its own and earlier leaders it crosses.
    int leaderCrossings(const LabelRequest& r, const Box& b, Segment& out) const
    {
        const float nx = std::clamp(r.ax, b.x0, b.x1), ny = std::clamp(r.ay, b.y0, b.y1);
        const float dx = nx - r.ax, dy = ny - r.ay, len = std::hypot(dx, dy);
        const float start = len > 0 ? std::min(len, r.radius + 1) / len : 0;
        out = {r.ax + dx * start, r.ay + dy * start, nx, ny};
        int n = 0;
        for (const Box& q : placed) n += segmentCrossesBox(out, q, 1);
        for (const Box& m : p.marks) {
            // Its own mark (the segment starts at its edge) does not count.
            if (r.ax >= m.x0 && r.ax <= m.x1 && r.ay >= m.y0 && r.ay <= m.y1) continue;
            n += segmentCrossesBox(out, m, 0);
        }
        for (const Segment& s : leaders) n += segmentsCross(out, s);
        return n;
    }
};

/// The top-left corners of the places beside a mark: right, left, above, below, then the
/// four corners, each `gap` clear of the mark.
std::vector<std::pair<float, float>> around(const LabelRequest& r, float w, float gap)
{
    const float h = r.height, d = r.radius + gap, c = r.radius * 0.7f + gap;
    return {{r.ax + d, r.ay - h / 2},         {r.ax - d - w, r.ay - h / 2},     {r.ax - w / 2, r.ay - d - h},
            {r.ax - w / 2, r.ay + d},         {r.ax + c, r.ay - c - h},         {r.ax - c - w, r.ay - c - h},
            {r.ax + c, r.ay + c},             {r.ax - c - w, r.ay + c}};
}

Box boxAt(std::pair<float, float> tl, float w, float h) { return {tl.first, tl.second, tl.first + w, tl.second + h}; }

/// Places label `r` as `w` wide beside its mark (or at a preferred place): true if it went.
bool placeNear(Placer& pl, const LabelRequest& r, float w, bool preferred, LabelPlace& out)
{
    std::vector<std::pair<float, float>> tries;
    if (preferred) tries = r.preferred;
    for (const auto& t : around(r, w, pl.p.gap)) tries.push_back(t);
    for (const auto& t : tries) {
        const Box b = boxAt(t, w, r.height);
        if (pl.free(b, r.owner)) {
            out.box = b;
            out.placed = true;
            pl.placed.push_back(b);
            return true;
        }
    }
    return false;
}

/// Places label `r` as `w` wide at the free grid place nearest its mark whose leader
/// crosses least: true if one was free.
bool placeFar(Placer& pl, const LabelRequest& r, float w, LabelPlace& out)
{
    const Box& plot = pl.p.plot;
    const float step = std::max(1.0f, pl.p.step), h = r.height;
    struct Try {
        float d;
        Box b;
    };
    std::vector<Try> tries;
    for (float y = plot.y0; y + h <= plot.y1; y += step)
        for (float x = plot.x0; x + w <= plot.x1; x += step) {
            const Box b{x, y, x + w, y + h};
            const float dx = std::clamp(r.ax, b.x0, b.x1) - r.ax, dy = std::clamp(r.ay, b.y0, b.y1) - r.ay;
            tries.push_back({std::hypot(dx, dy), b});
        }
    std::sort(tries.begin(), tries.end(), [](const Try& a, const Try& b) { return a.d < b.d; });
    // The nearest free place whose leader crosses nothing; failing that, the one whose
    // leader crosses least (ties: the nearest).
    int bestCrossings = std::numeric_limits<int>::max();
    Box best;
    Segment bestLine;
    for (const Try& t : tries) {
        if (!pl.free(t.b, r.owner)) continue;
        Segment line;
        const int n = pl.leaderCrossings(r, t.b, line);
        if (n < bestCrossings) bestCrossings = n, best = t.b, bestLine = line;
        if (n == 0) break;
    }
    if (bestCrossings == std::numeric_limits<int>::max()) return false;
    out.box = best;
    out.placed = true;
    out.leader = true;
    out.leaderLine = bestLine;
    pl.placed.push_back(best);
    pl.leaders.push_back(bestLine);
    return true;
}

}  // namespace

std::vector<LabelPlace> placeLabels(const LabelProblem& p)
{
    const size_t n = p.labels.size();
    std::vector<LabelPlace> out(n);
    Placer pl{p, {}, {}};
    // The most hemmed-in first: fewest free places beside the mark before anything is placed.
    std::vector<int> choices(n, 0);
    for (size_t i = 0; i < n; ++i) {
        const LabelRequest& r = p.labels[i];
        std::vector<std::pair<float, float>> tries = r.preferred;
        for (const auto& t : around(r, r.width, p.gap)) tries.push_back(t);
        for (const auto& t : tries) choices[i] += pl.freeOfStatic(boxAt(t, r.width, r.height));
    }
    std::vector<size_t> order(n);
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
        return p.labels[a].rank != p.labels[b].rank ? p.labels[a].rank < p.labels[b].rank : choices[a] < choices[b];
    });
    for (size_t k = 0; k < n;) {
        // One rank: beside the marks, then far; keeping off soft lines, then not.
        size_t e = k;
        while (e < n && p.labels[order[e]].rank == p.labels[order[k]].rank) ++e;
        for (bool strict : {true, false}) {
            pl.strict = strict;
            for (size_t j = k; j < e; ++j)
                if (!out[order[j]].placed) placeNear(pl, p.labels[order[j]], p.labels[order[j]].width, true, out[order[j]]);
        }
        for (bool strict : {true, false}) {
            pl.strict = strict;
            for (size_t j = k; j < e; ++j) {
                const size_t i = order[j];
                if (!out[i].placed && p.labels[i].leaderAllowed) placeFar(pl, p.labels[i], p.labels[i].width, out[i]);
            }
        }
        k = e;
    }
    for (bool strict : {true, false}) {
        pl.strict = strict;
        for (size_t i : order) {
            const LabelRequest& r = p.labels[i];
            if (out[i].placed || r.shortWidth <= 0) continue;
            out[i].shortForm = true;
            LabelRequest q = r;
            if (r.shortHeight > 0) q.height = r.shortHeight;
            if (!placeNear(pl, q, q.shortWidth, false, out[i]) && !(q.leaderAllowed && placeFar(pl, q, q.shortWidth, out[i])))
                out[i].shortForm = false;
        }
    }
    return out;
}

}  // namespace ts::app
