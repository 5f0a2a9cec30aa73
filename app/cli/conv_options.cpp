#include "conv_options.hpp"

#include <sstream>

namespace ts::cli {

void addConvOptions(CLI::App* c, ProblemOptions& o)
{
    c->add_option("--height", o.height, "Convolution 2D: rows of N and P");
    c->add_option("--mask-width", o.maskWidth,
                  "Convolution: Mask_Width, odd, 1 to 9 (elements per side of the mask M); default 5");
}

std::string toConvScenario(const ProblemOptions& o, const std::string& kernel, sim::Scenario& s)
{
    s.kernel = kernel;
    const bool twoD = sim::familyOf(s) == sim::Family::Conv2D;
    if (o.j || o.k || o.l)
        return kernel + " takes --width" + (twoD ? " and --height" : "") +
               " (the size of N), not --j, --k or --l.";
    if (!o.width) return "Give the size of N: --width W" + std::string(twoD ? " and --height H." : ".");
    if (twoD && !o.height) return "Give the height of N: --height H (" + kernel + " is a 2D convolution).";
    if (!twoD && o.height)
        return kernel + " is a 1D convolution and takes no --height; use conv2d-basic or conv2d-tiled for 2D.";
    s.width = *o.width;
    s.height = twoD ? *o.height : 1;
    s.maskWidth = o.maskWidth.value_or(5);
    s.tile = tileOrDefault(o, kernel);
    s.seed = o.seed;
    return {};
}

nlohmann::ordered_json convParamsJson(const sim::Scenario& s)
{
    if (sim::familyOf(s) == sim::Family::Conv2D)
        return {{"height", s.height}, {"width", s.width}, {"mask_width", s.maskWidth}, {"tile", s.tile}};
    return {{"width", s.width}, {"mask_width", s.maskWidth}, {"tile", s.tile}};
}

std::string convProblemLine(const sim::Scenario& s)
{
    const sim::KernelInfo* k = s.kernelInfo();
    std::ostringstream o;
    o << s.kernel << "  N ";
    if (sim::familyOf(s) == sim::Family::Conv2D) o << s.height << "x" << s.width << ", mask " << s.maskWidth << "x";
    else o << s.width << " elements, Mask_Width ";
    o << s.maskWidth << ", " << (k && k->tiled ? "TILE_SIZE " : "block of ") << s.tile
      << (k && k->tiled ? "" : sim::familyOf(s) == sim::Family::Conv2D ? "x" + std::to_string(s.tile) : " threads");
    return o.str();
}

}  // namespace ts::cli
