#include "sim/catalogue/kernel_registry.hpp"

#include "sim/catalogue/loaded_kernels.hpp"

#include <sstream>

namespace ts::sim {
namespace {

/// Checks that an entry's description agrees with its template instances.
template <class K>
constexpr bool consistent()
{
    const KernelInfo& i = K::info;
    return i.tiled == !K::TileSizes::values.empty() && (i.tiled || i.maxBlockEdge > 0) && !i.params.empty();
}

}  // namespace

const std::vector<KernelInfo>& kernelList()
{
    static const std::vector<KernelInfo> list = [] {
        std::vector<KernelInfo> l;
        forEachKernel([&](auto k) {
            using K = decltype(k);
            static_assert(consistent<K>(), "a registry entry's tiled/tiles/maxBlockEdge/params disagree");
            l.push_back(K::info);
        });
        return l;
    }();
    return list;
}

const KernelInfo* findKernel(const std::string& name)
{
    for (const KernelInfo& k : kernelList())
        if (name == k.name) return &k;
    return findLoadedKernel(name);
}

bool isConvolution(const std::string& name)
{
    const KernelInfo* k = findKernel(name);
    return k && (k->family == Family::Conv1D || k->family == Family::Conv2D);
}

int launchCount(const KernelInfo& k)
{
    int n = 1;
    if (*k.laterGrids) {
        ++n;
        for (const char* c = k.laterGrids; *c; ++c) n += *c == ';';
    }
    return n;
}

std::string tileList(const KernelInfo& k, bool withOr)
{
    std::ostringstream o;
    for (size_t i = 0; i < k.tiles.size(); ++i)
        o << (i == 0 ? "" : withOr && i + 1 == k.tiles.size() ? " or " : ", ") << k.tiles[i];
    return o.str();
}

}  // namespace ts::sim
