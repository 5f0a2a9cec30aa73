#include "student_kernel.hpp"

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>

#include "sim/catalogue/loaded_kernels.hpp"
#include "sim/engine/work_estimate.hpp"
#ifdef TILESCOPE_HAVE_STUDENT
#include "student/module.hpp"
#endif

extern char** environ;

namespace ts::app {
namespace fs = std::filesystem;

std::vector<std::string> errorsByName(const std::vector<std::string>& errors, const std::string& path)
{
    const std::string name = fs::path(path).filename().string();
    std::vector<std::string> out = errors;
    for (std::string& e : out)
        if (!path.empty() && e.rfind(path + ":", 0) == 0) e = name + e.substr(path.size());
    return out;
}

bool canLoadKernelFiles()
{
#ifdef TILESCOPE_HAVE_STUDENT
    return true;
#else
    return false;
#endif
}

KernelBuild buildKernelFile(const std::string& path)
{
    KernelBuild b;
    b.path = path;
    const auto start = std::chrono::steady_clock::now();
#ifdef TILESCOPE_HAVE_STUDENT
    try {
        const student::LoadResult r = student::loadKernelFile(path);
        for (const student::Diagnostic& d : r.errors) b.errors.push_back(student::formatDiagnostic(path, d));
        if (r.ok()) b.info = r.info;
        else if (b.errors.empty()) b.errors.push_back(path + ": error: the kernel could not be loaded");
    } catch (const std::exception& e) {
        b.errors.push_back(path + ": error: " + e.what());
    }
#else
    b.errors.push_back("this build cannot load a kernel file: it was built without libclang (install libclang-14-dev "
                       "and rebuild)");
#endif
    b.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return b;
}

sim::Preset studentPreset(sim::Preset p, const sim::KernelInfo& k, const KernelProblem& size)
{
    sim::Scenario& s = p.scenario;
    s.kernel = k.name;
    s.info = nullptr;
    s.tile = size.tile > 0 ? size.tile : k.tiles.empty() ? 4 : k.tiles.front();
    const int side = size.width > 0 ? size.width : 2 * s.tile;
    s.j = s.k = s.l = side;
    if (size.j > 0 && size.k > 0 && size.l > 0) {
        s.j = size.j;
        s.k = size.k;
        s.l = size.l;
    }
    s.width = side;
    s.height = k.family == sim::Family::Conv2D ? (size.height > 0 ? size.height : 2 * s.tile) : 1;
    s.maskWidth = size.maskWidth > 0 ? size.maskWidth : 5;
    if (k.family == sim::Family::Array) {
        // An array problem: its file's default sizes, unless the command line gives others
        // (--width the last size, --height the first of two).
        if (const auto spec = sim::loadedArraySpec(k.name); spec && !spec->defaults.empty()) {
            s.width = size.width > 0 ? size.width : spec->defaults.back();
            s.height = spec->defaults.size() == 2 ? (size.height > 0 ? size.height : spec->defaults.front()) : 1;
        }
    }
    s.block = {};
    s.dropBarriers = 0;
    p.title = k.summary;
    p.name = k.name;
    p.step = 0;
    p.narration.clear();
    p.narrate.clear();
    p.questions.clear();
    p.questionProblems.clear();
    p.occupancy.reset();
    p.thread.reset();
    p.file.clear();
    return p;
}

std::string kernelFileOf(const sim::Scenario& s)
{
    const sim::KernelInfo* info = sim::findLoadedKernel(s.kernel);
    return info ? std::string(info->sourceFile) : std::string();
}

std::string cliBesideApp()
{
    std::error_code ec;
    const fs::path self = fs::read_symlink("/proc/self/exe", ec);
    if (ec) return "";
    const fs::path cli = self.parent_path() / "tilescope-cli";
    return fs::exists(cli, ec) ? cli.string() : "";
}

namespace {

/// The last line of `text` that starts with `prefix`, without it; "" if none.
std::string lineAfter(const std::string& text, const std::string& prefix)
{
    std::istringstream in(text);
    std::string line, found;
    while (std::getline(in, line))
        if (line.rfind(prefix, 0) == 0) found = line.substr(prefix.size());
    return found;
}

}  // namespace

std::string probeKernelRun(const std::string& cli, const std::string& kernelFile, const sim::Preset& p,
                           unsigned threads, const std::atomic<bool>* cancel)
{
    if (cli.empty())
        return "Your kernel was not run: tilescope-cli, which runs it in a guarded child process first, is not beside "
               "the app (build or install both).";
    const sim::Scenario& s = p.scenario;
    std::vector<std::string> args = {cli, "simulate", "--kernel-file", kernelFile, "--tile", std::to_string(s.tile),
                                     "--seed", std::to_string(s.seed), "--schedule", sim::scheduleName(p.schedule),
                                     "--schedule-seed", std::to_string(p.scheduleSeed), "--yes", "--quiet"};
    const sim::KernelInfo* family = s.kernelInfo();
    if (family && family->family == sim::Family::Array) {
        args.push_back("--width");
        args.push_back(std::to_string(s.width));
        if (const auto spec = sim::loadedArraySpec(s.kernel); spec && spec->sizes.size() == 2) {
            args.push_back("--height");
            args.push_back(std::to_string(s.height));
        }
    } else if (sim::isConvolution(s.kernel)) {
        for (const std::string& a : {std::string("--width"), std::to_string(s.width), std::string("--mask-width"),
                                     std::to_string(s.maskWidth)})
            args.push_back(a);
        const sim::KernelInfo* info = s.kernelInfo();
        if (info && info->family == sim::Family::Conv2D) {
            args.push_back("--height");
            args.push_back(std::to_string(s.height));
        }
    } else {
        for (const std::string& a : {std::string("--j"), std::to_string(s.j), std::string("--k"), std::to_string(s.k),
                                     std::string("--l"), std::to_string(s.l)})
            args.push_back(a);
    }
    if (threads > 0) {
        args.push_back("--threads");
        args.push_back(std::to_string(threads));
    }
    // The child's stderr (the sentence) into a file of this process's own.
    const fs::path log = fs::temp_directory_path() /
                         ("tilescope-probe-" + std::to_string(::getpid()) + "-" +
                          std::to_string(std::hash<std::thread::id>{}(std::this_thread::get_id())) + ".log");
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0);
    posix_spawn_file_actions_addopen(&actions, 2, log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
    std::vector<char*> argv;
    for (std::string& a : args) argv.push_back(a.data());
    argv.push_back(nullptr);
    // A process group of its own: stopping it stops the CLI's own child (the kernel's run)
    // too, which would otherwise run on to its CPU-time limit.
    posix_spawnattr_t attr;
    posix_spawnattr_init(&attr);
    posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETPGROUP);
    posix_spawnattr_setpgroup(&attr, 0);
    pid_t pid = 0;
    const int rc = posix_spawn(&pid, argv[0], &actions, &attr, argv.data(), environ);
    posix_spawn_file_actions_destroy(&actions);
    posix_spawnattr_destroy(&attr);
    if (rc != 0)
        return std::string("Your kernel was not run: the guarded child process (tilescope-cli) did not start (") +
               std::strerror(rc) + ").";
    // The CLI stops the kernel at its own limit; this one only guards against the CLI itself
    // hanging (its limit plus a minute for building the module).
    const double limit = 5 + 10 * sim::estimateWork(s, sim::SimOptions{}).seconds() + 60;
    const auto start = std::chrono::steady_clock::now();
    int status = 0;
    bool stopped = false;
    for (;;) {
        const pid_t w = waitpid(pid, &status, WNOHANG);
        if (w == pid) break;
        if (w < 0) return "Your kernel was not run: the guarded child process was lost.";
        const double t = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        if ((cancel && *cancel) || t > limit) {
            kill(-pid, SIGKILL);
            waitpid(pid, &status, 0);
            stopped = true;
            break;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    std::string err;
    {
        std::ifstream in(log);
        std::ostringstream o;
        o << in.rdbuf();
        err = o.str();
    }
    std::error_code ec;
    fs::remove(log, ec);
    if (stopped)
        return cancel && *cancel ? "Cancelled while your kernel ran in its guarded child process."
                                 : "Your kernel's guarded run did not end and was stopped.";
    if (WIFEXITED(status) && WEXITSTATUS(status) == 0) return "";
    // The sandbox's own sentences (student/sandbox.cpp): the kernel ran too long, crashed,
    // ran out of memory.
    const std::string prefix = "tilescope-cli: ";
    if (std::string s2 = lineAfter(err, prefix + "your kernel"); !s2.empty()) {
        std::string sentence = "Your kernel" + s2;
        if (sentence.back() != '.') sentence += '.';
        return sentence;
    }
    // A fault the simulator caught is a normal end: the app's own run shows it.
    if (WIFEXITED(status) && WEXITSTATUS(status) == 1 && err.find("the simulated kernel faulted") != std::string::npos)
        return "";
    if (!WIFEXITED(status))
        return std::string("Your kernel's guarded run ended abnormally (") + strsignal(WTERMSIG(status)) +
               "); TileScope itself is unharmed.";
    std::string first = err.substr(0, err.find('\n'));
    if (first.rfind(prefix, 0) == 0) first.erase(0, prefix.size());
    return "Your kernel's guarded run failed" + (first.empty() ? std::string(".") : ": " + first);
}

int probeSeconds(const sim::Scenario& s, unsigned threads)
{
    sim::SimOptions o;
    o.trace = false;
    o.threads = threads;
    return static_cast<int>(std::ceil(5 + 10 * sim::estimateWork(s, o).seconds()));
}

std::string runDiagnosis(const sim::Simulation& s)
{
    if (!s.error.empty()) return s.error;
    if (!s.hazards.sites.empty() || !s.hazards.uninitialisedSites.empty()) {
        // The first race's kind, array and two lines (else the first read of a slot no
        // thread wrote, with its line); counts and example threads are the Hazards panel's.
        const std::string report = s.hazards.report(s.arrays, s.trace.blockDim);
        return report.substr(0, report.find_first_of(";\n")) + ".";
    }
    if (!s.matchesReference) {
        // An array problem's output has the file's own name.
        const std::string out = sim::familyOf(s.scenario) == sim::Family::Array && s.arrays.size() > 2 ? s.arrays[2].name : "P";
        return out + " differs from the CPU reference: the wrong elements of " + out + " are marked.";
    }
    return "";
}

}  // namespace ts::app
