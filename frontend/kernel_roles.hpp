// Which array or size each parameter of a student's kernel receives: the one rule that the
// simulator's binding (student/module.cpp) and the GPU launch of the same file through
// NVRTC (gpu/student_launch.cu) both follow, so that the two runs get the same arguments.
// Header-only: the GPU layer uses it without linking the student layer.
#pragma once
#include <algorithm>
#include <string>
#include <vector>

#include "frontend/translate.hpp"

namespace ts::student {

/// The array or size a kernel parameter receives. Width is a square matmul's one size, or
/// a convolution's width.
/// An array problem's parameters (Family::Array) are its first and second input (In0,
/// In1), its output (Out) and its first and second size (Size0, Size1).
enum class Role { M, N, P, J, K, L, Width, MaskWidth, Height, In0, In1, Out, Size0, Size1 };

/// Assigns each parameter of a matrix multiplication kernel its role, or reports why not.
inline std::vector<Role> matmulRoles(const Translation& t, std::vector<Diagnostic>& errors, bool& square)
{
    std::vector<Role> roles;
    square = false;
    std::vector<const KernelParam*> pointers;
    for (const KernelParam& p : t.params)
        if (p.kind != KernelParam::Kind::Int) pointers.push_back(&p);
    const bool named = [&] {
        int m = 0, n = 0, pp = 0;
        for (const KernelParam* p : pointers) m += p->name == "M", n += p->name == "N", pp += p->name == "P";
        return m == 1 && n == 1 && pp == 1;
    }();
    if (pointers.size() != 3) {
        errors.push_back(Diagnostic{t.params.empty() ? 0 : t.params.front().line, 0,
                                    "a matrix multiplication kernel takes three float pointers, M, N and P (this one takes " +
                                        std::to_string(pointers.size()) + ")"});
        return roles;
    }
    // The sizes: by PMPP's names (j, k, l; Width), else, as a launch passes them, by
    // position in the family's order: three ints are j, k and l, one is Width.
    size_t ints = 0;
    bool allNamed = true;
    for (const KernelParam& p : t.params)
        if (p.kind == KernelParam::Kind::Int) {
            ++ints;
            allNamed = allNamed && (p.name == "j" || p.name == "k" || p.name == "l" || p.name == "Width" ||
                                    p.name == "width" || p.name == "n");
        }
    const bool byPosition = !allNamed && (ints == 3 || ints == 1);
    int order = 0, sizeOrder = 0;
    for (const KernelParam& p : t.params) {
        if (p.kind == KernelParam::Kind::Int && byPosition) {
            roles.push_back(ints == 1 ? Role::Width : sizeOrder == 0 ? Role::J : sizeOrder == 1 ? Role::K : Role::L);
            square = ints == 1;
            ++sizeOrder;
            continue;
        }
        if (p.kind != KernelParam::Kind::Int) {
            const Role r = named ? (p.name == "M" ? Role::M : p.name == "N" ? Role::N : Role::P)
                                 : (order == 0 ? Role::M : order == 1 ? Role::N : Role::P);
            ++order;
            if (r == Role::P && p.kind == KernelParam::Kind::ConstFloatPointer)
                errors.push_back(Diagnostic{p.line, 0, "parameter " + p.name +
                                                           " is the output P, so it cannot be const float*: the kernel writes it"});
            roles.push_back(r);
            continue;
        }
        if (p.name == "j") roles.push_back(Role::J);
        else if (p.name == "k") roles.push_back(Role::K);
        else if (p.name == "l") roles.push_back(Role::L);
        else if (p.name == "Width" || p.name == "width" || p.name == "n") {
            roles.push_back(Role::Width);
            square = true;
        } else {
            errors.push_back(Diagnostic{p.line, 0, "int parameter " + p.name +
                                                       " is not a size TileScope knows: name the sizes j, k and l (M is j x k, "
                                                       "N is k x l) or Width for square matrices (three sizes, or one, are taken "
                                                       "in that order whatever their names), or state the launch's arguments in "
                                                       "order, e.g. `// tilescope: args = M, N, P, j, k, l`"});
            roles.push_back(Role::J);
        }
    }
    return roles;
}

/// Assigns each parameter of a convolution kernel its role (PMPP Fig. 7.8's
/// `(float* N, float* P, int Mask_Width, int Width)`; 2D adds height), or reports why not.
inline std::vector<Role> convRoles(const Translation& t, bool twoD, std::vector<Diagnostic>& errors)
{
    std::vector<Role> roles;
    std::vector<const KernelParam*> pointers;
    for (const KernelParam& p : t.params)
        if (p.kind != KernelParam::Kind::Int) pointers.push_back(&p);
    const unsigned first = t.params.empty() ? 0 : t.params.front().line;
    if (pointers.size() != 2) {
        errors.push_back(Diagnostic{first, 0, "a convolution kernel takes two float pointers, the input N and the output P, "
                                              "and reads the mask from a __constant__ array (this one takes " +
                                                  std::to_string(pointers.size()) + " pointers)"});
        return roles;
    }
    const bool named = (pointers[0]->name == "N" && pointers[1]->name == "P") ||
                       (pointers[0]->name == "P" && pointers[1]->name == "N");
    // The sizes: by PMPP's names, else by position in the family's order (Mask_Width, then
    // Width in 1D; Mask_Width, height, width in 2D), as a launch passes them.
    size_t ints = 0;
    bool allNamed = true;
    for (const KernelParam& p : t.params)
        if (p.kind == KernelParam::Kind::Int) {
            ++ints;
            allNamed = allNamed && (p.name == "Mask_Width" || p.name == "mask_width" || p.name == "maskWidth" ||
                                    p.name == "Width" || p.name == "width" || (twoD && (p.name == "height" || p.name == "Height")));
        }
    const bool byPosition = !allNamed && ints == (twoD ? 3u : 2u);
    int order = 0, sizeOrder = 0;
    for (const KernelParam& p : t.params) {
        if (p.kind == KernelParam::Kind::Int && byPosition) {
            roles.push_back(sizeOrder == 0 ? Role::MaskWidth : twoD && sizeOrder == 1 ? Role::Height : Role::Width);
            ++sizeOrder;
            continue;
        }
        if (p.kind != KernelParam::Kind::Int) {
            const Role r = named ? (p.name == "N" ? Role::N : Role::P) : (order == 0 ? Role::N : Role::P);
            ++order;
            if (r == Role::P && p.kind == KernelParam::Kind::ConstFloatPointer)
                errors.push_back(Diagnostic{p.line, 0, "parameter " + p.name + " is the output P, so it cannot be const float*: the kernel writes it"});
            roles.push_back(r);
        } else if (p.name == "Mask_Width" || p.name == "mask_width" || p.name == "maskWidth") {
            roles.push_back(Role::MaskWidth);
        } else if (p.name == "Width" || p.name == "width") {
            roles.push_back(Role::Width);
        } else if (twoD && (p.name == "height" || p.name == "Height")) {
            roles.push_back(Role::Height);
        } else {
            errors.push_back(Diagnostic{p.line, 0, "int parameter " + p.name + " is not a size TileScope knows: a " +
                                                       (twoD ? "2D" : "1D") + " convolution kernel takes Mask_Width and " +
                                                       (twoD ? "height and width" : "Width") + ", or state the launch's arguments in order, e.g. " +
                                                       (twoD ? "`// tilescope: args = N, P, Mask_Width, width, height`" : "`// tilescope: args = N, P, Mask_Width, Width`")});
            roles.push_back(Role::Width);
        }
    }
    return roles;
}

/// Assigns each parameter of an array problem's kernel its role by name: a pointer is one of
/// the arrays the header declares (`inputs` in order, `output`), an int one of its `sizes`;
/// every array must be a parameter. Reports what does not fit, on the parameter's line (or
/// `arraysLine` for an array the kernel does not take).
inline std::vector<Role> arrayRoles(const Translation& t, const std::vector<std::string>& inputs, const std::string& output,
                                    const std::vector<std::string>& sizes, unsigned arraysLine, std::vector<Diagnostic>& errors)
{
    std::vector<Role> roles;
    std::vector<bool> taken(inputs.size() + 1, false);
    for (const KernelParam& p : t.params) {
        if (p.kind == KernelParam::Kind::Int) {
            Role r = Role::Size0;
            if (!sizes.empty() && p.name == sizes[0]) r = Role::Size0;
            else if (sizes.size() > 1 && p.name == sizes[1]) r = Role::Size1;
            else {
                std::string known;
                for (size_t i = 0; i < sizes.size(); ++i) known += (i ? " and " : "") + sizes[i];
                errors.push_back(Diagnostic{p.line, 0, "int parameter " + p.name + " is not a size of the problem: the header's sizes line names " + known});
            }
            roles.push_back(r);
            continue;
        }
        Role r = Role::Out;
        bool found = false;
        if (p.name == output) {
            found = true;
            taken.back() = true;
            if (p.kind == KernelParam::Kind::ConstFloatPointer)
                errors.push_back(Diagnostic{p.line, 0, "parameter " + p.name + " is the output, so it cannot be const float*: the kernel writes it"});
        }
        for (size_t i = 0; !found && i < inputs.size(); ++i)
            if (p.name == inputs[i]) {
                found = true;
                taken[i] = true;
                r = i == 0 ? Role::In0 : Role::In1;
            }
        if (!found) {
            std::string known;
            for (size_t i = 0; i < inputs.size(); ++i) known += (i ? ", " : "") + inputs[i];
            errors.push_back(Diagnostic{p.line, 0, "pointer parameter " + p.name + " is not an array of the problem: the header's arrays line declares " +
                                                       known + (known.empty() ? "" : " and ") + "the output " + output});
        }
        roles.push_back(r);
    }
    for (size_t i = 0; i < taken.size(); ++i)
        if (!taken[i] && errors.empty())
            errors.push_back(Diagnostic{arraysLine, 0, "the array " + (i < inputs.size() ? inputs[i] : output) +
                                                         " of the arrays line is not a parameter of the kernel"});
    return roles;
}

/// The launch's argument list `args` as an exercise or a file's header states it
/// (`args = "M, N, P, j, k, l"`, or with the handout's names, `"A = M, B = N, C = P,
/// numARows = j, numAColumns = k, numBRows = k, numBColumns = l, numCRows = j, numCColumns =
/// l"`): one entry per kernel parameter, in order, as `<<<grid, block>>>(args)` binds them;
/// a `name =` before an entry is only a reminder, the kernel's own names are free. The
/// problem's terms, by family: matmul M, N, P and the sizes j, k, l (M j x k, N k x l) or
/// Width (square); conv1d N, P, Mask_Width, Width; conv2d N, P, Mask_Width, height, width;
/// an array problem its `inputs`, `output` and `sizes`. Each array once, pointers to arrays
/// and ints to sizes, the output not const; otherwise an error on `line` (the header's
/// line; 0 for an exercise's). `square` is set when a matmul's sizes are Width.
inline std::vector<Role> bindArguments(const Translation& t, const std::string& args, const std::string& family,
                                       const std::vector<std::string>& inputs, const std::string& output,
                                       const std::vector<std::string>& sizes, unsigned line, std::vector<Diagnostic>& errors,
                                       bool& square)
{
    square = false;
    auto trim = [](std::string v) {
        const size_t b = v.find_first_not_of(" \t"), e = v.find_last_not_of(" \t");
        return b == std::string::npos ? std::string() : v.substr(b, e - b + 1);
    };
    std::vector<std::string> entries;
    for (size_t start = 0;;) {
        const size_t comma = args.find(',', start);
        entries.push_back(trim(args.substr(start, comma == std::string::npos ? std::string::npos : comma - start)));
        if (comma == std::string::npos) break;
        start = comma + 1;
    }
    // The problem's terms: {term, role, is an array}.
    struct Term { std::string word; Role role; bool array; };
    std::vector<Term> terms;
    if (family == "matmul")
        terms = {{"M", Role::M, true}, {"N", Role::N, true}, {"P", Role::P, true}, {"j", Role::J, false},
                 {"k", Role::K, false}, {"l", Role::L, false}, {"Width", Role::Width, false}};
    else if (family == "conv1d")
        terms = {{"N", Role::N, true}, {"P", Role::P, true}, {"Mask_Width", Role::MaskWidth, false}, {"Width", Role::Width, false}};
    else if (family == "conv2d")
        terms = {{"N", Role::N, true}, {"P", Role::P, true}, {"Mask_Width", Role::MaskWidth, false},
                 {"height", Role::Height, false}, {"width", Role::Width, false}};
    else {
        for (size_t i = 0; i < inputs.size() && i < 2; ++i) terms.push_back({inputs[i], i == 0 ? Role::In0 : Role::In1, true});
        terms.push_back({output, Role::Out, true});
        for (size_t i = 0; i < sizes.size() && i < 2; ++i) terms.push_back({sizes[i], i == 0 ? Role::Size0 : Role::Size1, false});
    }
    std::string known;
    for (size_t i = 0; i < terms.size(); ++i) known += (i ? (i + 1 == terms.size() ? " or " : ", ") : "") + terms[i].word;
    const std::string quoted = args.size() <= 80 ? args : args.substr(0, 60) + "...";
    std::vector<Role> roles;
    if (entries.size() != t.params.size()) {
        errors.push_back(Diagnostic{line, 0, "the launch passes " + std::to_string(entries.size()) + " argument" +
                                                 (entries.size() == 1 ? "" : "s") + " (args = " + quoted + ") but kernel " +
                                                 t.kernelName + " takes " + std::to_string(t.params.size()) + " parameter" +
                                                 (t.params.size() == 1 ? "" : "s")});
        return roles;
    }
    std::vector<int> used(terms.size(), 0);
    bool width = false, sized = false;
    for (size_t i = 0; i < entries.size(); ++i) {
        const KernelParam& p = t.params[i];
        std::string word = entries[i];
        if (const size_t eq = word.find('='); eq != std::string::npos) word = trim(word.substr(eq + 1));
        const auto term = std::find_if(terms.begin(), terms.end(), [&](const Term& x) { return x.word == word; });
        const std::string which = "argument " + std::to_string(i + 1) + " of the launch";
        if (term == terms.end()) {
            errors.push_back(Diagnostic{line, 0, which + ", '" + (word.size() <= 40 ? word : word.substr(0, 40) + "...") +
                                                     "', is not a term of the problem: the terms are " + known});
            return {};
        }
        const bool pointer = p.kind != KernelParam::Kind::Int;
        if (pointer != term->array) {
            errors.push_back(Diagnostic{p.line ? p.line : line, 0, which + " is " + (term->array ? "the array " : "the size ") + term->word +
                                                                 " but parameter " + p.name + " is " +
                                                                 (pointer ? "a pointer" : "an int")});
            return {};
        }
        if (term->array && used[static_cast<size_t>(term - terms.begin())]++) {
            errors.push_back(Diagnostic{line, 0, which + " passes the array " + term->word + " a second time"});
            return {};
        }
        if ((term->role == Role::P || term->role == Role::Out) && p.kind == KernelParam::Kind::ConstFloatPointer) {
            errors.push_back(Diagnostic{p.line, 0, "parameter " + p.name + " receives the output " + term->word +
                                                       ", so it cannot be const float*: the kernel writes it"});
            return {};
        }
        if (family == "matmul" && term->role == Role::Width) width = true;
        if (family == "matmul" && (term->role == Role::J || term->role == Role::K || term->role == Role::L)) sized = true;
        roles.push_back(term->role);
    }
    for (size_t i = 0; i < terms.size(); ++i)
        if (terms[i].array && !used[i]) {
            errors.push_back(Diagnostic{line, 0, "the launch does not pass the array " + terms[i].word + " (args = " + quoted + ")"});
            return {};
        }
    if (width && sized) {
        errors.push_back(Diagnostic{line, 0, "the launch passes both Width (a square problem's one size) and j, k or l: pass one or the other"});
        return {};
    }
    square = width;
    return roles;
}

}  // namespace ts::student
