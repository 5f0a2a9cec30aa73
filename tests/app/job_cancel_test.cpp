// The app's simulation job can be cancelled (the progress window's Cancel button and Esc
// call Job::cancel): a simulation of hours started the way App::startSimulation starts it
// stops soon after the request and hands back a Simulation marked cancelled. The time it
// took is printed, not asserted (a loaded or sanitized machine is slower; typically well
// under 0.1 s): the bound asserted, 30 s, is far below the minutes the full run needs.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>
#include <thread>

#include "job.hpp"
#include "sim/engine/simulate.hpp"

namespace ts::app {
namespace {

TEST(JobCancel, LongSimulationStopsSoonAfterTheCancel)
{
    Job<sim::Simulation> job;
    const sim::Scenario s = sim::matmulScenario("matmul-naive", 2048, 2048, 2048, 16);
    const std::atomic<bool>* cancel = job.cancelFlag();
    job.start([s, cancel](std::atomic<float>& progress) {
        sim::SimOptions o;
        o.cancel = cancel;
        o.progress = &progress;
        return sim::simulate(s, o);
    });
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    EXPECT_FALSE(job.poll().has_value()) << "still running after 100 ms";
    EXPECT_FALSE(job.cancelRequested());
    job.cancel();
    EXPECT_TRUE(job.cancelRequested());
    const auto asked = std::chrono::steady_clock::now();
    std::optional<sim::Simulation> r;
    while (!(r = job.poll()) && std::chrono::steady_clock::now() - asked < std::chrono::seconds(30))
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    const double took = std::chrono::duration<double>(std::chrono::steady_clock::now() - asked).count();
    ASSERT_TRUE(r.has_value()) << "no result 30 s after the cancel";
    std::printf("cancel to result: %.3f s\n", took);
    EXPECT_TRUE(r->cancelled);
    EXPECT_FALSE(r->matchesReference);
    EXPECT_FALSE(job.running());
}

TEST(JobCancel, StartClearsAnEarlierCancel)
{
    Job<int> job;
    job.start([](std::atomic<float>&) { return 1; });
    job.cancel();
    while (!job.poll()) std::this_thread::sleep_for(std::chrono::milliseconds(1));
    const std::atomic<bool>* flag = job.cancelFlag();
    job.start([flag](std::atomic<float>&) { return flag->load() ? 0 : 2; });
    std::optional<int> r;
    while (!(r = job.poll())) std::this_thread::sleep_for(std::chrono::milliseconds(1));
    EXPECT_EQ(*r, 2);
}

}  // namespace
}  // namespace ts::app
