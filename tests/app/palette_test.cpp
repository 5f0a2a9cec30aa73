// The palette's guarantees, for both themes.
//
// 1. Contrast (WCAG 2.1 AA). Every text/background pair the app draws gets at least 4.5:1
//    (success criterion 1.4.3), every fill, frame and chart mark at least 3:1 against what
//    it is drawn on (1.4.11). Contrast is WCAG's: relative luminance from linearised sRGB,
//    (L1 + 0.05) / (L2 + 0.05) (https://www.w3.org/TR/WCAG21/#dfn-contrast-ratio), through
//    theme.hpp's contrastRatio, which the first test checks against values worked out by
//    hand. Semi-transparent highlights are composited over what they lie on (over()) before
//    they are measured. The pairs are listed from the code (grep for AddText, TextColored,
//    colouredText and PushStyleColor(ImGuiCol_Text) in app/gui): each names the panel.
// 2. Colour vision. The colours that must differ (states drawn with the same mark in one
//    figure) keep a CIELAB (CIE76) distance when simulated for protanopia, deuteranopia and
//    tritanopia with the matrices of Machado, Oliveira and Fernandes, "A Physiologically-
//    based Model for Simulation of Color Vision Deficiency", IEEE TVCG 15(6), 2009, at
//    severity 1.0, applied to linear RGB. Where colour alone would not do, the mark differs
//    (meanings.hpp's Mark): the pairs that rely on shape are checked to need it.
#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <string>
#include <utility>
#include <vector>

#include "meanings.hpp"
#include "theme.hpp"

using namespace ts::app;

namespace {

using Rgb = std::array<double, 3>;
using Matrix = std::array<Rgb, 3>;

// Machado et al. 2009, table of simulation matrices, severity 1.0.
constexpr Matrix kProtanopia{{{0.152286, 1.052583, -0.204868},
                              {0.114503, 0.786281, 0.099216},
                              {-0.003882, -0.048116, 1.051998}}};
constexpr Matrix kDeuteranopia{{{0.367322, 0.860646, -0.227968},
                                {0.280085, 0.672501, 0.047413},
                                {-0.011820, 0.042940, 0.968881}}};
constexpr Matrix kTritanopia{{{1.255528, -0.076749, -0.178779},
                              {-0.078411, 0.930809, 0.147602},
                              {0.004733, 0.691367, 0.303900}}};
constexpr Matrix kNormal{{{1, 0, 0}, {0, 1, 0}, {0, 0, 1}}};

const std::array<std::pair<const char*, Matrix>, 4> kVisions{{{"normal", kNormal},
                                                              {"protanopia", kProtanopia},
                                                              {"deuteranopia", kDeuteranopia},
                                                              {"tritanopia", kTritanopia}}};

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

/// The smallest difference of `a` and `b` over the four kinds of vision.
double leastDeltaE(ImU32 a, ImU32 b)
{
    double least = 1e9;
    for (const auto& [name, m] : kVisions) least = std::min(least, deltaE(a, b, m));
    return least;
}

ImU32 u32(const ImVec4& c) { return ImGui::ColorConvertFloat4ToU32(c); }

using Named = std::pair<std::string, ImU32>;

/// Both themes: the name, the palette and the ImGui style colours.
struct ThemeUnderTest {
    const char* name;
    Palette pal;
    ImGuiStyle style;
    ImU32 col(ImGuiCol c) const { return u32(style.Colors[c]); }
    ImU32 window() const { return col(ImGuiCol_WindowBg); }
    ImU32 child() const { return over(col(ImGuiCol_ChildBg), window()); }
};

std::vector<ThemeUnderTest> themes()
{
    return {{"dark", Palette{}, themeStyle(ThemeKind::Dark, 1.0f)},
            {"light", lightPalette(), themeStyle(ThemeKind::Light, 1.0f)}};
}

/// The backgrounds text is drawn on, composited: panels, their children, tooltips, the
/// caption bar, charts, the menu bar, and the Code panel's highlighted lines (current line,
/// the selected thread's other lines, a hazard's lines: one fill a line, never stacked).
std::vector<Named> textBackgrounds(const ThemeUnderTest& t)
{
    const Palette& p = t.pal;
    const ImU32 w = t.window(), ch = t.child();
    std::vector<Named> out{{"window", w},
                           {"child", ch},
                           {"tooltip", over(t.col(ImGuiCol_PopupBg), w)},
                           {"caption bar", p.captionBg},
                           {"chart", p.chartBg},
                           {"menu bar", over(t.col(ImGuiCol_MenuBarBg), w)},
                           {"code: current line", over(p.codeLine, ch)},
                           {"code: thread's line", over(p.codeLineAlt, ch)},
                           {"code: hazard line", over(p.hazardLine, ch)}};
    return out;
}

/// Expects `text` at 4.5:1 or more on each of `backgrounds`.
void expectText(const char* theme, const Named& text, const std::vector<Named>& backgrounds)
{
    for (const auto& [name, bg] : backgrounds)
        EXPECT_GE(contrastRatio(text.second, bg), 4.5) << theme << ": text " << text.first << " on " << name;
}

}  // namespace

