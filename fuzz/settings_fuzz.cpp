// libFuzzer harness: the app's settings file (settings.toml, app/gui/settings_text.hpp) on
// arbitrary bytes, without a window or an ImGui context. The parser must never throw; what
// it accepts must lie in the documented ranges; an error is one sentence naming the file.
// Run: scripts/fuzz.sh settings_fuzz (docs/design.md, "Fuzzing and sanitizers").
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "fuzz_check.hpp"
#include "options.hpp"
#include "settings_text.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    using namespace ts::app;
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    const std::string file = "fuzz/settings.toml";
    std::string error;
    const SettingsValues v = parseSettingsText(text, file, error);   // must not throw
    if (!error.empty()) ts::fuzz::expectOneSentence(error, file);
    if (v.uiScale)
        ts::fuzz::expect(std::isfinite(*v.uiScale) && *v.uiScale >= limits::kMinUiScale && *v.uiScale <= limits::kMaxUiScale,
                         "ui_scale accepted out of range", std::to_string(*v.uiScale));
    if (v.presentationScale)
        ts::fuzz::expect(std::isfinite(*v.presentationScale) && *v.presentationScale >= limits::kMinPresentationScale &&
                             *v.presentationScale <= limits::kMaxUiScale,
                         "presentation_scale accepted out of range", std::to_string(*v.presentationScale));
    return 0;
}
