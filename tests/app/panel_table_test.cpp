// The panel table: every panel once, by a unique name and title; scenario files and --panel
// use its names. The layout (arrange) tiles the window below the bars from the panels'
// content heights: no overlap, no hole, a panel that does not fit moves or folds.
#include <gtest/gtest.h>

#include <algorithm>
#include <cfloat>
#include <set>
#include <string>

#include "fuzz/panel_names.hpp"
#include "layout.hpp"
#include "panels/panel_table.hpp"

using namespace ts::app;

TEST(PanelTable, NamesAndTitlesAreUnique)
{
    std::set<std::string> names, titles;
    for (const PanelInfo& p : panelTable()) {
        EXPECT_TRUE(names.insert(p.name).second) << p.name;
        EXPECT_TRUE(titles.insert(p.title).second) << p.title;
        EXPECT_NE(p.make, nullptr) << p.name;
    }
    EXPECT_EQ(panelNameList().size(), panelTable().size());
    EXPECT_EQ(findPanel("shared-memory"), panelId("shared-memory"));
    EXPECT_EQ(findPanel("memory"), panelId("memory"));
    EXPECT_EQ(findPanel("no-such-panel"), -1);
    EXPECT_THROW(panelId("no-such-panel"), std::logic_error);
}

// The scenario-file fuzzer and the parser's tests pass the app's panel names without the app
// (fuzz/panel_names.hpp): the same names, in the same order, as the panel table.
TEST(PanelTable, FuzzersPanelNamesAreThePanelTables)
{
    EXPECT_EQ(ts::fuzz::kAppPanelNames, panelNameList());
}

TEST(PanelTable, MakesOnePanelPerRowWithItsId)
{
    const auto panels = makePanels();
    ASSERT_EQ(static_cast<int>(panels.size()), panelCount());
    for (int i = 0; i < panelCount(); ++i) EXPECT_EQ(panels[i]->id, i);
}

namespace {

/// A need for panel `name`: `min` pixels high, wanting `want` (FLT_MAX: any room).
PanelNeed need(const char* name, float min, float want = FLT_MAX, float minWidth = 0)
{
    PanelNeed n;
    n.id = panelId(name);
    n.min = min;
    n.want = want;
    n.minWidth = minWidth;
    return n;
}

bool overlap(const Rect& a, const Rect& b)
{
    return std::min(a.pos.x + a.size.x, b.pos.x + b.size.x) - std::max(a.pos.x, b.pos.x) > 0.5f &&
           std::min(a.pos.y + a.size.y, b.pos.y + b.size.y) - std::max(a.pos.y, b.pos.y) > 0.5f;
}

/// Every shown panel inside the display below `top`, none over another, each at least its
/// least height unless folded.
void expectTiled(const Arrangement& a, const std::vector<PanelNeed>& needs, ImVec2 display, float top, float titleBar)
{
    for (const PanelNeed& n : needs) {
        const Rect& r = a.rects[n.id];
        const char* name = panelTable()[n.id].name;
        EXPECT_GE(r.pos.y, top) << name;
        EXPECT_GE(r.pos.x, 0) << name;
        EXPECT_LE(r.pos.x + r.size.x, display.x + 0.5f) << name;
        EXPECT_LE(r.pos.y + r.size.y, display.y + 0.5f) << name;
        EXPECT_GE(r.size.y + 0.5f, a.folded[n.id] ? titleBar : n.min) << name;
        for (const PanelNeed& m : needs)
            if (m.id != n.id) EXPECT_FALSE(overlap(r, a.rects[m.id])) << name << " over " << panelTable()[m.id].name;
    }
}

std::vector<PanelNeed> deskNeeds(float scale)
{
    return {need("scenario", 300 * scale, 420 * scale), need("stats", 280 * scale, 280 * scale),
            need("gpu", 80 * scale, 80 * scale),        need("hazards", 150 * scale, 300 * scale),
            need("matrices", 250 * scale),              need("timeline", 130 * scale, 130 * scale),
            need("code", 250 * scale, 1200 * scale),    need("shared-memory", 200 * scale, 200 * scale),
            need("threads", 140 * scale, 500 * scale)};
}

}  // namespace

TEST(Layout, DeskTilesTheWindowBelowTheBarsWithEveryPanelAtLeastItsContent)
{
    const ImVec2 display(1600, 900);
    const std::vector<PanelNeed> needs = deskNeeds(1);
    const Arrangement a = arrange(needs, display, 80, false, 25);
    expectTiled(a, needs, display, 80, 25);
    for (const PanelNeed& n : needs) EXPECT_FALSE(a.folded[n.id]) << panelTable()[n.id].name;
    EXPECT_TRUE(a.squeezed.empty());
    // Columns fill the height: the last panel of each reaches the bottom, no hole under it.
    for (const char* last : {"gpu", "timeline", "threads"}) {
        const Rect& r = a.rects[panelId(last)];
        EXPECT_FLOAT_EQ(r.pos.y + r.size.y, 900) << last;
    }
    // A panel with a wanted height and no more gets no more while a picture can use the room.
    EXPECT_FLOAT_EQ(a.rects[panelId("stats")].size.y, 280);
}