// contrastRatio follows WCAG 2.1: values worked out by hand from the definition.
TEST(Palette, ContrastIsWcagsRatio)
{
    // White 1.0, black 0.0: (1.05) / (0.05) = 21.
    EXPECT_NEAR(contrastRatio(IM_COL32(255, 255, 255, 255), IM_COL32(0, 0, 0, 255)), 21.0, 1e-9);
    // Grey 119: (119/255 + 0.055) / 1.055 = 0.4945..., ^2.4 = 0.18447; (1.05) / (0.23447) = 4.478
    // (the grey that famously just misses 4.5:1 on white).
    EXPECT_NEAR(contrastRatio(IM_COL32(119, 119, 119, 255), IM_COL32(255, 255, 255, 255)), 4.478, 0.002);
    // Pure green: 0.7152 luminance; against black (0.7652) / (0.05) = 15.30.
    EXPECT_NEAR(contrastRatio(IM_COL32(0, 255, 0, 255), IM_COL32(0, 0, 0, 255)), 15.304, 1e-3);
    // Order does not matter, and a colour against itself is 1.
    EXPECT_DOUBLE_EQ(contrastRatio(IM_COL32(10, 20, 30, 255), IM_COL32(200, 100, 0, 255)),
                     contrastRatio(IM_COL32(200, 100, 0, 255), IM_COL32(10, 20, 30, 255)));
    EXPECT_DOUBLE_EQ(contrastRatio(IM_COL32(86, 180, 233, 255), IM_COL32(86, 180, 233, 255)), 1.0);
    // The findings of issue 25, measured the same way: sky blue on white is 2.3:1, orange 2.25:1.
    EXPECT_NEAR(contrastRatio(IM_COL32(86, 180, 233, 255), IM_COL32(255, 255, 255, 255)), 2.31, 0.01);
    EXPECT_NEAR(contrastRatio(IM_COL32(230, 159, 0, 255), IM_COL32(255, 255, 255, 255)), 2.25, 0.01);
}

// over() blends as the renderer does: alpha 128 of white over black is grey 128.
TEST(Palette, OverCompositesAHighlight)
{
    EXPECT_EQ(over(IM_COL32(255, 255, 255, 128), IM_COL32(0, 0, 0, 255)), IM_COL32(128, 128, 128, 255));
    EXPECT_EQ(over(IM_COL32(240, 228, 66, 255), IM_COL32(0, 0, 0, 255)), IM_COL32(240, 228, 66, 255));
    EXPECT_EQ(over(IM_COL32(240, 228, 66, 0), IM_COL32(9, 8, 7, 255)), IM_COL32(9, 8, 7, 255));
    // 70 of 255 of yellow (240, 228, 66) over (22, 24, 28): 22 + 218 * 70/255 = 81.8 -> 82, ...
    EXPECT_EQ(over(IM_COL32(240, 228, 66, 70), IM_COL32(22, 24, 28, 255)), IM_COL32(82, 80, 38, 255));
}

// textOn picks black or white, whichever reads better: at least 4.58:1 on any background
// (the worst case is the luminance where both give the same ratio).
TEST(Palette, TextOnAnyFillReads)
{
    double worst = 100;
    for (int r = 0; r < 256; r += 15)
        for (int g = 0; g < 256; g += 15)
            for (int b = 0; b < 256; b += 15) {
                const ImU32 bg = IM_COL32(r, g, b, 255);
                worst = std::min(worst, contrastRatio(textOn(bg), bg));
            }
    EXPECT_GE(worst, 4.58);
    EXPECT_EQ(textOn(IM_COL32(255, 255, 255, 255)), IM_COL32(0, 0, 0, 255));
    EXPECT_EQ(textOn(IM_COL32(0, 0, 0, 255)), IM_COL32(255, 255, 255, 255));
}

