// The array family's part of a simulation (a problem described by a student's file or a
// registry row: its arrays, sizes and reference formula): inputs, shapes, the kernel bound
// to the simulator's arrays, and the formula's reference.
#include <algorithm>
#include <memory>
#include <sstream>
#include <string_view>

#include "sim/catalogue/loaded_kernels.hpp"
#include "sim/engine/array_formula.hpp"
#include "sim/engine/array_spec_text.hpp"
#include "sim/engine/problem.hpp"

namespace ts::sim {

std::string validateArray(const KernelInfo& k, const Scenario& s)
{
    const std::shared_ptr<const ArraySpec> spec = arraySpecOf(k.name);
    if (!spec) return "The array problem of " + std::string(k.name) + " is not loaded.";
    const Variables v = spec->sizeValues(s);
    for (const ArrayDecl& a : spec->arrays) {
        int rows = 0, cols = 0;
        std::string error;
        if (!spec->shape(a, v, rows, cols, error)) return error;
    }
    if (s.dropBarriers && findLoadedKernel(k.name))
        return s.kernel + " is your own kernel: remove a barrier from its file rather than dropping it.";
    if (s.dropBarriers & ~k.barriers)
        return s.kernel + (k.barriers ? " has no such barrier to drop." : " has no barriers to drop.");
    // A registry row's launch: its block edge (--tile) and the threads of a block.
    if (!findLoadedKernel(k.name)) {
        if (k.tiled) {
            if (std::find(k.tiles.begin(), k.tiles.end(), s.tile) == k.tiles.end())
                return "BLOCK_DIM (--tile) of " + s.kernel + " must be " + tileList(k) + " (its compiled instances); got " +
                       std::to_string(s.tile) + ".";
        } else if (s.tile < 1 || s.tile > k.maxBlockEdge)
            return "The block edge (--tile) of " + s.kernel + " must be between 1 and " + std::to_string(k.maxBlockEdge) +
                   "; got " + std::to_string(s.tile) + ".";
        if (const Dim3 b = launchShape(s).block; b.count() > static_cast<unsigned long long>(kMaxThreadsPerBlock))
            return "The launch of " + s.kernel + " has blocks of " + std::to_string(b.x) + " x " + std::to_string(b.y) + " x " +
                   std::to_string(b.z) + " = " + std::to_string(b.count()) + " threads, more than the " +
                   std::to_string(kMaxThreadsPerBlock) + " a block may have.";
        if (k.scanElementsPerThread > 0) {
            const long long section = 1ll * k.scanElementsPerThread * launchShape(s).block.x;
            const long long n = v.empty() ? 0 : v.at(spec->sizes.front());
            if (n > section)
                return s.kernel + " scans one section of " + std::to_string(section) + " elements (" +
                       (k.scanElementsPerThread == 1 ? std::string("one") : std::to_string(k.scanElementsPerThread)) +
                       " per thread of its one block of " + std::to_string(launchShape(s).block.x) + "), so " + spec->sizes.front() +
                       " must be at most " + std::to_string(section) + "; got " + std::to_string(n) + ".";
        }
        if (k.sectionSumsInOneBlock) {
            const unsigned b = launchShape(s).block.x;
            const long long sections = launchShapeOf(s, 1).grid.count();
            if (sections > b) {
                const long long n = v.empty() ? 0 : v.at(spec->sizes.front());
                return s.kernel + " scans the sums of its " + std::to_string(sections) + " sections in one block of " +
                       std::to_string(b) + " threads (its second launch), so " + spec->sizes.front() + " must be at most " +
                       std::to_string(b) + " x " + std::to_string(b) + " = " + std::to_string(1ll * b * b) + "; got " +
                       std::to_string(n) + ".";
            }
        }
        if (k.reductionTree) {
            const LaunchShape sh = launchShape(s);
            const unsigned b = sh.block.x;
            if ((b & (b - 1)) != 0)
                return "The reduction tree of " + s.kernel + " halves its stride from the block's size, so the block must be a power of two threads; got " +
                       std::to_string(b) + ".";
            const long long n = v.empty() ? 0 : v.at(spec->sizes.front());
            if (std::string_view(k.grid) == "1" && n != 2ll * b)
                return s.kernel + " sums its whole input in one block, two elements per thread, so " + spec->sizes.front() +
                       " must be 2 x " + std::to_string(b) + " = " + std::to_string(2ll * b) + "; got " + std::to_string(n) + ".";
        }
    }
    return checkBlock(s);
}

Problem arrayProblem(const Scenario& s, const Progress& progress)
{
    Problem p;
    const std::shared_ptr<const ArraySpec> spec = arraySpecOf(s.kernel);
    if (!spec || !spec->output()) {
        p.error = "the array problem of " + s.kernel + " is not loaded";
        return p;
    }
    const Variables v = spec->sizeValues(s);
    const std::vector<const ArrayDecl*> in = spec->inputs();
    ArrayInfo* slots[2] = {&p.M, &p.N};
    std::vector<float>* values[2] = {&p.inM, &p.inN};
    std::vector<FormulaArray> formulaInputs;
    std::string error;
    for (size_t i = 0; i < 2; ++i) {
        if (i >= in.size()) {
            // No second input: an empty slot that no view draws.
            *slots[i] = ArrayInfo{"", Space::Global, 0, 0};
            continue;
        }
        ArrayShape sh;
        if (!spec->shape(*in[i], v, sh, error)) {
            p.error = error;
            return p;
        }
        *slots[i] = ArrayInfo{in[i]->name, Space::Global, sh.slices * sh.rows, sh.cols};
        *values[i] = inputValues(*in[i], static_cast<size_t>(sh.size()), s.seed, i + 1, progress, s.text);
        formulaInputs.push_back(formulaArray(*in[i], sh));
    }
    for (size_t i = 0; i < formulaInputs.size(); ++i) formulaInputs[i].values = values[i];
    const ArrayDecl& out = *spec->output();
    ArrayShape outShape;
    if (!spec->shape(out, v, outShape, error)) {
        p.error = error;
        return p;
    }
    p.P = ArrayInfo{out.name, Space::Global, outShape.slices * outShape.rows, outShape.cols};
    if (out.hasStart) p.outputStart = out.start;
    ArrayFormula f;
    const std::string where = spec->referenceLine ? "line " + std::to_string(spec->referenceLine)
                              : findLoadedKernel(s.kernel) ? std::string("the exercise's")
                                                           : "the description of " + s.kernel;
    if (std::string e = f.parse(spec->reference, formulaArray(out, outShape), formulaInputs, v); !e.empty()) {
        p.error = "The reference (" + where + "): " + e + ".";
        return p;
    }
    progress.at(0.5);
    p.reference = f.evaluateAll(v, p.referenceFlops, error);
    if (!error.empty()) {
        p.error = "The reference (" + where + ") cannot be computed: " + error + ".";
        p.reference.clear();
        return p;
    }
    int sizes[2] = {0, 0};
    for (size_t i = 0; i < spec->sizes.size() && i < 2; ++i) sizes[i] = static_cast<int>(v.at(spec->sizes[i]));
    for (const ArrayDecl* t : spec->scratch()) {
        ArrayShape sh;
        if (!spec->shape(*t, v, sh, error)) {
            p.error = error;
            return p;
        }
        p.scratch.push_back(ArrayInfo{t->name, Space::Global, sh.slices * sh.rows, sh.cols});
        p.scratchStart.push_back(t->start);
    }
    p.bind = [s, sizes0 = sizes[0], sizes1 = sizes[1]](Machine&, GlobalPtr<const float> M, GlobalPtr<const float> N,
                                                        GlobalPtr<float> P, const std::vector<float>&,
                                                        const std::vector<GlobalPtr<float>>& scratch,
                                                        int launch) -> Body {
        ArrayArgs a;
        a.launch = launch;
        a.in[0] = M;
        a.in[1] = N;
        a.out = P;
        for (size_t t = 0; t < scratch.size() && t < std::size(a.tmp); ++t) a.tmp[t] = scratch[t];
        a.size[0] = sizes0;
        a.size[1] = sizes1;
        // A registry row's kernel, else the loaded kernel's binder.
        return bindKernel(s, a);
    };
    return p;
}

}  // namespace ts::sim
