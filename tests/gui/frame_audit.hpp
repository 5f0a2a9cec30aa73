// frame_audit: what a student at the back of the room sees in one frame, measured on the
// frame's draw lists and its pixels. Used by layout_check.
//
// Text contrast. Every glyph ImGui drew is a quad textured from the font atlas (ImFont::
// RenderText writes 4 vertices, the first at the glyph's top-left with its U0,V0). The
// frame is rendered once more with every glyph's alpha set to 0: that picture is what each
// text is drawn on (cells, highlights, charts and all). A glyph's background is the colour of
// median luminance under its quad in that picture; its colour is its vertex colour composited
// over that background (its alpha), as the renderer blends it. The contrast ratio is WCAG
// 2.1's: (L1 + 0.05) / (L2 + 0.05) with L the relative luminance of the sRGB colour
// (sec. 1.4.3 and its definition of relative luminance; app/gui/theme.hpp's contrastRatio and
// over(), which the palette's unit test uses too). A text (a run of glyphs of one
// colour on one baseline, as one AddText call draws it) is as good as its worst glyph.
//
// Text size. Each glyph's font is found from its atlas coordinates, so the check knows the
// pixel size every text was rasterised at.
//
// Chart labels. Panels note their chart labels (app/gui/figure_notes.hpp); no two boxes of one
// panel may overlap.
#pragma once
#include <imgui.h>

#include <string>
#include <vector>

#include "figure_notes.hpp"
#include "theme.hpp"

namespace ts::test::gui {

/// One text the frame drew: its glyphs' union, colour and font size (pixels), and the worst
/// contrast of its glyphs against what they are drawn on.
struct DrawnText {
    std::string text;       ///< UTF-8, reconstructed from the glyphs
    std::string window;     ///< the ImGui window whose draw list holds it
    ImVec2 min, max;
    ImU32 colour = 0;       ///< the vertex colour (RGBA, ImU32)
    ImU32 background = 0;   ///< the background of its worst glyph (opaque)
    float fontSize = 0;     ///< pixels
    double contrast = 0;    ///< WCAG contrast ratio of its worst glyph (1 to 21)
};

/// Every text in `data` (the frame just built by ImGui::Render(), `display` pixels) with its
/// contrast measured on a second rendering without the glyphs over `clear` (the window's
/// clear colour). Renders with the current OpenGL context (app/gui/screenshot.hpp's
/// renderImage); the draw data is left as it was. Glyphs clipped away entirely are skipped.
std::vector<DrawnText> measureTexts(ImDrawData* data, ImVec2 display, ImU32 clear);

/// Pairs of chart labels of one window whose boxes overlap (by more than half a pixel each
/// way), as "WINDOW: 'A' overlaps 'B'".
std::vector<std::string> overlappingLabels(const std::vector<app::LabelNote>& labels);

}  // namespace ts::test::gui
