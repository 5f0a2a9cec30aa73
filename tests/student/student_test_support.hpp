// What the student-layer tests share: where the test kernels live, the load options with
// the tests' cache, a diagnostics list as text, and tilescope-cli run as a child process.
// TILESCOPE_SOURCE_DIR, TILESCOPE_STUDENT_CACHE and TILESCOPE_CLI come from tests/CMakeLists.txt.
#pragma once
#include <sys/wait.h>

#include <array>
#include <cstdio>
#include <string>
#include <vector>

#include "student/module.hpp"

namespace ts::student::test {

/// tests/student/kernels/NAME in the source tree.
inline std::string kernelPath(const std::string& name)
{
    return std::string(TILESCOPE_SOURCE_DIR) + "/tests/student/kernels/" + name;
}

/// Load options whose module cache is the tests' own folder.
inline LoadOptions options()
{
    LoadOptions o;
    o.cacheDir = TILESCOPE_STUDENT_CACHE;
    return o;
}

/// The diagnostics as a compiler prints them, one a line, for a failing assertion's message.
inline std::string errorsOf(const std::vector<Diagnostic>& errors)
{
    std::string s;
    for (const Diagnostic& d : errors) s += formatDiagnostic("kernel.cu", d) + "\n";
    return s;
}

/// Runs tilescope-cli with `args`; its exit status (-1: it did not exit) and its stdout,
/// with stderr when `withStderr`.
inline int cli(const std::string& args, std::string& out, bool withStderr)
{
    const std::string cmd = "TILESCOPE_CACHE_DIR='" TILESCOPE_STUDENT_CACHE "' '" TILESCOPE_CLI "' " + args +
                            (withStderr ? " 2>&1" : " 2>/dev/null");
    FILE* p = popen(cmd.c_str(), "r");
    if (!p) return -1;
    std::array<char, 4096> buf{};
    out.clear();
    while (size_t n = fread(buf.data(), 1, buf.size(), p)) out.append(buf.data(), n);
    const int status = pclose(p);
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

}  // namespace ts::student::test
