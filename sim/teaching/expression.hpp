// Index expressions as written in a kernel's source: find the array accesses on a line,
// put a thread's numbers in for its variables, and evaluate the result. The code view
// uses it to show `M[Row*k + ph*TILE_WIDTH + tx] = M[1*4 + 1*2 + 0] = M[6]`. No UI.
#pragma once
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ts::sim {

/// Integer variables by name ("Row" -> 1, "TILE_WIDTH" -> 2).
using Variables = std::map<std::string, long long>;

/// The value of an expression, or why there is none.
struct Evaluation {
    std::optional<long long> value;
    std::string error;   ///< one sentence when value is empty
    /// The first name without a value, when that is why there is none (a kernel's own
    /// variable that the caller does not follow); else empty.
    std::string unknown;
};

/// Evaluates an integer expression of literals, variables, + - * / (C's truncating
/// division), unary minus and parentheses. A variable's name may end in `.x`, `.y` or `.z`,
/// as CUDA's built-in variables do (`threadIdx.x`). An unknown name, a division by zero, a value
/// that does not fit in a long long, nesting deeper than 64 parentheses or minus signs, or a
/// syntax error gives no value and a sentence in `error`.
Evaluation evaluate(std::string_view expr, const Variables& vars);

/// `expr` with every known variable replaced by its value, operators and spacing kept:
/// "Row*k + tx" with Row=1, k=4, tx=0 gives "1*4 + 0". Unknown names stay as they are.
std::string substitute(std::string_view expr, const Variables& vars);

/// One array access written in source text: `Mds[ty][i]` is {"Mds", {"ty", "i"}}.
struct AccessText {
    std::string array;
    std::vector<std::string> subscripts;   ///< the text inside each pair of brackets
    std::string text() const;              ///< "Mds[ty][i]"
};

/// The accesses to any of `arrays` on `line`, left to right. Only whole identifiers
/// followed by `[` count (`Mds[` is not an access to `M`).
std::vector<AccessText> findAccesses(std::string_view line, const std::vector<std::string>& arrays);

}  // namespace ts::sim
