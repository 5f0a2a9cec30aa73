// The state colours stay apart for colour-blind students: every pair of colours that is
// drawn the same way (two fills, or two solid frames) keeps a clear CIELAB distance when
// simulated for deuteranopia and protanopia (Machado, Oliveira and Fernandes 2009, severity
// 1). Orange "loaded this phase" and yellow "this step" come too close under deuteranopia
// for two frames of the same style, which is why the first is drawn dashed and the second
// solid; the test checks that the colour alone would not have told them apart.
#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <string>
#include <utility>
#include <vector>

#include "theme.hpp"

using namespace ts::app;

namespace {

using Rgb = std::array<double, 3>;
using Matrix = std::array<Rgb, 3>;

constexpr Matrix kDeuteranopia{{{0.367322, 0.860646, -0.227968},
                                {0.280085, 0.672501, 0.047413},
                                {-0.011820, 0.042940, 0.968881}}};
constexpr Matrix kProtanopia{{{0.152286, 1.052583, -0.204868},
                              {0.114503, 0.786281, 0.099216},
                              {-0.003882, -0.048116, 1.051998}}};
constexpr Matrix kNormal{{{1, 0, 0}, {0, 1, 0}, {0, 0, 1}}};

/// sRGB channel (0-255) to linear light.
double linear(unsigned c)
{
    const double v = c / 255.0;
    return v <= 0.04045 ? v / 12.92 : std::pow((v + 0.055) / 1.055, 2.4);
}

/// CIELAB (D65) of an ImU32 colour seen through `m` (applied in linear RGB).
Rgb lab(ImU32 c, const Matrix& m)
{
    const Rgb in{linear(c & 0xFF), linear((c >> 8) & 0xFF), linear((c >> 16) & 0xFF)};
    Rgb rgb{};
    for (int i = 0; i < 3; ++i)
        rgb[i] = std::clamp(m[i][0] * in[0] + m[i][1] * in[1] + m[i][2] * in[2], 0.0, 1.0);
    const double X = 0.4124 * rgb[0] + 0.3576 * rgb[1] + 0.1805 * rgb[2];
    const double Y = 0.2126 * rgb[0] + 0.7152 * rgb[1] + 0.0722 * rgb[2];
    const double Z = 0.0193 * rgb[0] + 0.1192 * rgb[1] + 0.9505 * rgb[2];
    auto f = [](double t) { return t > 0.008856 ? std::cbrt(t) : 7.787 * t + 16.0 / 116.0; };
    const double fx = f(X / 0.9505), fy = f(Y), fz = f(Z / 1.089);
    return {116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz)};
}

/// CIE76 colour difference of `a` and `b` as seen through `m`.
double deltaE(ImU32 a, ImU32 b, const Matrix& m)
{
    const Rgb x = lab(a, m), y = lab(b, m);
    return std::hypot(x[0] - y[0], x[1] - y[1], x[2] - y[2]);
}

using Named = std::pair<const char*, ImU32>;

/// Every pair of `colours` at least `least` apart for each kind of vision.
void expectApart(const std::vector<Named>& colours, double least, const char* theme)
{
    for (size_t i = 0; i < colours.size(); ++i)
        for (size_t j = i + 1; j < colours.size(); ++j)
            for (auto [vision, m] : {std::pair{"normal", kNormal}, std::pair{"deuteranopia", kDeuteranopia},
                                     std::pair{"protanopia", kProtanopia}}) {
                const double d = deltaE(colours[i].second, colours[j].second, m);
                EXPECT_GE(d, least) << theme << ": " << colours[i].first << " vs " << colours[j].first << " under "
                                    << vision;
            }
}

void checkPalette(const Palette& p, const char* theme)
{
    // Fills: what a cell or slot holds.
    expectApart({{"cell", p.cell}, {"in Mds/Nds", p.inShared}, {"loaded earlier", p.loadedEarlier},
                 {"zero fill", p.zeroFill}, {"P finished", p.finished}},
                12.0, theme);
    // Solid frames around cells: thin lines need more difference than fills.
    expectApart({{"this step", p.readNow}, {"block / selected", p.selected}, {"wrong P", p.error},
                 {"hazard", p.hazard}},
                30.0, theme);
    // Practice mode's marks (solid frames but the dashed "missed"; each also has its glyph):
    // the chosen cell, then right, wrong and missed after the reveal.
    expectApart({{"practice chosen", p.selected}, {"practice right", p.practiceRight},
                 {"practice wrong", p.practiceWrong}, {"practice missed", p.practiceMissed}},
                30.0, theme);
}

}  // namespace

TEST(Palette, DarkThemeColoursStayApartForColourBlindEyes)
{
    checkPalette(Palette{}, "dark");
}

TEST(Palette, LightThemeColoursStayApartForColourBlindEyes)
{
    checkPalette(lightPalette(), "light");
}

TEST(Palette, OrangeAndYellowFramesNeedDifferentStyles)
{
    // If this fails, the two colours have become distinct enough to share a frame style.
    const Palette p;
    EXPECT_LT(deltaE(p.loadedThisPhase, p.readNow, kDeuteranopia), 30.0);
    EXPECT_GE(deltaE(p.loadedThisPhase, p.readNow, kNormal), 30.0);
}

// The heat ramp (heatColour) orders values by lightness for every kind of vision: CIELAB
// lightness rises from each of 65 samples to the next, by at least 0.25 (55 or more in all),
// under deuteranopia and protanopia as well, and neighbouring sixteenths of the ramp stay a
// visible step apart.
TEST(Palette, HeatRampLightnessRisesForEveryVision)
{
    for (auto [vision, m] : {std::pair{"normal", kNormal}, std::pair{"deuteranopia", kDeuteranopia},
                             std::pair{"protanopia", kProtanopia}}) {
        double before = -1;
        for (int i = 0; i <= 64; ++i) {
            const double L = lab(heatColour(i / 64.0f), m)[0];
            if (i > 0) EXPECT_GE(L - before, 0.25) << vision << ": sample " << i << " of 64";
            before = L;
        }
        const double span = lab(heatColour(1.0f), m)[0] - lab(heatColour(0.0f), m)[0];
        EXPECT_GE(span, 55.0) << vision;
        for (int i = 0; i < 16; ++i)
            EXPECT_GE(deltaE(heatColour(i / 16.0f), heatColour((i + 1) / 16.0f), m), 3.0)
                << vision << ": sixteenths " << i << " and " << i + 1;
    }
}

TEST(Palette, HeatRampEndsAndOutOfRangeValues)
{
    EXPECT_EQ(heatColour(0.0f), IM_COL32(38, 31, 82, 255));
    EXPECT_EQ(heatColour(1.0f), IM_COL32(239, 241, 89, 255));
    EXPECT_EQ(heatColour(-3.0f), heatColour(0.0f));
    EXPECT_EQ(heatColour(7.0f), heatColour(1.0f));
    EXPECT_EQ(heatColour(std::nanf("")), heatColour(0.0f));
    // Halfway between the first two stops, (38, 31, 82) and (37, 44, 98), is halfway
    // between their colours (37.5 rounds either way).
    const ImU32 mid = heatColour(0.5f / 16.0f);
    EXPECT_NEAR(static_cast<double>(mid & 0xFF), 37.5, 0.5);
    EXPECT_NEAR(static_cast<double>((mid >> 8) & 0xFF), 37.5, 0.5);
    EXPECT_NEAR(static_cast<double>((mid >> 16) & 0xFF), 90.0, 0.5);
}
