// --print-text: the text a frame shows, as Dear ImGui's log takes it down. ImGui logs a
// window's widgets from a call inside it up to its End(), so each window whose text is wanted
// starts the log right after its Begin() (logWindowText); the log ends in the window's End()
// by handing its text to the clipboard function, which here keeps it instead while a log is
// being written (and passes any real copy, Ctrl+L's, on to the old clipboard function).
#pragma once
#include <string>

namespace ts::app {

/// Starts a frame's text: with `on`, forgets the frame before's and takes over ImGui's
/// clipboard function for the logs; without, does nothing (the app without --print-text
/// never logs).
void beginShownText(bool on);

/// Starts the log of the window just begun (ImGui::Begin), under a line "== TITLE ==", when
/// beginShownText(true) was called this frame; its End() ends it.
void logWindowText(const char* title);

/// The text of the windows logged since beginShownText: each window's title line, then its
/// widgets' text line by line as they were drawn (a folded window draws none; values painted
/// into a figure are not widgets' text; a list that draws rows past its scrolled view gives
/// those too).
const std::string& shownText();

}  // namespace ts::app
