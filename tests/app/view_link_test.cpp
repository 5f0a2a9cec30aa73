// The view link (app/gui/view_link.hpp): reading, the canonical text, the errors (one
// sentence each), and the link of what is shown, with the lecture presets of assets/.
#include <gtest/gtest.h>

#include "kernels/context.cuh"
#include "panels/panel_table.hpp"
#include "sim/files/scenario_file.hpp"
#include "view_link.hpp"

using namespace ts;
using app::ViewLink;

namespace {

ViewLink parse(const std::string& s) { return app::parseViewLink(s, app::panelNameList()); }

/// The sentence parseViewLink throws for `s` ("" when it reads it).
std::string errorOf(const std::string& s)
{
    try {
        parse(s);
    } catch (const app::ViewLinkError& e) {
        return e.what();
    }
    return "";
}

/// One sentence: starts "View link: ", ends with its only full stop at the end or '.' once.
void expectOneSentence(const std::string& e)
{
    ASSERT_FALSE(e.empty());
    EXPECT_EQ(e.rfind("View link: ", 0), 0u) << e;
    EXPECT_EQ(e.back(), '.') << e;
    EXPECT_EQ(e.find('\n'), std::string::npos) << e;
}

}  // namespace

TEST(ViewLink, ReadsTheContractsExample)
{
    const ViewLink v = parse("preset=tiled-4x4&step=6&block=1,0&thread=1,1&panels=matrices,shared-memory&theme=light");
    EXPECT_EQ(v.preset, "tiled-4x4");
    EXPECT_EQ(v.step, 6);
    ASSERT_TRUE(v.block && v.thread && v.panels);
    EXPECT_EQ(v.block->x, 1u);
    EXPECT_EQ(v.block->y, 0u);
    EXPECT_EQ(v.thread->x, 1u);
    EXPECT_EQ(v.thread->y, 1u);
    EXPECT_EQ(*v.panels, (std::vector<std::string>{"matrices", "shared-memory"}));
    EXPECT_EQ(v.theme, "light");
    EXPECT_FALSE(v.presentation.has_value());
    EXPECT_TRUE(v.namesScenario());
}

TEST(ViewLink, CanonicalTextIsAFixedPoint)
{
    // Keys out of order, leading zeros, panels out of the panel table's order, %2C for a
    // comma, a whole address before '#': one canonical spelling.
    const std::string messy =
        "https://example.org/tilescope/#theme=light&panels=shared-memory%2Cmatrices&thread=01,1&step=006&preset=tiled-4x4";
    const std::string canonical = "preset=tiled-4x4&step=6&thread=1,1&panels=matrices,shared-memory&theme=light";
    EXPECT_EQ(app::formatViewLink(parse(messy)), canonical);
    EXPECT_EQ(app::formatViewLink(parse(canonical)), canonical);
    // Every key at once, spelled out (a 2D convolution cannot take j, k, l: two links).
    const std::string conv = "kernel=conv2d-tiled&width=24&height=24&mask-width=5&tile=8&seed=3&step=last&block=1,1"
                             "&thread=0,2&panels=code,convolution&presentation=on&theme=dark&heatmap=values";
    EXPECT_EQ(app::formatViewLink(parse(conv)), "kernel=conv2d-tiled&width=24&height=24&mask-width=5&tile=8&seed=3"
                                                "&step=last&block=1,1&thread=0,2&panels=code,convolution"
                                                "&presentation=on&theme=dark&heatmap=values");
    const std::string matmul = "kernel=matmul-tiled&j=5&k=3&l=4&tile=2&drop-barrier=after-compute,after-load"
                               "&schedule=random&schedule-seed=9&step=0";
    EXPECT_EQ(app::formatViewLink(parse(matmul)), "kernel=matmul-tiled&j=5&k=3&l=4&tile=2&drop-barrier=after-load,"
                                                  "after-compute&schedule=random&schedule-seed=9&step=0");
    EXPECT_EQ(*parse(matmul).dropBarriers, unsigned(kernels::AFTER_LOAD | kernels::AFTER_COMPUTE));
    // presentation=off says what no key says.
    EXPECT_EQ(app::formatViewLink(parse("preset=naive-4x4&presentation=off")), "preset=naive-4x4");
    EXPECT_EQ(app::formatViewLink(parse("")), "");
    EXPECT_EQ(app::formatViewLink(parse("#")), "");
}

