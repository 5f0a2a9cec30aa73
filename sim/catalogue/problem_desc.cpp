#include "sim/catalogue/problem_desc.hpp"

#include "sim/catalogue/array_spec.hpp"
#include "sim/catalogue/loaded_kernels.hpp"
#include "sim/catalogue/scenario.hpp"
#include "sim/teaching/kernel_view.hpp"

namespace ts::sim {
namespace {

/// M[row][kk] * N[kk][col] for kk along k: sim::matmulReferenceFma's order (PMPP Fig. 3.11).
std::vector<std::string> matmulTerms(const Scenario& s, long long i)
{
    std::vector<std::string> t;
    const long long row = i / s.l, col = i % s.l;
    for (int n = 0; n < s.k; ++n)
        t.push_back("M[" + std::to_string(row) + "][" + std::to_string(n) + "] * N[" + std::to_string(n) + "][" +
                    std::to_string(col) + "]");
    return t;
}

/// N[i - Mask_Width/2 + j] * M[j] for j along the mask, 0 for a ghost element
/// (sim::conv1dReferenceFma's order).
std::vector<std::string> conv1dTerms(const Scenario& s, long long i)
{
    std::vector<std::string> t;
    for (int n = 0; n < s.maskWidth; ++n) {
        const long long from = i - s.maskWidth / 2 + n;
        t.push_back((from < 0 || from >= s.width ? std::string("0") : "N[" + std::to_string(from) + "]") + " * M[" +
                    std::to_string(n) + "]");
    }
    return t;
}

/// M[i][j] * N[row - Mask_Width/2 + i][col - Mask_Width/2 + j] over the mask's rows, then
/// columns, 0 for a ghost cell (sim::conv2dReferenceFma's order).
std::vector<std::string> conv2dTerms(const Scenario& s, long long i)
{
    std::vector<std::string> t;
    for (int n = 0; n < s.maskWidth * s.maskWidth; ++n) {
        const long long row = i / s.width - s.maskWidth / 2 + n / s.maskWidth,
                        col = i % s.width - s.maskWidth / 2 + n % s.maskWidth;
        const bool ghost = row < 0 || row >= s.height || col < 0 || col >= s.width;
        t.push_back("M[" + std::to_string(n / s.maskWidth) + "][" + std::to_string(n % s.maskWidth) + "] * " +
                    (ghost ? std::string("0") : "N[" + std::to_string(row) + "][" + std::to_string(col) + "]"));
    }
    return t;
}

/// 2 j k l: a multiply and an add per term of every element of P (PMPP sec. 5.1).
double matmulFlops(const Scenario& s) { return 2.0 * s.j * s.k * s.l; }

/// Matrix multiplication, P = M x N (PMPP ch. 3-6).
const ProblemDesc kMatmul{.title = "matrix multiplication",
                          .dims = 2,
                          .picture = Picture::Matrices,
                          .boundary = Boundary::PastTheEdge,
                          .tilesOfM = true,
                          .flops = matmulFlops,
                          .sharedOfN = "Nds",
                          .idleStoreReason = " (their element would lie outside P)",
                          .referenceTerms = matmulTerms,
                          .threadVariables = matmulVariables};

/// 1D convolution, mask in constant memory (PMPP ch. 7).
const ProblemDesc kConv1D{.title = "1D convolution",
                          .dims = 1,
                          .picture = Picture::Convolution,
                          .boundary = Boundary::GhostCells,
                          .maskInConstant = true,
                          .trivialVariables = "",
                          .referenceTerms = conv1dTerms,
                          .threadVariables = convVariables};

/// 2D convolution, mask in constant memory as Mc (PMPP Fig. 7.7, 7.12).
const ProblemDesc kConv2D{.title = "2D convolution",
                          .dims = 2,
                          .picture = Picture::Convolution,
                          .boundary = Boundary::GhostCells,
                          .maskInConstant = true,
                          .constantLabel = "Mc",
                          .referenceTerms = conv2dTerms,
                          .threadVariables = convVariables};

/// An array problem (sim/catalogue/array_spec.hpp: a student's, or a described registry row),
/// 1D, 2D or 3D by its output.
const ProblemDesc kArray1D{.title = "array problem",
                           .dims = 1,
                           .picture = Picture::Arrays,
                           .boundary = Boundary::None,
                           .resultWord = "result",
                           .threadVariables = arrayVariables};
const ProblemDesc kArray2D{.title = "array problem",
                           .dims = 2,
                           .picture = Picture::Arrays,
                           .boundary = Boundary::None,
                           .resultWord = "result",
                           .threadVariables = arrayVariables};
const ProblemDesc kArray3D{.title = "array problem",
                           .dims = 3,
                           .picture = Picture::Arrays,
                           .boundary = Boundary::None,
                           .resultWord = "result",
                           .threadVariables = arrayVariables};

}  // namespace

const ParamLimit* paramLimit(const KernelInfo& k, ParamId p)
{
    for (const ParamLimit& l : k.params)
        if (l.id == p) return &l;
    return nullptr;
}

const ProblemDesc& problemOf(const KernelInfo& k)
{
    switch (k.family) {
    case Family::Matmul: return kMatmul;
    case Family::Conv1D: return kConv1D;
    case Family::Conv2D: return kConv2D;
    case Family::Array: {
        const std::shared_ptr<const ArraySpec> spec = arraySpecOf(k.name);
        const ArrayDecl* out = spec ? spec->output() : nullptr;
        if (out && out->extents.size() == 3) return kArray3D;
        return out && out->extents.size() == 2 ? kArray2D : kArray1D;
    }
    }
    return kMatmul;
}

const ProblemDesc& problemOf(const Scenario& s)
{
    const KernelInfo* k = s.kernelInfo();
    return k ? problemOf(*k) : kMatmul;
}

}  // namespace ts::sim
