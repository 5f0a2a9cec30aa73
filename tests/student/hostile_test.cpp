// The hostile corpus (tests/student/hostile/*.cu, issue 36): kernel files a student might hand
// in that try to reach the machine, the grader or the person grading. Each file goes through
// `tilescope-cli simulate --kernel-file F --width 32` and `tilescope-cli grade --exercise
// tiled-matmul --kernel-file F` (or the problem and exercise its header names), each run as a child of this test in a scratch folder of its own, and for
// each run the test asserts what issue 36's "Done when" asks:
//   - it ends by itself with status 1 or 2 (a refusal is 2 from simulate, 1 from grade; a run
//     that goes wrong in the confined child is 1) within a wall-time bound, and the CLI itself
//     never grows past a memory bound;
//   - its first sentence (simulate's first line of error output, grade's first failed check)
//     names the file's `// expect-line:` (as FILE:N: or "line N") and contains its
//     `// expect-limit:` word; every line of error output is one diagnostic (FILE:L:C: error:
//     SENTENCE, or tilescope-cli: SENTENCE), not a trace, a page of compiler output or a flood;
//   - no file is created or changed anywhere the test can see: HOME, XDG_CACHE_HOME, TMPDIR
//     and the working folder are fresh empty folders that must stay empty, a canary folder
//     keeps its files byte for byte, the marker path the files try to create by every means
//     does not exist, and the folder of the kernel file holds only that file. Only the
//     module cache ($TILESCOPE_CACHE_DIR) may change;
//   - no byte of a secret file (random text, written before the run at the path the files
//     name) appears in the output or in any file the run left in the cache;
//   - no process is left behind: this test is the subreaper of everything the CLI starts, so
//     a process that outlives the CLI, even in a session of its own, is still its child and
//     seen; and no process anywhere carries the run's marker (its scratch path or its
//     TILESCOPE_HOSTILE_RUN variable) in its command line or environment.
//
// The files name fixed paths (/tmp/tilescope-hostile-marker, -secret.txt, -canary) so that
// they can be tried by hand; the test copies each file into its scratch folder with the
// prefix /tmp/tilescope-hostile- replaced by that folder's path, so that runs are isolated
// from each other (ctest -j) and from other trees (line numbers do not move). The fixed
// marker path is checked as well.
//
// Header lines of a hostile file (leading `// ` comment lines):
//   // hostile: what the file tries (one line, for the reader)
//   // expect-line: N[|N2...]    the output names one of these lines (FILE:N: or "line N")
//   // expect-limit: W[|W2...]   the output contains one of these words (case-insensitive)
//   // may-run: yes              a legal kernel: it may run (status 0); if it does not, its
//                                refusal or failure names `expect-name` and the limit
//   // expect-name: NAME         the array a may-run file's refusal must name
//   // pad-to: BYTES             the test appends comment lines up to this size first
//   // exercise: NAME            grade it against this exercise (default tiled-matmul)
//   // simulate-args: ARGS       simulate's problem options (default --width 32)
//   // only: simulate|grade      the file is hostile under one command only
// Both expect-line and expect-limit, when given, must hold.
//
// TILESCOPE_SOURCE_DIR, TILESCOPE_CLI and TILESCOPE_HOSTILE_TIME_FACTOR come from
// tests/CMakeLists.txt; TILESCOPE_HOSTILE_BOUND_S in the environment replaces the bound.
#include <gtest/gtest.h>
#include <poll.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <random>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

extern char** environ;

