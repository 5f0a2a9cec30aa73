// practice_check: whole rounds of practice mode (docs/practice.md) through the app's own
// frames and input, in a hidden window: keys go down and up through ImGui's key state as the
// GLFW backend fills it, and clicks are the mouse given through App::inputHook over the
// middle of the cell where the panel drew it in the frame before.
//
//  - At the desk (1600x900, dark), tiled-4x4 from step 5: P switches practice mode on and
//    shows the Practice panel; Right asks step 6's question (the instructor's: the M tile
//    block (0,0) loads in phase 1) and keeps step 5 on screen; clicks on M[0][2], M[0][3],
//    M[1][2] and M[0][0] choose them, a click on P is refused with a sentence and traces no
//    block; Enter reveals: score 0 of 1, step 6 shown, the Practice panel's text, and in the
//    picture M[0][2] framed in the "right" colour, M[0][0] in the "wrong" one, M[1][3] in the
//    "missed" one, M[2][2] in none. Right, a click on N[2][1] and Enter: 1 of 2. R restarts.
//  - In presentation mode (1920x1080, light theme): the slide shows the Practice panel (its
//    verdict and "Why:" line; issue 37) and its caption gives the question, the answer
//    clicked so far and, once revealed, the verdict and the score; Page Down (a clicker)
//    does not reveal; Enter does. Nothing is cut off.
//  - A convolution (conv1d-tiled-tile8-mask5): a question answered by clicking N or threads.
//  - A question of step 0 (a scenario file's tile question) is asked with the state before
//    the first step on screen: M[0][0] has no frame of step 0's colour until the reveal.
//  - Cells under 6 px (a 256 x 256 product): the reveal's marks are squares in the marks'
//    colours, counted in the picture, and the Practice panel's legend line is on.
// Nothing is cut off (layout.hpp's clippedContent) while a question waits and once revealed.
//
// Prints one line per failed check and exits 1 if there is one, else prints
// "practice_check: N checks passed".
#include <GLFW/glfw3.h>
#include <imgui.h>
#include <imgui_internal.h>

#include <cfloat>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <string>
#include <stdexcept>
#include <thread>

#include <unistd.h>

#include "app.hpp"
#include "layout.hpp"
#include "panels/panels.hpp"
#include "screenshot.hpp"

using namespace ts::app;

