#include "work_check.hpp"

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <iostream>
#include <mutex>
#include <thread>

#include "commands.hpp"
#include "sim/work_estimate.hpp"

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

}  // namespace

std::variant<sim::Simulation, int> guardedSimulate(const sim::Scenario& s, sim::SimOptions opt, bool yes)
{
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
        return sim::simulate(s, opt);
    }
    std::cerr << "tilescope-cli: " << sim::durationSentence(s, e) << ".\n";
    std::atomic<float> done{0};
    opt.progress = &done;
    ProgressReporter reporter(done, e.seconds(), std::chrono::seconds(30));
    return sim::simulate(s, opt);
}

}  // namespace ts::cli
