// The lesson's panels first (issue 25): a preset names the panels that carry its lesson
// (scenario file key `lesson`); the layout opens them, gives them their room before the
// other panels and folds the others first, at the desk and on a slide, down to 1280x720.
// The needs below are the heights and widths the app measured for coalescing-naive-64 at
// 1280x720 (Memory 370 px of content, Matrices' legend and least picture 330 px, ...); the
// same needs without the lesson show the fold the issue reported, so each test can fail.
#include <gtest/gtest.h>

#include <algorithm>
#include <cfloat>

#include "layout.hpp"
#include "panels/panel_table.hpp"
#include "sim/files/scenario_file.hpp"

using namespace ts::app;

namespace {

PanelNeed need(const char* name, float min, float want, float minWidth, int lesson = -1)
{
    PanelNeed n;
    n.id = panelId(name);
    n.min = min;
    n.want = want;
    n.minWidth = minWidth;
    n.lesson = lesson;
    return n;
}

/// coalescing-naive-64's panels at the desk at 1280x720 (font 17 px): Memory and Code carry
/// the lesson (Code at its lesson width, 34 font heights, when `lesson`).
std::vector<PanelNeed> coalescingDesk(bool lesson)
{
    std::vector<PanelNeed> needs = {need("stats", 430, 430, 18.5f * 17), need("matrices", 330, FLT_MAX, 16 * 17),
                                    need("memory", 370, 370, 16 * 17, lesson ? 0 : -1),
                                    need("code", 300, 900, 16 * 17, lesson ? 1 : -1)};
    if (lesson) needs.back().lessonWidth = 34 * 17;
    return needs;
}

/// The same on a slide at 1280x720 (UI scale 1.33, font 23 px).
std::vector<PanelNeed> coalescingSlide(bool lesson)
{
    return {need("stats", 420, 420, 18.5f * 23),
            need("matrices", 420, FLT_MAX, 16 * 23),
            need("memory", 380, 420, 16 * 23, lesson ? 0 : -1),
            need("code", 380, 560, 16 * 23, lesson ? 1 : -1)};
}

const Rect& rectOf(const Arrangement& a, const char* name) { return a.rects[panelId(name)]; }
bool foldedIn(const Arrangement& a, const char* name) { return a.folded[panelId(name)]; }

}  // namespace

TEST(LessonLayout, At1280x720TheDeskFoldsMemoryWithoutTheLessonAndMatricesWithIt)
{
    const ImVec2 display(1280, 720);
    const float top = 105, bar = 25;
    // Without the lesson: Matrices never folds, so Memory, the panel of the lesson, does.
    const Arrangement before = arrange(coalescingDesk(false), display, top, false, bar);
    EXPECT_TRUE(foldedIn(before, "memory"));
    EXPECT_FALSE(foldedIn(before, "matrices"));
    // With it: Memory and Code open, each at least its least height; Matrices folds instead.
    const std::vector<PanelNeed> needs = coalescingDesk(true);
    const Arrangement a = arrange(needs, display, top, false, bar);
    for (const char* name : {"memory", "code"}) {
        EXPECT_FALSE(foldedIn(a, name)) << name;
        const PanelNeed& n = *std::find_if(needs.begin(), needs.end(), [&](const PanelNeed& x) { return x.id == panelId(name); });
        EXPECT_GE(rectOf(a, name).size.y + 0.5f, n.min) << name;
        EXPECT_GE(rectOf(a, name).size.x + 0.5f, n.minWidth) << name;
        EXPECT_GE(rectOf(a, name).pos.y, top) << name;
        EXPECT_LE(rectOf(a, name).pos.y + rectOf(a, name).size.y, 720.5f) << name;
    }
    EXPECT_TRUE(foldedIn(a, "matrices"));
    EXPECT_TRUE(a.squeezed.empty());
    // Memory stays in its column (under the folded Matrices) rather than being moved to a
    // narrower one; Code is 34 font heights wide, its memory columns beside the source.
    EXPECT_FLOAT_EQ(rectOf(a, "memory").pos.x, rectOf(a, "matrices").pos.x);
    EXPECT_FLOAT_EQ(rectOf(a, "memory").pos.y, top + bar);
    EXPECT_GE(rectOf(a, "code").size.x, 34 * 17 - 0.5f);
}

