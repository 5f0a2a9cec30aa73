// A main() for a libFuzzer harness of fuzz/ without libFuzzer: every file under the folders
// (or the files) named on the command line goes once through LLVMFuzzerTestOneInput, in the
// order of their paths, after LLVMFuzzerInitialize where the harness has one. Built with the
// main build's compiler and libraries (fuzz/replay.cmake), it replays a committed corpus as
// the CTest test fuzz.replay_<target>; the fuzzing itself is scripts/fuzz.sh.
//
//   <target>_replay PATH...      # prints how many inputs it ran; exit status 0
//
// A failed check of the harness aborts the run and a crash ends it; either way the input
// being run is named first. No input at all is a failure (exit status 1), and so is a path
// that is not there (exit status 2): an empty replay proves nothing.
#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <memory>
#include <string>
#include <system_error>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);
// Optional in a harness: libFuzzer calls it once, before the first input.
extern "C" __attribute__((weak)) int LLVMFuzzerInitialize(int* argc, char*** argv);

namespace {

namespace fs = std::filesystem;

/// "<program>: this input did not pass: " and the path of the input being run, for the
/// signal handler (which may not allocate).
char gHead[256];
char gCurrent[4096];

/// Names the input that was running, then lets the signal end the process as it would have.
void onFatalSignal(int sig)
{
    [[maybe_unused]] ssize_t n = write(STDERR_FILENO, gHead, std::strlen(gHead));
    n = write(STDERR_FILENO, gCurrent, std::strlen(gCurrent));
    n = write(STDERR_FILENO, "\n", 1);
    signal(sig, SIG_DFL);
    raise(sig);
}

/// The regular files under `path` (itself, if it is one), sorted; false if it is not there.
bool collect(const fs::path& path, std::vector<fs::path>& files)
{
    std::error_code ec;
    if (fs::is_regular_file(path, ec)) {
        files.push_back(path);
        return true;
    }
    if (!fs::is_directory(path, ec)) return false;
    std::vector<fs::path> found;
    for (const fs::directory_entry& e : fs::recursive_directory_iterator(path))
        if (e.is_regular_file()) found.push_back(e.path());
    std::sort(found.begin(), found.end());
    files.insert(files.end(), found.begin(), found.end());
    return true;
}

}  // namespace

int main(int argc, char** argv)
{
    const std::string name = fs::path(argv[0]).filename().string();
    if (argc < 2) {
        std::fprintf(stderr, "%s: give the corpus folders or input files to replay.\n", name.c_str());
        return 2;
    }
    std::vector<fs::path> files;
    for (int i = 1; i < argc; ++i)
        if (!collect(argv[i], files)) {
            std::fprintf(stderr, "%s: %s is neither a file nor a folder.\n", name.c_str(), argv[i]);
            return 2;
        }
    if (files.empty()) {
        std::fprintf(stderr, "%s: no inputs to replay under the paths given.\n", name.c_str());
        return 1;
    }
    std::snprintf(gHead, sizeof gHead, "%s: this input did not pass: ", name.c_str());
    for (int sig : {SIGABRT, SIGSEGV, SIGBUS, SIGFPE, SIGILL}) signal(sig, onFatalSignal);
    if (LLVMFuzzerInitialize) LLVMFuzzerInitialize(&argc, &argv);

    const auto start = std::chrono::steady_clock::now();
    size_t bytes = 0;
    for (const fs::path& f : files) {
        std::snprintf(gCurrent, sizeof gCurrent, "%s", f.c_str());
        // A buffer of exactly the input's size, as libFuzzer passes it, so that a sanitized
        // build sees a read past its end.
        std::error_code ec;
        const uintmax_t size = fs::file_size(f, ec);
        std::ifstream in(f, std::ios::binary);
        const std::unique_ptr<uint8_t[]> data(new uint8_t[ec ? 0 : size]);
        if (ec || !in || !in.read(reinterpret_cast<char*>(data.get()), static_cast<std::streamsize>(size))) {
            std::fprintf(stderr, "%s: could not read %s.\n", name.c_str(), f.c_str());
            return 2;
        }
        LLVMFuzzerTestOneInput(data.get(), size);
        bytes += size;
    }
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    std::printf("%s: replayed %zu inputs (%zu bytes) in %.1f s\n", name.c_str(), files.size(), bytes, seconds);
    return 0;
}
