// The grader's and the caption's explanation of a wrong element of P
// (sim/teaching/wrong_element.hpp), checked a second way: the products it names for the
// thread, looked up in M and N and summed with fmaf in its order, give the value the
// kernel stored bit for bit, and the reference's products give the CPU reference's value.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <regex>

#include "kernels/context.cuh"
#include "sim/engine/provenance.hpp"
#include "sim/engine/simulate.hpp"
#include "sim/teaching/wrong_element.hpp"
#include "trace_query.hpp"

namespace ts::test {
namespace {

bool sameBits(float a, float b) { return std::memcmp(&a, &b, sizeof a) == 0; }

/// The fmaf sum of products named "M[r][c] * N[r][c]" over the inputs of `s`; nullopt for a
/// product the terms could not name.
std::optional<float> sumOf(const sim::Simulation& s, const std::vector<std::string>& terms)
{
    static const std::regex product(R"(M\[(\d+)\]\[(\d+)\] \* N\[(\d+)\]\[(\d+)\])");
    float acc = 0;
    for (const std::string& t : terms) {
        std::smatch m;
        if (!std::regex_match(t, m, product)) return std::nullopt;
        const size_t mr = std::stoul(m[1]), mc = std::stoul(m[2]), nr = std::stoul(m[3]), nc = std::stoul(m[4]);
        acc = std::fmaf(s.M.at(mr * s.scenario.k + mc), s.N.at(nr * s.scenario.l + nc), acc);
    }
    return acc;
}

TEST(WrongElement, NamedProductsGiveTheStoredAndTheReferenceValues)
{
    // Without the barrier after the compute a thread reads tiles of the next phase: wrong P.
    sim::Scenario sc = matmul("matmul-tiled", 8, 8, 8, 4);
    sc.dropBarriers = kernels::AFTER_COMPUTE;
    const sim::Simulation s = sim::simulate(sc);
    ASSERT_FALSE(s.matchesReference);
    int explained = 0, differing = 0;
    for (int thread = 0; thread < 16; ++thread) {
        for (int32_t i : sim::storesOf(s.trace, 2, thread)) {
            const std::vector<std::string> got = sim::termsSummed(s, thread, 2, i);
            const std::vector<std::string> want = sim::referenceTerms(s.scenario, i);
            ASSERT_EQ(want.size(), 8u);
            const std::optional<float> gotSum = sumOf(s, got), wantSum = sumOf(s, want);
            ASSERT_TRUE(wantSum.has_value());
            EXPECT_TRUE(sameBits(*wantSum, s.reference[i])) << "P[" << i << "]: the reference's products";
            if (!gotSum) continue;   // a product of a slot nobody stored in time
            EXPECT_TRUE(sameBits(*gotSum, s.P[i])) << "P[" << i << "]: the thread's named products give " << *gotSum
                                                  << ", it stored " << s.P[i];
            ++explained;
            if (sameBits(s.P[i], s.reference[i])) continue;
            ++differing;
            // The sentence names the value, then the cause: the store that put the first
            // product's wrong operand into its shared slot; then the writer of P.
            const std::string text = sim::wrongElementText(s, i, 35);
            const sim::PElement e = sim::elementAt(s.arrays[2], i);
            const std::string name = "P[" + std::to_string(e.row) + "][" + std::to_string(e.col) + "]";
            EXPECT_EQ(text.rfind(name + " is " + sim::floatText(s.P[i]) + " where the reference gives " +
                                     sim::floatText(s.reference[i]) + ": line ",
                                 0),
                      0u)
                << text;
            EXPECT_NE(text.find("; thread " + sim::threadText(s.block, thread) + " of block (0, 0) stored it at line 35"),
                      std::string::npos)
                << text;
            size_t n = 0;
            while (n < got.size() && got[n] == want[n]) ++n;
            ASSERT_LT(n, got.size()) << "the sums differ, so some product must";
            EXPECT_NE(text.find("read for term " + std::to_string(n + 1) + " of the sum; the reference's term " +
                                std::to_string(n + 1) + " is " + want[n]),
                      std::string::npos)
                << text;
            // A second way: the store the sentence names is in the trace, on that line,
            // putting that element of M or N into that slot.
            static const std::regex cause(R"(: line (\d+) stored ([MN]\[\d+\]\[\d+\]) into ([MN]ds\[\d+\]\[\d+\]),)");
            std::smatch m;
            ASSERT_TRUE(std::regex_search(text, m, cause)) << text;
            const unsigned line = static_cast<unsigned>(std::stoul(m[1]));
            bool found = false;
            for (const sim::Event& ev : s.trace.events)
                found |= ev.op == sim::Op::SharedStore && ev.line == line && ev.originArray < s.trace.arrays.size() &&
                         sim::elementText(s.trace.arrays[ev.originArray], ev.origin) == m[2].str() &&
                         sim::elementText(s.trace.arrays[ev.array], ev.index) == m[3].str();
            EXPECT_TRUE(found) << "no store on line " << line << " put " << m[2] << " into " << m[3];
            // The operand named is the one where the thread's product and the reference's part.
            EXPECT_TRUE(got[n].find(m[2].str()) != std::string::npos && want[n].find(m[2].str()) == std::string::npos)
                << got[n] << " / " << want[n];
        }
    }
    EXPECT_GE(explained, 8);
    EXPECT_GE(differing, 1);
}

TEST(WrongElement, OutsidePIsAnError)
{
    const sim::Simulation s = sim::simulate(matmul("matmul-tiled", 4, 4, 4, 2));
    EXPECT_THROW(sim::wrongElementText(s, 16), std::out_of_range);
}

}  // namespace
}  // namespace ts::test
