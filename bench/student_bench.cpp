// How long a student's kernel file takes to become a kernel the simulator runs
// (student/module.hpp), for the goals of a tiled matmul compiled in at most 3 s and a cached
// one opened in under 100 ms. For each file: the full build with the cache bypassed
// (libclang's translation, the compiler's child process, dlopen), then the open of the
// cached module in a fresh process (tilescope-cli simulate --kernel-file at 16x16, its
// whole run, beside the same run of built-in matmul-tiled), each several times; prints the
// median and the range.
//   tilescope-student-bench [FILE.cu ...]   (default: tests/student/kernels/matmul_tiled.cu)
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include "sim/engine/simulate.hpp"
#include "student/module.hpp"

namespace {

namespace sim = ts::sim;

double median(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
}

/// The tile a file's kernel runs at (its TILE_WIDTH, else a block edge of 4), loading it
/// from the cache.
int r0Tile(const std::string& file, const std::string& cache)
{
    ts::student::LoadOptions o;
    o.cacheDir = cache;
    const ts::student::LoadResult r = ts::student::loadKernelFile(file, o);
    return r.ok() && !r.info->tiles.empty() ? r.info->tiles.front() : 4;
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
            // One small run: the module calls into the simulator, which must be linked in.
            if (i == 0) {
                sim::Scenario s = sim::matmulScenario(r.info->name, 16, 16, 16, r.info->tiles.empty() ? 4 : r.info->tiles.front());
                if (!sim::validate(s).empty() || !sim::simulate(s, sim::SimOptions{}).matchesReference) {
                    std::fprintf(stderr, "%s: the loaded kernel did not reproduce the reference at 16x16\n", f.c_str());
                    return 1;
                }
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
        // Against the same run of a built-in kernel, alternately: the difference is the open.
        std::vector<double> open, builtIn;
        const std::string tile = std::to_string(r0Tile(f, cache));
        const std::string cmd = "TILESCOPE_CACHE_DIR='" + cache + "' '" + cli + "' simulate --kernel-file '" + f +
                                "' --width 16 --tile " + tile + " --quiet > /dev/null 2>&1";
        const std::string base = "'" + cli + "' simulate --kernel matmul-tiled --width 16 --tile " + tile +
                                 " --quiet > /dev/null 2>&1";
        for (int i = 0; i < kOpens; ++i) {
            for (auto [c, out] : {std::pair{&cmd, &open}, std::pair{&base, &builtIn}}) {
                const auto t0 = std::chrono::steady_clock::now();
                if (std::system(c->c_str()) != 0) {
                    std::fprintf(stderr, "tilescope-cli failed: %s\n", c->c_str());
                    return 1;
                }
                out->push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
            }
        }
        std::printf("  cached, a fresh tilescope-cli simulate at 16x16 (%d runs, whole process): median %.3f s "
                    "(range %.3f-%.3f s); the same run of built-in matmul-tiled: median %.3f s\n",
                    kOpens, median(open), *std::min_element(open.begin(), open.end()),
                    *std::max_element(open.begin(), open.end()), median(builtIn));
    }
    return 0;
}
