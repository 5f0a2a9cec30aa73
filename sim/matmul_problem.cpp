#include "problem.hpp"
#include "reference.hpp"

namespace ts::sim {

Problem matmulProblem(const Scenario& s, const Progress& progress)
{
    Problem p;
    p.M = ArrayInfo{"M", Space::Global, s.j, s.k};
    p.N = ArrayInfo{"N", Space::Global, s.k, s.l};
    p.P = ArrayInfo{"P", Space::Global, s.j, s.l};
    p.inM = randomInput(static_cast<size_t>(s.j) * s.k, s.seed, 1, progress);
    p.inN = randomInput(static_cast<size_t>(s.k) * s.l, s.seed, 2, progress);
    p.reference = matmulReferenceFma(p.inM, p.inN, s.j, s.k, s.l, progress);
    p.bind = [s](Machine&, GlobalPtr<const float> M, GlobalPtr<const float> N, GlobalPtr<float> P,
                 const std::vector<float>&) -> Body {
        return bindKernel(s, MatmulArgs<ThreadContext>{M, N, P, s.j, s.k, s.l});
    };
    return p;
}

}  // namespace ts::sim
