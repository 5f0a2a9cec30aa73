// A scenario: which kernel, at which sizes, with which input seed, and which block the
// views follow. The model's input; parsed from lecture presets and the command line.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "sim/catalogue/array_spec.hpp"
#include "sim/catalogue/kernel_registry.hpp"
#include "sim/engine/progress.hpp"
#include "sim/engine/types.hpp"

namespace ts::sim {

/// One problem to simulate. Matrix multiplication: M (j x k) times N (k x l) gives
/// P (j x l); `tile` is TILE_WIDTH (tiled) or the block edge (naive). Convolution (PMPP
/// ch. 7): N is the input (width, or height x width), M the mask (maskWidth, or maskWidth
/// squared), P the output, the same size as N; `tile` is the block size (basic kernels) or
/// the output TILE_SIZE (tiled kernels).
///
/// The kernel is named by `kernel` (what scenario files, the command line and the JSON
/// carry) and resolved once: validate() on a scenario it may change, and simulate() on the
/// Simulation's copy, store its registry entry in `info`. Code that needs the entry asks
/// kernelInfo(), which returns that pointer, or looks the name up for a scenario never
/// validated (or whose `kernel` was changed since), so an unvalidated scenario still works.
struct Scenario {
    std::string kernel = "matmul-tiled";
    /// The registry entry of `kernel` as validate() resolved it; nullptr until then. Read it
    /// through kernelInfo().
    const KernelInfo* info = nullptr;
    int j = 4, k = 4, l = 4;
    int height = 1, width = 64, maskWidth = 5;   ///< convolution only
    int tile = 2;
    uint64_t seed = 1;          ///< input seed: M and N are drawn from it
    /// ts::kernels::Barrier bits of the barriers the tiled kernel skips (the two of PMPP
    /// Fig. 5.9, sec. 5.4); 0 runs the kernel as written. Same on the GPU and in the
    /// simulator.
    unsigned dropBarriers = 0;
    Uint3 block{0, 0, 0};       ///< the block whose trace the views show
    /// The launch of a row of several (KernelInfo::laterGrids) whose block `block` is traced,
    /// from 1; launchShape() is that launch's. Always 1 for a kernel of one launch.
    int launch = 1;
    /// The characters of a `char` input (a histogram's text, PMPP ch. 9): the user's text,
    /// random text of a skew, or the book's phrase (TextInput).
    TextInput text;

    /// The size parameter `p` (j, k, l, height, width or maskWidth).
    int value(ParamId p) const
    {
        switch (p) {
        case ParamId::J: return j;
        case ParamId::K: return k;
        case ParamId::L: return l;
        case ParamId::Height: return height;
        case ParamId::Width: return width;
        case ParamId::MaskWidth: return maskWidth;
        }
        return 0;
    }

    /// The registry entry of `kernel`: the resolved `info` when it still names `kernel`,
    /// otherwise a lookup by name (findKernel); nullptr for an unknown name.
    const KernelInfo* kernelInfo() const
    {
        return info && kernel == info->name ? info : findKernel(kernel);
    }
};

/// The names `--drop-barrier`, a scenario's drop_barrier and a view link give the droppable
/// ts::kernels::Barrier bits: "after-load", "after-compute" and "fence" (the __threadfence()
/// of PMPP sec. 11.7's single-pass scan), in that order.
inline constexpr const char* kBarrierNames[] = {"after-load", "after-compute", "fence"};
/// The bit named `name` (kBarrierNames), 0 for any other text.
unsigned barrierBitNamed(const std::string& name);
/// The names of the bits set in `bits`, in kBarrierNames' order.
std::vector<std::string> barrierNamesOf(unsigned bits);

/// A matrix multiplication scenario: M (j x k) times N (k x l) with `kernel` ("matmul-naive",
/// "matmul-tiled"), TILE_WIDTH or block edge `tile`, traced block `block`, input seed `seed`.
/// Not validated (see validate()).
Scenario matmulScenario(const std::string& kernel, int j, int k, int l, int tile, Uint3 block = {},
                        uint64_t seed = 1);

/// A convolution scenario (PMPP ch. 7): N of `height` x `width` elements (height 1 in 1D),
/// Mask_Width `maskWidth`, block size or output TILE_SIZE `tile`, traced block `block`, input
/// seed `seed`. Not validated (see validate()).
Scenario convScenario(const std::string& kernel, int height, int width, int tile, int maskWidth,
                      Uint3 block = {}, uint64_t seed = 1);

/// Checks a scenario: returns an empty string if it can run, otherwise one sentence
/// saying which value is wrong and what is allowed.
std::string validate(const Scenario& s);

/// validate() that also resolves the kernel: stores its registry entry in `s.info` (nullptr
/// for an unknown name), whatever else the check says.
std::string validate(Scenario& s);

/// Launch shape of a scenario: grid and block in threads.
struct LaunchShape {
    Dim3 grid, block;
    /// A matrix multiplication block's rows and columns of P (KernelInfo::blockOutput); 0
    /// for a convolution.
    unsigned pRows = 0, pCols = 0;
};
/// The grid and block a kernel's launcher uses for `s` (which must name a known kernel): its
/// registry row's launch expressions (KernelInfo::grid, block, blockOutput) evaluated for the
/// sizes and tile of `s`, or the launch a student's file states.
LaunchShape launchShape(const Scenario& s);
/// The grid and block of launch `launch` (from 1) of `s`'s row (KernelInfo::laterGrids): the
/// first launch's as launchShape() gives it, a later one's from its own grid and the row's
/// block. A launch past the row's last is the first.
LaunchShape launchShapeOf(const Scenario& s, int launch);
/// The launches of `s`'s kernel (launchCount of its row); 1 for an unknown name.
int launchCount(const Scenario& s);

/// The family of `s.kernel` (from the kernel registry); Matmul for an unknown name.
Family familyOf(const Scenario& s);

/// Is `s`'s kernel a convolution (PMPP ch. 7)? False for an unknown name.
bool isConvolution(const Scenario& s);

/// Does the launch of `s.kernel` run its grid's x over the rows of P (KernelInfo::gridXOverRows,
/// matmul-naive-uncoalesced)? Then grid x counts blocks of rows and y blocks of columns;
/// otherwise the other way round. False for an unknown name.
bool gridXOverRows(const Scenario& s);

/// Deterministic pseudo-random inputs in [-1, 1) with full 24-bit mantissas, the same on
/// every compiler (the GPU path uses them too). `stream` separates M from N. Throws
/// Cancelled when `progress` is asked to stop (looked at every 2^20 elements: an 8192 x 8192
/// input takes a second).
std::vector<float> randomInput(size_t count, uint64_t seed, uint64_t stream, const Progress& progress = {});

/// Deterministic pseudo-random integers from `lo` to `hi` (inclusive, lo <= hi), as floats:
/// the inputs of a sum (PMPP ch. 10), whose partial sums stay exact in float while the total
/// is below 2^24, so that every order of the additions gives the same bits. Same generator
/// and streams as randomInput.
std::vector<float> randomIntegers(size_t count, uint64_t seed, uint64_t stream, int lo, int hi,
                                  const Progress& progress = {});

}  // namespace ts::sim
