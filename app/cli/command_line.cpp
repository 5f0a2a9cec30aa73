#include "command_line.hpp"

#include "sim/files/scenario_file.hpp"

namespace ts::cli {
namespace {

/// The app's description and top-level options, set before the subcommands are added.
CLI::App& configured(CLI::App& app)
{
    app.description("tilescope-cli: simulate, time and verify the tiled CUDA kernels of PMPP "
                    "chapters 4-7 without a window.");
    app.require_subcommand(1);
    app.set_help_all_flag("--help-all", "Print help for every subcommand");
    return app;
}

}  // namespace

CommandLine::CommandLine()
    : app_(), commands_(configured(app_)), questions_(addQuestionsCommand(app_, questionsOpt_)),
      narrate_(addNarrateCommand(app_, narrateOpt_))
{
}

int CommandLine::parse(int argc, const char* const* argv, std::ostream& out, std::ostream& err)
{
    try {
        app_.parse(argc, argv);
    } catch (const CLI::Success& e) {   // --help, --help-all
        return app_.exit(e, out, err);
    } catch (const CLI::ParseError& e) {
        // oneLine: an argument with a newline in it is quoted escaped, on the one line.
        err << "tilescope-cli: " << sim::oneLine(e.what()) << " (see tilescope-cli --help).\n";
        return kBadInput;
    }
    return -1;
}

}  // namespace ts::cli
