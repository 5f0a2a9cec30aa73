// marks_check: the marks on the Matrices and Convolution panels' cells lie beside the values,
// never on them (issue 37, parts 4, 5 and 7), checked in the app's own frames in a hidden
// window: the panels record where they drew each value and each practice glyph
// (cell_canvas.hpp's recordCells), and the checks read the rendered picture there.
//
//  - Practice reveal of tiled-4x4 step 6 (the M tile of phase 1), answered M[0][0], M[0][2],
//    M[0][3], M[1][2]: M[0][2] is right (-0.280), M[0][0] wrong (-0.082), M[1][3] missed
//    (-0.223), all negative, and all but M[0][0] under this step's outline too. At 1280x720
//    at the desk and 1920x1080 on a slide, in both themes: each marked cell shows its value
//    with the minus sign (a dash of text pixels at the left of the value's box), no pixel of a
//    mark's colour (tick, cross, ring, this step, loaded this phase) lies in the value's box
//    or the pixel round it, and the glyph's square holds pixels of the mark's colour. The
//    Practice panel is shown, open, nothing cut off, and its lines end with "Why: ...".
//  - tiled-4x4 step 7 (the N tile loaded, the M tile "loaded this phase"): every value drawn
//    is clear of the marks' colours, negative ones under both outlines among them.
//  - P before it is computed: at step 0 of tiled-4x4 no value of P is drawn; at the last step
//    all 16 are.
//  - ragged-100x37x51-tile16 at its first zero-fill step opens zoomed: M's cells are at least
//    20 px at the desk (11 px at 1x on a slide), and the traced block's tile of M with its
//    zero-filled slots lies inside the Matrices panel.
//  - conv2d-tiled-tile8-mask5 (N 24 x 24) at step 0, whose cells are under the readable size:
//    the tile loaded by the step has one outline round it; its inner cells carry no pixel of
//    the "this step" colour (a frame on each cell would put some on every one).
//
// Prints one line per failed check and exits 1 if there is one, else prints
// "marks_check: N checks passed".
#include <GLFW/glfw3.h>
#include <imgui.h>
#include <imgui_internal.h>

#include <cfloat>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

#include "app.hpp"
#include "figure_notes.hpp"
#include "gui_check.hpp"
#include "layout.hpp"
#include "panels/cell_canvas.hpp"
#include "panels/panels.hpp"
#include "screenshot.hpp"
#include "sim/engine/provenance.hpp"

using namespace ts::app;
using namespace ts::test::gui;

namespace {

struct Rgb {
    int r = 0, g = 0, b = 0;
};

Rgb rgbOf(ImU32 c) { return Rgb{static_cast<int>(c & 0xFF), static_cast<int>((c >> 8) & 0xFF), static_cast<int>((c >> 16) & 0xFF)}; }

Rgb pixel(const Image& img, int x, int y)
{
    const unsigned char* p = &img.rgba[(static_cast<size_t>(y) * img.width + x) * 4];
    return Rgb{p[0], p[1], p[2]};
}

bool close(Rgb a, Rgb b, int tol) { return std::abs(a.r - b.r) <= tol && std::abs(a.g - b.g) <= tol && std::abs(a.b - b.b) <= tol; }

/// One app in a hidden window, its frames and its input (keys through ImGui's key state,
/// clicks through App::inputHook at the middle of the cell where a panel drew it).
class Driver {
public:
    Driver(const std::string& preset, int step, ImVec2 display, bool presentation, ThemeKind theme) : display_(display)
    {
        Options o;
        o.preset = ts::sim::findPreset(preset, panelNameList());
        o.step = step;
        o.width = o.height = 64;
        o.presentation = presentation;
        o.theme = theme;
        o.screenshot = "(marks_check)";   // offscreen: a hidden window, no settings
        app_ = std::make_unique<App>(o);
        openWithRetries(*app_);
        app_->inputHook = [this](ImGuiIO& io) {
            io.MousePos = mouse_;
            io.MouseDown[0] = down_;
            io.DeltaTime = 1.0f / 60.0f;
        };
        settle(*app_, display_);
        drawFrame();
    }

    App& app() { return *app_; }

    void drawFrame() { ts::test::gui::drawFrame(*app_, display_); }

    void key(int glfwKey)
    {
        ImGui::GetIO().KeysDown[glfwKey] = true;
        drawFrame();
        ImGui::GetIO().KeysDown[glfwKey] = false;
        drawFrame();
        settle(*app_, display_);
        drawFrame();
    }

