#include "sim/teaching/lessons.hpp"

#include <algorithm>
#include <cstdlib>
#include <tuple>

namespace ts::sim {

BookPlace bookPlace(const Preset& p)
{
    // scenario_file.cpp has checked the form: one or two digits, a dot, one or two digits.
    BookPlace b;
    if (p.chapter.empty()) return b;
    b.chapter = std::atoi(p.chapter.c_str());
    if (const size_t dot = p.chapter.find('.'); dot != std::string::npos) b.section = std::atoi(p.chapter.c_str() + dot + 1);
    return b;
}

bool lessonBefore(const Preset& a, const Preset& b)
{
    const BookPlace x = bookPlace(a), y = bookPlace(b);
    // No chapter sorts after every chapter.
    const int cx = x.chapter > 0 ? x.chapter : 1000, cy = y.chapter > 0 ? y.chapter : 1000;
    return std::tie(cx, x.section, a.order, a.name) < std::tie(cy, y.section, b.order, b.name);
}

std::vector<Preset> inChapterOrder(std::vector<Preset> presets)
{
    std::stable_sort(presets.begin(), presets.end(), lessonBefore);
    return presets;
}

const char* chapterTitle(int chapter)
{
    // PMPP, 4th edition (Hwu, Kirk, El Hajj, 2022).
    switch (chapter) {
    case 2: return "Heterogeneous data parallel computing";
    case 3: return "Multidimensional grids and data";
    case 4: return "Compute architecture and scheduling";
    case 5: return "Memory architecture and data locality";
    case 6: return "Performance considerations";
    case 7: return "Convolution";
    case 8: return "Stencil";
    case 9: return "Parallel histogram";
    case 10: return "Reduction";
    case 11: return "Prefix sum (scan)";
    default: return "";
    }
}

std::string chapterHeading(int chapter)
{
    if (chapter <= 0) return "Other scenarios";
    const std::string title = chapterTitle(chapter);
    return "Ch. " + std::to_string(chapter) + (title.empty() ? "" : ": " + title);
}

std::vector<LessonGroup> lessonGroups(const std::vector<Preset>& presets)
{
    std::vector<LessonGroup> groups;
    for (const Preset& p : presets) {
        const int c = bookPlace(p).chapter;
        if (groups.empty() || groups.back().chapter != c) groups.push_back(LessonGroup{c, {}});
        groups.back().lessons.push_back(&p);
    }
    return groups;
}

}  // namespace ts::sim
