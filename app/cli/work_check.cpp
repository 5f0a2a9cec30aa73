#include "work_check.hpp"

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <iostream>
#include <mutex>
#include <string>
#include <thread>

#include <unistd.h>

#include "commands.hpp"
#include "sim/engine/work_estimate.hpp"

namespace ts::cli {
namespace {

/// Says on stderr how far a long simulation is, every `every` seconds, until destroyed.
class ProgressReporter {
public:
    ProgressReporter(const std::atomic<float>& done, double estimate, std::chrono::seconds every)
        : thread_([this, &done, estimate, every] {
              const auto start = std::chrono::steady_clock::now();
              std::unique_lock lock(mutex_);
              while (!cv_.wait_for(lock, every, [this] { return stop_; })) {
                  const double f = done.load(std::memory_order_relaxed);
                  const double elapsed =
                      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
                  // What is left: from the pace so far once there is one, else the estimate.
                  const double left = f > 0.02 ? elapsed * (1 - f) / f : std::max(0.0, estimate - elapsed);
                  std::cerr << "tilescope-cli: " << static_cast<int>(f * 100) << "% simulated after "
                            << sim::durationWords(elapsed) << ", about " << sim::durationWords(left) << " left.\n";
              }
          })
    {
    }
    ~ProgressReporter()
    {
        {
            std::lock_guard lock(mutex_);
            stop_ = true;
        }
        cv_.notify_one();
        thread_.join();
    }

private:
    std::mutex mutex_;
    std::condition_variable cv_;
    bool stop_ = false;
    std::thread thread_;   // last: starts once the rest exists
};

/// A progress line on a terminal's stderr, rewritten in place five times a second, from
/// the moment the simulation has run for kShowAfter; erased when destroyed.
class ProgressLine {
public:
    static constexpr std::chrono::milliseconds kShowAfter{300};

    explicit ProgressLine(const std::atomic<float>& done)
        : thread_([this, &done] {
              const auto start = std::chrono::steady_clock::now();
              std::unique_lock lock(mutex_);
              if (cv_.wait_for(lock, kShowAfter, [this] { return stop_; })) return;
              do {
                  const double f = done.load(std::memory_order_relaxed);
                  const double elapsed =
                      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
                  std::string line = "tilescope-cli: simulating, " + std::to_string(static_cast<int>(f * 100)) +
                                     "% after " + sim::durationWords(elapsed);
                  if (f > 0.02) line += ", about " + sim::durationWords(elapsed * (1 - f) / f) + " left";
                  width_ = std::max(width_, line.size());
                  std::cerr << '\r' << line << std::string(width_ - line.size(), ' ') << std::flush;
              } while (!cv_.wait_for(lock, std::chrono::milliseconds(200), [this] { return stop_; }));
              std::cerr << '\r' << std::string(width_, ' ') << '\r' << std::flush;
          })
    {
    }
    ~ProgressLine()
    {
        {
            std::lock_guard lock(mutex_);
            stop_ = true;
        }
        cv_.notify_one();
        thread_.join();
    }

private:
    std::mutex mutex_;
    std::condition_variable cv_;
    bool stop_ = false;
    size_t width_ = 0;
    std::thread thread_;   // last: starts once the rest exists
};

}  // namespace

std::variant<sim::Simulation, int> guardedSimulate(const sim::Scenario& s, sim::SimOptions opt, bool yes,
                                                   bool quiet)
{
#if defined(__EMSCRIPTEN__)
    // The web build runs on one thread (docs/web.md): no progress thread beside the run.
    quiet = true;
#endif
    const sim::WorkEstimate e = sim::estimateWork(s, opt);
    const std::optional<uint64_t> available = sim::availableMemory();
    switch (sim::judgeWork(e, available)) {
    case sim::WorkVerdict::TooBig:
        std::cerr << "tilescope-cli: " << sim::memorySentence(s, e, *available)
                  << "; choose a smaller problem.\n";
        return kBadInput;
    case sim::WorkVerdict::Ask:
        if (!yes) {
            std::cerr << "tilescope-cli: " << sim::durationSentence(s, e) << "; add --yes to run it anyway.\n";
            return kBadInput;
        }
        break;
    case sim::WorkVerdict::Run:
        if (!quiet && isatty(STDERR_FILENO)) {
            std::atomic<float> done{0};
            opt.progress = &done;
            ProgressLine line(done);
            return sim::simulate(s, opt, e);
        }
        return sim::simulate(s, opt, e);
    }
    std::atomic<float> done{0};
    opt.progress = &done;
    if (quiet) return sim::simulate(s, opt, e);
    if (isatty(STDERR_FILENO)) {
        ProgressLine line(done);
        return sim::simulate(s, opt, e);
    }
    std::cerr << "tilescope-cli: " << sim::durationSentence(s, e) << ".\n";
    ProgressReporter reporter(done, e.seconds(), std::chrono::seconds(30));
    return sim::simulate(s, opt, e);
}

}  // namespace ts::cli