TEST(LessonLayout, At1280x720TheSlidePutsTheMainLessonPanelInThePictureColumn)
{
    const ImVec2 display(1280, 720);
    const float top = 135, bar = 33;
    const std::vector<PanelNeed> needs = coalescingSlide(true);
    const Arrangement a = arrange(needs, display, top, true, bar);
    for (const char* name : {"memory", "code"}) {
        EXPECT_FALSE(foldedIn(a, name)) << name;
        const PanelNeed& n = *std::find_if(needs.begin(), needs.end(), [&](const PanelNeed& x) { return x.id == panelId(name); });
        EXPECT_GE(rectOf(a, name).size.y + 0.5f, n.min) << name;
    }
    // Memory is the slide's picture: the left column, at the top, its wanted 420 px.
    EXPECT_FLOAT_EQ(rectOf(a, "memory").pos.x, 0);
    EXPECT_FLOAT_EQ(rectOf(a, "memory").pos.y, top);
    EXPECT_GE(rectOf(a, "memory").size.y + 0.5f, 420);
    // Without the lesson the slide keeps Matrices as its picture and Memory in a text column.
    const Arrangement before = arrange(coalescingSlide(false), display, top, true, bar);
    EXPECT_FLOAT_EQ(rectOf(before, "matrices").pos.x, 0);
    EXPECT_GT(rectOf(before, "memory").pos.x, 0);
}

TEST(LessonLayout, ALessonsWidthComesAfterEveryColumnsMinimum)
{
    // 1280 px: Stats needs 315, the centre column 476 (a Timeline of 28 font heights), Code
    // carries the lesson and would show its memory columns at 578. The minimums come first: the centre keeps its 476,
    // Code gets what is left beyond the others' minimums, 1280 - 315 - 476 = 489 px, more than
    // its share (35.5%: 454 px) but not the 578 it would like.
    std::vector<PanelNeed> needs = {need("stats", 430, 430, 18.5f * 17), need("timeline", 100, 100, 28 * 17),
                                    need("matrices", 200, FLT_MAX, 16 * 17), need("code", 300, 900, 16 * 17, 0)};
    needs.back().lessonWidth = 34 * 17;
    const Arrangement a = arrange(needs, ImVec2(1280, 720), 105, false, 25);
    EXPECT_GE(rectOf(a, "timeline").size.x + 0.5f, 28 * 17);
    EXPECT_GE(rectOf(a, "stats").size.x + 0.5f, 18.5f * 17);
    EXPECT_NEAR(rectOf(a, "code").size.x, 1280 - 18.5f * 17 - 28 * 17, 1.5f);
    // With room, Code gets all of its lesson width.
    const Arrangement b = arrange(needs, ImVec2(1600, 900), 105, false, 25);
    EXPECT_GE(rectOf(b, "code").size.x + 0.5f, 34 * 17);
    // A picture of the lesson (Matrices, whose text and figure grow taller as it narrows) keeps
    // its column's width: Code has its share less what Stats' minimum took, 1280 x 0.355 -
    // (315 - 275) x 0.355 / (0.43 + 0.355) = 436 px.
    needs[2].lesson = 0;
    needs[3].lesson = 1;
    const Arrangement c = arrange(needs, ImVec2(1280, 720), 105, false, 25);
    EXPECT_LT(rectOf(c, "code").size.x, 34 * 17 - 100);
    EXPECT_GE(rectOf(c, "code").size.x + 0.5f, 16 * 17);
}

TEST(LessonLayout, LessonPanelsGetTheirWantedHeightBeforeTheOthers)
{
    // The right column at the desk: Code (a list of 900 px), Shared memory and Threads (400 px
    // each) in 600 px. With Threads the lesson it gets its 400 px, and the others share the
    // rest in proportion to what they want; without, all three share it.
    const ImVec2 display(1600, 700);
    auto column = [](bool lesson) {
        return std::vector<PanelNeed>{need("code", 100, 900, 0), need("shared-memory", 100, 400, 0),
                                      need("threads", 100, 400, 0, lesson ? 0 : -1)};
    };
    const Arrangement a = arrange(column(true), display, 100, false, 25);
    EXPECT_NEAR(rectOf(a, "threads").size.y, 400, 1);
    // 600 - 400 - 100 - 100 = 0 left for Code and Shared memory beyond their 100 px.
    EXPECT_NEAR(rectOf(a, "code").size.y, 100, 1);
    const Arrangement b = arrange(column(false), display, 100, false, 25);
    // 300 px shared by what each wants more: 800, 300, 300 of 1400.
    EXPECT_NEAR(rectOf(b, "threads").size.y, 100 + 300.0f * 300 / 1400, 1);
    EXPECT_NEAR(rectOf(b, "code").size.y, 100 + 300.0f * 800 / 1400, 1);
}

