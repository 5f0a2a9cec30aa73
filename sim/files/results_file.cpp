#include "sim/files/results_file.hpp"

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <nlohmann/json.hpp>

#include "sim/catalogue/kernel_info.hpp"
#include "sim/files/scenario_file.hpp"

namespace ts::sim {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

/// The deepest nesting of arrays and objects a results file may have (a bench file has 3).
constexpr int kMaxDepth = 32;

[[noreturn]] void fail(const std::string& path, const std::string& problem)
{
    throw ResultsFileError(path + ": " + problem);
}

/// What a JSON value is, for "got ..." in a message: `the string "fast"`, `the number 3`.
std::string described(const json& v)
{
    std::string shown = v.dump();
    if (shown.size() > 40) shown = shown.substr(0, 37) + "...";
    switch (v.type()) {
    case json::value_t::string: return "the string " + shown;
    case json::value_t::boolean: return "the boolean " + shown;
    case json::value_t::null: return "null";
    case json::value_t::array: return "an array";
    case json::value_t::object: return "an object";
    default: return "the number " + shown;
    }
}

/// The deepest nesting of [ and { outside strings in `text`.
int nestingDepth(std::string_view text)
{
    int depth = 0, deepest = 0;
    bool inString = false, escaped = false;
    for (const char c : text) {
        if (inString) {
            if (escaped) escaped = false;
            else if (c == '\\') escaped = true;
            else if (c == '"') inString = false;
        } else if (c == '"') {
            inString = true;
        } else if (c == '[' || c == '{') {
            deepest = std::max(deepest, ++depth);
        } else if (c == ']' || c == '}') {
            --depth;
        }
    }
    return deepest;
}

/// Reads the members of one object of the file; `where` names it ("results[2]") in messages.
class Reader {
public:
    Reader(const json& object, std::string path, std::string where)
        : o_(object), path_(std::move(path)), where_(std::move(where))
    {
    }

    bool has(const char* key) const { return o_.contains(key); }

    std::string name(const char* key) const { return where_.empty() ? key : where_ + "." + key; }

    const json& at(const char* key) const
    {
        if (!o_.contains(key)) fail(path_, "has no \"" + name(key) + "\"" + hint(key) + ".");
        return o_.at(key);
    }

    std::string text(const char* key, bool required) const
    {
        if (!required && !has(key)) return {};
        const json& v = at(key);
        if (!v.is_string()) fail(path_, name(key) + " must be a string; got " + described(v) + ".");
        return v.get<std::string>();
    }

    /// A number above `above` (or at least it, with `orEqual`).
    std::optional<double> number(const char* key, bool required, double above, bool orEqual) const
    {
        if (!required && !has(key)) return std::nullopt;
        const json& v = at(key);
        if (!v.is_number()) fail(path_, name(key) + " must be a number; got " + described(v) + ".");
        const double d = v.get<double>();
        if (!std::isfinite(d) || (orEqual ? d < above : d <= above))
            fail(path_, name(key) + " must be a number " + (orEqual ? "of at least " : "above ") + trimmed(above) +
                            "; got " + v.dump() + ".");
        return d;
    }

    /// A whole number of at least `least` (1 or 0, and at most 2^31 - 1).
    std::optional<int> count(const char* key, bool required, int least = 1) const
    {
        if (!required && !has(key)) return std::nullopt;
        const json& v = at(key);
        const bool whole = v.is_number_integer() || (v.is_number_float() && std::isfinite(v.get<double>()) &&
                                                     std::floor(v.get<double>()) == v.get<double>());
        if (!whole) fail(path_, name(key) + " must be a whole number; got " + described(v) + ".");
        const double d = v.get<double>();
        if (d < least || d > 2147483647.0)
            fail(path_, name(key) + " must be at least " + std::to_string(least) + "; got " + v.dump() + ".");
        return static_cast<int>(d);
    }

private:
    static std::string trimmed(double v)
    {
        char b[32];
        std::snprintf(b, sizeof b, "%g", v);
        return b;
    }

    std::string hint(const char* key) const
    {
        if (std::strcmp(key, "results") == 0) return " (the timings; tilescope-cli bench --json --out FILE writes them)";
        if (std::strcmp(key, "device") == 0) return " (the GPU the timings were measured on)";
        return "";
    }

