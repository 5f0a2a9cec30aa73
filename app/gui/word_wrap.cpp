#include "word_wrap.hpp"

namespace ts::app {

std::vector<std::string> wrapAtSpaces(std::string_view text, float width,
                                      const std::function<float(std::string_view)>& measure)
{
    std::vector<std::string> lines;
    std::string line;
    size_t i = 0;
    // The indent: the text's leading spaces go with its first word.
    while (i < text.size() && text[i] == ' ') ++i;
    std::string_view gap = text.substr(0, i);
    bool first = true;
    while (i < text.size()) {
        const size_t end = text.find(' ', i);
        const std::string_view word = text.substr(i, end == std::string_view::npos ? std::string_view::npos : end - i);
        const std::string candidate = line + std::string(gap) + std::string(word);
        if (first || measure(candidate) <= width) {
            line = candidate;
        } else {
            lines.push_back(line);
            line = std::string(word);
        }
        first = false;
        if (end == std::string_view::npos) break;
        size_t next = end;
        while (next < text.size() && text[next] == ' ') ++next;
        gap = text.substr(end, next - end);
        i = next;
    }
    if (!line.empty() || lines.empty()) lines.push_back(line);
    return lines;
}

}  // namespace ts::app
