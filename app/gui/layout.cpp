#include "layout.hpp"

#include <imgui_internal.h>

#include <algorithm>
#include <cmath>
#include <cctype>
#include <cstdio>
#include <map>
#include <numeric>

#include "sim/catalogue/problem_desc.hpp"
#include "sim/catalogue/kernel_info.hpp"
#include "theme.hpp"

namespace ts::app {

namespace {

/// The windows marked by markScrollingList() and the frame they were marked in.
std::vector<std::pair<ImGuiID, int>> gLists;

std::string px(float v)
{
    char b[32];
    std::snprintf(b, sizeof b, "%.0f px", std::ceil(v));
    return b;
}

/// The panel `w` belongs to (its root window's title), or "" for a window that is no panel.
const char* panelOf(const ImGuiWindow* w)
{
    const ImGuiWindow* root = w->RootWindow;
    if (!root) return "";
    if (std::string(root->Name) == "##caption") return "caption bar";
    for (const PanelInfo& p : panelTable())
        if (std::string(root->Name) == p.title) return p.title;
    return "";
}

/// The part of a child window's name after its parent's ("Code/source_1A2B" -> "source").
std::string childName(const ImGuiWindow* w)
{
    std::string n = w->Name;
    if (const size_t slash = n.rfind('/'); slash != std::string::npos) n = n.substr(slash + 1);
    if (const size_t id = n.rfind('_'); id != std::string::npos) n = n.substr(0, id);
    // A list box or a scrolling table names its child window by an ID alone.
    if (n.empty() || n.find_first_not_of("0123456789ABCDEF") == std::string::npos) return "list";
    return n;
}

}  // namespace

void markScrollingList()
{
    const ImGuiWindow* w = ImGui::GetCurrentWindow();
    if (!gLists.empty() && gLists.front().second != GImGui->FrameCount) gLists.clear();
    gLists.emplace_back(w->ID, GImGui->FrameCount);
}

std::vector<Clipped> clippedContent(ImVec2 display, bool presentation)
{
    ImGuiContext& g = *GImGui;
    std::vector<Clipped> out;
    auto isList = [&](const ImGuiWindow* w) {
        return std::any_of(gLists.begin(), gLists.end(),
                           [&](const auto& l) { return l.first == w->ID && l.second == g.FrameCount; });
    };
    const float tol = 1.0f;
    // The bars at the top: the menu bar (at the desk) and the caption bar.
    float top = 0;
    for (const ImGuiWindow* w : g.Windows)
        if (w->Active && (std::string(w->Name) == "##MainMenuBar" || std::string(w->Name) == "##caption"))
            top = std::max(top, w->Pos.y + w->Size.y);
    std::vector<const ImGuiWindow*> panels;
    for (const ImGuiWindow* w : g.Windows) {
        if (!w->Active || w->Hidden) continue;
        const std::string panel = panelOf(w);
        if (panel.empty()) continue;
        const bool child = (w->Flags & ImGuiWindowFlags_ChildWindow) != 0;
        std::string where;
        if (child) where.append("'").append(childName(w)).append("' ");
        const bool list = child && isList(w);
        // A folded panel shows its title bar and nothing of its content, so nothing is cut.
        const bool folded = w->RootWindow && w->RootWindow->Collapsed;
        // Wider: what this frame drew past the panel's inner edge (ScrollMax.x is the frame
        // before's content, stale for one frame after the layout narrowed the panel).
        const float wider = w->DC.CursorMaxPos.x + w->WindowPadding.x - w->InnerRect.Max.x;
        if (wider > tol && !folded) out.push_back({panel, where + "content is " + px(wider) + " wider than it"});
        if (w->ScrollMax.y > tol && !folded && !(list && !presentation))
            out.push_back({panel, where + (list ? "list " : "") + "content is " + px(w->ScrollMax.y) + " taller than it"});
        if (child || panel == "caption bar") continue;
        panels.push_back(w);
        if (w->Pos.x < -tol || w->Pos.y < top - tol || w->Pos.x + w->Size.x > display.x + tol ||
            w->Pos.y + w->Size.y > display.y + tol)
            out.push_back({panel, "the panel reaches outside the display below the bars"});
    }
    for (size_t i = 0; i < panels.size(); ++i)
        for (size_t j = i + 1; j < panels.size(); ++j) {
            const ImRect a = panels[i]->Rect(), b = panels[j]->Rect();
            const float w = std::min(a.Max.x, b.Max.x) - std::max(a.Min.x, b.Min.x);
            const float h = std::min(a.Max.y, b.Max.y) - std::max(a.Min.y, b.Min.y);
            if (w > tol && h > tol) out.push_back({panelOf(panels[i]), std::string("lies over ") + panelOf(panels[j])});
        }
    // No hole: every point of the window below the bars (sampled every 8 px) lies in a panel.
    if (!panels.empty()) {
        ImRect hole(FLT_MAX, FLT_MAX, -FLT_MAX, -FLT_MAX);
        for (float y = top + 4; y < display.y; y += 8)
            for (float x = 4; x < display.x; x += 8) {
                const bool covered = std::any_of(panels.begin(), panels.end(), [&](const ImGuiWindow* w) {
                    return w->Rect().Contains(ImVec2(x, y));
                });
                if (!covered) hole.Add(ImVec2(x, y));
            }
        if (hole.Min.x <= hole.Max.x)
            out.push_back({"layout", "no panel covers the window from (" + px(hole.Min.x - 4) + ", " +
                                         px(hole.Min.y - 4) + ") to (" + px(hole.Max.x + 4) + ", " +
                                         px(hole.Max.y + 4) + ")"});
    }
    for (int t = 0; t < g.Tables.GetMapSize(); ++t) {
        const ImGuiTable* table = g.Tables.TryGetMapData(t);
        if (!table || table->LastFrameActive != g.FrameCount || !table->OuterWindow) continue;
        const std::string panel = panelOf(table->OuterWindow);
        if (panel.empty()) continue;
        for (int c = 0; c < table->ColumnsCount; ++c) {
            const ImGuiTableColumn& col = table->Columns[c];
            if (!col.IsEnabled) continue;
            const float need = std::max({col.ContentMaxXFrozen, col.ContentMaxXUnfrozen, col.ContentMaxXHeadersIdeal}) -
                               col.WorkMinX;
            const float have = col.WorkMaxX - col.WorkMinX;
            if (need > have + tol) {
                const char* name = ImGui::TableGetColumnName(table, c);
                out.push_back({panel, "table column '" + std::string(name && *name ? name : std::to_string(c)) +
                                          "' needs " + px(need - have) + " more"});
            }
        }
    }
    return out;
}

PanelFlags panelsNamed(const std::vector<std::string>& names)
{
    PanelFlags open(panelTable().size(), false);
    for (int i = 0; i < panelCount(); ++i)
        open[i] = std::find(names.begin(), names.end(), panelTable()[i].name) != names.end();
    return open;
}

std::vector<std::string> panelNames(const PanelFlags& open)
{
    std::vector<std::string> names;
    for (int i = 0; i < panelCount(); ++i)
        if (open[i]) names.push_back(panelTable()[i].name);
    return names;
}

PanelFlags presentationPanels(const sim::Preset& p)
{
    PanelFlags open = withLesson(p, PanelFlags(panelTable().size(), false));
    if (!p.panels.empty()) {
        const PanelFlags named = panelsNamed(p.panels);
        for (int i = 0; i < panelCount(); ++i) open[i] = open[i] || named[i];
        return open;
    }
    for (int i = 0; i < panelCount(); ++i) {
        switch (panelTable()[i].onSlide) {
        case OnSlide::No: break;
        case OnSlide::Yes: open[i] = true; break;
        case OnSlide::IfBarrierDropped: open[i] = open[i] || p.scenario.dropBarriers != 0; break;
        case OnSlide::IfOccupancyQuestion: open[i] = open[i] || p.occupancy.has_value(); break;
        case OnSlide::IfNoConvolutionPicture:
            open[i] = open[i] || sim::problemOf(p.scenario).picture != sim::Picture::Convolution;
            break;
        }
    }
    return open;
}

std::vector<PanelId> lessonPanels(const sim::Preset& p)
{
    std::vector<PanelId> out;
    for (const std::string& name : p.lesson)
        if (const PanelId id = findPanel(name); id >= 0 && std::find(out.begin(), out.end(), id) == out.end())
            out.push_back(id);
    if (!out.empty()) return out;
    // No lesson named: the family's picture, unless the preset shows panels without it (the
    // Ladder and Roofline alone); then none, and its panels share the room as they ask.
    const char* picture = sim::problemOf(p.scenario).picture == sim::Picture::Convolution ? "convolution" : "matrices";
    if (!p.panels.empty() && std::find(p.panels.begin(), p.panels.end(), picture) == p.panels.end()) return {};
    return {panelId(picture)};
}

PanelFlags withLesson(const sim::Preset& p, PanelFlags open)
{
    open.resize(panelTable().size(), false);
    for (PanelId id : lessonPanels(p)) open[id] = true;
    return open;
}

// ---- the layout of the running app ----------------------------------------------------

namespace {

/// One measurement of a panel's content, in window pixels.
struct Measure {
    float width = 0;                ///< the window width it was measured at
    float fixed = 0;                ///< window height without its elastic regions
    float elasticMin = 0, elasticWant = 0;
    bool grows = false;             ///< an elastic region takes any room (a picture)

