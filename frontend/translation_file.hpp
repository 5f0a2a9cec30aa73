// A student's translation saved to a file and read back, for a machine without libclang
// (the GPU machine): there the student layer takes each kernel file's translation from a
// folder written on a machine that has libclang (`tilescope-cli translate`,
// scripts/student-translations.sh), found by the hash of the file's text, and builds the
// module from it as usual (docs/student-kernels.md, "Without libclang").
#pragma once
#include <optional>
#include <string>

#include "frontend/translate.hpp"

namespace ts::student {

/// 64-bit FNV-1a of `text`, as 16 hex digits: the key of a saved translation (and of a
/// cached module, student/module.cpp).
std::string textHash(const std::string& text);

/// The file that holds the translation of `source` in folder `dir`: DIR/<textHash>.json.
std::string translationPath(const std::string& dir, const std::string& source);

/// Writes the translation `t` of `source` (read from `fileName`, recorded for whoever
/// reads the folder) into `dir`, which is created if missing: the kernel's code, name,
/// parameters, __shared__ and __constant__ arrays, __device__ helpers, integer #defines
/// and barrier lines, as JSON. `t` must be
/// ok(). Returns "" or one sentence saying why the file could not be written.
std::string saveTranslation(const Translation& t, const std::string& source, const std::string& fileName,
                            const std::string& dir);

/// The translation of `source` saved in `dir`, or std::nullopt when `dir` holds none for
/// this text (an edited file has another hash). A file that exists but cannot be read or
/// is malformed sets `error` to one sentence and gives std::nullopt.
std::optional<Translation> loadTranslation(const std::string& source, const std::string& dir, std::string& error);

/// The folder of saved translations a build without libclang reads: $TILESCOPE_TRANSLATIONS
/// ("" when unset).
std::string savedTranslationsDir();

}  // namespace ts::student
