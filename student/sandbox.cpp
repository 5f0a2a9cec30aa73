// The child process of a student's run (student/sandbox.hpp).
#include "student/sandbox.hpp"

#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <sstream>
#include <thread>

namespace ts::student {
namespace {

#if defined(__SANITIZE_ADDRESS__)
constexpr bool kAddressSanitized = true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
constexpr bool kAddressSanitized = true;
#else
constexpr bool kAddressSanitized = false;
#endif
#else
constexpr bool kAddressSanitized = false;
#endif

/// `s` without its final newline.
std::string trimmed(std::string s)
{
    while (!s.empty() && s.back() == '\n') s.pop_back();
    return s;
}

}  // namespace

std::optional<int> continueInChild(double seconds, uint64_t memoryBytes, const std::string& prefix,
                                   std::string* message)
{
    if (message) message->clear();
    std::ostringstream said;   // the sentence for `message`
    std::ostream& err = message ? static_cast<std::ostream&>(said) : std::cerr;
    const std::string lead = message ? std::string() : prefix;
    std::cout.flush();
    std::cerr.flush();
    std::fflush(nullptr);
    const pid_t pid = fork();
    if (pid < 0) {
        // No child to be had: run here, unguarded, rather than not at all.
        std::cerr << prefix << "could not start a guarded child process (" << std::strerror(errno)
                  << "); running the kernel in this one\n";
        return std::nullopt;
    }
    if (pid == 0) {
        if (memoryBytes > 0 && !kAddressSanitized) {
            const rlimit as{memoryBytes, memoryBytes};
            setrlimit(RLIMIT_AS, &as);
        }
        // CPU time as a second stop, should the parent be gone.
        const rlim_t cpu = static_cast<rlim_t>(std::ceil(seconds)) * 4 + 10;
        const rlimit c{cpu, cpu + 5};
        setrlimit(RLIMIT_CPU, &c);
        return std::nullopt;
    }
    const auto start = std::chrono::steady_clock::now();
    int status = 0;
    for (;;) {
        const pid_t w = waitpid(pid, &status, WNOHANG);
        if (w == pid) break;
        if (w < 0) return 1;
        if (std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() > seconds) {
            kill(pid, SIGKILL);
            waitpid(pid, &status, 0);
            err << lead << "your kernel ran longer than " << static_cast<long long>(std::ceil(seconds))
                      << " s and was stopped: look for a loop that never ends (a counter that never reaches its "
                         "bound) or threads that wait for each other\n";
            if (message) *message = trimmed(said.str());
            return 1;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    if (WIFEXITED(status)) return WEXITSTATUS(status);
    const int sig = WIFSIGNALED(status) ? WTERMSIG(status) : 0;
    if (sig == SIGXCPU)
        err << lead << "your kernel used more CPU time than allowed and was stopped: look for a loop that "
                              "never ends\n";
    else if (sig == SIGKILL || sig == SIGABRT)
        err << lead << "your kernel's run ended abnormally (" << strsignal(sig)
                  << "), most likely out of memory: the limit was " << (memoryBytes >> 20) << " MiB\n";
    else
        err << lead << "your kernel's run crashed (" << strsignal(sig) << "); TileScope itself is unharmed\n";
    if (message) *message = trimmed(said.str());
    return 1;
}

}  // namespace ts::student
