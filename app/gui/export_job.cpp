#include "export_job.hpp"

#include "export_files.hpp"

#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fcntl.h>

#include <chrono>
#include <csignal>
#include <cstring>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>
#include <vector>

extern char** environ;

namespace ts::app {
namespace fs = std::filesystem;

namespace {

/// Files in `dir` the export has written so far (numbered PNG or SVG files).
int writtenSoFar(const std::string& dir, const std::string& format)
{
    int n = 0;
    std::error_code ec;
    for (const fs::directory_entry& e : fs::directory_iterator(dir, ec))
        if (e.path().filename().string().rfind("step-", 0) == 0 && e.path().extension() == "." + format) ++n;
    return n;
}

std::string number(float v)
{
    std::ostringstream o;
    o << v;
    return o.str();
}

}  // namespace

ExportOutcome runExport(const ExportRequest& r, std::atomic<float>& progress, const std::atomic<bool>* cancel)
{
    // Said here in the app's words; the child (tilescope --export-steps) refuses it too.
    const ExportFormat format = r.format == "gif" ? ExportFormat::Gif : r.format == "svg" ? ExportFormat::Svg : ExportFormat::Png;
    if (!r.force)
        if (const std::string f = firstExisting(exportFiles(r.dir, format, r.from, r.to)); !f.empty())
            return {"Cannot export: " + f + " exists already (an earlier export?); remove it or choose another folder.",
                    true};
    std::error_code ec;
    fs::create_directories(r.dir, ec);
    if (ec || !fs::is_directory(r.dir))
        return {"Cannot export: the folder '" + r.dir + "' cannot be made (" + ec.message() + ").", true};
    const std::string self = r.program.empty() ? fs::read_symlink("/proc/self/exe", ec).string() : r.program;
    if (ec) return {"Cannot export: this program cannot find its own executable (" + ec.message() + ").", true};

    std::vector<std::string> args = {self,
                                     "--scenario", r.scenarioFile,
                                     "--export-steps", std::to_string(r.from) + ".." + std::to_string(r.to),
                                     "--out", r.dir,
                                     "--format", r.format,
                                     "--window", std::to_string(r.width) + "x" + std::to_string(r.height),
                                     "--theme", r.light ? "light" : "dark"};
    if (r.scale != 1) args.insert(args.end(), {"--scale", number(r.scale)});
    if (!r.panel.empty()) args.insert(args.end(), {"--panel", r.panel});
    if (r.presentation) args.push_back("--presentation");
    if (r.force) args.push_back("--force");
    args.insert(args.end(), {"--ui-scale", number(r.uiScale)});

    // The child's messages go to a log beside the scenario file; its last line is the
    // sentence to show.
    const std::string log = r.scenarioFile + ".log";
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, 1, log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    posix_spawn_file_actions_adddup2(&actions, 1, 2);
    std::vector<char*> argv;
    for (std::string& a : args) argv.push_back(a.data());
    argv.push_back(nullptr);
    pid_t pid = 0;
    const int rc = posix_spawn(&pid, self.c_str(), &actions, nullptr, argv.data(), environ);
    posix_spawn_file_actions_destroy(&actions);
    if (rc != 0) return {"Cannot export: starting '" + self + "' failed (" + std::strerror(rc) + ").", true};

    const int steps = r.to - r.from + 1;
    int status = 0;
    bool cancelled = false;
    while (waitpid(pid, &status, WNOHANG) == 0) {
        if (r.format != "gif") progress = static_cast<float>(writtenSoFar(r.dir, r.format)) / static_cast<float>(steps);
        if (cancel && *cancel && !cancelled) {
            kill(pid, SIGTERM);
            cancelled = true;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
    progress = 1.0f;
    if (cancelled) {
        fs::remove(log, ec);
        // The picture the child was writing when stopped (written as NAME.part, then renamed).
        for (const fs::directory_entry& e : fs::directory_iterator(r.dir, ec))
            if (e.path().extension() == ".part") fs::remove(e.path(), ec);
        if (r.format == "gif") {
            // A GIF cut short is no GIF: the partial file goes.
            for (const std::string& f : exportFiles(r.dir, ExportFormat::Gif, r.from, r.to)) fs::remove(f, ec);
            return {"Export cancelled; no GIF was written.", false};
        }
        const int kept = writtenSoFar(r.dir, r.format);
        return {"Export cancelled after " + std::to_string(kept) + " of " + std::to_string(steps) + " steps; the " +
                    std::to_string(kept) + " file" + (kept == 1 ? "" : "s") + " in " + r.dir + " stay.",
                false};
    }
    std::string last;
    {
        std::ifstream in(log);
        for (std::string line; std::getline(in, line);)
            if (!line.empty()) last = line;
    }
    fs::remove(log, ec);
    if (WIFEXITED(status) && WEXITSTATUS(status) == 0) {
        const std::string what = r.format == "gif" ? "one GIF of " + std::to_string(steps) + " steps"
                                                   : std::to_string(steps) + " " + r.format + " file" +
                                                         (steps == 1 ? "" : "s");
        return {"Exported " + what + " to " + r.dir + ".", false};
    }
    if (last.rfind("tilescope: ", 0) == 0) last = last.substr(11);
    return {last.empty() ? "The export stopped without saying why (exit status " + std::to_string(WEXITSTATUS(status)) + ")."
                         : "Export failed: " + last,
            true};
}

}  // namespace ts::app