TEST(Layout, ColumnsStackTheirPanelsFromTheTopSoAHiddenPanelLeavesNoHole)
{
    // The occupancy preset shows Occupancy, Code and Stats, not Scenario. Stats, which would
    // be alone in the left column with most of it empty, joins Code's column; Occupancy takes
    // the left edge and the width, and no place is left empty.
    const std::vector<PanelNeed> needs = {need("occupancy", 400), need("code", 300, 900), need("stats", 280, 280)};
    const Arrangement a = arrange(needs, ImVec2(1600, 900), 100, false, 25);
    expectTiled(a, needs, ImVec2(1600, 900), 100, 25);
    const Rect& occupancy = a.rects[panelId("occupancy")];
    const Rect& code = a.rects[panelId("code")];
    const Rect& stats = a.rects[panelId("stats")];
    EXPECT_FLOAT_EQ(occupancy.pos.x, 0);
    EXPECT_FLOAT_EQ(occupancy.pos.y, 100);
    EXPECT_FLOAT_EQ(occupancy.size.y, 800);
    EXPECT_FLOAT_EQ(code.pos.x, occupancy.size.x);
    EXPECT_FLOAT_EQ(code.pos.y, 100);
    EXPECT_FLOAT_EQ(stats.pos.x, code.pos.x);
    EXPECT_FLOAT_EQ(stats.pos.y, code.pos.y + code.size.y);
    EXPECT_FLOAT_EQ(stats.pos.y + stats.size.y, 900);
    EXPECT_FLOAT_EQ(code.pos.x + code.size.x, 1600);
    // Without the move, a lone Stats would still start right under the bars.
    const std::vector<PanelNeed> alone = {need("stats", 280, 280)};
    EXPECT_FLOAT_EQ(arrange(alone, ImVec2(1600, 900), 100, false, 25).rects[panelId("stats")].pos.y, 100);
}

TEST(Layout, APanelThatDoesNotFitMovesToTheColumnWithTheMostRoom)
{
    // The left column (Scenario, Stats, Hazards, GPU) needs 810 px of 800: GPU, its last
    // panel, moves to the centre, which has the most room.
    std::vector<PanelNeed> needs = deskNeeds(1);
    const Arrangement a = arrange(needs, ImVec2(1600, 900), 100, false, 25);
    expectTiled(a, needs, ImVec2(1600, 900), 100, 25);
    EXPECT_FLOAT_EQ(a.rects[panelId("gpu")].pos.x, a.rects[panelId("matrices")].pos.x);
    EXPECT_FLOAT_EQ(a.rects[panelId("gpu")].pos.y + a.rects[panelId("gpu")].size.y, 900);
    for (const PanelNeed& n : needs) EXPECT_FALSE(a.folded[n.id]) << panelTable()[n.id].name;
}

TEST(Layout, AWindowTooSmallForEveryPanelFoldsTheLeastImportantFirst)
{
    const std::vector<PanelNeed> needs = deskNeeds(1.5f);
    const Arrangement a = arrange(needs, ImVec2(1280, 720), 110, false, 25);
    expectTiled(a, needs, ImVec2(1280, 720), 110, 25);
    EXPECT_TRUE(a.folded[panelId("gpu")]);                 // folds first
    EXPECT_FALSE(a.folded[panelId("matrices")]);           // never folds
    EXPECT_FALSE(a.folded[panelId("code")]);
    EXPECT_FLOAT_EQ(a.rects[panelId("gpu")].size.y, 25);   // its title bar
    // A panel opened again by hand stays open; another folds in its place.
    std::vector<PanelNeed> pinned = needs;
    for (PanelNeed& n : pinned) n.pinned = n.id == panelId("gpu");
    const Arrangement b = arrange(pinned, ImVec2(1280, 720), 110, false, 25);
    EXPECT_FALSE(b.folded[panelId("gpu")]);
    int folded = 0;
    for (const PanelNeed& n : needs) folded += b.folded[n.id];
    EXPECT_GT(folded, 0);
}

TEST(Layout, ColumnsAreAtLeastAsWideAsTheirPanelsNeed)
{
    std::vector<PanelNeed> needs = deskNeeds(1);
    for (PanelNeed& n : needs)
        if (n.id == panelId("stats")) n.minWidth = 330;   // wider than 21.5% of 1280
    const Arrangement a = arrange(needs, ImVec2(1280, 720), 110, false, 25);
    EXPECT_GE(a.rects[panelId("stats")].size.x, 330);
    EXPECT_FLOAT_EQ(a.rects[panelId("threads")].pos.x + a.rects[panelId("threads")].size.x, 1280);
}

TEST(Layout, ASlideHasThePictureOnTheLeftAndASecondTextColumnWhenOneIsTooShort)
{
    const ImVec2 display(1920, 1080);
    const std::vector<PanelNeed> few = {need("matrices", 400), need("code", 400, 700), need("shared-memory", 300, 300)};
    const Arrangement a = arrange(few, display, 200, true, 50);
    expectTiled(a, few, display, 200, 50);
    EXPECT_FLOAT_EQ(a.rects[panelId("matrices")].pos.x, 0);
    EXPECT_FLOAT_EQ(a.rects[panelId("code")].pos.x, a.rects[panelId("shared-memory")].pos.x);
    std::vector<PanelNeed> many = few;
    many.push_back(need("hazards", 350, 350));
    const Arrangement b = arrange(many, display, 200, true, 50);
    expectTiled(b, many, display, 200, 50);
    for (const PanelNeed& n : many) EXPECT_FALSE(b.folded[n.id]) << panelTable()[n.id].name;
    EXPECT_NE(b.rects[panelId("code")].pos.x, b.rects[panelId("hazards")].pos.x);
}

TEST(PanelTable, SlideShowsThePictureCodeAndSharedMemory)
{
    ts::sim::Preset p;
    const PanelFlags open = presentationPanels(p);
    EXPECT_EQ(panelNames(open), (std::vector<std::string>{"matrices", "code", "shared-memory", "convolution"}));
    p.scenario.dropBarriers = 1;
    EXPECT_TRUE(presentationPanels(p)[panelId("hazards")]);
}
