// libFuzzer harness: the kernel-file front end (frontend/scan.hpp, frontend/translate.hpp) on
// arbitrary bytes, in process: scanKernelFile(), and translateCuda() when the scan lets the
// file through. Every refusal must be one sentence on one line, on a line the file has, at
// most one a line and in the file's order; a translation must keep every line of the file
// (the simulator's source lines are the student's). Any other exception, a crash, a hang
// (-timeout) or a sanitizer report is a finding. The front end is linked in, not loaded.
// Run: scripts/fuzz.sh kernel_file_fuzz (docs/design.md, "Fuzzing and sanitizers").
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

#include "fuzz_check.hpp"
#include "frontend/scan.hpp"
#include "frontend/translate.hpp"

namespace {

constexpr const char* kFile = "fuzz/input.cu";

/// The diagnostics' checks: one sentence each, on a line of the input, in order.
void checkDiagnostics(const std::vector<ts::student::Diagnostic>& ds, const std::string& text, bool onePerLine)
{
    const unsigned lines =
        static_cast<unsigned>(std::count(text.begin(), text.end(), '\n') + std::count(text.begin(), text.end(), '\r')) + 1;
    unsigned last = 0;
    for (const ts::student::Diagnostic& d : ds) {
        const std::string m = ts::student::formatDiagnostic(kFile, d);
        ts::fuzz::expectOneSentence(m, kFile);
        ts::fuzz::expect(!d.message.empty(), "a diagnostic without a message", m);
        ts::fuzz::expect(d.line <= lines, "a diagnostic past the file's last line", m);
        ts::fuzz::expect(d.line >= last, "diagnostics out of the file's order", m);
        ts::fuzz::expect(!onePerLine || d.line == 0 || d.line > last, "two refusals of the scan on one line", m);
        last = d.line;
    }
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***)
{
    // libclang's crash recovery installs signal handlers of its own and would swallow the
    // sanitizers' reports; a crash must end the run.
    setenv("LIBCLANG_DISABLE_CRASH_RECOVERY", "1", 1);
    // Each parse on this thread rather than on one libclang starts for it (8 MiB of stack,
    // as this one has): twice the executions a second.
    setenv("LIBCLANG_NOTHREADS", "1", 1);
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    const std::string text(reinterpret_cast<const char*>(data), size);
    const std::vector<ts::student::Diagnostic> refused = ts::student::scanKernelFile(text);
    checkDiagnostics(refused, text, true);
    if (!refused.empty()) return 0;
    const ts::student::Translation t = ts::student::translateCuda(text, kFile);
    checkDiagnostics(t.errors, text, false);
    if (t.ok()) {
        ts::fuzz::expect(!t.kernelName.empty(), "a translation without a kernel", t.code.substr(0, 200));
        ts::fuzz::expect(std::count(t.code.begin(), t.code.end(), '\n') == std::count(text.begin(), text.end(), '\n'),
                         "the translation moved the file's lines", t.code.substr(0, 200));
        uint64_t sum = 0;
        for (const ts::student::LocalArray& a : t.locals) sum += a.bytes;
        ts::fuzz::expect(sum == t.localBytes, "localBytes is not the sum of the local arrays", std::to_string(sum));
    }
    return 0;
}