    const json& o_;
    std::string path_, where_;
};

/// Is `kernel` one whose params must be j, k, l and tile (a matrix multiplication)?
bool matmulKernel(const std::string& kernel)
{
    if (kernel == "cublas") return true;
    const KernelInfo* k = findKernel(kernel);
    return k && k->family == Family::Matmul;
}

ResultEntry readResult(const json& v, const std::string& path, size_t index)
{
    const std::string where = "results[" + std::to_string(index) + "]";
    if (!v.is_object()) fail(path, where + " must be an object (kernel, params, gflops, ...); got " + described(v) + ".");
    const Reader r(v, path, where);
    ResultEntry e;
    e.kernel = r.text("kernel", true);
    if (e.kernel.empty()) fail(path, where + ".kernel is empty; it names the kernel timed (\"matmul-tiled\", \"cublas\").");
    const json& params = r.at("params");
    if (!params.is_object()) fail(path, where + ".params must be an object; got " + described(params) + ".");
    const Reader p(params, path, where + ".params");
    // A matrix multiplication's sizes are required; another kernel's are read where present.
    const bool matmul = matmulKernel(e.kernel);
    if (matmul || p.has("j") || p.has("k") || p.has("l")) {
        e.j = p.count("j", true);
        e.k = p.count("k", true);
        e.l = p.count("l", true);
        e.tile = p.count("tile", true);
    }
    e.gflops = *r.number("gflops", true, 0, true);
    e.msMedian = r.number("ms_median", false, 0, false);
    e.percentOfCublas = r.number("percent_of_cublas", false, 0, true);
    e.registers = r.count("registers", false);
    e.staticSharedBytes = r.count("static_shared_bytes", false, 0);
    e.dramBytes = r.number("dram_bytes", false, 0, false);
    return e;
}

}  // namespace

ResultsFileError::ResultsFileError(const std::string& message) : std::runtime_error(oneLine(message)) {}

std::string ResultsFile::measuredOn() const
{
    std::string s = "measured on " + device;
    if (!driver.empty()) s += ", driver " + driver;
    if (!date.empty()) s += ", " + date.substr(0, 10);
    return s;
}

ResultsFile parseResultsText(std::string_view text, const std::string& path)
{
    if (text.find_first_not_of(" \t\r\n") == std::string_view::npos)
        fail(path, "is empty; a results file is the JSON object that tilescope-cli bench --json --out FILE writes.");
    if (text.size() > kMaxResultsBytes)
        fail(path, "is larger than " + std::to_string(kMaxResultsBytes >> 20) + " MiB; a results file is a few KB of JSON.");
    if (nestingDepth(text) > kMaxDepth)
        fail(path, "nests arrays and objects more than " + std::to_string(kMaxDepth) +
                       " deep; a results file is an object of timings.");
    json doc;
    try {
        doc = json::parse(text);
    } catch (const json::parse_error& e) {
        // nlohmann's message without its "[json.exception.parse_error.101] " prefix.
        std::string why = e.what();
        if (const size_t p = why.find("] "); p != std::string::npos) why = why.substr(p + 2);
        while (!why.empty() && (why.back() == '.' || why.back() == ' ')) why.pop_back();
        fail(path, "is not valid JSON (" + why + ").");
    }
    if (!doc.is_object())
        fail(path, "must hold one JSON object with \"device\" and \"results\"; got " + described(doc) + ".");
    const Reader top(doc, path, "");
    ResultsFile f;
    f.path = path;
    f.device = top.text("device", true);
    if (f.device.empty()) fail(path, "device is empty; it names the GPU the timings were measured on.");
    f.computeCapability = top.text("compute_capability", false);
    f.driver = top.text("driver", false);
    f.date = top.text("date", false);
    f.peakFp32Gflops = top.number("peak_fp32_gflops", false, 0, false);
    f.copyGbytesPerS = top.number("copy_gbytes_per_s", false, 0, false);
    const json& results = top.at("results");
    if (!results.is_array()) fail(path, "results must be an array of timings; got " + described(results) + ".");
    if (results.empty()) fail(path, "results is empty; a results file holds at least one timing.");
    for (size_t i = 0; i < results.size(); ++i) f.results.push_back(readResult(results[i], path, i));
    return f;
}

void writeResourceKeys(const ResultEntry& e, nlohmann::ordered_json& result)
{
    if (e.registers) result["registers"] = *e.registers;
    if (e.staticSharedBytes) result["static_shared_bytes"] = *e.staticSharedBytes;
}

std::string resultsDirectory() { return (fs::path(presetDirectory()).parent_path() / "results").string(); }

ResultsFile loadResultsFile(const std::string& given)
{
    std::error_code ec;
    std::string path = given;
    if (given.empty()) fail("(no path)", "give the path of a results file (tilescope-cli bench --json --out FILE writes one).");
    // A bare name: a committed results file.
    if (!fs::exists(path, ec) && given.find('/') == std::string::npos) {
        for (const std::string& name : {given, given + ".json"}) {
            const fs::path p = fs::path(resultsDirectory()) / name;
            if (fs::is_regular_file(p, ec)) {
                path = p.string();
                break;
            }
        }
    }
    if (fs::is_directory(path, ec))
        fail(path, "is a folder, not a results file; give the path of a .json file (the committed ones are in " +
                       resultsDirectory() + ").");
    std::FILE* file = std::fopen(path.c_str(), "rb");
    if (!file) fail(path, std::string("cannot be opened (") + std::strerror(errno) + ").");
    // Read with stdio: a failed read (EIO) is an error, not a short file.
    std::string content;
    char buf[1 << 16];
    size_t n = 0;
    while ((n = std::fread(buf, 1, sizeof buf, file)) > 0 && content.size() <= kMaxResultsBytes) content.append(buf, n);
    const int err = errno;
    const bool failed = std::ferror(file) != 0;
    std::fclose(file);
    if (failed) fail(path, std::string("cannot be read (") + std::strerror(err) + ").");
    return parseResultsText(content, path);
}

}  // namespace ts::sim
