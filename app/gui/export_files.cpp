#include "export_files.hpp"

#include <cstdio>
#include <filesystem>

namespace ts::app {
namespace fs = std::filesystem;

std::vector<std::string> exportFiles(const std::string& dir, ExportFormat format, int from, int to)
{
    std::vector<std::string> files;
    if (format == ExportFormat::Gif) {
        files.push_back((fs::path(dir) / ("steps-" + std::to_string(from) + "-" + std::to_string(to) + ".gif")).string());
        return files;
    }
    for (int step = from; step <= to; ++step) {
        char name[32];
        std::snprintf(name, sizeof name, "step-%04d.%s", step, format == ExportFormat::Svg ? "svg" : "png");
        files.push_back((fs::path(dir) / name).string());
    }
    return files;
}

std::string firstExisting(const std::vector<std::string>& files)
{
    for (const std::string& f : files) {
        std::error_code ec;
        if (fs::exists(fs::symlink_status(f, ec))) return f;
    }
    return "";
}

bool prepareExportFolder(const std::string& dir, const std::vector<std::string>& files, bool force)
{
    if (dir.empty()) throw UsageError("--out must name a folder; got ''.");
    std::error_code ec;
    const fs::file_status st = fs::status(dir, ec);
    if (fs::exists(st) && !fs::is_directory(st))
        throw UsageError("--out '" + dir + "' is a file, not a folder; give a folder (it is made if missing).");
    if (!force)
        if (const std::string f = firstExisting(files); !f.empty())
            throw UsageError("--export-steps would overwrite " + f + " (and perhaps more of an earlier export); add "
                             "--force to overwrite, or give another --out folder.");
    if (fs::is_directory(st)) return false;
    fs::create_directories(dir, ec);
    if (ec || !fs::is_directory(dir, ec))
        throw UsageError("--out: the folder '" + dir + "' cannot be made (" +
                         (ec ? ec.message() : std::string("something else is in its way")) + ").");
    return true;
}

std::string exportReport(const std::vector<std::string>& files, bool created, const std::string& dir)
{
    std::string r = created ? "created folder " + dir + "\n" : "";
    if (files.size() <= kListedExportFiles) {
        for (const std::string& f : files) r += "wrote " + f + "\n";
    } else {
        r += "wrote " + std::to_string(files.size()) + " files, one per step: " + files.front() + " to " +
             files.back() + "\n";
    }
    return r;
}

}  // namespace ts::app
