// Runs the built tilescope-cli (path compiled in as TILESCOPE_CLI) and captures what it
// printed and its exit status, for the CLI golden tests; and the checks they all make of a
// run: a JSON object printed with status 0, or a refusal in one sentence.
#pragma once
#include <sys/wait.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace ts::test {

/// What one run of tilescope-cli produced.
struct CliRun {
    int status = -1;   ///< exit status; -1 if it did not exit normally (crashed)
    std::string out;   ///< stdout
    std::string err;   ///< stderr
};

/// Runs `tilescope-cli ARGS` (ARGS as a shell would split them).
inline CliRun runCli(const std::string& args)
{
    char errPath[] = "/tmp/tilescope-cli-test-XXXXXX";
    const int fd = ::mkstemp(errPath);
    if (fd < 0) throw std::runtime_error("cannot create a temporary file for stderr");
    ::close(fd);
    const std::string cmd = std::string("'") + TILESCOPE_CLI + "' " + args + " 2>" + errPath;
    CliRun r;
    FILE* p = ::popen(cmd.c_str(), "r");
    if (!p) throw std::runtime_error("cannot run " + cmd);
    char buf[4096];
    for (size_t n; (n = std::fread(buf, 1, sizeof buf, p)) > 0;) r.out.append(buf, n);
    const int w = ::pclose(p);
    r.status = WIFEXITED(w) ? WEXITSTATUS(w) : -1;
    std::stringstream e;
    e << std::ifstream(errPath).rdbuf();
    r.err = e.str();
    std::remove(errPath);
    return r;
}

/// Runs `tilescope-cli ARGS`, expects exit 0 and one JSON object on stdout. Throws
/// std::runtime_error naming the arguments, the status and stderr otherwise.
inline nlohmann::json runJson(const std::string& args)
{
    const CliRun r = runCli(args);
    if (r.status != 0) throw std::runtime_error(args + " exited " + std::to_string(r.status) + ": " + r.err);
    return nlohmann::json::parse(r.out);
}

/// Runs `tilescope-cli simulate ARGS --json`, expects exit 0 and one JSON object.
inline nlohmann::json simulateJson(const std::string& args) { return runJson("simulate " + args + " --json"); }

/// Checks that run `r` was refused as docs/cli.md promises: exit status `status`, nothing
/// (half-written) on stdout, and one sentence on one line on stderr that contains each of
/// `mentions`.
inline void expectOneSentenceRefusal(const CliRun& r, int status, const std::vector<std::string>& mentions)
{
    EXPECT_EQ(r.status, status) << r.err;
    EXPECT_EQ(r.out, "") << "nothing half-written on stdout";
    ASSERT_GE(r.err.size(), 2u);
    EXPECT_EQ(r.err.find('\n'), r.err.size() - 1) << "one line: " << r.err;
    EXPECT_EQ(r.err[r.err.size() - 2], '.') << "one sentence: " << r.err;
    for (const std::string& m : mentions) EXPECT_NE(r.err.find(m), std::string::npos) << "'" << m << "' in " << r.err;
}

/// Runs `tilescope-cli ARGS` and expects it refused (expectOneSentenceRefusal).
inline void expectRefusedRun(const std::string& args, int status, const std::vector<std::string>& mentions)
{
    SCOPED_TRACE("tilescope-cli " + args);
    expectOneSentenceRefusal(runCli(args), status, mentions);
}

}  // namespace ts::test
