// Wrapping at spaces only (word_wrap.hpp): Stats' figures such as "4.000" and "1.00x" are never
// cut after their full stop, as ImGui's TextWrapped cut them ("4.|000"). Widths here count
// characters, 1 a character, so each case is worked out by hand.
#include <gtest/gtest.h>

#include "word_wrap.hpp"

using namespace ts::app;

namespace {

float chars(std::string_view s) { return static_cast<float>(s.size()); }
using Lines = std::vector<std::string>;

}  // namespace

TEST(WordWrap, BreaksOnlyAtSpacesAndNeverInsideANumber)
{
    // 36 characters at 20: "     = 524288 / (4 x" is 20 and fits exactly; " 524288)" would
    // make 28, so it starts the next line, and "4.000" stays whole after it.
    EXPECT_EQ(wrapAtSpaces("     = 524288 / (4 x 524288) = 4.000", 20, chars),
              (Lines{"     = 524288 / (4 x", "524288) = 4.000"}));
    // At 33 ImGui would have cut "4." from "000" (it breaks after a full stop); here the
    // number goes whole to the next line.
    EXPECT_EQ(wrapAtSpaces("     = 524288 / (4 x 524288) = 4.000", 33, chars),
              (Lines{"     = 524288 / (4 x 524288) =", "4.000"}));
    EXPECT_EQ(wrapAtSpaces("naive kernel: 524288 global loads, 1.00x as many", 37, chars),
              (Lines{"naive kernel: 524288 global loads,", "1.00x as many"}));
}

TEST(WordWrap, AWordWiderThanTheLineStaysWholeOnItsOwn)
{
    EXPECT_EQ(wrapAtSpaces("1,064,960 bytes", 4, chars), (Lines{"1,064,960", "bytes"}));
    EXPECT_EQ(wrapAtSpaces("a 1,064,960", 4, chars), (Lines{"a", "1,064,960"}));
}

TEST(WordWrap, SpacesInsideALineStayThoseAtABreakGo)
{
    EXPECT_EQ(wrapAtSpaces("ab  cd", 6, chars), (Lines{"ab  cd"}));
    EXPECT_EQ(wrapAtSpaces("ab  cd", 5, chars), (Lines{"ab", "cd"}));
    EXPECT_EQ(wrapAtSpaces("ab cd  ", 10, chars), (Lines{"ab cd"}));
    EXPECT_EQ(wrapAtSpaces("", 10, chars), (Lines{""}));
}
