// What a step of the cursor costs in a long trace (sim/engine/replay.hpp): Right applies one
// step, Left undoes one (UndoLog), Home starts again from the state before the first step;
// beside them the cost of replaying from the start, what Left and Home cost before the
// undo log. Prints medians in microseconds; speed targets are read from this output, not
// asserted in a test.
//
//   tilescope-replay-bench [WIDTH [TILE]]     # default 512 32: matmul-tiled, block (0,0)
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "sim/engine/replay.hpp"
#include "sim/catalogue/scenario.hpp"
#include "sim/engine/simulate.hpp"

namespace {

using Clock = std::chrono::steady_clock;

double micros(Clock::time_point a, Clock::time_point b)
{
    return std::chrono::duration<double, std::micro>(b - a).count();
}

double median(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    return v.empty() ? 0 : v[v.size() / 2];
}

}  // namespace

int main(int argc, char** argv)
{
    using namespace ts::sim;
    const int width = argc > 1 ? std::atoi(argv[1]) : 512;
    const int tile = argc > 2 ? std::atoi(argv[2]) : 32;
    const Scenario s = matmulScenario("matmul-tiled", width, width, width, tile);
    if (const std::string e = validate(s); !e.empty()) {
        std::fprintf(stderr, "tilescope-replay-bench: %s\n", e.c_str());
        return 2;
    }
    SimOptions o;
    o.detectHazards = false;
    o.memoryModel = false;
    const auto t0 = Clock::now();
    const Simulation r = simulate(s, o);
    const Trace& t = r.trace;
    const int n = static_cast<int>(t.steps.size());
    std::printf("matmul-tiled %dx%dx%d, TILE_WIDTH %d, block (0,0): %d steps, %zu events (simulated in %.1f s)\n",
                width, width, width, tile, n, t.events.size(), micros(t0, Clock::now()) / 1e6);

    // Cursors spread over the trace.
    std::vector<int> at;
    for (int i = 1; i <= 40; ++i) at.push_back(static_cast<int>(static_cast<long long>(n - 2) * i / 41));
    std::vector<double> right, left, home, scratch;
    ReplayState st = replay(t, at.front());
    for (int c : at) {
        moveTo(st, t, c);
        auto a = Clock::now();
        moveTo(st, t, c + 1);   // Right
        auto b = Clock::now();
        right.push_back(micros(a, b));
        a = Clock::now();
        moveTo(st, t, c);       // Left
        b = Clock::now();
        left.push_back(micros(a, b));
    }
    for (int c : {n / 4, n / 2, n - 1}) {
        moveTo(st, t, c);
        const auto a = Clock::now();
        moveTo(st, t, 0);       // Home
        home.push_back(micros(a, Clock::now()));
    }
    for (size_t i = 0; i < at.size(); i += 8) {
        const auto a = Clock::now();
        const ReplayState fresh = replay(t, at[i]);   // Left before the undo log
        scratch.push_back(micros(a, Clock::now()));
    }
    const ReplayState end = replay(t, n - 1);
    std::printf("undo log at the last step: %zu element, %zu slot, %zu thread entries, %zu steps\n",
                end.undo.elements.size(), end.undo.slots.size(), end.undo.threads.size(), end.undo.marks.size());
    std::printf("%-40s %12s\n", "move (median of the cursors tried)", "microseconds");
    std::printf("%-40s %12.1f\n", "Right (one step forward)", median(right));
    std::printf("%-40s %12.1f\n", "Left (one step back, undone)", median(left));
    std::printf("%-40s %12.1f\n", "Home (from n/4, n/2, the last step)", median(home));
    std::printf("%-40s %12.1f\n", "replay from the start (Left before)", median(scratch));
    return 0;
}
