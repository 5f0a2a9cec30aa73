#include "kernel_resources.hpp"

#include <cxxabi.h>

#include <cstdlib>
#include <memory>
#include <regex>

namespace ts::app {
namespace {

/// "matmul-tiled" -> "MatmulTiled", the name of the kernel's entry struct in the kernel
/// registry (sim/catalogue/kernel_registry.hpp), which names its __global__ instances in gpu/.
std::string entryName(const std::string& kernel)
{
    std::string out;
    bool up = true;
    for (char c : kernel) {
        if (c == '-') {
            up = true;
            continue;
        }
        out += up ? static_cast<char>(std::toupper(static_cast<unsigned char>(c))) : c;
        up = false;
    }
    return out;
}

}  // namespace

std::string kernelDisplayName(const char* mangled)
{
    int status = 0;
    std::unique_ptr<char, void (*)(void*)> d(abi::__cxa_demangle(mangled, nullptr, nullptr, &status), std::free);
    if (status != 0 || !d) return mangled;
    std::string s = d.get();
    if (s.rfind("void ", 0) == 0) s.erase(0, 5);
    // Drop the parameter list (the last top-level parenthesis) and every namespace.
    int depth = 0;
    for (size_t i = 0; i < s.size(); ++i) {
        if (s[i] == '<') ++depth;
        else if (s[i] == '>') --depth;
        else if (s[i] == '(' && depth == 0 && s.compare(i, 11, "(anonymous ") != 0) {
            s.erase(i);
            break;
        }
    }
    s = std::regex_replace(s, std::regex(R"(\(anonymous namespace\)::)"), "");
    return std::regex_replace(s, std::regex(R"([A-Za-z_][A-Za-z0-9_]*::)"), "");
}

std::string archName(int ccMajor, int ccMinor)
{
    return "sm_" + std::to_string(ccMajor) + std::to_string(ccMinor);
}

const KernelResources* findKernelResources(const sim::Scenario& s, const std::string& arch)
{
    const sim::KernelInfo* info = s.kernelInfo();
    if (!info) return nullptr;
    // gpu/registry_launch.cuh: deviceKernel<Entry, TILE (0 if untiled), DeviceContext, DROP>.
    const std::string prefix = "deviceKernel<" + entryName(s.kernel) + ", " +
                               std::to_string(info->tiled ? s.tile : 0) + ", DeviceContext, ";
    for (const KernelResources& k : kernelResourceTable().kernels) {
        if (arch != k.arch) continue;
        const std::string name = kernelDisplayName(k.mangled);
        if (name.rfind(prefix, 0) != 0) continue;
        const std::string rest = name.substr(prefix.size());
        // Kernels compiled with and without the dropped-barrier flag: take the one the run uses.
        if (rest == (s.dropBarriers ? "true>" : "false>")) return &k;
    }
    return nullptr;
}

}  // namespace ts::app
