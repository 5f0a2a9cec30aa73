// Small text helpers that the generated words of the teaching models share: the practice
// questions (sim/teaching/questions.hpp), the narration (sim/teaching/narration.hpp) and the app's practice
// panel. Plain ASCII: the kernels' identifiers and the app's sentences are ASCII.
#pragma once
#include <string>
#include <string_view>
#include <vector>

namespace ts::sim {

/// `t` without white space at either end.
std::string trim(std::string_view t);
/// `s` in lower case (ASCII letters only).
std::string lower(std::string s);
/// `s` with its first letter upper case: a sentence from a phrase.
std::string capitalised(std::string s);
/// "a", "a and b", "a, b and c"; empty for no items.
std::string joinList(const std::vector<std::string>& items);

}  // namespace ts::sim
