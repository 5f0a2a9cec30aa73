// The files of an --export-steps run: their names, the folder they go into (made if missing)
// and the refusal to overwrite an earlier export, and what the run prints when it is done.
#pragma once
#include <string>
#include <vector>

#include "options.hpp"

namespace ts::app {

/// The paths an export of steps `from`..`to` writes into `dir`, in the order written:
/// DIR/step-NNNN.png (or .svg), one per step, or the one animated DIR/steps-A-B.gif.
std::vector<std::string> exportFiles(const std::string& dir, ExportFormat format, int from, int to);

/// The first of `files` that exists already, or "" if none does.
std::string firstExisting(const std::vector<std::string>& files);

/// Gets the folder `dir` ready for writing `files`: unless `force`, throws UsageError naming
/// the first of them that exists (an export never overwrites one without --force); then makes
/// `dir` and its missing parents, throwing UsageError with the reason if that fails or `dir`
/// is not a folder. Returns whether the folder was made.
bool prepareExportFolder(const std::string& dir, const std::vector<std::string>& files, bool force);

/// At most this many files are listed one a line by exportReport; more are summed up.
inline constexpr size_t kListedExportFiles = 10;

/// What --export-steps prints on stdout when done: "created folder DIR" if `created`, then
/// "wrote PATH" for each of `files`, or past kListedExportFiles one line
/// "wrote N files, one per step: FIRST to LAST". Every line ends in '\n'.
std::string exportReport(const std::vector<std::string>& files, bool created, const std::string& dir);

}  // namespace ts::app
