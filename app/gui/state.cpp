#include "state.hpp"

namespace ts::app {

std::string describe(const sim::Scenario& s)
{
    const sim::KernelInfo* k = sim::findKernel(s.kernel);
    std::string t = s.kernel + ", M " + std::to_string(s.j) + "x" + std::to_string(s.k) + " times N " +
                    std::to_string(s.k) + "x" + std::to_string(s.l) + ", ";
    t += (k && k->tiled ? "TILE_WIDTH " : "block edge ") + std::to_string(s.tile);
    return t;
}

sim::Preset presetFor(const Loaded& loaded, const sim::Scenario& s)
{
    const sim::Scenario& cur = loaded.preset.scenario;
    if (cur.kernel == s.kernel && cur.j == s.j && cur.k == s.k && cur.l == s.l && cur.tile == s.tile &&
        cur.seed == s.seed && cur.block.x == s.block.x && cur.block.y == s.block.y)
        return loaded.preset;
    sim::Preset p;
    p.name = "custom";
    p.title = describe(s);
    p.scenario = s;
    return p;
}

}  // namespace ts::app
