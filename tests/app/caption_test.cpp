// The caption the bar shows and `tilescope --print-caption` prints (captionText, captionLine):
// at every step of every preset a narration, hand-written or generated, never "(no
// narration)"; "simulating..." before the first simulation ends, not "step -1 of -1".
#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "panels/panels.hpp"
#include "sim/teaching/narration.hpp"
#include "sim/files/scenario_file.hpp"
#include "state.hpp"

using namespace ts;

TEST(Caption, EveryStepOfEveryPresetIsNarrated)
{
    app::Loaded loaded;
    app::View view;
    int steps = 0;
    for (const sim::Preset& p : sim::listPresets()) {
        SCOPED_TRACE(p.name);
        loaded.preset = p;
        loaded.sim = std::make_shared<const sim::Simulation>(sim::simulate(p.scenario, {true, p.schedule, p.scheduleSeed}));
        ++loaded.generation;
        const sim::Trace& t = loaded.sim->trace;
        const int last = static_cast<int>(t.steps.size()) - 1;
        ASSERT_GE(last, 0);
        // The file's lines where they land, counted apart from the caption.
        const sim::PlacedNarration placed = sim::placeNarration(p, t);
        for (int i = 0; i <= last; ++i) {
            view.cursor = i;
            const app::CaptionText c = app::captionText(loaded, view);
            ASSERT_TRUE(c.narration.has_value()) << "step " << i;
            EXPECT_FALSE(c.narration->empty()) << "step " << i;
            EXPECT_EQ(c.handWritten, !placed.lines[i].empty()) << "step " << i;
            if (c.handWritten) EXPECT_EQ(*c.narration, placed.lines[i]);
            const std::string line = app::captionLine(c);
            EXPECT_EQ(line.find("(no narration)"), std::string::npos) << line;
            EXPECT_NE(line.find(" | step " + std::to_string(i) + " of " + std::to_string(last) + " | " +
                                t.steps[i].label + " | " + *c.narration),
                      std::string::npos)
                << line;
            EXPECT_EQ(c.narrationProblem, "");
            ++steps;
        }
    }
    EXPECT_GT(steps, 20 * 5);
}

TEST(Caption, SimulatingBeforeTheFirstSimulationEnds)
{
    app::Loaded loaded;
    loaded.preset.title = "Tiled 4096";
    const app::CaptionText c = app::captionText(loaded, app::View{});
    EXPECT_TRUE(c.simulating);
    EXPECT_EQ(app::captionLine(c), "Tiled 4096 | simulating...");
}

TEST(Caption, ALineThatLandsNowhereIsShown)
{
    app::Loaded loaded;
    loaded.preset = sim::parseScenarioText("kernel = \"matmul-tiled\"\nwidth = 4\ntile = 2\n\n[[narrate]]\nat = "
                                           "\"store Q\"\ntext = \"never\"\n",
                                           "x.toml");
    loaded.sim = std::make_shared<const sim::Simulation>(sim::simulate(loaded.preset.scenario));
    loaded.generation = 1000;
    const app::CaptionText c = app::captionText(loaded, app::View{});
    EXPECT_EQ(c.narrationProblem.rfind("x.toml, line 5: the [[narrate]] line is never shown", 0), 0u) << c.narrationProblem;
    EXPECT_FALSE(c.handWritten);
    EXPECT_FALSE(c.narration->empty()) << "the step still gets its generated line";
}
