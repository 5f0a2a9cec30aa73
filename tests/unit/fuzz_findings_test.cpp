// Inputs the scenario-file fuzzer (fuzz/scenario_file_fuzz.cpp) found to break the parser's
// promise of one sentence on one line, kept as regression tests.
#include <gtest/gtest.h>

#include <string>

#include "sim/files/scenario_file.hpp"
#include "sim/files/toml_text.hpp"

using ts::sim::parseScenarioText;
using ts::sim::ScenarioFileError;

namespace {

/// The message parseScenarioText throws for `text`, or "" if it parses.
std::string errorOf(const std::string& text)
{
    try {
        parseScenarioText(text, "fuzz/input.toml");
    } catch (const ScenarioFileError& e) {
        return e.what();
    }
    return "";
}

}  // namespace

// toml++ quotes what it saw, newline included: "expected 'true', saw 't<newline>'". The
// message now shows the newline as \n and stays on one line.
TEST(FuzzFindings, SyntaxErrorQuotingANewlineStaysOnOneLine)
{
    const std::string e = errorOf("kernel = \"matmul-tiled\"\nwidth = 4\ntile = 2\nseed = t\n");
    ASSERT_FALSE(e.empty());
    EXPECT_EQ(e.find('\n'), std::string::npos) << e;
    EXPECT_NE(e.find("saw 't\\n'"), std::string::npos) << e;
    EXPECT_EQ(e.rfind("fuzz/input.toml, line 4", 0), 0u) << e;
}

// A quoted value with an escaped newline, echoed in the message ("got \"a<newline>b\"").
TEST(FuzzFindings, ValueWithANewlineIsQuotedOnOneLine)
{
    const std::string e = errorOf("kernel = \"matmul-tiled\"\nwidth = 4\ntile = 2\nschedule = \"in\\norder\"\n");
    ASSERT_FALSE(e.empty());
    EXPECT_EQ(e.find('\n'), std::string::npos) << e;
    EXPECT_NE(e.find("in\\norder"), std::string::npos) << e;
}

TEST(FuzzFindings, OneLineEscapesControlCharactersOnly)
{
    EXPECT_EQ(ts::sim::oneLine("a\nb\tc\rd\x01" "e\x7f" "f"), "a\\nb\\tc\\rd\\x01e\\x7ff");
    EXPECT_EQ(ts::sim::oneLine("Kachel \xc3\xa4"), "Kachel \xc3\xa4");   // UTF-8 is kept
}

// toml++ 3.3 reaches __builtin_unreachable (undefined behaviour; UBSan stops there) when it
// checks a character such as U+0489 or Cyrillic Zhe for whitespace. The inputs the fuzzer
// found, and plainer ones: refused with one sentence before toml++ sees them.
TEST(FuzzFindings, UnclassifiableCharacterOutsideQuotesIsRefused)
{
    const std::string found = "kem_per_block \xce\x9b\xd2\x89iled\"smem_per_block 1]\n";
    std::string e = errorOf(found);
    EXPECT_EQ(e, "fuzz/input.toml, line 1, column 15: a non-ASCII character (U+039B) outside quotes; TOML allows "
                 "them only in \"strings\" and # comments.");
    e = errorOf("kernel = \"matmul-tiled\"\nwidth = 4\ntile = \xd0\x96\n");
    EXPECT_EQ(e.rfind("fuzz/input.toml, line 3, column 8: a non-ASCII character (U+0416) outside quotes", 0), 0u) << e;
}

// The second finding: after a number, toml++ reads on to the next separator, quotes and all,
// so text the scan takes for a string ("avd...") is junk to toml++, which classified the
// U+0410 inside it. The character now reaches toml++ as the escape \u0410 in any case.
TEST(FuzzFindings, UnclassifiableCharacterInJunkAfterANumberNeverReachesToml)
{
    const std::string found = "kseed= 7777\"gonv2d-ba\"\"sghared-memory\"conv2d-basic\"sic\"7777block_\"avd\xd0\x90"
                              "n2nv2d-\"textbook\"d-ba\"\"sghared-memory\"conba]\n";
    const std::string e = errorOf(found);
    EXPECT_EQ(e.rfind("fuzz/input.toml, line 1, column ", 0), 0u) << e;
    EXPECT_EQ(e.find('\n'), std::string::npos) << e;
    EXPECT_EQ(ts::sim::tomlSafeText(found).text.find("\xd0\x90"), std::string::npos);
}

