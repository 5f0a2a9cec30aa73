// Confinement of a student's code (student/confine.hpp).
#include "student/confine.hpp"

#include <fcntl.h>
#include <poll.h>
#ifdef TILESCOPE_HAVE_SECCOMP
#include <linux/sched.h>   // CLONE_THREAD, for the filter's rule on clone
#include <seccomp.h>
#endif
#include <signal.h>
#ifndef __EMSCRIPTEN__
#include <sys/prctl.h>   // PR_SET_PDEATHSIG (no processes in the web build)
#endif
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <mutex>

namespace ts::student {
namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

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

std::atomic<bool> gAllowUnconfined{false};

/// bubblewrap's path: $TILESCOPE_BWRAP, else bwrap on the usual paths; "" if none.
std::string bwrapPath()
{
    if (const char* p = std::getenv("TILESCOPE_BWRAP"); p && *p) return p;
    for (const char* p : {"/usr/bin/bwrap", "/bin/bwrap", "/usr/local/bin/bwrap"})
        if (access(p, X_OK) == 0) return p;
    return "";
}

/// The host's /bin, /lib, /lib32, /lib64 and /sbin as the sandbox shows them: a symbolic
/// link where the host has one (Debian's merged /usr), else the folder read-only.
void hostRoots(std::vector<std::string>& args)
{
    for (const char* top : {"/bin", "/sbin", "/lib", "/lib32", "/lib64"}) {
        std::error_code ec;
        const fs::file_status st = fs::symlink_status(top, ec);
        if (ec || !fs::exists(st)) continue;
        if (fs::is_symlink(st)) {
            const fs::path target = fs::read_symlink(top, ec);
            if (!ec) args.insert(args.end(), {"--symlink", target.string(), top});
        } else {
            args.insert(args.end(), {"--ro-bind", top, top});
        }
    }
}

/// bubblewrap's arguments for `box`, without the program.
std::vector<std::string> bwrapArgs(const std::string& bwrap, const Sandbox& box)
{
    std::vector<std::string> a = {bwrap, "--unshare-all", "--die-with-parent", "--new-session", "--cap-drop", "ALL",
                                  "--clearenv", "--setenv", "PATH", "/usr/bin:/bin", "--ro-bind", "/usr", "/usr"};
    hostRoots(a);
    if (box.etc)
        for (const char* f : {"/etc/ld.so.cache", "/etc/ld.so.conf", "/etc/ld.so.conf.d", "/etc/alternatives"})
            if (access(f, F_OK) == 0) a.insert(a.end(), {"--ro-bind", f, f});
    if (box.minimalDev) a.insert(a.end(), {"--dev", "/dev"});
    if (box.privateTmp) a.insert(a.end(), {"--tmpfs", "/tmp"});
    for (const std::string& p : box.readOnly) a.insert(a.end(), {"--ro-bind", p, p});
    for (const std::string& p : box.writable) a.insert(a.end(), {"--bind", p, p});
    // bubblewrap's own root is a fresh tmpfs: nothing may be written there either.
    a.insert(a.end(), {"--remount-ro", "/", "--chdir", "/", "--"});
    return a;
}

}  // namespace

const std::string& confinementProblem()
{
    static std::once_flag once;
    static std::string problem;
    std::call_once(once, [] {
#if defined(__EMSCRIPTEN__)
        problem = "the web build cannot start a separate process";
        return;
#endif
        const std::string bwrap = bwrapPath();
        if (bwrap.empty()) {
            problem = "bubblewrap (bwrap) is not installed (apt-get install bubblewrap)";
            return;
        }
        std::vector<std::string> argv = bwrapArgs(bwrap, Sandbox{});
        argv.push_back("/usr/bin/true");
        ProcessLimits limits;
        limits.wallSeconds = 20;
        const ChildOutcome c = runLimited(argv, limits, "", 4096, 4096);
        if (!c.started) {
            problem = "bubblewrap could not be started (" + c.err + ")";
        } else if (c.exitStatus != 0) {
            std::string why = c.err;
            while (!why.empty() && (why.back() == '\n' || why.back() == ' ')) why.pop_back();
            if (why.rfind("bwrap: ", 0) == 0) why = why.substr(7);
            problem = "bubblewrap cannot make a sandbox on this machine (" + (why.empty() ? "exit status " + std::to_string(c.exitStatus) : why) +
                      "; user namespaces may be disabled, as in some containers)";
        }
    });
    return problem;
}

void allowUnconfined(bool allow) { gAllowUnconfined = allow; }

bool unconfinedAllowed()
{
    if (gAllowUnconfined) return true;
    const char* e = std::getenv("TILESCOPE_ALLOW_UNCONFINED");
    return e && std::strcmp(e, "1") == 0;
}