// Every text the app draws in a palette or style colour, on every background it is drawn
// on, in both themes: 4.5:1.
TEST(Palette, EveryTextReadsOnItsBackground)
{
    for (const ThemeUnderTest& t : themes()) {
        const Palette& p = t.pal;
        const std::vector<Named> all = textBackgrounds(t);
        const ImU32 w = t.window(), ch = t.child();
        const Named window{"window", w}, child{"child", ch}, tooltip = all[2], caption = all[3], chart = all[4];
        const std::vector<Named> code(all.begin() + 6, all.end());
        auto plus = [](std::vector<Named> a, const std::vector<Named>& b) {
            a.insert(a.end(), b.begin(), b.end());
            return a;
        };
        // ImGui's Text: everywhere, on widgets too (composited over the window).
        std::vector<Named> widgets;
        for (auto [name, c] : {std::pair{"button", ImGuiCol_Button}, std::pair{"button hovered", ImGuiCol_ButtonHovered},
                               std::pair{"button pressed", ImGuiCol_ButtonActive}, std::pair{"header", ImGuiCol_Header},
                               std::pair{"header hovered", ImGuiCol_HeaderHovered},
                               std::pair{"header pressed", ImGuiCol_HeaderActive}, std::pair{"frame", ImGuiCol_FrameBg},
                               std::pair{"frame hovered", ImGuiCol_FrameBgHovered},
                               std::pair{"frame pressed", ImGuiCol_FrameBgActive}, std::pair{"tab", ImGuiCol_Tab},
                               std::pair{"tab hovered", ImGuiCol_TabHovered}, std::pair{"tab active", ImGuiCol_TabActive},
                               std::pair{"tab unfocused", ImGuiCol_TabUnfocused},
                               std::pair{"tab unfocused active", ImGuiCol_TabUnfocusedActive},
                               std::pair{"table header", ImGuiCol_TableHeaderBg},
                               std::pair{"table row alt", ImGuiCol_TableRowBgAlt},
                               std::pair{"title", ImGuiCol_TitleBg}, std::pair{"title active", ImGuiCol_TitleBgActive},
                               std::pair{"title collapsed", ImGuiCol_TitleBgCollapsed},
                               std::pair{"selected text", ImGuiCol_TextSelectedBg}})
            widgets.emplace_back(name, over(t.col(c), w));
        expectText(t.name, {"ImGui Text", t.col(ImGuiCol_Text)}, plus(all, widgets));
        // ImGui's TextDisabled: hints in panels, tooltips and the caption bar ("(?)", "click: ...").
        expectText(t.name, {"ImGui TextDisabled", t.col(ImGuiCol_TextDisabled)}, {window, child, tooltip, caption});
        // dimText: notes in every panel, chart axes (Occupancy, Roofline), line numbers in Code,
        // the caption's block and hints, the Memory panel's bank numbers (on the window).
        expectText(t.name, {"dimText", p.dimText}, plus({window, child, tooltip, caption, chart}, code));
        // cellText: the grids' names (Matrices, Convolution), the Timeline's labels, the Code
        // panel's memory columns (on the highlighted lines too).
        expectText(t.name, {"cellText", p.cellText}, plus({window, child, chart}, code));
        // error: refusals (Scenario, menu, Stats, Hazards, GPU), a dropped barrier in Code,
        // the occupancy chart's limit labels, tooltips of wrong P.
        expectText(t.name, {"error", p.error}, plus({window, child, tooltip, caption, chart}, code));
        // okText: "P equals the CPU reference" (Hazards), "simulated" (reduction table),
        // the caption's notice, a stored P in Threads, practice's "Right." (its "Not quite."
        // is in error).
        expectText(t.name, {"okText", p.okText}, {window, child, caption});
        // hazardText: the hazard shown (Hazards), its tag in Code, the slot's tooltip.
        expectText(t.name, {"hazardText", p.hazardText}, plus({window, child, tooltip}, code));
        // warnText: the occupancy limiter ("6 blocks <- limits"), Code's notes and '*' marks.
        expectText(t.name, {"warnText", p.warnText}, plus({window, child, chart}, code));
        // wrongReadText: a wrong read in Threads and in the slot's tooltip.
        expectText(t.name, {"wrongReadText", p.wrongReadText}, {window, child, tooltip});
        // stepText: "Step N of M" in the caption, the kernel's point on the occupancy chart.
        expectText(t.name, {"stepText", p.stepText}, {caption, chart, window});
        // noOutput: a thread without a P element (Threads).
        expectText(t.name, {"noOutput", p.noOutput}, {window, child});
        // Threads' rows: striped (TableRowBgAlt), tinted where the row is a hazard's thread
        // (hazardLine, on a striped row too), and the selected or hovered row (Header*, drawn
        // over the others). Its texts: the thread without output, "-" (TextDisabled), the
        // stored P (okText), a wrong read, and ImGui's Text.
        {
            const ImU32 alt = over(t.col(ImGuiCol_TableRowBgAlt), ch);
            std::vector<Named> rows{{"row", ch},
                                    {"striped row", alt},
                                    {"hazard's row", over(p.hazardLine, ch)},
                                    {"hazard's striped row", over(p.hazardLine, alt)}};
            for (auto [name, c] : {std::pair{"selected row", ImGuiCol_Header}, std::pair{"hovered row", ImGuiCol_HeaderHovered},
                                   std::pair{"pressed row", ImGuiCol_HeaderActive}}) {
                rows.emplace_back(name, over(t.col(c), ch));
                rows.emplace_back(std::string(name) + " (striped, hazard)", over(t.col(c), over(p.hazardLine, alt)));
            }
            for (const Named& text : {Named{"noOutput", p.noOutput}, Named{"TextDisabled", t.col(ImGuiCol_TextDisabled)},
                                      Named{"okText", p.okText}, Named{"wrongReadText", p.wrongReadText},
                                      Named{"ImGui Text", t.col(ImGuiCol_Text)}})
                expectText(t.name, text, rows);
        }
        // A slider's value is drawn over its frame and its grab (light theme's sliders).
        for (auto c : {ImGuiCol_SliderGrab, ImGuiCol_SliderGrabActive})
            if (std::string(t.name) == "light")
                EXPECT_GE(contrastRatio(t.col(ImGuiCol_Text), over(t.col(c), w)), 4.5) << t.name << ": text on a slider grab";
        // Values in cells take textOn(fill): each fill, and the ghost cell's translucent fill
        // over the window (Matrices' phase tile).
        for (const MeaningStyle& m : meaningTable()) {
            if (m.mark != Mark::Fill) continue;
            const ImU32 fill = p.*m.colour;
            EXPECT_GE(contrastRatio(textOn(fill), fill), 4.5) << t.name << ": value on " << m.words;
        }
        const ImU32 ghost = over((p.zeroFill & 0x00FFFFFF) | 0x90000000u, w);
        EXPECT_GE(contrastRatio(textOn(ghost), ghost), 4.5) << t.name << ": 0 on a ghost cell";
        // Convolution's ghost cells: the zero-fill at alpha 0xA0 over the canvas (a child).
        const ImU32 convGhost = over((p.zeroFill & 0x00FFFFFF) | 0xA0000000u, ch);
        EXPECT_GE(contrastRatio(textOn(convGhost), convGhost), 4.5) << t.name << ": 0 on a ghost cell of N";
    }
}

