// Saved translations (frontend/translation_file.hpp), one JSON file per kernel file text.
#include "frontend/translation_file.hpp"

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

namespace ts::student {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

/// Bumped when the fields below change; a file of another version is refused, not misread.
constexpr int kFormat = 1;

const char* kindName(KernelParam::Kind k)
{
    return k == KernelParam::Kind::FloatPointer ? "float*" : k == KernelParam::Kind::ConstFloatPointer ? "const float*" : "int";
}

}  // namespace

std::string textHash(const std::string& text)
{
    uint64_t h = 1469598103934665603ull;
    for (unsigned char c : text) h = (h ^ c) * 1099511628211ull;
    char buf[17];
    std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(h));
    return buf;
}

std::string translationPath(const std::string& dir, const std::string& source)
{
    return (fs::path(dir) / (textHash(source) + ".json")).string();
}

std::string saveTranslation(const Translation& t, const std::string& source, const std::string& fileName,
                            const std::string& dir)
{
    if (!t.ok()) return "the translation of " + fileName + " has errors, so it is not saved";
    json j;
    j["tilescope_translation"] = kFormat;
    j["file"] = fileName;
    j["source_hash"] = textHash(source);
    j["kernel_name"] = t.kernelName;
    j["code"] = t.code;
    j["params"] = json::array();
    for (const KernelParam& p : t.params) j["params"].push_back({{"name", p.name}, {"kind", kindName(p.kind)}, {"line", p.line}, {"element", p.element}});
    j["shared"] = json::array();
    for (const SharedArray& a : t.shared) j["shared"].push_back({{"name", a.name}, {"extents", a.extents}, {"line", a.line}});
    j["constants"] = json::array();
    for (const SharedArray& a : t.constants) j["constants"].push_back({{"name", a.name}, {"extents", a.extents}, {"line", a.line}});
    j["helpers"] = t.helpers;
    j["defines"] = json::array();
    for (const auto& [name, value] : t.defines) j["defines"].push_back({{"name", name}, {"value", value}});
    j["barrier_lines"] = t.barrierLines;
    j["locals"] = json::array();
    for (const LocalArray& a : t.locals) j["locals"].push_back({{"name", a.name}, {"bytes", a.bytes}, {"line", a.line}});
    j["local_bytes"] = t.localBytes;
    std::error_code ec;
    fs::create_directories(dir, ec);
    if (ec) return "cannot create the folder " + dir + ": " + ec.message();
    const std::string path = translationPath(dir, source);
    std::ofstream f(path, std::ios::binary | std::ios::trunc);
    if (!(f << j.dump(1) << "\n") || !f.flush()) return "cannot write " + path;
    return {};
}

std::optional<Translation> loadTranslation(const std::string& source, const std::string& dir, std::string& error)
{
    error.clear();
    const std::string path = translationPath(dir, source);
    std::error_code ec;
    if (!fs::exists(path, ec)) return std::nullopt;
    std::ifstream f(path, std::ios::binary);
    std::ostringstream text;
    text << f.rdbuf();
    if (!f) {
        error = "cannot read the saved translation " + path;
        return std::nullopt;
    }
    try {
        const json j = json::parse(text.str());
        if (j.at("tilescope_translation").get<int>() != kFormat) {
            error = "the saved translation " + path + " was written by another TileScope (format " +
                    j.at("tilescope_translation").dump() + ", this one reads " + std::to_string(kFormat) +
                    "): translate the file again";
            return std::nullopt;
        }
        if (j.at("source_hash").get<std::string>() != textHash(source)) {
            error = "the saved translation " + path + " belongs to another text (its source_hash differs)";
            return std::nullopt;
        }
        Translation t;
        t.kernelName = j.at("kernel_name").get<std::string>();
        t.code = j.at("code").get<std::string>();
        for (const json& p : j.at("params")) {
            KernelParam k;
            k.name = p.at("name").get<std::string>();
            const std::string kind = p.at("kind").get<std::string>();
            if (kind == "float*") k.kind = KernelParam::Kind::FloatPointer;
            else if (kind == "const float*") k.kind = KernelParam::Kind::ConstFloatPointer;
            else if (kind == "int") k.kind = KernelParam::Kind::Int;
            else {
                error = "the saved translation " + path + " names an unknown parameter kind '" + kind + "'";
                return std::nullopt;
            }
            k.line = p.at("line").get<unsigned>();
            k.element = p.value("element", std::string("float"));
            if (k.element != "float" && k.element != "int" && k.element != "unsigned int" && k.element != "char") {
                error = "the saved translation " + path + " names an unknown element type '" + k.element + "'";
                return std::nullopt;
            }
            t.params.push_back(k);
        }
        for (const json& a : j.at("shared"))
            t.shared.push_back(SharedArray{a.at("name").get<std::string>(), a.at("extents").get<std::vector<long long>>(),
                                           a.at("line").get<unsigned>()});
        for (const json& a : j.at("constants"))
            t.constants.push_back(SharedArray{a.at("name").get<std::string>(), a.at("extents").get<std::vector<long long>>(),
                                              a.at("line").get<unsigned>()});
        t.helpers = j.at("helpers").get<std::vector<std::string>>();
        for (const json& d : j.at("defines"))
            t.defines.emplace_back(d.at("name").get<std::string>(), d.at("value").get<long long>());
        t.barrierLines = j.at("barrier_lines").get<std::vector<unsigned>>();
        // The local arrays (a fiber stack's size): absent from translations saved before them.
        if (j.contains("locals"))
            for (const json& a : j.at("locals"))
                t.locals.push_back(LocalArray{a.at("name").get<std::string>(), a.at("bytes").get<uint64_t>(), a.at("line").get<unsigned>()});
        if (j.contains("local_bytes")) t.localBytes = j.at("local_bytes").get<uint64_t>();
        return t;
    } catch (const json::exception& e) {
        error = "the saved translation " + path + " is malformed: " + e.what();
        return std::nullopt;
    }
}

std::string savedTranslationsDir()
{
    const char* d = std::getenv("TILESCOPE_TRANSLATIONS");
    return d ? d : "";
}

}  // namespace ts::student
