// Practice mode's logic (app/gui/practice.hpp), without a window: the question of the step
// after the cursor, clicks graded cell by cell, cells outside their array refused and not
// counted, numbers and names typed, the score and Restart. The expected cells come from
// PMPP's tiling (Fig. 5.9: in phase ph block (bx, by) loads rows by*T .. by*T+T-1 and columns
// ph*T .. ph*T+T-1 of M), not from the question generator.
#include <gtest/gtest.h>

#include <memory>
#include <set>
#include <string>

#include "practice.hpp"
#include "sim/files/scenario_file.hpp"
#include "sim/engine/simulate.hpp"
#include "state.hpp"

using namespace ts;
using app::CellRef;
using app::PracticeMark;

namespace {

/// A preset loaded as the app loads it: simulated with its trace.
app::Loaded load(const std::string& name)
{
    app::Loaded l;
    l.preset = sim::findPreset(name);
    sim::SimOptions o{true, l.preset.schedule, l.preset.scheduleSeed};
    l.sim = std::make_shared<const sim::Simulation>(sim::simulate(l.preset.scenario, o));
    l.generation = 1;
    return l;
}

CellRef M(int r, int c) { return CellRef{"M", sim::Cell{r, c}}; }

}  // namespace

TEST(PracticeCells, ReadsCellsAsThePanelsNameThem)
{
    EXPECT_EQ(app::parseCellRef("M[1][2]"), M(1, 2));
    EXPECT_EQ(app::parseCellRef(" N[5] "), (CellRef{"N", sim::Cell{0, 5}}));
    EXPECT_EQ(app::parseCellRef("N_ds [ -2 ]"), (CellRef{"N_ds", sim::Cell{0, -2}}));
    EXPECT_EQ(app::parseCellRef("thread[1][0]"), (CellRef{"thread", sim::Cell{1, 0}}));
    for (const char* bad : {"M", "[1]", "M[1][2][3]", "M[a]", "M[1]x", "M[]", "M[1", "M-1[0]", ""})
        EXPECT_FALSE(app::parseCellRef(bad)) << bad;
    EXPECT_EQ(app::cellRefText(M(1, 2), false), "M[1][2]");
    EXPECT_EQ(app::cellRefText(CellRef{"N", sim::Cell{0, 5}}, true), "N[5]");
    EXPECT_EQ(app::cellRefText(CellRef{"thread", sim::Cell{1, 0}}, false), "thread (tx=0, ty=1)");
}

// tiled-4x4 at step 5 (phase 0's last barrier): Right asks the instructor's question of step
// 6, which M elements block (0,0) loads in phase 1, and holds the cursor until the reveal.
TEST(Practice, AsksTheNextStepsQuestionAndHoldsTheStep)
{
    const app::Loaded l = load("tiled-4x4");
    app::View v;
    v.cursor = 5;
    app::Practice& p = v.practice;
    EXPECT_FALSE(app::practiceNext(p, l, v)) << "off: the step moves as usual";
    app::practiceToggle(p);
    ASSERT_TRUE(app::practiceNext(p, l, v));
    ASSERT_TRUE(p.question);
    EXPECT_EQ(p.step, 6);
    EXPECT_EQ(v.cursor, 5) << "the step is not shown before the answer";
    EXPECT_TRUE(p.question->fixed);
    EXPECT_EQ(p.question->spec.kind, sim::QuestionKind::BlockTile);
    EXPECT_EQ(app::answerArray(*p.question, l.sim->scenario), "M");
    EXPECT_TRUE(app::practiceWantsCells(p));
    // Phase 1 of block (0,0), T = 2: rows 0-1, columns 2-3 of M.
    const std::vector<sim::Cell> tile = {{0, 2}, {0, 3}, {1, 2}, {1, 3}};
    EXPECT_EQ(p.question->answer.cells, tile);
    // A second Right waits for the reveal.
    EXPECT_TRUE(app::practiceNext(p, l, v));
    EXPECT_EQ(v.cursor, 5);
    EXPECT_NE(p.notice.find("Enter"), std::string::npos) << p.notice;
    EXPECT_EQ(p.asked, 0);
}

