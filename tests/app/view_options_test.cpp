// A view link onto the command line's options (app/gui/view_options.hpp): --view's
// conflicts with the options that say the same thing, another traced block making a custom
// preset, and the web page's address read at start through the Platform (a stand-in here).
#include <gtest/gtest.h>

#include "panels/panel_table.hpp"
#include "view_options.hpp"

using namespace ts;
using namespace ts::app;

namespace {

/// Options as main() has them before --view: the default preset.
Options defaults()
{
    Options o;
    o.preset = sim::defaultPreset(panelNameList());
    return o;
}

/// A platform whose page address carries `hash`; nothing else is used.
class PagePlatform final : public Platform {
public:
    explicit PagePlatform(std::string hash) : hash_(std::move(hash)) {}
    std::string startupViewLink() override { return hash_; }
    void viewChanged(const std::string&) override {}
    std::optional<std::string> linkTyped() override { return std::nullopt; }
    std::string shareableLink(const std::string& link) override { return link; }
    void copyText(const std::string&) override {}
    std::optional<std::string> readStored(const std::string&, std::string&) override { return std::nullopt; }
    std::string writeStored(const std::string&, const std::string&) override { return {}; }
    bool storesOnChange() const override { return true; }
    std::string offerFile(const std::string&) override { return {}; }
    bool picksFiles() const override { return true; }
    void startPick(PickKind) override {}
    std::optional<PickedFile> pickedFile() override { return std::nullopt; }
    void setFullScreen(GLFWwindow*, bool) override {}
    bool fullScreen() const override { return false; }
    bool leftFullScreen() override { return false; }

private:
    std::string hash_;
};

std::string usageErrorOf(const std::string& link, const GivenOptions& given)
{
    Options o = defaults();
    try {
        applyViewLink(link, o, given);
    } catch (const UsageError& e) {
        return e.what();
    }
    return "";
}

}  // namespace

TEST(ViewOptions, TheLinkSetsWhatTheOptionsWould)
{
    Options o = defaults();
    applyViewLink("preset=conv2d-tiled-tile8-mask5&step=last&thread=3,4&theme=light&presentation=on&heatmap=loads", o, {});
    EXPECT_EQ(o.preset.name, "conv2d-tiled-tile8-mask5");
    EXPECT_EQ(o.step, -1);
    ASSERT_TRUE(o.preset.thread);
    EXPECT_EQ(o.preset.thread->x, 3u);
    EXPECT_EQ(o.preset.thread->y, 4u);
    EXPECT_EQ(o.theme, ThemeKind::Light);
    EXPECT_TRUE(o.presentation);
    EXPECT_EQ(o.heatmap, "loads");
    // The preset's narration stays: its own traced block (1,1) is the one shown.
    EXPECT_FALSE(o.preset.narrate.empty() && o.preset.narration.empty());
}

TEST(ViewOptions, AnotherBlockIsACustomPresetWithoutTheNarration)
{
    Options o = defaults();
    ASSERT_FALSE(o.preset.narrate.empty());
    applyViewLink("block=1,1&step=2", o, {});
    EXPECT_EQ(o.preset.name, "custom");
    EXPECT_EQ(o.preset.scenario.block.x, 1u);
    EXPECT_EQ(o.preset.scenario.block.y, 1u);
    EXPECT_TRUE(o.preset.narrate.empty());
    EXPECT_TRUE(o.preset.questions.empty());
    EXPECT_EQ(o.preset.title.find("matmul-tiled, M 4x4"), 0u) << o.preset.title;
    EXPECT_EQ(o.step, 2);
}

TEST(ViewOptions, ALinkAndAnOptionMustNotSayTheSameThing)
{
    GivenOptions step;
    step.step = true;
    EXPECT_EQ(usageErrorOf("step=3", step), "--view and --step both give the step; give one of them.");
    EXPECT_EQ(usageErrorOf("preset=naive-4x4", step), "");   // the link leaves the step to --step
    GivenOptions scenario;
    scenario.scenario = true;
    EXPECT_EQ(usageErrorOf("kernel=matmul-naive&width=4&tile=2", scenario),
              "--view and --scenario both give the scenario; give one of them.");
    EXPECT_EQ(usageErrorOf("block=1,0", scenario), "");
    GivenOptions exporting;
    exporting.exportSteps = true;
    EXPECT_NE(usageErrorOf("step=1", exporting).find("--export-steps both give the step"), std::string::npos);
    // A bad link is a UsageError with the link's own sentence.
    EXPECT_EQ(usageErrorOf("preset=tiled-4x4&step=x", {}).rfind("View link: step", 0), 0u);
}

TEST(ViewOptions, ThePagesAddressIsReadAtStart)
{
    Options o = defaults();
    PagePlatform page("preset=naive-4x4&step=3");
    EXPECT_EQ(applyStartupViewLink(page, o), "");
    EXPECT_EQ(o.preset.name, "naive-4x4");
    EXPECT_EQ(o.step, 3);
    // A bad address leaves the options as they were and says why.
    Options kept = defaults();
    PagePlatform bad("preset=naive-4x4&step=3&zoom=2");
    const std::string e = applyStartupViewLink(bad, kept);
    EXPECT_NE(e.find("unknown key 'zoom'"), std::string::npos) << e;
    EXPECT_NE(e.find("showing the default view"), std::string::npos) << e;
    EXPECT_EQ(kept.preset.name, "tiled-4x4");
    EXPECT_FALSE(kept.step.has_value());
    // The desktop's platform has no address.
    Options desk = defaults();
    EXPECT_EQ(applyStartupViewLink(*makePlatform(), desk), "");
    EXPECT_EQ(desk.preset.name, "tiled-4x4");
}
