// Zoom and pan of a canvas of matrices (the Matrices panel): the arithmetic between the
// canvas as laid out to fit its panel (the "fit" picture, zoom 1, no pan) and the screen.
// No ImGui state and no OpenGL, so that the unit tests (tests/app/heatmap_view_test.cpp)
// check it without a window.
//
// A point p of the fit picture, measured in pixels from the canvas's top-left corner o,
// is drawn at   screen = o + p * zoom - pan.
// Zooming at the cursor keeps the point under the cursor where it is; the mouse wheel
// multiplies the zoom, a drag moves the pan by the mouse's movement, a double click fits.
#pragma once
#include <optional>
#include <utility>

#include <imgui.h>

namespace ts::app {

/// The canvas's zoom and pan. pan is in screen pixels (at the current zoom).
struct CanvasTransform {
    ImVec2 origin;            ///< the canvas's top-left corner on screen
    float zoom = 1.0f;        ///< 1: the fit picture
    ImVec2 pan{0.0f, 0.0f};   ///< screen pixels the picture is moved up and left

    /// Where fit-picture point `p` (pixels from the origin at zoom 1) is on screen.
    ImVec2 toScreen(ImVec2 p) const { return ImVec2(origin.x + p.x * zoom - pan.x, origin.y + p.y * zoom - pan.y); }
    /// The fit-picture point drawn at screen point `s` (the inverse of toScreen).
    ImVec2 toFit(ImVec2 s) const { return ImVec2((s.x - origin.x + pan.x) / zoom, (s.y - origin.y + pan.y) / zoom); }
};

/// `t` zoomed by `factor` about screen point `at` (the cursor): the fit-picture point under
/// `at` stays under it. The new zoom is clamped to [least, most]; a factor that is not
/// positive and finite leaves `t` as it is.
CanvasTransform zoomAt(const CanvasTransform& t, ImVec2 at, float factor, float least, float most);

/// `t` panned by a drag of the mouse by `delta` screen pixels: the picture follows the mouse.
CanvasTransform dragBy(const CanvasTransform& t, ImVec2 delta);

/// `t` fitted: zoom 1 and no pan, the picture as the panel lays it out.
CanvasTransform fitted(const CanvasTransform& t);

/// `t` with its pan limited so that the picture, which spans [lo, hi] in fit-picture
/// pixels, keeps at least `keep` screen pixels of each axis inside a canvas of `size`
/// pixels (or all of the picture where it is smaller than that). A picture that fits in the
/// canvas can still be moved about inside it.
CanvasTransform clampPan(const CanvasTransform& t, ImVec2 lo, ImVec2 hi, ImVec2 size, float keep);

/// A matrix of rows x cols elements whose top-left corner is at `corner` in fit-picture
/// pixels, each element `cell.x` fit-picture pixels wide and `cell.y` high.
struct GridPlace {
    ImVec2 corner;
    ImVec2 cell{1.0f, 1.0f};
    int rows = 0, cols = 0;
};

/// The element (row, col) drawn at screen point `s`, if `s` lies over the matrix.
std::optional<std::pair<int, int>> elementAt(const CanvasTransform& t, const GridPlace& g, ImVec2 s);

/// The screen rectangle of the matrix: its top-left corner and an element's width and
/// height in pixels.
struct ScreenGrid {
    ImVec2 corner;
    ImVec2 cell{1.0f, 1.0f};
};
ScreenGrid onScreen(const CanvasTransform& t, const GridPlace& g);

/// The part of a matrix drawn at `corner` (screen) with elements `cell.x` x `cell.y` pixels that lies
/// inside the screen rectangle [clipLo, clipHi), in whole pixels: the rectangle to draw a
/// picture of and the element coordinate (column, row) at its top-left corner. Empty when
/// the matrix is outside the rectangle.
struct VisiblePart {
    int x = 0, y = 0, width = 0, height = 0;   ///< screen pixels
    float firstCol = 0, firstRow = 0;          ///< element coordinate at (x, y)
};
std::optional<VisiblePart> visiblePart(ImVec2 corner, ImVec2 cell, int rows, int cols, ImVec2 clipLo, ImVec2 clipHi);

}  // namespace ts::app