TEST(Practice, GradesClickedCellsRightWrongAndMissed)
{
    const app::Loaded l = load("tiled-4x4");
    app::View v;
    v.cursor = 5;
    app::Practice& p = v.practice;
    app::practiceToggle(p);
    ASSERT_TRUE(app::practiceNext(p, l, v));
    for (const CellRef& c : {M(0, 2), M(0, 3), M(1, 2), M(0, 0), M(3, 3)}) EXPECT_TRUE(app::practiceClickCell(p, l, c));
    EXPECT_TRUE(app::practiceClickCell(p, l, M(3, 3))) << "a second click takes it back";
    EXPECT_EQ(app::practiceMark(p, M(0, 0)), PracticeMark::Chosen);
    EXPECT_EQ(app::practiceMark(p, M(3, 3)), PracticeMark::None);
    ASSERT_TRUE(app::practiceReveal(p, l, v));
    EXPECT_FALSE(p.grade.correct);
    EXPECT_EQ(p.grade.right, (std::vector<sim::Cell>{{0, 2}, {0, 3}, {1, 2}}));
    EXPECT_EQ(p.grade.wrong, (std::vector<sim::Cell>{{0, 0}}));
    EXPECT_EQ(p.grade.missed, (std::vector<sim::Cell>{{1, 3}}));
    EXPECT_EQ(app::practiceMark(p, M(0, 2)), PracticeMark::Right);
    EXPECT_EQ(app::practiceMark(p, M(0, 0)), PracticeMark::Wrong);
    EXPECT_EQ(app::practiceMark(p, M(1, 3)), PracticeMark::Missed);
    EXPECT_EQ(app::practiceMark(p, M(2, 2)), PracticeMark::None);
    EXPECT_EQ(app::practiceMark(p, CellRef{"N", sim::Cell{0, 2}}), PracticeMark::None) << "another array";
    EXPECT_EQ(p.right, 0);
    EXPECT_EQ(p.asked, 1);
    EXPECT_EQ(v.cursor, 6) << "the reveal shows the step asked about";
    const std::vector<std::string> lines = app::practiceLines(p, l);
    ASSERT_GE(lines.size(), 6u);
    EXPECT_EQ(lines[0], "Score: 0 of 1 right");
    EXPECT_EQ(lines[2], "Not quite.");
    EXPECT_EQ(lines[3], "Your answer: M[0][0], M[0][2], M[0][3], M[1][2].");
    EXPECT_EQ(lines[4], "The answer: M[0][2], M[0][3], M[1][2], M[1][3].");
    EXPECT_NE(lines[5].find("3 right"), std::string::npos) << lines[5];
    EXPECT_NE(lines[5].find("1 wrong"), std::string::npos) << lines[5];
    EXPECT_NE(lines[5].find("1 missed"), std::string::npos) << lines[5];
    // The explanation names the kernel line that loads the tile.
    EXPECT_NE(lines[6].find("Line 34"), std::string::npos) << lines[6];
    // The next question: Nds of thread (tx=1, ty=0) in phase 1 is N[2][1] (row ph*T + ty, column bx*T + tx).
    ASSERT_TRUE(app::practiceNext(p, l, v));
    EXPECT_EQ(p.step, 7);
    EXPECT_EQ(app::answerArray(*p.question, l.sim->scenario), "N");
    EXPECT_TRUE(app::practiceClickCell(p, l, CellRef{"N", sim::Cell{2, 1}}));
    ASSERT_TRUE(app::practiceReveal(p, l, v));
    EXPECT_TRUE(p.grade.correct);
    EXPECT_EQ(app::practiceLines(p, l)[0], "Score: 1 of 2 right");
}

