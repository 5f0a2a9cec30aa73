// The panel names the app passes to the scenario-file parser (its panel table,
// app/gui/panels/panel_table.cpp, in View-menu order), for the harnesses and tests that parse
// scenario files without the app. tests/app/panel_table_test.cpp checks that this list is the
// panel table's, so a panel added to the app cannot be missing here.
#pragma once
#include "sim/files/scenario_file.hpp"

namespace ts::fuzz {

/// Every panel name of the app, in the panel table's order.
inline const ts::sim::PanelNames kAppPanelNames = {
    "scenario", "stats",       "gpu",         "matrices", "timeline", "code",   "shared-memory", "threads",
    "hazards",  "occupancy",   "convolution", "reduction-tables", "memory", "ladder", "roofline", "tree", "histogram", "scan", "practice"};

}  // namespace ts::fuzz
