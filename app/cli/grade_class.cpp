#include "grade_class.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <map>
#include <mutex>
#include <set>
#include <sstream>
#include <thread>

#include "commands.hpp"
#ifdef TILESCOPE_HAVE_STUDENT
#include "student/confine.hpp"
#endif

extern char** environ;

namespace ts::cli {
namespace fs = std::filesystem;

#ifdef TILESCOPE_HAVE_STUDENT
namespace {

/// "3" for 3.0, "2.5" for 2.5: points as a person writes them.
std::string pointsText(double v)
{
    std::ostringstream o;
    o << std::setprecision(6) << v;
    return o.str();
}

/// The report a student reads: one line per check and the verdict.
std::string reportText(const student::Grade& g, const std::string& title)
{
    std::ostringstream o;
    size_t failed = 0;
    for (const student::Check& c : g.checks) failed += !c.passed && !c.skipped;
    o << (failed == 0 ? "PASS" : "FAIL") << ": " << pointsText(g.score()) << " of " << pointsText(g.maxScore())
      << " points on " << g.exercise << " (" << title << ")";
    if (failed) o << ", " << failed << " of " << g.checks.size() << " checks failed";
    o << "\n";
    for (const student::Check& c : g.checks)
        o << (c.skipped ? "SKIP " : c.passed ? "PASS " : "FAIL ") << c.name << ": " << c.diagnosis << "\n";
    return o.str();
}

}  // namespace

std::optional<student::Exercise> exerciseOrSay(const std::string& nameOrPath)
{
    try {
        return student::findExercise(nameOrPath);
    } catch (const student::ExerciseError& e) {
        std::cerr << "tilescope-cli: " << e.what() << "\n";
        return std::nullopt;
    }
}

nlohmann::ordered_json gradeJson(const student::Grade& g)
{
    nlohmann::ordered_json j;
    j["exercise"] = g.exercise;
    j["kernel_file"] = g.kernelFile;
    j["passed"] = g.passed();
    j["score"] = g.score();
    j["max_score"] = g.maxScore();
    j["seconds"] = std::round(g.seconds * 1000) / 1000;
    j["checks"] = nlohmann::ordered_json::array();
    for (const student::Check& c : g.checks) {
        nlohmann::ordered_json e;
        e["name"] = c.name;
        e["passed"] = c.passed;
        if (c.skipped) e["skipped"] = true;
        e["points"] = c.points;
        e["max_points"] = c.maxPoints;
        e["diagnosis"] = c.diagnosis;
        e["line"] = c.line;
        j["checks"].push_back(e);
    }
    return j;
}

student::Grade gradeFromJson(const nlohmann::json& j)
{
    student::Grade g;
    g.exercise = j.at("exercise").get<std::string>();
    g.kernelFile = j.at("kernel_file").get<std::string>();
    g.seconds = j.at("seconds").get<double>();
    for (const nlohmann::json& e : j.at("checks")) {
        student::Check c;
        c.name = e.at("name").get<std::string>();
        c.passed = e.at("passed").get<bool>();
        c.skipped = e.value("skipped", false);
        c.points = e.at("points").get<double>();
        c.maxPoints = e.at("max_points").get<double>();
        c.diagnosis = e.at("diagnosis").get<std::string>();
        c.line = e.at("line").get<unsigned>();
        g.checks.push_back(std::move(c));
    }
    return g;
}

nlohmann::ordered_json gradescopeResults(const student::Grade& g, const std::string& title)
{
    nlohmann::ordered_json r;
    r["score"] = g.score();
    r["execution_time"] = static_cast<long long>(std::ceil(g.seconds));
    r["output"] = reportText(g, title);
    r["tests"] = nlohmann::ordered_json::array();
    int number = 0;
    for (const student::Check& c : g.checks) {
        nlohmann::ordered_json t;
        t["name"] = c.name;
        t["number"] = std::to_string(++number);
        t["score"] = c.points;
        t["max_score"] = c.maxPoints;
        t["status"] = c.passed || c.skipped ? "passed" : "failed";
        t["output"] = (c.skipped ? "Skipped: " : "") + c.diagnosis;
        t["visibility"] = "visible";
        r["tests"].push_back(t);
    }
    return r;
}

nlohmann::ordered_json prairielearnResults(const student::Grade& g, const std::string& title)
{
    nlohmann::ordered_json r;
    r["gradable"] = true;
    const double max = g.maxScore();
    r["score"] = max > 0 ? std::clamp(g.score() / max, 0.0, 1.0) : (g.passed() ? 1.0 : 0.0);
    const std::string report = reportText(g, title);
    r["message"] = report.substr(0, report.find('\n'));
    r["output"] = report;
    r["tests"] = nlohmann::ordered_json::array();
    for (const student::Check& c : g.checks) {
        nlohmann::ordered_json t;
        t["name"] = c.name;
        t["points"] = c.points;
        t["max_points"] = c.maxPoints;
        t["message"] = c.skipped ? "skipped" : c.passed ? "passed" : "failed";
        t["output"] = c.diagnosis;
        r["tests"].push_back(t);
    }
    return r;
}

nlohmann::ordered_json ungradableResults(const student::Exercise& x, const std::string& format, const std::string& why)
{
    if (format == "prairielearn") {
        nlohmann::ordered_json r;
        r["gradable"] = false;
        r["score"] = 0.0;
        r["message"] = why;
        r["output"] = why + "\n";
        r["format_errors"] = nlohmann::ordered_json::array({why});
        r["tests"] = nlohmann::ordered_json::array();
        return r;
    }
    student::Grade g;
    g.exercise = x.name;
    for (const std::string& name : student::checkNames(x)) {
        student::Check c{name, false, false, "not run: " + why, 0};
        c.maxPoints = x.points.of(name);
        g.checks.push_back(c);
    }
    return gradescopeResults(g, x.title);
}

namespace {

/// One submission of a class: its name (the file's stem or the folder's name) and its
/// kernel file, or why it has none.
struct Submission {
    std::string name;
    std::string file;
    std::string problem;   ///< not empty: it cannot be graded, and why
};

}  // namespace
#endif

std::string submissionKernel(const std::string& path, std::string& problem)
{
    std::error_code ec;
    const fs::file_status s = fs::symlink_status(path, ec);
    if (ec || !fs::exists(s)) {
        problem = "the kernel file '" + path + "' does not exist; give the path of your .cu file";
        return "";
    }
    if (fs::is_regular_file(s) || (fs::is_symlink(s) && fs::is_regular_file(fs::status(path, ec)))) return path;
    if (!fs::is_directory(s)) {
        problem = "'" + path + "' is not a file; give the path of your .cu file";
        return "";
    }
    std::vector<std::string> files;
    for (fs::recursive_directory_iterator it(path, fs::directory_options::skip_permission_denied, ec), end; !ec && it != end;
         it.increment(ec)) {
        if (it.depth() >= 4) it.disable_recursion_pending();
        const fs::file_status f = it->symlink_status(ec);
        if (ec) break;
        if (fs::is_regular_file(f) && it->path().extension() == ".cu") files.push_back(it->path().string());
    }
    std::sort(files.begin(), files.end());
    if (files.size() == 1) return files.front();
    problem = files.empty() ? "the folder " + path + " holds no .cu file"
                            : "the folder " + path + " holds " + std::to_string(files.size()) + " .cu files; a submission is one kernel file";
    return "";
}

#ifdef TILESCOPE_HAVE_STUDENT
namespace {

/// The submissions of folder `dir`, by name: every .cu file in it and every folder in it
/// (a folder holding no .cu file, or several, is a submission that cannot be graded). A
/// link is never followed: a student's folder may hold one to anywhere.
std::vector<Submission> findSubmissions(const fs::path& dir)
{
    std::vector<Submission> out;
    std::error_code ec;
    for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
        const std::string base = it->path().filename().string();
        if (base.empty() || base[0] == '.') continue;
        const fs::file_status s = it->symlink_status(ec);
        if (ec) break;
        if (fs::is_symlink(s)) {
            if (it->path().extension() == ".cu")
                out.push_back(Submission{it->path().stem().string(), "", "the submission is a link, not a file; links are not followed"});
            continue;
        }
        if (fs::is_regular_file(s) && it->path().extension() == ".cu") {
            out.push_back(Submission{it->path().stem().string(), it->path().string(), ""});
        } else if (fs::is_directory(s)) {
            std::string problem;
            const std::string file = submissionKernel(it->path().string(), problem);
            out.push_back(Submission{base, file, problem});
        }
    }
    std::sort(out.begin(), out.end(), [](const Submission& a, const Submission& b) { return a.name < b.name; });
    return out;
}

/// `name` as a file name of the output folder: letters, digits, '.', '-' and '_' kept,
/// anything else '_' (a student's file may be called anything).
std::string safeName(const std::string& name)
{
    std::string s;
    for (char c : name) s += (std::isalnum(static_cast<unsigned char>(c)) || c == '.' || c == '-' || c == '_') ? c : '_';
    if (s.empty() || s[0] == '.') s = "_" + s;
    return s.substr(0, 120);
}

/// A CSV field: quoted, quotes doubled, and a leading = + - @ made inert for spreadsheets.
std::string csvField(const std::string& v)
{
    std::string s = v;
    if (!s.empty() && (s[0] == '=' || s[0] == '+' || s[0] == '-' || s[0] == '@' || s[0] == '\t' || s[0] == '\r')) s = "'" + s;
    std::string q = "\"";
    for (char c : s) q += c == '"' ? std::string("\"\"") : std::string(1, c);
    return q + "\"";
}

/// The path of this executable, which grades each submission as a child.
std::string selfPath()
{
    std::error_code ec;
    const fs::path p = fs::read_symlink("/proc/self/exe", ec);
    return ec ? std::string() : p.string();
}

/// Runs `tilescope-cli grade --json` on one submission in a child process, at most
/// `limitSeconds`; the Grade it printed, or nullopt with `why`.
std::optional<student::Grade> gradeInChild(const std::string& exe, const student::Exercise& x, const std::string& file,
                                           double limitSeconds, std::string& why)
{
    int out[2];
    if (pipe2(out, O_CLOEXEC) != 0) {
        why = "the grader could not start (no pipe)";
        return std::nullopt;
    }
    std::vector<std::string> args = {exe, "grade", "--exercise", x.path, "--kernel-file", file, "--json"};
    if (student::unconfinedAllowed()) args.push_back("--allow-unconfined");
    std::vector<char*> argv;
    for (std::string& a : args) argv.push_back(a.data());
    argv.push_back(nullptr);
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_adddup2(&fa, out[1], STDOUT_FILENO);
    posix_spawn_file_actions_addopen(&fa, STDERR_FILENO, "/dev/null", O_WRONLY, 0);
    posix_spawnattr_t attr;
    posix_spawnattr_init(&attr);
    // A process group of its own, so that a submission past its time is stopped whole.
    posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETPGROUP);
    posix_spawnattr_setpgroup(&attr, 0);
    pid_t pid = 0;
    const int rc = posix_spawn(&pid, exe.c_str(), &fa, &attr, argv.data(), environ);
    posix_spawn_file_actions_destroy(&fa);
    posix_spawnattr_destroy(&attr);
    close(out[1]);
    if (rc != 0) {
        close(out[0]);
        why = "the grader could not start";
        return std::nullopt;
    }
    std::string text;
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(limitSeconds);
    bool late = false;
    for (;;) {
        const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now()).count();
        if (left <= 0) {
            late = true;
            break;
        }
        pollfd p{out[0], POLLIN, 0};
        const int n = poll(&p, 1, static_cast<int>(std::min<long long>(left, 1000)));
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) continue;
        char buf[65536];
        const ssize_t got = read(out[0], buf, sizeof buf);
        if (got < 0 && errno == EINTR) continue;
        if (got <= 0) break;
        text.append(buf, static_cast<size_t>(got));
        if (text.size() > (size_t{16} << 20)) break;   // a verdict is far smaller
    }
    close(out[0]);
    if (late) kill(-pid, SIGKILL);
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    if (late) {
        why = "grading it took longer than " + std::to_string(static_cast<int>(limitSeconds)) + " s and was stopped";
        return std::nullopt;
    }
    try {
        student::Grade g = gradeFromJson(nlohmann::json::parse(text));
        return g;
    } catch (const std::exception&) {
        why = WIFSIGNALED(status) ? "the grader stopped on signal " + std::to_string(WTERMSIG(status)) + " without a verdict"
                                  : "the grader gave no verdict (exit status " + std::to_string(WEXITSTATUS(status)) + ")";
        return std::nullopt;
    }
}

