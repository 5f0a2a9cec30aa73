// How the app looks: fonts rasterised from Debian's DejaVu TTFs at the UI scale, the ImGui
// style, and the state colours every panel and legend share (Okabe-Ito hues, which stay
// apart for colour-blind viewers).
#pragma once
#include <string>

#include <imgui.h>

namespace ts::app {

/// The fonts of the app. Sizes in pixels at scale 1: ui 17, mono 16, cell 14, small 12.
/// A slide (presentation mode) adds the fonts read from the back of a lecture hall: the
/// caption bar's, the values in cells and the source code (kSlide*Px), which at the desk are
/// the ui, bold and mono fonts (values: none, each figure keeps its own choice).
struct Fonts {
    ImFont* ui = nullptr;       ///< DejaVu Sans: labels, menus
    ImFont* bold = nullptr;     ///< DejaVu Sans Bold: headings
    ImFont* mono = nullptr;     ///< DejaVu Sans Mono: code, indices
    ImFont* cell = nullptr;     ///< DejaVu Sans Mono, smaller: values inside cells
    ImFont* small = nullptr;    ///< DejaVu Sans Mono, smallest: values in narrow cells
    ImFont* caption = nullptr;      ///< the caption bar's text (DejaVu Sans; ui at the desk)
    ImFont* captionBold = nullptr;  ///< the caption bar's title (DejaVu Sans Bold; bold at the desk)
    /// Values inside the cells of a figure on a slide (DejaVu Sans Mono), the first font a
    /// figure tries; nullptr at the desk, where the figures choose among mono, cell and small.
    ImFont* values = nullptr;
    ImFont* code = nullptr;     ///< the source listing (DejaVu Sans Mono; mono at the desk)
    std::string note;           ///< non-empty when the TTFs were missing (default font used)
};

/// Font sizes of a slide in pixels at scale 1 (presentation mode draws at scale 2 on a
/// screen 1080 lines high, state.hpp): DejaVu's capitals are 0.626 of the pixel size
/// (ascent plus descent), so the caption and the values in cells have capitals of 28 px at
/// 1080 lines (45 px fonts) and the code 22.5 px (36 px), sizes read from the back of a
/// lecture hall 10 m away (issue 37). The desk keeps ui 17, mono 16.
constexpr float kSlideCaptionPx = 22.5f;
constexpr float kSlideValuesPx = 22.5f;
constexpr float kSlideCodePx = 18.0f;
/// The mono font on a slide (16 at the desk): the Code panel's explanations of the selected
/// thread and other monospaced text beside the figures.
constexpr float kSlideMonoPx = 14.0f;

/// The height of the capital H of `font` as drawn, in pixels: the rows of its glyph in the
/// font atlas that are at least half covered (what one counts on a screenshot). 0 when the
/// atlas has no pixels or the font no H.
float capHeight(const ImFont* font);

/// State colours (RGBA, ImU32) with the meaning each has everywhere in the app (the table
/// of meanings in meanings.hpp says which state uses which, and how it is drawn). Both
/// themes meet WCAG 2.1 AA (tests/app/palette_test.cpp): text at least 4.5:1 against what
/// it is drawn on, fills and marks at least 3:1 against theirs. Colours that a panel draws
/// as text have a *Text variant where the mark's colour would be too light or too dark.
struct Palette {
    ImU32 cell = IM_COL32(100, 104, 114, 255);       ///< an element with nothing to say (3:1 on the window)
    ImU32 cellText = IM_COL32(255, 255, 255, 255);   ///< labels of the figures (on the window)
    ImU32 dimText = IM_COL32(170, 176, 190, 255);    ///< secondary text (on the window, charts, caption)
    ImU32 grid = IM_COL32(24, 26, 31, 255);          ///< lines between cells
    ImU32 inShared = IM_COL32(0, 114, 178, 255);     ///< value sits in Mds/Nds now (blue)
    ImU32 loadedEarlier = IM_COL32(124, 100, 72, 255);   ///< loaded by the block in an earlier phase (umber)
    ImU32 loadedThisPhase = IM_COL32(230, 159, 0, 255);  ///< loaded this phase (orange dashed frame)
    ImU32 readNow = IM_COL32(240, 228, 66, 255);     ///< touched by the current step (yellow frame)
    /// The edge drawn round every frame and dash (this step, loaded this phase, hazard,
    /// wrong P): where the frame's colour is close to the fill under it, the edge keeps the
    /// mark at 3:1 (black in the dark theme, near-black in the light one).
    ImU32 stepOutline = IM_COL32(0, 0, 0, 255);
    ImU32 stepText = IM_COL32(240, 228, 66, 255);    ///< "Step N of M" in the caption
    ImU32 finished = IM_COL32(0, 158, 115, 255);     ///< P element stored (bluish green)
    ImU32 zeroFill = IM_COL32(204, 121, 167, 255);   ///< slot zero-filled, ghost cell (reddish purple)
    ImU32 halo = IM_COL32(86, 150, 233, 255);        ///< convolution: halo cell, in N and N_ds (light blue)
    ImU32 selected = IM_COL32(255, 255, 255, 255);   ///< selected block / thread outline
    ImU32 noOutput = IM_COL32(170, 170, 178, 255);   ///< thread without a P element (text)
    ImU32 error = IM_COL32(255, 110, 90, 255);       ///< refusals and disagreements (text and marks)
    /// The current step's source line in Code: a faint fill that keeps every text on it at
    /// 4.5:1, and a bar at the line's left edge in codeBar (3:1).
    ImU32 codeLine = IM_COL32(240, 228, 66, 30);
    ImU32 codeBar = IM_COL32(240, 228, 66, 255);
    ImU32 codeLineAlt = IM_COL32(204, 121, 167, 32); ///< another line the selected thread ran
    ImU32 wrongRead = IM_COL32(213, 94, 0, 255);     ///< a shared read that got a different value
                                                     ///< than with every barrier (vermilion)
    ImU32 wrongReadText = IM_COL32(255, 140, 80, 255);   ///< the same, as text
    ImU32 hazard = IM_COL32(86, 180, 233, 255);      ///< the two accesses of the chosen hazard
                                                     ///< (sky blue frame)
    ImU32 hazardText = IM_COL32(86, 180, 233, 255);  ///< the hazard's words (Hazards, Code)
    ImU32 hazardLine = IM_COL32(86, 180, 233, 28);   ///< their source lines in Code (with a bar in hazard)
    ImU32 warnText = IM_COL32(230, 159, 0, 255);     ///< orange words: the occupancy limiter, notes in Code
    ImU32 okText = IM_COL32(0, 184, 134, 255);       ///< green words: P equals the reference, "simulated"
    ImU32 practiceRight = IM_COL32(0, 158, 115, 255);    ///< practice mode: a cell chosen and expected
                                                         ///< (bluish green frame with a tick)
    ImU32 practiceWrong = IM_COL32(213, 94, 0, 255);     ///< chosen, not expected (vermilion frame, cross)
    ImU32 practiceMissed = IM_COL32(86, 180, 233, 255);  ///< expected, not chosen (sky blue dashed frame, ring)
    ImU32 chartBg = IM_COL32(32, 35, 43, 255);       ///< background of bars and charts
    ImU32 chartLine = IM_COL32(70, 75, 88, 120);     ///< grid lines of charts (a guide, not data)
    ImU32 captionBg = IM_COL32(30, 38, 52, 255);     ///< the caption bar
    ImU32 clear = IM_COL32(18, 19, 23, 255);         ///< behind every window
};

/// The palette for a projector: the same Okabe-Ito hues, darker where they are text on
/// white, mid-grey cells (3:1 against the white window) with black text on them.
Palette lightPalette();

/// The two looks: dark (the default) and a high-contrast light one for projectors.
enum class ThemeKind { Dark, Light };

/// Fonts, palette and scale for one run.
struct Theme {
    Fonts fonts;
    Palette palette;
    float scale = 1.0f;
    ThemeKind kind = ThemeKind::Dark;
    bool slides = false;   ///< made for presentation mode (Fonts' slide fonts loaded)
};

/// Re-rasterises the fonts at `scale` (pixel sizes, not a scaled bitmap) into the current
/// ImGui context's atlas and sets the style of `kind` scaled by `scale`. With `slides`
/// (presentation mode) it also loads the slide's caption, values and code fonts
/// (kSlide*Px times `scale`). Call before the renderer (re)builds the font texture.
Theme makeTheme(float scale, ThemeKind kind = ThemeKind::Dark, bool slides = false);

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

/// Text colour (black or white) that reads on `background`: whichever has the higher WCAG
/// contrast against it, which is at least 4.58:1 for any opaque background.
ImU32 textOn(ImU32 background);

/// WCAG 2.1 relative luminance of an opaque sRGB colour, 0 (black) to 1 (white): each
/// channel linearised (c/12.92 up to 0.04045, else ((c+0.055)/1.055)^2.4), then weighted
/// 0.2126 R + 0.7152 G + 0.0722 B (https://www.w3.org/TR/WCAG21/#dfn-relative-luminance).
/// The alpha channel is ignored: composite first (over()).
double relativeLuminance(ImU32 colour);

/// WCAG 2.1 contrast ratio of two opaque colours, (L1 + 0.05) / (L2 + 0.05) with L1 the
/// lighter: 1 to 21 (https://www.w3.org/TR/WCAG21/#dfn-contrast-ratio). Success criterion
/// 1.4.3 asks 4.5:1 of text, 1.4.11 asks 3:1 of graphical objects and marks.
double contrastRatio(ImU32 a, ImU32 b);

/// `top` (with its alpha) drawn over the opaque `below`, as the renderer blends them (in
/// sRGB values, source-over): the colour a semi-transparent highlight makes. Opaque.
ImU32 over(ImU32 top, ImU32 below);

/// A solid frame in `colour` round [a, b], `thickness` wide, with the palette's edge
/// (stepOutline) on both sides: the frame marks (hazard, wrong P) keep 3:1 against any
/// fill under them.
void markFrame(ImDrawList* dl, ImVec2 a, ImVec2 b, ImU32 colour, const Palette& pal, float thickness,
               float rounding = 0);

/// The ImGui style colours and sizes of `kind` at `scale` (what makeTheme sets): text,
/// disabled text, window, child, popup, frame, button, header and tab colours, each pair of
/// text and background at 4.5:1 (tests/app/palette_test.cpp).
ImGuiStyle themeStyle(ThemeKind kind, float scale);

}  // namespace ts::app
