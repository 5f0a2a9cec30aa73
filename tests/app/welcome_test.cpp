// The way in (issue 37): the lessons in the order of PMPP's chapters, each one opening its
// preset; the welcome's thumbnails; the glossary and every term the legends link to; the
// Keys table; welcome_seen in settings.toml; the file chooser's folder listing.
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <set>

#include "file_chooser.hpp"
#include "glossary.hpp"
#include "help_keys.hpp"
#include "settings.hpp"
#include "settings_text.hpp"
#include "sim/teaching/lessons.hpp"
#include "welcome.hpp"

namespace fs = std::filesystem;
using namespace ts::app;
using ts::sim::Preset;

namespace {

Preset preset(const std::string& name, const std::string& chapter, int order = 0)
{
    Preset p;
    p.name = name;
    p.chapter = chapter;
    p.order = order;
    return p;
}

std::vector<std::string> names(const std::vector<Preset>& v)
{
    std::vector<std::string> out;
    for (const Preset& p : v) out.push_back(p.name);
    return out;
}

size_t indexOf(const std::vector<std::string>& v, const std::string& name)
{
    return static_cast<size_t>(std::find(v.begin(), v.end(), name) - v.begin());
}

}  // namespace

TEST(Lessons, OrderIsByChapterSectionOrderThenName)
{
    // Numbers, not text: 10.1 after 7.5, 5.10 after 5.4; a preset without a chapter last.
    const std::vector<Preset> sorted = ts::sim::inChapterOrder(
        {preset("own", ""), preset("red", "10.1"), preset("b", "5.4", 2), preset("a", "5.4", 2), preset("c", "5.4", 1),
         preset("x", "5.10"), preset("conv", "7.5"), preset("ch3", "3")});
    EXPECT_EQ(names(sorted), (std::vector<std::string>{"ch3", "c", "a", "b", "x", "conv", "red", "own"}));
    const std::vector<ts::sim::LessonGroup> groups = ts::sim::lessonGroups(sorted);
    ASSERT_EQ(groups.size(), 5u);
    EXPECT_EQ(groups[0].chapter, 3);
    EXPECT_EQ(groups[1].chapter, 5);
    EXPECT_EQ(groups[1].lessons.size(), 4u);
    EXPECT_EQ(groups[4].chapter, 0);
    EXPECT_EQ(ts::sim::chapterHeading(5), "Ch. 5: Memory architecture and data locality");
    EXPECT_EQ(ts::sim::chapterHeading(0), "Other scenarios");
}

TEST(Lessons, EveryPresetHasAChapterAndASentenceAndTheyFollowTheBook)
{
    const std::vector<Preset> lessons = ts::sim::inChapterOrder(ts::sim::listPresets());
    ASSERT_GE(lessons.size(), 20u);
    int chapter = 0, section = 0;
    for (const Preset& p : lessons) {
        EXPECT_FALSE(p.chapter.empty()) << p.name << " has no chapter";
        EXPECT_FALSE(p.summary.empty()) << p.name << " has no summary";
        const ts::sim::BookPlace b = ts::sim::bookPlace(p);
        EXPECT_GE(b.chapter, 2) << p.name;
        EXPECT_TRUE(b.chapter > chapter || (b.chapter == chapter && b.section >= section)) << p.name << " out of order";
        chapter = b.chapter;
        section = b.section;
    }
    // The teaching order within a chapter: the tiled kernel, then its dropped barriers, then
    // the tile sizes; boundaries after; coalescing before bank conflicts; 1D before 2D.
    const std::vector<std::string> n = names(lessons);
    EXPECT_EQ(n.front(), "naive-4x4");
    EXPECT_LT(indexOf(n, "occupancy-seed004"), indexOf(n, "tiled-4x4"));
    EXPECT_LT(indexOf(n, "tiled-4x4"), indexOf(n, "missing-barrier-after-load"));
    EXPECT_LT(indexOf(n, "missing-barrier-after-load"), indexOf(n, "missing-barrier-after-compute"));
    EXPECT_LT(indexOf(n, "missing-barrier-after-compute"), indexOf(n, "tiled-64-tile16"));
    EXPECT_LT(indexOf(n, "tiled-64-tile32"), indexOf(n, "boundary-3x3"));
    EXPECT_LT(indexOf(n, "ragged-100x37x51-tile16"), indexOf(n, "coalescing-naive-64"));
    EXPECT_LT(indexOf(n, "nds-transposed-64-tile16"), indexOf(n, "nds-padded-64-tile16"));
    EXPECT_LT(indexOf(n, "conv1d-tiled-tile8-mask5"), indexOf(n, "conv2d-tiled-tile8-mask5"));
    EXPECT_LT(indexOf(n, "nds-padded-64-tile16"), indexOf(n, "conv1d-tiled-tile8-mask5"));
}

