// A student's kernel as plain data (student/kernel_description.hpp).
#include "student/kernel_description.hpp"

#include <nlohmann/json.hpp>

#include "sim/catalogue/loaded_kernels.hpp"
#include "sim/catalogue/scenario.hpp"
#include "sim/engine/fiber.hpp"
#include "sim/engine/loaded_binding.hpp"

namespace ts::student {

using nlohmann::json;

sim::Variables launchVariables(const std::vector<std::pair<std::string, long long>>& defines, const sim::Scenario& s,
                               sim::Family family, const sim::ArraySpec* spec)
{
    sim::Variables v;
    for (const auto& [name, value] : defines) v[name] = value;
    if (family == sim::Family::Array) {
        if (spec)
            for (const auto& [name, value] : spec->sizeValues(s)) v[name] = value;
    } else if (family == sim::Family::Matmul) {
        v["j"] = s.j, v["k"] = s.k, v["l"] = s.l;
        v["Width"] = v["width"] = v["n"] = s.j;
    } else {
        v["Width"] = v["width"] = s.width;
        v["height"] = v["Height"] = s.height;
        v["Mask_Width"] = s.maskWidth;
    }
    return v;
}

size_t stackBytesFor(unsigned long long localBytes)
{
    const size_t base = sim::kFiberStackBytes;
    if (localBytes <= base / 4) return 0;
    constexpr size_t page = 4096;
    return (base + static_cast<size_t>(localBytes) + page - 1) / page * page;
}

const sim::KernelInfo* registerDescription(const KernelDescription& d)
{
    sim::LoadedKernelInfo info;
    info.name = d.name;
    info.family = d.family;
    info.nColumnMajor = d.nColumnMajor;
    info.maskCapacity = d.maskCapacity;
    info.arrays = d.arrays;
    info.sourceFile = d.sourceFile;
    info.source = d.source;
    info.summary = d.summary;
    info.barriersPerPhase = d.barriersPerPhase;
    info.square = d.square;
    info.atomics = d.atomics;
    info.tiles = d.tiles;
    info.maxBlockEdge = d.maxBlockEdge;
    info.stackBytes = d.stackBytes;
    info.labels = d.labels;
    for (Role r : d.roles) info.paramRoles.push_back(static_cast<int>(r));
    if (!d.gridExpr.empty())
        info.launch = [gridExpr = d.gridExpr, blockExpr = d.blockExpr, defines = d.defines, family = d.family,
                       spec = d.arrays](const sim::Scenario& s, sim::LaunchShape& shape) -> std::string {
            const sim::Variables v = launchVariables(defines, s, family, spec.get());
            unsigned dims[2][3] = {{1, 1, 1}, {1, 1, 1}};
            const char* axis = "xyz";
            for (int which = 0; which < 2; ++which) {
                const std::vector<std::string>& exprs = which == 0 ? gridExpr : blockExpr;
                for (size_t i = 0; i < exprs.size() && i < 3; ++i) {
                    const sim::Evaluation ev = sim::evaluate(exprs[i], v);
                    const std::string& e = exprs[i];
                    const std::string quoted = e.size() <= 80 ? e : e.substr(0, 60) + "... (" + std::to_string(e.size()) + " characters)";
                    const std::string what = std::string("the launch's ") + (which == 0 ? "grid" : "block") + " " + axis[i] + ", " + quoted;
                    if (!ev.value) return "Cannot evaluate " + what + ": " + (ev.error.size() <= 120 ? ev.error : ev.error.substr(0, 100) + "...");
                    if (*ev.value < 1 || *ev.value > (which == 0 ? 65535ll * 32768 : 1024ll))
                        return "The value of " + what + ", is " + std::to_string(*ev.value) + " for this problem; it must be between 1 and " +
                               (which == 0 ? std::string("2^31 - 1") : std::string("1024")) + ".";
                    dims[which][i] = static_cast<unsigned>(*ev.value);
                }
            }
            shape.grid = sim::Dim3{dims[0][0], dims[0][1], dims[0][2]};
            shape.block = sim::Dim3{dims[1][0], dims[1][1], dims[1][2]};
            // One element of P per thread, as far as the views' tile grid goes.
            shape.pRows = shape.block.y;
            shape.pCols = shape.block.x;
            return "";
        };
    return sim::registerLoadedKernel(info);
}

void bindModule(const KernelDescription& d, BindFunction bind)
{
    // One launch's arguments by parameter position: an input declared without const gets a
    // writable pointer, as PMPP's `float* M` does.
    auto call = [roles = d.roles, kinds = d.paramKinds](const sim::GlobalPtr<float>& P, auto&& inputOf, auto&& valueOf) {
        KernelCall c;
        for (size_t i = 0; i < roles.size() && i < kinds.size() && i < static_cast<size_t>(KernelCall::kMaxParams); ++i) {
            if (kinds[i] == KernelParam::Kind::Int) c.value[i] = valueOf(roles[i]);
            else if (roles[i] == Role::P || roles[i] == Role::Out) c.output[i] = P;
            else if (kinds[i] == KernelParam::Kind::ConstFloatPointer) c.input[i] = inputOf(roles[i]);
            else c.output[i] = inputOf(roles[i]).writable();
        }
        return c;
    };
    auto bodyOf = [bind](const KernelCall& c) {
        std::function<void(sim::ThreadContext&)> body;
        bind(c, body);
        return body;
    };
    if (d.family == sim::Family::Array) {
        sim::setLoadedBinder(d.name, sim::ArrayBinder([call, bodyOf](const sim::ArrayArgs& a) {
            return bodyOf(call(a.out, [&](Role r) { return r == Role::In0 ? a.in[0] : a.in[1]; },
                               [&](Role r) { return r == Role::Size1 ? a.size[1] : a.size[0]; }));
        }));
    } else if (d.family == sim::Family::Conv1D || d.family == sim::Family::Conv2D) {
        sim::setLoadedBinder(d.name, sim::ConvBinder([call, bodyOf](const sim::ConvArgs<sim::ThreadContext>& a) {
            return bodyOf(call(a.P, [&](Role) { return a.N; },
                               [&](Role r) { return r == Role::MaskWidth ? a.maskWidth : r == Role::Height ? a.height : a.width; }));
        }));
    } else {
        sim::setLoadedBinder(d.name, sim::MatmulBinder([call, bodyOf](const sim::MatmulArgs<sim::ThreadContext>& a) {
            return bodyOf(call(a.P, [&](Role r) { return r == Role::M ? a.M : a.N; },
                               [&](Role r) { return r == Role::K ? a.k : r == Role::L ? a.l : a.j; }));
        }));
    }
}

json toJson(const KernelDescription& d)
{
    json j;
    j["name"] = d.name;
    j["family"] = static_cast<int>(d.family);
    j["source_file"] = d.sourceFile;
    j["source"] = d.source;
    j["summary"] = d.summary;
    j["tiles"] = d.tiles;
    j["max_block_edge"] = d.maxBlockEdge;
    j["barriers_per_phase"] = d.barriersPerPhase;
    j["square"] = d.square;
    j["atomics"] = d.atomics;
    j["n_column_major"] = d.nColumnMajor;
    j["mask_capacity"] = d.maskCapacity;
    j["stack_bytes"] = d.stackBytes;
    j["grid"] = d.gridExpr;
    j["block"] = d.blockExpr;
    j["defines"] = json::array();
    for (const auto& [name, value] : d.defines) j["defines"].push_back({name, value});
    std::vector<int> roles, kinds;
    for (Role r : d.roles) roles.push_back(static_cast<int>(r));
    for (KernelParam::Kind k : d.paramKinds) kinds.push_back(static_cast<int>(k));
    j["roles"] = roles;
    j["param_kinds"] = kinds;
    j["module"] = d.modulePath;
    j["labels"] = json::array();
    for (const auto& [simName, own] : d.labels) j["labels"].push_back({simName, own});
    if (d.arrays) {
        const sim::ArraySpec& a = *d.arrays;
        json arrays = json::array();
        // An integer input's range (`in input[N] = 1..8`) and an output's start (`out output[1] =
        // 0`) travel with the array: the runner fills the problem from this description.
        for (const sim::ArrayDecl& x : a.arrays)
            arrays.push_back({{"name", x.name}, {"output", x.output}, {"extents", x.extents}, {"lo", x.lo}, {"hi", x.hi},
                              {"has_start", x.hasStart}, {"start", x.start},
                              {"type", static_cast<int>(x.type)}});
        j["array_problem"] = {{"sizes", a.sizes}, {"defaults", a.defaults}, {"arrays", arrays}, {"reference", a.reference},
                              {"reference_line", a.referenceLine}, {"file", a.file}};
    }
    return j;
}

KernelDescription descriptionFromJson(const json& j)
{
    KernelDescription d;
    d.name = j.at("name").get<std::string>();
    const int family = j.at("family").get<int>();
    if (family < 0 || family > static_cast<int>(sim::Family::Array)) throw std::runtime_error("unknown family");
    d.family = static_cast<sim::Family>(family);
    d.sourceFile = j.at("source_file").get<std::string>();
    d.source = j.at("source").get<std::string>();
    d.summary = j.at("summary").get<std::string>();
    d.tiles = j.at("tiles").get<std::vector<int>>();
    d.maxBlockEdge = j.at("max_block_edge").get<int>();
    d.barriersPerPhase = j.at("barriers_per_phase").get<int>();
    d.square = j.at("square").get<bool>();
    d.atomics = j.at("atomics").get<bool>();
    d.nColumnMajor = j.at("n_column_major").get<bool>();
    d.maskCapacity = j.at("mask_capacity").get<int>();
    d.stackBytes = j.at("stack_bytes").get<size_t>();
    d.gridExpr = j.at("grid").get<std::vector<std::string>>();
    d.blockExpr = j.at("block").get<std::vector<std::string>>();
    for (const json& p : j.at("defines")) d.defines.emplace_back(p.at(0).get<std::string>(), p.at(1).get<long long>());
    for (int r : j.at("roles").get<std::vector<int>>()) {
        if (r < 0 || r > static_cast<int>(Role::Size1)) throw std::runtime_error("unknown role");
        d.roles.push_back(static_cast<Role>(r));
    }
    for (int k : j.at("param_kinds").get<std::vector<int>>()) {
        if (k < 0 || k > static_cast<int>(KernelParam::Kind::Int)) throw std::runtime_error("unknown parameter kind");
        d.paramKinds.push_back(static_cast<KernelParam::Kind>(k));
    }
    d.modulePath = j.at("module").get<std::string>();
    if (j.contains("labels"))
        for (const json& p : j.at("labels")) d.labels.emplace_back(p.at(0).get<std::string>(), p.at(1).get<std::string>());
    if (j.contains("array_problem")) {
        const json& a = j.at("array_problem");
        auto spec = std::make_shared<sim::ArraySpec>();
        spec->sizes = a.at("sizes").get<std::vector<std::string>>();
        spec->defaults = a.at("defaults").get<std::vector<int>>();
        for (const json& x : a.at("arrays")) {
            sim::ArrayDecl decl{x.at("name").get<std::string>(), x.at("output").get<bool>(),
                                x.at("extents").get<std::vector<std::string>>()};
            decl.lo = x.value("lo", 1);
            decl.hi = x.value("hi", 0);
            decl.hasStart = x.value("has_start", false);
            decl.start = x.value("start", 0.0f);
            const int type = x.value("type", 0);
            if (type < 0 || type > static_cast<int>(sim::ElementType::Char)) throw std::runtime_error("unknown element type");
            decl.type = static_cast<sim::ElementType>(type);
            spec->arrays.push_back(std::move(decl));
        }
        spec->reference = a.at("reference").get<std::string>();
        spec->referenceLine = a.at("reference_line").get<unsigned>();
        spec->file = a.at("file").get<std::string>();
        d.arrays = spec;
    }
    return d;
}

}  // namespace ts::student
