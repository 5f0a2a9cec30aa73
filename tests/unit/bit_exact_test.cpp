// Bit-exact agreement (docs/design.md, principle 3): the simulator's P equals a CPU reference
// that accumulates with fmaf in k order, and it equals it because the simulator fuses the
// multiply-add itself, not because of the host compiler's contraction settings.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>

#include "fused_product.hpp"
#include "trace_query.hpp"

namespace ts::test {
namespace {

struct Shape {
    int j, k, l;
};
const Shape kShapes[] = {{1, 1, 1}, {3, 3, 3}, {17, 17, 17}, {100, 37, 51}};

/// The same sum with the product rounded before the add. `volatile` keeps the compiler
/// from contracting the two operations into one, whatever -ffp-contract says.
std::vector<float> unfusedProduct(const std::vector<float>& M, const std::vector<float>& N, int j, int k, int l)
{
    std::vector<float> P(static_cast<size_t>(j) * l);
    for (int r = 0; r < j; ++r)
        for (int c = 0; c < l; ++c) {
            float acc = 0;
            for (int i = 0; i < k; ++i) {
                volatile float product = M[r * k + i] * N[i * l + c];
                acc = acc + product;
            }
            P[r * l + c] = acc;
        }
    return P;
}

bool sameBits(const std::vector<float>& a, const std::vector<float>& b)
{
    return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(float)) == 0;
}

size_t differing(const std::vector<float>& a, const std::vector<float>& b)
{
    size_t n = 0;
    for (size_t i = 0; i < a.size(); ++i) n += std::memcmp(&a[i], &b[i], sizeof(float)) != 0;
    return n;
}

void expectBitExact(const sim::Scenario& s)
{
    SCOPED_TRACE(s.kernel + " tile " + std::to_string(s.tile) + " " + std::to_string(s.j) + "x" +
                 std::to_string(s.k) + "x" + std::to_string(s.l));
    sim::SimOptions o;
    o.trace = false;
    const sim::Simulation r = sim::simulate(s, o);
    ASSERT_EQ(r.error, "");
    // Never test on zeros: the inputs are random and non-zero.
    for (float v : r.M) ASSERT_NE(v, 0.0f);
    for (float v : r.N) ASSERT_NE(v, 0.0f);
    EXPECT_TRUE(sameBits(r.P, fusedProduct(r.M, r.N, s.j, s.k, s.l)));
    EXPECT_TRUE(r.matchesReference);
}

TEST(BitExact, TiledMatchesFusedReferenceForEveryTileWidth)
{
    for (const Shape& sh : kShapes)
        for (int tile : sim::kTileWidths) expectBitExact(matmul("matmul-tiled", sh.j, sh.k, sh.l, tile));
}

TEST(BitExact, NaiveMatchesFusedReferenceForSeveralBlockEdges)
{
    for (const Shape& sh : kShapes)
        for (int tile : {1, 3, 16, 32}) expectBitExact(matmul("matmul-naive", sh.j, sh.k, sh.l, tile));
}

TEST(BitExact, WarpScheduleDoesNotChangeP)
{
    const sim::Scenario s = matmul("matmul-tiled", 70, 45, 33, 32);
    const sim::Simulation inOrder = sim::simulate(s);
    for (sim::Schedule sched : {sim::Schedule::Reverse, sim::Schedule::Random}) {
        sim::SimOptions o;
        o.schedule = sched;
        o.scheduleSeed = 7;
        const sim::Simulation r = sim::simulate(s, o);
        EXPECT_TRUE(sameBits(r.P, inOrder.P));
        EXPECT_EQ(r.counters.elementLoads, inOrder.counters.elementLoads);
    }
}

// The proof that the simulator fuses: on these inputs a separately rounded multiply and
// add gives a different P, and the simulator's P is the fused one. Were the simulator to
// compute `Pvalue += a * b` as two roundings (GCC 13 in ISO mode does, docs/design.md), this
// test would fail (tried: with the std::fma of sim/engine/context.hpp replaced by a rounded
// product and an add, it and every bit-exact test fail). The simulator is built with
// -ffp-contract=off, so no fusing seen here comes from the host compiler.
TEST(BitExact, SimulatorFusesMultiplyAddItself)
{
    for (const char* kernel : {"matmul-tiled", "matmul-naive"})
        for (const Shape& sh : {Shape{17, 17, 17}, Shape{100, 37, 51}}) {
            SCOPED_TRACE(std::string(kernel) + " " + std::to_string(sh.j) + "x" + std::to_string(sh.k) +
                         "x" + std::to_string(sh.l));
            const sim::Simulation r = sim::simulate(matmul(kernel, sh.j, sh.k, sh.l, 16));
            const std::vector<float> fused = fusedProduct(r.M, r.N, sh.j, sh.k, sh.l);
            const std::vector<float> unfused = unfusedProduct(r.M, r.N, sh.j, sh.k, sh.l);
            // The inputs do tell the two apart...
            EXPECT_GT(differing(fused, unfused), r.P.size() / 10);
            // ...and the simulator is on the fused side, in every element.
            EXPECT_EQ(differing(r.P, fused), 0u);
            EXPECT_EQ(differing(r.P, unfused), differing(fused, unfused));
        }
}

}  // namespace
}  // namespace ts::test