// The known failures of issue 25 are gone: sky blue hazard text on white (2.3:1) and on the
// green code highlight (1.4:1), the orange limiter (2.25:1), unloaded cells at 1.1:1.
TEST(Palette, IssueFindingsAreFixed)
{
    const Palette light = lightPalette();
    const ImU32 white = IM_COL32(255, 255, 255, 255);
    EXPECT_GE(contrastRatio(light.hazardText, white), 4.5);
    EXPECT_GE(contrastRatio(light.hazardText, over(light.codeLine, white)), 4.5);
    EXPECT_GE(contrastRatio(light.warnText, white), 4.5);
    EXPECT_GE(contrastRatio(light.cell, white), 3.0);
}

// Fills (each state of a cell) stand out from the panel at 3:1, frames and dashes from every
// fill they are drawn on (with the palette's edge round them where their colour alone comes
// close: the better of colour and edge counts, as WCAG measures a mark by its boundary), and
// chart marks from the chart.
TEST(Palette, MarksStandOutFromWhatTheyAreDrawnOn)
{
    for (const ThemeUnderTest& t : themes()) {
        const Palette& p = t.pal;
        const ImU32 w = t.window(), ch = t.child();
        std::vector<Named> fills;
        for (const MeaningStyle& m : meaningTable())
            if (m.mark == Mark::Fill) fills.emplace_back(m.words, p.*m.colour);
        for (const auto& [name, fill] : fills) {
            EXPECT_GE(contrastRatio(fill, w), 3.0) << t.name << ": fill " << name << " on the window";
            EXPECT_GE(contrastRatio(fill, ch), 3.0) << t.name << ": fill " << name << " on a child window";
        }
        std::vector<Named> under = fills;
        under.emplace_back("window", w);
        for (const MeaningStyle& m : meaningTable()) {
            if (m.mark != Mark::Frame && m.mark != Mark::Dashed && m.mark != Mark::Corner && m.mark != Mark::Glyph) continue;
            // Every frame is drawn with the edge (markFrame, stepFrame, dashedRect's edge,
            // the practice marks' edge in pal.clear, the wrong read's inner frame).
            const ImU32 colour = p.*m.colour;
            const ImU32 edge = m.mark == Mark::Glyph ? p.clear : p.stepOutline;
            for (const auto& [name, fill] : under) {
                const double best = std::max(contrastRatio(colour, fill), contrastRatio(edge, fill));
                EXPECT_GE(best, 3.0) << t.name << ": " << m.words << " on " << name;
            }
        }
        // The Code panel's bars for the current and the hazard's line, against the child.
        EXPECT_GE(contrastRatio(p.codeBar, ch), 3.0) << t.name << ": current line's bar";
        EXPECT_GE(contrastRatio(p.hazardText, ch), 3.0) << t.name << ": hazard line's bar";
        // Chart marks: the occupancy curve (inShared), the limit (error), the kernel's point
        // (readNow with a black ring: the ring counts), the limiter's bar (warnText).
        EXPECT_GE(contrastRatio(p.inShared, p.chartBg), 3.0) << t.name << ": occupancy curve";
        EXPECT_GE(contrastRatio(p.error, p.chartBg), 3.0) << t.name << ": occupancy limit";
        EXPECT_GE(std::max(contrastRatio(p.readNow, p.chartBg), contrastRatio(IM_COL32(0, 0, 0, 255), p.chartBg)), 3.0)
            << t.name << ": kernel's point";
        EXPECT_GE(contrastRatio(p.warnText, p.chartBg), 3.0) << t.name << ": limiter's bar";
        // ImGui's marks: check marks and slider grabs on their frame.
        const ImU32 frame = over(t.col(ImGuiCol_FrameBg), w);
        EXPECT_GE(contrastRatio(t.col(ImGuiCol_CheckMark), frame), 3.0) << t.name << ": check mark";
        EXPECT_GE(contrastRatio(t.col(ImGuiCol_SliderGrab), frame), 3.0) << t.name << ": slider grab";
    }
}

