// Runs the built tilescope-cli (path compiled in as TILESCOPE_CLI) and captures what it
// printed and its exit status, for the CLI golden tests.
#pragma once
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>

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

/// Runs `tilescope-cli simulate ARGS --json`, expects exit 0 and one JSON object.
inline nlohmann::json simulateJson(const std::string& args)
{
    const CliRun r = runCli("simulate " + args + " --json");
    if (r.status != 0)
        throw std::runtime_error("simulate " + args + " exited " + std::to_string(r.status) + ": " + r.err);
    return nlohmann::json::parse(r.out);
}

}  // namespace ts::test
