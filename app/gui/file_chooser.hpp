// The file chooser of File > Open kernel and File > Open scenario: Dear ImGui's own list of
// what ships with the app (the exercises with their starter files, the lessons) beside a
// folder browser built on std::filesystem for the student's own files. No desktop portal,
// no child process: it works the same under Xvfb and in a sandbox (docs/design.md, "File
// chooser"). The web build uses the browser's chooser instead (Platform::picksFiles).
#pragma once
#include <string>
#include <string_view>
#include <vector>

namespace ts::app {

/// One entry of a folder, as the browser lists it.
struct FolderEntry {
    std::string name;     ///< file or folder name, without the path
    bool folder = false;
};

/// The sub-folders of `dir` (hidden ones left out) and its files whose names end with one of
/// `extensions` (".cu"; empty: every file), folders first, each part sorted by name; at most
/// `limit` entries. A folder that cannot be read gives no entries and one sentence in `error`.
std::vector<FolderEntry> listFolder(const std::string& dir, const std::vector<std::string>& extensions,
                                    std::string& error, size_t limit = 1000);

/// One shipped exercise, for Open kernel's list.
struct ExerciseChoice {
    std::string name;      ///< "tiled-matmul-boundary"
    std::string title;     ///< its statement's title
    std::string section;   ///< PMPP section ("5.5"), "" if unknown
    std::string starter;   ///< the starter file's path
};

/// The shipped exercises in PMPP order (by section, then name). Without the student library
/// (no libclang) or the exercises folder: none, and why in `error`.
std::vector<ExerciseChoice> listExerciseChoices(std::string& error);

/// Copies the exercise's starter file into folder `dir` as NAME.cu, so that the student edits
/// their own copy. Returns the new file's path; refuses (throws std::runtime_error with one
/// sentence) when a file of that name is already there or it cannot be written.
std::string copyStarter(const ExerciseChoice& e, const std::string& dir);

/// The state of one folder browser: the folder shown, the file chosen and the listing.
struct FolderBrowser {
    std::string dir;                       ///< absolute folder shown ("" until first drawn: the current folder)
    std::string typedDir;                  ///< the folder field's text
    std::vector<std::string> extensions;   ///< the files listed (".cu", ".toml")
    std::vector<FolderEntry> entries;
    std::string error;                     ///< why the folder could not be read
    bool stale = true;                     ///< read `dir` again before drawing
};

/// Shows `dir` in `b` (made absolute) and reads it at the next draw.
void browseTo(FolderBrowser& b, const std::string& dir);

/// Draws the browser into a region `height` pixels high: the folder field with an Up button,
/// then the folders and files. A click on a folder enters it; a click on a file puts its
/// path in `path`. Returns true when a file was double-clicked (open it).
bool drawFolderBrowser(FolderBrowser& b, std::string& path, float height);

}  // namespace ts::app
