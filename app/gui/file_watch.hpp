// Watching one file for saves without a new dependency: its modification time and size,
// read at most twice a second (an editor's save changes one or the other).
#pragma once
#include <chrono>
#include <cstdint>
#include <filesystem>
#include <string>

namespace ts::app {

/// Polls the file `path` (call changed() every frame; it reads the file's status at most
/// every `interval`). Thread: the UI's.
class FileWatch {
public:
    FileWatch() = default;
    /// Watches `path` from now on: its present state is the one compared against.
    void watch(const std::string& path, std::chrono::milliseconds interval = std::chrono::milliseconds(500));
    void stop() { path_.clear(); }
    const std::string& path() const { return path_; }
    /// True once for each change of the file's modification time or size since the last
    /// change reported (or since watch()); false between polls and while it cannot be read
    /// (an editor replacing it), so a save that renames a new file over it counts once.
    bool changed();
    /// The next changed() reads the file's status now, not at the next interval.
    void pollNow() { next_ = {}; }

private:
    struct Stamp {
        std::filesystem::file_time_type time{};
        uintmax_t size = 0;
        bool readable = false;
        bool operator==(const Stamp&) const = default;
    };
    static Stamp stamp(const std::string& path);

    std::string path_;
    Stamp last_;
    std::chrono::milliseconds interval_{500};
    std::chrono::steady_clock::time_point next_{};
};

}  // namespace ts::app
