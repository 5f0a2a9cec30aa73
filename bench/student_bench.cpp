// How long a student's kernel file takes to become a kernel the simulator runs
// (student/module.hpp), for the goals of a tiled matmul compiled in at most 3 s and a cached
// one opened in under 100 ms. For each file: the full build with the cache bypassed
// (libclang's translation, the compiler's child process, dlopen), then the open of the
// cached module in a fresh process (tilescope-cli simulate --kernel-file at 4x4, its whole
// run), each several times; prints the median and the range.
//   tilescope-student-bench [FILE.cu ...]   (default: tests/student/kernels/matmul_tiled.cu)
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include "student/module.hpp"

namespace {

double median(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
}

}  // namespace

int main(int argc, char** argv)
{
    std::vector<std::string> files;
    for (int i = 1; i < argc; ++i) files.push_back(argv[i]);
    if (files.empty()) files.push_back(std::string(TILESCOPE_SOURCE_DIR) + "/tests/student/kernels/matmul_tiled.cu");
    const std::string cache = (std::filesystem::temp_directory_path() / "tilescope-student-bench").string();
    const std::string cli = (std::filesystem::path(argv[0]).parent_path() / "tilescope-cli").string();
    constexpr int kBuilds = 5, kOpens = 9;
    for (const std::string& f : files) {
        std::vector<double> translate, compile, load, total;
        for (int i = 0; i < kBuilds; ++i) {
            ts::student::LoadOptions o;
            o.cacheDir = cache;
            o.useCache = false;
            const auto t0 = std::chrono::steady_clock::now();
            const ts::student::LoadResult r = ts::student::loadKernelFile(f, o);
            total.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
            if (!r.ok()) {
                for (const auto& d : r.errors) std::fprintf(stderr, "%s\n", ts::student::formatDiagnostic(f, d).c_str());
                return 1;
            }
            translate.push_back(r.translateSeconds);
            compile.push_back(r.compileSeconds);
            load.push_back(r.loadSeconds);
        }
        std::printf("%s\n  build, cache bypassed (%d runs): median %.3f s (translate %.3f s, compile %.3f s, "
                    "load %.4f s), range %.3f-%.3f s\n",
                    f.c_str(), kBuilds, median(total), median(translate), median(compile), median(load),
                    *std::min_element(total.begin(), total.end()), *std::max_element(total.begin(), total.end()));
        // A fresh process that finds the module in the cache: the CLI's whole run.
        std::vector<double> open;
        const std::string cmd = "TILESCOPE_CACHE_DIR='" + cache + "' '" + cli + "' simulate --kernel-file '" + f +
                                "' --width 16 --tile 16 --quiet > /dev/null 2>&1";
        for (int i = 0; i < kOpens; ++i) {
            const auto t0 = std::chrono::steady_clock::now();
            if (std::system(cmd.c_str()) != 0) {
                std::fprintf(stderr, "tilescope-cli failed: %s\n", cmd.c_str());
                return 1;
            }
            open.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
        }
        std::printf("  cached, a fresh tilescope-cli simulate at 16x16 (%d runs, whole process): median %.3f s, "
                    "range %.3f-%.3f s\n",
                    kOpens, median(open), *std::min_element(open.begin(), open.end()),
                    *std::max_element(open.begin(), open.end()));
    }
    return 0;
}
