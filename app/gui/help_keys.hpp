// The keys the app answers to, as one table: Help > Keys draws it as a two-column table
// (key, action) and README lists the same. App::handleKeys is where they are handled.
#pragma once
#include <span>

namespace ts::app {

/// One row of Help > Keys.
struct KeyHelp {
    const char* keys;     ///< "Right, Page Down"
    const char* action;   ///< "next step"
};

/// Every row, in the order Help > Keys lists them.
std::span<const KeyHelp> keyHelp();

/// What the mouse does, one sentence a line, shown under the table.
const char* mouseHelp();

}  // namespace ts::app
