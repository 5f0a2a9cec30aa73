#include "file_watch.hpp"

namespace ts::app {

FileWatch::Stamp FileWatch::stamp(const std::string& path)
{
    std::error_code ec;
    Stamp s;
    s.time = std::filesystem::last_write_time(path, ec);
    if (ec) return {};
    s.size = std::filesystem::file_size(path, ec);
    if (ec) return {};
    s.readable = true;
    return s;
}

void FileWatch::watch(const std::string& path, std::chrono::milliseconds interval)
{
    path_ = path;
    interval_ = interval;
    last_ = stamp(path);
    next_ = std::chrono::steady_clock::now() + interval_;
}

bool FileWatch::changed()
{
    if (path_.empty()) return false;
    const auto now = std::chrono::steady_clock::now();
    if (now < next_) return false;
    next_ = now + interval_;
    const Stamp s = stamp(path_);
    if (!s.readable || s == last_) return false;
    last_ = s;
    return true;
}

}  // namespace ts::app
