// Where an output file goes when it is written beside its name and renamed into place (a
// screenshot, an SVG, a saved scenario). A rename over a name that is not a regular file
// would replace it: `--screenshot /dev/null` would put a PNG where the null device was, and
// every later `> /dev/null` on the machine would write into a file. Such a target (a device,
// a pipe) is written into as it is; a folder is refused. No UI.
#pragma once
#include <filesystem>
#include <string>

namespace ts::sim {

/// How the output `path` is written.
enum class OutputTarget {
    Replace,   ///< no such name, or a regular file (or a link to one): beside it, then renamed
    Direct,    ///< a character device or a pipe (/dev/null, /dev/stdout): written into directly
    Refused,   ///< a folder or anything else: not written; `why` says so in one sentence
};

/// What writing `path` must do; `why` is set for Refused.
inline OutputTarget outputTarget(const std::string& path, std::string& why)
{
    namespace fs = std::filesystem;
    std::error_code ec;
    const fs::file_status s = fs::status(path, ec);   // through a link: what it names
    if (ec || !fs::exists(s) || fs::is_regular_file(s)) return OutputTarget::Replace;
    if (fs::is_character_file(s) || fs::is_fifo(s)) return OutputTarget::Direct;
    why = "'" + path + "' is " + (fs::is_directory(s) ? "a folder" : "not a regular file") + "; give the name of a file to write.";
    return OutputTarget::Refused;
}

}  // namespace ts::sim