TEST(Practice, CellsOutsideTheirArrayAreRefusedAndNotCounted)
{
    const app::Loaded l = load("tiled-4x4");
    app::View v;
    v.cursor = 5;
    app::Practice& p = v.practice;
    app::practiceToggle(p);
    ASSERT_TRUE(app::practiceNext(p, l, v));
    EXPECT_FALSE(app::practiceClickCell(p, l, M(7, 0)));
    EXPECT_EQ(p.notice, "M[7][0] lies outside M (4 x 4: rows 0 to 3, columns 0 to 3), so it is not taken and not counted.");
    EXPECT_TRUE(p.noticeIsError);
    EXPECT_FALSE(app::practiceClickCell(p, l, M(0, -1)));
    EXPECT_FALSE(app::practiceClickCell(p, l, CellRef{"P", sim::Cell{0, 0}}));
    EXPECT_EQ(p.notice, "This question asks for elements of M; P[0][0] is not one, so it is not taken.");
    EXPECT_TRUE(p.chosen.empty());
    // Typed: one cell outside M refuses the whole answer, which is not counted.
    app::practiceType(p, "M[0][2], M[4][0]");
    EXPECT_FALSE(app::practiceReveal(p, l, v));
    EXPECT_NE(p.notice.find("M[4][0] lies outside M"), std::string::npos) << p.notice;
    app::practiceType(p, "M[0][2], M(1 2)");
    EXPECT_FALSE(app::practiceReveal(p, l, v));
    EXPECT_EQ(p.notice, "'M(1 2)' is not a cell; write cells as M[1][2], separated by commas.");
    EXPECT_EQ(p.asked, 0);
    EXPECT_FALSE(p.revealed);
    EXPECT_EQ(v.cursor, 5);
    // Typed cells that fit are graded with the clicked ones.
    EXPECT_TRUE(app::practiceClickCell(p, l, M(0, 2)));
    app::practiceType(p, "M[0][3]; M[1][2] , M[1][3]");
    ASSERT_TRUE(app::practiceReveal(p, l, v));
    EXPECT_TRUE(p.grade.correct);
    EXPECT_EQ(p.right, 1);
    EXPECT_EQ(p.asked, 1);
}

// The question of step 1 of tiled-4x4 (seed 1) is an index expression: a number.
TEST(Practice, TypedNumbersAndRestart)
{
    const app::Loaded l = load("tiled-4x4");
    app::View v;
    v.cursor = 0;
    app::Practice& p = v.practice;
    app::practiceToggle(p);
    ASSERT_TRUE(app::practiceNext(p, l, v));
    ASSERT_EQ(p.question->answer.shape, sim::AnswerShape::Number);
    EXPECT_FALSE(app::practiceWantsCells(p));
    EXPECT_FALSE(app::practiceClickCell(p, l, M(0, 0))) << "a number question takes no cells";
    EXPECT_FALSE(app::practiceReveal(p, l, v)) << "nothing typed";
    app::practiceType(p, "4x");
    EXPECT_FALSE(app::practiceReveal(p, l, v));
    EXPECT_EQ(p.notice, "'4x' is not a whole number; type one, such as 4, then press Enter.");
    app::practiceType(p, std::to_string(p.question->answer.number + 1));
    ASSERT_TRUE(app::practiceReveal(p, l, v));
    EXPECT_FALSE(p.grade.correct);
    EXPECT_EQ(v.cursor, 1);
    // Back to step 0: the same session asks the same question again.
    v.cursor = 0;
    ASSERT_TRUE(app::practiceNext(p, l, v));
    ASSERT_EQ(p.question->answer.shape, sim::AnswerShape::Number);
    app::practiceType(p, std::to_string(p.question->answer.number));
    ASSERT_TRUE(app::practiceReveal(p, l, v));
    EXPECT_TRUE(p.grade.correct);
    EXPECT_EQ(p.right, 1);
    EXPECT_EQ(p.asked, 2);
    app::practiceRestart(p, v);
    EXPECT_EQ(p.right, 0);
    EXPECT_EQ(p.asked, 0);
    EXPECT_EQ(v.cursor, 0);
    EXPECT_EQ(p.seed, 2u);
    EXPECT_FALSE(p.question);
    // Left drops a waiting question without counting it.
    ASSERT_TRUE(app::practiceNext(p, l, v));
    app::practiceSkip(p);
    EXPECT_FALSE(p.question);
    EXPECT_EQ(p.asked, 0);
}

// missing-barrier-after-load: step 6 is the barrier after the use, the one left in place; its
// question is what dropping it would cause, a name (PMPP sec. 5.4: write-after-read).
TEST(Practice, NamesAreChosenFromTheirList)
{
    const app::Loaded l = load("missing-barrier-after-load");
    app::View v;
    v.cursor = 5;
    app::Practice& p = v.practice;
    app::practiceToggle(p);
    ASSERT_TRUE(app::practiceNext(p, l, v));
    ASSERT_EQ(p.question->spec.kind, sim::QuestionKind::DroppedBarrierHazard);
    EXPECT_EQ(app::practiceChoices(*p.question), (std::vector<std::string>{"raw", "war", "none"}));
    app::practiceType(p, "fast");
    EXPECT_FALSE(app::practiceReveal(p, l, v));
    EXPECT_EQ(p.notice, "Answer raw, war or none; got 'fast'.");
    app::practiceType(p, "WAR");
    ASSERT_TRUE(app::practiceReveal(p, l, v));
    EXPECT_TRUE(p.grade.correct);
}

