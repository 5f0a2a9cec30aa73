// Slow work off the UI thread (docs/design.md, "Data flow": simulating a big problem, GPU
// timing): a worker thread runs a function, reports progress through an atomic, and hands
// its result back to the UI thread, which polls once per frame.
#pragma once
#include <atomic>
#include <chrono>
#include <functional>
#include <future>
#include <optional>

namespace ts::app {

/// One piece of work of result type T, at most one at a time. The work may also watch
/// cancelFlag() and stop early when cancel() sets it.
template <class T>
class Job {
public:
    /// Starts `work` on a worker thread; it may store progress (0..1) in its argument.
    /// Only call when !running().
    void start(std::function<T(std::atomic<float>&)> work)
    {
        progress_ = 0;
        cancel_ = false;
        started_ = std::chrono::steady_clock::now();
#if defined(__EMSCRIPTEN__)
        // The page has one thread (docs/web.md): the work runs in the frame that polls it.
        future_ = std::async(std::launch::deferred, [this, w = std::move(work)] { return w(progress_); });
#else
        future_ = std::async(std::launch::async,
                             [this, w = std::move(work)] { return w(progress_); });
#endif
    }
    /// Asks running work to stop, then (future_'s destructor) waits for it: closing the app
    /// in the middle of a long simulation does not wait for the simulation to finish.
    ~Job() { cancel_ = true; }
    Job() = default;
    Job(const Job&) = delete;
    Job& operator=(const Job&) = delete;

    bool running() const { return future_.valid(); }
    /// The result once the work has finished (its exception, if it threw, is rethrown
    /// here); empty while it runs or when nothing was started.
    std::optional<T> poll()
    {
        if (!future_.valid()) return std::nullopt;
        const std::future_status s = future_.wait_for(std::chrono::seconds(0));
        if (s != std::future_status::ready && s != std::future_status::deferred) return std::nullopt;
        return future_.get();
    }
    float progress() const { return progress_; }
    /// Asks the running work to stop (it decides how and what it hands back).
    void cancel() { cancel_ = true; }
    bool cancelRequested() const { return cancel_; }
    /// The flag cancel() sets, for the work to poll; reset by start().
    const std::atomic<bool>* cancelFlag() const { return &cancel_; }
    double seconds() const
    {
        return std::chrono::duration<double>(std::chrono::steady_clock::now() - started_).count();
    }

private:
    // future_ last: destroying it waits for the worker, which still uses progress_ and
    // cancel_.
    std::atomic<float> progress_{0};
    std::atomic<bool> cancel_{false};
    std::chrono::steady_clock::time_point started_;
    std::future<T> future_;
};

}  // namespace ts::app
