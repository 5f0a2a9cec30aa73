// The student layer's front end in a build with libclang: the functions of
// frontend/translate.hpp and frontend/scan.hpp that need libclang, each a call through the
// table of libtilescope-frontend.so, which is opened on the first call
// (frontend/frontend_loader.hpp, frontend/frontend_abi.hpp).
#include "frontend/frontend_loader.hpp"

#include <dlfcn.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <string>
#include <vector>

#include "frontend/frontend_abi.hpp"

// The library's folder relative to the executable's (or absolute), from CMake's install
// layout: bin/ and lib/tilescope/ under one prefix, in the build tree as when installed.
#ifndef TILESCOPE_FRONTEND_DIR
#define TILESCOPE_FRONTEND_DIR "../lib/tilescope"
#endif

namespace ts::student {
namespace {

const frontend::Table* gTable = nullptr;

/// The folder of the running executable, with its final '/'; empty if unknown.
std::string executableDir()
{
    std::string path(4096, '\0');
    const ssize_t n = readlink("/proc/self/exe", path.data(), path.size());
    if (n <= 0 || static_cast<size_t>(n) >= path.size()) return {};
    path.resize(static_cast<size_t>(n));
    return path.substr(0, path.rfind('/') + 1);
}

/// The file the library is opened from: $TILESCOPE_FRONTEND_LIBRARY, else its place beside
/// the executable.
std::string libraryPath()
{
    if (const char* env = std::getenv("TILESCOPE_FRONTEND_LIBRARY"); env && *env) return env;
    const std::string dir = TILESCOPE_FRONTEND_DIR;
    return (dir.front() == '/' ? dir : executableDir() + dir) + "/" + frontend::kLibraryFileName;
}

/// Why `t` is not this build's table, as the end of a sentence; empty when it is.
std::string mismatch(const frontend::Table& t)
{
    if (t.interfaceVersion != frontend::kInterfaceVersion)
        return "its interface is version " + std::to_string(t.interfaceVersion) + ", this program's " +
               std::to_string(frontend::kInterfaceVersion);
    if (t.translationSize != frontend::kTranslationSize || t.diagnosticSize != frontend::kDiagnosticSize ||
        t.scanLimitsSize != frontend::kScanLimitsSize)
        return "it was built from other headers than this program (its Translation is " + std::to_string(t.translationSize) +
               " bytes, this program's " + std::to_string(frontend::kTranslationSize) + ")";
    return {};
}

FrontendLibrary open()
{
    FrontendLibrary lib;
    lib.path = libraryPath();
    const auto t0 = std::chrono::steady_clock::now();
    const std::string remedy = " (rebuild or reinstall TileScope, or set TILESCOPE_FRONTEND_LIBRARY to the library's path)";
    // RTLD_LOCAL: libclang's and LLVM's symbols stay out of the executable's namespace, which
    // the student's module binds against. RTLD_NOW: a symbol missing from the libraries is a
    // dlerror here, not the process's end at its first call.
    void* handle = dlopen(lib.path.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!handle) {
        const char* why = dlerror();
        lib.error = "the C++ front end (libclang) could not be loaded: " + std::string(why ? why : lib.path) + remedy;
    } else if (auto entry = reinterpret_cast<const frontend::Table* (*)()>(dlsym(handle, frontend::kEntrySymbol)); !entry) {
        lib.error = "the C++ front end " + lib.path + " is not this version's: it has no " + frontend::kEntrySymbol + remedy;
    } else if (const frontend::Table* table = entry(); !table) {
        lib.error = "the C++ front end " + lib.path + " gave no table of its functions" + remedy;
    } else if (const std::string why = mismatch(*table); !why.empty()) {
        lib.error = "the C++ front end " + lib.path + " belongs to another build of TileScope: " + why + remedy;
    } else {
        gTable = table;   // the handle is never closed: the table's functions stay valid
        lib.loaded = true;
    }
    lib.loadSeconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    return lib;
}

/// The table, or null after a failure (its sentence is frontendLibrary().error).
const frontend::Table* table() { return frontendLibrary().loaded ? gTable : nullptr; }

}  // namespace

const FrontendLibrary& frontendLibrary()
{
    static const FrontendLibrary lib = open();
    return lib;
}

Translation translateCuda(const std::string& source, const std::string& fileName)
{
    if (const frontend::Table* t = table()) return t->translateCuda(source, fileName);
    Translation refused;
    refused.errors.push_back(Diagnostic{0, 0, frontendLibrary().error});
    return refused;
}

std::vector<Diagnostic> scanKernelFile(const std::string& source, const ScanLimits& limits)
{
    if (const frontend::Table* t = table()) return t->scanKernelFile(source, limits);
    return {Diagnostic{0, 0, frontendLibrary().error}};
}

const std::vector<std::string>& allowedFunctions()
{
    static const std::vector<std::string> none;
    if (const frontend::Table* t = table()) return t->allowedFunctions();
    return none;
}

std::string unsupportedName(const std::string& name)
{
    if (const frontend::Table* t = table()) return t->unsupportedName(name);
    return {};
}

}  // namespace ts::student