    bool same(const Measure& o) const
    {
        return std::abs(fixed - o.fixed) <= 0.5f && std::abs(elasticMin - o.elasticMin) <= 0.5f &&
               std::abs(elasticWant - o.elasticWant) <= 0.5f && grows == o.grows;
    }
};

/// What the layout has measured of one panel, and what the user did to it.
struct PanelState {
    /// Measured since the view last changed: `need` holds the largest fixed part and least
    /// elastic height of those measurements, whatever widths they were taken at (a panel of
    /// wrapped text is tallest in its narrowest column), and the last wanted height; `last`
    /// the last measurement as taken.
    bool measured = false;
    Measure need, last;
    /// The window size the panel was drawn at, and in which frame (-1: not drawn unfolded).
    ImVec2 drawnSize;
    int drawnFrame = -1;
    // The elastic regions of the frame being drawn (elasticHeight()).
    int regionFrame = -1;
    float regionMin = 0, regionWant = 0, regionUsed = 0;
    bool regionGrows = false;
    bool pinned = false, folded = false;   ///< opened again / folded by hand
};

/// The layout's state: one ImGui context at a time (a new context starts afresh).
struct LayoutState {
    ImGuiContext* context = nullptr;
    int frame = -1;
    std::string key;                ///< the view the measurements belong to (viewKey)
    std::vector<PanelState> panels;
    PanelFlags openBefore;
    Arrangement arrangement;
    bool manual = false;            ///< the desk has been arranged by hand
    bool presentation = false;
    PanelId current = -1;           ///< the panel being drawn
    int steady = 0;                 ///< frames in a row with the same arrangement and needs
    std::vector<PanelNeed> needs;   ///< what the panels needed in the frame before
    int restarts = 0;               ///< settles begun again, for the same key, on a changed measurement
    int restartFrame = -1;          ///< the frame the last settle began in
};

/// Columns of source the Code panel shows on a slide in the slide's code font: what
/// CodePanel::memoryHeader asks before it falls back to a smaller font.
constexpr float kSlideCodeColumns = 40;

/// Settles begun again for one key on a measurement that changed by itself (see
/// computeFrame); past this a panel whose content keeps changing is taken at its largest.
constexpr int kMaxRestarts = 4;

bool sameArrangement(const Arrangement& a, const Arrangement& b)
{
    if (a.rects.size() != b.rects.size() || a.folded != b.folded) return false;
    for (size_t i = 0; i < a.rects.size(); ++i)
        if (std::abs(a.rects[i].pos.x - b.rects[i].pos.x) > 0.5f || std::abs(a.rects[i].pos.y - b.rects[i].pos.y) > 0.5f ||
            std::abs(a.rects[i].size.x - b.rects[i].size.x) > 0.5f || std::abs(a.rects[i].size.y - b.rects[i].size.y) > 0.5f)
            return false;
    return true;
}

LayoutState gLayout;

/// What the panels' content depends on, as a string: the display, the bars, the font, the
/// mode, the panels open, the simulation and results file, the step, the selected thread and
/// warp, the views' toggles, the hazard chosen and practice mode's question and answer. A
/// change of any of them starts the layout afresh (computeFrame).
std::string viewKey(const Frame& f, ImVec2 display, float font)
{
    const View& v = f.view;
    const Practice& q = v.practice;
    char key[384];
    std::snprintf(key, sizeof key,
                  "%.0fx%.0f top %.0f font %.1f slide %d gen %llu results %llu step %d thread %d warp %d memory %d "
                  "heat %d %d hazard %d practice %d %d %d %d %d %zu ",
                  display.x, display.y, f.top, font, v.presentation ? 1 : 0,
                  static_cast<unsigned long long>(f.loaded.generation),
                  static_cast<unsigned long long>(f.loaded.resultsGeneration), v.cursor, v.thread, v.warp,
                  v.codeMemory ? 1 : 0, v.heatmap ? 1 : 0, v.values ? 1 : 0, v.hazard.index, q.on ? 1 : 0,
                  q.question ? 1 : 0, q.step, q.revealed ? 1 : 0, q.asked, q.chosen.size());
    std::string k = key;
    for (int i = 0; i < panelCount(); ++i) k += v.open[i] ? '1' : '0';
    k.append("|").append(q.typed).append("|").append(q.notice);
    return k;
}

/// Measures every panel's content in the frame before, and arranges the panels for this one.
///
/// The arrangement is a function of what the panels hold, not of the frames before: when the
/// view changes (viewKey) every measurement is dropped and the layout starts from the same
/// place each time (every panel in its own column, a few lines high); it then measures the
/// panels where it put them, arranges them again, and so on until two frames in a row place
/// them alike (App::renderFrame draws those frames without showing them). Within one view a
/// panel's least height only grows, so this settles. A measurement that changes while the
/// view stays the same (a form's error, a timing that arrived) also starts it afresh.
void computeFrame(const Frame& f)
{
    ImGuiContext& g = *GImGui;
    LayoutState& L = gLayout;
    // A new context (possibly at the old one's address: its frames count from 0 again).
    if (L.context != &g || g.FrameCount <= L.frame) {
        L = LayoutState{};
        L.context = &g;
    }
    const int n = panelCount();
    L.panels.resize(n);
    L.frame = g.FrameCount;
    if (f.view.resetLayout || f.view.presentation != L.presentation) {
        L.manual = false;
        for (PanelState& p : L.panels) p.pinned = p.folded = false;
    }
    L.presentation = f.view.presentation;
    const ImVec2 display = ImGui::GetIO().DisplaySize;
    const float font = ImGui::GetFontSize();
    const ImGuiStyle& st = ImGui::GetStyle();
    const float titleBar = font + 2 * st.FramePadding.y;
    std::string k = viewKey(f, display, font);
    const bool newView = k != L.key;
    L.key = std::move(k);
    if (newView) L.restarts = 0;
    PanelFlags shown(n, false);
    std::vector<Measure> now(n);
    std::vector<bool> measuredNow(n, false);
    for (int i = 0; i < n; ++i) {
        PanelState& p = L.panels[i];
        ImGuiWindow* w = ImGui::FindWindowByName(panelTable()[i].title);
        const bool began = w && w->LastFrameActive == g.FrameCount - 1;
        // A panel that was open last frame but began no window has nothing to show for the
        // loaded kernel (Matrices while a convolution is loaded): it takes no place.
        const bool wasOpen = static_cast<int>(L.openBefore.size()) == n && L.openBefore[i];
        shown[i] = f.view.open[i] && (began || !wasOpen);
        if (!began || w->Collapsed) continue;
        // A measurement holds once the panel has been drawn at the same size two frames in a
        // row, and not in the first frame after the layout began again: in the first frame at a
        // new size, or of new content, some of what a panel draws still comes from the frame
        // before (ImGui sizes a child window, a table's columns, a scrollbar from it).
        const bool settled = p.drawnFrame == g.FrameCount - 2 && std::abs(p.drawnSize.x - w->SizeFull.x) < 1 &&
                             std::abs(p.drawnSize.y - w->SizeFull.y) < 1 && L.restartFrame != g.FrameCount - 1;
        p.drawnSize = w->SizeFull;
        p.drawnFrame = g.FrameCount - 1;
        if (!settled) continue;
        const bool regions = p.regionFrame == g.FrameCount - 1;
        const float content = w->DC.CursorMaxPos.y - w->DC.CursorStartPos.y;
        Measure& m = now[i];
        m.width = w->SizeFull.x;
        // (A few pixels to spare for rounding.)
        m.fixed = titleBar + 2 * w->WindowPadding.y + content - (regions ? p.regionUsed : 0) + scaled(4);
        m.elasticMin = regions ? p.regionMin : 0;
        m.elasticWant = regions ? p.regionWant : 0;
        m.grows = regions && p.regionGrows;
        measuredNow[i] = true;
    }
    L.openBefore = f.view.open;
    // Content that changed while the view stayed the same: a panel measured at the width it
    // had, once the layout had settled, measures otherwise.
    bool restart = newView;
    if (!restart && L.steady >= 2 && L.restarts < kMaxRestarts)
        for (int i = 0; i < n && !restart; ++i) {
            const PanelState& p = L.panels[i];
            if (measuredNow[i] && p.measured && std::abs(p.last.width - now[i].width) < 1 && !p.last.same(now[i])) {
                restart = true;
                ++L.restarts;
            }
        }
    if (restart) {
        // The frame before showed the view before, or was arranged from it: start afresh.
        for (PanelState& p : L.panels) p.measured = false;
        L.arrangement = Arrangement{};
        L.needs.clear();
        L.restartFrame = g.FrameCount;
    } else {
        for (int i = 0; i < n; ++i) {
            if (!measuredNow[i]) continue;
            PanelState& p = L.panels[i];
            if (p.measured) {
                p.need.fixed = std::max(p.need.fixed, now[i].fixed);
                p.need.elasticMin = std::max(p.need.elasticMin, now[i].elasticMin);
                p.need.elasticWant = now[i].elasticWant;
                p.need.grows = now[i].grows;
            } else {
                p.need = now[i];
            }
            p.last = now[i];
            p.measured = true;
        }
    }
    const PanelFlags onSlide = presentationPanels(f.loaded.preset);
    static const PanelId codePanel = panelId("code");
    float codeReadingWidth = 0;   // the Code panel's width for its slide font (0: none asked)
    std::vector<PanelId> lesson = lessonPanels(f.loaded.preset);
    // A results file the user opened (View::subject's Ladder and Roofline) is what they want
    // to see: its panels are the lesson, the Ladder its main figure (a slide's picture), and
    // the preset's picture folds before them where there is no room for all.
    {
        std::vector<PanelId> results;
        for (const char* name : {"ladder", "roofline"}) {
            const PanelId id = panelId(name);
            if (id < static_cast<int>(f.view.subject.size()) && f.view.subject[id] && shown[id]) results.push_back(id);
        }
        if (!results.empty()) lesson = results;
    }
    // On a slide of a student's kernel whose run went wrong, the panels that explain it come
    // right after the lesson's main figure (at the desk they are pinned instead): Code at the
    // mistake's line, and Hazards for a race (the caption says the mistake; a slide folded
    // Code beside Shared memory).
    if (const Diagnosis& d = f.loaded.diagnosis;
        f.view.presentation && d.kind != Diagnosis::Kind::None && !f.loaded.kernelFile.empty() && !lesson.empty()) {
        std::vector<PanelId> explain = {codePanel};
        if (d.hazards()) explain.push_back(panelId("hazards"));
        std::erase_if(lesson, [&](PanelId id) { return std::find(explain.begin(), explain.end(), id) != explain.end(); });
        lesson.insert(lesson.begin() + 1, explain.begin(), explain.end());
    }
    std::vector<PanelNeed> needs;
    for (int i = 0; i < n; ++i) {
        if (!shown[i]) continue;
        const PanelState& p = L.panels[i];
        PanelNeed need;
        need.id = i;
        // Not measured yet: a guess (a few lines), corrected in the next frame.
        need.min = p.measured ? p.need.fixed + p.need.elasticMin
                              : titleBar + 2 * st.WindowPadding.y + 6 * ImGui::GetTextLineHeightWithSpacing();
        need.want = !p.measured || p.need.grows ? FLT_MAX : std::max(need.min, p.need.fixed + p.need.elasticWant);
        need.minWidth = panelTable()[i].minWidth * font;
        // On a slide the Code panel is wide enough for kSlideCodeColumns columns of source in
        // the slide's code font (theme.hpp), so that the back row reads it (the listing falls
        // back to smaller fonts in a narrower panel).
        if (f.view.presentation && i == codePanel && f.theme.fonts.code) {
            const ImFont* code = f.theme.fonts.code;
            const float advance = code->CalcTextSizeA(code->FontSize, FLT_MAX, 0, "0").x;
            codeReadingWidth = std::max(need.minWidth, (kSlideCodeColumns + 5) * advance + 4 * st.WindowPadding.x);
        }
        // The lesson's panels: wide enough to show all they have for it (Code its memory
        // columns beside the source at the desk), and first to get room.
        if (const auto at = std::find(lesson.begin(), lesson.end(), i); at != lesson.end()) {
            need.lesson = static_cast<int>(at - lesson.begin());
            if (!f.view.presentation) need.lessonWidth = panelTable()[i].lessonWidth * font;
        } else if (i < static_cast<int>(f.view.subject.size()) && f.view.subject[i]) {
            // What the user loaded (View::subject: the Ladder and Roofline of a results file)
            // joins the lesson after its own panels: it moves to a column with room rather
            // than fold, and folds after every panel outside the lesson.
            need.lesson = static_cast<int>(lesson.size()) + 1 + i;
        }
        // The panels the preset's slide shows are its subject, and so are those the app opened
        // for what the user loaded (View::subject): at the desk the others fold first (each
        // group in the table's order).
        const bool subject = onSlide[i] || (i < static_cast<int>(f.view.subject.size()) && f.view.subject[i]);
        if (!f.view.presentation && !subject && panelTable()[i].fold > 0) need.fold = panelTable()[i].fold + 10;
        // The panels that explain the run's mistake (Loaded::diagnosis) never fold by themselves
        // at the desk (a slide keeps its own arrangement: pinned there, Code and Hazards were
        // clipped beside the Memory and Practice panels in gui.layout_slides-*).
        const Diagnosis& d = f.loaded.diagnosis;
        const bool explains = d.kind != Diagnosis::Kind::None && !f.view.presentation &&
                              (i == panelId("code") || (d.hazards() && i == panelId("hazards")));
        need.pinned = p.pinned || i == f.view.keepOpen || (explains && !p.folded);
        need.folded = p.folded && i != f.view.keepOpen;
        needs.push_back(need);
    }
    Arrangement next = arrange(needs, display, f.top, f.view.presentation, titleBar);
    // On a slide, the Code panel as wide as kSlideCodeColumns of the slide's code font where
    // that folds no panel the narrower Code leaves open (a wider Code can push a panel out of
    // its column: then the listing takes a smaller font instead).
    if (codeReadingWidth > 0) {
        std::vector<PanelNeed> wide = needs;
        for (PanelNeed& n : wide)
            if (n.id == codePanel) n.minWidth = std::max(n.minWidth, codeReadingWidth);
        Arrangement widened = arrange(wide, display, f.top, f.view.presentation, titleBar);
        bool foldsMore = false;
        for (const PanelNeed& n : needs) foldsMore = foldsMore || (widened.folded[n.id] && !next.folded[n.id]);
        if (!foldsMore) {
            needs = std::move(wide);
            next = std::move(widened);
        }
    }
    // Steady: the same places from the same needs (a panel whose content still settles, a
    // Roofline whose legend grows as its chart shrinks, changes its needs before its place).
    auto sameNeeds = [](const std::vector<PanelNeed>& a, const std::vector<PanelNeed>& b) {
        if (a.size() != b.size()) return false;
        for (size_t j = 0; j < a.size(); ++j)
            if (a[j].id != b[j].id || std::abs(a[j].min - b[j].min) > 0.5f ||
                (a[j].want != b[j].want && std::abs(a[j].want - b[j].want) > 0.5f))
                return false;
        return true;
    };
    // (Never while a panel shown open is still a guess.)
    bool guessed = false;
    for (const PanelNeed& need : needs) guessed = guessed || (!L.panels[need.id].measured && !next.folded[need.id]);
    L.steady = !restart && !guessed && sameArrangement(next, L.arrangement) && sameNeeds(needs, L.needs) ? L.steady + 1 : 0;
    L.needs = needs;
    L.arrangement = std::move(next);
}

}  // namespace

std::string layoutReport()
{
    if (gLayout.context != GImGui) return "";
    const Arrangement& a = gLayout.arrangement;
    std::vector<int> ids;
    for (int i = 0; i < static_cast<int>(a.rects.size()); ++i)
        if (a.column[i] >= 0) ids.push_back(i);
    std::sort(ids.begin(), ids.end(), [&](int x, int y) {
        return std::make_pair(a.rects[x].pos.x, a.rects[x].pos.y) < std::make_pair(a.rects[y].pos.x, a.rects[y].pos.y);
    });
    std::string out;
    for (int i : ids) {
        char line[160];
        const Rect& r = a.rects[i];
        std::snprintf(line, sizeof line, "%s %.0f %.0f %.0f %.0f%s\n", panelTable()[i].name, r.pos.x, r.pos.y, r.size.x,
                      r.size.y, a.folded[i] ? " folded" : "");
        out += line;
    }
    return out + textReport();
}

int layoutSteadyFrames() { return gLayout.context == GImGui ? gLayout.steady : 0; }

Placement placePanel(PanelId p, const Frame& f)
{
    if (gLayout.context != GImGui || gLayout.frame != GImGui->FrameCount) computeFrame(f);
    Placement out;
    out.rect = gLayout.arrangement.rects[p];
    out.folded = gLayout.arrangement.folded[p];
    out.managed = f.view.presentation || !gLayout.manual;
    return out;
}

void panelBegun(PanelId p, const Frame& f, const Placement& placed)
{
    ImGuiContext& g = *GImGui;
    ImGuiWindow* w = ImGui::GetCurrentWindow();
    LayoutState& L = gLayout;
    L.current = p;
    PanelState& s = L.panels[p];
    s.regionFrame = -1;
    s.regionMin = s.regionWant = s.regionUsed = 0;
    s.regionGrows = false;
    if (!placed.managed) return;
    // Folded or opened by a click on the title bar's arrow: the layout keeps that choice.
    if (w->Collapsed != placed.folded) {
        s.folded = w->Collapsed;
        s.pinned = !w->Collapsed;
    }
    if (f.view.presentation) return;
    // Moved or resized by hand: the desk is the user's from now on.
    bool resizing = false;
    for (int c = 0; c < 4; ++c) resizing = resizing || g.ActiveId == ImGui::GetWindowResizeCornerID(w, c);
    for (ImGuiDir d : {ImGuiDir_Left, ImGuiDir_Right, ImGuiDir_Up, ImGuiDir_Down})
        resizing = resizing || g.ActiveId == ImGui::GetWindowResizeBorderID(w, d);
    if (resizing || (g.MovingWindow && g.MovingWindow->RootWindow == w)) L.manual = true;
}

float elasticHeight(float min, float want, float below)
{
    LayoutState& L = gLayout;
    const float avail = ImGui::GetContentRegionAvail().y - below;
    const float h = std::max(min, std::min(want, avail));
    if (L.current >= 0 && L.current < static_cast<int>(L.panels.size())) {
        PanelState& s = L.panels[L.current];
        if (s.regionFrame != GImGui->FrameCount) {
            s.regionFrame = GImGui->FrameCount;
            s.regionMin = s.regionWant = s.regionUsed = 0;
            s.regionGrows = false;
        }
        s.regionMin += min;
        s.regionWant += want == FLT_MAX ? min : want;
        s.regionGrows = s.regionGrows || want == FLT_MAX;
        s.regionUsed += h;
    }
    return h;
}

}  // namespace ts::app
