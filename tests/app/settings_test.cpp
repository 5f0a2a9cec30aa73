// Settings persist between runs: what saveSettings writes, loadSettings reads back; a
// malformed file keeps the defaults and says which file and what.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "settings.hpp"
#include "state.hpp"
#include "settings_text.hpp"

namespace fs = std::filesystem;
using namespace ts::app;

namespace {

class SettingsFile : public ::testing::Test {
protected:
    void SetUp() override
    {
        dir = fs::temp_directory_path() / ("tilescope-settings-" + std::to_string(::testing::UnitTest::GetInstance()->random_seed()) +
                                           "-" + ::testing::UnitTest::GetInstance()->current_test_info()->name());
        fs::create_directories(dir);
    }
    void TearDown() override { fs::remove_all(dir); }
    std::string write(const std::string& text)
    {
        const std::string path = (dir / "settings.toml").string();
        std::ofstream(path) << text;
        return path;
    }
    fs::path dir;
};

}  // namespace

TEST_F(SettingsFile, RoundTripKeepsEveryField)
{
    Settings s;
    s.theme = ThemeKind::Light;
    s.uiScale = 1.75f;
    s.presentationScale = 2.5f;
    s.caption = false;
    for (int i = 0; i < panelCount(); ++i) s.open[i] = i % 3 == 1;   // not the defaults
    ASSERT_NE(s.open, View{}.open);
    const std::string path = (dir / "settings.toml").string();
    ASSERT_EQ(saveSettings(s, path), "");
    std::string error;
    const Settings r = loadSettings(path, error);
    EXPECT_EQ(error, "");
    EXPECT_EQ(r.theme, ThemeKind::Light);
    EXPECT_FLOAT_EQ(r.uiScale, 1.75f);
    EXPECT_FLOAT_EQ(r.presentationScale, 2.5f);
    EXPECT_FALSE(r.caption);
    EXPECT_EQ(r.open, s.open);
}

TEST_F(SettingsFile, MissingFileGivesTheDefaults)
{
    std::string error;
    const Settings r = loadSettings((dir / "none.toml").string(), error);
    EXPECT_EQ(error, "");
    EXPECT_EQ(r.theme, ThemeKind::Dark);
    EXPECT_FLOAT_EQ(r.uiScale, 1.0f);
    EXPECT_EQ(r.open, View{}.open);
}

TEST_F(SettingsFile, BadValuesAreNamedAndIgnored)
{
    std::string error;
    const std::string path = write("theme = \"sepia\"\nui_scale = 9.0\n");
    const Settings r = loadSettings(path, error);
    EXPECT_EQ(r.theme, ThemeKind::Dark);
    EXPECT_FLOAT_EQ(r.uiScale, 1.0f);
    EXPECT_NE(error.find(path), std::string::npos) << error;
    EXPECT_NE(error.find("ui_scale must be between"), std::string::npos) << error;

    error.clear();
    const Settings broken = loadSettings(write("theme = \n"), error);
    EXPECT_EQ(broken.theme, ThemeKind::Dark);
    EXPECT_NE(error.find(":1: "), std::string::npos) << error;
    EXPECT_NE(error.find("settings ignored"), std::string::npos) << error;
}

// View > Simulation threads: kept between runs; 0 means one per core; out of range is named.
TEST_F(SettingsFile, SimulationThreads)
{
    Settings s;
    s.simThreads = 3;
    const std::string path = (dir / "settings.toml").string();
    ASSERT_EQ(saveSettings(s, path), "");
    std::string error;
    EXPECT_EQ(loadSettings(path, error).simThreads, 3);
    EXPECT_EQ(error, "");
    EXPECT_EQ(loadSettings(write("simulation_threads = 0\n"), error).simThreads, 0);
    EXPECT_EQ(error, "");
    const Settings bad = loadSettings(write("simulation_threads = 5000\n"), error);
    EXPECT_EQ(bad.simThreads, 0);
    EXPECT_NE(error.find("simulation_threads must be between 0 (one per core) and 1024; got 5000."), std::string::npos)
        << error;
    error.clear();
    EXPECT_EQ(loadSettings(write("simulation_threads = -1\n"), error).simThreads, 0);
    EXPECT_NE(error.find("simulation_threads must be between"), std::string::npos) << error;
}

TEST_F(SettingsFile, UnwritablePlaceIsReported)
{
    const std::string e = saveSettings(Settings{}, (dir / "no-such-folder" / "settings.toml").string());
    EXPECT_NE(e.find("Cannot write the settings"), std::string::npos) << e;
}

