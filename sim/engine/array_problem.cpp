// The array family's part of a simulation (a student's element-wise, 1D or 2D kernel whose
// file states its arrays and its reference formula): inputs, shapes, the kernel bound to
// the simulator's arrays, and the formula's reference.
#include <memory>
#include <sstream>

#include "sim/catalogue/loaded_kernels.hpp"
#include "sim/engine/array_formula.hpp"
#include "sim/engine/problem.hpp"

namespace ts::sim {

std::string validateArray(const KernelInfo& k, const Scenario& s)
{
    const std::shared_ptr<const ArraySpec> spec = loadedArraySpec(k.name);
    if (!spec) return "The array problem of " + std::string(k.name) + " is not loaded.";
    const Variables v = spec->sizeValues(s);
    for (const ArrayDecl& a : spec->arrays) {
        int rows = 0, cols = 0;
        std::string error;
        if (!spec->shape(a, v, rows, cols, error)) return error;
    }
    if (s.dropBarriers) return s.kernel + " is your own kernel: remove a barrier from its file rather than dropping it.";
    return checkBlock(s);
}

Problem arrayProblem(const Scenario& s, const Progress& progress)
{
    Problem p;
    const std::shared_ptr<const ArraySpec> spec = loadedArraySpec(s.kernel);
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
        int rows = 1, cols = 1;
        if (!spec->shape(*in[i], v, rows, cols, error)) {
            p.error = error;
            return p;
        }
        *slots[i] = ArrayInfo{in[i]->name, Space::Global, rows, cols};
        *values[i] = randomInput(static_cast<size_t>(rows) * cols, s.seed, i + 1, progress);
    }
    for (size_t i = 0; i < in.size() && i < 2; ++i)
        formulaInputs.push_back(FormulaArray{in[i]->name, slots[i]->rows, slots[i]->cols, in[i]->extents.size() == 2, values[i]});
    const ArrayDecl& out = *spec->output();
    int rows = 1, cols = 1;
    if (!spec->shape(out, v, rows, cols, error)) {
        p.error = error;
        return p;
    }
    p.P = ArrayInfo{out.name, Space::Global, rows, cols};
    ArrayFormula f;
    if (std::string e = f.parse(spec->reference, FormulaArray{out.name, rows, cols, out.extents.size() == 2, nullptr}, formulaInputs, v);
        !e.empty()) {
        p.error = "The reference (" + (spec->referenceLine ? "line " + std::to_string(spec->referenceLine) : std::string("the exercise's")) + "): " + e + ".";
        return p;
    }
    progress.at(0.5);
    p.reference = f.evaluateAll(v, p.referenceFlops, error);
    if (!error.empty()) {
        p.error = "The reference (" + (spec->referenceLine ? "line " + std::to_string(spec->referenceLine) : std::string("the exercise's")) +
                  ") cannot be computed: " + error + ".";
        p.reference.clear();
        return p;
    }
    int sizes[2] = {0, 0};
    for (size_t i = 0; i < spec->sizes.size() && i < 2; ++i) sizes[i] = static_cast<int>(v.at(spec->sizes[i]));
    p.bind = [kernel = s.kernel, sizes0 = sizes[0], sizes1 = sizes[1]](Machine&, GlobalPtr<const float> M, GlobalPtr<const float> N,
                                                                      GlobalPtr<float> P, const std::vector<float>&) -> Body {
        const ArrayBinder bind = loadedArrayBinder(kernel);
        if (!bind) return {};
        ArrayArgs a;
        a.in[0] = M;
        a.in[1] = N;
        a.out = P;
        a.size[0] = sizes0;
        a.size[1] = sizes1;
        return bind(a);
    };
    return p;
}

}  // namespace ts::sim
