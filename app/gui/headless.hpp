// The headless driver: the command-line modes that run the app's frames without a user
// (--screenshot with --keys and --print-caption, --export-steps, --frames) and then exit.
#pragma once
#include "app.hpp"

namespace ts::app {

/// Runs the mode the options of `app` ask for (Options::headless()) on an opened app until
/// it is done. Throws UsageError for what the command line asked but the scenario cannot
/// give (a step or a --panel it does not have), RunError for a picture not written.
void runHeadless(App& app);

}  // namespace ts::app
