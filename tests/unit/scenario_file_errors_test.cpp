// Scenario files that are wrong in a way the reader must name exactly: a value of the wrong
// TOML type (the key, the type it must have, what was there, the line), even when other keys
// are missing too; an empty file; a TOML syntax error (line and column); a folder, a missing
// file and a file that cannot be read, each said as what it is.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "sim/files/scenario_file.hpp"

namespace ts::test {
namespace {
namespace fs = std::filesystem;

/// The message that reading `text` (as the file "f.toml") throws, without the file name; ""
/// if it reads.
std::string errorOf(const std::string& text)
{
    try {
        sim::parseScenarioText(text, "f.toml");
    } catch (const sim::ScenarioFileError& e) {
        const std::string m = e.what();
        EXPECT_EQ(m.rfind("f.toml", 0), 0u) << m;
        EXPECT_EQ(m.find('\n'), std::string::npos) << "one line: " << m;
        EXPECT_EQ(m.back(), '.') << "one sentence: " << m;
        return m.substr(6);
    }
    return "";
}

/// One key given a value of the wrong type, and the sentence expected for it.
struct WrongType {
    std::string text;     ///< the file
    std::string expect;   ///< what follows the file name
};

// Every key of a scenario file, alone or beside the keys it needs, with a value of another
// TOML type. The sentence names the key, the type it must have and the line, and comes
// before any complaint about a missing key: `width = "four"` used to be reported as "no tile
// given", a file with no kernel as "no kernel given" whatever else was wrong in it.
TEST(ScenarioFileTypes, EveryKeyOfTheWrongTypeIsNamedWithItsTypeAndLine)
{
    const std::vector<WrongType> cases = {
        {"kernel = \"matmul-tiled\"\nwidth = \"four\"\n",
         ", line 2: width must be an integer; got the string \"four\"."},
        {"width = \"four\"\n", ", line 1: width must be an integer; got the string \"four\"."},
        {"kernel = \"matmul-tiled\"\nj = 4\nk = 4.5\nl = 4\n",
         ", line 3: k must be an integer; got the floating-point number 4.5."},
        {"kernel = \"matmul-tiled\"\nj = \"4\"\n", ", line 2: j must be an integer; got the string \"4\"."},
        {"kernel = \"matmul-tiled\"\nl = true\n", ", line 2: l must be an integer; got the boolean true."},
        {"kernel = \"matmul-tiled\"\nwidth = 4\ntile = \"2\"\n",
         ", line 3: tile must be an integer; got the string \"2\"."},
        {"tile = [2]\n", ", line 1: tile must be an integer; got an array."},
        {"kernel = 3\nwidth = 4\n", ", line 1: kernel must be a string in quotes; got the integer 3."},
        {"kernel = \"conv2d-tiled\"\nheight = \"64\"\n",
         ", line 2: height must be an integer; got the string \"64\"."},
        {"kernel = \"conv1d-tiled\"\nmask_width = 5.0\n",
         ", line 2: mask_width must be an integer; got the floating-point number 5.0."},
        {"title = 5\n", ", line 1: title must be a string in quotes; got the integer 5."},
        {"seed = \"1\"\n", ", line 1: seed must be an integer; got the string \"1\"."},
        {"step = true\n", ", line 1: step must be a step number or \"last\"; got the boolean true."},
        {"\nblock = \"0,0\"\n", ", line 2: block must be [bx, by] or [bx, by, bz], two or three block indices; got the string \"0,0\"."},
        {"block = [0, \"1\"]\n", ", line 1: block's by must be an integer; got the string \"1\"."},
        {"thread = {tx = 1}\n", ", line 1: thread must be [tx, ty] or [tx, ty, tz], a thread index in the block; got a table."},
        {"thread = [1.0, 0]\n", ", line 1: thread's tx must be an integer; got the floating-point number 1.0."},
        {"panels = \"code\"\n", ", line 1: panels must be an array of panel names; got the string \"code\"."},
        {"panels = [\"code\",\n 7]\n", ", line 2: each panel name must be a string in quotes; got the integer 7."},
        {"narration = \"one\"\n",
         ", line 1: narration must be an array of strings, one per step; got the string \"one\"."},
        {"narration = [\"a\", [\"b\"]]\n", ", line 1: each narration line must be a string in quotes; got an array."},
        {"drop_barrier = 1\n",
         ", line 1: drop_barrier must be a string in quotes (\"after-load\", \"after-compute\" or \"fence\") or a "
         "list of them; got the integer 1."},
        {"drop_barrier = [\"after-load\", 2]\n",
         ", line 1: drop_barrier must be a string in quotes (\"after-load\", \"after-compute\" or \"fence\") or a "
         "list of them; got the integer 2."},
        {"schedule = 2\n", ", line 1: schedule must be a string in quotes; got the integer 2."},
        {"schedule_seed = \"7\"\n", ", line 1: schedule_seed must be an integer; got the string \"7\"."},
        {"occupancy = 5\n",
         ", line 1: occupancy must be a table: an [occupancy] section with block_threads and optionally "
         "regs_per_thread, smem_per_block and profile; got the integer 5."},
        {"[occupancy]\nregs_per_thread = \"ten\"\n",
         ", line 2: regs_per_thread must be an integer; got the string \"ten\"."},
        {"[occupancy]\nblock_threads = 256.0\n",
         ", line 2: block_threads must be an integer; got the floating-point number 256.0."},
        {"[occupancy]\nsmem_per_block = 1979-05-27\n", ", line 2: smem_per_block must be an integer; got a date."},
        {"[occupancy]\nprofile = 90\n", ", line 2: profile must be a string in quotes; got the integer 90."},
    };
    for (const WrongType& c : cases) {
        SCOPED_TRACE(c.text);
        EXPECT_EQ(errorOf(c.text), c.expect);
    }
}

// A value of the right type is still checked where it is applied, and missing keys are
// still named once every value present has the right type.
TEST(ScenarioFileTypes, RightTypesStillReachTheOtherChecks)
{
    EXPECT_EQ(errorOf("kernel = \"matmul-tiled\"\nwidth = 4\n").rfind(": no tile given", 0), 0u);
    EXPECT_EQ(errorOf("width = 4\ntile = 2\n").rfind(": no kernel given", 0), 0u);
    EXPECT_EQ(errorOf("kernel = \"matmul-tiled\"\ntile = 2\n").rfind(": no problem size given", 0), 0u);
    EXPECT_EQ(errorOf("kernel = \"matmul-tiled\"\nwidth = 4\ntile = 2\nblock = [0]\n"),
              ", line 4: block must be [bx, by] or [bx, by, bz], two or three block indices; got an array of 1 value.");
    EXPECT_EQ(errorOf("kernel = \"matmul-tiled\"\nwidth = 4\ntile = 2\nseed = -5\n"),
              ", line 4: seed must be between 0 and 9223372036854775807; got -5.");
    EXPECT_EQ(errorOf("kernel = \"matmul-tiled\"\nwidth = 4\ntile = 2\nseed = 5\n"), "");
}

// An empty file (or one with only comments) says so instead of asking for the kernel alone.
TEST(ScenarioFileText, EmptyFileSaysItIsEmpty)
{
    const std::string expect =
        ": the file has no keys; a scenario needs at least kernel, width (or j, k and l) and tile, for example "
        "kernel = \"matmul-tiled\", width = 4, tile = 2.";
    EXPECT_EQ(errorOf(""), expect);
    EXPECT_EQ(errorOf("# a comment\n\n   \n"), expect);
}

// A TOML syntax error names the line and the column.
TEST(ScenarioFileText, SyntaxErrorNamesLineAndColumn)
{
    const std::string e = errorOf("kernel = \"matmul-tiled\"\nwidth = 4\ntile = \n");
    EXPECT_EQ(e.rfind(", line 3, column 8: ", 0), 0u) << e;
    const std::string e2 = errorOf("kernel = \"matmul-tiled\"\nwidth == 4\n");
    EXPECT_EQ(e2.rfind(", line 2, column 8: ", 0), 0u) << e2;   // the second '='
    const std::string e3 = errorOf("kernel = \"matmul-tiled\nwidth = 4\n");
    EXPECT_EQ(e3.rfind(", line 1, column 23: ", 0), 0u) << e3;   // the string runs into the line's end
}

/// A scratch folder for one test, removed afterwards.
class ScenarioPaths : public ::testing::Test {
protected:
    fs::path dir;
    void SetUp() override
    {
        dir = fs::temp_directory_path() / ("tilescope-errors-" + std::to_string(::getpid()) + "-" +
                                           ::testing::UnitTest::GetInstance()->current_test_info()->name());
        fs::create_directories(dir);
    }
    void TearDown() override
    {
        std::error_code ec;
        fs::permissions(dir / "locked.toml", fs::perms::owner_all, ec);
        fs::remove_all(dir, ec);
    }
    /// What findPreset(`arg`) throws ("" if it loads).
    static std::string errorOfPath(const std::string& arg)
    {
        try {
            sim::findPreset(arg);
        } catch (const sim::ScenarioFileError& e) {
            return e.what();
        }
        return "";
    }
};

// A folder given as a scenario is said to be a folder, whether named with a '/' or not
// (it used to be read as an empty file: "no kernel given").
TEST_F(ScenarioPaths, DirectoryIsSaidToBeADirectory)
{
    const std::string expect = dir.string() +
                               ": is a folder, not a scenario file; give the path of a .toml file (the presets are "
                               "in " + sim::presetDirectory() + ").";
    EXPECT_EQ(errorOfPath(dir.string()), expect);
    const std::string bare = dir.filename().string();
    const fs::path before = fs::current_path();
    fs::current_path(dir.parent_path());
    const std::string e = errorOfPath(bare);
    fs::current_path(before);
    EXPECT_EQ(e, bare + ": is a folder, not a scenario file; give the path of a .toml file (the presets are in " +
                     sim::presetDirectory() + ").");
}

TEST_F(ScenarioPaths, MissingFileIsSaidToBeMissing)
{
    const std::string path = (dir / "absent.toml").string();
    EXPECT_EQ(errorOfPath(path), path + ": cannot be opened (No such file or directory).");
}

// A file without read permission (not testable as root, who reads it anyway).
TEST_F(ScenarioPaths, UnreadableFileSaysWhy)
{
    const fs::path locked = dir / "locked.toml";
    std::ofstream(locked) << "kernel = \"matmul-tiled\"\nwidth = 4\ntile = 2\n";
    fs::permissions(locked, fs::perms::none);
    if (::access(locked.c_str(), R_OK) == 0) GTEST_SKIP() << "running as root: a file without permissions is still readable";
    EXPECT_EQ(errorOfPath(locked.string()), locked.string() + ": cannot be opened (Permission denied).");
}

// A file that opens but whose reading fails (Linux: /proc/self/mem at address 0) is said to be
// unreadable, not read as an empty file ("no kernel given").
TEST_F(ScenarioPaths, ReadErrorIsSaid)
{
    if (!fs::exists("/proc/self/mem")) GTEST_SKIP() << "no /proc/self/mem";
    EXPECT_EQ(errorOfPath("/proc/self/mem"), "/proc/self/mem: cannot be read (Input/output error).");
}

}  // namespace
}  // namespace ts::test
