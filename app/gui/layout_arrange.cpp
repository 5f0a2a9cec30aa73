// The arrangement of the panels (app/gui/layout.hpp): arrange() places the shown panels in the
// desk's or a slide's columns by the panel table, and folds panels where a column has no room.
#include "layout.hpp"

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <iterator>
#include <numeric>
#include <vector>

namespace ts::app {

// ---- the arrangement ----------------------------------------------------------------------

namespace {

/// One column of an arrangement: its share of the width, and its panels top to bottom.
struct Column {
    float share = 0;
    std::vector<const PanelNeed*> panels;
    float x = 0, width = 0;
    int index = -1;   ///< its place among the arrangement's columns, from the left
};

float least(const PanelNeed& n, const std::vector<bool>& folded, float titleBar)
{
    return folded[n.id] ? titleBar : n.min;
}

/// The column a panel starts in: its desk column, or on a slide the picture column (0) or
/// the first text column (1). The lesson's main panel is a slide's picture.
size_t home(const PanelNeed& n, bool slides)
{
    const PanelInfo& info = panelTable()[n.id];
    if (!slides) return static_cast<size_t>(info.desk.column);
    return info.slide.column == SlideColumn::Picture || n.lesson == 0 ? 0 : 1;
}

/// The least height of column `c`'s panels.
float columnLeast(const Column& c, const std::vector<bool>& folded, float titleBar)
{
    float h = 0;
    for (const PanelNeed* n : c.panels) h += least(*n, folded, titleBar);
    return h;
}

/// Whether a panel sits in a slide's picture column.
bool inPicture(const PanelNeed& n) { return panelTable()[n.id].slide.column == SlideColumn::Picture || n.lesson == 0; }

/// The order in which a panel folds (PanelInfo::fold, or the need's own).
int foldRank(const PanelNeed& n) { return n.fold >= 0 ? n.fold : panelTable()[n.id].fold; }

/// The sort key of a panel in its column: the table's rank; on a slide the lesson's main
/// panel comes first.
int rankOf(const PanelNeed& n, bool slides)
{
    const PanelInfo& info = panelTable()[n.id];
    if (slides && n.lesson == 0) return -1000;
    return slides ? info.slide.rank : info.desk.rank;
}

/// Which panel folds first: the highest key, none below 0. Panels outside the lesson fold
/// before those in it (by PanelInfo::fold, or the need's own), a picture outside the lesson
/// (fold 0: Matrices beside a Memory lesson) after the others; then the lesson's, its last
/// first. The lesson's main panel, the Practice panel (the question asked) and a panel
/// opened again by hand never fold, nor does a lesson's panel of fold 0.
int foldKey(const PanelNeed& n)
{
    static const PanelId practice = panelId("practice");
    const int rank = foldRank(n);
    if (n.pinned || n.lesson == 0 || n.id == practice) return -1;
    if (n.lesson > 0) return rank == 0 ? -1 : n.lesson;
    return rank == 0 ? 500 : 1000 + rank;
}

}  // namespace

Arrangement arrange(const std::vector<PanelNeed>& needs, ImVec2 display, float top, bool slides, float titleBar)
{
    Arrangement out;
    out.rects.assign(panelTable().size(), Rect{});
    out.folded.assign(panelTable().size(), false);
    out.column.assign(panelTable().size(), -1);
    const float H = std::max(1.0f, display.y - top), W = display.x;
    for (const PanelNeed& n : needs) out.folded[n.id] = n.folded && !n.pinned;

    // Columns: the desk's three, or the slide's picture column and one text column, two
    // when the text panels are together taller than the window. A column too short for its
    // panels gives its last ones outside the lesson, one by one, to the column with the most
    // room left, if they fit there. When that is not enough, a panel folds (foldKey: those
    // outside the lesson first) and the panels are placed again, until every column fits or
    // nothing is left to fold.
    std::vector<Column> cols;
    for (;;) {
        if (!slides) {
            cols = {Column{0.215f, {}}, Column{0.43f, {}}, Column{0.355f, {}}};
            for (const PanelNeed& n : needs) cols[home(n, false)].panels.push_back(&n);
        } else {
            float text = 0, pictureLeast = 0;
            for (const PanelNeed& n : needs)
                (inPicture(n) ? pictureLeast : text) += least(n, out.folded, titleBar);
            // Two text columns only where three columns are not too narrow for their panels.
            float picture = 0, first = 0, second = 0;
            for (const PanelNeed& n : needs) {
                if (inPicture(n)) {
                    picture = std::max(picture, n.minWidth);
                } else if (n.minWidth > first) {
                    second = first;
                    first = n.minWidth;
                } else {
                    second = std::max(second, n.minWidth);
                }
            }
            cols = {Column{0.55f, {}}, Column{0.45f, {}}};
            // The text panels that do not fit their column may go below the picture where
            // its panels leave room (Practice below Code, Shared memory below Matrices):
            // a third column narrows the picture, whose cells then drop their values.
            if (text > H + std::max(0.0f, H - pictureLeast) && picture + first + second <= W) cols = {Column{0.38f, {}}, Column{0.34f, {}}, Column{0.28f, {}}};
            for (const PanelNeed& n : needs) cols[home(n, true)].panels.push_back(&n);
        }
        for (size_t i = 0; i < cols.size(); ++i) cols[i].index = static_cast<int>(i);
        for (Column& c : cols)
            std::stable_sort(c.panels.begin(), c.panels.end(), [&](const PanelNeed* a, const PanelNeed* b) {
                return rankOf(*a, slides) < rankOf(*b, slides);
            });
        for (size_t i = 0; i < cols.size(); ++i) {
            while (cols[i].panels.size() > 1 && columnLeast(cols[i], out.folded, titleBar) > H) {
                // The last panel outside the lesson that fits another column; else the last of
                // the lesson's panels after its main one that does (moving it keeps it open,
                // where it would otherwise fold: Hazards beside Code on a slide).
                auto placeFor = [&](const PanelNeed* n) {
                    size_t best = i;
                    float room = 0;
                    for (size_t j = 0; j < cols.size(); ++j) {
                        // On a slide a folded panel's title bar does not take the picture's
                        // height: where the text columns have no room for it, one more panel
                        // of theirs folds instead.
                        if (slides && j == 0 && out.folded[n->id]) continue;
                        const float h = least(*n, out.folded, titleBar);
                        const float r = H - columnLeast(cols[j], out.folded, titleBar);
                        if (j != i && r >= h && r > room) {
                            best = j;
                            room = r;
                        }
                    }
                    return best;
                };
                auto it = std::find_if(cols[i].panels.rbegin(), cols[i].panels.rend(),
                                       [](const PanelNeed* n) { return n->lesson < 0; });
                if (it != cols[i].panels.rend() && placeFor(*it) == i) it = cols[i].panels.rend();
                if (it == cols[i].panels.rend())
                    it = std::find_if(cols[i].panels.rbegin(), cols[i].panels.rend(),
                                      [&](const PanelNeed* n) { return n->lesson > 0 && placeFor(n) != i; });
                if (it == cols[i].panels.rend()) break;
                const PanelNeed* last = *it;
                const size_t best = placeFor(last);
                cols[i].panels.erase(std::next(it).base());
                cols[best].panels.push_back(last);
            }
        }
        // Candidates for folding: the panels of a column that does not fit, and those that
        // left it for another column (folding one of them lets a panel come back).
        std::vector<bool> candidate(panelTable().size(), false);
        bool fits = true;
        for (size_t i = 0; i < cols.size(); ++i) {
            if (columnLeast(cols[i], out.folded, titleBar) <= H) continue;
            fits = false;
            for (const PanelNeed* n : cols[i].panels) candidate[n->id] = true;
            for (const Column& c : cols)
                for (const PanelNeed* n : c.panels)
                    if (home(*n, slides) == i) candidate[n->id] = true;
        }
        if (fits) break;
        const PanelNeed* fold = nullptr;
        for (const PanelNeed& n : needs) {
            if (!candidate[n.id] || foldKey(n) < 0 || out.folded[n.id]) continue;
            if (!fold || foldKey(n) > foldKey(*fold)) fold = &n;
        }
        // Folding a panel of another column outside the lesson where that makes room there
        // for a panel of a column that does not fit, which then moves there (`lessonToo`: a
        // panel of the lesson after its main one may be the one that moves).
        auto makeRoom = [&](bool lessonToo) -> const PanelNeed* {
            const PanelNeed* q0 = nullptr;
            for (size_t i = 0; i < cols.size(); ++i) {
                if (columnLeast(cols[i], out.folded, titleBar) <= H) continue;
                for (const PanelNeed* p : cols[i].panels) {
                    if ((lessonToo ? p->lesson == 0 : p->lesson >= 0) || out.folded[p->id]) continue;
                    for (size_t j = 0; j < cols.size(); ++j) {
                        if (j == i) continue;
                        const float room = H - columnLeast(cols[j], out.folded, titleBar);
                        for (const PanelNeed* q : cols[j].panels)
                            if (q->lesson < 0 && foldKey(*q) >= 0 && !out.folded[q->id] &&
                                room + q->min - titleBar >= p->min && (!q0 || foldKey(*q) > foldKey(*q0)))
                                q0 = q;
                    }
                }
            }
            return q0;
        };
        // At the desk a panel of the lesson folds only where no panel outside it can make room
        // for it elsewhere (a results file's Roofline beside its Ladder moves to the Code's
        // column). A slide keeps its picture column's own panels: naive-4x4's Threads there
        // instead of the Timeline left Matrices too low for its values.
        if (!slides && fold && fold->lesson > 0)
            if (const PanelNeed* q = makeRoom(true)) fold = q;
        // Nothing in the columns that do not fit may fold (the lesson's main panel, the
        // Practice panel): make room for one of their panels outside the lesson.
        if (!fold) fold = makeRoom(false);
        if (!fold) break;
        out.folded[fold->id] = true;
    }

    // A column whose panels want little of its height (Stats alone when the occupancy
    // preset hides Scenario) gives them to the column with the most room, if they fit there,
    // and its width to the others, rather than leaving most of itself empty.
    for (size_t i = 0; i < cols.size(); ++i) {
        if (cols[i].panels.empty()) continue;
        float want = 0, least = columnLeast(cols[i], out.folded, titleBar);
        for (const PanelNeed* n : cols[i].panels) want += out.folded[n->id] ? titleBar : std::min(n->want, H);
        if (want > 0.6f * H) continue;
        size_t best = i;
        float room = 0;
        for (size_t j = 0; j < cols.size(); ++j) {
            const float r = H - columnLeast(cols[j], out.folded, titleBar);
            if (j != i && !cols[j].panels.empty() && r >= least && r > room) {
                best = j;
                room = r;
            }
        }
        if (best == i) continue;
        for (const PanelNeed* n : cols[i].panels) cols[best].panels.push_back(n);
        cols[i].panels.clear();
    }

    // Widths: the shares of the columns that hold panels, each column at least as wide as
    // its widest panel's minimum (taken from the columns with width to spare).
    std::vector<Column*> used;
    for (Column& c : cols)
        if (!c.panels.empty()) used.push_back(&c);
    if (used.empty()) return out;
    float shares = 0;
    for (Column* c : used) shares += c->share;
    std::vector<float> minW;
    for (Column* c : used) {
        c->width = W * c->share / shares;
        float m = 0;
        for (const PanelNeed* n : c->panels) m = std::max(m, n->minWidth);
        minW.push_back(std::min(m, 0.7f * W));
    }
    // Then the lesson's panels' wider widths (PanelNeed::lessonWidth), from what the other
    // columns have beyond their minimum; not from a column with a picture of the lesson
    // (Matrices, Convolution, Occupancy: a slide's picture panels, whose text and figure grow
    // taller as they narrow).
    std::vector<float> lessonW;
    std::vector<bool> donor;
    for (Column* c : used) {
        float m = 0;
        bool picture = false;
        for (const PanelNeed* n : c->panels)
            if (!out.folded[n->id]) {
                m = std::max(m, n->lessonWidth);
                picture = picture || (n->lesson >= 0 && panelTable()[n->id].slide.column == SlideColumn::Picture);
            }
        lessonW.push_back(std::min(m, 0.7f * W));
        donor.push_back(!picture);
    }
    for (const std::vector<float>* wanted : {&minW, &lessonW}) {
        const bool lessonPass = wanted == &lessonW;
        auto spareOf = [&](size_t j) {
            return lessonPass && !donor[j] ? 0.0f : std::max(0.0f, used[j]->width - minW[j]);
        };
        for (size_t i = 0; i < used.size(); ++i) {
            float need = (*wanted)[i] - used[i]->width;
            if (need <= 0) continue;
            float spare = 0;
            for (size_t j = 0; j < used.size(); ++j)
                if (j != i) spare += spareOf(j);
            const float take = std::min(need, spare);
            for (size_t j = 0; j < used.size() && spare > 0; ++j)
                if (j != i) used[j]->width -= take * spareOf(j) / spare;
            used[i]->width += take;
        }
    }
    float x = 0;
    for (Column* c : used) {
        c->x = std::round(x);
        x += c->width;
        c->width = std::round(x) - c->x;
    }

    // Heights: every panel its least height; what is left goes to panels with more to show
    // (in proportion to how much more, up to all of it), then to those that grow with any
    // room (pictures), else to the column's last panel, so that no hole is left.
    for (Column* c : used) {
        std::vector<float> h;
        for (const PanelNeed* n : c->panels) h.push_back(least(*n, out.folded, titleBar));
        float sum = std::accumulate(h.begin(), h.end(), 0.0f);
        if (sum > H) {
            // Nothing left to fold: every unfolded panel gives up a share (it will scroll).
            float shrinkable = 0;
            for (size_t k = 0; k < h.size(); ++k)
                if (!out.folded[c->panels[k]->id]) shrinkable += h[k];
            const float f = std::max(0.0f, (H - (sum - shrinkable)) / std::max(1.0f, shrinkable));
            for (size_t k = 0; k < h.size(); ++k)
                if (!out.folded[c->panels[k]->id]) {
                    h[k] *= f;
                    out.squeezed.push_back(c->panels[k]->id);
                }
        } else {
            // The lesson's panels first: each up to its wanted height (in proportion to how
            // much more, where the room is short); then the others; then what is left to the
            // panels that grow with any room (the lesson's where it has such a panel), else
            // to the column's last panel that is not folded, so that no hole is left.
            float spare = H - sum;
            for (const bool lessonPass : {true, false}) {
                float more = 0;
                for (size_t k = 0; k < h.size(); ++k) {
                    const PanelNeed& n = *c->panels[k];
                    if (!out.folded[n.id] && n.want < FLT_MAX && (n.lesson >= 0) == lessonPass) more += n.want - h[k];
                }
                if (more <= 0) continue;
                const float give = std::min(spare, more);
                for (size_t k = 0; k < h.size(); ++k) {
                    const PanelNeed& n = *c->panels[k];
                    if (!out.folded[n.id] && n.want < FLT_MAX && (n.lesson >= 0) == lessonPass)
                        h[k] += give * (n.want - h[k]) / more;
                }
                spare -= give;
            }
            int growing = 0, growingLesson = 0, last = -1;
            for (size_t k = 0; k < h.size(); ++k) {
                const PanelNeed& n = *c->panels[k];
                growing += !out.folded[n.id] && n.want == FLT_MAX;
                growingLesson += !out.folded[n.id] && n.want == FLT_MAX && n.lesson >= 0;
                if (!out.folded[n.id]) last = static_cast<int>(k);
            }
            const bool lessonOnly = growingLesson > 0;
            if (lessonOnly) growing = growingLesson;
            for (size_t k = 0; k < h.size() && spare > 0; ++k) {
                const PanelNeed& n = *c->panels[k];
                const bool grows = !out.folded[n.id] && n.want == FLT_MAX && (!lessonOnly || n.lesson >= 0);
                if (growing ? grows : static_cast<int>(k) == last)
                    h[k] += growing ? spare / static_cast<float>(growing) : spare;
            }
        }
        float y = top;
        for (size_t k = 0; k < h.size(); ++k) {
            const float y0 = std::round(y);
            y += h[k];
            const float y1 = k + 1 == h.size() && !out.folded[c->panels[k]->id] ? top + H : std::round(y);
            out.rects[c->panels[k]->id] = Rect{ImVec2(c->x, y0), ImVec2(c->width, std::max(1.0f, y1 - y0))};
            out.column[c->panels[k]->id] = c->index;
        }
    }
    return out;
}

}  // namespace ts::app
