// How the app looks: fonts rasterised from Debian's DejaVu TTFs at the UI scale, the ImGui
// style, and the state colours every panel and legend share (Okabe-Ito hues, which stay
// apart for colour-blind viewers).
#pragma once
#include <string>

#include <imgui.h>

namespace ts::app {

/// The fonts of the app. Sizes in pixels at scale 1: ui 17, mono 16, cell 15.
struct Fonts {
    ImFont* ui = nullptr;       ///< DejaVu Sans: labels, menus
    ImFont* bold = nullptr;     ///< DejaVu Sans Bold: headings
    ImFont* mono = nullptr;     ///< DejaVu Sans Mono: code, indices
    ImFont* cell = nullptr;     ///< DejaVu Sans Mono, smaller: values inside cells
    ImFont* small = nullptr;    ///< DejaVu Sans Mono, smallest: values in narrow cells
    std::string note;           ///< non-empty when the TTFs were missing (default font used)
};

/// State colours (RGBA, ImU32) with the meaning each has everywhere in the app.
struct Palette {
    ImU32 cell = IM_COL32(52, 56, 66, 255);          ///< an element with nothing to say
    ImU32 cellText = IM_COL32(225, 228, 235, 255);
    ImU32 dimText = IM_COL32(140, 146, 160, 255);
    ImU32 grid = IM_COL32(24, 26, 31, 255);          ///< lines between cells
    ImU32 inShared = IM_COL32(0, 114, 178, 255);     ///< value sits in Mds/Nds now (blue)
    ImU32 loadedEarlier = IM_COL32(70, 84, 104, 255);///< loaded by the block in an earlier phase
    ImU32 loadedThisPhase = IM_COL32(230, 159, 0, 255);  ///< loaded this phase (orange frame)
    ImU32 readNow = IM_COL32(240, 228, 66, 255);     ///< touched by the current step (yellow)
    ImU32 stepOutline = 0;   ///< edge around readNow frames where yellow alone is too faint (light theme)
    ImU32 stepText = IM_COL32(240, 228, 66, 255);    ///< "Step N of M" in the caption
    ImU32 finished = IM_COL32(0, 158, 115, 255);     ///< P element stored (bluish green)
    ImU32 zeroFill = IM_COL32(204, 121, 167, 255);   ///< slot zero-filled (reddish purple)
    ImU32 selected = IM_COL32(255, 255, 255, 255);   ///< selected block / thread outline
    ImU32 noOutput = IM_COL32(110, 110, 118, 255);   ///< thread without a P element
    ImU32 error = IM_COL32(255, 110, 90, 255);       ///< refusals and disagreements
    ImU32 codeLine = IM_COL32(240, 228, 66, 70);     ///< current step's source line
    ImU32 codeLineAlt = IM_COL32(204, 121, 167, 80); ///< another line the selected thread ran
    ImU32 wrongRead = IM_COL32(213, 94, 0, 255);     ///< a shared read that got a different value
                                                     ///< than with every barrier (vermilion)
    ImU32 hazard = IM_COL32(86, 180, 233, 255);      ///< the two accesses of the chosen hazard
                                                     ///< (sky blue)
    ImU32 hazardLine = IM_COL32(86, 180, 233, 70);   ///< their source lines in Code
    ImU32 practiceRight = IM_COL32(0, 158, 115, 255);    ///< practice mode: a cell chosen and expected
                                                         ///< (bluish green frame with a tick)
    ImU32 practiceWrong = IM_COL32(213, 94, 0, 255);     ///< chosen, not expected (vermilion frame, cross)
    ImU32 practiceMissed = IM_COL32(86, 180, 233, 255);  ///< expected, not chosen (sky blue dashed frame, ring)
    ImU32 chartBg = IM_COL32(32, 35, 43, 255);       ///< background of bars and charts
    ImU32 chartLine = IM_COL32(70, 75, 88, 120);     ///< grid lines of charts
    ImU32 captionBg = IM_COL32(30, 38, 52, 255);     ///< the caption bar
    ImU32 clear = IM_COL32(18, 19, 23, 255);         ///< behind every window
};

/// The palette for a projector: the same Okabe-Ito hues, darker where they sit on light
/// cells, with near-black text on near-white cells (high contrast).
Palette lightPalette();

/// The two looks: dark (the default) and a high-contrast light one for projectors.
enum class ThemeKind { Dark, Light };

/// Fonts, palette and scale for one run.
struct Theme {
    Fonts fonts;
    Palette palette;
    float scale = 1.0f;
    ThemeKind kind = ThemeKind::Dark;
};

/// Re-rasterises the fonts at `scale` (pixel sizes, not a scaled bitmap) into the current
/// ImGui context's atlas and sets the style of `kind` scaled by `scale`. Call before the
/// renderer (re)builds the font texture.
Theme makeTheme(float scale, ThemeKind kind = ThemeKind::Dark);

/// `px` pixels of the 1x layout at the scale of the last makeTheme(): gaps and minimum
/// sizes written as constants grow with the fonts, so a 4x export is the 1x picture, only
/// sharper.
float scaled(float px);

/// A "this step" frame (Palette::readNow) around [a, b], `thickness` wide, with the
/// palette's dark edge on both sides where it has one, so that yellow stays visible on a
/// light background.
void stepFrame(ImDrawList* dl, ImVec2 a, ImVec2 b, const Palette& pal, float rounding, float thickness);

/// The palette of the last makeTheme() (for drawing helpers that get no Frame).
const Palette& currentPalette();

/// A colour of the heat ramp for t in [0, 1] (below 0 and NaN: 0; above 1: 1): indigo,
/// blue, teal, green, yellow, its lightness rising evenly (viridis-like, colour-blind safe),
/// 17 stops with straight lines between them. The heatmap shader maps the same way.
ImU32 heatColour(float t);

/// Text colour (near-black or near-white) that reads on `background`.
ImU32 textOn(ImU32 background);

}  // namespace ts::app
