// tilescope-cli: the headless front end (spec: docs/cli.md). Exit status 0 success,
// 1 a requested check failed, 2 bad arguments, 3 no usable CUDA device.
#include "command_line.hpp"

int main(int argc, char** argv)
{
    ts::cli::CommandLine commandLine;
    if (const int status = commandLine.parse(argc, argv); status >= 0) return status;
    return commandLine.run();
}