    bool click(const CellRef& r)
    {
        const auto it = app_->view().practice.drawn.find(r);
        if (it == app_->view().practice.drawn.end()) return false;
        mouse_ = it->second.centre();
        drawFrame();
        down_ = true;
        drawFrame();
        down_ = false;
        drawFrame();
        mouse_ = ImVec2(-FLT_MAX, -FLT_MAX);
        settle(*app_, display_);
        drawFrame();
        return true;
    }

    /// The settled view, drawn once more with the cells recorded, and its picture.
    Image record()
    {
        settle(*app_, display_);
        DrawnCells& rec = recordCells();
        rec.values.clear();
        rec.grids.clear();
        rec.record = true;
        app_->prepareFrame();
        app_->renderFrame(display_);
        rec.record = false;
        Image img;
        const std::string e = renderImage(ImGui::GetDrawData(), static_cast<int>(display_.x), static_cast<int>(display_.y),
                                          app_->theme().palette.clear, img);
        expect(e.empty(), "the frame renders: " + e);
        app_->swapBuffers();
        // MARKS_CHECK_SHOTS=DIR keeps each picture checked, for a person to look at.
        if (const char* dir = std::getenv("MARKS_CHECK_SHOTS")) {
            static int n = 0;
            savePng(img, std::string(dir) + "/marks-" + std::to_string(n++) + ".png");
        }
        return img;
    }

