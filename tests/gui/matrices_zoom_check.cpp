// matrices_zoom_check: the Matrices canvas answers the mouse as docs/heatmap.md says. The
// app's own frames, in a hidden window, on a 512 x 512 product with TILE_WIDTH 16, traced
// block (3, 2) (tests/gui/scenarios/matrices-512-tile16.toml); the mouse is given through
// App::inputHook, a point over P:
//
//  - it opens zoomed to the traced block (its cells too small to read at the fit); - zooms
//    out, 0 fits, + zooms in, typed over the canvas; the canvas then stays as the user left it;
//  - three notches of the wheel zoom 1.25^3 times at the cursor: the pan grows in
//    proportion to zoom - 1 (so the point under the cursor stays put, whatever the canvas's
//    origin), and neither the panel nor the canvas scrolls;
//  - a drag of 60 pixels to the left pans by what the mouse moved past ImGui's drag
//    threshold, and traces no other block;
//  - a double click fits (zoom 1, no pan) and traces no block (its first click would have);
//  - a click on P outside the traced block traces the block that computes the element, once
//    the double-click time has passed.
//
// Prints one line per failed check and exits 1 if there is one, else prints
// "matrices_zoom_check: N checks passed".
#include <imgui.h>
#include <imgui_internal.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <string>
#include <thread>

#include "app.hpp"
#include "gui_check.hpp"
#include "layout.hpp"

using namespace ts::app;
using namespace ts::test::gui;

namespace {

std::string num(double v)
{
    char b[32];
    std::snprintf(b, sizeof b, "%.3f", v);
    return b;
}

/// The mouse as the next frames see it.
struct Mouse {
    ImVec2 pos{-FLT_MAX, -FLT_MAX};
    bool down = false;
    float wheel = 0;   ///< for one frame
    ImWchar typed = 0; ///< a character typed, for one frame
};

}  // namespace

