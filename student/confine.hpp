// Confinement of a student's code (docs/security.md). Two processes run what a student's
// file becomes: the compiler that builds its module, and tilescope-runner, which opens the
// module and simulates the kernel. Both run inside a sandbox made by Debian's bubblewrap
// (Flatpak's sandbox): new user, PID, network, IPC, UTS and cgroup namespaces, no network,
// only /usr and the paths named here visible, read-only, in a session of their own, killed
// with TileScope, under limits on CPU time, memory, file size and open files. The runner
// also installs a seccomp-bpf system-call allowlist (Debian's libseccomp) before the module
// is opened. Where bubblewrap cannot make a sandbox, a student's code is not run at all
// unless the user allowed it knowingly (allowUnconfined()).
#pragma once
#include <atomic>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace ts::student {

/// The limits a confined process runs under; 0 leaves that limit unset.
struct ProcessLimits {
    double wallSeconds = 0;        ///< killed past it (measured by the parent)
    double cpuSeconds = 0;         ///< RLIMIT_CPU
    uint64_t memoryBytes = 0;      ///< RLIMIT_AS (not under AddressSanitizer, which reserves far more)
    uint64_t fileBytes = 0;        ///< RLIMIT_FSIZE; with nothing writable it is only a second guard
    unsigned openFiles = 0;        ///< RLIMIT_NOFILE
};

/// What a sandbox lets its process see besides /usr (read-only, with /bin, /lib and /lib64
/// as the host has them).
struct Sandbox {
    std::vector<std::string> readOnly;   ///< files or folders bound read-only at the same path
    std::vector<std::string> writable;   ///< folders bound writable at the same path
    bool privateTmp = false;             ///< an empty writable /tmp of its own
    bool minimalDev = false;             ///< /dev with null, zero, random and urandom only
    bool etc = false;                    ///< the dynamic linker's files of /etc (a compiler's tools need them)
};

/// Empty when a sandbox can be made here; otherwise one sentence why not (no bubblewrap,
/// or it cannot create namespaces, e.g. in a container without user namespaces). Tried
/// once per process.
const std::string& confinementProblem();

/// Lets a student's code run without the sandbox where none can be made (the option
/// --allow-unconfined, or TILESCOPE_ALLOW_UNCONFINED=1). The limits and the system-call
/// filter still apply.
void allowUnconfined(bool allow);
/// allowUnconfined(true) was called, or TILESCOPE_ALLOW_UNCONFINED is 1.
bool unconfinedAllowed();

/// The sentence that refuses to run a student's code because no sandbox can be made and
/// unconfined runs are not allowed; empty when the code may run (confined, or knowingly
/// unconfined).
std::string confinementRefusal();

/// The command line that runs `program` (argv) in sandbox `box`: bubblewrap's arguments
/// followed by `program`, or `program` alone when no sandbox can be made and unconfined
/// runs are allowed.
std::vector<std::string> confinedCommand(const Sandbox& box, const std::vector<std::string>& program);

/// How a limited child process ended.
struct ChildOutcome {
    bool started = false;      ///< false: it could not be started (`err` says why)
    int exitStatus = -1;       ///< its exit status when it exited
    int signal = 0;            ///< the signal that ended it (also bubblewrap's 128 + N)
    bool timedOut = false;     ///< killed at ProcessLimits::wallSeconds
    bool cancelled = false;    ///< killed because `cancel` was set
    bool flooded = false;      ///< killed because its output passed the allowed size
    std::string out, err;      ///< what it wrote (err is cut at its limit)
    double seconds = 0;        ///< wall time
};

/// Runs `argv` with `input` on its standard input, standard output and error collected,
/// in a process group and session of its own, with `limits` set before it starts. Output
/// past `maxOut` bytes (error past `maxErr`) kills it. `onOutput` (may be empty) is called
/// with the output buffer whenever more arrived and may consume its front. `cancel` set
/// kills it. Never throws for what the child does.
ChildOutcome runLimited(const std::vector<std::string>& argv, const ProcessLimits& limits, const std::string& input,
                        size_t maxOut, size_t maxErr, const std::atomic<bool>* cancel = nullptr,
                        const std::function<void(std::string& out)>& onOutput = {});

/// The exit status of a runner that the system-call filter stopped (it writes
/// "tilescope-runner: forbidden system call N" to standard error first).
inline constexpr int kForbiddenCallExit = 97;

/// Installs, in the calling process, the system-call allowlist of a process that runs a
/// student's module (seccomp-bpf, with no_new_privs): memory, reading files the sandbox
/// shows, writing to standard output and error, threads (clone with CLONE_THREAD only),
/// futexes, clocks and exit. Anything else (opening a file for writing, sockets, fork,
/// exec, signals to other processes, ptrace, ...) kills the process with SIGSYS. Returns ""
/// or why it could not be installed.
std::string installSyscallFilter();

/// The name of system call `nr` on this machine ("socket"), or its number.
std::string systemCallName(int nr);

/// The sentence for a child that ended on signal `sig` while running a student's kernel.
std::string signalSentence(int sig, uint64_t memoryBytes);

}  // namespace ts::student
