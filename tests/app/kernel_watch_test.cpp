// A student's kernel file in the app: the watch reports each save once (a change of the
// modification time or of the size) and nothing between saves or while the file is away;
// the last kernel file opened is kept in settings.toml (kernel_file); build errors are
// named by the file's name alone.
#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <fstream>

#include "file_watch.hpp"
#include "settings.hpp"
#include "student_kernel.hpp"

namespace fs = std::filesystem;
using namespace ts::app;
using namespace std::chrono_literals;

namespace {

fs::path tempDir(const char* name)
{
    const fs::path dir = fs::temp_directory_path() / (std::string("tilescope-kernel-watch-") + name);
    fs::remove_all(dir);
    fs::create_directories(dir);
    return dir;
}

void write(const fs::path& p, const std::string& text) { std::ofstream(p, std::ios::trunc) << text; }

TEST(KernelWatch, EachSaveIsReportedOnce)
{
    const fs::path dir = tempDir("saves");
    const fs::path file = dir / "my.cu";
    write(file, "__global__ void k() {}\n");
    FileWatch w;
    w.watch(file.string(), 0ms);
    EXPECT_FALSE(w.changed()) << "nothing saved yet";
    // A save of another length: reported once, then not again.
    write(file, "__global__ void k() { __syncthreads(); }\n");
    EXPECT_TRUE(w.changed());
    EXPECT_FALSE(w.changed());
    // A save of the same length with a later modification time.
    write(file, "__global__ void k() { __syncthreadz(); }\n");
    fs::last_write_time(file, fs::last_write_time(file) + 2s);
    EXPECT_TRUE(w.changed());
    EXPECT_FALSE(w.changed());
    // Gone for a moment (an editor renaming a new file over it): nothing while it is away,
    // one change once it is back with other text.
    fs::remove(file);
    EXPECT_FALSE(w.changed());
    write(file, "__global__ void k() {}\n");
    EXPECT_TRUE(w.changed());
    fs::remove_all(dir);
}

TEST(KernelWatch, PollsAtMostOncePerInterval)
{
    const fs::path dir = tempDir("interval");
    const fs::path file = dir / "my.cu";
    write(file, "a\n");
    FileWatch w;
    w.watch(file.string(), 3600s);
    write(file, "ab\n");
    EXPECT_FALSE(w.changed()) << "read before its interval";
    w.pollNow();
    EXPECT_TRUE(w.changed());
    fs::remove_all(dir);
}

TEST(KernelWatch, LastKernelFileRoundTripsInSettings)
{
    const fs::path dir = tempDir("settings");
    const std::string path = (dir / "settings.toml").string();
    Settings s;
    s.kernelFile = "/home/student/pmpp/tiled matmul.cu";
    ASSERT_EQ(saveSettings(s, path), "");
    std::string error;
    EXPECT_EQ(loadSettings(path, error).kernelFile, s.kernelFile);
    EXPECT_EQ(error, "");
    write(path, "kernel_file = \"a\\nb.cu\"\ntheme = \"light\"\n");
    const Settings bad = loadSettings(path, error);
    EXPECT_EQ(bad.kernelFile, "");
    EXPECT_EQ(bad.theme, ThemeKind::Light) << "the other settings still apply";
    EXPECT_NE(error.find("kernel_file must be the path of a CUDA file on one line"), std::string::npos) << error;
    fs::remove_all(dir);
}

TEST(KernelWatch, ErrorsAreNamedByTheFileName)
{
    const std::vector<std::string> e = errorsByName(
        {"/home/s/pmpp/my.cu:12:13: error: use of undeclared identifier 'Pvalu'", "/other/x.cu:1:1: error: y"},
        "/home/s/pmpp/my.cu");
    ASSERT_EQ(e.size(), 2u);
    EXPECT_EQ(e[0], "my.cu:12:13: error: use of undeclared identifier 'Pvalu'");
    EXPECT_EQ(e[1], "/other/x.cu:1:1: error: y") << "another file's line keeps its path";
}

}  // namespace
