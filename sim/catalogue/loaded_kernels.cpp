// The registry of kernels loaded at run time (sim/catalogue/loaded_kernels.hpp).
#include "sim/catalogue/loaded_kernels.hpp"

#include "sim/catalogue/kernel_registry.hpp"

#include <deque>
#include <memory>
#include <mutex>

namespace ts::sim {
namespace {

/// One registration: the owned strings and the entry that points into them.
struct Loaded {
    LoadedKernelInfo owned;
    KernelInfo info{};
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
    l->info.params = o.family == Family::Matmul ? std::span<const ParamLimit>(registry::kMatmulParams) : std::span<const ParamLimit>{};
    if (!o.tiles.empty()) l->info.defaultTile = o.tiles.front();
    l->info.squareOnly = o.square;
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

const std::string* loadedKernelSource(const std::string& file)
{
    std::lock_guard<std::mutex> g(lock());
    for (auto it = all().rbegin(); it != all().rend(); ++it)
        if ((*it)->owned.sourceFile == file) return &(*it)->owned.source;
    return nullptr;
}

}  // namespace ts::sim