    ImVec2 display() const { return display_; }

private:
    std::unique_ptr<App> app_;
    ImVec2 display_;
    ImVec2 mouse_{-FLT_MAX, -FLT_MAX};
    bool down_ = false;
};

/// The value drawn last in `cell` this frame (a panel drawn twice in a frame, as while the
/// layout measures it, records its cells twice; the last drawing is the one on screen).
const DrawnValue* valueOf(const std::string& cell)
{
    const DrawnValue* last = nullptr;
    for (const DrawnValue& v : recordCells().values)
        if (v.cell == cell) last = &v;
    return last;
}

/// The values drawn last, one per cell.
std::vector<const DrawnValue*> lastValues()
{
    std::vector<const DrawnValue*> out;
    for (const DrawnValue& v : recordCells().values)
        if (valueOf(v.cell) == &v) out.push_back(&v);
    return out;
}

/// The marks' colours of the palette.
std::vector<std::pair<const char*, ImU32>> markColours(const Palette& pal)
{
    return {{"right", pal.practiceRight},   {"wrong", pal.practiceWrong},           {"missed", pal.practiceMissed},
            {"this step", pal.readNow},     {"loaded this phase", pal.loadedThisPhase}};
}

/// Pixels of a mark's colour (other than the value's own backing) in the value's box and
/// the pixel round it; the first one found is named in `what`.
int markPixelsOnValue(const Image& img, const DrawnValue& v, const Palette& pal, std::string& what)
{
    const int x0 = static_cast<int>(std::floor(v.min.x)) - 1, y0 = static_cast<int>(std::floor(v.min.y)) - 1;
    const int x1 = static_cast<int>(std::ceil(v.max.x)) + 1, y1 = static_cast<int>(std::ceil(v.max.y)) + 1;
    const Rgb backing = pixel(img, static_cast<int>(v.min.x), static_cast<int>(v.min.y));
    int n = 0;
    for (const auto& [name, colour] : markColours(pal)) {
        const Rgb want = rgbOf(colour);
        if (close(want, backing, 12)) continue;   // a finished P's fill is the "right" green
        for (int y = std::max(0, y0); y < std::min(img.height, y1); ++y)
            for (int x = std::max(0, x0); x < std::min(img.width, x1); ++x)
                if (close(pixel(img, x, y), want, 6)) {
                    if (n++ == 0) what = std::string(name) + " at (" + std::to_string(x) + ", " + std::to_string(y) + ")";
                }
    }
    return n;
}

/// Whether the value's first character, a minus sign, shows: in the middle third of the box's
/// height, within the first character's width, a row with a run of at least 30 % of that
/// width (2 px or more) of pixels far from the backing (the dash).
bool minusShows(const Image& img, const DrawnValue& v)
{
    const int n = static_cast<int>(v.text.size());
    if (n == 0 || v.text[0] != '-') return false;
    const float adv = (v.max.x - v.min.x) / n;
    const Rgb backing = pixel(img, static_cast<int>(v.min.x), static_cast<int>(v.min.y));
    const int h = static_cast<int>(v.max.y - v.min.y);
    for (int y = static_cast<int>(v.min.y) + h / 3; y <= static_cast<int>(v.min.y) + 2 * h / 3; ++y) {
        int run = 0, best = 0;
        for (int x = static_cast<int>(v.min.x); x < static_cast<int>(v.min.x + adv); ++x) {
            const Rgb p = pixel(img, x, y);
            const int d = std::abs(p.r - backing.r) + std::abs(p.g - backing.g) + std::abs(p.b - backing.b);
            run = d > 150 ? run + 1 : 0;
            best = std::max(best, run);
        }
        if (best >= std::max(2.0f, 0.3f * adv)) return true;
    }
    return false;
}

int colourPixels(const Image& img, ImVec2 a, ImVec2 b, ImU32 colour, int tol = 6)
{
    int n = 0;
    for (int y = std::max(0, static_cast<int>(a.y)); y < std::min(img.height, static_cast<int>(std::ceil(b.y))); ++y)
        for (int x = std::max(0, static_cast<int>(a.x)); x < std::min(img.width, static_cast<int>(std::ceil(b.x))); ++x)
            n += close(pixel(img, x, y), rgbOf(colour), tol);
    return n;
}

/// Every value drawn is clear of the marks; returns how many negative ones there were.
int valuesClear(const Image& img, const Palette& pal, const std::string& when)
{
    int negative = 0;
    for (const DrawnValue* vp : lastValues()) {
        const DrawnValue& v = *vp;
        std::string what;
        const int n = markPixelsOnValue(img, v, pal, what);
        expect(n == 0, when + ": " + v.cell + " \"" + v.text + "\": " + std::to_string(n) +
                           " pixels of a mark's colour on its value, the first " + what);
        if (!v.text.empty() && v.text[0] == '-') {
            ++negative;
            expect(minusShows(img, v), when + ": " + v.cell + " \"" + v.text + "\": its minus sign shows");
        }
    }
    return negative;
}

void reveal(ImVec2 display, bool slide, ThemeKind theme)
{
    const std::string when = std::string(slide ? "slide " : "desk ") + std::to_string(static_cast<int>(display.x)) + "x" +
                             std::to_string(static_cast<int>(display.y)) +
                             (theme == ThemeKind::Light ? " light" : " dark") + ", tiled-4x4 step 6 revealed";
    Driver d("tiled-4x4", 5, display, slide, theme);
    d.key(GLFW_KEY_P);
    d.key(GLFW_KEY_RIGHT);
    for (auto [r, c] : {std::pair{0, 2}, {0, 3}, {1, 2}, {0, 0}})
        expect(d.click(CellRef{"M", ts::sim::Cell{r, c}}), when + ": M[" + std::to_string(r) + "][" + std::to_string(c) + "] is drawn");
    d.key(GLFW_KEY_ENTER);
    const Practice& p = d.app().view().practice;
    expect(p.revealed && d.app().view().cursor == 6, when + ": Enter reveals step 6");
    const Image img = d.record();
    const Palette& pal = d.app().theme().palette;
    struct Want {
        const char* cell;
        const char* mark;
        ImU32 colour;
    };
    for (const Want& w : {Want{"M[0][2]", "right", pal.practiceRight}, Want{"M[0][0]", "wrong", pal.practiceWrong},
                          Want{"M[1][3]", "missed", pal.practiceMissed}}) {
        const DrawnValue* v = valueOf(w.cell);
        expect(v != nullptr, when + ": " + w.cell + " (" + w.mark + ") shows its value");
        if (!v) continue;
        expect(!v->text.empty() && v->text[0] == '-', when + ": " + w.cell + "'s value is negative: " + v->text);
        expect(minusShows(img, *v), when + ": " + w.cell + " \"" + v->text + "\" shows its minus sign beside the " + w.mark + " mark");
        std::string what;
        const int n = markPixelsOnValue(img, *v, pal, what);
        expect(n == 0, when + ": no mark on " + w.cell + "'s value; " + std::to_string(n) + " pixels, the first " + what);
        const float g = v->glyphMax.x - v->glyphMin.x;
        expect(g >= 7 * d.app().theme().scale - 0.5f,
               when + ": " + w.cell + " has a glyph square of at least 7 px at 1x; " + std::to_string(g));
        const int glyph = colourPixels(img, v->glyphMin, v->glyphMax, w.colour);
        expect(glyph >= 6, when + ": the " + w.mark + " glyph of " + w.cell + " shows: " + std::to_string(glyph) + " pixels");
    }
    valuesClear(img, pal, when);
    // The Practice panel on the desk and on the slide, with its reason.
    const ImGuiWindow* w = ImGui::FindWindowByName("Practice");
    expect(w && w->WasActive && !w->Collapsed, when + ": the Practice panel is shown and open");
    const std::vector<std::string> lines = practiceLines(p, d.app().loaded());
    expect(!lines.empty() && lines.back().rfind("Why: ", 0) == 0, when + ": the Practice panel ends with its 'Why:' line");
    for (const Clipped& c : clippedContent(display, slide))
        if (c.panel == "Practice") expect(false, when + ": " + c.panel + ": " + c.what);
}

void phaseOutlines(ImVec2 display, bool slide, ThemeKind theme)
{
    const std::string when = std::string(slide ? "slide" : "desk") + (theme == ThemeKind::Light ? " light" : " dark") +
                             ", tiled-4x4 step 7";
    Driver d("tiled-4x4", 7, display, slide, theme);
    const Image img = d.record();
    const int negative = valuesClear(img, d.app().theme().palette, when);
    expect(negative >= 4, when + ": negative values drawn: " + std::to_string(negative));
    // Under the M tile's "loaded this phase" outline and the N tile's "this step" one.
    for (const char* cell : {"M[0][2]", "M[1][3]", "N[2][0]", "N[3][0]", "N[3][1]"}) {
        const DrawnValue* v = valueOf(cell);
        expect(v && v->text[0] == '-', when + ": " + cell + " shows a negative value");
    }
}

void pBeforeStored()
{
    Driver d("tiled-4x4", 0, ImVec2(1280, 720), false, ThemeKind::Dark);
    d.record();
    int p = 0;
    for (const DrawnValue* v : lastValues()) p += v->cell.rfind("P[", 0) == 0;
    expect(p == 0, "tiled-4x4 step 0: no value of P is drawn before any block stored it; " + std::to_string(p) + " are");
    App& app = d.app();
    app.view().cursor = static_cast<int>(app.loaded().sim->trace.steps.size()) - 1;
    d.record();
    p = 0;
    for (const DrawnValue* v : lastValues()) p += v->cell.rfind("P[", 0) == 0;
    expect(p == 16, "tiled-4x4 last step: all 16 values of P are drawn; " + std::to_string(p) + " are");
}

void raggedZoom()
{
    // Its first step that zero-fills a slot (the phase whose tile of M passes column 37).
    int step = -1;
    {
        Driver probe("ragged-100x37x51-tile16", 0, ImVec2(1280, 720), false, ThemeKind::Dark);
        const ts::sim::Trace& t = probe.app().loaded().sim->trace;
        for (size_t s = 0; s < t.steps.size() && step < 0; ++s)
            for (int e = t.steps[s].begin; e < t.steps[s].end; ++e)
                if (t.events[e].op == ts::sim::Op::ZeroFill) {
                    step = static_cast<int>(s);
                    break;
                }
    }
    expect(step >= 0, "ragged-100x37x51-tile16 has a zero-fill step");
    if (step < 0) return;
    for (bool slide : {false, true}) {
        const ImVec2 display = slide ? ImVec2(1920, 1080) : ImVec2(1280, 720);
        const std::string when = std::string("ragged-100x37x51-tile16 step ") + std::to_string(step) + (slide ? " on a slide" : " at the desk");
        Driver d("ragged-100x37x51-tile16", step, display, slide, ThemeKind::Dark);
        d.record();
        const DrawnGrid* m = nullptr;
        for (const DrawnGrid& g : recordCells().grids)
            if (g.name == "M") m = &g;
        expect(m != nullptr, when + ": M is drawn as cells");
        if (!m) continue;
        const float scale = d.app().theme().scale;
        // 20 px at the desk; on a slide the panel holds the 16 rows of the tile and its
        // margin at about 11 px at 1x (22 px at 2x: the legend's band above the cells, which
        // it no longer covers, takes the rest).
        const float least = (slide ? 11.0f : 20.0f) * scale;
        expect(m->grid.side() >= least - 0.01f, when + ": M's cells are at least " + std::to_string(least) +
                                                    " px: " + std::to_string(m->grid.side()));
        // The traced block's tile of M in this phase, its zero-filled slots past M's edge included.
        const ImGuiWindow* w = ImGui::FindWindowByName(panelTable()[panelId("matrices")].title);
        expect(w && w->WasActive, when + ": the Matrices panel is shown");
        if (!w) continue;
        const ts::sim::Simulation& sim = *d.app().loaded().sim;
        const auto tile = ts::sim::phaseTileOf(sim.trace, sim.trace.steps[step].phase, sim.arrayIndex("M"));
        expect(tile.has_value(), when + ": the step loads a tile of M");
        if (!tile) continue;
        const int t = sim.scenario.tile;
        const ImVec2 a = m->grid.at(static_cast<float>(tile->row0), static_cast<float>(tile->col0));
        const ImVec2 b = m->grid.at(static_cast<float>(tile->row0 + t), static_cast<float>(tile->col0 + t));
        const ImRect inner = w->InnerRect;
        expect(a.x >= inner.Min.x && a.y >= inner.Min.y && b.x <= inner.Max.x + 1 && b.y <= inner.Max.y + 1,
               when + ": the zero-filled tile of M lies inside the panel");
        // And the user can still zoom out: a double click... the zoom slider goes down to 0.5x.
        expect(d.app().view().zoom > 1.0f, when + ": the view opens zoomed in: " + std::to_string(d.app().view().zoom));
    }
}

void convTileOutline()
{
    for (ThemeKind theme : {ThemeKind::Dark, ThemeKind::Light}) {
        const std::string when = std::string("conv2d-tiled-tile8-mask5 step 0") + (theme == ThemeKind::Light ? " light" : " dark");
        Driver d("conv2d-tiled-tile8-mask5", 0, ImVec2(1280, 720), false, theme);
        const Image img = d.record();
        const DrawnGrid* n = nullptr;
        for (const DrawnGrid& g : recordCells().grids)
            if (g.name == "N") n = &g;
        expect(n != nullptr, when + ": the Convolution panel records N");
        if (!n) continue;
        expect(n->grid.side() < 20, when + ": N's cells are below the readable size: " + std::to_string(n->grid.side()));
        // Step 0 loads the 12 x 12 input tile of block (1, 1): rows and columns 6 to 17.
        const ImU32 yellow = d.app().theme().palette.readNow;
        int inner = 0, cells = 0;
        for (int r = 7; r <= 16; ++r)
            for (int c = 7; c <= 16; ++c) {
                const ImVec2 a = n->grid.at(static_cast<float>(r), static_cast<float>(c));
                inner += colourPixels(img, a, ImVec2(a.x + n->grid.cell.x - 1, a.y + n->grid.cell.y - 1), yellow);
                ++cells;
            }
        expect(inner == 0, when + ": the " + std::to_string(cells) + " inner cells of the loaded tile carry no frame; " +
                               std::to_string(inner) + " pixels of the 'this step' colour");
        int border = 0;
        for (int c = 6; c <= 17; ++c) {
            const ImVec2 a = n->grid.at(6.0f, static_cast<float>(c));
            border += colourPixels(img, a, ImVec2(a.x + n->grid.cell.x, a.y + n->grid.cell.y), yellow);
        }
        expect(border >= 12 * n->grid.cell.x * 0.5f, when + ": the tile's top edge is outlined: " + std::to_string(border) + " pixels");
        // The Shared memory panel's N_ds (16 x 16 slots of which the step writes the top-left
        // 12 x 12) alike: no frame inside the written slots, an outline along their edge.
        const FigureNote* shared = nullptr;
        for (const FigureNote& note : figureNotes())
            if (note.window == "Shared memory") shared = &note;
        expect(shared != nullptr, when + ": the Shared memory panel draws N_ds");
        if (!shared) continue;
        // (The figure is the grid under its name's line.)
        const float slot = (shared->max.y - shared->min.y - ImGui::GetTextLineHeightWithSpacing()) / 16;
        const ImVec2 o(shared->min.x, shared->max.y - 16 * slot);
        expect(slot < 14, when + ": N_ds's slots are below the readable size: " + std::to_string(slot));
        const int insideN = colourPixels(img, ImVec2(o.x + slot + 1, o.y + slot + 1), ImVec2(o.x + 11 * slot - 1, o.y + 11 * slot - 1), yellow);
        expect(insideN == 0, when + ": N_ds's written slots inside the tile carry no frame; " + std::to_string(insideN) +
                                 " pixels of the 'this step' colour");
        const int edgeN = colourPixels(img, o, ImVec2(o.x + 12 * slot, o.y + slot), yellow);
        expect(edgeN >= 12 * slot * 0.5f, when + ": N_ds's written slots are outlined along the top: " + std::to_string(edgeN) + " pixels");
    }
}

}  // namespace

int main()
{
    reveal(ImVec2(1280, 720), false, ThemeKind::Dark);
    reveal(ImVec2(1280, 720), false, ThemeKind::Light);
    reveal(ImVec2(1920, 1080), true, ThemeKind::Light);
    reveal(ImVec2(1920, 1080), true, ThemeKind::Dark);
    phaseOutlines(ImVec2(1280, 720), false, ThemeKind::Dark);
    phaseOutlines(ImVec2(1920, 1080), true, ThemeKind::Light);
    pBeforeStored();
    raggedZoom();
    convTileOutline();
    return finish("marks_check");
}