TEST(Lessons, EveryLessonOpensItsPreset)
{
    // The welcome and the Lessons menu open a lesson by its name (Requests::open, which the
    // app hands to sim::findPreset): each name finds the same file.
    for (const Preset& p : ts::sim::inChapterOrder(ts::sim::listPresets())) {
        const Preset opened = ts::sim::findPreset(p.name);
        EXPECT_EQ(opened.file, p.file) << p.name;
        EXPECT_EQ(opened.title, p.title) << p.name;
        EXPECT_EQ(opened.chapter, p.chapter) << p.name;
    }
}

TEST(Lessons, ChapterKeyIsCheckedAndSavedBack)
{
    EXPECT_THROW(ts::sim::parseScenarioText("kernel = \"matmul-tiled\"\nwidth = 4\ntile = 2\nchapter = \"5.x\"\n", "x.toml"),
                 ts::sim::ScenarioFileError);
    try {
        ts::sim::parseScenarioText("kernel = \"matmul-tiled\"\nwidth = 4\ntile = 2\nchapter = 5\n", "x.toml");
        FAIL() << "a number is not a chapter string";
    } catch (const ts::sim::ScenarioFileError& e) {
        EXPECT_NE(std::string(e.what()).find("x.toml, line 4: chapter must be a string"), std::string::npos) << e.what();
    }
    const Preset p = ts::sim::parseScenarioText(
        "kernel = \"matmul-tiled\"\nwidth = 4\ntile = 2\nchapter = \"12.3\"\norder = 2\nsummary = \"Said once.\"\n", "x.toml");
    EXPECT_EQ(p.chapter, "12.3");
    EXPECT_EQ(p.order, 2);
    EXPECT_EQ(p.summary, "Said once.");
    const fs::path file = fs::temp_directory_path() / "tilescope-welcome-chapter.toml";
    ts::sim::saveScenarioFile(p, file.string());
    const Preset back = ts::sim::loadScenarioFile(file.string());
    fs::remove(file);
    EXPECT_EQ(back.chapter, "12.3");
    EXPECT_EQ(back.order, 2);
    EXPECT_EQ(back.summary, "Said once.");
}

TEST(Welcome, ThumbnailsFollowTheLesson)
{
    auto thumb = [](const std::string& name) { return thumbnailOf(ts::sim::findPreset(name)); };
    EXPECT_EQ(thumb("naive-4x4"), Thumbnail::Naive);
    EXPECT_EQ(thumb("tiled-4x4"), Thumbnail::Tiled);
    EXPECT_EQ(thumb("missing-barrier-after-load"), Thumbnail::MissingBarrier);
    EXPECT_EQ(thumb("boundary-3x3"), Thumbnail::Boundary);
    EXPECT_EQ(thumb("ragged-100x37x51-tile16"), Thumbnail::Boundary);
    EXPECT_EQ(thumb("coalescing-naive-64"), Thumbnail::Coalesced);
    EXPECT_EQ(thumb("coalescing-uncoalesced-64"), Thumbnail::Uncoalesced);
    EXPECT_EQ(thumb("nds-transposed-64-tile16"), Thumbnail::BankConflict);
    EXPECT_EQ(thumb("nds-padded-64-tile16"), Thumbnail::Padded);
    EXPECT_EQ(thumb("occupancy-seed004"), Thumbnail::Occupancy);
    EXPECT_EQ(thumb("conv1d-tiled-tile8-mask5"), Thumbnail::Conv1D);
    EXPECT_EQ(thumb("conv1d-tiled-ghost-block0"), Thumbnail::Conv1DGhost);
    EXPECT_EQ(thumb("conv2d-tiled-tile8-mask5"), Thumbnail::Conv2D);
}

TEST(Glossary, EntriesAreSortedAndSaySomething)
{
    const auto g = glossary();
    ASSERT_GE(g.size(), 25u);
    auto lower = [](std::string s) {
        for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
        return s;
    };
    for (size_t i = 0; i < g.size(); ++i) {
        EXPECT_GT(std::string(g[i].text).size(), 40u) << g[i].term;
        if (i > 0) EXPECT_LT(lower(g[i - 1].term), lower(g[i].term)) << "out of order or twice: " << g[i].term;
    }
    // DESIGN's list of the field's terms (docs/design.md, "Terms").
    for (const char* t : {"TILE_WIDTH", "Mds / Nds", "N_ds", "halo cell", "ghost cell", "phase", "OP/B", "barrier",
                          "coalescing", "bank conflict", "occupancy", "tiling", "reuse", "tile", "warp", "block",
                          "thread", "grid", "hazard", "shared memory", "global memory", "constant memory",
                          "Mask_Width", "TILE_SIZE"})
        EXPECT_NE(findGlossaryEntry(t), nullptr) << t;
    EXPECT_NE(findGlossaryEntry("op/b"), nullptr) << "case is ignored";
    EXPECT_EQ(findGlossaryEntry("no such term"), nullptr);
}

