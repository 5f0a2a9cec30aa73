// tilescope-startup-bench: the cost of starting a program, for commands that do no GPU work.
// Runs each command RUNS times (fork, exec, wait4) and prints the median and fastest wall
// time, the median processor time the child used (user + system: what the command itself
// costs, much less swayed than the wall time by other work on a busy machine) and the peak
// resident set the kernel reports for the child (ru_maxrss). This program
// is small, so the resident set it passes on at fork is small too; the `/bin/true` row shows
// that floor. scripts/bench-startup.sh runs it over the CLI and the app.
//
// Usage: tilescope-startup-bench RUNS NAME -- ARGV... [;; NAME -- ARGV...]...
#include <sys/resource.h>
#include <sys/wait.h>
#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

namespace {

struct Case {
    std::string name;
    std::vector<std::string> argv;
};

struct Run {
    double ms = 0;
    double cpuMs = 0;   ///< the child's user + system time
    long rssKb = 0;
    int status = 0;
};

/// Runs argv once with stdout and stderr sent to /dev/null.
Run runOnce(const std::vector<std::string>& argv)
{
    std::vector<char*> args;
    for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    const auto t0 = std::chrono::steady_clock::now();
    const pid_t pid = fork();
    if (pid == 0) {
        const int null = open("/dev/null", O_WRONLY);
        dup2(null, 1);
        dup2(null, 2);
        execv(args[0], args.data());
        _exit(127);
    }
    Run r;
    rusage usage{};
    if (pid < 0 || wait4(pid, &r.status, 0, &usage) < 0) {
        std::perror("tilescope-startup-bench");
        std::exit(1);
    }
    r.ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    r.rssKb = usage.ru_maxrss;
    const auto msOf = [](const timeval& t) { return t.tv_sec * 1e3 + t.tv_usec / 1e3; };
    r.cpuMs = msOf(usage.ru_utime) + msOf(usage.ru_stime);
    return r;
}

}  // namespace

int main(int argc, char** argv)
{
    if (argc < 4) {
        std::fprintf(stderr, "Usage: %s RUNS NAME -- ARGV... [;; NAME -- ARGV...]...\n", argv[0]);
        return 2;
    }
    const int runs = std::atoi(argv[1]);
    if (runs < 1) {
        std::fprintf(stderr, "tilescope-startup-bench: RUNS must be a whole number of at least 1; got '%s'.\n", argv[1]);
        return 2;
    }
    std::vector<Case> cases{{"/bin/true (the floor)", {"/bin/true"}}};
    for (int i = 2; i < argc;) {
        Case c{argv[i++], {}};
        if (i >= argc || std::string(argv[i]) != "--") {
            std::fprintf(stderr, "tilescope-startup-bench: '--' must follow the name '%s'.\n", c.name.c_str());
            return 2;
        }
        for (++i; i < argc && std::string(argv[i]) != ";;"; ++i) c.argv.push_back(argv[i]);
        if (i < argc) ++i;
        if (c.argv.empty()) {
            std::fprintf(stderr, "tilescope-startup-bench: '%s' has no command.\n", c.name.c_str());
            return 2;
        }
        cases.push_back(c);
    }
    std::printf("%-36s %10s %8s %13s %12s %6s   (%d runs each)\n", "command", "median ms", "min ms", "median cpu ms",
                "peak RSS MB", "exit", runs);
    for (const Case& c : cases) {
        std::vector<double> ms, cpu;
        long rss = 0;
        int status = 0;
        for (int r = 0; r < runs; ++r) {
            const Run run = runOnce(c.argv);
            ms.push_back(run.ms);
            cpu.push_back(run.cpuMs);
            rss = std::max(rss, run.rssKb);
            status = run.status;
        }
        std::sort(ms.begin(), ms.end());
        std::sort(cpu.begin(), cpu.end());
        const int code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
        std::printf("%-36s %10.1f %8.1f %13.1f %12.1f %6d\n", c.name.c_str(), ms[ms.size() / 2], ms.front(),
                    cpu[cpu.size() / 2], rss / 1024.0, code);
    }
}