TEST(LessonLayout, TheLessonFoldsLastItsMainPanelNever)
{
    // Too little height for anything, and the other columns full: every panel outside the
    // lesson folds before the lesson's second panel, which rather than fold takes the place
    // of a panel outside the lesson in another column (that one folds); the main one never
    // folds.
    const std::vector<PanelNeed> needs = {need("code", 500, 500, 0, 1), need("shared-memory", 500, 500, 0, 0),
                                          need("threads", 500, 500, 0), need("scenario", 600, 600, 0),
                                          need("matrices", 600, 600, 0)};
    const Arrangement a = arrange(needs, ImVec2(1600, 700), 100, false, 25);
    EXPECT_FALSE(foldedIn(a, "shared-memory"));
    EXPECT_TRUE(foldedIn(a, "threads"));
    EXPECT_FALSE(foldedIn(a, "code"));   // 500 + 500 + 25 > 600: it moved
    EXPECT_NE(rectOf(a, "code").pos.x, rectOf(a, "shared-memory").pos.x);
    EXPECT_GE(rectOf(a, "code").size.y + 0.5f, 500);
    EXPECT_GE(rectOf(a, "shared-memory").size.y + 0.5f, 500);
    EXPECT_EQ(foldedIn(a, "scenario") + foldedIn(a, "matrices"), 1);   // the panel whose place it took
    // With no panel outside the lesson in the other columns, the lesson's second folds.
    const std::vector<PanelNeed> full = {need("code", 500, 500, 0, 1), need("shared-memory", 500, 500, 0, 0),
                                         need("threads", 500, 500, 0), need("scenario", 600, 600, 0, 2),
                                         need("matrices", 600, 600, 0, 3)};
    const Arrangement b = arrange(full, ImVec2(1600, 700), 100, false, 25);
    EXPECT_FALSE(foldedIn(b, "shared-memory"));
    EXPECT_TRUE(foldedIn(b, "threads"));
    EXPECT_TRUE(foldedIn(b, "code"));
    EXPECT_FALSE(foldedIn(b, "scenario"));
    EXPECT_FALSE(foldedIn(b, "matrices"));
}

TEST(LessonLayout, ALessonPanelMovesToAColumnWithRoomBeforeItFolds)
{
    // The same panels with the other columns empty: Code (the lesson's second) moves to one
    // of them rather than fold, and so does Threads; nothing folds.
    const std::vector<PanelNeed> needs = {need("code", 500, 500, 0, 1), need("shared-memory", 500, 500, 0, 0),
                                          need("threads", 500, 500, 0)};
    const Arrangement a = arrange(needs, ImVec2(1600, 700), 100, false, 25);
    for (const char* name : {"code", "shared-memory", "threads"}) EXPECT_FALSE(foldedIn(a, name)) << name;
    EXPECT_NE(rectOf(a, "code").pos.x, rectOf(a, "shared-memory").pos.x);
    EXPECT_NE(rectOf(a, "threads").pos.x, rectOf(a, "shared-memory").pos.x);
}

TEST(LessonLayout, LessonPanelsComeFromThePresetElseTheFamilysPicture)
{
    ts::sim::Preset p;
    p.scenario.kernel = "matmul-tiled";
    EXPECT_EQ(lessonPanels(p), std::vector<PanelId>{panelId("matrices")});
    p.scenario.kernel = "conv2d-tiled";
    EXPECT_EQ(lessonPanels(p), std::vector<PanelId>{panelId("convolution")});
    p.lesson = {"memory", "code", "memory"};
    EXPECT_EQ(lessonPanels(p), (std::vector<PanelId>{panelId("memory"), panelId("code")}));
    // Opened at the desk whatever was open, and on the slide with the preset's own panels.
    PanelFlags none(panelCount(), false);
    const PanelFlags open = withLesson(p, none);
    EXPECT_EQ(panelNames(open), (std::vector<std::string>{"code", "memory"}));
    p.panels = {"convolution", "code", "memory", "stats"};
    EXPECT_EQ(panelNames(presentationPanels(p)), (std::vector<std::string>{"stats", "code", "convolution", "memory"}));
    p.panels.clear();
    EXPECT_TRUE(presentationPanels(p)[panelId("memory")]);   // the lesson beside the slide's usual panels
    // A convolution's slide leaves out Shared memory (its Convolution panel draws N_ds); a
    // matrix multiplication's shows it.
    EXPECT_FALSE(presentationPanels(p)[panelId("shared-memory")]);
    p.scenario.kernel = "matmul-tiled";
    EXPECT_TRUE(presentationPanels(p)[panelId("shared-memory")]);
}

TEST(LessonLayout, EveryPresetsLessonIsOpenedOnItsSlide)
{
    for (const ts::sim::Preset& p : ts::sim::listPresets(panelNameList())) {
        const std::vector<PanelId> lesson = lessonPanels(p);
        ASSERT_FALSE(lesson.empty()) << p.name;
        const PanelFlags slide = presentationPanels(p);
        for (PanelId id : lesson) EXPECT_TRUE(slide[id]) << p.name << ": " << panelTable()[id].name;
    }
}
