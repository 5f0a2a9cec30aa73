// heatmap_pixels: the heatmap shaders (shaders/heatmap.vert, .frag, embedded into the app)
// draw what app/gui/heatmap.hpp promises, pixel for pixel. In a hidden GLFW window with an
// OpenGL 3.3 core context (under Xvfb, Mesa's software driver) it draws small matrices
// through HeatmapRenderer into its offscreen framebuffer, reads the pixels back with
// glReadPixels and compares them with what the CPU side says they must be:
//
//  - a 4 x 3 ramp of values 0 .. 1 (value mode, 10 pixels per element): every element's
//    pixels are heatColour(value) within 1/255; the one element flagged "loaded this phase"
//    has a frame of the palette's loaded-this-phase colour, 2 pixels wide, around its value;
//  - the same in state mode: that element is filled with the state colour, the rest with
//    the plain cell colour; new flags with the same view are drawn anew;
//  - 64 x 64 elements at a quarter pixel each (16 x 16 pixels): one element read by the
//    step, element (37, 50), still colours the pixel over it (the OR pyramid), and only it;
//  - load counts at half a pixel per element show the largest count under each pixel;
//  - a fragment shader that does not compile is refused with one sentence;
//  - the GL state the app's frame relies on (framebuffer, viewport, program) is put back.
//
// Prints one line per failed check and exits 1 if there is one, else prints
// "heatmap_pixels: N checks passed" and exits 0.
#include <glad/gl.h>
#include <GLFW/glfw3.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "heatmap.hpp"
#include "gui_check.hpp"
#include "theme.hpp"

using namespace ts::app;
using namespace ts::test::gui;

namespace {

struct Rgba {
    int r, g, b, a;
};

Rgba pixel(const std::vector<uint8_t>& px, int width, int x, int y)
{
    const size_t i = (static_cast<size_t>(y) * width + x) * 4;
    return Rgba{px[i], px[i + 1], px[i + 2], px[i + 3]};
}

Rgba rgba(ImU32 c)
{
    return Rgba{static_cast<int>(c & 0xFF), static_cast<int>((c >> 8) & 0xFF), static_cast<int>((c >> 16) & 0xFF),
                static_cast<int>((c >> 24) & 0xFF)};
}

std::string str(Rgba c)
{
    return "(" + std::to_string(c.r) + ", " + std::to_string(c.g) + ", " + std::to_string(c.b) + ", " +
           std::to_string(c.a) + ")";
}

/// Whether `got` is `want` within `tol` per channel (out of 255).
bool near(Rgba got, Rgba want, int tol = 1)
{
    return std::abs(got.r - want.r) <= tol && std::abs(got.g - want.g) <= tol && std::abs(got.b - want.b) <= tol &&
           std::abs(got.a - want.a) <= tol;
}

void expectPixel(const std::vector<uint8_t>& px, int width, int x, int y, Rgba want, const std::string& what)
{
    const Rgba got = pixel(px, width, x, y);
    expect(near(got, want), what + ": pixel (" + std::to_string(x) + ", " + std::to_string(y) + ") is " + str(got) +
                                ", expected " + str(want));
}

}  // namespace

