// App::openViewLink, what the web page does with a link typed into its address while the app
// runs, and App::viewLink, what it writes back: a link of the problem shown moves the step,
// thread and panels without a new simulation; another preset or block is simulated and
// shown; a bad link leaves the view with one sentence in the caption bar.
#include <imgui.h>

#include "gui_check.hpp"
#include "panels/panel_table.hpp"
#include "sim/files/scenario_file.hpp"

using namespace ts;
using namespace ts::app;
using test::gui::expect;

int main()
{
    Options o;
    o.preset = sim::findPreset("tiled-4x4", panelNameList());
    o.step = 2;
    o.width = 1280;
    o.height = 720;
    o.screenshot = "(view_link_open_check)";   // offscreen: a hidden window, no settings
    App app(o);
    test::gui::openWithRetries(app);
    const ImVec2 display(1280, 720);
    test::gui::settle(app, display);
    expect(app.viewLink() == "preset=tiled-4x4&step=2", "the view at start is " + app.viewLink());

    // The problem shown: step, thread and panels change in place, the simulation stays.
    const uint64_t generation = app.loaded().generation;
    app.openViewLink("preset=tiled-4x4&step=7&thread=1,0&panels=matrices,code&theme=light");
    test::gui::settle(app, display);
    expect(app.loaded().generation == generation, "a link of the problem shown simulated it again");
    expect(app.view().cursor == 7, "the cursor is " + std::to_string(app.view().cursor) + ", not 7");
    expect(app.view().thread == 1, "the thread is " + std::to_string(app.view().thread) + ", not tx 1 of ty 0");
    expect(app.view().themeKind == ThemeKind::Light, "the theme is not the light one");
    expect(app.view().open[panelId("matrices")] && app.view().open[panelId("code")] &&
               !app.view().open[panelId("stats")],
           "the panels are not the link's");
    expect(app.viewLink() == "preset=tiled-4x4&step=7&thread=1,0&panels=matrices,code&theme=light",
           "the link written back is " + app.viewLink());

    // Another preset: simulated, at the link's step.
    app.openViewLink("preset=boundary-3x3-block11&step=last");
    test::gui::settle(app, display);
    expect(app.loaded().preset.name == "boundary-3x3-block11", "the preset shown is " + app.loaded().preset.name);
    const int last = static_cast<int>(app.loaded().sim->trace.steps.size()) - 1;
    expect(app.view().cursor == last, "step=last shows step " + std::to_string(app.view().cursor));
    expect(app.viewLink().rfind("preset=boundary-3x3-block11&step=" + std::to_string(last), 0) == 0,
           "the link written back is " + app.viewLink());

    // Another block of the same problem: simulated; block (0, 0) of the 3x3 problem is the
    // boundary-3x3 preset's own, so the link names that preset.
    app.openViewLink("block=0,0&step=1");
    test::gui::settle(app, display);
    expect(app.loaded().sim->scenario.block.x == 0 && app.loaded().sim->scenario.block.y == 0, "block (0, 0) is not shown");
    expect(app.view().cursor == 1, "the cursor is " + std::to_string(app.view().cursor) + ", not 1");
    const std::string block = app.viewLink();
    expect(block.rfind("preset=boundary-3x3&step=1&", 0) == 0 && block.find("block=") == std::string::npos,
           "the link of block (0, 0) is " + block);

    // A bad link and a step past the end: the view stays, one sentence says why.
    const std::string before = app.viewLink();
    app.openViewLink("preset=tiled-4x4&zoom=3");
    test::gui::settle(app, display);
    expect(app.view().noticeIsError && app.view().notice.rfind("View link: unknown key 'zoom'", 0) == 0,
           "the notice is '" + app.view().notice + "'");
    expect(app.viewLink() == before, "a bad link changed the view to " + app.viewLink());
    app.openViewLink("step=999");
    test::gui::settle(app, display);
    expect(app.view().notice.find("Step 999 is past the last step") == 0, "the notice is '" + app.view().notice + "'");
    expect(app.viewLink() == before, "a step past the end changed the view to " + app.viewLink());
    return test::gui::finish("view_link_open_check");
}
