// The web build's stand-in for the parts of oneTBB the simulator uses (sim/engine/machine.cpp,
// sim/engine/reference.cpp): everything runs on the calling thread, in order. The page has
// one thread unless it is served cross-origin isolated (docs/web.md), so
// tbb::info::default_concurrency() is 1 and a launch runs its blocks serially.
#pragma once
#include <cstddef>
#include <list>
#include <utility>

namespace tbb {

/// [begin, end) of T; the grain size is accepted and ignored.
template <class T>
class blocked_range {
public:
    blocked_range(T begin, T end, std::size_t = 1) : begin_(begin), end_(end) {}
    T begin() const { return begin_; }
    T end() const { return end_; }

private:
    T begin_, end_;
};

struct simple_partitioner {};

/// Calls f on the whole range, on this thread.
template <class Range, class F, class... Partitioner>
void parallel_for(const Range& r, const F& f, Partitioner&&...)
{
    f(r);
}

/// One element: the single thread's.
template <class T>
class enumerable_thread_specific {
public:
    T& local()
    {
        if (items_.empty()) items_.emplace_back();
        return items_.front();
    }
    auto begin() { return items_.begin(); }
    auto end() { return items_.end(); }
    auto begin() const { return items_.begin(); }
    auto end() const { return items_.end(); }

private:
    std::list<T> items_;
};

namespace info {
inline int default_concurrency() { return 1; }
}  // namespace info

class global_control {
public:
    enum parameter { max_allowed_parallelism };
    global_control(parameter, std::size_t) {}
};

/// Runs what it is given on this thread.
class task_arena {
public:
    explicit task_arena(int = 1) {}
    template <class F>
    decltype(auto) execute(F&& f)
    {
        return std::forward<F>(f)();
    }
};

}  // namespace tbb
