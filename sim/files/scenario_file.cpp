// Scenario files: TOML with the keys below, checked key by key so that every error names
// the file and the line it is on.
//
//   title = "Tiled 4x4, TILE_WIDTH 2"      # optional; default: the file name
//   chapter = "5.4"                        # optional; the PMPP section (4th ed.), "C" or "C.S"
//   order = 2                              # optional; place among the presets of that section
//   summary = "One sentence."              # optional; what the lesson shows (the welcome's list)
//   kernel = "matmul-tiled"                # required
//   width = 4                              # or all three of j, k, l
//   height = 64                            # convolution: width (and for 2D height) of N,
//   mask_width = 5                         # and Mask_Width (odd, 1 to 9; default 5)
//   tile = 2                               # required: TILE_WIDTH (tiled) or block edge
//   seed = 1                               # optional; input seed, default 1
//   block = [0, 0]                         # optional; [bx, by] of the traced block
//   launch = 2                             # optional; the traced block's launch, of a row
//                                          # of several (PMPP sec. 11.6), default 1
//   step = 0                               # optional; starting step, or "last"
//   thread = [1, 0]                        # optional; [tx, ty] of the selected thread
//   panels = ["matrices", "code"]          # optional; the panels shown (the app's names)
//   lesson = ["memory", "code"]            # optional; the panels that carry the lesson, most
//                                          # important first: opened, and given room first
//   drop_barrier = "after-load"            # optional; or "after-compute", or a list of both:
//                                          # the tiled kernel skips that __syncthreads()
//   schedule = "reverse"                   # optional; "in-order" (default), "reverse" or
//   schedule_seed = 7                      # "random" with this seed (default 1)
//   narration = ["...", "..."]             # optional; the simple form: one line per step
//   text = "the quick brown fox"           # optional, histograms (a char input): the text
//   text_skew = 60                         # counted, or random letters, this percent 'e';
//                                          # neither: the book's phrase (sim::TextInput)
//
//   [occupancy]                            # optional; opens the Occupancy panel with:
//   profile = "textbook"                   #   textbook (default), sm_75 ... sm_90, current
//   block_threads = 256                    #   required in the table: threads per block
//   regs_per_thread = 10                   #   optional, default 0 (not used: no limit)
//   smem_per_block = 2048                  #   optional, bytes, default 0
//
//   [[question]]                           # optional, any number: practice questions whose
//   kind = "mds-loads"                     # answers are computed (sim/files/question_toml.cpp);
//   block = [1, 0]                         # a malformed one is reported in
//   thread = [0, 1]                        # Preset::questionProblems and the rest loads
//   phase = 1
//
//   [[narrate]]                            # optional, any number (not with narration):
//   at = "store P"                         # a line tied to the step where this happens:
//   phase = 1                              # load/use/barrier/store/other [ARRAY]; phase,
//   iteration = 0                          # iteration and nth (1 = the first match) narrow
//   nth = 1                                # it down (sim/teaching/narration_anchor.hpp)
//   text = "Each thread writes its Pvalue."
#include "sim/files/scenario_file.hpp"

#include "sim/files/output_target.hpp"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <limits>
#include <sstream>
#include <toml++/toml.h>
#include <tuple>

#include "kernels/context.cuh"
#include "sim/catalogue/loaded_kernels.hpp"
#include "sim/files/question_toml.hpp"
#include "sim/files/toml_text.hpp"

