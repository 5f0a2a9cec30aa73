#include "kernels/matmul_naive.cuh"
#include "kernels/matmul_tiled.cuh"
#include "problem.hpp"
#include "reference.hpp"

namespace ts::sim {
namespace {

template <int TILE_WIDTH>
Body tiledBody(GlobalPtr<const float> M, GlobalPtr<const float> N, GlobalPtr<float> P,
               int j, int k, int l)
{
    return [=](ThreadContext& x) { kernels::matmulTiled<TILE_WIDTH>(x, M, N, P, j, k, l); };
}

}  // namespace

Problem matmulProblem(const Scenario& s)
{
    Problem p;
    p.M = ArrayInfo{"M", Space::Global, s.j, s.k};
    p.N = ArrayInfo{"N", Space::Global, s.k, s.l};
    p.P = ArrayInfo{"P", Space::Global, s.j, s.l};
    p.inM = randomInput(static_cast<size_t>(s.j) * s.k, s.seed, 1);
    p.inN = randomInput(static_cast<size_t>(s.k) * s.l, s.seed, 2);
    p.reference = matmulReferenceFma(p.inM, p.inN, s.j, s.k, s.l);
    p.bind = [s](Machine&, GlobalPtr<const float> M, GlobalPtr<const float> N, GlobalPtr<float> P,
                 const std::vector<float>&) -> Body {
        if (s.kernel == "matmul-naive")
            return [=](ThreadContext& x) { kernels::matmulNaive(x, M, N, P, s.j, s.k, s.l); };
        switch (s.tile) {
        case 2: return tiledBody<2>(M, N, P, s.j, s.k, s.l);
        case 4: return tiledBody<4>(M, N, P, s.j, s.k, s.l);
        case 8: return tiledBody<8>(M, N, P, s.j, s.k, s.l);
        case 16: return tiledBody<16>(M, N, P, s.j, s.k, s.l);
        case 32: return tiledBody<32>(M, N, P, s.j, s.k, s.l);
        }
        return {};
    };
    return p;
}

}  // namespace ts::sim