int main()
{
    if (!glfwInit()) {
        std::printf("heatmap_pixels: GLFW could not start (run it under xvfb-run)\n");
        return 1;
    }
    glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 3);
    glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 3);
    glfwWindowHint(GLFW_OPENGL_PROFILE, GLFW_OPENGL_CORE_PROFILE);
    glfwWindowHint(GLFW_OPENGL_FORWARD_COMPAT, GLFW_TRUE);
    glfwWindowHint(GLFW_VISIBLE, GLFW_FALSE);
    GLFWwindow* window = glfwCreateWindow(64, 64, "heatmap_pixels", nullptr, nullptr);
    if (!window) {
        std::printf("heatmap_pixels: no OpenGL 3.3 core context\n");
        return 1;
    }
    glfwMakeContextCurrent(window);
    if (!gladLoadGL(glfwGetProcAddress)) {
        std::printf("heatmap_pixels: glad loaded no OpenGL functions\n");
        return 1;
    }
    std::printf("heatmap_pixels: %s, %s\n", reinterpret_cast<const char*>(glGetString(GL_RENDERER)),
                reinterpret_cast<const char*>(glGetString(GL_VERSION)));

    HeatmapRenderer renderer;
    const std::string why = renderer.init();
    expect(why.empty(), "the embedded shaders work: " + why);
    if (!why.empty()) return 1;
    const Palette pal;
    const HeatColours colours = heatColours(pal);

    // ---- a 4 x 3 ramp, value mode, 10 pixels per element --------------------------------
    const int rows = 3, cols = 4, cell = 10;
    std::vector<float> ramp(rows * cols);
    for (int i = 0; i < rows * cols; ++i) ramp[i] = static_cast<float>(i) / (rows * cols - 1);
    std::vector<uint8_t> flags(rows * cols, 0);
    const int masked = 1 * cols + 2;   // element (1, 2)
    flags[masked] = kLoadedThisPhase;
    HeatImage image;
    image.setFlags(rows, cols, flags);
    image.setScalars(ramp, false);
    HeatView v;
    v.cellW = cell;
    v.cellH = cell;
    v.width = cols * cell;
    v.height = rows * cell;
    v.mode = HeatMode::Values;
    v.band = 2;
    // GL state of "the app's frame": a viewport and program the draw must put back.
    glViewport(3, 4, 50, 60);
    glUseProgram(0);
    const auto pic = renderer.draw(image, v, colours);
    expect(pic.has_value(), "a picture of the ramp is drawn");
    GLint viewport[4] = {}, fbo = -1, program = -1;
    glGetIntegerv(GL_VIEWPORT, viewport);
    glGetIntegerv(GL_DRAW_FRAMEBUFFER_BINDING, &fbo);
    glGetIntegerv(GL_CURRENT_PROGRAM, &program);
    expect(viewport[0] == 3 && viewport[1] == 4 && viewport[2] == 50 && viewport[3] == 60, "the viewport is put back");
    expect(fbo == 0 && program == 0, "the window's framebuffer and no program are bound again");
    std::vector<uint8_t> px = renderer.readBack(image, v.width, v.height);
    for (int r = 0; r < rows; ++r)
        for (int c = 0; c < cols; ++c) {
            const int i = r * cols + c;
            const Rgba want = rgba(heatColour(ramp[i]));
            const std::string name = "value " + std::to_string(ramp[i]) + " of element (" + std::to_string(r) + ", " +
                                     std::to_string(c) + ")";
            expectPixel(px, v.width, c * cell + 5, r * cell + 5, want, name + ", centre");
            expectPixel(px, v.width, c * cell + 3, r * cell + 7, want, name + ", inside the frame band");
            const Rgba edge = i == masked ? rgba(pal.loadedThisPhase) : want;
            expectPixel(px, v.width, c * cell, r * cell + 5, edge, name + ", left edge");
            expectPixel(px, v.width, c * cell + 9, r * cell + 1, edge, name + ", right edge");
            expectPixel(px, v.width, c * cell + 5, r * cell + 9, edge, name + ", bottom edge");
        }

    // ---- the same flags in state mode with frames: the cell's fill, the state's frame -------
    v.mode = HeatMode::State;
    renderer.draw(image, v, colours);
    px = renderer.readBack(image, v.width, v.height);
    expectPixel(px, v.width, 2 * cell + 5, cell + 5, rgba(pal.cell), "state mode with frames, element (1, 2)'s centre");
    expectPixel(px, v.width, 2 * cell, cell + 5, rgba(pal.loadedThisPhase), "state mode with frames, element (1, 2)'s edge");

    // ---- the same flags in state mode without frames (cells under 8 px): fills --------------
    v.band = 0;
    renderer.draw(image, v, colours);
    px = renderer.readBack(image, v.width, v.height);
    for (int i = 0; i < rows * cols; ++i) {
        const int r = i / cols, c = i % cols;
        expectPixel(px, v.width, c * cell + 5, r * cell + 5, rgba(i == masked ? pal.loadedThisPhase : pal.cell),
                    "state mode, element (" + std::to_string(r) + ", " + std::to_string(c) + ")");
    }

    // ---- new flags, the same view: the picture is drawn again (not the one kept) -------------
    std::vector<uint8_t> moved(rows * cols, 0);
    moved[0] = kInShared;
    image.setFlags(rows, cols, moved);
    renderer.draw(image, v, colours);
    px = renderer.readBack(image, v.width, v.height);
    expectPixel(px, v.width, 5, 5, rgba(pal.inShared), "after new flags, element (0, 0) in Mds/Nds");
    expectPixel(px, v.width, 2 * cell + 5, cell + 5, rgba(pal.cell), "after new flags, element (1, 2) plain");

    // ---- small cells (5 px, no frames): "this step" is an outline round the elements it
    // touches, and their fill ("in Mds/Nds") shows inside it -----------------------------------
    {
        const int n = 8, px5 = 5;
        std::vector<uint8_t> f(n * n, 0);
        for (int r = 0; r < 4; ++r)
            for (int c = 0; c < 4; ++c) f[r * n + c] = kReadNow | kInShared;
        HeatImage small;
        small.setFlags(n, n, f);
        HeatView sv;
        sv.cellW = px5;
        sv.cellH = px5;
        sv.width = sv.height = n * px5;
        renderer.draw(small, sv, colours);
        const std::vector<uint8_t> got = renderer.readBack(small, sv.width, sv.height);
        expectPixel(got, sv.width, 10, 10, rgba(pal.inShared), "inside the outline: in Mds/Nds, not covered");
        expectPixel(got, sv.width, 10, 1, rgba(pal.readNow), "the outline's top, 2 px of yellow");
        expectPixel(got, sv.width, 18, 10, rgba(pal.readNow), "the outline's right side");
        expectPixel(got, sv.width, 20, 10, rgba(pal.stepOutline), "the edge outside the outline");
        expectPixel(got, sv.width, 30, 30, rgba(pal.cell), "an untouched element");
        small.release();
    }

    // ---- elements 15 px wide and 8 px high (the Matrices panel's stretched cells) -------------
    {
        HeatView r = v;
        r.cellW = 15;
        r.cellH = 8;
        r.width = cols * 15;
        r.height = rows * 8;
        r.mode = HeatMode::State;
        r.band = 2;
        image.setFlags(rows, cols, flags);   // element (1, 2) loaded this phase again
        renderer.draw(image, r, colours);
        const std::vector<uint8_t> got = renderer.readBack(image, r.width, r.height);
        // Element (1, 2) spans x 30..44 and y 8..15: its frame on all four sides, plain inside.
        expectPixel(got, r.width, 37, 12, rgba(pal.cell), "stretched cells, element (1, 2)'s centre");
        expectPixel(got, r.width, 30, 12, rgba(pal.loadedThisPhase), "stretched cells, element (1, 2)'s left edge");
        expectPixel(got, r.width, 44, 12, rgba(pal.loadedThisPhase), "stretched cells, element (1, 2)'s right edge");
        expectPixel(got, r.width, 37, 8, rgba(pal.loadedThisPhase), "stretched cells, element (1, 2)'s top edge");
        expectPixel(got, r.width, 37, 15, rgba(pal.loadedThisPhase), "stretched cells, element (1, 2)'s bottom edge");
        expectPixel(got, r.width, 37, 4, rgba(pal.cell), "stretched cells, element (0, 2) above it: plain");
        expectPixel(got, r.width, 52, 12, rgba(pal.cell), "stretched cells, element (1, 3) beside it: plain");
        image.setFlags(rows, cols, moved);   // as the checks below expect
    }

    // ---- 64 x 64 at a quarter pixel per element: one flagged element still shows ---------------
    const int big = 64;
    std::vector<uint8_t> bigFlags(big * big, 0);
    bigFlags[37 * big + 50] = kReadNow;
    HeatImage many;
    many.setFlags(big, big, bigFlags);
    HeatView q;
    q.cellW = 0.25f;
    q.cellH = 0.25f;
    q.width = q.height = 16;
    renderer.draw(many, q, colours);
    px = renderer.readBack(many, 16, 16);
    int yellow = 0;
    for (int y = 0; y < 16; ++y)
        for (int x = 0; x < 16; ++x) yellow += near(pixel(px, 16, x, y), rgba(pal.readNow)) ? 1 : 0;
    expectPixel(px, 16, 50 / 4, 37 / 4, rgba(pal.readNow), "element (37, 50) read this step, at 4 elements a pixel");
    expect(yellow == 1, "exactly one pixel shows the element read this step; got " + std::to_string(yellow));
    expectPixel(px, 16, 2, 2, rgba(pal.cell), "a pixel over untouched elements");

    // ---- load counts at half a pixel per element: the largest count under each pixel --------
    std::vector<float> loads(big * big, 1.0f);
    loads[10 * big + 20] = 9.0f;
    many.setScalars(loads, true);
    HeatView h;
    h.cellW = 0.5f;
    h.cellH = 0.5f;
    h.width = h.height = 32;
    h.mode = HeatMode::Loads;
    h.lo = 0;
    h.hi = 9;
    renderer.draw(many, h, colours);
    px = renderer.readBack(many, 32, 32);
    expectPixel(px, 32, 10, 5, rgba(heatColour(1.0f)), "the pixel over the element loaded 9 times shows 9 of 9");
    expectPixel(px, 32, 3, 3, rgba(heatColour(1.0f / 9.0f)), "a pixel over elements loaded once shows 1 of 9");

    // ---- outside the matrix: transparent ------------------------------------------------------
    HeatView out = v;
    out.firstCol = -1;   // one element's width of nothing on the left
    renderer.draw(image, out, colours);
    px = renderer.readBack(image, v.width, v.height);
    expect(pixel(px, v.width, 5, 5).a == 0, "left of the matrix the picture is transparent");
    expectPixel(px, v.width, 15, 5, rgba(pal.inShared), "element (0, 0) moved one element right");

    // ---- a shader that does not compile ------------------------------------------------------
    HeatmapRenderer broken;
    const std::string refused = broken.init(embeddedShader("heatmap.vert"), "#version 330 core\nvoid main() { oops; }\n");
    expect(refused.rfind("the fragment shader does not compile (", 0) == 0 && refused.find('\n') == std::string::npos,
           "a broken fragment shader is refused in one sentence; got '" + refused + "'");
    expect(!broken.ready(), "a refused renderer is not ready");

    image.release();
    many.release();
    renderer.release();
    glfwDestroyWindow(window);
    glfwTerminate();
    return finish("heatmap_pixels");
}