std::string confinementRefusal()
{
    const std::string& problem = confinementProblem();
    if (problem.empty() || unconfinedAllowed()) return "";
    return "TileScope runs a student's kernel only inside a sandbox, and none can be made here: " + problem +
           ". Install bubblewrap and allow user namespaces, or, if you trust this file, run it without the sandbox "
           "with --allow-unconfined (TILESCOPE_ALLOW_UNCONFINED=1 for the app) (docs/security.md).";
}

std::vector<std::string> confinedCommand(const Sandbox& box, const std::vector<std::string>& program)
{
    std::vector<std::string> argv;
    if (confinementProblem().empty()) argv = bwrapArgs(bwrapPath(), box);
    argv.insert(argv.end(), program.begin(), program.end());
    return argv;
}

ChildOutcome runLimited(const std::vector<std::string>& argv, const ProcessLimits& limits, const std::string& input,
                        size_t maxOut, size_t maxErr, const std::atomic<bool>* cancel,
                        const std::function<void(std::string& out)>& onOutput)
{
    ChildOutcome c;
    if (argv.empty()) {
        c.err = "nothing to run";
        return c;
    }
#if defined(__EMSCRIPTEN__)
    // A page (and Node through Emscripten) has no processes to start.
    (void)limits, (void)input, (void)maxOut, (void)maxErr, (void)cancel, (void)onOutput;
    c.err = "the web build cannot start a process";
    return c;
#else
    // Everything the child needs is made before fork: between fork and exec a child of a
    // threaded process may only make async-signal-safe calls.
    std::vector<char*> args;
    for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    rlimit rl[5];
    int which[5];
    int n = 0;
    auto add = [&](int resource, rlim_t value) {
        which[n] = resource;
        rl[n++] = rlimit{value, value};
    };
    if (limits.cpuSeconds > 0) add(RLIMIT_CPU, static_cast<rlim_t>(std::ceil(limits.cpuSeconds)));
    if (limits.memoryBytes > 0 && !kAddressSanitized) add(RLIMIT_AS, limits.memoryBytes);
    if (limits.fileBytes > 0) add(RLIMIT_FSIZE, limits.fileBytes);
    if (limits.openFiles > 0) add(RLIMIT_NOFILE, limits.openFiles);
    add(RLIMIT_CORE, 0);

    // A child that ends before reading all of its input must not end this process too.
    static std::once_flag ignorePipe;
    std::call_once(ignorePipe, [] { signal(SIGPIPE, SIG_IGN); });
    int in[2], out[2], err[2];
    if (pipe2(in, O_CLOEXEC) != 0) {
        c.err = std::strerror(errno);
        return c;
    }
    if (pipe2(out, O_CLOEXEC) != 0 || pipe2(err, O_CLOEXEC) != 0) {
        c.err = std::strerror(errno);
        close(in[0]), close(in[1]);
        return c;
    }
    const pid_t parent = getpid();
    const Clock::time_point start = Clock::now();
    const pid_t pid = fork();
    if (pid < 0) {
        c.err = std::strerror(errno);
        for (int fd : {in[0], in[1], out[0], out[1], err[0], err[1]}) close(fd);
        return c;
    }
    if (pid == 0) {
        // The child: its own session (and so process group), killed with its parent.
        setsid();
        prctl(PR_SET_PDEATHSIG, SIGKILL);
        if (getppid() != parent) _exit(125);
        for (int i = 0; i < n; ++i) setrlimit(which[i], &rl[i]);
        dup2(in[0], 0);
        dup2(out[1], 1);
        dup2(err[1], 2);
        // Every other descriptor of the parent (the app's windows, files) stays behind.
        for (int fd = 3; fd < 1024; ++fd) close(fd);
        execv(args[0], args.data());
        const char msg[] = "cannot start the program\n";
        (void)!write(2, msg, sizeof msg - 1);
        _exit(127);
    }
    close(in[0]);
    close(out[1]);
    close(err[1]);
    c.started = true;
    fcntl(in[1], F_SETFL, O_NONBLOCK);
    size_t written = 0;
    int inFd = in[1];
    if (input.empty()) {
        close(inFd);
        inFd = -1;
    }
    int outFd = out[0], errFd = err[0];
    bool killed = false;
    auto stop = [&] {
        if (!killed) kill(-pid, SIGKILL), kill(pid, SIGKILL);
        killed = true;
    };
    char buf[65536];
    while (outFd >= 0 || errFd >= 0) {
        pollfd fds[3];
        int nfds = 0;
        if (outFd >= 0) fds[nfds++] = pollfd{outFd, POLLIN, 0};
        if (errFd >= 0) fds[nfds++] = pollfd{errFd, POLLIN, 0};
        if (inFd >= 0) fds[nfds++] = pollfd{inFd, POLLOUT, 0};
        const int ready = poll(fds, nfds, 20);
        if (ready < 0 && errno != EINTR) break;
        for (int i = 0; i < nfds && ready > 0; ++i) {
            if (!fds[i].revents) continue;
            if (fds[i].fd == inFd) {
                const ssize_t w = write(inFd, input.data() + written, input.size() - written);
                if (w > 0) written += static_cast<size_t>(w);
                if (w < 0 && errno != EAGAIN && errno != EINTR) written = input.size();
                if (written >= input.size()) {
                    close(inFd);
                    inFd = -1;
                }
                continue;
            }
            const bool isOut = fds[i].fd == outFd;
            const ssize_t r = read(fds[i].fd, buf, sizeof buf);
            if (r <= 0) {
                if (r < 0 && (errno == EINTR || errno == EAGAIN)) continue;
                close(fds[i].fd);
                (isOut ? outFd : errFd) = -1;
                continue;
            }
            std::string& to = isOut ? c.out : c.err;
            const size_t cap = isOut ? maxOut : maxErr;
            if (isOut && to.size() + static_cast<size_t>(r) > cap) {
                c.flooded = true;
                stop();
                continue;
            }
            if (!isOut && to.size() >= cap) continue;   // standard error past its cap is dropped
            to.append(buf, static_cast<size_t>(std::min<size_t>(static_cast<size_t>(r), isOut ? r : cap - to.size())));
            if (isOut && onOutput) onOutput(to);
        }
        const double t = std::chrono::duration<double>(Clock::now() - start).count();
        if (!killed && limits.wallSeconds > 0 && t > limits.wallSeconds) {
            c.timedOut = true;
            stop();
        }
        if (!killed && cancel && *cancel) {
            c.cancelled = true;
            stop();
        }
        // A killed child's descendants may hold the pipes open a moment longer: stop
        // reading once it is gone.
        if (killed) {
            siginfo_t info{};
            if (waitid(P_PID, static_cast<id_t>(pid), &info, WEXITED | WNOHANG | WNOWAIT) == 0 && info.si_pid == pid) break;
        }
    }
    if (inFd >= 0) close(inFd);
    if (outFd >= 0) close(outFd);
    if (errFd >= 0) close(errFd);
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    kill(-pid, SIGKILL);   // anything left in its process group
    c.seconds = std::chrono::duration<double>(Clock::now() - start).count();
    if (WIFEXITED(status)) {
        c.exitStatus = WEXITSTATUS(status);
        // bubblewrap reports a program that a signal ended as 128 + the signal.
        if (c.exitStatus > 128 && c.exitStatus < 128 + 65) c.signal = c.exitStatus - 128;
    } else if (WIFSIGNALED(status)) {
        c.signal = WTERMSIG(status);
    }
    return c;
#endif
}

