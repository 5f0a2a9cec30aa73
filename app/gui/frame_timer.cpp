#include "frame_timer.hpp"

#include <glad/gl.h>

// WebGL 2 has no GPU timer queries (GL_TIME_ELAPSED; the extension for them is disabled in
// browsers): in the web build the timer records nothing and millis() is empty (docs/web.md).
#if defined(__EMSCRIPTEN__)
namespace ts::app {
void GpuFrameTimer::begin(uint64_t) {}
void GpuFrameTimer::end() {}
void GpuFrameTimer::collect(bool) {}
std::vector<double> GpuFrameTimer::millis(uint64_t, uint64_t) { return {}; }
}  // namespace ts::app
#else

#include <cstddef>

namespace ts::app {

void GpuFrameTimer::begin(uint64_t frame)
{
    collect(false);
    GLuint q = 0;
    if (free_.empty()) {
        glGenQueries(1, &q);
    } else {
        q = free_.back();
        free_.pop_back();
    }
    glBeginQuery(GL_TIME_ELAPSED, q);
    pending_.push_back(Pending{q, frame});
    open_ = true;
}

void GpuFrameTimer::end()
{
    if (!open_) return;
    glEndQuery(GL_TIME_ELAPSED);
    open_ = false;
}

void GpuFrameTimer::collect(bool wait)
{
    std::size_t n = 0;
    // Queries finish in the order they were issued: stop at the first that has not.
    for (; n < pending_.size(); ++n) {
        if (open_ && n + 1 == pending_.size()) break;
        const GLuint q = pending_[n].query;
        GLint ready = GL_FALSE;
        if (!wait) glGetQueryObjectiv(q, GL_QUERY_RESULT_AVAILABLE, &ready);
        if (!wait && !ready) break;
        GLuint64 ns = 0;
        glGetQueryObjectui64v(q, GL_QUERY_RESULT, &ns);
        done_[pending_[n].frame] = static_cast<double>(ns) * 1e-6;
        free_.push_back(q);
    }
    pending_.erase(pending_.begin(), pending_.begin() + static_cast<std::ptrdiff_t>(n));
}

std::vector<double> GpuFrameTimer::millis(uint64_t first, uint64_t last)
{
    collect(true);
    std::vector<double> out;
    for (auto it = done_.lower_bound(first); it != done_.end() && it->first <= last; ++it) out.push_back(it->second);
    return out;
}

}  // namespace ts::app
#endif
