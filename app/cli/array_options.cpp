#include "array_options.hpp"

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
    s.width = o.width.value_or(spec->defaults.back());
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
    if (const std::shared_ptr<const sim::ArraySpec> spec = sim::arraySpecOf(s.kernel))
        for (const auto& [name, value] : spec->sizeValues(s)) j[name] = value;
    return j;
}

}  // namespace ts::cli
