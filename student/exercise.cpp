// Exercise files (student/exercise.hpp): TOML read key by key, every error one sentence
// with the file and the line.
//
//   title = "Tiled matrix multiplication"      # required
//   pmpp = "5.4"                                # required: the PMPP section
//   statement = """..."""                       # required: Markdown
//   starter = "tiled-matmul.cu"                 # required: beside this file, or
//   starter_code = """..."""                    #   the starter itself (copied into the cache)
//   reference = "matmul-tiled"                  # required: a registry kernel
//   tile = 16                                   # optional
//   mask_width = 5                              # optional, convolution only
//   public_size = [64, 64, 64]                  # optional: the size a student may run
//   grading = "grading/tiled-matmul.toml"       # the hidden sizes and [points], in a file of their own
//   sizes = [[33, 17, 45], [64, 64, 64]]        # or here: [j, k, l] | [width] | [height, width]
//   [launch]                                    # required: family; grid, block, n_layout, args optional
//   [checks]                                    # optional: tiled, coalesced, one_per, min_outputs_per_thread,
//                                               #   convergent, atomics_per_block (exact) or
//                                               #   atomics_per_block_at_most, adds_at_most
#include "student/exercise.hpp"

#include <algorithm>
#include <iterator>
#include <tuple>
#include <unistd.h>
#include <filesystem>
#include <fstream>
#include <random>
#include <set>
#include <sstream>
#include <toml++/toml.h>

#include "sim/catalogue/agreement_cases.hpp"
#include "sim/catalogue/kernel_info.hpp"
#include "student/module.hpp"
#include "sim/files/scenario_file.hpp"
#include "sim/files/toml_text.hpp"