/// Writes `text` to `path`; false when it cannot.
bool writeFile(const fs::path& path, const std::string& text)
{
    std::ofstream f(path, std::ios::binary | std::ios::trunc);
    f << text;
    return static_cast<bool>(f);
}

}  // namespace
#endif

int runGradeClass(const GradeOptions& o)
{
#ifdef TILESCOPE_HAVE_STUDENT
    const std::optional<student::Exercise> found = exerciseOrSay(o.exercise);
    if (!found) return kBadInput;
    const student::Exercise& x = *found;
    std::error_code ec;
    if (!fs::is_directory(o.submissions, ec)) {
        std::cerr << "tilescope-cli: --submissions " << o.submissions << " is not a folder; give the folder that holds the class's .cu files.\n";
        return kBadInput;
    }
    fs::create_directories(fs::path(o.out) / "gradescope", ec);
    if (!ec) fs::create_directories(fs::path(o.out) / "prairielearn", ec);
    if (ec) {
        std::cerr << "tilescope-cli: cannot create the output folder " << o.out << ": " << ec.message() << ".\n";
        return kBadInput;
    }
    const std::vector<Submission> subs = findSubmissions(o.submissions);
    if (subs.empty()) {
        std::cerr << "tilescope-cli: " << o.submissions << " holds no submission (no .cu file, no folder).\n";
        return kBadInput;
    }
    const std::string exe = selfPath();
    const int jobs = o.jobs > 0 ? o.jobs : static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
    // Every size may run for its time limit; a submission past this is stopped whole.
    const double limit = 60.0 + 45.0 * static_cast<double>(x.sizes.size());

    struct Row {
        std::optional<student::Grade> grade;
        std::string why;
        double seconds = 0;
    };
    std::vector<Row> rows(subs.size());
    std::atomic<size_t> next{0}, done{0};
    std::mutex printing;
    const bool terminal = isatty(STDERR_FILENO);
    const auto started = std::chrono::steady_clock::now();
    auto progress = [&](const Submission& s, const Row& r) {
        std::lock_guard<std::mutex> g(printing);
        const size_t d = ++done;
        std::ostringstream line;
        line << "graded " << d << " of " << subs.size() << ": " << s.name << " ";
        if (r.grade) line << pointsText(r.grade->score()) << "/" << pointsText(r.grade->maxScore());
        else line << "not graded";
        if (terminal) {
            const int width = 30, filled = static_cast<int>(width * d / subs.size());
            std::cerr << "\r[" << std::string(static_cast<size_t>(filled), '#') << std::string(static_cast<size_t>(width - filled), ' ')
                      << "] " << line.str().substr(0, 60) << "\033[K" << (d == subs.size() ? "\n" : "") << std::flush;
        } else {
            std::cerr << line.str() << "\n";
        }
    };
    auto worker = [&] {
        for (size_t i; (i = next++) < subs.size();) {
            const Submission& s = subs[i];
            Row& r = rows[i];
            const auto t0 = std::chrono::steady_clock::now();
            if (!s.problem.empty()) r.why = s.problem;
            else r.grade = gradeInChild(exe, x, s.file, limit, r.why);
            r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
            progress(s, r);
        }
    };
    std::vector<std::thread> pool;
    for (int t = 0; t < std::min<int>(jobs, static_cast<int>(subs.size())); ++t) pool.emplace_back(worker);
    for (std::thread& t : pool) t.join();
    const double total = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();

    // The same checks, in the same order, for every row.
    const std::vector<std::string> names = student::checkNames(x);
    double maxScore = 0;
    for (const std::string& n : names) maxScore += x.points.of(n);
    std::ostringstream csv;
    csv << "submission,file,graded,passed,score,max_score,seconds";
    for (const std::string& n : names) csv << "," << csvField(n);
    csv << ",first_failure\n";
    nlohmann::ordered_json all;
    all["exercise"] = x.name;
    all["title"] = x.title;
    all["max_score"] = maxScore;
    all["checks"] = nlohmann::ordered_json::array();
    for (const std::string& n : names) all["checks"].push_back({{"name", n}, {"max_points", x.points.of(n)}});
    all["submissions"] = nlohmann::ordered_json::array();
    std::set<std::string> used;
    size_t graded = 0, passed = 0;
    for (size_t i = 0; i < subs.size(); ++i) {
        const Submission& s = subs[i];
        Row& r = rows[i];
        if (!r.grade) {
            student::Grade g;
            g.exercise = x.name;
            g.kernelFile = s.file;
            for (const std::string& n : names) {
                student::Check c{n, false, false, "not run: " + r.why, 0};
                c.maxPoints = x.points.of(n);
                g.checks.push_back(c);
            }
            r.grade = g;
        }
        student::Grade& g = *r.grade;
        g.seconds = r.seconds;
        const bool ok = r.why.empty();
        graded += ok;
        passed += ok && g.passed();
        std::string firstFailure;
        for (const student::Check& c : g.checks)
            if (!c.passed && !c.skipped) {
                firstFailure = c.name + ": " + c.diagnosis;
                break;
            }
        csv << csvField(s.name) << "," << csvField(s.file) << "," << (ok ? "yes" : "no") << "," << (g.passed() ? "yes" : "no") << ","
            << pointsText(g.score()) << "," << pointsText(g.maxScore()) << "," << std::fixed << std::setprecision(2) << r.seconds
            << std::defaultfloat;
        for (const std::string& n : names) {
            const auto c = std::find_if(g.checks.begin(), g.checks.end(), [&](const student::Check& k) { return k.name == n; });
            csv << "," << (c == g.checks.end() ? std::string("0") : pointsText(c->points));
        }
        csv << "," << csvField(firstFailure) << "\n";
        nlohmann::ordered_json j = gradeJson(g);
        j["submission"] = s.name;
        j["graded"] = ok;
        if (!ok) j["why_not_graded"] = r.why;
        all["submissions"].push_back(j);
        // Each submission's files for the platforms, under a name safe for any file system.
        std::string base = safeName(s.name);
        for (int k = 2; used.count(base); ++k) base = safeName(s.name) + "-" + std::to_string(k);
        used.insert(base);
        const nlohmann::ordered_json gs = ok ? gradescopeResults(g, x.title) : ungradableResults(x, "gradescope", r.why);
        const nlohmann::ordered_json pl = ok ? prairielearnResults(g, x.title) : ungradableResults(x, "prairielearn", r.why);
        if (!writeFile(fs::path(o.out) / "gradescope" / (base + ".json"), gs.dump(2) + "\n") ||
            !writeFile(fs::path(o.out) / "prairielearn" / (base + ".json"), pl.dump(2) + "\n")) {
            std::cerr << "tilescope-cli: cannot write the results of " << s.name << " into " << o.out << ".\n";
            return kBadInput;
        }
    }
    all["seconds"] = std::round(total * 100) / 100;
    all["jobs"] = jobs;
    if (!writeFile(fs::path(o.out) / "grades.csv", csv.str()) || !writeFile(fs::path(o.out) / "grades.json", all.dump(2) + "\n")) {
        std::cerr << "tilescope-cli: cannot write grades.csv and grades.json into " << o.out << ".\n";
        return kBadInput;
    }
    std::cout << "graded " << graded << " of " << subs.size() << " submissions of " << x.name << " (" << passed << " passed every check) in "
              << std::fixed << std::setprecision(1) << total << " s with " << jobs << " at a time ("
              << std::setprecision(1) << (total > 0 ? 60.0 * static_cast<double>(subs.size()) / total : 0.0)
              << " per minute); wrote " << (fs::path(o.out) / "grades.csv").string() << ", grades.json, gradescope/ and prairielearn/\n";
    return kOk;
#else
    (void)o;
    std::cerr << "tilescope-cli: this build cannot grade kernel files: it was built without libclang "
                 "(install libclang-14-dev and rebuild).\n";
    return kBadInput;
#endif
}

}  // namespace ts::cli
