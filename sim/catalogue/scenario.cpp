#include "sim/catalogue/scenario.hpp"

#include <algorithm>
#include <array>
#include <string_view>
#include <sstream>
#include <utility>

#include "sim/catalogue/loaded_kernels.hpp"
#include "sim/engine/problem.hpp"
#include "sim/teaching/expression.hpp"

namespace ts::sim {

unsigned barrierBitNamed(const std::string& name)
{
    const unsigned bits[] = {kernels::AFTER_LOAD, kernels::AFTER_COMPUTE, kernels::FENCE};
    for (size_t i = 0; i < std::size(kBarrierNames); ++i)
        if (name == kBarrierNames[i]) return bits[i];
    return 0;
}

std::vector<std::string> barrierNamesOf(unsigned bits)
{
    std::vector<std::string> names;
    for (const char* n : kBarrierNames)
        if (bits & barrierBitNamed(n)) names.push_back(n);
    return names;
}

std::string checkParams(const KernelInfo& k, const Scenario& s)
{
    for (const ParamLimit& p : k.params) {
        const int v = s.value(p.id);
        if (v >= p.min && v <= p.max && (!p.odd || v % 2 != 0)) continue;
        std::ostringstream e;
        e << p.what << " must be ";
        if (p.min == p.max) e << p.min;
        else e << (p.odd ? "odd and " : "") << "between " << p.min << " and " << p.max;
        e << p.why << "; got " << v << ".";
        return e.str();
    }
    return {};
}

std::string checkBlock(const Scenario& s)
{
    const LaunchShape sh = launchShape(s);
    if (s.block.x < sh.grid.x && s.block.y < sh.grid.y && s.block.z < sh.grid.z) return {};
    std::ostringstream e;
    // A 3D grid (PMPP's stencil) or a block named with a third index says all three.
    if (sh.grid.z > 1 || s.block.z > 0)
        e << "Block (" << s.block.x << ", " << s.block.y << ", " << s.block.z << ") is outside the grid of " << sh.grid.x
          << " x " << sh.grid.y << " x " << sh.grid.z << " blocks.";
    else
        e << "Block (" << s.block.x << ", " << s.block.y << ") is outside the grid of " << sh.grid.x << " x "
          << sh.grid.y << " blocks.";
    return e.str();
}

std::string validate(Scenario& s)
{
    s.info = findKernel(s.kernel);
    return validate(std::as_const(s));
}

std::string validate(const Scenario& s)
{
    std::ostringstream e;
    const KernelInfo* k = s.kernelInfo();
    if (!k) {
        e << "Unknown kernel '" << s.kernel << "'; known kernels are";
        for (const KernelInfo& i : kernelList()) e << " " << i.name;
        e << ".";
        return e.str();
    }
    if (std::string m = checkParams(*k, s); !m.empty()) return m;
    if (const int n = launchCount(*k); s.launch < 1 || s.launch > n) {
        if (n == 1)
            e << k->name << " is one launch, so the traced launch (--launch) must be 1; got " << s.launch << ".";
        else
            e << "The traced launch (--launch) of " << k->name << " must be from 1 to " << n << " (its launches); got "
              << s.launch << ".";
        return e.str();
    }
    {
        LaunchShape own;
        std::string error;
        if (loadedLaunchShape(s, own, error)) {
            if (!error.empty()) return error;
            const uint64_t threads = uint64_t{own.block.x} * own.block.y * own.block.z;
            if (threads > static_cast<uint64_t>(kMaxThreadsPerBlock)) {
                e << "The launch of " << k->name << " has blocks of " << own.block.x << " x " << own.block.y << " x "
                  << own.block.z << " = " << threads << " threads, more than the " << kMaxThreadsPerBlock
                  << " a block may have.";
                return e.str();
            }
        }
    }
    if (k->family == Family::Array) return validateArray(*k, s);
    if (k->family != Family::Matmul) return validateConv(*k, s);
    if (k->tiled) {
        if (std::find(k->tiles.begin(), k->tiles.end(), s.tile) == k->tiles.end()) {
            if (k->tiles.size() == 1)
                e << "TILE_WIDTH of " << k->name << " is " << k->tiles.front() << " (its file defines it); got "
                  << s.tile << ".";
            else
                e << "TILE_WIDTH must be one of " << tileList(*k, false)
                  << " (the compiled template instances); got " << s.tile << ".";
            return e.str();
        }
    } else if (s.tile < 1 || s.tile > k->maxBlockEdge) {
        e << "The block edge (--tile) must be between 1 and " << k->maxBlockEdge << ", so that a block has at most "
          << k->maxBlockEdge * k->maxBlockEdge << " threads; got " << s.tile << ".";
        return e.str();
    }
    if (k->squareOnly && (s.j != s.k || s.k != s.l)) {
        e << k->name << " takes one size, Width, so M, N and P must be square: j, k and l must be equal; got " << s.j
          << ", " << s.k << " and " << s.l << ".";
        return e.str();
    }
    if (s.dropBarriers & ~k->barriers) {
        e << s.kernel << (k->barriers ? " has no such barrier to drop" : " has no barriers to drop")
          << "; only the tiled kernels' after-load and after-compute barriers, and the single-pass scan's fence, can be dropped.";
        return e.str();
    }
    // A file's own tile under the launch PMPP gives the family (no launch header): the block
    // is TILE_WIDTH squared threads, which a #define may take past what a block may have.
    if (const Dim3 b = launchShape(s).block; b.count() > static_cast<unsigned long long>(kMaxThreadsPerBlock)) {
        e << "The launch of " << k->name << " has blocks of " << b.x << " x " << b.y << " x " << b.z << " = "
          << b.count() << " threads, more than the " << kMaxThreadsPerBlock << " a block may have.";
        return e.str();
    }
    return checkBlock(s);
}

Scenario matmulScenario(const std::string& kernel, int j, int k, int l, int tile, Uint3 block, uint64_t seed)
{
    Scenario s;
    s.kernel = kernel;
    s.j = j;
    s.k = k;
    s.l = l;
    s.tile = tile;
    s.block = block;
    s.seed = seed;
    return s;
}

Scenario convScenario(const std::string& kernel, int height, int width, int tile, int maskWidth, Uint3 block,
                      uint64_t seed)
{
    Scenario s;
    s.kernel = kernel;
    s.height = height;
    s.width = width;
    s.tile = tile;
    s.maskWidth = maskWidth;
    s.block = block;
    s.seed = seed;
    return s;
}

Family familyOf(const Scenario& s)
{
    const KernelInfo* k = s.kernelInfo();
    return k ? k->family : Family::Matmul;
}

bool isConvolution(const Scenario& s)
{
    const KernelInfo* k = s.kernelInfo();
    return k && (k->family == Family::Conv1D || k->family == Family::Conv2D);
}

bool gridXOverRows(const Scenario& s)
{
    const KernelInfo* k = s.kernelInfo();
    return k && k->gridXOverRows;
}

namespace {

/// The values a registry row's launch expressions may name (KernelInfo::grid): the sizes
/// (a described problem's under its own names), and the tile under each name the kernel
/// files give it.
Variables launchVariables(const Scenario& s)
{
    const long long t = std::max(1, s.tile);
    Variables v = {{"j", s.j},
            {"k", s.k},
            {"l", s.l},
            {"width", std::max(1, s.width)},
            {"height", std::max(1, s.height)},
            {"Mask_Width", std::max(1, s.maskWidth)},
            {"TILE_WIDTH", t},
            {"TILE_SIZE", t},
            {"TILE", t},
            {"BLOCK_WIDTH", t},
            {"BLOCK_DIM", t}};
    // A described problem's own sizes under their names (N of PMPP's stencil).
    if (const std::shared_ptr<const ArraySpec> spec = arraySpecOf(s.kernel))
        for (const auto& [name, value] : spec->sizeValues(s)) v[name] = value;
    return v;
}

/// The comma-separated expressions of `list` (at most three, x first), evaluated with `v`;
/// an axis not given is 1, and one that does not evaluate to a positive value is 1 as well
/// (validate() judges the sizes before any launch).
std::array<unsigned, 3> axesOf(std::string_view list, const Variables& v)
{
    std::array<unsigned, 3> out{1, 1, 1};
    size_t axis = 0, from = 0;
    int depth = 0;
    for (size_t i = 0; i <= list.size() && axis < 3; ++i) {
        if (i < list.size() && list[i] == '(') ++depth;
        if (i < list.size() && list[i] == ')') --depth;
        if (i == list.size() || (list[i] == ',' && depth == 0)) {
            const Evaluation e = evaluate(list.substr(from, i - from), v);
            if (e.value && *e.value > 0) out[axis] = static_cast<unsigned>(*e.value);
            ++axis;
            from = i + 1;
        }
    }
    return out;
}

}  // namespace

namespace {
/// The grid expression of launch `launch` (from 2) in `later` (KernelInfo::laterGrids), "" if
/// it has none.
std::string_view laterGrid(std::string_view later, int launch)
{
    for (int n = 2; !later.empty(); ++n) {
        const size_t end = later.find(';');
        if (n == launch) return later.substr(0, end);
        if (end == std::string_view::npos) break;
        later.remove_prefix(end + 1);
    }
    return {};
}
}  // namespace

int launchCount(const Scenario& s)
{
    const KernelInfo* k = s.kernelInfo();
    return k ? launchCount(*k) : 1;
}

LaunchShape launchShapeOf(const Scenario& s, int launch)
{
    const KernelInfo* k = s.kernelInfo();
    Scenario first = s;
    first.launch = 1;
    LaunchShape sh = launchShape(first);
    if (launch <= 1 || !k) return sh;
    const std::string_view grid = laterGrid(k->laterGrids, launch);
    if (grid.empty()) return sh;
    const std::array<unsigned, 3> g = axesOf(grid, launchVariables(s));
    sh.grid = Dim3{g[0], g[1], g[2]};
    return sh;
}

LaunchShape launchShape(const Scenario& s)
{
    if (s.launch > 1) return launchShapeOf(s, s.launch);
    const KernelInfo* k = s.kernelInfo();
    LaunchShape sh;
    // A student's kernel may bring its own launch (validate() reports one that fails).
    if (std::string error; loadedLaunchShape(s, sh, error) && error.empty()) return sh;
    sh = LaunchShape{};
    // The launch as the registry row states it (KernelInfo::grid, block, blockOutput). A
    // kernel without one (an array problem, whose file brings its launch; an unknown name) has
    // one thread; validate() says why.
    if (!k || !*k->grid) {
        sh.grid = sh.block = Dim3{1, 1, 1};
        return sh;
    }
    const Variables v = launchVariables(s);
    const std::array<unsigned, 3> grid = axesOf(k->grid, v), block = axesOf(k->block, v);
    sh.grid = Dim3{grid[0], grid[1], grid[2]};
    sh.block = Dim3{block[0], block[1], block[2]};
    if (*k->blockOutput) {
        const std::array<unsigned, 3> out = axesOf(k->blockOutput, v);
        sh.pRows = out[0];
        sh.pCols = out[1];
    }
    return sh;
}

namespace {
/// splitmix64's next value from `state`.
uint64_t splitmix(uint64_t& state)
{
    uint64_t z = (state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}
}  // namespace

std::vector<float> randomIntegers(size_t count, uint64_t seed, uint64_t stream, int lo, int hi, const Progress& progress)
{
    std::vector<float> v;
    v.reserve(count);
    uint64_t state = seed * 0x9E3779B97F4A7C15ull + stream * 0xD1B54A32D192ED03ull;
    const uint64_t span = static_cast<uint64_t>(static_cast<int64_t>(hi) - lo + 1);
    for (size_t i = 0; i < count; ++i) {
        if ((i & 0xFFFFF) == 0 && progress.stopRequested()) throw Cancelled();
        v.push_back(static_cast<float>(lo + static_cast<int64_t>(splitmix(state) % span)));
    }
    return v;
}

std::vector<float> randomInput(size_t count, uint64_t seed, uint64_t stream, const Progress& progress)
{
    // Reserved, not zeroed: the pages are first touched in the loop, which looks at the
    // cancel flag (zeroing 256 MiB first would take a good part of a second).
    std::vector<float> v;
    v.reserve(count);
    uint64_t state = seed * 0x9E3779B97F4A7C15ull + stream * 0xD1B54A32D192ED03ull;
    for (size_t i = 0; i < count; ++i) {
        if ((i & 0xFFFFF) == 0 && progress.stopRequested()) throw Cancelled();
        const uint64_t z = splitmix(state);
        float u = static_cast<float>(z >> 40) * (1.0f / 16777216.0f);  // [0, 1), 24 bits
        const float x = 2.0f * u - 1.0f;
        v.push_back(x == 0.0f ? 0.5f : x);   // never an exact zero: zeros hide wrong indexing
    }
    return v;
}

}  // namespace ts::sim
