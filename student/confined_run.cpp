// The parent's side of a student's run (student/confined_run.hpp).
#include "student/confined_run.hpp"

#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <optional>

#include <nlohmann/json.hpp>

#include "sim/engine/loaded_runner.hpp"
#include "sim/engine/work_estimate.hpp"
#include "sim/files/simulation_wire.hpp"
#include "student/confine.hpp"
#include "student/runner_protocol.hpp"

namespace ts::student {
namespace {

namespace fs = std::filesystem;

/// Little-endian unsigned of `bytes` bytes at `p`.
uint64_t readLength(const std::string& s, size_t at, int bytes)
{
    uint64_t n = 0;
    for (int i = 0; i < bytes; ++i) n |= static_cast<uint64_t>(static_cast<unsigned char>(s[at + i])) << (8 * i);
    return n;
}

/// The frames of the runner's output (student/runner_protocol.hpp) as they arrive.
struct FrameReader {
    std::string result;      ///< the 'R' frame's payload
    bool haveResult = false;
    std::string sentence;    ///< the 'E' frame's payload
    std::string malformed;   ///< why the stream is not the protocol's
    float progress = 0;
    bool newProgress = false;

    /// Consumes whole frames from the front of `buf`.
    void take(std::string& buf)
    {
        size_t at = 0;
        while (malformed.empty() && at < buf.size()) {
            const char type = buf[at];
            const int bytes = type == 'R' ? 8 : 4;
            if (type != 'P' && type != 'R' && type != 'E') {
                malformed = "an unknown frame";
                break;
            }
            if (buf.size() - at < 1 + static_cast<size_t>(bytes)) break;
            const uint64_t n = readLength(buf, at + 1, bytes);
            if ((type == 'P' && n != 4) || (type == 'E' && n > 4096)) {
                malformed = "a frame of the wrong size";
                break;
            }
            if (buf.size() - at - 1 - bytes < n) break;
            const std::string payload = buf.substr(at + 1 + bytes, n);
            if (type == 'P') {
                float f;
                std::memcpy(&f, payload.data(), sizeof f);
                if (std::isfinite(f)) progress = std::clamp(f, 0.0f, 1.0f), newProgress = true;
            } else if (type == 'E') {
                sentence = payload;
            } else {
                result = payload;
                haveResult = true;
            }
            at += 1 + bytes + n;
        }
        buf.erase(0, at);
    }
};

sim::Simulation runConfined(const KernelDescription& d, const sim::Scenario& s, const sim::SimOptions& opt,
                            const sim::WorkEstimate& work)
{
    if (const std::string refusal = confinementRefusal(); !refusal.empty()) throw sim::RunStopped(refusal);
    const std::string runner = runnerPath();
    if (runner.empty())
        throw sim::RunStopped("your kernel was not run: tilescope-runner, which runs it in its sandbox, is not beside "
                              "this program (build or install both)");
    // A problem whose simulation needs more memory than this machine has free is not
    // started (the CLI's work check says the same before a run of a built-in kernel).
    if (const std::optional<uint64_t> free = sim::availableMemory(); free && work.bytes() > *free)
        throw sim::RunStopped("simulating this problem needs about " + std::to_string(work.bytes() >> 20) +
                              " MiB of memory, more than the " + std::to_string(*free >> 20) +
                              " MiB this machine has free: choose smaller sizes");
    ProcessLimits limits;
    limits.wallSeconds = 5 + 10 * work.seconds();
    limits.cpuSeconds = std::ceil(limits.wallSeconds) * 4 + 10;
    limits.memoryBytes = std::max<uint64_t>(uint64_t{4} << 30, 3 * work.bytes());
    limits.fileBytes = 1 << 20;
    limits.openFiles = 64;
    nlohmann::json request = {{"protocol", kRunnerProtocol},
                              {"kernel", toJson(d)},
                              {"scenario", scenarioToJson(s)},
                              {"options", optionsToJson(opt)},
                              {"memory_bytes", limits.memoryBytes},
                              {"unconfined_allowed", unconfinedAllowed()}};
    Sandbox box;
    box.readOnly = {runner, d.modulePath};
    const std::vector<std::string> argv = confinedCommand(box, {runner});
    // What the result may take: everything the run's memory holds, and room for the frames.
    const size_t maxOut = static_cast<size_t>(std::min<uint64_t>(uint64_t{1} << 33, 2 * work.bytes() + (uint64_t{64} << 20)));
    FrameReader frames;
    const ChildOutcome c = runLimited(argv, limits, request.dump(), maxOut, 16384, opt.cancel, [&](std::string& out) {
        frames.take(out);
        if (frames.newProgress && opt.progress) {
            *opt.progress = static_cast<float>(opt.progressFrom + (opt.progressTo - opt.progressFrom) * frames.progress);
            frames.newProgress = false;
        }
    });
    if (!c.started) throw sim::RunStopped("your kernel was not run: its sandbox could not be started (" + c.err + ")");
    if (c.cancelled) {
        sim::Simulation cancelled;
        cancelled.scenario = s;
        cancelled.cancelled = true;
        cancelled.error = "the simulation was cancelled before it finished";
        return cancelled;
    }
    if (c.timedOut)
        throw sim::RunStopped("your kernel ran longer than " + std::to_string(static_cast<long long>(std::ceil(limits.wallSeconds))) +
                              " s and was stopped: look for a loop that never ends (a counter that never reaches its "
                              "bound) or threads that wait for each other");
    if (c.flooded)
        throw sim::RunStopped("your kernel's run sent back more than " + std::to_string(maxOut >> 20) +
                              " MiB and was stopped; TileScope itself is unharmed");
    if (c.exitStatus == kForbiddenCallExit) {
        const std::string tag = "forbidden system call ";
        const size_t at = c.err.find(tag);
        const int nr = at == std::string::npos ? -1 : std::atoi(c.err.c_str() + at + tag.size());
        throw sim::RunStopped("your kernel's run was stopped: it asked the operating system for " +
                              (nr >= 0 ? systemCallName(nr) : std::string("a system call")) +
                              ", which a kernel may not (it may only compute on its arrays)");
    }
    if (c.signal) throw sim::RunStopped(signalSentence(c.signal, limits.memoryBytes));
    if (!frames.malformed.empty())
        throw sim::RunStopped("your kernel's run sent back something TileScope cannot read (" + frames.malformed + ")");
    if (!frames.sentence.empty()) throw sim::RunStopped(frames.sentence);
    if (c.exitStatus != 0 || !frames.haveResult) {
        std::string why = c.err.substr(0, c.err.find('\n'));
        throw sim::RunStopped("your kernel's run ended with status " + std::to_string(c.exitStatus) + " and no result" +
                              (why.empty() ? std::string() : " (" + why + ")"));
    }
    try {
        sim::Simulation r = sim::decodeSimulation(frames.result, s);
        if (opt.progress) *opt.progress = static_cast<float>(opt.progressTo);
        return r;
    } catch (const std::exception& e) {
        throw sim::RunStopped(std::string("your kernel's run sent back a result TileScope cannot read (") + e.what() + ")");
    }
}

}  // namespace

std::string runnerPath()
{
    if (const char* p = std::getenv("TILESCOPE_RUNNER"); p && *p) return p;
    std::error_code ec;
    const fs::path self = fs::read_symlink("/proc/self/exe", ec);
    if (ec) return "";
    const fs::path runner = self.parent_path() / "tilescope-runner";
    return fs::exists(runner, ec) ? runner.string() : "";
}

void useConfinedRunner(const KernelDescription& d)
{
    sim::setLoadedRunner(d.name, [d](const sim::Scenario& s, const sim::SimOptions& opt, const sim::WorkEstimate& work) {
        return runConfined(d, s, opt, work);
    });
}

}  // namespace ts::student
