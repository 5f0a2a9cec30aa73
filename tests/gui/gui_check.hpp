// What the GUI check programs of tests/gui share: a count of checks whose failures print
// "FAIL: what" (CTest's FAIL_REGULAR_EXPRESSION for them), the summary line their
// PASS_REGULAR_EXPRESSION looks for ("NAME: N checks passed"), and the app's start-up in a
// hidden window: opening it with retries and drawing frames until it is ready and its
// layout steady. Header-only; a program that uses no App only needs the counting part.
#pragma once
#include <chrono>
#include <cstdio>
#include <string>
#include <thread>

#include "app.hpp"
#include "layout.hpp"

namespace ts::test::gui {

/// The checks made so far and how many failed.
struct CheckCount {
    int checks = 0, failures = 0;
};

/// The program's one count.
inline CheckCount& checkCount()
{
    static CheckCount c;
    return c;
}

/// One check: counted, and "FAIL: what" printed when `ok` is false.
inline void expect(bool ok, const std::string& what)
{
    CheckCount& c = checkCount();
    ++c.checks;
    if (!ok) {
        ++c.failures;
        std::printf("FAIL: %s\n", what.c_str());
    }
}

/// Whether any check failed so far.
inline bool anyFailed() { return checkCount().failures > 0; }

/// Prints the summary, "PROGRAM: N checks passed" or "PROGRAM: F of N checks failed", and
/// returns the exit status: 0 when every check passed, 1 otherwise.
inline int finish(const char* program)
{
    const CheckCount& c = checkCount();
    if (c.failures) {
        std::printf("%s: %d of %d checks failed\n", program, c.failures, c.checks);
        return 1;
    }
    std::printf("%s: %d checks passed\n", program, c.checks);
    return 0;
}

/// Opens the app's window; a loaded X server (Xvfb beside parallel builds) now and then
/// refuses a connection, so a failed start is tried again: 5 attempts, 300 ms apart, and
/// the last one's RunError is thrown.
inline void openWithRetries(app::App& app)
{
    for (int attempt = 1;; ++attempt) {
        try {
            app.open();
            return;
        } catch (const app::RunError&) {
            if (attempt == 5) throw;
            std::this_thread::sleep_for(std::chrono::milliseconds(300));
        }
    }
}

/// One frame of the app laid out at `display` (pixels), shown.
inline void drawFrame(app::App& app, ImVec2 display)
{
    app.prepareFrame();
    app.renderFrame(display);
    app.swapBuffers();
}

/// Draws frames until the app is ready and its layout steady, as `tilescope --screenshot`
/// does before its picture: at least `least` frames after it is ready, and until the layout
/// has placed every panel as in the frame before twice in a row (or 30 more frames have
/// passed), for at most 90 s of wall time (a hidden window's frame may take a millisecond).
/// The last frame is left unshown, so that the caller sees it as drawn.
inline void settle(app::App& app, ImVec2 display, int least = 3)
{
    int settled = 0;
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(90);
    while (std::chrono::steady_clock::now() < deadline) {
        app.prepareFrame();
        app.renderFrame(display);
        if (!app.ready()) std::this_thread::sleep_for(std::chrono::milliseconds(2));
        if (app.ready() && ++settled > least && (app::layoutSteadyFrames() >= 2 || settled > least + 30)) return;
        app.swapBuffers();
    }
}

}  // namespace ts::test::gui
