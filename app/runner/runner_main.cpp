// tilescope-runner: the only process that opens a student's compiled kernel module. TileScope
// (the CLI, the app, the grader) starts it inside a bubblewrap sandbox under limits
// (student/confine.hpp) and sends it one request on standard input; it registers the
// kernel from its description, installs the system-call allowlist, and only then opens the
// module, simulates the scenario and sends the Simulation back on standard output
// (student/runner_protocol.hpp). It reads no file but the module and writes none.
#include <dlfcn.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstring>
#include <mutex>
#include <new>
#include <string>
#include <thread>

#include <nlohmann/json.hpp>

#include "sim/catalogue/scenario.hpp"
#include "sim/engine/simulate.hpp"
#include "sim/engine/work_estimate.hpp"
#include "sim/files/simulation_wire.hpp"
#include "student/confine.hpp"
#include "student/kernel_description.hpp"
#include "student/module_abi.hpp"
#include "student/runner_protocol.hpp"

namespace {

using namespace ts;
using nlohmann::json;

std::mutex gOut;   // frames are written whole, one at a time

/// Writes all of `bytes` to standard output; false when the parent is gone.
bool writeAll(const std::string& bytes)
{
    std::lock_guard<std::mutex> g(gOut);
    size_t done = 0;
    while (done < bytes.size()) {
        const ssize_t w = write(1, bytes.data() + done, bytes.size() - done);
        if (w < 0 && errno == EINTR) continue;
        if (w <= 0) return false;
        done += static_cast<size_t>(w);
    }
    return true;
}

/// Ends the run with one sentence for the student (an 'E' frame) and exit status 3.
[[noreturn]] void fail(const std::string& sentence)
{
    writeAll(student::frame('E', sentence));
    _exit(3);
}

/// Standard input, up to `limit` bytes.
std::string readRequest(size_t limit)
{
    std::string text;
    char buf[65536];
    for (;;) {
        const ssize_t r = read(0, buf, sizeof buf);
        if (r < 0 && errno == EINTR) continue;
        if (r <= 0) break;
        text.append(buf, static_cast<size_t>(r));
        if (text.size() > limit) fail("the request to tilescope-runner is larger than it accepts");
    }
    return text;
}

}  // namespace

int main(int argc, char** argv)
{
    if (argc > 1 && (std::strcmp(argv[1], "--help") == 0 || std::strcmp(argv[1], "-h") == 0)) {
        std::printf("tilescope-runner: runs a student's compiled kernel for TileScope, inside its sandbox.\n"
                    "It is started by tilescope and tilescope-cli, never by hand: it reads one request on\n"
                    "standard input and answers on standard output (docs/security.md).\n");
        return 0;
    }
    json request;
    student::KernelDescription d;
    sim::Scenario s;
    sim::SimOptions opt;
    uint64_t memoryBytes = 0;
    bool unconfined = false;
    try {
        request = json::parse(readRequest(size_t{64} << 20));
        if (request.at("protocol").get<int>() != student::kRunnerProtocol)
            fail("tilescope-runner belongs to another version of TileScope (build or install both together)");
        d = student::descriptionFromJson(request.at("kernel"));
        s = student::scenarioFromJson(request.at("scenario"));
        opt = student::optionsFromJson(request.at("options"));
        memoryBytes = request.at("memory_bytes").get<uint64_t>();
        unconfined = request.at("unconfined_allowed").get<bool>();
    } catch (const std::exception& e) {
        fail(std::string("tilescope-runner could not read its request (") + e.what() + ")");
    }

    // The kernel as the parent registered it: same name, launch and binding rules.
    student::registerDescription(d);
    if (const std::string e = sim::validate(s); !e.empty()) fail(e);
    const sim::WorkEstimate work = sim::estimateWork(s, opt);

    // From here on the process may only compute, read what the sandbox shows and write to
    // its standard output and error: the module's own code, its constructors included,
    // runs under this filter.
    // Without the filter (a build without libseccomp) only a run the user allowed unconfined
    // goes on.
    if (const std::string e = student::installSyscallFilter(); !e.empty() && !unconfined)
        fail("your kernel was not run: " + e + "; pass --allow-unconfined to run a file you trust without it (docs/security.md)");

    void* handle = dlopen(d.modulePath.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!handle) {
        const char* why = dlerror();
        fail(std::string("cannot load the compiled kernel: ") + (why ? why : "dlopen failed"));
    }
    auto abi = reinterpret_cast<int (*)()>(dlsym(handle, student::kAbiSymbol));
    auto bind = reinterpret_cast<student::BindFunction>(dlsym(handle, student::kBindSymbol));
    if (!abi || !bind || abi() != student::kModuleAbi)
        fail("the compiled kernel " + d.modulePath + " was built for another TileScope; it is rebuilt when loaded without the cache");
    student::bindModule(d, bind);

    // Progress, every tenth of a second, while the simulation runs.
    std::atomic<float> progress{0};
    opt.progress = &progress;
    std::mutex m;
    std::condition_variable cv;
    bool done = false;
    std::thread reporter([&] {
        std::unique_lock<std::mutex> lock(m);
        while (!cv.wait_for(lock, std::chrono::milliseconds(100), [&] { return done; })) {
            const float f = progress.load();
            std::string bytes(sizeof f, '\0');
            std::memcpy(bytes.data(), &f, sizeof f);
            if (!writeAll(student::frame('P', bytes))) break;
        }
    });
    auto stopReporter = [&] {
        {
            std::lock_guard<std::mutex> g(m);
            done = true;
        }
        cv.notify_all();
        reporter.join();
    };
    std::string result;
    try {
        const sim::Simulation r = sim::simulate(s, opt, work);
        stopReporter();
        result = sim::encodeSimulation(r);
    } catch (const std::bad_alloc&) {
        if (reporter.joinable()) stopReporter();
        fail("your kernel used all of the " + std::to_string(memoryBytes >> 20) +
             " MiB of memory its run may use and was stopped: look for a loop that never ends (a counter that never "
             "reaches its bound)");
    } catch (const std::exception& e) {
        if (reporter.joinable()) stopReporter();
        fail(std::string("the simulation failed: ") + e.what());
    }
    if (!writeAll(student::frame('R', result))) return 4;
    return 0;
}