// The parser alone (what the settings fuzzer drives): text in, checked values out, no file,
// no panel table; what is out of range or of another type stays empty.
TEST(SettingsText, ValuesComeFromTheTextAlone)
{
    std::string error;
    const SettingsValues v = parseSettingsText(
        "theme = \"light\"\nui_scale = 2\npresentation_scale = 0.5\ncaption = \"yes\"\n[panels]\nCode = false\nStats = \"on\"\n",
        "mem/settings.toml", error);
    ASSERT_TRUE(v.theme.has_value());
    EXPECT_EQ(*v.theme, ThemeKind::Light);
    ASSERT_TRUE(v.uiScale.has_value());
    EXPECT_FLOAT_EQ(*v.uiScale, 2.0f);
    EXPECT_FALSE(v.presentationScale.has_value());
    EXPECT_FALSE(v.caption.has_value());   // a string, not true/false
    ASSERT_EQ(v.panels.size(), 1u);
    EXPECT_EQ(v.panels[0].first, "Code");
    EXPECT_FALSE(v.panels[0].second);
    EXPECT_EQ(error.rfind("mem/settings.toml: presentation_scale must be between", 0), 0u) << error;
}

// Found by the settings fuzzer (fuzz/settings_fuzz.cpp): toml++ quotes what it saw, newline
// included ("expected 'false', saw 'fal<newline>'"); the message now stays on one line.
TEST(SettingsText, SyntaxErrorQuotingANewlineStaysOnOneLine)
{
    std::string error;
    parseSettingsText("caption = fal\n", "mem/settings.toml", error);
    EXPECT_EQ(error.find('\n'), std::string::npos) << error;
    EXPECT_NE(error.find("saw 'fal\\n'"), std::string::npos) << error;
    EXPECT_EQ(error.rfind("mem/settings.toml:1: ", 0), 0u) << error;
}

// Found by the settings fuzzer: a non-ASCII character outside quotes made toml++ 3.3 reach
// __builtin_unreachable; it is refused before toml++ sees it.
TEST(SettingsText, NonAsciiOutsideQuotesIsRefused)
{
    std::string error;
    const SettingsValues v = parseSettingsText("theme = \"light\"\n\xd0\x96 = 1\n", "mem/settings.toml", error);
    EXPECT_FALSE(v.theme.has_value());
    EXPECT_EQ(error, "mem/settings.toml:2: a non-ASCII character (U+0416) outside quotes; TOML allows them only "
                     "in \"strings\" and # comments (settings ignored).");
}

// The settings fuzzer's second finding: after "=+", toml++ reads on as junk through the
// quote, and classified the U+FEBF in it. Such a character reaches toml++ as an escape.
TEST(SettingsText, UnclassifiableCharacterInJunkIsAnErrorNotUndefinedBehaviour)
{
    std::string error;
    const std::string text("theme =+\"d\x01\x00" "es????\xef\xba\xbf?????????\n", 31);
    const SettingsValues v = parseSettingsText(text, "mem/settings.toml", error);
    EXPECT_FALSE(v.theme.has_value());
    EXPECT_EQ(error.rfind("mem/settings.toml:1: ", 0), 0u) << error;
    EXPECT_EQ(error.find('\n'), std::string::npos) << error;
}

// presentation_scale is the slide's scale on a screen 1080 pixels high: a 720p window draws
// the slide at two thirds of it, a 1440p one at four thirds, so that a slide looks the same on
// any projector (2 x 720 / 1080 = 1.333, rounded to hundredths).
TEST(PresentationScale, FollowsTheScreenHeightFromThe1080pSetting)
{
    EXPECT_FLOAT_EQ(presentationScaleFor(2.0f, 1080), 2.0f);
    EXPECT_FLOAT_EQ(presentationScaleFor(2.0f, 720), 1.33f);
    EXPECT_FLOAT_EQ(presentationScaleFor(2.0f, 900), 1.67f);
    EXPECT_FLOAT_EQ(presentationScaleFor(1.5f, 1440), 2.0f);
    EXPECT_FLOAT_EQ(presentationScaleFor(3.0f, 2160), 6.0f);
    // A window whose height is not known yet draws at the setting.
    EXPECT_FLOAT_EQ(presentationScaleFor(2.5f, 0), 2.5f);
    // 18 px of lesson text at 1080p (the floor for the back row) is 12 px at 720p:
    // the UI font (17 px at scale 1) at the 720p scale.
    EXPECT_NEAR(17 * presentationScaleFor(2.0f, 720), 17 * 2.0f * 720 / 1080, 0.1f);
}