namespace {

int failures = 0, checks = 0;

void expect(bool ok, const std::string& what)
{
    ++checks;
    if (!ok) {
        ++failures;
        std::printf("FAIL: %s\n", what.c_str());
    }
}

bool contains(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

/// One app, its frames and its input.
class Driver {
public:
    Driver(const std::string& preset, int step, ImVec2 display, bool presentation, ThemeKind theme)
        : display_(display)
    {
        Options o;
        o.preset = ts::sim::findPreset(preset, panelNameList());
        o.step = step;
        o.width = o.height = 64;
        o.presentation = presentation;
        o.theme = theme;
        o.screenshot = "(practice_check)";   // offscreen: a hidden window, no settings
        app_ = std::make_unique<App>(o);
        for (int attempt = 1;; ++attempt) {
            try {
                app_->open();
                break;
            } catch (const RunError&) {
                if (attempt == 5) throw;
                std::this_thread::sleep_for(std::chrono::milliseconds(300));
            }
        }
        app_->inputHook = [this](ImGuiIO& io) {
            io.MousePos = mousePos_;
            io.MouseDown[0] = mouseDown_;
            io.DeltaTime = 1.0f / 60.0f;
        };
        settle();
    }

    App& app() { return *app_; }
    Practice& practice() { return app_->view().practice; }
    std::vector<std::string> lines() { return practiceLines(practice(), app_->loaded()); }

    void frame()
    {
        app_->prepareFrame();
        app_->renderFrame(display_);
        app_->swapBuffers();
    }

    /// Until the app is ready and the layout stands still, for at most 90 s.
    void settle()
    {
        int settled = 0;
        const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(90);
        while (std::chrono::steady_clock::now() < deadline) {
            frame();
            if (!app_->ready()) std::this_thread::sleep_for(std::chrono::milliseconds(2));
            if (app_->ready() && ++settled > 3 && (layoutSteadyFrames() >= 2 || settled > 33)) return;
        }
    }

    /// A key down for one frame, up the next.
    void key(int glfwKey)
    {
        ImGui::GetIO().KeysDown[glfwKey] = true;
        frame();
        ImGui::GetIO().KeysDown[glfwKey] = false;
        frame();
        settle();
    }

    /// A click in the middle of cell `r` where a panel drew it; false if none did.
    bool click(const CellRef& r)
    {
        settle();
        const auto it = practice().drawn.find(r);
        if (it == practice().drawn.end()) return false;
        mousePos_ = it->second.centre();
        frame();
        mouseDown_ = true;
        frame();
        mouseDown_ = false;
        frame();
        mousePos_ = ImVec2(-FLT_MAX, -FLT_MAX);
        settle();
        return true;
    }

    /// The last frame as a picture.
    Image picture()
    {
        Image img;
        const std::string e = renderImage(ImGui::GetDrawData(), static_cast<int>(display_.x),
                                          static_cast<int>(display_.y), app_->theme().palette.clear, img);
        expect(e.empty(), "the frame renders: " + e);
        return img;
    }

    /// Pixels of `img` within the cell `r` was drawn at whose colour is `colour` (within 2 per channel).
    int pixels(const Image& img, const CellRef& r, ImU32 colour)
    {
        const auto it = practice().drawn.find(r);
        if (it == practice().drawn.end()) return -1;
        const int want[3] = {static_cast<int>(colour & 0xFF), static_cast<int>((colour >> 8) & 0xFF),
                             static_cast<int>((colour >> 16) & 0xFF)};
        int n = 0;
        for (int y = static_cast<int>(it->second.min.y); y <= static_cast<int>(it->second.max.y); ++y)
            for (int x = static_cast<int>(it->second.min.x); x <= static_cast<int>(it->second.max.x); ++x) {
                if (x < 0 || y < 0 || x >= img.width || y >= img.height) continue;
                const unsigned char* p = &img.rgba[(static_cast<size_t>(y) * img.width + x) * 4];
                bool close = true;
                for (int c = 0; c < 3; ++c) close = close && std::abs(p[c] - want[c]) <= 2;
                n += close;
            }
        return n;
    }

    /// Nothing cut off, and the Practice panel shown and open (`panel`) or not shown.
    void expectLaidOut(const std::string& when, bool panel = true)
    {
        for (const Clipped& c : clippedContent(display_, app_->view().presentation))
            expect(false, when + ": " + c.panel + ": " + c.what);
        const ImGuiWindow* w = ImGui::FindWindowByName("Practice");
        const bool shown = w && w->WasActive && !w->Collapsed;
        expect(shown == panel, when + (panel ? ": the Practice panel is shown and open" : ": no Practice panel"));
    }

private:
    std::unique_ptr<App> app_;
    ImVec2 display_;
    ImVec2 mousePos_{-FLT_MAX, -FLT_MAX};
    bool mouseDown_ = false;
};

CellRef M(int r, int c) { return CellRef{"M", ts::sim::Cell{r, c}}; }

void desk()
{
    Driver d("tiled-4x4", 5, ImVec2(1600, 900), false, ThemeKind::Dark);
    App& app = d.app();
    Practice& p = d.practice();
    expect(app.view().cursor == 5, "tiled-4x4 opens at step 5");
    d.key(GLFW_KEY_P);
    expect(p.on, "P switches practice mode on");
    expect(app.view().open[panelId("practice")], "the Practice panel opens with it");
    d.key(GLFW_KEY_RIGHT);
    expect(p.question && p.step == 6 && !p.revealed, "Right asks step 6's question");
    expect(app.view().cursor == 5, "the step asked about is not shown before the reveal");
    std::vector<std::string> l = d.lines();
    expect(l.size() >= 4 && contains(l[1], "Step 6 (the instructor's question): Which elements of M does block (bx=0, "
                                           "by=0) load into Mds in phase 1?"),
           "the Practice panel asks the question; got '" + (l.size() > 1 ? l[1] : "") + "'");
    expect(contains(practiceCaption(p), "Question for step 6: Which elements of M"), "the caption asks it too");
    d.expectLaidOut("desk, question waiting");
    for (const CellRef& c : {M(0, 2), M(0, 3), M(1, 2), M(0, 0)}) expect(d.click(c), "a panel draws " + cellRefText(c, false));
    expect(p.chosen == std::set<ts::sim::Cell>{{0, 0}, {0, 2}, {0, 3}, {1, 2}}, "the four clicked cells are chosen");
    const ts::sim::Uint3 block = app.loaded().sim->trace.block;
    const int thread = app.view().thread;
    expect(d.click(CellRef{"P", ts::sim::Cell{3, 3}}), "a panel draws P[3][3]");
    for (int i = 0; i < 40; ++i) d.frame();   // past the double-click time, when a click on P would trace
    d.settle();
    expect(p.notice == "This question asks for elements of M; P[3][3] is not one, so it is not taken.",
           "a click on P is refused with a sentence; got '" + p.notice + "'");
    expect(app.loaded().sim->trace.block.x == block.x && app.loaded().sim->trace.block.y == block.y &&
               app.view().thread == thread,
           "the refused click traces no block and selects no thread");
    expect(p.chosen.size() == 4, "and is not taken");
    d.key(GLFW_KEY_ENTER);
    expect(p.revealed && p.asked == 1 && p.right == 0, "Enter reveals: 0 of 1");
    expect(app.view().cursor == 6, "the reveal shows step 6");
    l = d.lines();
    expect(l.size() >= 7 && l[0] == "Score: 0 of 1 right" && l[2] == "Not quite." &&
               l[3] == "Your answer: M[0][0], M[0][2], M[0][3], M[1][2]." &&
               l[4] == "The answer: M[0][2], M[0][3], M[1][2], M[1][3]." &&
               l[5] == "Marked: 3 right, 1 wrong, 1 missed." &&
               contains(l[6], "Why: Line 34, `Mds[ty][tx] = M[Row*k + ph*TILE_WIDTH + tx];`"),
           "the Practice panel says the verdict, both answers, the marks and the kernel line");
    d.expectLaidOut("desk, revealed");
    const Palette& pal = app.theme().palette;
    const Image img = d.picture();
    const int right = d.pixels(img, M(0, 2), pal.practiceRight), wrong = d.pixels(img, M(0, 0), pal.practiceWrong),
              missed = d.pixels(img, M(1, 3), pal.practiceMissed);
    std::printf("practice_check: desk reveal: %d, %d and %d pixels of the right, wrong and missed colours\n", right,
                wrong, missed);
    expect(right >= 200, "M[0][2] is framed in the 'right' colour: " + std::to_string(right) + " pixels");
    expect(wrong >= 200, "M[0][0] is framed in the 'wrong' colour: " + std::to_string(wrong) + " pixels");
    expect(missed >= 80, "M[1][3] is framed in the 'missed' colour: " + std::to_string(missed) + " pixels");
    expect(d.pixels(img, M(0, 2), pal.practiceWrong) == 0 && d.pixels(img, M(0, 0), pal.practiceRight) == 0,
           "a right cell has no 'wrong' frame and a wrong cell no 'right' one");
    for (ImU32 c : {pal.practiceRight, pal.practiceWrong, pal.practiceMissed})
        expect(d.pixels(img, M(2, 2), c) == 0, "M[2][2], not asked about, is not marked");
    // The next question, answered right.
    d.key(GLFW_KEY_RIGHT);
    expect(p.question && p.step == 7 && !p.revealed, "Right asks step 7's question");
    expect(d.click(CellRef{"N", ts::sim::Cell{2, 1}}), "a panel draws N[2][1]");
    d.key(GLFW_KEY_ENTER);
    expect(p.revealed && p.grade.correct && d.lines()[0] == "Score: 1 of 2 right", "N[2][1] is right: 1 of 2");
    expect(d.pixels(d.picture(), CellRef{"N", ts::sim::Cell{2, 1}}, pal.practiceRight) >= 200, "N[2][1] is marked right");
    d.key(GLFW_KEY_R);
    expect(d.lines()[0] == "Score: 0 of 0 right" && app.view().cursor == 0 && !p.question,
           "R restarts: 0 of 0, the first step");
}

void slide()
{
    Driver d("tiled-4x4", 5, ImVec2(1920, 1080), true, ThemeKind::Light);
    App& app = d.app();
    Practice& p = d.practice();
    d.key(GLFW_KEY_P);
    d.key(GLFW_KEY_PAGE_DOWN);
    expect(p.question && p.step == 6 && app.view().cursor == 5, "on a slide Page Down asks step 6's question");
    d.expectLaidOut("slide, question waiting");
    d.key(GLFW_KEY_PAGE_DOWN);
    expect(!p.revealed && app.view().cursor == 5, "Page Down again does not reveal: the reveal waits for Enter");
    expect(d.click(M(0, 2)), "the slide's Matrices panel draws M[0][2]");
    expect(practiceCaption(p, true) == "Question for step 6: Which elements of M does block (bx=0, by=0) load into Mds "
                                       "in phase 1? (answer so far: M[0][2]; Enter reveals)",
           "the slide's caption gives the answer so far; got '" + practiceCaption(p, true) + "'");
    d.key(GLFW_KEY_ENTER);
    expect(p.revealed && app.view().cursor == 6 && d.lines()[0] == "Score: 0 of 1 right", "Enter reveals on the slide");
    expect(practiceCaption(p, true) ==
               "Step 6: not quite; the answer is M[0][2], M[0][3], M[1][2], M[1][3]. Score: 0 of 1.",
           "the slide's caption gives the verdict and the score; got '" + practiceCaption(p, true) + "'");
    d.expectLaidOut("slide, revealed");
    expect(d.lines().back().rfind("Why: ", 0) == 0, "the slide's Practice panel gives the reason (Why:)");
    const Palette& pal = app.theme().palette;
    const Image img = d.picture();
    const int right = d.pixels(img, M(0, 2), pal.practiceRight);
    expect(right >= 200, "on the slide M[0][2] is marked right (light theme); " + std::to_string(right) + " pixels");
    expect(d.pixels(img, M(1, 3), pal.practiceMissed) >= 80, "and M[1][3] missed");
    // The Practice panel opened on the slide from the View menu.
    app.view().open[panelId("practice")] = true;
    d.settle();
    d.expectLaidOut("slide, Practice panel opened");
}

/// A convolution: each question of the first steps answered by clicking what it asks for,
/// the first cell the answer names (cells of N, slots of N_ds or threads).
void convolution()
{
    Driver d("conv1d-tiled-tile8-mask5", 0, ImVec2(1600, 900), false, ThemeKind::Dark);
    App& app = d.app();
    Practice& p = d.practice();
    d.key(GLFW_KEY_P);
    int clicked = 0;
    for (int i = 0; i < 8 && app.view().cursor < 8; ++i) {
        d.key(GLFW_KEY_RIGHT);
        if (!p.question || p.revealed) continue;
        const ts::sim::Question& q = *p.question;
        if (q.answer.shape == ts::sim::AnswerShape::Cells || q.answer.shape == ts::sim::AnswerShape::Slot) {
            const std::string array = answerArray(q, app.loaded().sim->scenario);
            for (const ts::sim::Cell& c : q.answer.cells) {
                const bool drawn = d.click(CellRef{array, c});
                expect(drawn, "step " + std::to_string(p.step) + ": a panel draws " + cellRefText({array, c}, true));
                clicked += drawn;
            }
            d.key(GLFW_KEY_ENTER);
            expect(p.revealed && p.grade.correct, "step " + std::to_string(p.step) + ": every cell of the answer clicked is right");
        } else {
            const int asked = p.asked;
            d.key(GLFW_KEY_ENTER);   // nothing typed: refused, not counted
            expect(!p.revealed && p.noticeIsError && p.asked == asked, "an empty typed answer is refused and not counted");
            practiceType(p, q.answer.shape == ts::sim::AnswerShape::Number ? std::to_string(q.answer.number) : q.answer.name);
            d.key(GLFW_KEY_ENTER);
            expect(p.revealed && p.grade.correct, "step " + std::to_string(p.step) + ": the typed answer is right");
        }
        d.expectLaidOut("convolution, step " + std::to_string(app.view().cursor));
    }
    std::printf("practice_check: convolution: %d questions, %d cells clicked\n", p.asked, clicked);
    expect(clicked > 0, "some convolution question was answered by clicks");
}

/// A scenario file in the temporary folder: `body` and one [[question]], the tile of M that
/// block (0,0) loads in phase 0 (step 0, asked before the first step is shown).
std::string tempScenario(const std::string& name, const std::string& body)
{
    const std::string path = "/tmp/practice_check-" + std::to_string(::getpid()) + "-" + name + ".toml";
    std::FILE* f = std::fopen(path.c_str(), "w");
    if (!f) throw std::runtime_error("cannot write " + path);
    std::fputs((body + "\n[[question]]\nkind = \"block-tile\"\nblock = [0, 0]\nphase = 0\narray = \"M\"\n").c_str(), f);
    std::fclose(f);
    return path;
}

/// A question of step 0 is asked with the state before the first step on screen: M[0][0],
/// which step 0 loads, has no frame of the step's colour until the reveal shows step 0.
void firstStepHidden()
{
    const std::string file = tempScenario("first", "kernel = \"matmul-tiled\"\nwidth = 4\ntile = 2\nstep = 0\n");
    Driver d(file, 0, ImVec2(1600, 900), false, ThemeKind::Dark);
    App& app = d.app();
    Practice& p = d.practice();
    const Palette& pal = app.theme().palette;
    d.key(GLFW_KEY_P);
    const int shown = d.pixels(d.picture(), M(0, 0), pal.readNow);
    d.key(GLFW_KEY_RIGHT);
    expect(p.question && p.step == 0 && app.view().cursor == -1, "step 0's question is asked before step 0 is shown");
    const int hidden = d.pixels(d.picture(), M(0, 0), pal.readNow);
    expect(contains(captionLine(captionText(app.loaded(), app.view())), "before the first step"),
           "the caption says the state is before the first step");
    for (const CellRef& c : {M(0, 0), M(0, 1), M(1, 0), M(1, 1)}) d.click(c);
    d.key(GLFW_KEY_ENTER);
    expect(p.revealed && p.grade.correct && app.view().cursor == 0, "the reveal shows step 0");
    const int revealed = d.pixels(d.picture(), M(0, 0), pal.readNow);
    std::printf("practice_check: step 0's colour on M[0][0]: %d pixels before the question, %d while asked, %d revealed\n",
                shown, hidden, revealed);
    expect(shown > 20 && revealed > 20, "step 0 frames M[0][0] in its colour when shown");
    expect(hidden == 0, "while step 0's question waits, M[0][0] has no frame of step 0's colour: " + std::to_string(hidden));
    std::remove(file.c_str());
}

/// Cells under 6 px (a 256 x 256 product, about 1.5 px an element at the desk): the reveal
/// still marks the cells, each a square in its mark's colour, and the Practice panel says so.
void smallCells()
{
    const std::string file = tempScenario("small", "kernel = \"matmul-tiled\"\nwidth = 256\ntile = 16\nstep = 0\n");
    Driver d(file, 0, ImVec2(1600, 900), false, ThemeKind::Dark);
    App& app = d.app();
    Practice& p = d.practice();
    // A 256 x 256 product opens zoomed to the traced block's tile; the marks under 6 px are
    // those of the fitted view (zoom 1, as a double click or 0 gives).
    app.view().zoom = 1.0f;
    d.settle();
    d.key(GLFW_KEY_P);
    d.key(GLFW_KEY_RIGHT);
    expect(p.question && p.question->spec.kind == ts::sim::QuestionKind::BlockTile, "the tile question is asked");
    practiceType(p, "M[0][0], M[5][5], M[40][40]");
    d.key(GLFW_KEY_ENTER);
    expect(p.revealed && p.grade.right.size() == 2 && p.grade.wrong.size() == 1 && p.grade.missed.size() == 254,
           "typed cells graded: 2 right, 1 wrong, 254 missed");
    d.settle();
    const Palette& pal = app.theme().palette;
    const Image img = d.picture();
    const int right = d.pixels(img, M(5, 5), pal.practiceRight), wrong = d.pixels(img, M(40, 40), pal.practiceWrong),
              missed = d.pixels(img, M(15, 15), pal.practiceMissed);
    std::printf("practice_check: small cells: %d, %d and %d pixels of the right, wrong and missed colours\n", right,
                wrong, missed);
    expect(right >= 9, "M[5][5] (under 6 px) is marked in the 'right' colour: " + std::to_string(right));
    expect(wrong >= 9, "M[40][40] is marked in the 'wrong' colour: " + std::to_string(wrong));
    expect(missed >= 4, "M[15][15] is marked in the 'missed' colour: " + std::to_string(missed));
    expect(d.pixels(img, M(40, 40), pal.practiceRight) == 0, "the wrong cell has no 'right' colour");
    expect(p.smallMarks, "the Practice panel is told that small marks are drawn (its legend line)");
    d.expectLaidOut("small cells, revealed");
    std::remove(file.c_str());
}

}  // namespace

int main(int argc, char**)
{
    if (argc != 1) {
        std::fprintf(stderr, "usage: practice_check\n");
        return 2;
    }
    try {
        desk();
        slide();
        convolution();
        firstStepHidden();
        smallCells();
    } catch (const std::exception& e) {
        std::printf("FAIL: %s\n", e.what());
        return 1;
    }
    if (failures) {
        std::printf("practice_check: %d of %d checks failed\n", failures, checks);
        return 1;
    }
    std::printf("practice_check: %d checks passed\n", checks);
    return 0;
}