TEST(ViewLink, EveryBadStringGetsOneSentence)
{
    const std::vector<std::pair<std::string, std::string>> cases = {
        {"preset=tiled-4x4&zoom=2", "unknown key 'zoom'"},
        {"kernel=conv1d-tiled&width=64&mask_width=5&tile=8", "did you mean mask-width?"},
        {"step", "step has no value"},
        {"step=", "step has an empty value"},
        {"step=six", "step (a step number or 'last') must be a whole number; got 'six'"},
        {"step=-1", "must be a whole number; got '-1'"},
        {"step=99999999999", "must be between 0 and 2147483647; got 99999999999"},
        {"step=1&step=2", "step is given twice"},
        {"preset=tiled-4x4&&step=1", "empty part"},
        {"preset=tiled-4x4&", "empty part"},
        {"block=1", "block must be BX,BY, two whole numbers; got '1'"},
        {"thread=1,2,3", "thread must be TX,TY"},
        {"panels=matrices,dials", "panels names 'dials', which is not a panel"},
        {"panels=code,code", "panels names code twice"},
        {"theme=blue", "theme must be theme=dark and theme=light; got 'blue'"},
        {"presentation=yes", "presentation must be presentation=on and presentation=off"},
        {"preset=../etc/x", "not a file"},
        {"preset=mine.toml", "not a file"},
        {"preset=tiled-4x4&kernel=matmul-tiled", "not both"},
        {"preset=tiled-4x4&width=8", "leave out its sizes"},
        {"width=8&tile=2", "sizes need a kernel"},
        {"kernel=matmul-tiled&width=4&j=4&tile=2", "either width or j, k and l"},
        {"kernel=matmul-tiled&j=4&k=4&tile=2", "needs its size"},
        {"kernel=matmul-tiled&width=4", "needs tile=T"},
        {"kernel=matmul-tiled&width=4&tile=2&schedule-seed=3", "schedule=random only"},
        {"kernel=matmul-tiled&width=4&tile=2&drop-barrier=after-load,after-load", "names after-load twice"},
        {"step=%2", "'%' that is not followed by two hexadecimal digits"},
        {"width=0&kernel=matmul-tiled&tile=2", "width must be between 1 and"},
    };
    for (const auto& [link, words] : cases) {
        SCOPED_TRACE(link);
        const std::string e = errorOf(link);
        expectOneSentence(e);
        EXPECT_NE(e.find(words), std::string::npos) << e;
    }
}

TEST(ViewLink, ThePresetIsLoadedAndCheckedOnDisk)
{
    const auto p = app::linkedPreset(parse("preset=boundary-3x3-block11&step=4"), app::panelNameList());
    ASSERT_TRUE(p);
    EXPECT_EQ(p->name, "boundary-3x3-block11");
    EXPECT_EQ(p->scenario.j, 3);
    EXPECT_EQ(p->scenario.block.x, 1u);
    EXPECT_FALSE(app::linkedPreset(parse("step=4")).has_value());
    try {
        app::linkedPreset(parse("preset=tiled-5x5"));
        FAIL() << "an unknown preset was accepted";
    } catch (const app::ViewLinkError& e) {
        expectOneSentence(e.what());
        EXPECT_NE(std::string(e.what()).find("no preset named 'tiled-5x5'; the presets are"), std::string::npos);
        EXPECT_NE(std::string(e.what()).find("tiled-4x4"), std::string::npos);
    }
    // A spelled-out problem: validated as --tile and --width are.
    const auto c = app::linkedPreset(parse("kernel=conv2d-tiled&width=24&height=24&mask-width=5&tile=8"));
    ASSERT_TRUE(c);
    EXPECT_EQ(c->scenario.kernel, "conv2d-tiled");
    EXPECT_EQ(c->scenario.height, 24);
    EXPECT_EQ(c->scenario.maskWidth, 5);
    for (const auto& [link, words] : std::vector<std::pair<std::string, std::string>>{
             {"kernel=matmul-tiled&width=4&tile=3", "TILE_WIDTH must be one of 2, 4, 8, 16, 32"},
             {"kernel=matmul-tiling&width=4&tile=2", "Unknown kernel 'matmul-tiling'"},
             {"kernel=matmul-tiled&width=4&tile=2&height=3", "convolution kernels only"}}) {
        SCOPED_TRACE(link);
        try {
            app::linkedPreset(parse(link));
            FAIL() << "accepted";
        } catch (const app::ViewLinkError& e) {
            EXPECT_NE(std::string(e.what()).find(words), std::string::npos) << e.what();
        }
    }
}

TEST(ViewLink, BlockThreadAndPanelsApplyToThePreset)
{
    sim::Preset p = *app::linkedPreset(parse("preset=tiled-4x4"), app::panelNameList());
    ASSERT_EQ(p.lesson, (std::vector<std::string>{"matrices", "shared-memory", "code"}));
    EXPECT_TRUE(app::applyViewToPreset(parse("block=1,0&thread=1,1&panels=code,matrices&step=6"), p));
    EXPECT_EQ(p.scenario.block.x, 1u);
    ASSERT_TRUE(p.thread);
    EXPECT_EQ(p.thread->x, 1u);
    EXPECT_EQ(p.step, 6);
    EXPECT_EQ(p.panels, (std::vector<std::string>{"matrices", "code"}));
    // The lesson keeps only the panels shown.
    EXPECT_EQ(p.lesson, (std::vector<std::string>{"matrices", "code"}));
    // The same block is no change; a 4x4 product of TILE_WIDTH 2 has blocks 0..1 and 2x2 threads.
    sim::Preset q = *app::linkedPreset(parse("preset=tiled-4x4"));
    EXPECT_FALSE(app::applyViewToPreset(parse("block=0,0"), q));
    for (const auto& [link, words] : std::vector<std::pair<std::string, std::string>>{
             {"block=2,0", "block=2,0: "}, {"thread=2,0", "outside the block of 2 x 2 threads"}}) {
        SCOPED_TRACE(link);
        sim::Preset r = q;
        try {
            app::applyViewToPreset(parse(link), r);
            FAIL() << "accepted";
        } catch (const app::ViewLinkError& e) {
            expectOneSentence(e.what());
            EXPECT_NE(std::string(e.what()).find(words), std::string::npos) << e.what();
        }
    }
}