namespace ts::sim {
namespace fs = std::filesystem;

namespace {

constexpr const char* kKeys[] = {"title",        "kernel",   "width",         "j",
                                 "k",            "l",        "tile",          "seed",
                                 "block",        "step",     "drop_barrier",  "schedule",
                                 "schedule_seed", "narration", "occupancy", "height",
                                 "mask_width",   "thread",   "panels", "question", "narrate",
                                 "lesson", "chapter", "order", "summary", "sizes", "text", "text_skew", "launch"};
/// The size parameters, at the top level or in a [sizes] table (one or the other).
constexpr const char* kSizeKeys[] = {"width", "j", "k", "l", "height", "mask_width"};
constexpr const char* kNarrateKeys[] = {"at", "text", "phase", "iteration", "nth"};
constexpr const char* kOccupancyKeys[] = {"profile", "block_threads", "regs_per_thread", "smem_per_block"};
constexpr const char* kDefaultName = "tiled-4x4";
constexpr size_t kMaxScenarioBytes = size_t{1} << 20;   ///< 1 MiB: larger is not a scenario file

[[noreturn]] void fail(const std::string& file, const toml::node& n, const std::string& problem)
{
    throw ScenarioFileError(file + ", line " + std::to_string(n.source().begin.line) + ": " +
                            problem);
}

[[noreturn]] void failFile(const std::string& file, const std::string& problem)
{
    throw ScenarioFileError(file + ": " + problem);
}

/// What a value is, for messages: `the string "four"`, `the integer 5`, `the
/// floating-point number 4.5`, `the boolean true`, `an array`, `a table`, `a date`, ...
std::string describe(const toml::node& n)
{
    std::ostringstream s;
    if (const auto* v = n.as_string()) {
        // In double quotes on one line, control characters escaped, at most 40 characters.
        const std::string& text = v->get();
        s << "the string \"";
        size_t i = 0;
        // (Past 40 bytes only to finish a UTF-8 character.)
        for (; i < text.size() && (i < 40 || (static_cast<unsigned char>(text[i]) & 0xC0) == 0x80); ++i) {
            const unsigned char c = static_cast<unsigned char>(text[i]);
            if (c == '"' || c == '\\') s << '\\' << text[i];
            else if (c == '\n') s << "\\n";
            else if (c < 0x20 || c == 0x7f) s << "\\x" << "0123456789abcdef"[c >> 4] << "0123456789abcdef"[c & 15];
            else s << text[i];
        }
        s << (i < text.size() ? "...\"" : "\"");
    } else if (const auto* v = n.as_integer()) s << "the integer " << v->get();
    else if (const auto* v = n.as_floating_point()) s << "the floating-point number " << *v;
    else if (const auto* v = n.as_boolean()) s << "the boolean " << (v->get() ? "true" : "false");
    else if (n.is_array()) s << "an array";
    else if (n.is_table()) s << "a table";
    else if (n.is_date()) s << "a date";
    else if (n.is_time()) s << "a time";
    else s << "a date-time";
    return s.str();
}

/// The value of `n` as an integer in [lo, hi]; anything else is an error at its line.
long long integer(const std::string& file, const char* key, const toml::node& n, long long lo,
                  long long hi)
{
    const auto* v = n.as_integer();
    if (!v) fail(file, n, std::string(key) + " must be an integer; got " + describe(n) + ".");
    const long long x = v->get();
    if (x < lo || x > hi)
        fail(file, n, std::string(key) + " must be between " + std::to_string(lo) + " and " +
                          std::to_string(hi) + "; got " + std::to_string(x) + ".");
    return x;
}

std::string text(const std::string& file, const char* key, const toml::node& n)
{
    const auto* v = n.as_string();
    if (!v) fail(file, n, std::string(key) + " must be a string in quotes; got " + describe(n) + ".");
    return v->get();
}

/// Fails at `node` if `t` has a key that is not in `known` (naming `where` and the known keys).
template <class Known>
void onlyKnownKeys(const std::string& file, const toml::table& t, const Known& known, const std::string& where)
{
    for (auto&& [key, node] : t)
        if (std::find_if(std::begin(known), std::end(known),
                         [&name = key](const char* k) { return name.str() == k; }) == std::end(known)) {
            std::string list;
            for (const char* k : known) list += std::string(list.empty() ? "" : ", ") + k;
            fail(file, node, "unknown key '" + std::string(key.str()) + "'" + where + "; the known keys are " +
                                 list + ".");
        }
}

/// Checks the TOML type of every value in the file before anything else, so that a value of
/// the wrong type is named (key, the type it must have, what it is, its line) rather than
/// hidden behind a missing key or another check. Of several such values, the first in the
/// file is reported.
void checkTypes(const std::string& file, const toml::table& t)
{
    const toml::node* first = nullptr;
    std::string problem;
    auto bad = [&](const toml::node& n, std::string why) {
        const toml::source_position at = n.source().begin, best = first ? first->source().begin : at;
        if (!first || at.line < best.line || (at.line == best.line && at.column < best.column)) {
            first = &n;
            problem = std::move(why);
        }
    };
    auto integerKey = [&](const toml::table& tab, const char* key) {
        if (const toml::node* n = tab.get(key); n && !n->is_integer())
            bad(*n, std::string(key) + " must be an integer; got " + describe(*n) + ".");
    };
    auto stringKey = [&](const toml::table& tab, const char* key) {
        if (const toml::node* n = tab.get(key); n && !n->is_string())
            bad(*n, std::string(key) + " must be a string in quotes; got " + describe(*n) + ".");
    };
    for (const char* key : {"width", "j", "k", "l", "height", "mask_width", "tile", "seed", "schedule_seed", "order", "launch"})
        integerKey(t, key);
    if (const toml::node* n = t.get("sizes")) {
        if (const toml::table* sizes = n->as_table())
            for (const char* key : kSizeKeys) integerKey(*sizes, key);
        else
            bad(*n, "sizes must be a table, [sizes] with one size a line (j = 100); got " + describe(*n) + ".");
    }
    for (const char* key : {"title", "kernel", "schedule", "chapter", "summary"}) stringKey(t, key);
    if (const toml::node* n = t.get("step"); n && !n->is_integer() && !n->is_string())
        bad(*n, "step must be a step number or \"last\"; got " + describe(*n) + ".");
    // block = [bx, by], thread = [tx, ty]: two integers, or three in a 3D launch.
    for (auto [key, shape, names] : {std::tuple{"block", "[bx, by] or [bx, by, bz], two or three block indices", "bx by bz"},
                                     std::tuple{"thread", "[tx, ty] or [tx, ty, tz], a thread index in the block", "tx ty tz"}}) {
        const toml::node* n = t.get(key);
        if (!n) continue;
        const toml::array* a = n->as_array();
        if (!a) bad(*n, std::string(key) + " must be " + shape + "; got " + describe(*n) + ".");
        else if (a->size() != 2 && a->size() != 3)
            bad(*n, std::string(key) + " must be " + shape + "; got an array of " + std::to_string(a->size()) +
                        (a->size() == 1 ? " value." : " values."));
        else
            for (size_t i = 0; i < a->size(); ++i)
                if (!a->get(i)->is_integer())
                    bad(*a->get(i), std::string(key) + "'s " + std::string(names).substr(3 * i, 2) + " must be an integer; got " +
                                        describe(*a->get(i)) + ".");
    }
    // panels, narration: arrays of strings.
    for (auto [key, whole, each] : {std::tuple{"panels", "an array of panel names", "each panel name"},
                                    std::tuple{"lesson", "an array of panel names", "each lesson panel name"},
                                    std::tuple{"narration", "an array of strings, one per step", "each narration line"}}) {
        const toml::node* n = t.get(key);
        if (!n) continue;
        if (const toml::array* a = n->as_array()) {
            for (const toml::node& e : *a)
                if (!e.is_string()) bad(e, std::string(each) + " must be a string in quotes; got " + describe(e) + ".");
        } else {
            bad(*n, std::string(key) + " must be " + whole + "; got " + describe(*n) + ".");
        }
    }
    if (const toml::node* n = t.get("drop_barrier")) {
        auto one = [&](const toml::node& v) {
            if (!v.is_string())
                bad(v, "drop_barrier must be a string in quotes (\"after-load\", \"after-compute\" or \"fence\") or a "
                       "list of them; got " + describe(v) + ".");
        };
        if (const toml::array* a = n->as_array())
            for (const toml::node& v : *a) one(v);
        else
            one(*n);
    }
    if (const toml::node* n = t.get("occupancy")) {
        if (const toml::table* o = n->as_table()) {
            stringKey(*o, "profile");
            for (const char* key : {"block_threads", "regs_per_thread", "smem_per_block"}) integerKey(*o, key);
        } else {
            bad(*n, "occupancy must be a table: an [occupancy] section with block_threads and optionally "
                    "regs_per_thread, smem_per_block and profile; got " + describe(*n) + ".");
        }
    }
    if (first) fail(file, *first, problem);
}

/// The ts::kernels::Barrier bits of a drop_barrier value: "after-load", "after-compute", or
/// an array of those names.
unsigned barrierBits(const std::string& file, const toml::node& n)
{
    auto one = [&](const toml::node& v) -> unsigned {
        const std::string name = text(file, "drop_barrier", v);
        if (const unsigned bit = barrierBitNamed(name)) return bit;
        fail(file, v, "drop_barrier must be \"after-load\", \"after-compute\" or \"fence\" (or a list of them); got \"" +
                          name + "\".");
    };
    const toml::array* a = n.as_array();
    if (!a) return one(n);
    if (a->empty()) fail(file, n, "drop_barrier must name at least one barrier; got an empty list.");
    unsigned bits = 0;
    for (const toml::node& v : *a) bits |= one(v);
    return bits;
}

Schedule scheduleOf(const std::string& file, const toml::node& n)
{
    const std::string v = text(file, "schedule", n);
    for (Schedule s : {Schedule::InOrder, Schedule::Reverse, Schedule::Random})
        if (v == scheduleName(s)) return s;
    fail(file, n, "schedule must be \"in-order\", \"reverse\" or \"random\"; got \"" + v + "\".");
}

/// The [occupancy] table. Each key is checked against the profile's limits at its own line
/// (the "current" profile is only known on the GPU machine: there the panel checks them).
OccupancyQuestion occupancyTable(const std::string& file, const toml::node& n)
{
    const toml::table* t = n.as_table();
    if (!t) fail(file, n, "occupancy must be a table: an [occupancy] section with block_threads and "
                          "optionally regs_per_thread, smem_per_block and profile.");
    onlyKnownKeys(file, *t, kOccupancyKeys, " in [occupancy]");
    OccupancyQuestion q;
    const OccupancyProfile* profile = findOccupancyProfile(q.profile);
    if (const toml::node* p = t->get("profile")) {
        q.profile = text(file, "profile", *p);
        profile = findOccupancyProfile(q.profile);
        if (!profile && q.profile != "current") fail(file, *p, unknownProfileMessage(q.profile));
    }
    const toml::node* threads = t->get("block_threads");
    if (!threads)
        fail(file, n, "[occupancy] needs block_threads, the threads per block (1 to 1024).");
    constexpr long long kIntMax = std::numeric_limits<int>::max();
    const std::pair<const char*, int*> keys[] = {{"block_threads", &q.input.blockThreads},
                                                 {"regs_per_thread", &q.input.regsPerThread},
                                                 {"smem_per_block", &q.input.smemPerBlock}};
    for (auto [key, field] : keys) {
        const toml::node* v = t->get(key);
        if (!v) continue;
        *field = static_cast<int>(integer(file, key, *v, field == &q.input.blockThreads ? 1 : 0, kIntMax));
        if (profile)
            if (std::string e = checkOccupancyInput(*profile, q.input); !e.empty()) fail(file, *v, e);
    }
    return q;
}

/// A TOML string literal for `s` (quoted and escaped by toml++).
std::string quoted(const std::string& s)
{
    std::ostringstream o;
    o << toml::value<std::string>(s);
    return o.str();
}

void narrateTables(const std::string& file, const toml::node& n, Preset& p);

/// The panel names of array `n` (key `key`, "panels" or "lesson"), each one of `known`
/// unless `known` is empty.
std::vector<std::string> panelList(const std::string& file, const char* key, const toml::node& n,
                                   const PanelNames& known)
{
    const toml::array* a = n.as_array();
    if (!a) fail(file, n, std::string(key) + " must be an array of panel names; got " + describe(n) + ".");
    std::vector<std::string> out;
    for (const toml::node& e : *a) {
        const std::string name = text(file, "each panel name", e);
        if (!known.empty() && std::find(known.begin(), known.end(), name) == known.end()) {
            std::string list;
            for (const std::string& k : known) list += (list.empty() ? "" : ", ") + k;
            fail(file, e, "'" + name + "' is not a panel; the panels are " + list + ".");
        }
        out.push_back(name);
    }
    return out;
}

Preset parse(const std::string& file, const toml::table& t, const PanelNames& panels)
{
    Preset p;
    p.file = file;
    p.name = fs::path(file).stem().string();
    p.title = p.name;

    if (t.empty())
        failFile(file, "the file has no keys; a scenario needs at least kernel, width (or j, k and l) and tile, "
                       "for example kernel = \"matmul-tiled\", width = 4, tile = 2.");
    onlyKnownKeys(file, t, kKeys, "");
    checkTypes(file, t);

    if (const toml::node* n = t.get("title")) p.title = text(file, "title", *n);
    if (const toml::node* n = t.get("chapter")) {
        p.chapter = text(file, "chapter", *n);
        // "5" or "5.4": a chapter and, after a dot, a section, each 1 to 99.
        const std::string& c = p.chapter;
        const size_t dot = c.find('.');
        auto number = [](std::string_view d) {
            return !d.empty() && d.size() <= 2 && d.find_first_not_of("0123456789") == std::string_view::npos &&
                   d != "0" && d != "00";
        };
        if (!number(std::string_view(c).substr(0, dot)) ||
            (dot != std::string::npos && !number(std::string_view(c).substr(dot + 1))))
            fail(file, *n, "chapter must be a PMPP chapter or section such as \"5\" or \"5.4\"; got " + describe(*n) + ".");
    }
    if (const toml::node* n = t.get("order")) p.order = static_cast<int>(integer(file, "order", *n, -1000, 1000));
    if (const toml::node* n = t.get("summary")) p.summary = text(file, "summary", *n);
    if (const toml::node* n = t.get("seed"))
        p.scenario.seed = static_cast<uint64_t>(
            integer(file, "seed", *n, 0, std::numeric_limits<long long>::max()));
    if (const toml::node* n = t.get("step")) {
        if (n->is_string()) {
            const std::string v = text(file, "step", *n);
            if (v != "last") fail(file, *n, "step must be a step number or \"last\"; got \"" + v + "\".");
            p.step = -1;
        } else {
            p.step = static_cast<int>(
                integer(file, "step", *n, 0, std::numeric_limits<int>::max()));
        }
    }
    if (const toml::node* n = t.get("schedule")) p.schedule = scheduleOf(file, *n);
    if (const toml::node* n = t.get("schedule_seed")) {
        if (p.schedule != Schedule::Random)
            fail(file, *n, "schedule_seed applies only to schedule = \"random\"; set that too, or remove "
                           "schedule_seed.");
        p.scheduleSeed = static_cast<uint64_t>(
            integer(file, "schedule_seed", *n, 0, std::numeric_limits<long long>::max()));
    }
    if (const toml::node* n = t.get("text")) {
        p.scenario.text.text = text(file, "text", *n);
        if (std::string e = checkText(p.scenario.text.text, "text"); !e.empty()) fail(file, *n, e);
    }
    if (const toml::node* n = t.get("text_skew")) {
        if (t.get("text")) fail(file, *n, "give either text or text_skew, not both.");
        p.scenario.text.skew = static_cast<int>(integer(file, "text_skew", *n, 0, 100));
    }
    if (const toml::node* n = t.get("occupancy")) p.occupancy = occupancyTable(file, *n);
    if (const toml::node* n = t.get("panels")) p.panels = panelList(file, "panels", *n, panels);
    if (const toml::node* n = t.get("lesson")) {
        p.lesson = panelList(file, "lesson", *n, panels);
        if (p.lesson.empty())
            fail(file, *n, "lesson must name at least one panel, the one that carries the lesson first; or leave "
                           "lesson out for the picture of the kernel's family.");
        // The lesson's panels are shown: a `panels` list that leaves one out contradicts it.
        const toml::array& a = *n->as_array();
        for (size_t i = 0; i < p.lesson.size(); ++i)
            if (!p.panels.empty() && std::find(p.panels.begin(), p.panels.end(), p.lesson[i]) == p.panels.end())
                fail(file, *a.get(i), "lesson names '" + p.lesson[i] + "', which panels does not show; add it to "
                                      "panels or take it out of lesson.");
    }
    if (const toml::node* n = t.get("narration")) {
        const toml::array* a = n->as_array();
        if (!a) fail(file, *n, "narration must be an array of strings, one per step; got " + describe(*n) + ".");
        for (const toml::node& line : *a) p.narration.push_back(text(file, "each narration line", line));
    }
    if (const toml::node* n = t.get("narrate")) {
        if (t.get("narration"))
            fail(file, *n, "give either narration = [...] (one line per step) or [[narrate]] tables, not both.");
        narrateTables(file, *n, p);
    }

    // The problem itself: the keys are applied and the scenario validated; when it fails,
    // each key is applied in turn and the scenario re-validated, so that a sim::validate()
    // message is reported at the line of the key that made it fail.
    // The sizes are named in a [sizes] table or, as before it existed, at the top level.
    const toml::table* sizes = t.get("sizes") ? t.get("sizes")->as_table() : nullptr;
    // A described problem names its sizes itself ([sizes] N = 37 for PMPP's stencil): its
    // only size is the width, the first of two the height.
    std::shared_ptr<const ArraySpec> spec;
    if (const toml::node* k = t.get("kernel"); k && k->is_string()) spec = arraySpecOf(k->as_string()->get());
    const std::vector<std::string> ownSizes = spec ? spec->sizes : std::vector<std::string>{};
    if (const toml::node* n = t.get("text") ? t.get("text") : t.get("text_skew")) {
        bool chars = false;
        if (spec)
            for (const ArrayDecl* a : spec->inputs()) chars = chars || a->type == ElementType::Char;
        if (!chars)
            fail(file, *n, std::string(t.get("text") ? "text" : "text_skew") +
                               " applies to a kernel with a char input (the histograms); this one has none.");
    }
    if (sizes) {
        std::vector<const char*> known(std::begin(kSizeKeys), std::end(kSizeKeys));
        for (const std::string& name : ownSizes) known.push_back(name.c_str());
        onlyKnownKeys(file, *sizes, known, " in [sizes]");
        for (const char* key : kSizeKeys)
            if (const toml::node* n = t.get(key))
                fail(file, *n, std::string(key) + " is a size: give it in the [sizes] table with the others, not "
                                                  "at the top level.");
    }
    auto sizeNode = [&](const char* key) -> const toml::node* {
        if (sizes && !ownSizes.empty()) {
            const std::string own = std::string(key) == "width" ? ownSizes.back()
                                    : std::string(key) == "height" && ownSizes.size() == 2 ? ownSizes.front()
                                                                                            : std::string();
            if (!own.empty() && sizes->get(own)) return sizes->get(own);
        }
        return sizes ? sizes->get(key) : t.get(key);
    };
    const toml::node* kernel = t.get("kernel");
    const toml::node* tile = t.get("tile");
    const toml::node* width = sizeNode("width");
    const toml::node* jkl[] = {sizeNode("j"), sizeNode("k"), sizeNode("l")};
    if (!kernel)
        failFile(file, "no kernel given; add kernel = \"matmul-tiled\" or another name that "
                       "tilescope-cli list-kernels prints.");
    if (width && (jkl[0] || jkl[1] || jkl[2]))
        fail(file, *width, "give either width or j, k and l, not both.");
    if (!width && !(jkl[0] && jkl[1] && jkl[2]))
        failFile(file, "no problem size given; add width = W, or all three of j, k and l.");
    if (!tile)
        failFile(file, "no tile given; add tile = TILE_WIDTH (tiled kernels: 2, 4, 8, 16 or 32) "
                       "or the block edge (untiled kernels: 1 to 32).");

    constexpr long long kIntMax = std::numeric_limits<int>::max();
    auto edge = [&](const char* key, const toml::node* n) {
        return static_cast<int>(integer(file, key, *n, 1, kMaxEdge));
    };
    Scenario& s = p.scenario;
    std::vector<std::pair<const toml::node*, std::function<void()>>> keys;
    keys.emplace_back(kernel, [&] {
        s.kernel = text(file, "kernel", *kernel);
        // Until the tile key is applied, a tile the kernel has (the ladder's rungs have no 2).
        const KernelInfo* k = s.info = findKernel(s.kernel);
        if (k && k->tiled && std::find(k->tiles.begin(), k->tiles.end(), s.tile) == k->tiles.end())
            s.tile = k->tiles.front();
    });
    const toml::node* height = sizeNode("height");
    const toml::node* maskWidth = sizeNode("mask_width");
    // Convolution (PMPP ch. 7): width (and height) of N, mask_width; checked by validate().
    auto conv = [&] { return familyOf(s) != Family::Matmul; };
    if (width) {
        keys.emplace_back(width, [&] {
            if (conv()) s.width = static_cast<int>(integer(file, "width", *width, 1, kIntMax));
            else s.j = s.k = s.l = edge("width", width);
        });
    } else {
        keys.emplace_back(jkl[0], [&] { s.j = edge("j", jkl[0]); });
        keys.emplace_back(jkl[1], [&] { s.k = edge("k", jkl[1]); });
        keys.emplace_back(jkl[2], [&] { s.l = edge("l", jkl[2]); });
    }
    for (auto [node, key, field] : {std::tuple{height, "height", &s.height}, std::tuple{maskWidth, "mask_width", &s.maskWidth}})
        if (node)
            keys.emplace_back(node, [&, node = node, key = key, field = field] {   // (clang 14 cannot capture bindings)
                if (!conv()) fail(file, *node, std::string(key) + " applies to the convolution kernels only.");
                *field = static_cast<int>(integer(file, key, *node, std::numeric_limits<int>::min(), kIntMax));
            });
    keys.emplace_back(tile, [&] { s.tile = static_cast<int>(integer(file, "tile", *tile, std::numeric_limits<int>::min(), kIntMax)); });
    if (const toml::node* b = t.get("block"))
        keys.emplace_back(b, [&, b] {
            const toml::array* a = b->as_array();
            if (!a || a->size() < 2 || a->size() > 3)
                fail(file, *b, "block must be [bx, by] or [bx, by, bz], two or three block indices.");
            s.block.x = static_cast<unsigned>(integer(file, "block's bx", *a->get(0), 0, kIntMax));
            s.block.y = static_cast<unsigned>(integer(file, "block's by", *a->get(1), 0, kIntMax));
            if (a->size() == 3) s.block.z = static_cast<unsigned>(integer(file, "block's bz", *a->get(2), 0, kIntMax));
        });
    if (const toml::node* d = t.get("drop_barrier"))
        keys.emplace_back(d, [&, d] { s.dropBarriers = barrierBits(file, *d); });
    if (const toml::node* n = t.get("launch"))
        keys.emplace_back(n, [&, n] { s.launch = static_cast<int>(integer(file, "launch", *n, std::numeric_limits<int>::min(), kIntMax)); });
    // A file valid as a whole is taken even where a key alone would not be (PMPP Fig. 10.11's
    // one block: N must be 2 x its tile, so N = 512 before tile = 256 is applied fails).
    // Otherwise the keys are applied again one at a time to name the first that fails.
    const Scenario before = s;
    for (auto& [node, apply] : keys) apply();
    if (!validate(s).empty()) {
        s = before;
        for (auto& [node, apply] : keys) {
            apply();
            if (std::string e = validate(s); !e.empty()) fail(file, *node, e);
        }
    }
    if (const toml::node* n = t.get("thread")) {
        const toml::array* a = n->as_array();
        if (!a || a->size() < 2 || a->size() > 3)
            fail(file, *n, "thread must be [tx, ty] or [tx, ty, tz], a thread index in the block.");
        const Dim3 bd = launchShape(s).block;
        const auto tx = integer(file, "thread's tx", *a->get(0), 0, kIntMax), ty = integer(file, "thread's ty", *a->get(1), 0, kIntMax);
        const auto tz = a->size() == 3 ? integer(file, "thread's tz", *a->get(2), 0, kIntMax) : 0;
        if (tx >= static_cast<long long>(bd.x) || ty >= static_cast<long long>(bd.y) || tz >= static_cast<long long>(bd.z))
            fail(file, *n, "thread [" + std::to_string(tx) + ", " + std::to_string(ty) + (a->size() == 3 ? ", " + std::to_string(tz) : "") +
                               "] is outside the block of " + std::to_string(bd.x) + " x " + std::to_string(bd.y) +
                               (bd.z > 1 ? " x " + std::to_string(bd.z) : "") + " threads.");
        p.thread = Uint3{static_cast<unsigned>(tx), static_cast<unsigned>(ty), static_cast<unsigned>(tz)};
    }
    // Practice questions last: they are checked against the whole scenario.
    if (const toml::node* n = t.get("question")) readQuestionTables(file, *n, p);
    return p;
}

/// The [[narrate]] tables: each a line tied to the step of an event (NarrationAnchor).
void narrateTables(const std::string& file, const toml::node& n, Preset& p)
{
    const toml::array* a = n.as_array();
    if (!a || !a->is_array_of_tables())
        fail(file, n, "narrate must be written as [[narrate]] tables, each with at = \"...\" and text = \"...\".");
    for (const toml::node& e : *a) {
        const toml::table& tab = *e.as_table();
        onlyKnownKeys(file, tab, kNarrateKeys, " in a [[narrate]] table");
        NarrationAnchor anchor;
        anchor.line = static_cast<int>(e.source().begin.line);
        const toml::node* at = tab.get("at");
        const toml::node* txt = tab.get("text");
        if (!at) fail(file, e, "a [[narrate]] table needs at = \"...\", the step it narrates (" + std::string(anchorKinds()) +
                                   ", optionally with an array: \"store P\").");
        if (!txt) fail(file, e, "a [[narrate]] table needs text = \"...\", the line to show.");
        if (std::string why = parseAnchorAt(text(file, "at", *at), anchor); !why.empty()) fail(file, *at, why);
        anchor.text = text(file, "text", *txt);
        if (anchor.text.empty()) fail(file, *txt, "text must not be empty; a step without a line gets a generated one.");
        constexpr long long kIntMax = std::numeric_limits<int>::max();
        if (const toml::node* v = tab.get("phase")) anchor.phase = static_cast<int>(integer(file, "phase", *v, 0, kIntMax));
        if (const toml::node* v = tab.get("iteration"))
            anchor.iteration = static_cast<int>(integer(file, "iteration", *v, 0, kIntMax));
        if (const toml::node* v = tab.get("nth")) anchor.nth = static_cast<int>(integer(file, "nth", *v, 1, kIntMax));
        p.narrate.push_back(std::move(anchor));
    }
}

std::vector<std::string> presetNames()
{
    std::vector<std::string> names;
    std::error_code ec;
    for (const fs::directory_entry& e : fs::directory_iterator(presetDirectory(), ec))
        if (e.path().extension() == ".toml") names.push_back(e.path().stem().string());
    std::sort(names.begin(), names.end());
    return names;
}

std::string presetPath(const std::string& name)
{
    return (fs::path(presetDirectory()) / (name + ".toml")).string();
}

}  // namespace

std::string oneLine(std::string_view text)
{
    std::string out;
    out.reserve(text.size());
    for (const char c : text) {
        const auto u = static_cast<unsigned char>(c);
        if (c == '\n') out += "\\n";
        else if (c == '\r') out += "\\r";
        else if (c == '\t') out += "\\t";
        else if (u < 0x20 || u == 0x7f) {
            const char hex[] = "0123456789abcdef";
            out += "\\x";
            out += hex[u >> 4];
            out += hex[u & 15];
        } else {
            out += c;
        }
    }
    return out;
}

ScenarioFileError::ScenarioFileError(const std::string& message) : std::runtime_error(oneLine(message)) {}

const char* scheduleName(Schedule s)
{
    switch (s) {
    case Schedule::InOrder: return "in-order";
    case Schedule::Reverse: return "reverse";
    case Schedule::Random: return "random";
    }
    return "?";
}

Preset defaultPreset(const PanelNames& panels)
{
    if (fs::exists(presetPath(kDefaultName))) return loadScenarioFile(presetPath(kDefaultName), panels);
    // Without the assets folder (a binary copied elsewhere): the same problem, unnarrated.
    Preset p;
    p.name = kDefaultName;
    p.title = "Tiled matrix multiplication, 4x4 with TILE_WIDTH 2";
    return p;
}

Preset loadScenarioFile(const std::string& path, const PanelNames& panels)
{
    std::error_code ec;
    if (fs::is_directory(path, ec))
        failFile(path, "is a folder, not a scenario file; give the path of a .toml file (the presets are in " +
                           presetDirectory() + ").");
    std::FILE* f = std::fopen(path.c_str(), "rb");
    if (!f) failFile(path, std::string("cannot be opened (") + std::strerror(errno) + ").");
    // Read with stdio, not a stream: a read that fails (EIO, EISDIR) must be an error, not an
    // empty file. A scenario file is a few lines; past kMaxScenarioBytes it is something else.
    std::string content;
    char buf[1 << 16];
    size_t n = 0;
    while ((n = std::fread(buf, 1, sizeof buf, f)) > 0 && content.size() <= kMaxScenarioBytes) content.append(buf, n);
    const int err = errno;
    const bool failed = std::ferror(f) != 0;
    std::fclose(f);
    if (failed) failFile(path, std::string("cannot be read (") + std::strerror(err) + ").");
    if (content.size() > kMaxScenarioBytes)
        failFile(path, "is larger than " + std::to_string(kMaxScenarioBytes >> 20) +
                           " MiB; a scenario file is a few lines of TOML.");
    return parseScenarioText(content, path, panels);
}

Preset parseScenarioText(std::string_view content, const std::string& path, const PanelNames& panels)
{
    // toml++ 3.3 must not see some characters (sim/files/toml_text.hpp).
    const TomlSafeText safe = tomlSafeText(content);
    if (safe.refused.line)
        throw ScenarioFileError(path + ", line " + std::to_string(safe.refused.line) + ", column " +
                                std::to_string(safe.refused.column) + ": " + refusalReason(safe));
    toml::table t;
    try {
        t = toml::parse(safe.text, std::string_view(path));
    } catch (const toml::parse_error& e) {
        std::string d(e.description());
        if (!d.empty() && d.back() != '.') d += '.';
        throw ScenarioFileError(path + ", line " + std::to_string(e.source().begin.line) + ", column " +
                                std::to_string(safe.originalColumn(static_cast<int>(e.source().begin.line),
                                                                   static_cast<int>(e.source().begin.column))) +
                                ": " + d);
    }
    return parse(path, t, panels);
}

void saveScenarioFile(const Preset& p, const std::string& path)
{
    const Scenario& s = p.scenario;
    std::ostringstream o;
    o << "# TileScope scenario: tilescope --scenario " << path << "\n";
    o << "title = " << quoted(p.title) << "\n";
    if (!p.chapter.empty()) o << "chapter = " << quoted(p.chapter) << "\n";
    if (p.order != 0) o << "order = " << p.order << "\n";
    if (!p.summary.empty()) o << "summary = " << quoted(p.summary) << "\n";
    o << "kernel = " << quoted(s.kernel) << "\n";
    if (familyOf(s) != Family::Matmul) {
        o << "width = " << s.width << "\n";
        if (familyOf(s) == Family::Conv2D) o << "height = " << s.height << "\n";
        o << "mask_width = " << s.maskWidth << "\n";
    } else if (s.j == s.k && s.k == s.l)
        o << "width = " << s.j << "\n";
    else
        o << "j = " << s.j << "\nk = " << s.k << "\nl = " << s.l << "\n";
    o << "tile = " << s.tile << "\n";
    o << "seed = " << s.seed << "\n";
    o << "block = [" << s.block.x << ", " << s.block.y << "]\n";
    if (s.launch != 1) o << "launch = " << s.launch << "\n";
    if (s.dropBarriers) {
        std::string names;
        for (const std::string& n : barrierNamesOf(s.dropBarriers)) names += (names.empty() ? "\"" : ", \"") + n + "\"";
        o << "drop_barrier = " << (barrierNamesOf(s.dropBarriers).size() == 1 ? names : "[" + names + "]") << "\n";
    }
    if (!s.text.text.empty()) o << "text = " << quoted(s.text.text) << "\n";
    if (s.text.skew >= 0) o << "text_skew = " << s.text.skew << "\n";
    if (p.schedule != Schedule::InOrder) o << "schedule = \"" << scheduleName(p.schedule) << "\"\n";
    if (p.schedule == Schedule::Random) o << "schedule_seed = " << p.scheduleSeed << "\n";
    o << "step = " << (p.step < 0 ? std::string("\"last\"") : std::to_string(p.step)) << "\n";
    if (p.thread) o << "thread = [" << p.thread->x << ", " << p.thread->y << "]\n";
    if (!p.panels.empty()) {
        o << "panels = [";
        for (size_t i = 0; i < p.panels.size(); ++i) o << (i ? ", " : "") << quoted(p.panels[i]);
        o << "]\n";
    }
    if (!p.lesson.empty()) {
        o << "lesson = [";
        for (size_t i = 0; i < p.lesson.size(); ++i) o << (i ? ", " : "") << quoted(p.lesson[i]);
        o << "]\n";
    }
    if (!p.narration.empty()) {
        o << "narration = [\n";
        for (const std::string& line : p.narration) o << "  " << quoted(line) << ",\n";
        o << "]\n";
    }
    if (const std::optional<OccupancyQuestion>& q = p.occupancy) {
        o << "\n[occupancy]\nprofile = " << quoted(q->profile) << "\nblock_threads = " << q->input.blockThreads
          << "\nregs_per_thread = " << q->input.regsPerThread << "\nsmem_per_block = " << q->input.smemPerBlock
          << "\n";
    }
    writeQuestionTables(o, p);
    for (const NarrationAnchor& a : p.narrate) {
        o << "\n[[narrate]]\nat = " << quoted(a.at) << "\n";
        if (a.phase) o << "phase = " << *a.phase << "\n";
        if (a.iteration) o << "iteration = " << *a.iteration << "\n";
        if (a.nth != 1) o << "nth = " << a.nth << "\n";
        o << "text = " << quoted(a.text) << "\n";
    }
    // A device or a pipe is written into, never renamed over; a folder is refused.
    std::string why;
    const OutputTarget target = outputTarget(path, why);
    if (target == OutputTarget::Refused) failFile(path, "cannot be written: " + why);
    if (target == OutputTarget::Direct) {
        std::ofstream out(path, std::ios::binary);
        if (!(out << o.str()) || !out.flush()) failFile(path, "cannot be written.");
        return;
    }
    // Write beside the target and rename, so a failed write leaves no half-written file.
    const std::string tmp = path + ".tmp";
    {
        std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
        if (!(out << o.str()) || !out.flush()) {
            const int err = errno;
            std::remove(tmp.c_str());
            failFile(path, std::string("cannot be written (") + std::strerror(err) + ").");
        }
    }
    std::error_code ec;
    fs::rename(tmp, path, ec);
    if (ec) {
        std::remove(tmp.c_str());
        failFile(path, "cannot be written (" + ec.message() + ").");
    }
}

std::string presetDirectory()
{
    const char* env = std::getenv("TILESCOPE_ASSETS");
    if (env && *env) return (fs::path(env) / "scenarios").string();
    // An installed binary: PREFIX/bin/tilescope finds PREFIX/share/tilescope/assets.
    std::error_code ec;
    const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
    if (!ec) {
        const fs::path installed = exe.parent_path().parent_path() / TILESCOPE_INSTALLED_ASSETS / "scenarios";
        if (fs::is_directory(installed, ec)) return installed.string();
    }
    return (fs::path(TILESCOPE_ASSETS_DIR) / "scenarios").string();
}

std::vector<Preset> listPresets(const PanelNames& panels)
{
    const std::string dir = presetDirectory();
    if (!fs::is_directory(dir))
        throw ScenarioFileError("The preset folder " + dir + " does not exist; set TILESCOPE_ASSETS "
                                "to the folder that holds scenarios/.");
    std::vector<Preset> presets;
    for (const std::string& name : presetNames()) presets.push_back(loadScenarioFile(presetPath(name), panels));
    return presets;
}

Preset findPreset(const std::string& nameOrPath, const PanelNames& panels)
{
    const bool isPath = nameOrPath.find('/') != std::string::npos ||
                        fs::path(nameOrPath).extension() == ".toml";
    if (isPath) return loadScenarioFile(nameOrPath, panels);
    if (fs::exists(presetPath(nameOrPath))) return loadScenarioFile(presetPath(nameOrPath), panels);
    if (std::error_code ec; fs::is_directory(nameOrPath, ec)) return loadScenarioFile(nameOrPath, panels);   // says it is a folder
    std::string known;
    for (const std::string& n : presetNames()) known += (known.empty() ? "" : ", ") + n;
    throw ScenarioFileError("No preset named '" + nameOrPath + "'; the presets are " +
                            (known.empty() ? "none (no folder " + presetDirectory() + ")" : known) +
                            ". A scenario file is given by its path (a '/' or the .toml ending).");
}

}  // namespace ts::sim