namespace ts::student {
namespace fs = std::filesystem;
namespace {

constexpr const char* kKeys[] = {"title", "pmpp",  "statement",  "starter", "starter_code", "reference", "tile",
                                 "mask_width", "sizes", "public_size", "grading", "launch", "checks", "points"};
constexpr const char* kLaunchKeys[] = {"family", "grid", "block", "n_layout", "arrays", "sizes", "formula", "args"};
constexpr const char* kGradingKeys[] = {"sizes", "points"};
constexpr const char* kPointKeys[] = {"compiles", "tiled", "runs", "barriers", "correct", "no_races", "initialised_shared",
                                      "coalesced", "one_per", "thread_coarsening", "convergent", "atomics_per_block", "work",
                                      "gpu"};
constexpr const char* kCheckKeys[] = {"tiled", "coalesced", "one_per", "min_outputs_per_thread", "convergent",
                                      "atomics_per_block", "atomics_per_block_at_most", "adds_at_most"};
constexpr size_t kMaxBytes = size_t{1} << 20;

[[noreturn]] void fail(const std::string& file, const toml::node& n, const std::string& problem)
{
    throw ExerciseError(file + ", line " + std::to_string(n.source().begin.line) + ": " + problem);
}

[[noreturn]] void failFile(const std::string& file, const std::string& problem)
{
    throw ExerciseError(file + ": " + problem);
}

/// Refuses a key of `t` that is not in `known` (a misspelt key would otherwise be ignored).
template <size_t K>
void onlyKnownKeys(const std::string& file, const toml::table& t, const char* const (&known)[K], const std::string& where)
{
    for (const auto& [key, node] : t) {
        const std::string k(key.str());
        if (std::find_if(std::begin(known), std::end(known), [&](const char* n) { return k == n; }) == std::end(known)) {
            std::string list;
            for (const char* n : known) list += (list.empty() ? "" : ", ") + std::string(n);
            fail(file, node, "unknown key '" + k + "'" + where + "; the keys are " + list + ".");
        }
    }
}

std::string requiredString(const std::string& file, const toml::table& t, const char* key, const toml::node& at)
{
    const toml::node* n = t.get(key);
    if (!n) fail(file, at, std::string("the key ") + key + " is missing; add " + key + " = \"...\".");
    const auto* s = n->as_string();
    if (!s) fail(file, *n, std::string(key) + " must be a string in quotes.");
    if (s->get().empty()) fail(file, *n, std::string(key) + " must not be empty.");
    return s->get();
}

std::string optionalString(const std::string& file, const toml::table& t, const char* key)
{
    const toml::node* n = t.get(key);
    if (!n) return "";
    const auto* s = n->as_string();
    if (!s) fail(file, *n, std::string(key) + " must be a string in quotes.");
    return s->get();
}

int optionalInt(const std::string& file, const toml::table& t, const char* key, int fallback, int lo, int hi)
{
    const toml::node* n = t.get(key);
    if (!n) return fallback;
    const auto* v = n->as_integer();
    if (!v || v->get() < lo || v->get() > hi)
        fail(file, *n, std::string(key) + " must be a whole number from " + std::to_string(lo) + " to " + std::to_string(hi) + ".");
    return static_cast<int>(v->get());
}

bool optionalBool(const std::string& file, const toml::table& t, const char* key)
{
    const toml::node* n = t.get(key);
    if (!n) return false;
    const auto* v = n->as_boolean();
    if (!v) fail(file, *n, std::string(key) + " must be true or false.");
    return v->get();
}

/// One entry of `sizes`, as the family wants it.
ExerciseSize parseSize(const std::string& file, const toml::node& n, const std::string& family, size_t arraySizes)
{
    const bool array2D = family == "array" && arraySizes == 2;
    const size_t want = family == "matmul" ? 3 : (family == "conv2d" || array2D) ? 2 : 1;
    const char* form = family == "matmul" ? "[j, k, l]" : family == "conv2d" ? "[height, width]" : array2D ? "[first size, second size]" : family == "array" ? "[size]" : "[width]";
    const auto* a = n.as_array();
    if (!a || a->size() != want)
        fail(file, n, std::string("each size of a ") + family + " exercise is " + form + ", a list of " +
                          std::to_string(want) + " whole number" + (want > 1 ? "s" : "") + ".");
    std::vector<int> v;
    for (const toml::node& e : *a) {
        const auto* i = e.as_integer();
        if (!i || i->get() < 1 || i->get() > 4096)
            fail(file, e, std::string("a size must be a whole number from 1 to 4096 (") + form + ").");
        v.push_back(static_cast<int>(i->get()));
    }
    ExerciseSize s;
    if (family == "matmul") {
        s.j = v[0];
        s.k = v[1];
        s.l = v[2];
    } else if (family == "conv2d" || array2D) {
        s.height = v[0];
        s.width = v[1];
        s.twoD = array2D;
    } else {
        s.width = v[0];
    }
    return s;
}

/// A [points] table into `p`: each key of kPointKeys a number from 0 to 1000.
void parsePoints(const std::string& file, const toml::node& n, ExercisePoints& p)
{
    const auto* t = n.as_table();
    if (!t) fail(file, n, "points must be a [points] table.");
    onlyKnownKeys(file, *t, kPointKeys, " in [points]");
    const std::pair<const char*, double*> fields[] = {
        {"compiles", &p.compiles},   {"tiled", &p.tiled},         {"runs", &p.runs},
        {"barriers", &p.barriers},   {"correct", &p.correct},     {"no_races", &p.noRaces},
        {"initialised_shared", &p.initialisedShared}, {"coalesced", &p.coalesced}, {"one_per", &p.onePer},
        {"thread_coarsening", &p.threadCoarsening},   {"convergent", &p.convergent},
        {"atomics_per_block", &p.atomicsPerBlock},    {"work", &p.work},           {"gpu", &p.gpu}};
    for (const auto& [key, field] : fields) {
        const toml::node* v = t->get(key);
        if (!v) continue;
        const std::optional<double> d = v->value<double>();
        if (!d || !(*d >= 0 && *d <= 1000))
            fail(file, *v, std::string("points.") + key + " must be a number from 0 to 1000.");
        *field = *d;
    }
}

/// The list of hidden sizes `n` (the key `sizes` of `file`).
std::vector<ExerciseSize> parseSizes(const std::string& file, const toml::node& n, const std::string& family, size_t arraySizes)
{
    const auto* list = n.as_array();
    if (!list || list->empty()) fail(file, n, "sizes must be a non-empty list of sizes.");
    std::vector<ExerciseSize> out;
    for (const toml::node& e : *list) out.push_back(parseSize(file, e, family, arraySizes));
    return out;
}

/// Parses TOML text `content` of `path`, every error one sentence with the file and line.
toml::table parseToml(const std::string& content, const std::string& path)
{
    // toml++ 3.3 must not see some characters (sim/files/toml_text.hpp).
    const sim::TomlSafeText safe = sim::tomlSafeText(content);
    if (safe.refused.line)
        throw ExerciseError(path + ", line " + std::to_string(safe.refused.line) + ", column " +
                            std::to_string(safe.refused.column) + ": " + sim::refusalReason(safe));
    try {
        return toml::parse(safe.text, std::string_view(path));
    } catch (const toml::parse_error& e) {
        std::string d(e.description());
        if (!d.empty() && d.back() != '.') d += '.';
        throw ExerciseError(path + ", line " + std::to_string(e.source().begin.line) + ", column " +
                            std::to_string(safe.originalColumn(static_cast<int>(e.source().begin.line),
                                                               static_cast<int>(e.source().begin.column))) +
                            ": " + d);
    }
}

/// The text of file `path`, at most kMaxBytes; ExerciseError when it cannot be read.
std::string readSmallFile(const std::string& path, const std::string& what)
{
    std::error_code ec;
    if (fs::is_directory(path, ec)) failFile(path, "is a folder, not " + what + "; give the path of a .toml file.");
    std::ifstream in(path, std::ios::binary);
    if (!in) failFile(path, "cannot be opened (no such file, or it is not readable).");
    std::string content;
    char buf[4096];
    while (in.read(buf, sizeof buf) || in.gcount() > 0) {
        content.append(buf, static_cast<size_t>(in.gcount()));
        if (content.size() > kMaxBytes) failFile(path, "is larger than 1 MiB; " + what + " is a page of text.");
    }
    return content;
}

/// Checks an exercise's [launch] args against its family's terms (student::bindArguments
/// binds them to a kernel's parameters later): an unknown term is the exercise's fault.
void checkArgs(const std::string& file, const toml::node& n, const std::string& args, const LaunchHeader& launch)
{
    std::vector<std::string> terms;
    if (launch.family == "matmul") terms = {"M", "N", "P", "j", "k", "l", "Width"};
    else if (launch.family == "conv1d") terms = {"N", "P", "Mask_Width", "Width"};
    else if (launch.family == "conv2d") terms = {"N", "P", "Mask_Width", "height", "width"};
    else {
        std::string names = launch.arrays + "," + launch.sizes;
        // "in A[n], out C[n]" and "n = 1000": the words before '[' or '='.
        std::istringstream in(names);
        for (std::string part; std::getline(in, part, ',');) {
            std::string w = part.substr(0, part.find_first_of("[="));
            std::istringstream words(w);
            std::string last;
            for (std::string x; words >> x;) last = x;
            if (!last.empty()) terms.push_back(last);
        }
    }
    std::istringstream in(args);
    int position = 0;
    for (std::string entry; std::getline(in, entry, ',');) {
        ++position;
        if (const size_t eq = entry.find('='); eq != std::string::npos) entry = entry.substr(eq + 1);
        const size_t b = entry.find_first_not_of(" \t"), e = entry.find_last_not_of(" \t");
        entry = b == std::string::npos ? "" : entry.substr(b, e - b + 1);
        if (std::find(terms.begin(), terms.end(), entry) == terms.end()) {
            std::string list;
            for (const std::string& x : terms) list += (list.empty() ? "" : ", ") + x;
            fail(file, n, "args: argument " + std::to_string(position) + " ('" + entry.substr(0, 40) +
                              "') is not a term of a " + launch.family + " problem; the terms are " + list + ".");
        }
    }
}

}  // namespace

double ExercisePoints::of(const std::string& checkName) const
{
    const std::string kind = checkName.substr(0, checkName.find_first_of("0123456789") == std::string::npos
                                                     ? std::string::npos
                                                     : checkName.rfind(' ', checkName.find_first_of("0123456789")));
    if (kind == "compiles") return compiles;
    if (kind == "tiled") return tiled;
    if (kind == "runs") return runs;
    if (kind == "barriers") return barriers;
    if (kind == "correct") return correct;
    if (kind == "no races") return noRaces;
    if (kind == "initialised shared") return initialisedShared;
    if (kind == "coalesced") return coalesced;
    if (kind.rfind("one thread per", 0) == 0) return onePer;
    if (kind == "thread coarsening") return threadCoarsening;
    if (kind == "convergent") return convergent;
    if (kind == "atomics per block") return atomicsPerBlock;
    if (kind == "work") return work;
    if (kind == "gpu") return gpu;
    return 1;
}

std::string ExerciseSize::text(const std::string& family) const
{
    if (family == "matmul") return std::to_string(j) + "x" + std::to_string(k) + "x" + std::to_string(l);
    if (family == "conv2d" || twoD) return std::to_string(height) + "x" + std::to_string(width);
    return std::to_string(width);
}

Exercise parseExercise(const std::string& content, const std::string& path)
{
    const toml::table t = parseToml(content, path);
    if (t.empty()) failFile(path, "the file has no keys; an exercise needs title, pmpp, statement, starter, reference, sizes (or grading) and [launch].");
    onlyKnownKeys(path, t, kKeys, "");
    Exercise x;
    x.path = path;
    x.name = fs::path(path).stem().string();
    x.title = requiredString(path, t, "title", t);
    x.section = requiredString(path, t, "pmpp", t);
    x.statement = requiredString(path, t, "statement", t);
    if (const toml::node* code = t.get("starter_code")) {
        // The starter in the exercise file itself: written once into the cache, where the
        // app copies it from and the grader reads it, as it would a file beside this one.
        if (t.get("starter")) fail(path, *code, "give starter (a file beside this one) or starter_code, not both.");
        const std::string text = requiredString(path, t, "starter_code", t);
        if (text.size() > (1u << 16)) fail(path, *code, "starter_code is over 64 KiB; a starter is a short kernel file.");
        const fs::path dir = fs::path(defaultCacheDir()) / "starters";
        x.starter = (dir / (x.name + ".cu")).string();
        std::error_code ec;
        fs::create_directories(dir, ec);
        std::ifstream had(x.starter, std::ios::binary);
        const std::string before((std::istreambuf_iterator<char>(had)), std::istreambuf_iterator<char>());
        if (before != text) {
            const std::string tmp = x.starter + ".tmp" + std::to_string(::getpid());
            std::ofstream(tmp, std::ios::binary) << text;
            fs::rename(tmp, x.starter, ec);
        }
        if (!fs::is_regular_file(x.starter, ec))
            fail(path, *code, "the starter could not be written to " + x.starter + " (the kernel cache).");
    } else {
        const std::string starter = requiredString(path, t, "starter", t);
        x.starter = (fs::path(path).parent_path() / starter).string();
        if (std::error_code ec; !fs::is_regular_file(x.starter, ec))
            fail(path, *t.get("starter"), "the starter file " + x.starter + " does not exist; it must lie beside the exercise file.");
    }
    // An array exercise's reference is its formula ([launch] formula); the others name a kernel.
    const toml::node* launchNode = t.get("launch");
    const bool arrayFamily = launchNode && launchNode->as_table() && launchNode->as_table()->get("family") &&
                             launchNode->as_table()->get("family")->value<std::string>() == std::string("array");
    x.reference = arrayFamily ? optionalString(path, t, "reference") : requiredString(path, t, "reference", t);
    // An array exercise may take its problem from a described registry row (PMPP's stencil).
    const sim::KernelInfo* described = arrayFamily && !x.reference.empty() ? sim::findKernel(x.reference) : nullptr;
    if (described && (described->family != sim::Family::Array || !*described->arrays)) described = nullptr;
    if (arrayFamily && !x.reference.empty() && !described)
        fail(path, *t.get("reference"), "an array exercise's reference is its [launch] formula, or a registry kernel that "
                                        "describes its problem (stencil-basic); '" + x.reference + "' is neither.");
    const sim::KernelInfo* ref = arrayFamily ? described : sim::findKernel(x.reference);
    if (!ref && !arrayFamily) fail(path, *t.get("reference"), "reference names no kernel of TileScope's ('" + x.reference + "'); `tilescope-cli list-kernels` lists them.");

    const toml::node* launch = t.get("launch");
    if (!launch || !launch->as_table())
        fail(path, launch ? *launch : static_cast<const toml::node&>(t),
             "a [launch] table with at least family = \"matmul\", \"conv1d\" or \"conv2d\" is required.");
    const toml::table& l = *launch->as_table();
    onlyKnownKeys(path, l, kLaunchKeys, " in [launch]");
    x.launch.family = requiredString(path, l, "family", l);
    if (x.launch.family != "matmul" && x.launch.family != "conv1d" && x.launch.family != "conv2d" && x.launch.family != "array")
        fail(path, *l.get("family"), "family must be \"matmul\", \"conv1d\", \"conv2d\" or \"array\"; got \"" + x.launch.family + "\".");
    const sim::Family refFamily = x.launch.family == "matmul"   ? sim::Family::Matmul
                                  : x.launch.family == "conv1d" ? sim::Family::Conv1D
                                                                : sim::Family::Conv2D;
    x.launch.arrays = optionalString(path, l, "arrays");
    x.launch.sizes = optionalString(path, l, "sizes");
    x.launch.reference = optionalString(path, l, "formula");
    if (described) {
        // The row's description, unless the exercise states its own.
        for (auto [field, key, text] : {std::tuple{&x.launch.arrays, "arrays", described->arrays},
                                        std::tuple{&x.launch.sizes, "sizes", described->sizes},
                                        std::tuple{&x.launch.reference, "formula", described->formula}})
            if (!l.get(key)) *field = text;
    }
    if (arrayFamily) {
        for (const char* key : {"arrays", "sizes", "formula", "grid", "block"})
            if (!l.get(key) && !(described && std::string(key) != "grid" && std::string(key) != "block"))
                fail(path, l, std::string("an array exercise's [launch] gives arrays, sizes, formula, grid and block; ") + key + " is missing.");
        // The problem is the exercise's: a formula that cannot be read (an unknown function)
        // fails here, on its line, before any student's file is graded against it.
        if (const std::optional<ArrayProblemFault> bad = checkArrayProblem(x.launch.arrays, x.launch.sizes, x.launch.reference))
            fail(path, *l.get(bad->key), bad->message + ".");
    } else if (!x.launch.arrays.empty() || !x.launch.sizes.empty() || !x.launch.reference.empty()) {
        fail(path, l, "arrays, sizes and formula in [launch] apply to the array family only.");
    }
    if (ref && !described && ref->family != refFamily)
        fail(path, *t.get("reference"), "the reference kernel " + x.reference + " solves another problem than family \"" +
                                            x.launch.family + "\".");
    x.launch.grid = optionalString(path, l, "grid");
    x.launch.block = optionalString(path, l, "block");
    x.launch.nLayout = optionalString(path, l, "n_layout");
    if (!x.launch.nLayout.empty() && x.launch.nLayout != "row-major" && x.launch.nLayout != "column-major")
        fail(path, *l.get("n_layout"), "n_layout must be \"row-major\" or \"column-major\"; got \"" + x.launch.nLayout + "\".");
    if (!x.launch.nLayout.empty() && x.launch.family != "matmul")
        fail(path, *l.get("n_layout"), "n_layout applies to the matmul family only.");
    if (x.launch.grid.empty() != x.launch.block.empty())
        fail(path, l, "give both grid and block in [launch], or neither (the family's default launch).");
    x.launch.args = optionalString(path, l, "args");
    if (const toml::node* a = l.get("args"); a && x.launch.args.empty()) fail(path, *a, "args must not be empty; leave it out to bind by name.");
    if (!x.launch.args.empty()) checkArgs(path, *l.get("args"), x.launch.args, x.launch);

    x.tile = optionalInt(path, t, "tile", 0, 1, 1024);
    x.maskWidth = optionalInt(path, t, "mask_width", 5, 1, 9);
    if (t.get("mask_width") && x.launch.family == "matmul") fail(path, *t.get("mask_width"), "mask_width applies to convolution exercises only.");
    if (x.maskWidth % 2 == 0) fail(path, *t.get("mask_width"), "mask_width must be odd (a centre and equal halves).");

    // The hidden sizes (and the points): in a grading file of their own, which students need
    // not be shown, else in this file.
    const size_t arraySizes = static_cast<size_t>(std::count(x.launch.sizes.begin(), x.launch.sizes.end(), ',')) + 1;
    const toml::node* sizes = t.get("sizes");
    const toml::node* grading = t.get("grading");
    if (described && (sizes || grading))
        fail(path, sizes ? *sizes : *grading, "an exercise on the described kernel " + x.reference +
                                              " is graded at the sizes verify runs it at; it gives no sizes of its own.");
    if (sizes && grading) fail(path, *sizes, "the hidden sizes are either here or in the grading file " + optionalString(path, t, "grading") + ", not both.");
    if (const toml::node* p = t.get("points")) {
        if (grading) fail(path, *p, "the points are in the grading file when there is one.");
        parsePoints(path, *p, x.points);
    }
    if (grading) {
        const std::string relative = optionalString(path, t, "grading");
        if (relative.empty() || fs::path(relative).is_absolute())
            fail(path, *grading, "grading is the path of the grading file, relative to this one (\"grading/" + x.name + ".toml\").");
        x.gradingFile = (fs::path(path).parent_path() / relative).string();
        if (std::error_code ec; !fs::is_regular_file(x.gradingFile, ec))
            fail(path, *grading, "the grading file " + x.gradingFile + " does not exist.");
        const std::string g = x.gradingFile;
        const toml::table gt = parseToml(readSmallFile(g, "a grading file"), g);
        onlyKnownKeys(g, gt, kGradingKeys, "");
        const toml::node* hidden = gt.get("sizes");
        if (!hidden) failFile(g, "the key sizes is missing; add the hidden test sizes, e.g. sizes = [[33, 17, 45], [64, 64, 64]].");
        x.sizes = parseSizes(g, *hidden, x.launch.family, arraySizes);
        if (const toml::node* p = gt.get("points")) parsePoints(g, *p, x.points);
    } else if (sizes) {
        x.sizes = parseSizes(path, *sizes, x.launch.family, arraySizes);
    } else if (described) {
        // An exercise on a described row is run at the sizes `verify` runs that row at
        // (sim::agreementCases: multiples of each block edge and sizes that are not, and 1),
        // within the row's limits: no file of sizes to keep from the students.
        std::mt19937 rng(1);
        std::set<std::pair<int, int>> seen;
        auto add = [&](int height, int width) {
            if (!seen.insert({height, width}).second) return;
            ExerciseSize z;
            z.twoD = arraySizes == 2;
            z.height = z.twoD ? height : 1;
            z.width = width;
            x.sizes.push_back(z);
        };
        for (const sim::Scenario& c : sim::agreementCases(*described, rng, true)) add(c.height, c.width);
        add(1, 1);
    } else {
        failFile(path, "the key sizes is missing; add the hidden test sizes, e.g. sizes = [[33, 17, 45], [64, 64, 64]], or a grading file (grading = \"grading/" + x.name + ".toml\").");
    }
    if (const toml::node* p = t.get("public_size")) x.publicSize = parseSize(path, *p, x.launch.family, arraySizes);

    if (const toml::node* c = t.get("checks")) {
        const auto* ct = c->as_table();
        if (!ct) fail(path, *c, "checks must be a [checks] table.");
        onlyKnownKeys(path, *ct, kCheckKeys, " in [checks]");
        x.checks.tiled = optionalBool(path, *ct, "tiled");
        x.checks.coalesced = optionalBool(path, *ct, "coalesced");
        x.checks.onePer = optionalString(path, *ct, "one_per");
        if (!x.checks.onePer.empty() && x.checks.onePer != "row" && x.checks.onePer != "column")
            fail(path, *ct->get("one_per"), "one_per must be \"row\" or \"column\"; got \"" + x.checks.onePer + "\".");
        x.checks.minOutputsPerThread = optionalInt(path, *ct, "min_outputs_per_thread", 0, 0, 64);
        x.checks.convergent = optionalBool(path, *ct, "convergent");
        x.checks.atomicsPerBlock = optionalInt(path, *ct, "atomics_per_block", 0, 0, 1024);
        if (const int most = optionalInt(path, *ct, "atomics_per_block_at_most", 0, 0, 1024); most > 0) {
            if (x.checks.atomicsPerBlock > 0)
                fail(path, *ct->get("atomics_per_block_at_most"), "give atomics_per_block (exact) or atomics_per_block_at_most, not both.");
            x.checks.atomicsPerBlock = most;
            x.checks.atomicsAtMost = true;
        }
        x.checks.addsAtMost = optionalInt(path, *ct, "adds_at_most", 0, 0, 1 << 30);
        if ((!x.checks.onePer.empty() || x.checks.coalesced) && x.launch.family != "matmul")
            fail(path, *c, "one_per and coalesced apply to matmul exercises only.");
    }
    return x;
}

Exercise loadExercise(const std::string& path)
{
    return parseExercise(readSmallFile(path, "an exercise file"), path);
}

std::string exerciseDirectory()
{
    return (fs::path(sim::presetDirectory()).parent_path() / "exercises").string();
}

std::vector<Exercise> listExercises()
{
    const std::string dir = exerciseDirectory();
    std::error_code ec;
    if (!fs::is_directory(dir, ec))
        throw ExerciseError("The exercise folder " + dir + " does not exist; set TILESCOPE_ASSETS to the folder that holds exercises/.");
    std::vector<std::string> paths;
    for (const fs::directory_entry& e : fs::directory_iterator(dir))
        if (e.path().extension() == ".toml") paths.push_back(e.path().string());
    // By name: "tiled-matmul" before "tiled-matmul-boundary" (the paths would sort '.' after '-').
    std::sort(paths.begin(), paths.end(),
              [](const std::string& a, const std::string& b) { return fs::path(a).stem() < fs::path(b).stem(); });
    std::vector<Exercise> out;
    for (const std::string& p : paths) out.push_back(loadExercise(p));
    return out;
}

Exercise findExercise(const std::string& nameOrPath)
{
    if (nameOrPath.find('/') != std::string::npos || fs::path(nameOrPath).extension() == ".toml")
        return loadExercise(nameOrPath);
    const fs::path shipped = fs::path(exerciseDirectory()) / (nameOrPath + ".toml");
    if (std::error_code ec; fs::is_regular_file(shipped, ec)) return loadExercise(shipped.string());
    std::string known;
    std::error_code ec;
    std::set<std::string> names;
    for (fs::directory_iterator it(exerciseDirectory(), ec), end; !ec && it != end; it.increment(ec))
        if (it->path().extension() == ".toml") names.insert(it->path().stem().string());
    for (const std::string& n : names) known += (known.empty() ? "" : ", ") + n;
    throw ExerciseError("There is no exercise '" + nameOrPath + "'; the exercises are " +
                        (known.empty() ? std::string("(none found in ") + exerciseDirectory() + ")" : known) +
                        ", or give the path of a .toml file.");
}

}  // namespace ts::student