namespace {

/// Every pair of `group` (meanings drawn with the same mark in one figure) at least `least`
/// apart (CIE76) for each of the four kinds of vision.
void expectApart(const char* theme, const Palette& p, std::initializer_list<Meaning> group, double least)
{
    const std::vector<Meaning> g(group);
    for (size_t i = 0; i < g.size(); ++i)
        for (size_t j = i + 1; j < g.size(); ++j)
            for (const auto& [vision, m] : kVisions) {
                const double d = deltaE(colourOf(g[i], p), colourOf(g[j], p), m);
                EXPECT_GE(d, least) << theme << ": " << styleOf(g[i]).words << " vs " << styleOf(g[j]).words
                                    << " under " << vision;
            }
}

}  // namespace

// Fills 12 apart (a cell's whole area), solid frames 30 (thin lines need more), in each
// figure: Matrices (cell, in shared memory, loaded earlier, ghost cell, P finished),
// Convolution (cell, internal, halo, ghost cell, P finished), Shared memory (the same
// fills), and the frames and practice marks.
TEST(Palette, ColoursStayApartForEveryKindOfVision)
{
    for (const ThemeUnderTest& t : themes()) {
        expectApart(t.name, t.pal,
                    {Meaning::Cell, Meaning::InShared, Meaning::LoadedEarlier, Meaning::ZeroFill, Meaning::Finished}, 12.0);
        expectApart(t.name, t.pal, {Meaning::Cell, Meaning::Internal, Meaning::Halo, Meaning::ZeroFill, Meaning::Finished},
                    12.0);
        expectApart(t.name, t.pal, {Meaning::ThisStep, Meaning::WrongP, Meaning::Hazard}, 30.0);
        // Practice marks differ in glyph as well (dot, tick, cross, ring); "missed" is also
        // dashed, and relies on that under tritanopia (below).
        expectApart(t.name, t.pal, {Meaning::PracticeChosen, Meaning::PracticeRight, Meaning::PracticeWrong}, 30.0);
    }
}