TEST(Practice, AnotherSimulationDropsTheQuestion)
{
    app::Loaded l = load("tiled-4x4");
    app::View v;
    v.cursor = 5;
    app::Practice& p = v.practice;
    app::practiceToggle(p);
    ASSERT_TRUE(app::practiceNext(p, l, v));
    app::practiceFollow(p, l, v);
    EXPECT_TRUE(p.question);
    ++l.generation;
    app::practiceFollow(p, l, v);
    EXPECT_FALSE(p.question);
    app::practiceToggle(p);
    EXPECT_FALSE(p.on);
    EXPECT_EQ(app::practiceLines(p, l).size(), 2u);
}

// The scenario file's questions that no later step reveals (missing-barrier-after-load's two
// dropped-barrier questions name no step) are asked first at the first step, which stays on
// screen; then the walk goes on with step 1's question. PMPP sec. 5.4: without the barrier
// after the load, read-after-write; without the one after the use, write-after-read.
TEST(Practice, AsksTheFilesStepLessQuestionsAtTheFirstStep)
{
    const app::Loaded l = load("missing-barrier-after-load");
    app::View v;
    v.cursor = 0;
    app::Practice& p = v.practice;
    app::practiceToggle(p);
    for (const char* hazard : {"raw", "war"}) {
        ASSERT_TRUE(app::practiceNext(p, l, v));
        ASSERT_EQ(p.question->spec.kind, sim::QuestionKind::DroppedBarrierHazard);
        EXPECT_TRUE(p.question->fixed);
        EXPECT_EQ(p.step, 0);
        app::practiceType(p, hazard);
        ASSERT_TRUE(app::practiceReveal(p, l, v));
        EXPECT_TRUE(p.grade.correct) << hazard;
        EXPECT_EQ(v.cursor, 0);
    }
    EXPECT_EQ(p.right, 2);
    ASSERT_TRUE(app::practiceNext(p, l, v));
    EXPECT_EQ(p.step, 1);
    EXPECT_NE(p.question->spec.kind, sim::QuestionKind::DroppedBarrierHazard);
    // Restart asks them again.
    app::practiceRestart(p, v);
    ASSERT_TRUE(app::practiceNext(p, l, v));
    EXPECT_EQ(p.question->spec.kind, sim::QuestionKind::DroppedBarrierHazard);
}

// A question of the first step is asked with the state before it on screen (cursor -1), so
// that step 0's loads do not give the answer away; the reveal shows step 0, and a skipped
// question puts the first step back. Before, the cursor stayed on step 0 while it waited.
TEST(Practice, AQuestionOfTheFirstStepHidesIt)
{
    const app::Loaded l = load("missing-barrier-after-load");
    app::View v;
    v.cursor = 0;
    app::Practice& p = v.practice;
    app::practiceToggle(p);
    ASSERT_TRUE(app::practiceNext(p, l, v));
    EXPECT_EQ(p.step, 0);
    EXPECT_EQ(v.cursor, -1) << "step 0 is on screen while its question waits";
    const sim::ReplayState before = sim::replay(l.sim->trace, v.cursor);
    const int m = l.sim->arrayIndex("M");
    for (int i = 0; i < l.sim->scenario.j * l.sim->scenario.k; ++i)
        EXPECT_EQ(before.element(m, i).loadsSoFar, 0u) << "M element " << i << " is shown loaded";
    app::practiceFollow(p, l, v);
    EXPECT_EQ(v.cursor, -1) << "held while the question waits";
    app::practiceType(p, "raw");
    ASSERT_TRUE(app::practiceReveal(p, l, v));
    EXPECT_EQ(v.cursor, 0);
    ASSERT_TRUE(app::practiceNext(p, l, v));   // the second question of no step
    EXPECT_EQ(v.cursor, -1);
    app::practiceSkip(p);
    app::practiceFollow(p, l, v);
    EXPECT_EQ(v.cursor, 0) << "a skipped question shows the first step again";
}

