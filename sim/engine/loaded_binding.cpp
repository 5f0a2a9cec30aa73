// Binders of the kernels loaded at run time (sim/engine/loaded_binding.hpp).
#include "sim/engine/loaded_binding.hpp"

#include <map>
#include <mutex>

namespace ts::sim {
namespace {

std::mutex& lock()
{
    static std::mutex m;
    return m;
}
std::map<std::string, MatmulBinder>& binders()
{
    static std::map<std::string, MatmulBinder> m;
    return m;
}

}  // namespace

void setLoadedBinder(const std::string& name, MatmulBinder binder)
{
    std::lock_guard<std::mutex> g(lock());
    binders()[name] = std::move(binder);
}

MatmulBinder loadedMatmulBinder(const std::string& name)
{
    std::lock_guard<std::mutex> g(lock());
    auto it = binders().find(name);
    return it == binders().end() ? MatmulBinder{} : it->second;
}

}  // namespace ts::sim
