// The zoom and pan arithmetic of the Matrices canvas (app/gui/heatmap_view.hpp): screen and
// element at the cursor, zooming about the cursor, dragging, fitting, the pan's limits, and
// the part of a matrix on screen that the heatmap draws.
#include <gtest/gtest.h>

#include <cmath>

#include "heatmap_view.hpp"

using namespace ts::app;

namespace {

CanvasTransform canvasAt(float x, float y)
{
    CanvasTransform t;
    t.origin = ImVec2(x, y);
    return t;
}

}  // namespace

TEST(HeatmapView, FitIsTheLayoutItself)
{
    const CanvasTransform t = canvasAt(100, 50);
    const ImVec2 s = t.toScreen(ImVec2(30, 40));
    EXPECT_FLOAT_EQ(s.x, 130);
    EXPECT_FLOAT_EQ(s.y, 90);
    const ImVec2 p = t.toFit(ImVec2(130, 90));
    EXPECT_FLOAT_EQ(p.x, 30);
    EXPECT_FLOAT_EQ(p.y, 40);
}

TEST(HeatmapView, ZoomAtTheCursorKeepsThePointUnderIt)
{
    CanvasTransform t = canvasAt(100, 50);
    const ImVec2 cursor(260, 170);
    const ImVec2 before = t.toFit(cursor);   // (160, 120)
    t = zoomAt(t, cursor, 4.0f, 0.5f, 100.0f);
    EXPECT_FLOAT_EQ(t.zoom, 4.0f);
    const ImVec2 after = t.toFit(cursor);
    EXPECT_NEAR(after.x, before.x, 1e-4);
    EXPECT_NEAR(after.y, before.y, 1e-4);
    // By hand: the point (160, 120) drawn at 100 + 160 * 4 - pan = 260, so pan = (480, 360).
    EXPECT_FLOAT_EQ(t.pan.x, 480);
    EXPECT_FLOAT_EQ(t.pan.y, 360);
    // Again at another place, then back out by the same factors: the same point stays put.
    const ImVec2 other(120, 60), fixed = t.toFit(other);
    t = zoomAt(t, other, 1.25f, 0.5f, 100.0f);
    EXPECT_NEAR(t.toFit(other).x, fixed.x, 1e-3);
    EXPECT_NEAR(t.toFit(other).y, fixed.y, 1e-3);
    t = zoomAt(t, other, 0.8f, 0.5f, 100.0f);
    EXPECT_NEAR(t.zoom, 4.0f, 1e-5);
    EXPECT_NEAR(t.pan.x, 480, 1e-2);
}

TEST(HeatmapView, ZoomIsClampedAndBadFactorsIgnored)
{
    CanvasTransform t = canvasAt(0, 0);
    const ImVec2 cursor(50, 50);
    t = zoomAt(t, cursor, 1000.0f, 0.5f, 64.0f);
    EXPECT_FLOAT_EQ(t.zoom, 64.0f);
    // The point under the cursor still stays when the clamp cut the factor.
    EXPECT_NEAR(t.toFit(cursor).x, 50, 1e-3);
    t = zoomAt(t, cursor, 1e-6f, 0.5f, 64.0f);
    EXPECT_FLOAT_EQ(t.zoom, 0.5f);
    const CanvasTransform same = zoomAt(t, cursor, std::nanf(""), 0.5f, 64.0f);
    EXPECT_FLOAT_EQ(same.zoom, t.zoom);
    EXPECT_FLOAT_EQ(zoomAt(t, cursor, -2.0f, 0.5f, 64.0f).zoom, t.zoom);
    EXPECT_FLOAT_EQ(zoomAt(t, cursor, INFINITY, 0.5f, 64.0f).zoom, t.zoom);
}

TEST(HeatmapView, DragMovesThePictureWithTheMouse)
{
    CanvasTransform t = zoomAt(canvasAt(10, 20), ImVec2(60, 70), 3.0f, 0.5f, 100.0f);
    const ImVec2 p(25, 35), s = t.toScreen(p);
    t = dragBy(t, ImVec2(7, -4));
    EXPECT_FLOAT_EQ(t.toScreen(p).x, s.x + 7);
    EXPECT_FLOAT_EQ(t.toScreen(p).y, s.y - 4);
    t = fitted(t);
    EXPECT_FLOAT_EQ(t.zoom, 1);
    EXPECT_FLOAT_EQ(t.pan.x, 0);
    EXPECT_FLOAT_EQ(t.toScreen(p).x, 35);
}

