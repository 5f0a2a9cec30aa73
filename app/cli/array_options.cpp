#include "array_options.hpp"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>

#include "sim/catalogue/loaded_kernels.hpp"

namespace ts::cli {

std::string toArrayScenario(const ProblemOptions& o, const std::string& kernel, sim::Scenario& s)
{
    s.kernel = kernel;
    const std::shared_ptr<const sim::ArraySpec> spec = sim::arraySpecOf(kernel);
    if (!spec || spec->sizes.empty()) return kernel + " is not an array problem.";
    const bool twoD = spec->sizes.size() == 2;
    if (o.j || o.k || o.l || o.maskWidth)
        return kernel + " is an array problem: its sizes are " + (twoD ? spec->sizes[0] + " (--height) and " + spec->sizes[1] + " (--width)" : spec->sizes[0] + " (--width)") +
               ", not --j, --k, --l or --mask-width.";
    if (!twoD && o.height) return kernel + " has one size, " + spec->sizes[0] + " (--width), and takes no --height.";
    bool text = false;
    for (const sim::ArrayDecl* a : spec->inputs()) text = text || a->type == sim::ElementType::Char;
    if (!text && (!o.textFile.empty() || o.textSkew))
        return "--text-file and --text-skew apply to kernels with a char input (the histograms); " + kernel + " has none.";
    if (!o.textFile.empty() && o.textSkew) return "Give --text-file or --text-skew, not both.";
    if (o.textSkew && (*o.textSkew < 0 || *o.textSkew > 100))
        return "--text-skew is the percent of the letters that are 'e', from 0 to 100; got " + std::to_string(*o.textSkew) + ".";
    if (o.textSkew) s.text.skew = *o.textSkew;
    if (!o.textFile.empty()) {
        std::error_code ec;
        const auto bytes = std::filesystem::file_size(o.textFile, ec);
        if (ec) return "Cannot read the text file " + o.textFile + ": " + ec.message() + ".";
        if (bytes > sim::kMaxTextBytes)
            return "The text file " + o.textFile + " has " + std::to_string(bytes) + " bytes, more than the " +
                   std::to_string(sim::kMaxTextBytes) + " (1 MiB) a text input may have.";
        std::ifstream in(o.textFile, std::ios::binary);
        std::string content((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
        if (!in && !in.eof()) return "Cannot read the text file " + o.textFile + ".";
        if (std::string e = sim::checkText(content, "The text file " + o.textFile); !e.empty()) return e;
        s.text.text = std::move(content);
    }
    s.width = o.width.value_or(!s.text.text.empty() ? static_cast<int>(s.text.text.size()) : spec->defaults.back());
    s.height = twoD ? o.height.value_or(spec->defaults.front()) : 1;
    // The tile plays no part in an array problem's launch (the file states it): the file's
    // TILE_WIDTH when it has one, else the default.
    s.tile = tileOrDefault(o, kernel);
    s.seed = o.seed;
    return {};
}

nlohmann::ordered_json arrayParamsJson(const sim::Scenario& s)
{
    nlohmann::ordered_json j = nlohmann::ordered_json::object();
    if (const std::shared_ptr<const sim::ArraySpec> spec = sim::arraySpecOf(s.kernel)) {
        // The sizes only: BLOCK_DIM, which a registry row's extents may use, is --tile.
        for (const auto& [name, value] : spec->sizeValues(s))
            if (std::find(spec->sizes.begin(), spec->sizes.end(), name) != spec->sizes.end()) j[name] = value;
    }
    return j;
}

}  // namespace ts::cli
