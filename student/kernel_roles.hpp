// Which array or size each parameter of a student's kernel receives: the one rule that the
// simulator's binding (student/module.cpp) and the GPU launch of the same file through
// NVRTC (gpu/student_launch.cu) both follow, so that the two runs get the same arguments.
// Header-only: the GPU layer uses it without linking the student layer.
#pragma once
#include <string>
#include <vector>

#include "student/translate.hpp"

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
    int order = 0;
    for (const KernelParam& p : t.params) {
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
                                                       "N is k x l) or Width for square matrices"});
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
    int order = 0;
    for (const KernelParam& p : t.params) {
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
                                                       (twoD ? "height and width" : "Width")});
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

}  // namespace ts::student
