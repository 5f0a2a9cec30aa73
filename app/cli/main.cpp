// tilescope-cli: the headless front end (spec: docs/cli.md). Exit status 0 success,
// 1 a requested check failed, 2 bad arguments, 3 no usable CUDA device.
#include <CLI/CLI.hpp>
#include <iostream>

#include "commands.hpp"

int main(int argc, char** argv)
{
    CLI::App app{"tilescope-cli: simulate, time and verify the tiled CUDA kernels of PMPP "
                 "chapters 4-7 without a window."};
    app.require_subcommand(1);
    app.set_help_all_flag("--help-all", "Print help for every subcommand");
    ts::cli::Commands cmds(app);
    try {
        app.parse(argc, argv);
    } catch (const CLI::CallForHelp& e) {
        return app.exit(e);
    } catch (const CLI::CallForAllHelp& e) {
        return app.exit(e);
    } catch (const CLI::ParseError& e) {
        std::cerr << "tilescope-cli: " << e.what() << " (see tilescope-cli --help).\n";
        return 2;
    }
    return cmds.run();
}