// Questions about another block than the traced one (tilescope-cli questions asks them): on
// tiled-64-tile16 (block (0,0) traced, 4 x 4 blocks of 16 x 16) the walk asks some, names
// the block, and grades against that block's cells (PMPP Fig. 5.9: block (bx, by) loads rows
// by*16 .. by*16+15 of M, columns bx*16 .. bx*16+15 of N). Before, none was asked.
TEST(Practice, AsksAboutAnotherBlockWhereThePanelsShowIt)
{
    const app::Loaded l = load("tiled-64-tile16");
    app::View v;
    v.cursor = 0;
    app::Practice& p = v.practice;
    app::practiceToggle(p);
    int other = 0, cellsChecked = 0;
    const int last = static_cast<int>(l.sim->trace.steps.size()) - 1;
    for (int guard = 0; guard < 3 * last && v.cursor < last; ++guard) {
        if (!app::practiceNext(p, l, v)) {
            ++v.cursor;
            continue;
        }
        const sim::Question& q = *p.question;
        const std::string name = app::otherBlockName(p);
        if (!name.empty()) {
            ++other;
            const sim::Uint3 b = *q.spec.block;
            EXPECT_EQ(name, "block (bx=" + std::to_string(b.x) + ", by=" + std::to_string(b.y) + ")");
            const std::vector<std::string> lines = app::practiceLines(p, l);
            EXPECT_NE(lines[1].find(", about " + name + ", not the traced block: "), std::string::npos) << lines[1];
            EXPECT_NE(app::practiceCaption(p).find("about " + name), std::string::npos);
            EXPECT_NE(q.prompt.find("block (bx=" + std::to_string(b.x)), std::string::npos) << q.prompt;
            const auto kinds = app::otherBlockKinds(l.sim->scenario);
            EXPECT_NE(std::find(kinds.begin(), kinds.end(), q.spec.kind), kinds.end());
            const bool cells = q.answer.shape == sim::AnswerShape::Cells;
            if (!cells) app::practiceType(p, std::to_string(q.answer.number + 1));   // a wrong number
            ASSERT_TRUE(app::practiceReveal(p, l, v)) << p.notice;
            if (cells) {
                // Nothing chosen: every cell of the answer is missed and lies in the block's rows or columns.
                EXPECT_EQ(p.grade.missed, q.answer.cells);
                const std::string array = app::answerArray(q, l.sim->scenario);
                for (const sim::Cell& c : q.answer.cells) {
                    if (array == "M") EXPECT_EQ(c.row / 16, static_cast<int>(b.y)) << q.prompt;
                    if (array == "N") EXPECT_EQ(c.col / 16, static_cast<int>(b.x)) << q.prompt;
                    EXPECT_EQ(app::practiceMark(p, CellRef{array, c}), PracticeMark::Missed);
                    ++cellsChecked;
                }
            }
        } else {
            app::practiceSkip(p);
            v.cursor = p.step;
        }
        if (p.revealed) v.cursor = p.step;
    }
    EXPECT_GT(other, 0) << "no question about another block in the walk";
    EXPECT_GT(cellsChecked, 0) << "no cell question about another block";
}

// A kind the app cannot sensibly ask about another block is said so, not skipped in silence:
// conv2d-tiled-tile8-mask5 traces block (1,1) and its file asks for block (0,0)'s ghost cells.
TEST(Practice, SaysWhichQuestionsAboutAnotherBlockItDoesNotAsk)
{
    const app::Loaded l = load("conv2d-tiled-tile8-mask5");
    app::View v;
    v.cursor = 0;
    app::Practice& p = v.practice;
    app::practiceToggle(p);
    app::practiceNext(p, l, v);
    ASSERT_EQ(p.notAsked.size(), 1u);
    EXPECT_NE(p.notAsked[0].find("ghost-cells question, about block (bx=0, by=0) rather than the traced one, since the "
                                 "Convolution panel draws N only around the traced block"),
              std::string::npos)
        << p.notAsked[0];
    p.question.reset();
    const std::vector<std::string> lines = app::practiceLines(p, l);
    EXPECT_EQ(lines.back(), p.notAsked[0]);
    EXPECT_FALSE(app::whyNotOtherBlock(sim::QuestionKind::ElementReaders, l.sim->scenario).empty());
    EXPECT_TRUE(app::whyNotOtherBlock(sim::QuestionKind::IndexValue, l.sim->scenario).empty());
}
