// What the caption bar and the Code panel showed of the run's mistake in the frame just
// drawn, for --print-caption and --print-code (tests/gui/diagnosis.cmake checks them).
#pragma once
#include <string>

namespace ts::app {

/// The diagnosis sentence the caption bar drew in the last frame (Loaded::diagnosis), "" when
/// it drew none.
std::string captionDiagnosisDrawn();

/// The Code panel as drawn in the last frame, a line each: "code-lines FIRST LAST" (the source
/// lines at least half visible in the listing; "code-lines none" when it drew no listing),
/// "code-columns numbers|no-numbers memory|no-memory", then each row of the listing as
/// "code-row N|TEXT" (N: the source line of the row, TEXT: the row's text without its
/// indentation; a wrapped line's rows carry the same N, and each but its last ends with the
/// spaces the break skipped, so an identifier split across two rows shows as a row ending in
/// a letter, digit or '_' followed by a row of the same N starting with one). Rows scrolled
/// out of view are listed too. "" when the Code panel was not drawn unfolded.
std::string codeReport();

}  // namespace ts::app
