// libclang's front end loaded on first use (frontend/frontend_abi.hpp). In a build with
// libclang, the student layer's translateCuda() (frontend/translate.hpp) and the scan's
// functions (frontend/scan.hpp) are the loader's: the first call opens
// libtilescope-frontend.so with dlopen, and libclang, LLVM, z3 and ICU with it; a command
// that never reads a kernel file never loads them. Where the library cannot be loaded, a
// translation or a scan is refused with one sentence that names the file and the reason,
// never a crash.
//
// Where the library is looked for: $TILESCOPE_FRONTEND_LIBRARY when it is set (that file
// only), else beside the executable, in the folder that `cmake --install` gives it relative
// to the executables' (bin/../lib/tilescope/; the build tree has the same layout).
#pragma once
#include <string>

namespace ts::student {

/// The front-end library as the loader left it.
struct FrontendLibrary {
    std::string path;          ///< the file opened, or the one that could not be
    bool loaded = false;       ///< its functions are ready to call
    std::string error;         ///< one sentence when not loaded
    double loadSeconds = 0;    ///< the time dlopen and the checks took
};

/// Opens the front-end library the first time it is called (safe from several threads at
/// once) and returns the same result on every later call: a failure is not retried.
const FrontendLibrary& frontendLibrary();

}  // namespace ts::student
