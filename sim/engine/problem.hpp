// What a family of kernels (matrix multiplication, 1D and 2D convolution) contributes to a
// simulation: its inputs, the shapes of M, N and P, the kernel body bound to the
// simulator's arrays, and its CPU reference. simulate() does the rest the same way for all.
#pragma once
#include <cmath>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "sim/engine/context.hpp"
#include "sim/engine/loaded_binding.hpp"
#include "sim/engine/progress.hpp"
#include "sim/catalogue/scenario.hpp"

namespace ts::sim {

/// The simulated body of one thread.
using Body = std::function<void(ThreadContext&)>;

/// One family's part of a simulation.
struct Problem {
    ArrayInfo M, N, P;                 ///< names, memory spaces and shapes (N column-major for some kernels)
    std::vector<float> inM, inN;       ///< inputs, pseudo-random from the scenario's seed, row-major
    /// A registry row's scratch arrays (sim/catalogue/array_spec.hpp, ArrayDecl::scratch), the
    /// simulation's arrays after P, and each one's value before the launch.
    std::vector<ArrayInfo> scratch;
    std::vector<float> scratchStart;
    std::vector<float> reference;      ///< what a correct kernel's P is, bit for bit
    /// Binds the kernel to the simulator's arrays (`scratch`: one pointer per Problem::scratch
    /// array, in order) for launch `launch` (from 0) of its row (KernelInfo::laterGrids; 0
    /// for a kernel of one launch). M may be ignored by kernels that read the mask from
    /// constant memory (they register it with the machine themselves).
    std::function<Body(Machine&, GlobalPtr<const float> M, GlobalPtr<const float> N, GlobalPtr<float> P,
                       const std::vector<float>& inM, const std::vector<GlobalPtr<float>>& scratch, int launch)>
        bind;
    /// Why the problem cannot be run (an array problem's reference formula failed on an
    /// element); "" when it can. simulate() reports it as the run's error.
    std::string error;
    /// Floating-point operations of the CPU reference (an array problem's formula, an FMA
    /// counting 2); 0 for the other families, whose kernels count their own multiply-adds.
    uint64_t referenceFlops = 0;
    /// What every element of P holds before the launch: the simulator's NaN, so that an
    /// element the kernel never writes cannot match, unless the problem states a start value
    /// (an array problem's `out sum[1] = 0`, which atomics accumulate into).
    float outputStart = std::nanf("");
};

/// Matrix multiplication (the registry's Family::Matmul): M j x k, N k x l, P j x l.
/// The reference is the longest part; it reports to `progress` and throws Cancelled when
/// that is asked to stop.
Problem matmulProblem(const Scenario& s, const Progress& progress = {});

/// Convolution (the registry's Family::Conv1D and Conv2D; PMPP ch. 7): in 1D N and P are
/// `width` elements and M is Mask_Width elements; in 2D N and P are height x width,
/// row-major, and M is Mask_Width x Mask_Width. M lives in constant memory
/// (Machine::constant); ghost cells are 0. `s` must pass validate(). `progress` as for
/// matmulProblem.
Problem convProblem(const Scenario& s, const Progress& progress = {});

/// A student's array problem (Family::Array, sim/catalogue/array_spec.hpp): its first input
/// is M, its second N (empty when it has one), its output P, each under its own name and
/// shape; inputs pseudo-random from the seed (streams 1 and 2, never zero); the reference is
/// its formula (sim/engine/array_formula.hpp) for every output element. `s` must pass
/// validate(). A formula that fails on an element gives Problem::error.
Problem arrayProblem(const Scenario& s, const Progress& progress = {});

/// validate() for an array problem: no tile limits (its launch is its own), no barriers to
/// drop, every array's shape evaluates, the traced block.
std::string validateArray(const KernelInfo& k, const Scenario& s);

/// The first size parameter of `s` outside the limits the registry gives `k` (one
/// sentence), or "".
std::string checkParams(const KernelInfo& k, const Scenario& s);

/// "" if the traced block of `s` lies inside its grid, else one sentence.
std::string checkBlock(const Scenario& s);

/// validate() for the convolution kernels after their size parameters passed checkParams:
/// tile or block size, threads per block, the halo loaders, dropped barriers, the traced
/// block. "" if `s` can run, else one sentence.
std::string validateConv(const KernelInfo& k, const Scenario& s);

/// The simulator's body of one thread for the registry entry named `s.kernel` whose
/// arguments are `args` (MatmulArgs, ConvArgs or ArrayProblemArgs of ThreadContext), at the compiled tile
/// `s.tile`, else the loaded kernel of that name (sim/engine/loaded_binding.hpp); empty if
/// there is no such entry or instance.
template <class Args>
Body bindKernel(const Scenario& s, const Args& args)
{
    Body body;
    withKernel<Args, ThreadContext>(s.kernel, [&](auto k) {
        using K = decltype(k);
        withTile<K>(s.tile, [&](auto tile) {
            body = [args](ThreadContext& x) { K::template run<decltype(tile)::value>(x, args); };
        });
    });
    // A kernel loaded at run time (a student's file) brings its own binder.
    if constexpr (std::is_same_v<Args, MatmulArgs<ThreadContext>>) {
        if (!body)
            if (const MatmulBinder bind = loadedMatmulBinder(s.kernel)) body = bind(args);
    } else if constexpr (std::is_same_v<Args, ArrayArgs>) {
        if (!body)
            if (const ArrayBinder bind = loadedArrayBinder(s.kernel)) body = bind(args);
    } else {
        if (!body)
            if (const ConvBinder bind = loadedConvBinder(s.kernel)) body = bind(args);
    }
    return body;
}

/// Global loads of N that the basic kernel (conv1d-basic / conv2d-basic, block edge
/// `tile`) performs on the problem of `s`: one per in-range element of each output's
/// window, ghost elements skipped. Whole grid, or the output tile of block `b` only (as in
/// docs/references.md: 40 for an internal block of TILE_SIZE 8 and Mask_Width 5, 37 for block 0).
uint64_t convUntiledGlobalLoads(const Scenario& s);
uint64_t convUntiledGlobalLoads(const Scenario& s, const Uint3& b);

/// 1D convolution reference: P[i] = sum over j of N[i - maskWidth/2 + j] * M[j] over the
/// in-range elements, accumulated from 0 with std::fmaf in increasing j, the order and
/// rounding of the conv1d kernels (a ghost element multiplied as 0 changes nothing).
/// Reports to `progress` as it goes (and throws Cancelled when that is asked to stop).
std::vector<float> conv1dReferenceFma(const std::vector<float>& N, const std::vector<float>& M,
                                      int width, int maskWidth, const Progress& progress = {});

/// 2D convolution reference (N, P height x width, M maskWidth squared, row-major), fmaf
/// over the mask's rows i, then columns j, as the conv2d kernels accumulate.
std::vector<float> conv2dReferenceFma(const std::vector<float>& N, const std::vector<float>& M,
                                      int height, int width, int maskWidth, const Progress& progress = {});

}  // namespace ts::sim
