// The reader of an array problem's texts (sim/engine/array_spec_text.hpp), moved here from
// student/module.cpp so that registry rows use it too.
#include "sim/engine/array_spec_text.hpp"

#include <cctype>

#include "sim/catalogue/kernel_registry.hpp"
#include "sim/catalogue/scenario.hpp"
#include "sim/engine/array_formula.hpp"
#include "sim/teaching/words.hpp"

namespace ts::sim {
namespace {

bool isName(const std::string& s)
{
    if (s.empty() || !(std::isalpha(static_cast<unsigned char>(s[0])) || s[0] == '_')) return false;
    for (char c : s)
        if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_')) return false;
    return true;
}

}  // namespace

std::string shortQuote(const std::string& text)
{
    return text.size() <= 80 ? text : text.substr(0, 60) + "... (" + std::to_string(text.size()) + " characters)";
}

std::vector<std::string> splitCommas(const std::string& text)
{
    std::vector<std::string> parts;
    size_t start = 0;
    for (;;) {
        const size_t comma = text.find(',', start);
        parts.push_back(trim(text.substr(start, comma == std::string::npos ? std::string::npos : comma - start)));
        if (comma == std::string::npos) return parts;
        start = comma + 1;
    }
}

std::vector<float> inputValues(const ArrayDecl& a, size_t count, uint64_t seed, uint64_t stream, const Progress& progress,
                               const TextInput& text)
{
    if (a.type == ElementType::Char) return textValues(text, count, seed);
    return a.integers() ? randomIntegers(count, seed, stream, a.lo, a.hi, progress) : randomInput(count, seed, stream, progress);
}

std::shared_ptr<ArraySpec> readArraySpec(const std::string& arrays, const std::string& sizes, const std::string& reference,
                                         const std::string& file, ArraySpecFault& fault, int blockDim)
{
    auto fail = [&](ArraySpecPlace place, const std::string& why) {
        fault = ArraySpecFault{place, why};
        return nullptr;
    };
    using P = ArraySpecPlace;
    if (arrays.empty())
        return fail(P::Family, "an array problem names its arrays: `// tilescope: arrays = in A[n], in B[n], out C[n]`");
    if (sizes.empty())
        return fail(P::Arrays, "an array problem names its sizes and their defaults: `// tilescope: sizes = n = 1000`");
    if (reference.empty())
        return fail(P::Arrays, "an array problem gives its CPU reference as a formula: `// tilescope: reference = C[i] = A[i] + B[i]`");
    auto spec = std::make_shared<ArraySpec>();
    spec->file = file;
    spec->reference = reference;
    // sizes = n = 1000 | rows = 48, cols = 64
    Variables defaults;
    for (const std::string& part : splitCommas(sizes)) {
        const size_t eq = part.find('=');
        const std::string name = trim(part.substr(0, eq));
        if (eq == std::string::npos || !isName(name))
            return fail(P::Sizes, "each size is `NAME = DEFAULT`, like `n = 1000`; got '" + part + "'");
        const std::string value = trim(part.substr(eq + 1));
        const Evaluation ev = evaluate(value, {});
        if (!ev.value) return fail(P::Sizes, "the default of size " + name + " must be an integer; got '" + value + "'");
        if (*ev.value < 1 || *ev.value > kMaxConvWidth1D)
            return fail(P::Sizes, "size " + name + " = " + value + ": a size must be between 1 and 2^24");
        if (defaults.count(name)) return fail(P::Sizes, "size " + name + " is named twice");
        defaults[name] = *ev.value;
        spec->sizes.push_back(name);
        spec->defaults.push_back(static_cast<int>(*ev.value));
    }
    if (spec->sizes.size() > 2)
        return fail(P::Sizes, "an array problem has one size (1D) or two (2D, rows then columns); this one names " +
                                  std::to_string(spec->sizes.size()));
    if (blockDim > 0 && (arrays.find("BLOCK_DIM") != std::string::npos || reference.find("BLOCK_DIM") != std::string::npos)) {
        spec->blockDim = true;
        defaults["BLOCK_DIM"] = blockDim;
    }
    // arrays = in A[n], out B[rows][cols], out C[n][n][n]
    for (const std::string& whole : splitCommas(arrays)) {
        ArrayDecl a;
        // `in A[n] = LO..HI` (integer inputs) or `out S[1] = VALUE` (the output's start).
        const size_t eq = whole.find('=');
        const std::string part = trim(whole.substr(0, eq));
        if (eq != std::string::npos) {
            const std::string value = trim(whole.substr(eq + 1));
            const bool output = part.rfind("out", 0) == 0 || part.rfind("tmp", 0) == 0;
            const size_t dots = value.find("..");
            const Evaluation lo = evaluate(dots == std::string::npos ? value : value.substr(0, dots), {});
            const Evaluation hi = dots == std::string::npos ? Evaluation{} : evaluate(value.substr(dots + 2), {});
            if (output) {
                if (!lo.value || dots != std::string::npos || *lo.value < -(1 << 24) || *lo.value > (1 << 24))
                    return fail(P::Arrays, "an output's start is one integer, `out S[1] = 0`; got '" + shortQuote(whole) + "'");
                a.hasStart = true;
                a.start = static_cast<float>(*lo.value);
            } else {
                if (!lo.value || !hi.value || *lo.value > *hi.value || *lo.value < -(1 << 20) || *hi.value > (1 << 20))
                    return fail(P::Arrays, "an input of integers is `in A[n] = LO..HI`, LO <= HI within 2^20; got '" +
                                               shortQuote(whole) + "'");
                a.lo = static_cast<int>(*lo.value);
                a.hi = static_cast<int>(*hi.value);
            }
        }
        const size_t space = part.find_first_of(" \t");
        const std::string role = part.substr(0, space);
        std::string rest = space == std::string::npos ? "" : trim(part.substr(space));
        // An element type before the name: `in char data[N]`, `out unsigned histo[7]`.
        for (const auto& [word, type] : {std::pair<const char*, ElementType>{"unsigned int ", ElementType::Unsigned},
                                         {"unsigned ", ElementType::Unsigned}, {"int ", ElementType::Int},
                                         {"char ", ElementType::Char}, {"float ", ElementType::Float}})
            if (rest.rfind(word, 0) == 0) {
                a.type = type;
                rest = trim(rest.substr(std::string(word).size()));
                break;
            }
        const size_t bracket = rest.find('[');
        if (role == "tmp" && blockDim <= 0)
            return fail(P::Arrays, "scratch arrays (`tmp`) are for the registry's kernels; a kernel file has inputs and one output");
        if ((role != "in" && role != "out" && role != "tmp") || bracket == std::string::npos || rest.back() != ']')
            return fail(P::Arrays, "each array is `in NAME[extent]` or `out NAME[rows][cols]`; got '" + whole + "'");
        a.output = role == "out";
        a.scratch = role == "tmp";
        if (a.scratch && !a.hasStart) {
            a.hasStart = true;
            a.start = 0.0f;
        }
        a.name = trim(rest.substr(0, bracket));
        if (a.type == ElementType::Char && a.output)
            return fail(P::Arrays, "a char array is an input of text (`in char data[N]`); an output is float, int or unsigned");
        if (a.type == ElementType::Char && a.integers())
            return fail(P::Arrays, "a char input holds text (the book's phrase, a file or random letters); it takes no `= LO..HI`");
        if (a.type == ElementType::Char && a.scratch)
            return fail(P::Arrays, "a scratch array holds float, int or unsigned elements");
        if (a.type != ElementType::Float && !a.output && !a.scratch && !a.integers() && a.type != ElementType::Char)
            return fail(P::Arrays, "an input of " + std::string(elementTypeName(a.type)) + " gives its values, `in " +
                                       elementTypeName(a.type) + " " + a.name + "[n] = LO..HI`");
        if (!isName(a.name)) return fail(P::Arrays, "'" + a.name + "' is not a name for an array");
        for (size_t p = bracket; p < rest.size();) {
            const size_t close = rest.find(']', p);
            if (rest[p] != '[' || close == std::string::npos)
                return fail(P::Arrays, "the extents of " + a.name + " are written [n] or [rows][cols]; got '" + rest + "'");
            a.extents.push_back(trim(rest.substr(p + 1, close - p - 1)));
            p = close + 1;
            while (p < rest.size() && rest[p] == ' ') ++p;
        }
        if (a.extents.size() > 3)
            return fail(P::Arrays, a.name + " has " + std::to_string(a.extents.size()) + " extents; an array is 1D, 2D or 3D");
        for (const ArrayDecl& b : spec->arrays)
            if (b.name == a.name) return fail(P::Arrays, "the array " + a.name + " is declared twice");
        if (defaults.count(a.name)) return fail(P::Arrays, a.name + " is both a size and an array");
        for (const std::string& e : a.extents) {
            const Evaluation ev = evaluate(e, defaults);
            if (!ev.value)
                return fail(P::Arrays, "the extent '" + shortQuote(e) + "' of " + a.name + " cannot be evaluated: " +
                                           (ev.unknown.empty() ? shortQuote(ev.error) : "it uses " + ev.unknown + ", which is not a size of the sizes line"));
            if (*ev.value < 1)
                return fail(P::Arrays, "the extent '" + e + "' of " + a.name + " is " + std::to_string(*ev.value) +
                                           " at the default sizes; an array has at least one element");
        }
        spec->arrays.push_back(a);
    }
    int outputs = 0, inputs = 0, scratch = 0;
    for (const ArrayDecl& a : spec->arrays) (a.output ? outputs : a.scratch ? scratch : inputs) += 1;
    if (scratch > ArraySpec::kMaxScratch)
        return fail(P::Arrays, "a registry row has at most " + std::to_string(ArraySpec::kMaxScratch) + " scratch arrays; this one has " +
                                   std::to_string(scratch));
    if (outputs != 1) return fail(P::Arrays, "an array problem has exactly one output array (`out NAME[...]`); this one has " + std::to_string(outputs));
    if (inputs > 2) return fail(P::Arrays, "an array problem has at most two input arrays; this one has " + std::to_string(inputs));
    // The reference, read and computed once at the default sizes (when they are small enough).
    Scenario sample;
    sample.width = spec->defaults.back();
    sample.height = spec->defaults.size() == 2 ? spec->defaults.front() : 1;
    if (blockDim > 0) sample.tile = blockDim;
    const Variables v = spec->sizeValues(sample);
    std::vector<std::vector<float>> values;
    std::vector<FormulaArray> formulaInputs;
    FormulaArray out;
    long long elements = 0;
    for (const ArrayDecl& a : spec->arrays) {
        ArrayShape sh;
        std::string error;
        if (!spec->shape(a, v, sh, error)) return fail(P::Arrays, error);
        elements += sh.size();
        if (a.scratch) continue;   // no part of the reference
        const FormulaArray f = formulaArray(a, sh);
        if (a.output) out = f;
        else formulaInputs.push_back(f);
    }
    values.reserve(formulaInputs.size());
    for (size_t i = 0; i < formulaInputs.size(); ++i) {
        values.push_back(inputValues(*spec->inputs()[i], static_cast<size_t>(formulaInputs[i].rows) * formulaInputs[i].cols, 1, i + 1));
        formulaInputs[i].values = &values.back();
    }
    ArrayFormula f;
    if (const std::string e = f.parse(reference, out, formulaInputs, v); !e.empty()) return fail(P::Reference, e);
    if (elements <= (1ll << 22)) {
        uint64_t flops = 0;
        std::string error;
        f.evaluateAll(v, flops, error);
        if (!error.empty()) return fail(P::Reference, error + " (at the default sizes)");
    }
    return spec;
}

}  // namespace ts::sim
