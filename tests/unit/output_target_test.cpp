// Where an output file goes (sim/files/output_target.hpp): a rename over the null device
// once made it a file for the whole machine, so a device is written into, a folder refused.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "sim/files/output_target.hpp"

namespace {

namespace fs = std::filesystem;
using ts::sim::OutputTarget;

TEST(OutputTarget, DevicesAreWrittenIntoFoldersRefusedFilesReplaced)
{
    std::string why;
    EXPECT_EQ(ts::sim::outputTarget("/dev/null", why), OutputTarget::Direct);
    const fs::path dir = fs::temp_directory_path() / "tilescope-output-target-test";
    fs::create_directories(dir);
    EXPECT_EQ(ts::sim::outputTarget((dir / "new.png").string(), why), OutputTarget::Replace);
    std::ofstream(dir / "old.png") << "x";
    EXPECT_EQ(ts::sim::outputTarget((dir / "old.png").string(), why), OutputTarget::Replace);
    fs::create_symlink("/dev/null", dir / "link.png");
    EXPECT_EQ(ts::sim::outputTarget((dir / "link.png").string(), why), OutputTarget::Direct);
    why.clear();
    EXPECT_EQ(ts::sim::outputTarget(dir.string(), why), OutputTarget::Refused);
    EXPECT_EQ(why, "'" + dir.string() + "' is a folder; give the name of a file to write.");
    fs::remove_all(dir);
}

}  // namespace
