// Moving the replay cursor back undoes steps (sim/engine/replay.hpp, UndoLog) instead of replaying
// from the first step. A second, independent way to reach a cursor is replay() from the
// start; every field the views read must be the same either way, after any walk of the
// cursor (forward, back one step, long jumps both ways, Home, End), for every kernel family
// at sizes whose traced block has phases, halos, ghost cells and zero fills.
#include <gtest/gtest.h>

#include <cstring>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "sim/catalogue/scenario.hpp"
#include "sim/engine/replay.hpp"
#include "sim/engine/simulate.hpp"

namespace ts::test {
namespace {

using sim::ReplayState;

/// Every field of two states compared; the first difference named.
std::string difference(const ReplayState& a, const ReplayState& b)
{
    if (a.cursor != b.cursor) return "cursor";
    if (a.phase != b.phase) return "phase";
    if (std::memcmp(&a.soFar, &b.soFar, sizeof a.soFar) != 0) return "soFar";
    if (a.slots.size() != b.slots.size() || a.elements.size() != b.elements.size()) return "arrays";
    for (size_t arr = 0; arr < a.slots.size(); ++arr)
        for (size_t i = 0; i < a.slots[arr].size(); ++i) {
            const sim::SlotView &x = a.slots[arr][i], &y = b.slots[arr][i];
            if (x.value != y.value || x.written != y.written || x.writer != y.writer || x.zeroFilled != y.zeroFilled ||
                x.sourceArray != y.sourceArray || x.sourceIndex != y.sourceIndex || x.writeStep != y.writeStep ||
                x.readNow != y.readNow || x.writtenNow != y.writtenNow)
                return "slot " + std::to_string(arr) + "[" + std::to_string(i) + "]";
        }
    for (size_t arr = 0; arr < a.elements.size(); ++arr) {
        std::set<int32_t> keys;
        for (const auto& [k, v] : a.elements[arr]) keys.insert(k);
        for (const auto& [k, v] : b.elements[arr]) keys.insert(k);
        for (int32_t k : keys) {
            const sim::ElementView &x = a.element(static_cast<int>(arr), k), &y = b.element(static_cast<int>(arr), k);
            if (x.loadsSoFar != y.loadsSoFar || x.loadedThisPhase != y.loadedThisPhase || x.readNow != y.readNow ||
                x.sharedCopies != y.sharedCopies || x.stored != y.stored || x.storedValue != y.storedValue)
                return "element " + std::to_string(arr) + "[" + std::to_string(k) + "]";
        }
    }
    if (a.threads.size() != b.threads.size()) return "threads";
    for (size_t i = 0; i < a.threads.size(); ++i) {
        const sim::ThreadView &x = a.threads[i], &y = b.threads[i];
        if (x.pvalue != y.pvalue || x.fmas != y.fmas || x.hasOutput != y.hasOutput || x.outputArray != y.outputArray ||
            x.outputIndex != y.outputIndex || x.stored != y.stored || x.activeNow != y.activeNow)
            return "thread " + std::to_string(i);
    }
    return "";
}

sim::Simulation traced(const sim::Scenario& s)
{
    sim::SimOptions o;
    o.trace = true;
    sim::Simulation r = sim::simulate(s, o);
    EXPECT_EQ(r.error, "");
    return r;
}

sim::Scenario matmul(const std::string& kernel, int j, int k, int l, int tile, sim::Uint3 block)
{
    sim::Scenario s;
    s.kernel = kernel;
    s.j = j;
    s.k = k;
    s.l = l;
    s.tile = tile;
    s.block = block;
    return s;
}

/// Walks the cursor of one state over `cursors` and compares it with a fresh replay each time.
void walk(const sim::Trace& t, const std::vector<int>& cursors, const std::string& what)
{
    ReplayState moving = sim::replay(t, -1);
    for (int c : cursors) {
        sim::moveTo(moving, t, c);
        const std::string d = difference(moving, sim::replay(t, c));
        ASSERT_EQ(d, "") << what << ": cursor " << c << " differs in " << d;
    }
}

std::vector<sim::Scenario> scenarios()
{
    return {matmul("matmul-tiled", 10, 7, 9, 4, {2, 1, 0}),          // ragged: zero fills
            matmul("matmul-tiled-nds-padded", 10, 7, 9, 4, {1, 2, 0}),
            matmul("matmul-naive", 6, 5, 7, 4, {1, 1, 0}),
            sim::convScenario("conv1d-tiled", 1, 20, 4, 5, {0, 0, 0}),   // ghost cells
            sim::convScenario("conv2d-tiled", 13, 11, 4, 3, {1, 1, 0})};
}

TEST(ReplayUndo, EveryStepBackEqualsAFreshReplay)
{
    for (const sim::Scenario& s : scenarios()) {
        const sim::Simulation r = traced(s);
        const int n = static_cast<int>(r.trace.steps.size());
        ASSERT_GT(n, 3) << s.kernel;
        std::vector<int> cursors{n - 1};   // End, then Left all the way to before the first step
        for (int c = n - 2; c >= -1; --c) cursors.push_back(c);
        walk(r.trace, cursors, s.kernel + " stepping back");
    }
}

TEST(ReplayUndo, RandomJumpsEqualAFreshReplay)
{
    std::mt19937 rng(7);
    for (const sim::Scenario& s : scenarios()) {
        const sim::Simulation r = traced(s);
        const int n = static_cast<int>(r.trace.steps.size());
        std::uniform_int_distribution<int> any(-1, n - 1);
        std::vector<int> cursors;
        for (int i = 0; i < 60; ++i) {
            const int c = any(rng);
            cursors.push_back(c);
            // and the keys around it: Right, Left, Left
            if (c + 1 < n) cursors.push_back(c + 1);
            cursors.push_back(c);
            if (c > -1) cursors.push_back(c - 1);
        }
        cursors.push_back(0);       // Home
        cursors.push_back(n - 1);   // End
        cursors.push_back(n - 2);
        walk(r.trace, cursors, s.kernel + " jumping");
    }
}

// The undo log holds exactly the steps up to the cursor: it shrinks when the cursor moves
// back and is empty before the first step.
TEST(ReplayUndo, TheLogFollowsTheCursor)
{
    const sim::Simulation r = traced(matmul("matmul-tiled", 8, 8, 8, 4, {1, 0, 0}));
    const int n = static_cast<int>(r.trace.steps.size());
    ReplayState s = sim::replay(r.trace, n - 1);
    EXPECT_EQ(s.undo.marks.size(), static_cast<size_t>(n));
    sim::moveTo(s, r.trace, n / 2);
    EXPECT_EQ(s.undo.marks.size(), static_cast<size_t>(n / 2 + 1));
    sim::moveTo(s, r.trace, -1);
    EXPECT_TRUE(s.undo.marks.empty());
    EXPECT_TRUE(s.undo.elements.empty());
}

}  // namespace
}  // namespace ts::test
