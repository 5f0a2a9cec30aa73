#include <memory>

#include "sim/engine/problem.hpp"
#include "sim/engine/reference.hpp"

namespace ts::sim {

Problem matmulProblem(const Scenario& s, const Progress& progress)
{
    Problem p;
    const KernelInfo* info = findKernel(s.kernel);
    p.M = ArrayInfo{"M", Space::Global, s.j, s.k};
    p.N = ArrayInfo{"N", Space::Global, s.k, s.l, info && info->nColumnMajor};
    p.P = ArrayInfo{"P", Space::Global, s.j, s.l};
    p.inM = randomInput(static_cast<size_t>(s.j) * s.k, s.seed, 1, progress);
    p.inN = randomInput(static_cast<size_t>(s.k) * s.l, s.seed, 2, progress);
    p.reference = matmulReferenceFma(p.inM, p.inN, s.j, s.k, s.l, progress);
    // A kernel that takes N column-major reads the same values laid out column by column;
    // the inputs, the reference and the simulation's copy of N stay row-major.
    std::shared_ptr<const std::vector<float>> storedN;
    if (p.N.columnMajor) storedN = std::make_shared<const std::vector<float>>(p.N.laidOut(p.inN));
    p.bind = [s, storedN](Machine&, GlobalPtr<const float> M, GlobalPtr<const float> N, GlobalPtr<float> P,
                          const std::vector<float>&, const std::vector<GlobalPtr<float>>&, int) -> Body {
        if (storedN) N = N.withData(storedN->data());
        return bindKernel(s, MatmulArgs<ThreadContext>{M, N, P, s.j, s.k, s.l});
    };
    return p;
}

}  // namespace ts::sim