TEST(ViewLink, TheViewShownNamesItsLecturePreset)
{
    const std::vector<sim::Preset> presets = sim::listPresets(app::panelNameList());
    const sim::Preset* b11 = nullptr;
    for (const sim::Preset& p : presets)
        if (p.name == "boundary-3x3-block11") b11 = &p;
    ASSERT_NE(b11, nullptr);
    // boundary-3x3 and boundary-3x3-block11 are one problem: the loaded name wins, else the
    // preset of the same block, else the first.
    sim::Scenario s = b11->scenario;
    EXPECT_EQ(app::lecturePresetOf(s, sim::Schedule::InOrder, 1, "boundary-3x3", presets)->name, "boundary-3x3");
    EXPECT_EQ(app::lecturePresetOf(s, sim::Schedule::InOrder, 1, "custom", presets)->name, "boundary-3x3-block11");
    s.block = {0, 1, 0};
    EXPECT_EQ(app::lecturePresetOf(s, sim::Schedule::InOrder, 1, "custom", presets)->name, "boundary-3x3");
    EXPECT_EQ(app::lecturePresetOf(s, sim::Schedule::Reverse, 1, "custom", presets), nullptr);
    s.seed = 2;
    EXPECT_EQ(app::lecturePresetOf(s, sim::Schedule::InOrder, 1, "custom", presets), nullptr);

    // The preset's own block and thread ([0, 1]) are left out; others are written.
    app::ShownView v;
    v.scenario = b11->scenario;
    v.step = 7;
    v.thread = {0, 1, 0};
    EXPECT_EQ(app::formatViewLink(app::viewLinkOf(v, b11)), "preset=boundary-3x3-block11&step=7");
    v.thread = {1, 1, 0};
    v.scenario.block = {0, 1, 0};
    v.light = true;
    v.presentation = true;
    v.panels = std::vector<std::string>{"matrices"};
    EXPECT_EQ(app::formatViewLink(app::viewLinkOf(v, b11)),
              "preset=boundary-3x3-block11&step=7&block=0,1&thread=1,1&panels=matrices&presentation=on&theme=light");
    // No preset: the problem spelled out as a scenario file writes it, and read back the same.
    app::ShownView r;
    r.scenario = sim::matmulScenario("matmul-tiled", 100, 37, 51, 16, {3, 6, 0}, 5);
    r.schedule = sim::Schedule::Random;
    r.scheduleSeed = 4;
    r.step = 0;
    r.heatmap = "loads";
    const std::string text = app::formatViewLink(app::viewLinkOf(r, nullptr));
    EXPECT_EQ(text, "kernel=matmul-tiled&j=100&k=37&l=51&tile=16&seed=5&schedule=random&schedule-seed=4&step=0"
                    "&block=3,6&heatmap=loads");
    const ViewLink back = parse(text);
    sim::Preset p = *app::linkedPreset(back);
    app::applyViewToPreset(back, p);
    EXPECT_EQ(p.scenario.j, 100);
    EXPECT_EQ(p.scenario.k, 37);
    EXPECT_EQ(p.scenario.l, 51);
    EXPECT_EQ(p.scenario.seed, 5u);
    EXPECT_EQ(p.scenario.block.y, 6u);
    EXPECT_EQ(p.schedule, sim::Schedule::Random);
    EXPECT_EQ(p.scheduleSeed, 4u);
    // Every lecture preset, at its own block and thread, is its name and step alone, and
    // the link opens that preset.
    for (const sim::Preset& lp : presets) {
        SCOPED_TRACE(lp.name);
        app::ShownView shown;
        shown.scenario = lp.scenario;
        shown.schedule = lp.schedule;
        shown.scheduleSeed = lp.scheduleSeed;
        shown.step = 3;
        if (lp.thread) shown.thread = *lp.thread;
        const sim::Preset* found = app::lecturePresetOf(lp.scenario, lp.schedule, lp.scheduleSeed, lp.name, presets);
        ASSERT_EQ(found, &lp);
        const std::string link = app::formatViewLink(app::viewLinkOf(shown, found));
        EXPECT_EQ(link, "preset=" + lp.name + "&step=3");
        EXPECT_EQ(app::linkedPreset(parse(link))->file, lp.file);
    }
}
