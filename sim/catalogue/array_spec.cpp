// The rules of an array problem's sizes and shapes (sim/catalogue/array_spec.hpp).
#include "sim/catalogue/array_spec.hpp"

#include <algorithm>

#include "sim/catalogue/scenario.hpp"

namespace ts::sim {

const char* elementTypeName(ElementType t)
{
    switch (t) {
    case ElementType::Float: return "float";
    case ElementType::Int: return "int";
    case ElementType::Unsigned: return "unsigned int";
    case ElementType::Char: return "char";
    }
    return "float";
}

int elementBytes(ElementType t)
{
    return t == ElementType::Char ? 1 : 4;
}

std::string checkText(const std::string& text, const std::string& what)
{
    if (text.empty()) return what + " is empty; a histogram needs at least one character.";
    if (text.size() > kMaxTextBytes)
        return what + " has " + std::to_string(text.size()) + " bytes, more than the " + std::to_string(kMaxTextBytes) +
               " (1 MiB) a text input may have.";
    for (size_t i = 0; i < text.size(); ++i) {
        const auto c = static_cast<unsigned char>(text[i]);
        if (c == '\t' || c == '\n' || c == '\r' || (c >= 32 && c < 127)) continue;
        // UTF-8: a lead byte of 2 to 4 bytes, then continuation bytes 10xxxxxx.
        const size_t more = c >= 0xC2 && c <= 0xDF ? 1 : c >= 0xE0 && c <= 0xEF ? 2 : c >= 0xF0 && c <= 0xF4 ? 3 : 0;
        bool ok = more > 0 && i + more < text.size();
        for (size_t k = 1; ok && k <= more; ++k) ok = (static_cast<unsigned char>(text[i + k]) & 0xC0) == 0x80;
        if (ok) {
            i += more;
            continue;
        }
        return what + " is not text: byte " + std::to_string(i) + " is " + std::to_string(c) +
               (c < 32 || c == 127 ? " (a control character; is it a binary file?)." : " (not UTF-8; is it a binary file?).");
    }
    return "";
}

std::vector<float> textValues(const TextInput& in, size_t count, uint64_t seed)
{
    std::vector<float> v;
    v.reserve(count);
    if (!in.text.empty() || in.skew < 0) {
        const std::string& t = in.text.empty() ? std::string(kBookPhrase) : in.text;
        for (size_t i = 0; i < count; ++i) v.push_back(static_cast<float>(static_cast<signed char>(t[i % t.size()])));
        return v;
    }
    // Random text: `skew` percent 'e', the rest uniform over the 26 letters and the space.
    const std::vector<float> pick = randomIntegers(count, seed, 7, 0, 99);
    const std::vector<float> letter = randomIntegers(count, seed, 8, 0, 26);
    for (size_t i = 0; i < count; ++i)
        v.push_back(pick[i] < static_cast<float>(in.skew) ? 'e' : letter[i] == 26.0f ? ' ' : 'a' + letter[i]);
    return v;
}

Variables ArraySpec::sizeValues(const Scenario& s) const
{
    Variables v;
    if (sizes.size() == 1) v[sizes[0]] = s.width;
    else if (sizes.size() == 2) v[sizes[0]] = s.height, v[sizes[1]] = s.width;
    if (blockDim) v["BLOCK_DIM"] = s.tile;
    return v;
}

bool ArraySpec::shape(const ArrayDecl& a, const Variables& v, ArrayShape& sh, std::string& error) const
{
    long long ext[3] = {1, 1, 1};
    const size_t n = std::min<size_t>(a.extents.size(), 3);
    for (size_t d = 0; d < n; ++d) {
        const Evaluation e = evaluate(a.extents[d], v);
        if (!e.value) {
            error = "The extent '" + a.extents[d] + "' of array " + a.name + " cannot be evaluated: " + e.error;
            return false;
        }
        if (*e.value < 1 || *e.value > (1ll << 26)) {
            error = "The extent '" + a.extents[d] + "' of array " + a.name + " is " + std::to_string(*e.value) +
                    " for this problem; it must be between 1 and 2^26.";
            return false;
        }
        ext[3 - n + d] = *e.value;
    }
    // Multiplied one extent at a time: three extents of 2^24 (each within its limit) would
    // overflow 64 bits together and wrap to a small count.
    long long elements = 1;
    for (long long e : ext) {
        elements *= e;
        if (elements > (1ll << 26)) {
            error = "Array " + a.name + " would have more than the 2^26 elements TileScope simulates.";
            return false;
        }
    }
    sh.dims = static_cast<int>(std::max<size_t>(n, 1));
    sh.slices = static_cast<int>(ext[0]);
    sh.rows = static_cast<int>(ext[1]);
    sh.cols = static_cast<int>(ext[2]);
    return true;
}

bool ArraySpec::shape(const ArrayDecl& a, const Variables& v, int& rows, int& cols, std::string& error) const
{
    ArrayShape sh;
    if (!shape(a, v, sh, error)) return false;
    rows = sh.slices * sh.rows;
    cols = sh.cols;
    return true;
}

const ArrayDecl* ArraySpec::find(const std::string& name) const
{
    for (const ArrayDecl& a : arrays)
        if (a.name == name) return &a;
    return nullptr;
}

std::vector<const ArrayDecl*> ArraySpec::inputs() const
{
    std::vector<const ArrayDecl*> in;
    for (const ArrayDecl& a : arrays)
        if (!a.output && !a.scratch) in.push_back(&a);
    return in;
}

std::vector<const ArrayDecl*> ArraySpec::scratch() const
{
    std::vector<const ArrayDecl*> tmp;
    for (const ArrayDecl& a : arrays)
        if (a.scratch) tmp.push_back(&a);
    return tmp;
}

const ArrayDecl* ArraySpec::output() const
{
    for (const ArrayDecl& a : arrays)
        if (a.output) return &a;
    return nullptr;
}

}  // namespace ts::sim
