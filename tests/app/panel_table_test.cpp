// The panel table: every panel once, by a unique name and title; scenario files and --panel
// use its names; the default layouts tile the window below the bars.
#include <gtest/gtest.h>

#include <set>
#include <string>

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
    EXPECT_EQ(findPanel("memory"), -1);
    EXPECT_THROW(panelId("memory"), std::logic_error);
}

TEST(PanelTable, MakesOnePanelPerRowWithItsId)
{
    const auto panels = makePanels();
    ASSERT_EQ(static_cast<int>(panels.size()), panelCount());
    for (int i = 0; i < panelCount(); ++i) EXPECT_EQ(panels[i]->id, i);
}

TEST(PanelTable, DefaultPlacesLieBelowTheBarsInsideTheWindow)
{
    const ImVec2 display(1600, 900);
    const float top = 80;
    const PanelFlags slide = presentationPanels(ts::sim::Preset{});
    for (int i = 0; i < panelCount(); ++i)
        for (const PanelFlags* open : {static_cast<const PanelFlags*>(nullptr), &slide}) {
            const Rect r = defaultRect(i, display, top, open);
            EXPECT_GE(r.pos.y, top) << panelTable()[i].name;
            EXPECT_LE(r.pos.x + r.size.x, display.x + 0.5f) << panelTable()[i].name;
            EXPECT_LE(r.pos.y + r.size.y, display.y + 0.5f) << panelTable()[i].name;
            EXPECT_GT(r.size.x, 0) << panelTable()[i].name;
            EXPECT_GT(r.size.y, 0) << panelTable()[i].name;
        }
}

TEST(PanelTable, SlideShowsThePictureCodeAndSharedMemory)
{
    ts::sim::Preset p;
    const PanelFlags open = presentationPanels(p);
    EXPECT_EQ(panelNames(open), (std::vector<std::string>{"matrices", "code", "shared-memory", "convolution"}));
    p.scenario.dropBarriers = 1;
    EXPECT_TRUE(presentationPanels(p)[panelId("hazards")]);
    // With Hazards as a third row, Code and Shared memory make room.
    const Rect code = defaultRect(panelId("code"), ImVec2(1000, 1000), 0, &open);
    const PanelFlags withHazards = presentationPanels(p);
    const Rect squeezed = defaultRect(panelId("code"), ImVec2(1000, 1000), 0, &withHazards);
    EXPECT_FLOAT_EQ(code.size.y, 520);
    EXPECT_FLOAT_EQ(squeezed.size.y, 440);
}
