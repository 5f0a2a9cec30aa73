// The interface between libclang's front end, built as a library of its own
// (libtilescope-frontend.so: frontend/translate.cpp, frontend/scan.cpp), and the loader in the
// student layer (frontend/frontend_loader.cpp) that opens it with dlopen the first time a
// kernel file is translated or scanned. Commands that never look at a kernel file
// (list-kernels, --help, the app showing a preset) then never load libclang, LLVM, z3 or
// ICU (issue 36, point 5; scripts/bench-startup.sh measures it).
//
// The library and its loader come from one build of one compiler: the table passes C++
// types (std::string, Translation) by the functions' own signatures. It says which
// interface and which layout it was built with, so a library of another build is refused
// with a sentence rather than called.
#pragma once
#include <cstddef>
#include <string>
#include <vector>

#include "frontend/scan.hpp"
#include "frontend/translate.hpp"

namespace ts::student::frontend {

/// Raised whenever the table's members or their meaning change.
inline constexpr unsigned kInterfaceVersion = 1;

/// The name of the library's one exported symbol, a function `const Table* ()`.
inline constexpr const char* kEntrySymbol = "tilescope_frontend_table_v1";

/// The library's file name, in the folder the loader looks in (frontend_loader.hpp).
inline constexpr const char* kLibraryFileName = "libtilescope-frontend.so";

/// What the front-end library hands to its loader: the sizes it was built with, to be
/// checked against the loader's, and the front end's functions.
struct Table {
    unsigned interfaceVersion;
    size_t translationSize, diagnosticSize, scanLimitsSize;
    Translation (*translateCuda)(const std::string& source, const std::string& fileName);
    std::vector<Diagnostic> (*scanKernelFile)(const std::string& source, const ScanLimits& limits);
    const std::vector<std::string>& (*allowedFunctions)();
    std::string (*unsupportedName)(const std::string& name);
};

/// The sizes the loader expects: both sides fill them from the same headers.
inline constexpr size_t kTranslationSize = sizeof(Translation);
inline constexpr size_t kDiagnosticSize = sizeof(Diagnostic);
inline constexpr size_t kScanLimitsSize = sizeof(ScanLimits);

}  // namespace ts::student::frontend
