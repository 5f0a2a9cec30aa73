// The lecture presets as lessons: in the order of PMPP's chapters (each preset's `chapter`
// and `order`, sim/files/scenario_file.hpp) and grouped by chapter, for the welcome window,
// the Lessons menu and the Scenario panel. No UI.
#pragma once
#include <string>
#include <vector>

#include "sim/files/scenario_file.hpp"

namespace ts::sim {

/// A preset's place in the book: PMPP (4th edition) chapter and section, 0 where not given.
struct BookPlace {
    int chapter = 0;
    int section = 0;
};

/// The place `p.chapter` names ("5.4" is chapter 5, section 4; "7" chapter 7, section 0).
/// A preset without a chapter (a user's own file) is {0, 0}: lessonBefore puts it last.
BookPlace bookPlace(const Preset& p);

/// Whether lesson `a` comes before lesson `b`: by chapter, section, then `order`, then name;
/// presets without a chapter after all those with one.
bool lessonBefore(const Preset& a, const Preset& b);

/// `presets` sorted by lessonBefore (stable).
std::vector<Preset> inChapterOrder(std::vector<Preset> presets);

/// The title of PMPP 4th edition's chapter `chapter` ("Memory architecture and data
/// locality" for 5), or "" for a chapter the lessons do not reach.
const char* chapterTitle(int chapter);

/// "Ch. 5: Memory architecture and data locality" (or "Ch. 12" without a title; "Other
/// scenarios" for 0): a group's heading.
std::string chapterHeading(int chapter);

/// One chapter's lessons, in order.
struct LessonGroup {
    int chapter = 0;
    std::vector<const Preset*> lessons;   ///< pointers into the vector given to lessonGroups
};

/// `presets`, already in chapter order (inChapterOrder), cut into one group per chapter.
std::vector<LessonGroup> lessonGroups(const std::vector<Preset>& presets);

}  // namespace ts::sim