namespace {

namespace fs = std::filesystem;

const std::string kCorpus = std::string(TILESCOPE_SOURCE_DIR) + "/tests/student/hostile";
const std::string kFixedPrefix = "/tmp/tilescope-hostile-";
// The files are graded against tiled-matmul unless their header says otherwise: nearly every
// file's kernel is that exercise's reference solution (tests/student/solutions/tiled-matmul.cu)
// plus the hostile part, so a grade that ignores the hostile part passes (status 0) and the
// test fails.
// How much output a run may print in all: a refusal or a failed run is a few lines, a grade
// about twenty; a flood from the kernel must not come through.
constexpr size_t kMaxOutput = 64 * 1024;
// No line of output longer than this: a diagnosis quotes no 130 KB source line.
constexpr size_t kMaxLine = 1000;
// Lines of error output (stderr), each one diagnostic: a compiler stops at 20 errors
// (clang's -ferror-limit), and more than that is a page, not sentences.
constexpr int kMaxDiagnostics = 20;
// The CLI's own resident memory: the issue's /dev/zero include grew it past 2 GB.
constexpr long kMaxRssKiB = 2L * 1024 * 1024;

std::string readFile(const fs::path& p)
{
    std::ifstream in(p, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

void writeFile(const fs::path& p, const std::string& text)
{
    std::ofstream out(p, std::ios::binary | std::ios::trunc);
    out << text;
}

std::vector<std::string> split(const std::string& s, char sep)
{
    std::vector<std::string> parts;
    std::string cur;
    for (char c : s) {
        if (c == sep) {
            parts.push_back(cur);
            cur.clear();
        } else {
            cur += c;
        }
    }
    parts.push_back(cur);
    return parts;
}

std::string trim(std::string s)
{
    while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.pop_back();
    size_t b = 0;
    while (b < s.size() && std::isspace(static_cast<unsigned char>(s[b]))) ++b;
    return s.substr(b);
}

std::string lower(std::string s)
{
    for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return s;
}

/// What a hostile file's header says about it.
struct Header {
    std::string what;                 ///< hostile:
    std::vector<int> lines;           ///< expect-line:
    std::vector<std::string> limits;  ///< expect-limit:
    bool mayRun = false;              ///< may-run: yes
    std::string name;                 ///< expect-name:
    size_t padTo = 0;                 ///< pad-to:
    std::string exercise = "tiled-matmul";   ///< exercise:
    std::vector<std::string> simulateArgs = {"--width", "32"};   ///< simulate-args:
    std::string only;                 ///< only: simulate or grade
    std::vector<std::string> unknown; ///< keys this test does not know (a typo in a header)
};

Header readHeader(const std::string& text)
{
    Header h;
    std::istringstream in(text);
    std::string line;
    while (std::getline(in, line) && line.rfind("// ", 0) == 0) {
        const size_t colon = line.find(':');
        if (colon == std::string::npos) continue;
        const std::string key = trim(line.substr(3, colon - 3));
        const std::string value = trim(line.substr(colon + 1));
        if (key == "hostile") {
            h.what = value;
        } else if (key == "expect-line") {
            for (const std::string& n : split(value, '|')) h.lines.push_back(std::atoi(n.c_str()));
        } else if (key == "expect-limit") {
            for (const std::string& w : split(value, '|')) h.limits.push_back(trim(w));
        } else if (key == "may-run") {
            h.mayRun = value == "yes";
        } else if (key == "expect-name") {
            h.name = value;
        } else if (key == "pad-to") {
            h.padTo = static_cast<size_t>(std::atol(value.c_str()));
        } else if (key == "exercise") {
            h.exercise = value;
        } else if (key == "simulate-args") {
            h.simulateArgs.clear();
            for (const std::string& a : split(value, ' '))
                if (!a.empty()) h.simulateArgs.push_back(a);
        } else if (key == "only") {
            h.only = value;
        } else if (key == "tilescope") {
            // The file's own header lines (docs/student-kernels.md), part of what it tries.
        } else if (key.find(' ') == std::string::npos) {
            h.unknown.push_back(key);
        }
    }
    return h;
}

std::vector<std::string> corpusFiles()
{
    std::vector<std::string> names;
    std::error_code ec;
    for (const auto& e : fs::directory_iterator(kCorpus, ec))
        if (e.path().extension() == ".cu") names.push_back(e.path().stem().string());
    std::sort(names.begin(), names.end());
    return names;
}

/// Every file below `root` but those under `skip`, with its contents (or "<dir>"): what the
/// run must leave as it was.
std::map<std::string, std::string> snapshot(const fs::path& root, const fs::path& skip)
{
    std::map<std::string, std::string> files;
    std::error_code ec;
    for (auto it = fs::recursive_directory_iterator(root, fs::directory_options::none, ec);
         it != fs::recursive_directory_iterator(); it.increment(ec)) {
        if (ec) break;
        const fs::path p = it->path();
        if (p == skip) {
            it.disable_recursion_pending();
            continue;
        }
        const std::string rel = fs::relative(p, root).string();
        if (it->is_symlink()) files[rel] = "<link to " + fs::read_symlink(p).string() + ">";
        else if (it->is_directory()) files[rel] = "<dir>";
        else files[rel] = readFile(p);
    }
    return files;
}

/// What changed between two snapshots, one line each ("" if nothing).
std::string changes(const std::map<std::string, std::string>& before, const std::map<std::string, std::string>& after)
{
    std::string s;
    for (const auto& [path, text] : after) {
        const auto it = before.find(path);
        if (it == before.end()) s += "  created " + path + "\n";
        else if (it->second != text) s += "  changed " + path + "\n";
    }
    for (const auto& [path, text] : before)
        if (!after.count(path)) s += "  removed " + path + "\n";
    return s;
}

/// A process of this machine: its pid, parent, command line and environment.
struct Proc {
    pid_t pid = 0;
    pid_t ppid = 0;
    std::string cmdline;
    std::string environ;
};

std::vector<Proc> processes()
{
    std::vector<Proc> all;
    std::error_code ec;
    for (const auto& e : fs::directory_iterator("/proc", ec)) {
        const std::string n = e.path().filename().string();
        if (n.empty() || !std::all_of(n.begin(), n.end(), [](char c) { return std::isdigit(static_cast<unsigned char>(c)); }))
            continue;
        Proc p;
        p.pid = std::atoi(n.c_str());
        const std::string stat = readFile(e.path() / "stat");
        // pid (comm) state ppid ...: comm may hold spaces and parentheses, so after the last ')'.
        const size_t close = stat.rfind(')');
        if (close == std::string::npos) continue;
        std::istringstream rest(stat.substr(close + 1));
        std::string state;
        rest >> state >> p.ppid;
        p.cmdline = readFile(e.path() / "cmdline");
        std::replace(p.cmdline.begin(), p.cmdline.end(), '\0', ' ');
        p.environ = readFile(e.path() / "environ");
        all.push_back(p);
    }
    return all;
}

long rssKiB(pid_t pid)
{
    std::ifstream in("/proc/" + std::to_string(pid) + "/status");
    std::string line;
    while (std::getline(in, line))
        if (line.rfind("VmRSS:", 0) == 0) return std::atol(line.c_str() + 6);
    return 0;
}

/// What one run of tilescope-cli gave.
struct CliRun {
    bool exited = false;      ///< it ended by itself (not killed by the test)
    int status = -1;          ///< its exit status, when it exited
    int signal = 0;           ///< the signal that ended it, if one did
    bool timedOut = false;    ///< the test stopped it at the bound
    bool rssExceeded = false; ///< the test stopped it at the memory bound
    long peakRssKiB = 0;
    double seconds = 0;
    std::string out, err;     ///< the first kMaxOutput * 4 bytes of each
    size_t outBytes = 0, errBytes = 0;
    std::vector<std::string> leftBehind;   ///< processes that outlived it (pid and command line)
};

/// Runs `args` (args[0] the program) with `env` in `cwd`: its standard input a pipe this test
/// holds open and never writes (a read of it would wait for ever, as a terminal's would), its
/// output read as it comes. Stopped (its process group and itself, SIGKILL) past `bound`
/// seconds or past kMaxRssKiB. Then every process it left behind is listed and killed.
CliRun runCli(const std::vector<std::string>& args, const std::vector<std::string>& env, const fs::path& cwd, double bound)
{
    CliRun r;
    // Orphans of anything this test starts are re-parented to this process, not to init.
    prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0);
    int in[2], out[2], err[2];
    if (pipe(in) != 0 || pipe(out) != 0 || pipe(err) != 0) {
        r.err = "pipe failed";
        return r;
    }
    std::vector<char*> argv, envp;
    for (const std::string& a : args) argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    for (const std::string& e : env) envp.push_back(const_cast<char*>(e.c_str()));
    envp.push_back(nullptr);
    const auto start = std::chrono::steady_clock::now();
    const pid_t pid = fork();
    if (pid == 0) {
        setpgid(0, 0);
        dup2(in[0], 0);
        dup2(out[1], 1);
        dup2(err[1], 2);
        for (int fd : {in[0], in[1], out[0], out[1], err[0], err[1]}) close(fd);
        if (chdir(cwd.c_str()) != 0) _exit(126);
        execve(argv[0], argv.data(), envp.data());
        _exit(127);
    }
    setpgid(pid, pid);
    close(in[0]);
    close(out[1]);
    close(err[1]);
    const auto elapsed = [&] { return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(); };
    const auto stop = [&] {
        kill(-pid, SIGKILL);
        kill(pid, SIGKILL);
    };
    struct Stream {
        int fd;
        std::string* text;
        size_t* bytes;
    };
    std::vector<Stream> streams = {{out[0], &r.out, &r.outBytes}, {err[0], &r.err, &r.errBytes}};
    int wstatus = 0;
    bool reaped = false;
    double exitedAt = -1;
    char buf[65536];
    while (true) {
        std::vector<pollfd> fds;
        for (const Stream& s : streams)
            if (s.fd >= 0) fds.push_back({s.fd, POLLIN, 0});
        if (fds.empty() && reaped) break;
        if (!fds.empty()) poll(fds.data(), fds.size(), 50);
        else std::this_thread::sleep_for(std::chrono::milliseconds(20));
        for (Stream& s : streams) {
            if (s.fd < 0) continue;
            for (const pollfd& p : fds) {
                if (p.fd != s.fd || !(p.revents & (POLLIN | POLLHUP | POLLERR))) continue;
                const ssize_t n = read(s.fd, buf, sizeof buf);
                if (n > 0) {
                    *s.bytes += static_cast<size_t>(n);
                    if (s.text->size() < kMaxOutput * 4) s.text->append(buf, static_cast<size_t>(n));
                } else if (n == 0 || errno != EINTR) {
                    close(s.fd);
                    s.fd = -1;
                }
            }
        }
        if (!reaped) {
            r.peakRssKiB = std::max(r.peakRssKiB, rssKiB(pid));
            if (waitpid(pid, &wstatus, WNOHANG) == pid) {
                reaped = true;
                exitedAt = elapsed();
                r.seconds = exitedAt;
            } else if (r.peakRssKiB > kMaxRssKiB) {
                r.rssExceeded = true;
                stop();
            } else if (elapsed() > bound) {
                r.timedOut = true;
                stop();
            }
        } else if (elapsed() - exitedAt > 2.0) {
            // The CLI has ended but something it left behind holds its output open.
            break;
        }
    }
    for (const Stream& s : streams)
        if (s.fd >= 0) close(s.fd);
    close(in[1]);
    if (WIFEXITED(wstatus)) {
        r.exited = !r.timedOut && !r.rssExceeded;
        r.status = WEXITSTATUS(wstatus);
    } else if (WIFSIGNALED(wstatus)) {
        r.signal = WTERMSIG(wstatus);
    }
    // Processes left behind: children of this test (as subreaper) other than the CLI, which
    // is reaped. A process that is stopped with its parent (bubblewrap's --die-with-parent)
    // takes a moment to go: wait up to 3 s, reaping.
    const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(3);
    while (true) {
        int st;
        const pid_t w = waitpid(-1, &st, WNOHANG);
        if (w > 0) continue;
        if (w < 0 && errno == ECHILD) break;   // no children at all
        if (std::chrono::steady_clock::now() > until) break;
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    for (const Proc& p : processes())
        if (p.ppid == getpid()) {
            r.leftBehind.push_back(std::to_string(p.pid) + ": " + p.cmdline);
            kill(p.pid, SIGKILL);
        }
    while (waitpid(-1, nullptr, WNOHANG) > 0) {
    }
    return r;
}

/// Random lowercase text, `lines` lines of 48 letters: no diagnosis says it by chance.
std::string secretText(int lines)
{
    std::random_device rd;
    std::mt19937_64 g((static_cast<uint64_t>(rd()) << 32) ^ rd() ^ static_cast<uint64_t>(getpid()));
    std::uniform_int_distribution<int> letter(0, 25);
    std::string s;
    for (int i = 0; i < lines; ++i) {
        for (int c = 0; c < 48; ++c) s += static_cast<char>('a' + letter(g));
        s += '\n';
    }
    return s;
}

/// The first 12-letter piece of `secret` that `text` holds ("" if none).
std::string secretIn(const std::string& text, const std::string& secret)
{
    for (const std::string& line : split(secret, '\n'))
        for (size_t i = 0; i + 12 <= line.size(); ++i)
            if (text.find(line.substr(i, 12)) != std::string::npos) return line.substr(i, 12);
    return "";
}

// The output is matched by hand, not with std::regex: libstdc++'s matcher recurses once per
// character and overflows the stack on a line of some ten thousand characters, which a
// hostile file can make the CLI print.

bool wordChar(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

/// Whether `text` holds `word` with no letter, digit or '_' on either side.
bool hasWord(const std::string& text, const std::string& word)
{
    for (size_t at = text.find(word); at != std::string::npos; at = text.find(word, at + 1)) {
        const size_t end = at + word.size();
        if ((at == 0 || !wordChar(text[at - 1])) && (end == text.size() || !wordChar(text[end]))) return true;
    }
    return false;
}

/// Whether `output` names line `n` of `file`: "FILE:n:" (a compiler's form) or "line n".
bool namesLine(const std::string& output, const std::string& file, int n)
{
    return output.find(file + ":" + std::to_string(n) + ":") != std::string::npos ||
           hasWord(output, "line " + std::to_string(n));
}

/// Whether `line` is one diagnostic: "PATH.cu:LINE:COL: error: SENTENCE" (LINE and COL each
/// optional, for a limit of the whole file) or "tilescope-cli: SENTENCE".
bool isDiagnostic(const std::string& line)
{
    if (line.rfind("tilescope-cli: ", 0) == 0) return line.size() > 15;
    for (size_t at = line.find(".cu"); at != std::string::npos; at = line.find(".cu", at + 1)) {
        size_t i = at + 3;
        for (int field = 0; field < 2 && i < line.size() && line[i] == ':' && i + 1 < line.size() &&
                            std::isdigit(static_cast<unsigned char>(line[i + 1]));
             ++field) {
            ++i;
            while (i < line.size() && std::isdigit(static_cast<unsigned char>(line[i]))) ++i;
        }
        const std::string tag = ": error: ";
        if (line.compare(i, tag.size(), tag) == 0 && line.size() > i + tag.size()) return true;
    }
    return false;
}

std::string numbered(const std::string& text)
{
    std::string s;
    for (const std::string& line : split(text, '\n'))
        if (!line.empty()) s += "    | " + line.substr(0, 300) + (line.size() > 300 ? " ..." : "") + "\n";
    return s;
}

double boundSeconds()
{
    if (const char* b = std::getenv("TILESCOPE_HOSTILE_BOUND_S")) return std::atof(b);
    return 30.0 * TILESCOPE_HOSTILE_TIME_FACTOR;
}

struct Case {
    std::string file;   ///< base name, without .cu
    bool grade;         ///< grade --exercise, else simulate
};

std::vector<Case> cases()
{
    std::vector<Case> all;
    for (const std::string& f : corpusFiles()) {
        all.push_back({f, false});
        all.push_back({f, true});
    }
    return all;
}

void PrintTo(const Case& c, std::ostream* os) { *os << c.file << ".cu, " << (c.grade ? "grade" : "simulate"); }

class HostileFile : public ::testing::TestWithParam<Case> {};

TEST_P(HostileFile, RefusedOrStoppedWithNothingReached)
{
    const Case& c = GetParam();
    const std::string text = readFile(kCorpus + "/" + c.file + ".cu");
    const Header h = readHeader(text);
    ASSERT_FALSE(h.what.empty()) << c.file << ".cu has no '// hostile:' line";
    ASSERT_TRUE(!h.lines.empty() || !h.limits.empty()) << c.file << ".cu has neither '// expect-line:' nor '// expect-limit:'";
    if (!h.only.empty() && h.only != (c.grade ? "grade" : "simulate"))
        GTEST_SKIP() << c.file << ".cu is hostile under `" << h.only << "` only";

    // The run's own folders, all empty but the canary, the secret and the kernel file.
    char tmpl[] = "/tmp/tilescope-hostile-run.XXXXXX";
    ASSERT_NE(mkdtemp(tmpl), nullptr) << std::strerror(errno);
    const fs::path scratch = tmpl;
    const std::string token = scratch.filename().string();
    for (const char* d : {"home", "xdg-cache", "tmp", "cache", "cwd", "kernel", "canary/sub"}) fs::create_directories(scratch / d);
    writeFile(scratch / "canary/keep.txt", "this file must stay as it is\n");
    writeFile(scratch / "canary/sub/also.txt", "and so must this one\n");
    const std::string secret = secretText(4);
    writeFile(scratch / "secret.txt", secret);
    std::string kernel = text;
    const std::string here = scratch.string() + "/";
    for (size_t at = kernel.find(kFixedPrefix); at != std::string::npos; at = kernel.find(kFixedPrefix, at + here.size()))
        kernel.replace(at, kFixedPrefix.size(), here);
    if (h.padTo > kernel.size()) {
        const std::string pad = "// padding padding padding padding padding padding padding padding padding\n";
        while (kernel.size() < h.padTo) kernel += pad;
    }
    const std::string fileName = c.file + ".cu";
    const fs::path kernelPath = scratch / "kernel" / fileName;
    writeFile(kernelPath, kernel);
    const auto before = snapshot(scratch, scratch / "cache");
    const bool fixedMarkerBefore = fs::exists(kFixedPrefix + "marker");

    std::vector<std::string> args = {TILESCOPE_CLI};
    if (c.grade) {
        args.insert(args.end(), {"grade", "--exercise", h.exercise, "--kernel-file", kernelPath.string()});
    } else {
        args.insert(args.end(), {"simulate", "--kernel-file", kernelPath.string()});
        args.insert(args.end(), h.simulateArgs.begin(), h.simulateArgs.end());
    }
    std::vector<std::string> env;
    for (char** e = environ; *e; ++e) {
        const std::string v = *e;
        const std::string key = v.substr(0, v.find('='));
        if (key != "HOME" && key != "XDG_CACHE_HOME" && key != "TMPDIR" && key != "TILESCOPE_CACHE_DIR" && key != "PWD")
            env.push_back(v);
    }
    env.push_back("HOME=" + (scratch / "home").string());
    env.push_back("XDG_CACHE_HOME=" + (scratch / "xdg-cache").string());
    env.push_back("TMPDIR=" + (scratch / "tmp").string());
    env.push_back("TILESCOPE_CACHE_DIR=" + (scratch / "cache").string());
    env.push_back("PWD=" + (scratch / "cwd").string());
    env.push_back("TILESCOPE_HOSTILE_RUN=" + token);

    const double bound = boundSeconds();
    const CliRun r = runCli(args, env, scratch / "cwd", bound);
    const std::string output = r.out + r.err;
    const std::string shown = "\n  stdout (" + std::to_string(r.outBytes) + " bytes):\n" + numbered(r.out) +
                              "  stderr (" + std::to_string(r.errBytes) + " bytes):\n" + numbered(r.err);
    const std::string what = fileName + " (" + h.what + ") under `" + (c.grade ? "grade" : "simulate") + "`";

    // Processes anywhere that carry this run's marker: its scratch path in their command line
    // or its variable in their environment.
    std::vector<std::string> marked;
    for (const Proc& p : processes())
        if (p.pid != getpid() &&
            (p.cmdline.find(token) != std::string::npos || p.environ.find("TILESCOPE_HOSTILE_RUN=" + token) != std::string::npos)) {
            marked.push_back(std::to_string(p.pid) + ": " + p.cmdline);
            kill(p.pid, SIGKILL);
        }

    // 1. It ends by itself, in time, with status 1 or 2 (0 only for a legal kernel that ran).
    EXPECT_FALSE(r.timedOut) << what << " was still running after " << bound
                             << " s: an endless loop must be stopped by the child's limits, a read of standard input "
                                "must not happen";
    EXPECT_FALSE(r.rssExceeded) << what << ": tilescope-cli itself grew past " << kMaxRssKiB / 1024
                                << " MiB of memory (only the confined child may use memory)";
    if (!r.timedOut && !r.rssExceeded) {
        EXPECT_EQ(r.signal, 0) << what << ": tilescope-cli was killed by signal " << r.signal << " ("
                               << strsignal(r.signal) << "): a student's file must not crash it";
    }
    if (r.exited) {
        if (h.mayRun) {
            EXPECT_TRUE(r.status == 0 || r.status == 1 || r.status == 2) << what << ": exit status " << r.status;
        } else {
            EXPECT_TRUE(r.status == 1 || r.status == 2)
                << what << ": exit status " << r.status
                << ", expected 1 or 2 (a refusal or a stopped run; 0 means the hostile part was accepted)";
        }
    }
    EXPECT_LE(r.seconds, bound) << what << " took " << r.seconds << " s";

    // 2. The output names the line, or the limit. A legal kernel (may-run) either ran, and
    //    then ran right (simulate compares P with the CPU reference; grade passes, as the
    //    kernel is the exercise's solution plus the array), or was refused or stopped with a
    //    sentence that names the array and the limit: never a corrupted heap or 'most likely
    //    out of memory'.
    if (h.mayRun) {
        if (r.exited && r.status == 0 && !c.grade) {
            EXPECT_NE(r.out.find("bit-identical"), std::string::npos)
                << what << " ran but P is not the CPU reference's: the local array must not corrupt the run";
        }
        if (r.exited && r.status != 0) {
            if (c.grade) {
                EXPECT_TRUE(r.out.find("FAIL compiles") != std::string::npos || r.out.find("FAIL runs") != std::string::npos)
                    << what << ": grade failed a check other than 'compiles' or 'runs', but the kernel is the exercise's "
                               "solution with an array that does not change P";
            }
            EXPECT_TRUE(hasWord(output, h.name)) << what << ": the refusal does not name the array '" << h.name << "'";
        }
    }
    // The sentence that says why: simulate's first line of error output, grade's first
    // failed check. It names the file's first hostile line (the scan and the front end report
    // in the order of the file) or the limit.
    std::string first;
    if (c.grade) {
        for (const std::string& line : split(r.out, '\n'))
            if (line.rfind("FAIL ", 0) == 0) {
                first = line;
                break;
            }
    } else {
        for (const std::string& line : split(r.err, '\n'))
            if (!trim(line).empty()) {
                first = line;
                break;
            }
    }
    const bool checkSentence = !h.mayRun || (r.exited && r.status != 0);
    if (checkSentence && r.exited && r.status != 0) {
        EXPECT_FALSE(first.empty()) << what << " failed without a sentence that says why";
    }
    if (checkSentence && !h.lines.empty()) {
        bool named = false;
        std::string want;
        for (int n : h.lines) {
            named = named || namesLine(first, fileName, n);
            want += (want.empty() ? "" : " or ") + fileName + ":" + std::to_string(n) + ":";
        }
        EXPECT_TRUE(named) << what << ": the first sentence does not name " << want << " (or 'line N'): '" << first.substr(0, 300) << "'";
    }
    if (checkSentence && !h.limits.empty()) {
        bool said = false;
        std::string want;
        for (const std::string& w : h.limits) {
            said = said || lower(first).find(lower(w)) != std::string::npos;
            want += (want.empty() ? "'" : " or '") + w + "'";
        }
        EXPECT_TRUE(said) << what << ": the first sentence does not say the limit (" << want << "): '" << first.substr(0, 300) << "'";
    }

    // 3. Sentences, not a trace, a page of compiler output or a flood: every line of error
    //    output is one diagnostic, FILE:LINE:COL: error: SENTENCE as a compiler prints it (the
    //    scan gives one for each refused construct, in the order of the file) or
    //    "tilescope-cli: SENTENCE"; no notes, quoted source, carets, "In file included from"
    //    or backtraces; at most kMaxDiagnostics of them, no line longer than kMaxLine, and
    //    no more than kMaxOutput bytes in all.
    EXPECT_LE(r.outBytes + r.errBytes, kMaxOutput)
        << what << " printed " << (r.outBytes + r.errBytes)
        << " bytes: a flood from the kernel, or text of the file quoted at length, came through";
    int diagnostics = 0;
    for (const std::string& line : split(r.err, '\n')) {
        if (trim(line).empty()) continue;
        ++diagnostics;
        EXPECT_TRUE(isDiagnostic(line)) << what << ": a line of error output that is not one diagnostic: '"
                                                        << line.substr(0, 300) << "'";
    }
    EXPECT_LE(diagnostics, kMaxDiagnostics) << what << ": " << diagnostics << " lines of error output, a page rather than sentences";
    size_t longest = 0;
    for (const std::string& line : split(output, '\n')) longest = std::max(longest, line.size());
    EXPECT_LE(longest, kMaxLine) << what << ": a line of " << longest << " characters in the output";

    // 4. No file created, changed or removed outside the module cache; the marker not made.
    const auto after = snapshot(scratch, scratch / "cache");
    EXPECT_EQ(changes(before, after), "") << what << " changed files outside the module cache:\n"
                                          << changes(before, after);
    EXPECT_FALSE(fs::exists(scratch / "marker")) << what << " created the marker file " << (scratch / "marker");
    if (!fixedMarkerBefore) {
        EXPECT_FALSE(fs::exists(kFixedPrefix + "marker")) << what << " created " << kFixedPrefix << "marker";
    }

    // 5. No byte of the secret in the output, or in what the run left in the cache.
    const std::string leaked = secretIn(output, secret);
    EXPECT_EQ(leaked, "") << what << " put text of the secret file in its output ('" << leaked << "')";
    std::error_code ec;
    for (auto it = fs::recursive_directory_iterator(scratch / "cache", ec); it != fs::recursive_directory_iterator(); it.increment(ec)) {
        if (ec) break;
        if (!it->is_regular_file()) continue;
        const std::string found = secretIn(readFile(it->path()), secret);
        EXPECT_EQ(found, "") << what << " left text of the secret file in the cache, in " << it->path();
    }

    // 6. No process left behind.
    std::string left;
    for (const std::string& p : r.leftBehind) left += "  " + p + "\n";
    EXPECT_TRUE(r.leftBehind.empty()) << what << " left processes behind (killed now):\n" << left;
    std::string carrying;
    for (const std::string& p : marked) carrying += "  " + p + "\n";
    EXPECT_TRUE(marked.empty()) << what << ": processes still carry the run's marker (killed now):\n" << carrying;

    // What the run said, for the log (ctest --output-on-failure, or -V).
    std::cout << "[ hostile ] " << what << ": " << (r.exited ? "exit status " + std::to_string(r.status) : "stopped")
              << " in " << r.seconds << " s" << shown;
    if (!HasFailure()) fs::remove_all(scratch, ec);
    else std::cout << "[ hostile ] " << what << ": kept " << scratch << " for a look\n";
}

INSTANTIATE_TEST_SUITE_P(Corpus, HostileFile, ::testing::ValuesIn(cases()),
                         [](const ::testing::TestParamInfo<Case>& info) {
                             return info.param.file + (info.param.grade ? "_grade" : "_simulate");
                         });

// The corpus itself: at least 32 files, each with a header this test reads, each expected
// line inside the file, and every class of issue 36 present (by the file that covers it).
TEST(HostileCorpus, EveryFileHasAHeaderAndEveryClassAFile)
{
    const std::vector<std::string> files = corpusFiles();
    EXPECT_GE(files.size(), 32u);
    for (const std::string& f : files) {
        const std::string text = readFile(kCorpus + "/" + f + ".cu");
        const Header h = readHeader(text);
        EXPECT_FALSE(h.what.empty()) << f << ".cu: no '// hostile:' line";
        EXPECT_TRUE(!h.lines.empty() || !h.limits.empty()) << f << ".cu: neither '// expect-line:' nor '// expect-limit:'";
        EXPECT_TRUE(h.unknown.empty()) << f << ".cu: unknown header key '" << (h.unknown.empty() ? "" : h.unknown[0]) << "'";
        EXPECT_TRUE(h.only.empty() || h.only == "simulate" || h.only == "grade") << f << ".cu: only: is simulate or grade";
        EXPECT_TRUE(!h.mayRun || (!h.name.empty() && !h.limits.empty()))
            << f << ".cu: a may-run file names the array and the limit its refusal must say";
        const size_t lineCount = static_cast<size_t>(std::count(text.begin(), text.end(), '\n'));
        for (int n : h.lines) EXPECT_TRUE(n >= 1 && static_cast<size_t>(n) <= lineCount) << f << ".cu: expect-line " << n << " is not a line of the file";
        // The header's words must not give the test what it looks for: no secret path and
        // no limit word in the description.
        for (const std::string& w : h.limits)
            EXPECT_EQ(lower(h.what).find(lower(w)), std::string::npos) << f << ".cu: the description says the limit word '" << w << "'";
        EXPECT_EQ(h.what.find("tilescope-hostile"), std::string::npos) << f << ".cu: the description names a test path";
        EXPECT_LT(text.size(), 256u * 1024) << f << ".cu: a committed file stays under the size limit (pad-to makes larger ones)";
    }
    // Issue 36's classes, each by a file that covers it.
    for (const char* f : {"system_extern_c", "asm_init_array", "extern_c_block_static_init", "attribute_constructor",
                          "gnu_constructor", "include_secret_absolute", "include_dev_stdin", "include_dev_zero",
                          "include_next_stdlib", "import_secret", "has_include_oracle", "underscore_pragma",
                          "pragma_gcc_optimize", "expression_65000_terms", "oversize_file", "nested_macros_1kb",
                          "define_expansion_bomb", "deep_parentheses", "builtin_malloc", "builtin_trap",
                          "local_array_80kb", "fork_extern_c_block", "execve_device_helper", "socket_block_scope_asm_label",
                          "dlopen_declared_by_macro", "getenv_namespace_qualified", "signal_function_pointer",
                          "syscall_auto_decltype", "open_write_file_scope", "write_flood_stdout", "builtin_printf_flood",
                          "proc_self_environ_fopen", "proc_self_maps_helper_block_scope", "device_recursion",
                          "endless_loop", "shared_past_48kb", "pointer_far_global", "pointer_far_local",
                          "string_literal", "static_local", "template_namespace_recursion", "digraph_include",
                          "trigraph_include", "include_hidden_by_splice", "splice_builtin_name", "splice_extern",
                          "token_paste_builtin", "constant_mask_huge"})
        EXPECT_TRUE(std::find(files.begin(), files.end(), f) != files.end()) << "no " << f << ".cu in " << kCorpus;
}

}  // namespace