TEST(Glossary, EveryTermALegendLinksToExists)
{
    for (const MeaningStyle& m : meaningTable())
        if (const char* term = glossaryTermOf(m.meaning))
            EXPECT_NE(findGlossaryEntry(term), nullptr) << m.words << " links to '" << term << "'";
    // The halo, ghost cell, barrier and hazard legends link to their own terms.
    EXPECT_STREQ(glossaryTermOf(Meaning::Halo), "halo cell");
    EXPECT_STREQ(glossaryTermOf(Meaning::ZeroFill), "ghost cell");
    EXPECT_STREQ(glossaryTermOf(Meaning::Hazard), "hazard");
    std::set<ts::sim::StepKind> kinds;
    for (const TimelineLegendEntry& e : timelineLegend()) {
        EXPECT_NE(findGlossaryEntry(e.term), nullptr) << e.words << " links to '" << e.term << "'";
        kinds.insert(e.kind);
    }
    EXPECT_EQ(kinds.size(), 5u) << "every kind of step has a legend entry";
}

TEST(HelpKeys, EveryRowHasAKeyAndAnAction)
{
    std::set<std::string> keys;
    for (const KeyHelp& k : keyHelp()) {
        EXPECT_FALSE(std::string(k.keys).empty());
        EXPECT_FALSE(std::string(k.action).empty());
        // A table, not text aligned with spaces.
        EXPECT_EQ(std::string(k.keys).find("  "), std::string::npos) << k.keys;
        EXPECT_EQ(std::string(k.action).find("  "), std::string::npos) << k.action;
        EXPECT_TRUE(keys.insert(k.keys).second) << k.keys << " twice";
    }
    for (const char* k : {"Space", "Ctrl+K", "Ctrl+O", "F1", "F5", "P"}) EXPECT_EQ(keys.count(k), 1u) << k;
}

TEST(WelcomeSettings, SeenIsKeptAndCheckedInSettingsToml)
{
    std::string error;
    Settings s;
    EXPECT_FALSE(s.welcomeSeen);
    s.welcomeSeen = true;
    EXPECT_TRUE(settingsFromText(settingsText(s), "settings.toml", error).welcomeSeen);
    EXPECT_EQ(error, "");
    EXPECT_FALSE(settingsFromText("theme = \"dark\"\n", "settings.toml", error).welcomeSeen) << "no record: not seen";
    const Settings bad = settingsFromText("welcome_seen = \"yes\"\n", "settings.toml", error);
    EXPECT_FALSE(bad.welcomeSeen);
    EXPECT_NE(error.find("settings.toml: welcome_seen must be true or false"), std::string::npos) << error;
}

TEST(FileChooser, ListsFoldersThenMatchingFiles)
{
    const fs::path dir = fs::temp_directory_path() / "tilescope-chooser-test";
    fs::remove_all(dir);
    fs::create_directories(dir / "sub");
    fs::create_directories(dir / ".hidden");
    for (const char* f : {"b.cu", "a.cu", "notes.txt", "k.cuh"}) std::ofstream(dir / f) << "x";
    std::string error;
    const std::vector<FolderEntry> e = listFolder(dir.string(), {".cu"}, error);
    EXPECT_EQ(error, "");
    ASSERT_EQ(e.size(), 3u);
    EXPECT_TRUE(e[0].folder);
    EXPECT_EQ(e[0].name, "sub");
    EXPECT_EQ(e[1].name, "a.cu");
    EXPECT_EQ(e[2].name, "b.cu");
    EXPECT_TRUE(listFolder((dir / "missing").string(), {".cu"}, error).empty());
    EXPECT_NE(error.find("Cannot read the folder"), std::string::npos) << error;
    // A starter is copied once; the second copy is refused, naming the file.
    const ExerciseChoice ex{"tiled", "Tiled", "5.4", (dir / "a.cu").string()};
    EXPECT_EQ(copyStarter(ex, (dir / "sub").string()), (dir / "sub" / "tiled.cu").string());
    try {
        copyStarter(ex, (dir / "sub").string());
        FAIL() << "a second copy over the first";
    } catch (const std::runtime_error& err) {
        EXPECT_NE(std::string(err.what()).find("already a file"), std::string::npos) << err.what();
    }
    fs::remove_all(dir);
}

TEST(FileChooser, ExercisesComeInTheBooksOrder)
{
    std::string error;
    const std::vector<ExerciseChoice> ex = listExerciseChoices(error);
#ifdef TILESCOPE_HAVE_STUDENT
    ASSERT_FALSE(ex.empty()) << error;
    EXPECT_EQ(ex.front().name, "vector-add") << "PMPP ch. 2 first";
    for (const ExerciseChoice& e : ex) EXPECT_TRUE(fs::exists(e.starter)) << e.starter;
#else
    EXPECT_TRUE(ex.empty());
    EXPECT_FALSE(error.empty());
#endif
}
