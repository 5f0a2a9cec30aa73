// Which array or size each parameter of a student's kernel receives: the one rule that the
// simulator's binding (student/module.cpp) and the GPU launch of the same file through
// NVRTC (gpu/student_launch.cu) both follow, so that the two runs get the same arguments.
// Header-only: the GPU layer uses it without linking the student layer.
#pragma once
#include <string>
#include <vector>

#include "student/translate.hpp"

namespace ts::student {

/// The array or size a kernel parameter receives: M (j x k), N (k x l), P (j x l), the
/// sizes j, k and l, or Width of a square problem (j = k = l).
enum class Role { M, N, P, J, K, L, Width };

/// Assigns each parameter of a matrix multiplication kernel `t` its role, by position:
/// the pointers named M, N and P take those matrices (otherwise the first two pointers are
/// the inputs and the third the output), the ints named j, k, l take those sizes, and
/// Width (or width, n) takes the edge of a square problem, which sets `square`. Each
/// problem (not three pointers, a const output, an int with another name) is appended to
/// `errors` with its line; the roles are then not usable.
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

}  // namespace ts::student