namespace {

/// The runner's answer to a forbidden system call: name its number and end the process.
/// Only async-signal-safe calls: write and _exit.
void onForbiddenCall(int, siginfo_t* info, void*)
{
    char msg[96] = "tilescope-runner: forbidden system call ";
    size_t len = std::strlen(msg);
    unsigned v = info ? static_cast<unsigned>(info->si_syscall) : 0;
    char digits[12];
    int d = 0;
    do digits[d++] = static_cast<char>('0' + v % 10), v /= 10;
    while (v && d < 11);
    while (d) msg[len++] = digits[--d];
    msg[len++] = '\n';
    (void)!write(2, msg, len);
    _exit(kForbiddenCallExit);
}

}  // namespace

#ifdef TILESCOPE_HAVE_SECCOMP
std::string installSyscallFilter()
{
    struct sigaction sa {};
    sa.sa_sigaction = onForbiddenCall;
    sa.sa_flags = SA_SIGINFO;
    sigemptyset(&sa.sa_mask);
    if (sigaction(SIGSYS, &sa, nullptr) != 0) return std::string("cannot catch SIGSYS: ") + std::strerror(errno);
    // Anything not allowed below traps: the handler above names it and ends the process.
    scmp_filter_ctx ctx = seccomp_init(SCMP_ACT_TRAP);
    if (!ctx) return "seccomp_init failed";
    std::string failed;
    auto allow = [&](const char* name, std::initializer_list<scmp_arg_cmp> args = {}) {
        const int nr = seccomp_syscall_resolve_name(name);
        if (nr == __NR_SCMP_ERROR) return;   // not on this architecture
        const int rc = seccomp_rule_add_array(ctx, SCMP_ACT_ALLOW, nr, static_cast<unsigned>(args.size()), args.begin());
        if (rc != 0 && failed.empty()) failed = std::string(name) + ": " + std::strerror(-rc);
    };
    auto refuse = [&](const char* name, int error) {
        const int nr = seccomp_syscall_resolve_name(name);
        if (nr == __NR_SCMP_ERROR) return;
        const int rc = seccomp_rule_add(ctx, SCMP_ACT_ERRNO(static_cast<uint32_t>(error)), nr, 0);
        if (rc != 0 && failed.empty()) failed = std::string(name) + ": " + std::strerror(-rc);
    };
    // Memory and the module's mapping.
    for (const char* s : {"brk", "mmap", "munmap", "mprotect", "mremap", "madvise"}) allow(s);
    // Reading what the sandbox shows (the module, the libraries): opened without a bit that
    // could create, truncate or write a file.
    const scmp_datum_t writeBits = O_WRONLY | O_RDWR | O_CREAT | O_TRUNC | O_APPEND;
    allow("openat", {SCMP_A2(SCMP_CMP_MASKED_EQ, writeBits, 0)});
    allow("open", {SCMP_A1(SCMP_CMP_MASKED_EQ, writeBits, 0)});
    for (const char* s : {"read", "pread64", "readv", "lseek", "close", "fstat", "newfstatat", "statx", "stat", "lstat",
                          "access", "faccessat", "faccessat2", "readlink", "readlinkat", "getcwd"})
        allow(s);
    // Writing only to standard output (the result) and standard error (a sentence).
    for (const char* s : {"write", "writev"}) {
        allow(s, {SCMP_A0(SCMP_CMP_EQ, 1)});
        allow(s, {SCMP_A0(SCMP_CMP_EQ, 2)});
    }
    // Threads of this process (the simulator's workers), never a new process; clone3's
    // flags are out of a filter's reach, so glibc is told it is missing and uses clone.
    allow("clone", {SCMP_A0(SCMP_CMP_MASKED_EQ, CLONE_THREAD, CLONE_THREAD)});
    refuse("clone3", ENOSYS);
    for (const char* s : {"futex", "futex_waitv", "set_robust_list", "get_robust_list", "rseq", "set_tid_address",
                          "sched_yield", "sched_getaffinity", "sched_getparam", "sched_getscheduler", "getpriority",
                          "nanosleep", "clock_nanosleep", "clock_gettime", "clock_getres", "gettimeofday", "time",
                          "getpid", "gettid", "getppid", "getuid", "geteuid", "getgid", "getegid", "getrlimit",
                          "prlimit64", "getrusage", "sysinfo", "uname", "getrandom", "membarrier",
                          "rt_sigaction", "rt_sigprocmask", "rt_sigreturn", "sigaltstack", "restart_syscall",
                          "exit", "exit_group"})
        allow(s);
    // Signals to this process only (abort()).
    allow("tgkill", {SCMP_A0(SCMP_CMP_EQ, static_cast<scmp_datum_t>(getpid()))});
    // What libraries try and can do without: told no, not killed.
    refuse("ioctl", ENOTTY);
    refuse("prctl", EPERM);
    refuse("sched_setaffinity", EPERM);
    refuse("mbind", EPERM);
    refuse("get_mempolicy", ENOSYS);
    refuse("set_mempolicy", ENOSYS);
    if (!failed.empty()) {
        seccomp_release(ctx);
        return "cannot build the system-call filter (" + failed + ")";
    }
    const int rc = seccomp_load(ctx);
    seccomp_release(ctx);
    if (rc != 0) return std::string("cannot install the system-call filter (") + std::strerror(-rc) + ")";
    return "";
}

std::string systemCallName(int nr)
{
    char* name = seccomp_syscall_resolve_num_arch(SCMP_ARCH_NATIVE, nr);
    std::string s = name ? name : "system call number " + std::to_string(nr);
    std::free(name);
    return s;
}
#else
std::string installSyscallFilter()
{
    return "this build of TileScope has no system-call filter (it was built without libseccomp-dev)";
}

std::string systemCallName(int nr) { return "system call number " + std::to_string(nr); }
#endif

std::string signalSentence(int sig, uint64_t memoryBytes)
{
    if (sig == SIGXCPU) return "your kernel used more CPU time than allowed and was stopped: look for a loop that never ends";
    if (sig == SIGKILL || sig == SIGABRT)
        return std::string("your kernel's run ended abnormally (") + strsignal(sig) + "), most likely out of memory: the limit was " +
               std::to_string(memoryBytes >> 20) + " MiB";
    if (sig == SIGSEGV || sig == SIGBUS)
        return std::string("your kernel's run crashed (") + strsignal(sig) +
               "): an access far outside an array, or a local array larger than its thread's stack; TileScope itself is unharmed";
    return std::string("your kernel's run crashed (") + strsignal(sig) + "); TileScope itself is unharmed";
}

}  // namespace ts::student
