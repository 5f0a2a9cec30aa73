#include "view_link.hpp"

#include <algorithm>
#include <filesystem>
#include <limits>

#include "sim/catalogue/problem_desc.hpp"
#include "kernels/context.cuh"
#include "state.hpp"

namespace ts::app {
namespace {

/// The keys in the canonical order (the problem, then the view).
const std::vector<std::string> kKeys = {"preset", "kernel",   "width", "j",     "k",      "l",
                                        "height", "mask-width", "tile", "seed", "drop-barrier",
                                        "schedule", "schedule-seed", "step", "block", "thread",
                                        "panels", "presentation", "theme", "heatmap"};

/// "a, b and c".
std::string listWords(const std::vector<std::string>& names)
{
    std::string s;
    for (size_t i = 0; i < names.size(); ++i) s += (i == 0 ? "" : i + 1 == names.size() ? " and " : ", ") + names[i];
    return s;
}

[[noreturn]] void fail(const std::string& sentence) { throw ViewLinkError("View link: " + sentence); }

/// %XX escapes decoded (a browser may write a comma as %2C).
std::string decoded(std::string_view s, std::string_view what)
{
    std::string out;
    for (size_t i = 0; i < s.size(); ++i) {
        if (s[i] != '%') {
            out += s[i];
            continue;
        }
        auto hex = [](char c) {
            return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
        };
        if (i + 2 >= s.size() || hex(s[i + 1]) < 0 || hex(s[i + 2]) < 0)
            fail("'" + std::string(what) + "' has a '%' that is not followed by two hexadecimal digits.");
        out += static_cast<char>(hex(s[i + 1]) * 16 + hex(s[i + 2]));
        i += 2;
    }
    return out;
}

/// A whole number `lo`..`hi` written in decimal digits (no sign), for `key`.
uint64_t number(const std::string& key, const std::string& v, uint64_t lo, uint64_t hi)
{
    const bool digits = !v.empty() && std::all_of(v.begin(), v.end(), [](char c) { return c >= '0' && c <= '9'; });
    uint64_t n = 0;
    bool big = false;
    for (char c : v) {
        if (!digits) break;
        if (n > (std::numeric_limits<uint64_t>::max() - static_cast<uint64_t>(c - '0')) / 10) big = true;
        else n = n * 10 + static_cast<uint64_t>(c - '0');
    }
    if (!digits) fail(key + " must be a whole number; got '" + v + "'.");
    if (big || n < lo || n > hi)
        fail(key + " must be between " + std::to_string(lo) + " and " + std::to_string(hi) + "; got " + v + ".");
    return n;
}

int intNumber(const std::string& key, const std::string& v, int lo)
{
    return static_cast<int>(number(key, v, static_cast<uint64_t>(lo), static_cast<uint64_t>(std::numeric_limits<int>::max())));
}

/// The parts of a comma-separated value.
std::vector<std::string> commaParts(const std::string& v)
{
    std::vector<std::string> parts;
    size_t from = 0;
    while (true) {
        const size_t comma = v.find(',', from);
        parts.push_back(v.substr(from, comma == std::string::npos ? std::string::npos : comma - from));
        if (comma == std::string::npos) return parts;
        from = comma + 1;
    }
}

/// "BX,BY" or "TX,TY".
sim::Uint3 pair(const std::string& key, const std::string& v, const char* shape)
{
    const std::vector<std::string> parts = commaParts(v);
    if (parts.size() != 2) fail(key + " must be " + shape + ", two whole numbers; got '" + v + "'.");
    const auto max = static_cast<uint64_t>(std::numeric_limits<int>::max());
    return sim::Uint3{static_cast<unsigned>(number(key + "'s first number", parts[0], 0, max)),
                      static_cast<unsigned>(number(key + "'s second number", parts[1], 0, max)), 0};
}

/// `v` when it is one of `allowed`.
std::string oneOf(const std::string& key, const std::string& v, const std::vector<std::string>& allowed)
{
    if (std::find(allowed.begin(), allowed.end(), v) == allowed.end()) {
        std::vector<std::string> quoted;
        for (const std::string& a : allowed) quoted.push_back(key + "=" + a);
        fail(key + " must be " + listWords(quoted) + "; got '" + v + "'.");
    }
    return v;
}

}  // namespace

bool ViewLink::namesScenario() const { return !preset.empty() || !kernel.empty(); }

const std::vector<std::string>& viewLinkKeys() { return kKeys; }

ViewLink parseViewLink(std::string_view text, const sim::PanelNames& panels)
{
    // A whole address: what follows its '#'.
    if (const size_t hash = text.find('#'); hash != std::string_view::npos) text = text.substr(hash + 1);
    ViewLink v;
    if (text.empty()) return v;
    std::vector<std::string> seen;
    size_t from = 0;
    while (from <= text.size()) {
        const size_t amp = text.find('&', from);
        const std::string_view part = text.substr(from, amp == std::string_view::npos ? std::string_view::npos : amp - from);
        from = amp == std::string_view::npos ? text.size() + 1 : amp + 1;
        if (part.empty()) fail("it has an empty part (two '&' in a row, or one at an end); remove it.");
        const size_t eq = part.find('=');
        const std::string key = decoded(part.substr(0, eq), part);
        if (std::find(kKeys.begin(), kKeys.end(), key) == kKeys.end()) {
            std::string hint;
            std::string dashed = key;
            std::replace(dashed.begin(), dashed.end(), '_', '-');
            if (dashed != key && std::find(kKeys.begin(), kKeys.end(), dashed) != kKeys.end())
                hint = " (did you mean " + dashed + "? A link writes the command line's dashes)";
            else if (key == "scenario")
                hint = " (a lecture preset is preset=NAME)";
            fail("unknown key '" + key + "'" + hint + "; the keys are " + listWords(kKeys) + ".");
        }
        if (eq == std::string_view::npos) fail(key + " has no value; write " + key + "=VALUE.");
        if (std::find(seen.begin(), seen.end(), key) != seen.end()) fail(key + " is given twice.");
        seen.push_back(key);
        const std::string val = decoded(part.substr(eq + 1), part);
        if (val.empty()) fail(key + " has an empty value; write " + key + "=VALUE or leave the key out.");
        const uint64_t u64 = std::numeric_limits<uint64_t>::max();
        if (key == "preset") {
            if (val.find('/') != std::string::npos || std::filesystem::path(val).extension() == ".toml" ||
                val.find('\\') != std::string::npos)
                fail("preset takes a lecture preset's name (tilescope --list-scenarios), not a file; got '" + val + "'.");
            v.preset = val;
        } else if (key == "kernel") v.kernel = val;
        else if (key == "width") v.width = intNumber(key, val, 1);
        else if (key == "j") v.j = intNumber(key, val, 1);
        else if (key == "k") v.k = intNumber(key, val, 1);
        else if (key == "l") v.l = intNumber(key, val, 1);
        else if (key == "height") v.height = intNumber(key, val, 1);
        else if (key == "mask-width") v.maskWidth = intNumber(key, val, 1);
        else if (key == "tile") v.tile = intNumber(key, val, 1);
        else if (key == "seed") v.seed = number(key, val, 0, u64);
        else if (key == "launch") v.launch = intNumber(key, val, 1);
        else if (key == "drop-barrier") {
            unsigned bits = 0;
            for (const std::string& b : commaParts(val)) {
                const unsigned bit = sim::barrierBitNamed(oneOf(key, b, {"after-load", "after-compute", "fence"}));
                if (bits & bit) fail("drop-barrier names " + b + " twice.");
                bits |= bit;
            }
            v.dropBarriers = bits;
        } else if (key == "schedule") {
            const std::string s = oneOf(key, val, {"in-order", "reverse", "random"});
            v.schedule = s == "reverse" ? sim::Schedule::Reverse : s == "random" ? sim::Schedule::Random : sim::Schedule::InOrder;
        } else if (key == "schedule-seed") v.scheduleSeed = number(key, val, 0, u64);
        else if (key == "step") v.step = val == "last" ? -1 : intNumber("step (a step number or 'last')", val, 0);
        else if (key == "block") v.block = pair(key, val, "BX,BY");
        else if (key == "thread") v.thread = pair(key, val, "TX,TY");
        else if (key == "panels") {
            std::vector<std::string> names = commaParts(val);
            for (const std::string& n : names) {
                if (n.empty()) fail("panels has an empty name (two commas in a row, or one at an end).");
                if (std::count(names.begin(), names.end(), n) > 1) fail("panels names " + n + " twice.");
                if (!panels.empty() && std::find(panels.begin(), panels.end(), n) == panels.end())
                    fail("panels names '" + n + "', which is not a panel; the panels are " + listWords(panels) + ".");
            }
            // The app's order, so that one set of panels has one spelling.
            if (!panels.empty())
                std::sort(names.begin(), names.end(), [&](const std::string& a, const std::string& b) {
                    return std::find(panels.begin(), panels.end(), a) < std::find(panels.begin(), panels.end(), b);
                });
            v.panels = std::move(names);
        } else if (key == "presentation") v.presentation = oneOf(key, val, {"on", "off"}) == "on";
        else if (key == "theme") v.theme = oneOf(key, val, {"dark", "light"});
        else if (key == "heatmap") v.heatmap = oneOf(key, val, {"loads", "values"});
    }
    // The problem: a preset, or a kernel with its sizes, never a mix.
    const bool sizes = v.width || v.j || v.k || v.l || v.height || v.maskWidth || v.tile || v.seed || v.dropBarriers ||
                       v.schedule || v.scheduleSeed || v.launch;
    if (!v.preset.empty() && !v.kernel.empty())
        fail("give either preset=NAME or kernel=NAME with its sizes, not both.");
    if (!v.preset.empty() && sizes)
        fail("preset=" + v.preset + " names the whole problem; leave out its sizes, or spell the problem out with kernel=NAME instead.");
    if (v.kernel.empty() && v.preset.empty() && sizes)
        fail("sizes need a kernel: add kernel=NAME (tilescope-cli list-kernels), or name a preset with preset=NAME.");
    if (v.width && (v.j || v.k || v.l)) fail("give either width or j, k and l, not both.");
    if (!v.kernel.empty() && !v.width && !(v.j && v.k && v.l))
        fail("kernel=" + v.kernel + " needs its size: add width=W, or all three of j, k and l.");
    if (!v.kernel.empty() && !v.tile)
        fail("kernel=" + v.kernel + " needs tile=T (TILE_WIDTH of a tiled kernel, the block edge of an untiled one).");
    if (v.scheduleSeed && v.schedule != sim::Schedule::Random) fail("schedule-seed applies to schedule=random only.");
    return v;
}

std::string formatViewLink(const ViewLink& v)
{
    std::string s;
    auto put = [&](const std::string& key, const std::string& value) { s += (s.empty() ? "" : "&") + key + "=" + value; };
    auto num = [&](const std::string& key, const auto& n) {
        if (n) put(key, std::to_string(*n));
    };
    if (!v.preset.empty()) put("preset", v.preset);
    if (!v.kernel.empty()) put("kernel", v.kernel);
    num("width", v.width);
    num("j", v.j);
    num("k", v.k);
    num("l", v.l);
    num("height", v.height);
    num("mask-width", v.maskWidth);
    num("tile", v.tile);
    num("seed", v.seed);
    num("launch", v.launch);
    if (v.dropBarriers && *v.dropBarriers) {
        std::string b;
        for (const std::string& n : sim::barrierNamesOf(*v.dropBarriers)) b += (b.empty() ? "" : ",") + n;
        put("drop-barrier", b);
    }
    if (v.schedule) put("schedule", sim::scheduleName(*v.schedule));
    num("schedule-seed", v.scheduleSeed);
    if (v.step) put("step", *v.step < 0 ? "last" : std::to_string(*v.step));
    if (v.block) put("block", std::to_string(v.block->x) + "," + std::to_string(v.block->y));
    if (v.thread) put("thread", std::to_string(v.thread->x) + "," + std::to_string(v.thread->y));
    if (v.panels) {
        std::string names;
        for (const std::string& n : *v.panels) names += (names.empty() ? "" : ",") + n;
        put("panels", names);
    }
    if (v.presentation.value_or(false)) put("presentation", "on");
    if (v.theme) put("theme", *v.theme);
    if (v.heatmap) put("heatmap", *v.heatmap);
    return s;
}

std::optional<sim::Preset> linkedPreset(const ViewLink& v, const sim::PanelNames& panels)
{
    if (!v.preset.empty()) {
        namespace fs = std::filesystem;
        const fs::path dir = sim::presetDirectory();
        if (std::error_code ec; !fs::is_regular_file(dir / (v.preset + ".toml"), ec)) {
            std::vector<std::string> names;
            for (const fs::directory_entry& e : fs::directory_iterator(dir, ec))
                if (e.path().extension() == ".toml") names.push_back(e.path().stem().string());
            std::sort(names.begin(), names.end());
            fail("there is no preset named '" + v.preset + "'; the presets are " +
                 (names.empty() ? "none (no folder " + dir.string() + ")" : listWords(names)) + ".");
        }
        sim::Preset p = sim::findPreset(v.preset, panels);
        if (std::string e = sim::validate(p.scenario); !e.empty()) fail("preset " + v.preset + ": " + e);
        return p;
    }
    if (v.kernel.empty()) return std::nullopt;
    sim::Preset p;
    p.name = "custom";
    sim::Scenario& s = p.scenario;
    s.kernel = v.kernel;
    if (!sim::findKernel(s.kernel)) fail(sim::validate(s));   // "Unknown kernel 'x'; known kernels are ..."
    // The sizes are the kernel's own (KernelInfo::params): a convolution's width is N's, a
    // product's width its square size.
    const sim::KernelInfo& k = *sim::findKernel(s.kernel);
    const bool conv = sim::paramLimit(k, sim::ParamId::Width) != nullptr;
    if ((v.height && !sim::paramLimit(k, sim::ParamId::Height)) || (v.maskWidth && !sim::paramLimit(k, sim::ParamId::MaskWidth)))
        fail("height and mask-width apply to the convolution kernels only.");
    if (v.width) {
        if (conv) s.width = *v.width;
        else s.j = s.k = s.l = *v.width;
    } else {
        if (conv) fail("a convolution's size is width=W (and height=H in 2D), not j, k and l.");
        s.j = *v.j;
        s.k = *v.k;
        s.l = *v.l;
    }
    if (v.height) s.height = *v.height;
    if (v.maskWidth) s.maskWidth = *v.maskWidth;
    s.tile = *v.tile;
    s.seed = v.seed.value_or(1);
    s.dropBarriers = v.dropBarriers.value_or(0);
    s.launch = v.launch.value_or(1);
    p.schedule = v.schedule.value_or(sim::Schedule::InOrder);
    p.scheduleSeed = v.scheduleSeed.value_or(1);
    if (std::string e = sim::validate(s); !e.empty()) fail(e);
    return p;
}

bool applyViewToPreset(const ViewLink& v, sim::Preset& p)
{
    const sim::Uint3 before = p.scenario.block;
    if (v.block) {
        p.scenario.block = *v.block;
        if (std::string e = sim::validate(p.scenario); !e.empty()) fail("block=" + std::to_string(v.block->x) + "," +
                                                                        std::to_string(v.block->y) + ": " + e);
    }
    if (v.thread) {
        const sim::Dim3 bd = sim::launchShape(p.scenario).block;
        if (v.thread->x >= bd.x || v.thread->y >= bd.y)
            fail("thread=" + std::to_string(v.thread->x) + "," + std::to_string(v.thread->y) + " is outside the block of " +
                 std::to_string(bd.x) + " x " + std::to_string(bd.y) + " threads.");
        p.thread = *v.thread;
    }
    if (v.panels) {
        p.panels = *v.panels;
        std::erase_if(p.lesson, [&](const std::string& name) {
            return std::find(p.panels.begin(), p.panels.end(), name) == p.panels.end();
        });
    }
    if (v.step) p.step = *v.step;
    return before.x != p.scenario.block.x || before.y != p.scenario.block.y;
}

const sim::Preset* lecturePresetOf(const sim::Scenario& s, sim::Schedule schedule, uint64_t scheduleSeed,
                                   const std::string& preferred, const std::vector<sim::Preset>& presets)
{
    const sim::Preset *first = nullptr, *sameBlock = nullptr;
    for (const sim::Preset& p : presets) {
        if (!sameProblem(p.scenario, s) || p.schedule != schedule ||
            (schedule == sim::Schedule::Random && p.scheduleSeed != scheduleSeed))
            continue;
        if (p.name == preferred) return &p;
        if (!first) first = &p;
        if (!sameBlock && p.scenario.block.x == s.block.x && p.scenario.block.y == s.block.y && p.scenario.block.z == s.block.z) sameBlock = &p;
    }
    return sameBlock ? sameBlock : first;
}

ViewLink viewLinkOf(const ShownView& v, const sim::Preset* lecture)
{
    ViewLink l;
    const sim::Scenario& s = v.scenario;
    sim::Uint3 block{0, 0, 0}, thread{0, 0, 0};
    if (lecture) {
        l.preset = lecture->name;
        block = lecture->scenario.block;
        if (lecture->thread) thread = *lecture->thread;
    } else {
        l.kernel = s.kernel;
        const sim::KernelInfo* k = s.kernelInfo();
        const sim::ParamLimit* height = k ? sim::paramLimit(*k, sim::ParamId::Height) : nullptr;
        if (k && sim::paramLimit(*k, sim::ParamId::Width)) {
            l.width = s.width;
            if (height && height->max > 1) l.height = s.height;
            if (sim::paramLimit(*k, sim::ParamId::MaskWidth)) l.maskWidth = s.maskWidth;
        } else if (s.j == s.k && s.k == s.l) {
            l.width = s.j;
        } else {
            l.j = s.j;
            l.k = s.k;
            l.l = s.l;
        }
        l.tile = s.tile;
        if (s.seed != 1) l.seed = s.seed;
        if (s.dropBarriers) l.dropBarriers = s.dropBarriers;
        if (s.launch != 1) l.launch = s.launch;
        if (v.schedule != sim::Schedule::InOrder) l.schedule = v.schedule;
        if (v.schedule == sim::Schedule::Random) l.scheduleSeed = v.scheduleSeed;
    }
    if (v.step >= 0) l.step = v.step;
    if (s.block.x != block.x || s.block.y != block.y) l.block = sim::Uint3{s.block.x, s.block.y, 0};
    if (v.thread.x != thread.x || v.thread.y != thread.y) l.thread = sim::Uint3{v.thread.x, v.thread.y, 0};
    l.panels = v.panels;
    if (v.presentation) l.presentation = true;
    if (v.light) l.theme = "light";
    if (!v.heatmap.empty()) l.heatmap = v.heatmap;
    return l;
}

}  // namespace ts::app
