// The last results file opened is kept in settings.toml (results_file): written by
// saveSettings, read back by loadSettings; an empty or multi-line value is refused with one
// sentence naming the file, and the other settings still apply.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "settings.hpp"
#include "settings_text.hpp"

namespace fs = std::filesystem;
using namespace ts::app;

namespace {

fs::path tempDir(const char* name)
{
    const fs::path dir = fs::temp_directory_path() / (std::string("tilescope-results-settings-") + name);
    fs::create_directories(dir);
    return dir;
}

TEST(ResultsSettings, LastResultsFileRoundTrips)
{
    const fs::path dir = tempDir("round-trip");
    Settings s;
    s.resultsFile = "/home/lecturer/timings/ladder 4096 h100.json";
    const std::string path = (dir / "settings.toml").string();
    ASSERT_EQ(saveSettings(s, path), "");
    std::string error;
    EXPECT_EQ(loadSettings(path, error).resultsFile, s.resultsFile);
    EXPECT_EQ(error, "");
    // None opened: no key, and none read back.
    ASSERT_EQ(saveSettings(Settings{}, path), "");
    std::stringstream text;
    text << std::ifstream(path).rdbuf();
    EXPECT_EQ(text.str().find("results_file"), std::string::npos) << text.str();
    EXPECT_EQ(loadSettings(path, error).resultsFile, "");
    fs::remove_all(dir);
}

TEST(ResultsSettings, BadValuesAreRefusedWithOneSentence)
{
    for (const char* text : {"results_file = \"\"\ntheme = \"light\"\n", "results_file = \"a\\nb.json\"\ntheme = \"light\"\n"}) {
        SCOPED_TRACE(text);
        std::string error;
        const SettingsValues v = parseSettingsText(text, "s.toml", error);
        EXPECT_FALSE(v.resultsFile.has_value());
        EXPECT_EQ(error.rfind("s.toml: results_file must be", 0), 0u) << error;
        EXPECT_EQ(error.find('\n'), std::string::npos) << error;
        EXPECT_EQ(error.back(), '.') << error;
        ASSERT_TRUE(v.theme.has_value()) << "the other keys still apply";
    }
    // A value of another type is left alone, as for every key.
    std::string error;
    EXPECT_FALSE(parseSettingsText("results_file = 3\n", "s.toml", error).resultsFile.has_value());
}

}  // namespace