TEST(HeatmapView, ElementUnderTheCursorThroughZoomAndPan)
{
    // A 4096 x 4096 P laid out at 0.125 fit pixels per element from (300, 40).
    const GridPlace P{ImVec2(300, 40), ImVec2(0.125f, 0.125f), 4096, 4096};
    CanvasTransform t = canvasAt(500, 100);
    // At fit, screen (500 + 300 + 100, 100 + 40 + 50) is element (400, 800).
    auto e = elementAt(t, P, ImVec2(900, 190));
    ASSERT_TRUE(e);
    EXPECT_EQ(e->first, 400);
    EXPECT_EQ(e->second, 800);
    // Zoomed 64 times at that point (the element's top-left corner): 8 screen pixels per
    // element, the same element under it, and the next element 8 pixels to the right.
    t = zoomAt(t, ImVec2(900, 190), 64.0f, 0.5f, 1000.0f);
    EXPECT_FLOAT_EQ(onScreen(t, P).cell.x, 8.0f);
    EXPECT_FLOAT_EQ(onScreen(t, P).cell.y, 8.0f);
    e = elementAt(t, P, ImVec2(900.5f, 190.5f));
    ASSERT_TRUE(e);
    EXPECT_EQ(e->first, 400);
    EXPECT_EQ(e->second, 800);
    e = elementAt(t, P, ImVec2(908.5f, 190.5f));
    ASSERT_TRUE(e);
    EXPECT_EQ(e->second, 801);
    // Panned by a drag of 80 pixels to the left: ten elements further right.
    t = dragBy(t, ImVec2(-80, 0));
    e = elementAt(t, P, ImVec2(900.5f, 190.5f));
    ASSERT_TRUE(e);
    EXPECT_EQ(e->second, 810);
    // Outside the matrix: nothing.
    EXPECT_FALSE(elementAt(canvasAt(500, 100), P, ImVec2(799, 190)));
    EXPECT_FALSE(elementAt(canvasAt(500, 100), P, ImVec2(900, 139)));
    EXPECT_FALSE(elementAt(canvasAt(500, 100), P, ImVec2(800 + 512, 190)));
}

TEST(HeatmapView, PanIsKeptWhereSomeOfThePictureShows)
{
    // A picture spanning fit pixels [20, 420] x [10, 310] in a 500 x 400 canvas, zoomed 2x.
    CanvasTransform t = canvasAt(0, 0);
    t.zoom = 2;
    const ImVec2 lo(20, 10), hi(420, 310), size(500, 400);
    // Dragged far to the left: the picture's right end stays 50 pixels inside the canvas.
    t.pan = ImVec2(10000, 0);
    CanvasTransform c = clampPan(t, lo, hi, size, 50);
    EXPECT_FLOAT_EQ(c.toScreen(hi).x, 50);
    // Far to the right: its left end stays 50 pixels inside the right edge.
    t.pan = ImVec2(-10000, -10000);
    c = clampPan(t, lo, hi, size, 50);
    EXPECT_FLOAT_EQ(c.toScreen(lo).x, 450);
    EXPECT_FLOAT_EQ(c.toScreen(lo).y, 350);
    // A pan inside the limits is left alone.
    t.pan = ImVec2(100, 30);
    c = clampPan(t, lo, hi, size, 50);
    EXPECT_FLOAT_EQ(c.pan.x, 100);
    EXPECT_FLOAT_EQ(c.pan.y, 30);
    // A picture narrower than `keep` is kept whole.
    t.zoom = 0.1f;
    t.pan = ImVec2(1000, 0);
    c = clampPan(t, lo, hi, size, 50);
    EXPECT_NEAR(c.toScreen(lo).x, 0, 1e-4);
}

TEST(HeatmapView, VisiblePartOfAMatrix)
{
    // 4096 columns at 0.125 pixels from x = 100.25: 512 pixels wide, cut by a clip at 400.
    auto v = visiblePart(ImVec2(100.25f, 50), ImVec2(0.125f, 0.125f), 4096, 4096, ImVec2(0, 0), ImVec2(400, 300));
    ASSERT_TRUE(v);
    EXPECT_EQ(v->x, 100);
    EXPECT_EQ(v->y, 50);
    EXPECT_EQ(v->width, 300);
    EXPECT_EQ(v->height, 250);
    EXPECT_FLOAT_EQ(v->firstCol, -2.0f);   // a quarter pixel left of the matrix's edge
    EXPECT_FLOAT_EQ(v->firstRow, 0.0f);
    // Zoomed in, from inside the matrix: the clip's corner is element (10.5, 20).
    v = visiblePart(ImVec2(-105, -200), ImVec2(10.0f, 10.0f), 100, 100, ImVec2(0, 0), ImVec2(64, 48));
    ASSERT_TRUE(v);
    EXPECT_EQ(v->x, 0);
    EXPECT_EQ(v->width, 64);
    EXPECT_EQ(v->height, 48);
    EXPECT_FLOAT_EQ(v->firstCol, 10.5f);
    EXPECT_FLOAT_EQ(v->firstRow, 20.0f);
    // Wholly outside: nothing to draw.
    EXPECT_FALSE(visiblePart(ImVec2(500, 0), ImVec2(1.0f, 1.0f), 10, 10, ImVec2(0, 0), ImVec2(400, 300)));
    EXPECT_FALSE(visiblePart(ImVec2(0, 0), ImVec2(0.0f, 1.0f), 10, 10, ImVec2(0, 0), ImVec2(400, 300)));
    // Elements twice as wide as high: 64 x 48 pixels from (0, 0) cover columns 0..3.2 and rows 0..6.
    v = visiblePart(ImVec2(0, 0), ImVec2(20.0f, 8.0f), 100, 100, ImVec2(0, 0), ImVec2(64, 48));
    ASSERT_TRUE(v);
    EXPECT_EQ(v->width, 64);
    EXPECT_EQ(v->height, 48);
    v = visiblePart(ImVec2(-30, -12), ImVec2(20.0f, 8.0f), 100, 100, ImVec2(0, 0), ImVec2(64, 48));
    ASSERT_TRUE(v);
    EXPECT_FLOAT_EQ(v->firstCol, 1.5f);
    EXPECT_FLOAT_EQ(v->firstRow, 1.5f);
}
