// libFuzzer harness: the scenario-file parser (sim::parseScenarioText, what
// loadScenarioFile, `tilescope --scenario` and File > Open use) on arbitrary bytes. Every
// input must either parse or throw sim::ScenarioFileError with one sentence naming the file;
// any other exception, a crash, a hang (-timeout) or a sanitizer report is a finding.
// Run: scripts/fuzz.sh scenario_file_fuzz (docs/design.md, "Fuzzing and sanitizers").
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "fuzz_check.hpp"
#include "panel_names.hpp"
#include "sim/files/scenario_file.hpp"

namespace {

/// The app's panel names (panel_names.hpp, checked against the panel table), so that the
/// `panels` check runs as in the app.
const ts::sim::PanelNames& kPanels = ts::fuzz::kAppPanelNames;

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    const std::string file = "fuzz/input.toml";
    // Odd sizes also go without the panel list (as the CLI reads scenario files).
    const ts::sim::PanelNames none;
    try {
        const ts::sim::Preset p = ts::sim::parseScenarioText(text, file, size % 2 ? none : kPanels);
        ts::fuzz::expect(p.name == "input", "the preset's name is not the file's stem", p.name);
        ts::fuzz::expect(p.step >= -1, "a step below -1 was accepted", std::to_string(p.step));
    } catch (const ts::sim::ScenarioFileError& e) {
        ts::fuzz::expectOneSentence(e.what(), file);
    }
    return 0;
}
