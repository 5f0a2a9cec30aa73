// The device instantiations of the described problems' kernels (see array_launch.hpp).
#include "array_launch.hpp"

#include <cmath>
#include <memory>
#include <sstream>

#include "registry_launch.cuh"
#include "sim/catalogue/agreement_cases.hpp"
#include "sim/catalogue/array_spec.hpp"
#include "sim/catalogue/loaded_kernels.hpp"
#include "sim/catalogue/scenario.hpp"

namespace ts::gpu::detail {
namespace {

template <class X>
using Args = sim::ArrayProblemArgs<X>;

/// Elements of each input and of the output of `s`'s problem, checked against the inputs
/// given. Throws LaunchError.
struct Shapes {
    size_t in[2] = {0, 0};
    size_t out = 0;
    int size[2] = {0, 0};
    /// The element types the kernel's pointers declare (sim::ArrayDecl::type).
    sim::ElementType inType[2] = {sim::ElementType::Float, sim::ElementType::Float};
    sim::ElementType outType = sim::ElementType::Float;
    /// The row's scratch arrays (sim::ArrayDecl::scratch): elements, types and start values.
    std::vector<size_t> tmp;
    std::vector<sim::ElementType> tmpType;
    std::vector<float> tmpStart;
};

/// A launch's scratch arrays on the device, each set to its start value (PMPP sec. 11.7's
/// flags and running sums start at 0), as the simulator sets them (sim/engine/simulate.cpp).
struct Scratch {
    std::vector<std::unique_ptr<DeviceBuffer<float>>> buffers;
    explicit Scratch(const Shapes& sh)
    {
        for (size_t t = 0; t < sh.tmp.size(); ++t) {
            buffers.push_back(std::make_unique<DeviceBuffer<float>>(sh.tmp[t]));
            uploadAs(*buffers.back(), std::vector<float>(sh.tmp[t], sh.tmpStart[t]), sh.tmpType[t],
                     "setting a scratch array's start");
        }
    }
    /// The pointers of Args::tmp, in order (null past the last).
    template <class A>
    void into(A& args) const
    {
        for (size_t t = 0; t < buffers.size() && t < std::size(args.tmp); ++t) args.tmp[t] = buffers[t]->get();
    }
};


Shapes prepare(const sim::Scenario& s, const std::vector<float>& M, const std::vector<float>& N)
{
    requireDevice();
    if (sim::findLoadedKernel(s.kernel))
        throw LaunchError(s.kernel + " is a kernel loaded from a file; gpu-run and verify take its file (--kernel-file).");
    const std::shared_ptr<const sim::ArraySpec> spec = sim::arraySpecOf(s.kernel);
    if (!spec || !spec->output()) throw LaunchError("'" + s.kernel + "' is not a described problem of the registry.");
    if (std::string e = sim::validate(s); !e.empty()) throw LaunchError(e);
    Shapes sh;
    const sim::Variables v = spec->sizeValues(s);
    const std::vector<const sim::ArrayDecl*> in = spec->inputs();
    std::string error;
    for (size_t i = 0; i < in.size() && i < 2; ++i) {
        int rows = 1, cols = 1;
        if (!spec->shape(*in[i], v, rows, cols, error)) throw LaunchError(error);
        sh.in[i] = static_cast<size_t>(rows) * cols;
        sh.inType[i] = in[i]->type;
    }
    sh.outType = spec->output()->type;
    int rows = 1, cols = 1;
    if (!spec->shape(*spec->output(), v, rows, cols, error)) throw LaunchError(error);
    sh.out = static_cast<size_t>(rows) * cols;
    for (size_t i = 0; i < spec->sizes.size() && i < 2; ++i) sh.size[i] = static_cast<int>(v.at(spec->sizes[i]));
    size_t scratchElements = 0;
    for (const sim::ArrayDecl* t : spec->scratch()) {
        if (!spec->shape(*t, v, rows, cols, error)) throw LaunchError(error);
        sh.tmp.push_back(static_cast<size_t>(rows) * cols);
        sh.tmpType.push_back(t->type);
        sh.tmpStart.push_back(t->start);
        scratchElements += sh.tmp.back();
    }
    const std::vector<float>* given[2] = {&M, &N};
    for (int i = 0; i < 2; ++i)
        if (given[i]->size() != sh.in[i]) {
            std::ostringstream m;
            m << "input " << i + 1 << " of " << s.kernel << " has " << given[i]->size() << " elements, but the problem ("
              << sim::sizeList(s) << ") needs " << sh.in[i] << ".";
            throw LaunchError(m.str());
        }
    requireFreeMemory(4 * 2 * (sh.in[0] + sh.in[1] + sh.out + scratchElements));
    return sh;
}

/// The output poisoned as the simulator poisons it (std::nanf(""), sim/engine/simulate.cpp), or
/// set to the start value the problem gives it (`out sum[1] = 0`, ArrayDecl::start).
void poison(const sim::Scenario& s, const Shapes& sh, DeviceBuffer<float>& out)
{
    const std::shared_ptr<const sim::ArraySpec> spec = sim::arraySpecOf(s.kernel);
    const sim::ArrayDecl* o = spec ? spec->output() : nullptr;
    uploadAs(out, std::vector<float>(sh.out, o && o->hasStart ? o->start : std::nanf("")), sh.outType,
             "setting the output's start");
}

}  // namespace

std::vector<float> runArrayPlain(const sim::Scenario& s, const std::vector<float>& M, const std::vector<float>& N)
{
    const Shapes sh = prepare(s, M, N);
    DeviceBuffer<float> d0(sh.in[0]), d1(sh.in[1]), out(sh.out);
    uploadAs(d0, M, sh.inType[0], "copying the first input to the device");
    uploadAs(d1, N, sh.inType[1], "copying the second input to the device");
    poison(s, sh, out);
    const Scratch scratch(sh);
    Args<DeviceContext> args{{d0.get(), d1.get()}, out.get(), {sh.size[0], sh.size[1]}};
    scratch.into(args);
    launchRegistered<DeviceContext>(s, args);
    check(cudaDeviceSynchronize(), ("running " + s.kernel).c_str());
    return downloadAs(out, sh.outType, "copying the output back from the device");
}

CountedRun runArrayCounted(const sim::Scenario& s, const std::vector<float>& M, const std::vector<float>& N)
{
    const Shapes sh = prepare(s, M, N);
    DeviceBuffer<float> d0(sh.in[0]), d1(sh.in[1]), out(sh.out);
    DeviceBuffer<unsigned> loads0(sh.in[0]), loads1(sh.in[1]);
    uploadAs(d0, M, sh.inType[0], "copying the first input to the device");
    uploadAs(d1, N, sh.inType[1], "copying the second input to the device");
    poison(s, sh, out);
    loads0.fill(0, "zeroing the load counters of the first input");
    loads1.fill(0, "zeroing the load counters of the second input");
    const Scratch scratch(sh);
    Args<CountingContext> args{{CountingPtr{d0.get(), loads0.get()}, CountingPtr{d1.get(), loads1.get()}}, out.get(),
                               {sh.size[0], sh.size[1]}};
    scratch.into(args);
    launchRegistered<CountingContext>(s, args);
    check(cudaDeviceSynchronize(), ("running the counting instantiation of " + s.kernel).c_str());
    CountedRun r;
    r.P = downloadAs(out, sh.outType, "copying the output back from the device");
    r.loadsM = loads0.download("copying the load counts of the first input back");
    r.loadsN = loads1.download("copying the load counts of the second input back");
    return r;
}

}  // namespace ts::gpu::detail
