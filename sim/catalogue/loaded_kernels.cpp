// The registry of kernels loaded at run time (sim/catalogue/loaded_kernels.hpp).
#include "sim/catalogue/loaded_kernels.hpp"

#include "sim/catalogue/kernel_registry.hpp"
#include "sim/catalogue/scenario.hpp"
#include "sim/engine/array_spec_text.hpp"

#include <deque>
#include <map>
#include <memory>
#include <mutex>

namespace ts::sim {
namespace {

/// One registration: the owned strings and the entry that points into them.
struct Loaded {
    LoadedKernelInfo owned;
    KernelInfo info{};
    std::vector<ParamLimit> params;   ///< a convolution's limits, with its own mask capacity
    std::string maskWhy;
    std::vector<std::string> paramWhat;   ///< an array problem's size names as limits name them
};

std::mutex& lock()
{
    static std::mutex m;
    return m;
}
/// Every registration ever made, newest last; never shrinks, so entries stay valid.
std::deque<std::unique_ptr<Loaded>>& all()
{
    static std::deque<std::unique_ptr<Loaded>> d;
    return d;
}

}  // namespace

const KernelInfo* registerLoadedKernel(const LoadedKernelInfo& k)
{
    auto l = std::make_unique<Loaded>();
    l->owned = k;
    const LoadedKernelInfo& o = l->owned;
    l->info = KernelInfo{.name = o.name.c_str(), .family = o.family, .tiled = !o.tiles.empty(),
                         .untiled = o.name.c_str(), .sourceFile = o.sourceFile.c_str(),
                         .barriersPerPhase = o.barriersPerPhase, .summary = o.summary.c_str()};
    l->info.lecture = "your own kernel file";
    l->info.tiles = std::span<const int>(o.tiles.data(), o.tiles.size());
    l->info.maxBlockEdge = o.tiles.empty() ? o.maxBlockEdge : 0;
    if (o.family == Family::Matmul) {
        l->info.params = std::span<const ParamLimit>(registry::kMatmulParams);
    } else if (o.family == Family::Array) {
        // The sizes under the file's names: one is the scenario's width, two its height and width.
        const std::vector<std::string> names = o.arrays ? o.arrays->sizes : std::vector<std::string>{"n"};
        if (names.size() == 1) {
            l->paramWhat = {"A 1D array problem has one size, " + names[0] + ", so its height", "The size " + names[0]};
            l->params = {ParamLimit{ParamId::Height, l->paramWhat[0].c_str(), 1, 1},
                         ParamLimit{ParamId::Width, l->paramWhat[1].c_str(), 1, kMaxConvWidth1D}};
        } else {
            l->paramWhat = {"The size " + names[0] + " (--height)", "The size " + names[1] + " (--width)"};
            l->params = {ParamLimit{ParamId::Height, l->paramWhat[0].c_str(), 1, kMaxEdge},
                         ParamLimit{ParamId::Width, l->paramWhat[1].c_str(), 1, kMaxEdge}};
        }
        l->info.params = std::span<const ParamLimit>(l->params.data(), l->params.size());
    } else {
        // The built-in limits, with Mask_Width up to what the kernel's own mask array holds.
        const auto& base = o.family == Family::Conv1D ? std::span<const ParamLimit>(registry::kConv1DParams)
                                                      : std::span<const ParamLimit>(registry::kConv2DParams);
        l->params.assign(base.begin(), base.end());
        for (ParamLimit& p : l->params)
            if (p.id == ParamId::MaskWidth && o.maskCapacity > 0 && o.maskCapacity < p.max) {
                p.max = o.maskCapacity;
                l->maskWhy = " (your __constant__ mask array holds " + std::to_string(o.maskCapacity) + " per side)";
                p.why = l->maskWhy.c_str();
            }
        l->info.params = std::span<const ParamLimit>(l->params.data(), l->params.size());
    }
    // Without a launch of its own (a `grid = ...` header line, LoadedKernelInfo::launch) the
    // file is launched as PMPP launches its family: one thread per output element in square
    // blocks of the tile (or block edge), 1D blocks for a 1D convolution.
    if (o.family == Family::Matmul) {
        l->info.grid = "(l + TILE_WIDTH - 1) / TILE_WIDTH, (j + TILE_WIDTH - 1) / TILE_WIDTH";
        l->info.block = "TILE_WIDTH, TILE_WIDTH";
        l->info.blockOutput = "TILE_WIDTH, TILE_WIDTH";
    } else if (o.family == Family::Conv1D) {
        l->info.grid = "(width + TILE_SIZE - 1) / TILE_SIZE";
        l->info.block = "TILE_SIZE";
    } else if (o.family == Family::Conv2D) {
        l->info.grid = "(width + TILE_SIZE - 1) / TILE_SIZE, (height + TILE_SIZE - 1) / TILE_SIZE";
        l->info.block = "TILE_SIZE, TILE_SIZE";
    }
    l->info.nColumnMajor = o.nColumnMajor;
    l->info.stackBytes = o.stackBytes;
    if (!o.tiles.empty()) l->info.defaultTile = o.tiles.front();
    l->info.squareOnly = o.square;
    l->info.atomics = o.atomics;
    std::lock_guard<std::mutex> g(lock());
    all().push_back(std::move(l));
    return &all().back()->info;
}

const KernelInfo* findLoadedKernel(const std::string& name)
{
    std::lock_guard<std::mutex> g(lock());
    for (auto it = all().rbegin(); it != all().rend(); ++it)
        if ((*it)->owned.name == name) return &(*it)->info;
    return nullptr;
}

bool loadedLaunchShape(const Scenario& s, LaunchShape& shape, std::string& error)
{
    LaunchFunction launch;
    {
        std::lock_guard<std::mutex> g(lock());
        for (auto it = all().rbegin(); it != all().rend(); ++it)
            if ((*it)->owned.name == s.kernel) {
                launch = (*it)->owned.launch;
                break;
            }
    }
    if (!launch) return false;
    error = launch(s, shape);
    return true;
}

std::shared_ptr<const ArraySpec> arraySpecOf(const std::string& name)
{
    std::lock_guard<std::mutex> g(lock());
    for (auto it = all().rbegin(); it != all().rend(); ++it)
        if ((*it)->owned.name == name) return (*it)->owned.arrays;
    // A registry row that describes its problem, read on first use.
    static std::map<std::string, std::shared_ptr<const ArraySpec>> rows;
    if (auto it = rows.find(name); it != rows.end()) return it->second;
    for (const KernelInfo& k : kernelList())
        if (name == k.name && k.family == Family::Array && *k.arrays) {
            ArraySpecFault fault;
            std::shared_ptr<const ArraySpec> spec =
                readArraySpec(k.arrays, k.sizes, k.formula, std::string("kernels/") + k.sourceFile, fault,
                              std::max(1, k.defaultTile));
            rows[name] = spec;
            return spec;
        }
    return nullptr;
}

std::string loadedArrayLabel(const std::string& kernel, const std::string& array)
{
    std::lock_guard<std::mutex> g(lock());
    for (auto it = all().rbegin(); it != all().rend(); ++it)
        if ((*it)->owned.name == kernel) {
            for (const auto& [simName, own] : (*it)->owned.labels)
                if (simName == array) return own;
            break;
        }
    return array;
}

std::vector<int> loadedParamRoles(const std::string& name)
{
    std::lock_guard<std::mutex> g(lock());
    for (auto it = all().rbegin(); it != all().rend(); ++it)
        if ((*it)->owned.name == name) return (*it)->owned.paramRoles;
    return {};
}

const std::string* loadedKernelSource(const std::string& file)
{
    std::lock_guard<std::mutex> g(lock());
    for (auto it = all().rbegin(); it != all().rend(); ++it)
        if ((*it)->owned.sourceFile == file) return &(*it)->owned.source;
    return nullptr;
}

}  // namespace ts::sim
