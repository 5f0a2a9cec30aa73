// What every harness checks of an error message: one sentence on one line. A failed check
// aborts, which libFuzzer reports as a crash with the input that caused it.
#pragma once
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

namespace ts::fuzz {

/// Aborts with `why` and the message unless `ok`.
inline void expect(bool ok, const char* why, const std::string& message)
{
    if (ok) return;
    std::fprintf(stderr, "fuzz check failed: %s\nmessage: [%s]\n", why, message.c_str());
    std::abort();
}

/// An error message must be one sentence: not empty, beginning with `prefix` (the file it
/// names, or the program), on one line.
inline void expectOneSentence(const std::string& message, std::string_view prefix)
{
    expect(!message.empty(), "empty error message", message);
    expect(message.compare(0, prefix.size(), prefix) == 0, "error message does not begin with the file's name", message);
    expect(message.find('\n') == std::string::npos || message.find('\n') == message.size() - 1,
           "error message spans several lines", message);
}

}  // namespace ts::fuzz