// The pairs that rely on shape, because colour alone would not tell them apart for some
// eye: each is checked to be too close in colour (so that the shape is needed) and drawn
// with different marks.
TEST(Palette, PairsTooCloseInColourDifferInShape)
{
    struct Pair {
        Meaning a, b;
        const char* why;
    };
    // - orange "loaded this phase" (dashed) and yellow "this step" (solid frame): close under
    //   deuteranopia;
    // - "wrong read" (vermilion corner and inner frame) and "wrong P" (frame with a corner
    //   stroke): one hue family;
    // - yellow "this step" (frame) and the "selected thread" (white or black corner): close
    //   under tritanopia in the dark theme;
    // - practice "right" (solid frame, tick) and "missed" (dashed frame, ring): green and
    //   blue are close under tritanopia.
    const std::vector<Pair> pairs{{Meaning::LoadedThisPhase, Meaning::ThisStep, "orange and yellow"},
                                  {Meaning::WrongRead, Meaning::WrongP, "vermilion and red"},
                                  {Meaning::ThisStep, Meaning::Selected, "yellow and white"},
                                  {Meaning::PracticeRight, Meaning::PracticeMissed, "green and blue"}};
    for (const Pair& q : pairs) {
        double least = 1e9;
        for (const ThemeUnderTest& t : themes())
            least = std::min(least, leastDeltaE(colourOf(q.a, t.pal), colourOf(q.b, t.pal)));
        EXPECT_LT(least, 30.0) << q.why << " are far enough apart to share a mark; the test's list is stale";
        // Different marks, or two practice marks (each has its glyph; "missed" is dashed).
        const bool glyphs = styleOf(q.a).mark == Mark::Glyph && styleOf(q.b).mark == Mark::Glyph;
        EXPECT_TRUE(glyphs || styleOf(q.a).mark != styleOf(q.b).mark) << q.why;
    }
}

// One meaning, one colour: the table gives every meaning its palette colour, and the
// convolution's internal cells are the same blue as anything in shared memory (they are
// what N_ds holds), while the halo has a colour of its own in both panels.
TEST(Palette, TableGivesEachMeaningOneColour)
{
    ASSERT_EQ(meaningTable().size(), 17u);
    for (size_t i = 0; i < meaningTable().size(); ++i) {
        EXPECT_EQ(static_cast<size_t>(meaningTable()[i].meaning), i);
        EXPECT_NE(std::string(meaningTable()[i].words), "");
    }
    for (const ThemeUnderTest& t : themes()) {
        EXPECT_EQ(colourOf(Meaning::Internal, t.pal), t.pal.inShared);
        EXPECT_NE(colourOf(Meaning::Halo, t.pal), t.pal.inShared);
        EXPECT_NE(colourOf(Meaning::Halo, t.pal), t.pal.loadedThisPhase);
        EXPECT_EQ(colourOf(Meaning::ThisStep, t.pal), t.pal.readNow);
    }
}

// The heat ramp (heatColour) orders values by lightness for every kind of vision: CIELAB
// lightness rises from each of 65 samples to the next, by at least 0.25 (55 or more in all),
// under protanopia, deuteranopia and tritanopia as well, and neighbouring sixteenths of the
// ramp stay a visible step apart.
TEST(Palette, HeatRampLightnessRisesForEveryVision)
{
    for (const auto& [vision, m] : kVisions) {
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
