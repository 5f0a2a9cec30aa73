// What a translation and a diagnostic are, apart from the front end that makes them
// (frontend/translate.hpp): built with or without libclang.
#include <sstream>

#include "frontend/translate.hpp"

namespace ts::student {

const long long* Translation::define(const std::string& name) const
{
    for (const auto& [n, v] : defines)
        if (n == name) return &v;
    return nullptr;
}

std::string formatDiagnostic(const std::string& fileName, const Diagnostic& d)
{
    std::ostringstream o;
    o << fileName;
    if (d.line > 0) o << ':' << d.line;
    if (d.column > 0) o << ':' << d.column;
    o << ": error: " << d.message;
    return o.str();
}

}  // namespace ts::student
