// The index-expression evaluator (sim/teaching/expression.hpp) on written input, as a scenario file's
// practice question brings it: values past a long long and deep nesting are refused with a
// sentence instead of overflowing (undefined behaviour) or exhausting the stack.
#include <gtest/gtest.h>

#include <string>

#include "sim/teaching/expression.hpp"

namespace ts::test {
namespace {

TEST(ExpressionLimits, OverflowIsRefused)
{
    const sim::Variables v{{"Row", 3}, {"k", 4}};
    EXPECT_EQ(sim::evaluate("Row*k + 2", v).value, 14);
    for (const char* e : {"9223372036854775807 + 1", "99999999999999999999", "3037000500*3037000500",
                          "-9223372036854775807 - 2", "(0 - 9223372036854775807 - 1) / -1"}) {
        const sim::Evaluation r = sim::evaluate(e, v);
        EXPECT_FALSE(r.value) << e;
        EXPECT_NE(r.error.find("too large"), std::string::npos) << e << ": " << r.error;
    }
    EXPECT_EQ(sim::evaluate("9223372036854775807", v).value, 9223372036854775807LL);
    EXPECT_EQ(sim::evaluate("-9223372036854775807 - 1", v).value, -9223372036854775807LL - 1);
    EXPECT_EQ(sim::evaluate("7 / -1", v).value, -7);
}

TEST(ExpressionLimits, DeepNestingIsRefused)
{
    const sim::Variables v;
    EXPECT_EQ(sim::evaluate(std::string(64, '(') + "1" + std::string(64, ')'), v).value, 1);
    EXPECT_EQ(sim::evaluate(std::string(64, '-') + "1", v).value, 1);
    for (const std::string& e : {std::string(65, '(') + "1" + std::string(65, ')'), std::string(200000, '(') + "1",
                                 std::string(200000, '-') + "1"}) {
        const sim::Evaluation r = sim::evaluate(e, v);
        EXPECT_FALSE(r.value);
        EXPECT_NE(r.error.find("nested too deeply"), std::string::npos) << r.error.substr(0, 80);
    }
}

}  // namespace
}  // namespace ts::test