TEST(FuzzFindings, UnclassifiableCharacterInALiteralStringOrAfterABackslashIsRefused)
{
    EXPECT_EQ(errorOf("title = 'x \xd0\x96'\n"),
              "fuzz/input.toml, line 1, column 12: the character U+0416 in a 'literal string', where the TOML reader "
              "(toml++ 3.3) cannot take it; put the text in \"double quotes\" instead.");
    EXPECT_EQ(errorOf("title = \"x\\\xd0\x96\"\n"),
              "fuzz/input.toml, line 1, column 12: a backslash before the character U+0416, which is no TOML escape.");
    // A character toml++ can classify (CJK) is left to toml++ in either place.
    EXPECT_EQ(errorOf("title = 'x \xe4\xb8\xad'\nkernel = \"matmul-tiled\"\nwidth = 4\ntile = 2\n"), "");
}

// In "strings" and comments such text parses and keeps its meaning (titles, narration);
// toml++'s columns after an escape on the same line are those of the file.
TEST(FuzzFindings, UnclassifiableCharactersInStringsAndCommentsParse)
{
    const std::string text = "# Kommentar ä Ж × µ\n"
                             "title = \"Αβ \\\" Ж × 16\" # Ω\n"
                             "kernel = 'matmul-tiled'\n"
                             "width = 4\n"
                             "tile = 2\n"
                             "narration = [\"\"\"Σ\\\n   Ж\nЖ\"\"\"\"\", '''x''', \"x\"]\n";
    EXPECT_EQ(errorOf(text), "");
    EXPECT_EQ(parseScenarioText(text, "x.toml").title, "Αβ \" Ж × 16");
    EXPECT_EQ(parseScenarioText(text, "x.toml").narration.at(0), "ΣЖ\nЖ\"\"");
    EXPECT_EQ(errorOf("title = \"ЖЖЖ\" = 1\n"), "fuzz/input.toml, line 1, column 15: Error while parsing key-value pair: expected a comment or whitespace, "
                                                "saw '='.");
}

// tomlppCannotClassify against the blocks written out by hand: toml++ 3.3 divides
// U+00A0..U+FEFF into 64 blocks of 0x3FA code points and leaves blocks 0, 11 and 63 out.
TEST(FuzzFindings, UnclassifiableCharactersAreExactlyThreeBlocks)
{
    int count = 0;
    for (char32_t c = 0; c < 0x11000; ++c) {
        const bool expected = (c >= 0xA1 && c <= 0x499) || (c >= 0x2C5E && c <= 0x3057 && c != 0x3000) ||
                              (c >= 0xFB26 && c <= 0xFEFE);
        EXPECT_EQ(ts::sim::tomlppCannotClassify(c), expected) << std::hex << unsigned(c);
        count += expected;
    }
    EXPECT_EQ(count, (0x499 - 0xA1 + 1) + (0x3057 - 0x2C5E) + (0xFEFE - 0xFB26 + 1));
}

namespace {

/// The UTF-8 bytes of code point c.
std::string utf8(char32_t c)
{
    std::string s;
    if (c < 0x80) {
        s += char(c);
    } else if (c < 0x800) {
        s += char(0xC0 | c >> 6);
        s += char(0x80 | (c & 0x3F));
    } else {
        s += char(0xE0 | c >> 12);
        s += char(0x80 | (c >> 6 & 0x3F));
        s += char(0x80 | (c & 0x3F));
    }
    return s;
}

}  // namespace

// Every character of the Basic Multilingual Plane in a title, a comment and outside quotes:
// in the title it comes back as it was; outside quotes the file is refused with one line.
// Under scripts/sanitize.sh (UBSan) this is also the proof that toml++ never reaches its
// unreachable point, whichever character it meets.
TEST(FuzzFindings, EveryCharacterOfThePlaneIsReadOrRefused)
{
    const std::string rest = "kernel = \"matmul-tiled\"\nwidth = 4\ntile = 2\n";
    for (char32_t c = 0xA0; c < 0x10000; ++c) {
        if (c >= 0xD800 && c <= 0xDFFF) continue;
        const std::string ch = utf8(c);
        const std::string titled = "title = \"<" + ch + ">\" # " + ch + "\n" + rest;
        ASSERT_EQ(errorOf(titled), "") << std::hex << unsigned(c);
        ASSERT_EQ(parseScenarioText(titled, "x.toml").title, "<" + ch + ">") << std::hex << unsigned(c);
        const std::string e = errorOf("seed = 2 " + ch + "\n" + rest);
        ASSERT_FALSE(e.empty()) << std::hex << unsigned(c);
        ASSERT_EQ(e.find('\n'), std::string::npos) << e;
    }
}
