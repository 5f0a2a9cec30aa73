#include "state.hpp"

#include <cmath>

#include "kernels/context.cuh"

namespace ts::app {

float presentationScaleFor(float setting, float height)
{
    if (height <= 0) height = kPresentationScreenHeight;
    return std::round(setting * height / kPresentationScreenHeight * 100.0f) / 100.0f;
}

std::string describe(const sim::Scenario& s)
{
    const sim::KernelInfo* k = s.kernelInfo();
    std::string t = s.kernel + ", M " + std::to_string(s.j) + "x" + std::to_string(s.k) + " times N " +
                    std::to_string(s.k) + "x" + std::to_string(s.l) + ", ";
    t += (k && k->tiled ? "TILE_WIDTH " : "block edge ") + std::to_string(s.tile);
    if (s.dropBarriers & kernels::AFTER_LOAD) t += ", after-load barrier dropped";
    if (s.dropBarriers & kernels::AFTER_COMPUTE) t += ", after-compute barrier dropped";
    if (s.dropBarriers & kernels::FENCE) t += ", __threadfence() dropped";
    if (const int n = sim::launchCount(s); n > 1) t += ", launch " + std::to_string(s.launch) + " of " + std::to_string(n);
    return t;
}

bool sameProblem(const sim::Scenario& a, const sim::Scenario& b)
{
    return a.kernel == b.kernel && a.j == b.j && a.k == b.k && a.l == b.l && a.height == b.height &&
           a.width == b.width && a.maskWidth == b.maskWidth && a.tile == b.tile && a.seed == b.seed &&
           a.dropBarriers == b.dropBarriers && a.launch == b.launch;
}

sim::Preset presetFor(const Loaded& loaded, const sim::Scenario& s, sim::Schedule schedule, uint64_t scheduleSeed)
{
    const sim::Preset& lp = loaded.preset;
    const sim::Scenario& cur = lp.scenario;
    const bool sameRun = lp.schedule == schedule && (schedule != sim::Schedule::Random || lp.scheduleSeed == scheduleSeed);
    if (sameProblem(cur, s) && cur.block.x == s.block.x && cur.block.y == s.block.y && cur.block.z == s.block.z && sameRun)
        return lp;
    sim::Preset p;
    p.name = "custom";
    p.title = describe(s);
    if (schedule != sim::Schedule::InOrder) p.title += std::string(", schedule ") + sim::scheduleName(schedule);
    p.scenario = s;
    p.schedule = schedule;
    p.scheduleSeed = scheduleSeed;
    return p;
}

sim::Preset presetFor(const Loaded& loaded, const sim::Scenario& s)
{
    return presetFor(loaded, s, loaded.preset.schedule, loaded.preset.scheduleSeed);
}

const sim::Hazard* focusedHazard(const Loaded& loaded, const View& view)
{
    if (!loaded.sim || view.hazard.generation != loaded.generation || view.hazard.index < 0 ||
        view.hazard.index >= static_cast<int>(loaded.sim->hazards.traced.size()))
        return nullptr;
    return &loaded.sim->hazards.traced[view.hazard.index];
}

const std::string& sourceShown(const Loaded& loaded, const sim::KernelInfo& info)
{
    return loaded.kernelText ? *loaded.kernelText : sim::kernelSource(info.sourceFile);
}

}  // namespace ts::app
