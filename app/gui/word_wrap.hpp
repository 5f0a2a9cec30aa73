// Wrapping a line of text only at its spaces. ImGui's TextWrapped also breaks after a full
// stop or a comma, which splits a number ("4.000" as "4." and "000", "1,064,960" after a
// comma); a figure must never be cut in two. Pure function, no ImGui.
#pragma once
#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace ts::app {

/// `text` cut into lines no wider than `width` (as `measure` gives a string's width), only
/// at spaces: each line holds as many whole words as fit (a word is a run of characters
/// without a space), the spaces where a line ends dropped; a word wider than `width` stays
/// whole on a line of its own. Spaces at the start of the text are kept (an indent).
std::vector<std::string> wrapAtSpaces(std::string_view text, float width,
                                      const std::function<float(std::string_view)>& measure);

}  // namespace ts::app
