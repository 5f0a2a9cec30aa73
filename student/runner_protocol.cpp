// What TileScope and tilescope-runner say to each other (student/runner_protocol.hpp).
#include "student/runner_protocol.hpp"

#include <nlohmann/json.hpp>

namespace ts::student {

using nlohmann::json;

json scenarioToJson(const sim::Scenario& s)
{
    return json{{"kernel", s.kernel},   {"j", s.j},         {"k", s.k},       {"l", s.l},
                {"height", s.height},   {"width", s.width}, {"mask_width", s.maskWidth},
                {"tile", s.tile},       {"seed", s.seed},   {"drop_barriers", s.dropBarriers},
                {"block", {s.block.x, s.block.y, s.block.z}},
                {"text", s.text.text},  {"text_skew", s.text.skew}};
}

sim::Scenario scenarioFromJson(const json& j)
{
    sim::Scenario s;
    s.kernel = j.at("kernel").get<std::string>();
    s.j = j.at("j").get<int>();
    s.k = j.at("k").get<int>();
    s.l = j.at("l").get<int>();
    s.height = j.at("height").get<int>();
    s.width = j.at("width").get<int>();
    s.maskWidth = j.at("mask_width").get<int>();
    s.tile = j.at("tile").get<int>();
    s.seed = j.at("seed").get<uint64_t>();
    s.dropBarriers = j.at("drop_barriers").get<unsigned>();
    const json& b = j.at("block");
    s.block = sim::Uint3{b.at(0).get<unsigned>(), b.at(1).get<unsigned>(), b.at(2).get<unsigned>()};
    s.text.text = j.value("text", std::string());
    s.text.skew = j.value("text_skew", -1);
    return s;
}

json optionsToJson(const sim::SimOptions& o)
{
    return json{{"trace", o.trace},
                {"schedule", static_cast<int>(o.schedule)},
                {"schedule_seed", o.scheduleSeed},
                {"detect_hazards", o.detectHazards},
                {"memory_model", o.memoryModel},
                {"threads", o.threads}};
}

sim::SimOptions optionsFromJson(const json& j)
{
    sim::SimOptions o;
    o.trace = j.at("trace").get<bool>();
    const int schedule = j.at("schedule").get<int>();
    if (schedule < 0 || schedule > static_cast<int>(sim::Schedule::Random)) throw std::runtime_error("unknown schedule");
    o.schedule = static_cast<sim::Schedule>(schedule);
    o.scheduleSeed = j.at("schedule_seed").get<uint64_t>();
    o.detectHazards = j.at("detect_hazards").get<bool>();
    o.memoryModel = j.at("memory_model").get<bool>();
    o.threads = j.at("threads").get<unsigned>();
    return o;
}

std::string frame(char type, const std::string& payload)
{
    std::string f(1, type);
    const uint64_t n = payload.size();
    const int bytes = type == 'R' ? 8 : 4;
    for (int i = 0; i < bytes; ++i) f += static_cast<char>((n >> (8 * i)) & 0xFF);
    return f + payload;
}

}  // namespace ts::student
