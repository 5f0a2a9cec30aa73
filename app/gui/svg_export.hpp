// SVG export: the draw lists of one frame (a panel's, or the whole window's) written as
// vector graphics for slides. Every filled triangle becomes part of a path (consecutive
// triangles of one colour share a path, so the renderer fills them without seams), every
// glyph quad is recognised by its place in the font atlas and written back as a character
// of a <text> element in the same font family, weight and size at the same pen position,
// and every draw command keeps its clip rectangle. Draw the frame with ImGui's
// anti-aliasing switched off (ImGuiStyle::AntiAliasedLines/Fill/LinesUseTex): the fringe
// triangles it adds have a colour per vertex, which SVG cannot fill; the SVG renderer
// anti-aliases the edges itself.
#pragma once
#include <string>
#include <vector>

#include <imgui.h>

namespace ts::app {

/// What the conversion met: shapes, characters, and triangles it could not express
/// (textured with something other than a glyph or the white pixel), which it leaves out.
struct SvgStats {
    long triangles = 0, glyphs = 0, skipped = 0;
};

/// Writes the draw lists `lists`, in the order given (ImDrawData::CmdLists order), as one
/// SVG document showing the rectangle [origin, origin + size) of the display, in display
/// pixels (the SVG's user units), over a rectangle of `background` (an ImU32 colour).
/// Glyphs are matched against the fonts of ImGui's current font atlas, which must be the
/// one the lists were drawn with. `stats`, if given, receives what was converted.
std::string drawListsToSvg(const std::vector<const ImDrawList*>& lists, ImVec2 origin, ImVec2 size,
                           ImU32 background, SvgStats* stats = nullptr);

}  // namespace ts::app
