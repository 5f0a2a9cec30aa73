// Scenario files that name their sizes in a [sizes] table (issue 39): the same scenario as
// the top-level keys give, every shipped preset still read as before, and each mistake (a
// size both in the table and at the top level, a name the kernel does not have, a value of
// the wrong type, a value validate() refuses) said in one sentence at its line.
#include <gtest/gtest.h>

#include <string>

#include "sim/files/scenario_file.hpp"

namespace ts::test {
namespace {

sim::Scenario read(const std::string& text) { return sim::parseScenarioText(text, "f.toml").scenario; }

std::string errorOf(const std::string& text)
{
    try {
        sim::parseScenarioText(text, "f.toml");
    } catch (const sim::ScenarioFileError& e) {
        const std::string m = e.what();
        EXPECT_EQ(m.find('\n'), std::string::npos) << "one line: " << m;
        EXPECT_EQ(m.back(), '.') << "one sentence: " << m;
        return m;
    }
    return "";
}

TEST(ScenarioSizes, TableGivesTheSameScenarioAsTopLevelKeys)
{
    const sim::Scenario flat = read("kernel = \"matmul-tiled\"\nj = 100\nk = 37\nl = 51\ntile = 16\nblock = [3, 6]\n");
    const sim::Scenario named =
        read("kernel = \"matmul-tiled\"\ntile = 16\nblock = [3, 6]\n[sizes]\nj = 100\nk = 37\nl = 51\n");
    EXPECT_EQ(named.j, 100);
    EXPECT_EQ(named.k, 37);
    EXPECT_EQ(named.l, 51);
    EXPECT_EQ(flat.j, named.j);
    EXPECT_EQ(flat.k, named.k);
    EXPECT_EQ(flat.l, named.l);
    EXPECT_EQ(flat.block.x, named.block.x);

    const sim::Scenario conv =
        read("kernel = \"conv2d-tiled\"\ntile = 8\n[sizes]\nheight = 29\nwidth = 37\nmask_width = 3\n");
    EXPECT_EQ(conv.height, 29);
    EXPECT_EQ(conv.width, 37);
    EXPECT_EQ(conv.maskWidth, 3);
    // A square product's one size.
    const sim::Scenario square = read("kernel = \"matmul-naive\"\ntile = 4\n[sizes]\nwidth = 12\n");
    EXPECT_EQ(square.j, 12);
    EXPECT_EQ(square.l, 12);
}

TEST(ScenarioSizes, EachMistakeIsOneSentenceAtItsLine)
{
    EXPECT_EQ(errorOf("kernel = \"matmul-tiled\"\nj = 4\ntile = 2\n[sizes]\nk = 4\nl = 4\n"),
              "f.toml, line 2: j is a size: give it in the [sizes] table with the others, not at the top level.");
    EXPECT_NE(errorOf("kernel = \"matmul-tiled\"\ntile = 2\n[sizes]\nj = 4\nk = 4\nl = 4\nrows = 3\n")
                  .find("f.toml, line 7: unknown key 'rows' in [sizes]; the known keys are width, j, k, l"),
              std::string::npos);
    EXPECT_EQ(errorOf("kernel = \"matmul-tiled\"\ntile = 2\n[sizes]\nj = \"four\"\nk = 4\nl = 4\n"),
              "f.toml, line 4: j must be an integer; got the string \"four\".");
    EXPECT_EQ(errorOf("kernel = \"matmul-tiled\"\ntile = 2\nsizes = 4\n"),
              "f.toml, line 3: sizes must be a table, [sizes] with one size a line (j = 100); got the integer 4.");
    EXPECT_EQ(errorOf("kernel = \"matmul-tiled\"\ntile = 2\n[sizes]\nj = 4\nk = 4\n"),
              "f.toml: no problem size given; add width = W, or all three of j, k and l.");
    // validate()'s sentence at the size's own line in the table.
    EXPECT_NE(errorOf("kernel = \"conv2d-tiled\"\ntile = 8\n[sizes]\nheight = 8\nwidth = 8\nmask_width = 4\n")
                  .find("f.toml, line 6: Mask_Width must be odd"),
              std::string::npos);
}

}  // namespace
}  // namespace ts::test
