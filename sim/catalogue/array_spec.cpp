// The rules of an array problem's sizes and shapes (sim/catalogue/array_spec.hpp).
#include "sim/catalogue/array_spec.hpp"

#include <algorithm>

#include "sim/catalogue/scenario.hpp"

namespace ts::sim {

Variables ArraySpec::sizeValues(const Scenario& s) const
{
    Variables v;
    if (sizes.size() == 1) v[sizes[0]] = s.width;
    else if (sizes.size() == 2) v[sizes[0]] = s.height, v[sizes[1]] = s.width;
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
        if (!a.output) in.push_back(&a);
    return in;
}

const ArrayDecl* ArraySpec::output() const
{
    for (const ArrayDecl& a : arrays)
        if (a.output) return &a;
    return nullptr;
}

}  // namespace ts::sim
