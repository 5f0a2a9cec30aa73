// Binders of the kernels loaded at run time (sim/engine/loaded_binding.hpp).
#include "sim/engine/loaded_binding.hpp"
#include "sim/engine/loaded_runner.hpp"

#include <map>
#include <mutex>

namespace ts::sim {
namespace {

std::mutex& lock()
{
    static std::mutex m;
    return m;
}
template <class Binder>
std::map<std::string, Binder>& binders()
{
    static std::map<std::string, Binder> m;
    return m;
}
template <class Binder>
Binder find(const std::string& name)
{
    std::lock_guard<std::mutex> g(lock());
    auto it = binders<Binder>().find(name);
    return it == binders<Binder>().end() ? Binder{} : it->second;
}
template <class Binder>
void set(const std::string& name, Binder binder)
{
    std::lock_guard<std::mutex> g(lock());
    // A name is one family at a time: a file reloaded as another family drops the old one.
    binders<MatmulBinder>().erase(name);
    binders<ConvBinder>().erase(name);
    binders<ArrayBinder>().erase(name);
    binders<Binder>()[name] = std::move(binder);
}

}  // namespace

void setLoadedBinder(const std::string& name, MatmulBinder binder) { set(name, std::move(binder)); }
void setLoadedBinder(const std::string& name, ConvBinder binder) { set(name, std::move(binder)); }
MatmulBinder loadedMatmulBinder(const std::string& name) { return find<MatmulBinder>(name); }
ConvBinder loadedConvBinder(const std::string& name) { return find<ConvBinder>(name); }
void setLoadedBinder(const std::string& name, ArrayBinder binder) { set(name, std::move(binder)); }
ArrayBinder loadedArrayBinder(const std::string& name) { return find<ArrayBinder>(name); }

void setLoadedRunner(const std::string& name, LoadedRunner runner)
{
    std::lock_guard<std::mutex> g(lock());
    if (runner) binders<LoadedRunner>()[name] = std::move(runner);
    else binders<LoadedRunner>().erase(name);
}
LoadedRunner loadedRunner(const std::string& name) { return find<LoadedRunner>(name); }

}  // namespace ts::sim