int main(int argc, char** argv)
{
    if (argc != 2) {
        std::fprintf(stderr, "usage: matrices_zoom_check SCENARIO.toml\n");
        return 2;
    }
    Options o;
    o.preset = ts::sim::findPreset(argv[1], panelNameList());
    o.width = o.height = 64;
    o.screenshot = "(matrices_zoom_check)";   // offscreen: hidden window, no settings
    const ImVec2 display(1600, 900);
    App app(o);
    openWithRetries(app);
    Mouse mouse;
    app.inputHook = [&](ImGuiIO& io) {
        io.MousePos = mouse.pos;
        io.MouseDown[0] = mouse.down;
        io.MouseWheel = mouse.wheel;
        io.DeltaTime = 1.0f / 60.0f;   // double clicks as a person makes them, whatever the frame rate
        if (mouse.typed) io.AddInputCharacter(mouse.typed);
        mouse.wheel = 0;
        mouse.typed = 0;
    };
    auto frame = [&] { drawFrame(app, display); };
    // Until the scenario is simulated and the layout stands still (a count of frames is no
    // bound: in a hidden window a frame may take a millisecond, the simulation a few seconds).
    auto settle = [&] { ts::test::gui::settle(app, display); };
    settle();
    if (!app.loaded().sim) {
        std::printf("FAIL: the scenario was not simulated\n");
        return 1;
    }
    const ImGuiWindow* panel = ImGui::FindWindowByName(panelTable()[panelId("matrices")].title);
    expect(panel && panel->WasActive, "the Matrices panel is shown");
    if (!panel) return 1;
    // P is the lower right of the canvas (N above it, M to its left).
    const ImVec2 at(panel->Pos.x + panel->Size.x * 0.65f, panel->Pos.y + panel->Size.y * 0.78f);
    const View& v = app.view();
    const auto block = [&] { return app.loaded().sim->trace.block; };
    // 512 x 512 fits the panel at cells of about a pixel: it opens zoomed to the traced
    // block's tiles instead (issue 37), and the keys over the canvas zoom out and fit.
    expect(v.zoom > 4.0f, "a 512 x 512 product opens zoomed to the traced block; zoom " + num(v.zoom));
    mouse.pos = at;
    frame();
    const float opened = v.zoom;
    mouse.typed = '-';
    frame();
    expect(std::fabs(v.zoom - opened * 0.8f) < 1e-3f, "- over the canvas zooms out 1.25 times; zoom " + num(opened) + " then " + num(v.zoom));
    mouse.typed = '0';
    frame();
    expect(v.zoom == 1.0f && v.panX == 0 && v.panY == 0, "0 over the canvas fits; zoom " + num(v.zoom));
    mouse.typed = '+';
    frame();
    expect(std::fabs(v.zoom - 1.25f) < 1e-4f, "+ over the canvas zooms in 1.25 times; zoom " + num(v.zoom));
    mouse.typed = '0';
    frame();
    settle();
    expect(v.zoom == 1.0f && v.panX == 0 && v.panY == 0, "once the user has zoomed, the view stays as the user left it");
    mouse.pos = ImVec2(-FLT_MAX, -FLT_MAX);
    frame();

    // ---- the wheel at the cursor ---------------------------------------------------------
    mouse.pos = at;
    frame();
    mouse.wheel = 1;
    frame();
    const float z1 = v.zoom, x1 = v.panX, y1 = v.panY;
    mouse.wheel = 2;
    frame();
    const float z2 = v.zoom, x2 = v.panX, y2 = v.panY;
    expect(std::fabs(z1 - 1.25f) < 1e-4f, "one notch zooms 1.25 times; got " + num(z1));
    expect(std::fabs(z2 - 1.25f * 1.25f * 1.25f) < 1e-3f, "three notches zoom 1.953 times; got " + num(z2));
    // pan = (cursor - origin) * (zoom - 1) for a zoom about the cursor from the fit picture.
    expect(x1 > 0 && y1 > 0, "zooming at a point right of and below the origin pans right and down");
    expect(std::fabs(x2 / x1 - (z2 - 1) / (z1 - 1)) < 1e-2 && std::fabs(y2 / y1 - (z2 - 1) / (z1 - 1)) < 1e-2,
           "the point under the cursor stays put: pan " + num(x1) + ", " + num(y1) + " then " + num(x2) + ", " +
               num(y2));
    const ImGuiWindow* now = ImGui::FindWindowByName(panelTable()[panelId("matrices")].title);
    expect(now->Scroll.y == 0, "the wheel does not scroll the panel");
    for (const ImGuiWindow* w : GImGui->Windows)
        if (w->WasActive && w->RootWindow == now && w != now)
            expect(w->Scroll.x == 0 && w->Scroll.y == 0, std::string("the wheel does not scroll ") + w->Name);

    // ---- a drag -----------------------------------------------------------------------------
    const ts::sim::Uint3 before = block();
    mouse.down = true;
    frame();
    for (int i = 1; i <= 6; ++i) {
        mouse.pos = ImVec2(at.x - 10.0f * i, at.y);
        frame();
    }
    mouse.down = false;
    frame();
    const float dragged = v.panX - x2;
    // ImGui starts a drag once the mouse has moved 6 pixels: the pan follows the rest.
    expect(dragged >= 50 && dragged <= 60.5f, "a drag of 60 pixels to the left pans by 50 to 60; got " + num(dragged));
    expect(std::fabs(v.panY - y2) < 1e-3f, "a level drag leaves the vertical pan");
    settle();
    expect(block().x == before.x && block().y == before.y, "a drag traces no other block");

    // ---- a double click fits ----------------------------------------------------------------
    mouse.pos = at;
    frame();
    for (bool down : {true, false, true, false}) {
        mouse.down = down;
        frame();
    }
    expect(v.zoom == 1.0f && v.panX == 0 && v.panY == 0,
           "a double click fits; got zoom " + num(v.zoom) + ", pan " + num(v.panX) + ", " + num(v.panY));
    settle();
    expect(block().x == before.x && block().y == before.y, "a double click traces no other block");

    // ---- a click on P outside the traced block ------------------------------------------------
    // Fitted, `at` lies over P at (0.65, 0.78) of the panel: far right and below block (3, 2),
    // whose elements are rows 32-47 and columns 48-63 of 512.
    mouse.down = true;
    frame();
    mouse.down = false;
    frame();
    frame();
    expect(block().x == before.x && block().y == before.y, "a click waits out the double-click time");
    for (int i = 0; i < 30; ++i) frame();   // half a second
    settle();
    expect(!(block().x == before.x && block().y == before.y),
           "a click on P traces the block that computes the element; still block (" + std::to_string(block().x) + ", " +
               std::to_string(block().y) + ")");
    expect(block().x > 3 && block().y > 2, "the block clicked lies right of and below block (3, 2); got (" +
                                               std::to_string(block().x) + ", " + std::to_string(block().y) + ")");
    return finish("matrices_zoom_check");
}
