// Small drawing helpers the panels share: tooltips, legends, cells.
#pragma once
#include <initializer_list>
#include <optional>
#include <string>
#include <utility>

#include <imgui.h>

namespace ts::app {

/// A tooltip with `text` (wrapped) when the last item is hovered.
void tooltip(const char* text);
inline void tooltip(const std::string& text) { tooltip(text.c_str()); }
/// tooltip() for an item drawn disabled: shown on hover all the same, to say why it is off.
void disabledTooltip(const char* text);

/// A "(?)" marker that shows `text` when hovered.
void helpMarker(const char* text);

/// How a state is drawn on a cell: filled, a solid frame, or a dashed frame. Two states
/// whose colours are close for colour-blind eyes (orange and yellow under deuteranopia) use
/// different frame styles, so the shape tells them apart where the hue does not.
enum class Swatch { Fill, Frame, Dashed };

/// One legend entry for a colour that is not a state of the table of meanings (meanings.hpp's
/// legendEntry draws those): a roofline's kernel, say. A swatch drawn in `style` and a
/// label, with a tooltip saying what the colour means. Entries after the `first` go on the same line while they fit, then wrap.
void legendItem(ImU32 colour, const char* label, const char* meaning, Swatch style = Swatch::Fill, bool first = false);

/// A dashed frame just inside the rectangle [a, b], `thickness` pixels wide: dashes of
/// about 2.5 thicknesses (at least 4 px) with equal gaps, each side starting and ending on
/// a dash so the corners read as corners. A non-zero `edge` is drawn 1 px round each dash
/// (Palette::stepOutline), so that the dashes keep 3:1 against any fill under them.
void dashedRect(ImDrawList* dl, ImVec2 a, ImVec2 b, ImU32 colour, float thickness, ImU32 edge = 0);

/// Smallest side, in pixels at UI scale 1, of the frames that mark a tile or a block on a
/// large matrix (Matrices and Convolution panels): a 32-element tile may be a few pixels
/// wide, and its frame is drawn this large about the tile's centre so that it stays visible
/// from the back of a lecture hall.
inline constexpr float kMinMarker = 14.0f;

/// Grows the rectangle [a, b] about its centre to at least `least` pixels a side (sides
/// already that long stay as they are).
void growToAtLeast(ImVec2& a, ImVec2& b, float least);

/// The heatmap's legend: "`label` 0", a strip of heatColour from 0 to 1, then `max`.
void heatLegend(const char* label, unsigned max);

/// Text in `colour`, wrapped at the window edge.
void colouredText(ImU32 colour, const std::string& text);

/// `text` centred in the rectangle [a, b] with `font`, if it fits; returns whether it did.
/// With a `backing` colour (not 0), on a rectangle of that colour just larger than the text,
/// so that it reads the same over frames drawn on the cell.
bool centredText(ImDrawList* dl, ImFont* font, ImVec2 a, ImVec2 b, ImU32 colour, const std::string& text,
                 ImU32 backing = 0);

/// Where centredText() puts `text` in [a, b] with `font` (top-left corner and size, pixels),
/// or nothing where it does not fit: for a panel that draws the backing, then marks over it,
/// then the text.
std::optional<std::pair<ImVec2, ImVec2>> centredTextBox(const ImFont* font, ImVec2 a, ImVec2 b, const std::string& text);

/// A float as the cells show it: 3 decimals, or 2 when `narrow`.
std::string cellValue(float v, bool narrow);

/// A float with `decimals` decimals (as cellText chose).
std::string cellValue(float v, int decimals);

/// The font and number of decimals for values in cells `width` pixels wide.
struct CellText {
    ImFont* font = nullptr;   ///< null: no value fits, so no cell shows one
    int decimals = 3;
};

/// The first of (font, 3 decimals), (font, 2), (smaller, 2) in which every value of
/// (-10, 10) fits a cell `width` pixels wide; a null font when none does, so that no cell
/// shows a value rather than only the short ones. Candidate fonts are given largest first; a
/// null candidate is skipped (Fonts::values at the desk).
CellText cellText(std::initializer_list<ImFont*> fonts, float width);

}  // namespace ts::app
