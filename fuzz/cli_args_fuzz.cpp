// libFuzzer harness: tilescope-cli's argument parsing (ts::cli::CommandLine, the CLI11 app
// with every subcommand of docs/cli.md). The input is split at NUL bytes into arguments;
// they are parsed, never run. Parsing must end in "ready to run" (-1), help (0) or bad
// arguments (2, one sentence on stderr); any exception that escapes, a crash, a hang or a
// sanitizer report is a finding.
// Run: scripts/fuzz.sh cli_args_fuzz (docs/design.md, "Fuzzing and sanitizers").
#include <cstddef>
#include <cstdint>
#include <sstream>
#include <string>
#include <vector>

#include "command_line.hpp"
#include "fuzz_check.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    constexpr size_t kMaxArgs = 64;
    std::vector<std::string> args{"tilescope-cli"};
    std::string arg;
    for (size_t i = 0; i < size && args.size() < kMaxArgs; ++i) {
        if (data[i] == 0) {
            args.push_back(arg);
            arg.clear();
        } else {
            arg += static_cast<char>(data[i]);
        }
    }
    if (!arg.empty() && args.size() < kMaxArgs) args.push_back(arg);
    std::vector<const char*> argv;
    for (const std::string& a : args) argv.push_back(a.c_str());

    ts::cli::CommandLine commandLine;
    std::ostringstream out, err;
    const int status = commandLine.parse(static_cast<int>(argv.size()), argv.data(), out, err);
    ts::fuzz::expect(status == -1 || status == 0 || status == ts::cli::kBadInput, "unexpected exit status",
                     std::to_string(status));
    if (status == ts::cli::kBadInput) ts::fuzz::expectOneSentence(err.str(), "tilescope-cli: ");
    if (status == 0) ts::fuzz::expect(!out.str().empty(), "help printed nothing", err.str());
    return 0;
}
