// The simulation wire format's decoder, first half (sim/files/simulation_wire.hpp): the
// refusal, the CBOR parsed with its nesting bounded, and the typed fields read from it.
#include "sim/files/simulation_wire_internal.hpp"

#include <cstdint>
#include <limits>
#include <string>
#include <utility>
#include <vector>

namespace ts::sim::wire_detail {

// ---- decoding: the CBOR ---------------------------------------------------------------------

[[noreturn]] void refuse(const std::string& why)
{
    throw WireError("Simulation message refused: " + why + ".");
}

/// Text from the message, as an error sentence may quote it: at most 40 characters, control
/// characters (a line break, say) shown as '?'.
std::string shown(const std::string& text)
{
    std::string s = text.substr(0, 40);
    for (char& c : s)
        if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) c = '?';
    return "\"" + s + (text.size() > 40 ? "...\"" : "\"");
}

namespace {

/// nlohmann-json's SAX events built into a json value, as its own DOM parser does, but with
/// the nesting bounded (the reader recurses once per level: a message of nested arrays must
/// not exhaust the stack) and repeated map keys refused.
class BoundedBuilder final : public nlohmann::json_sax<json> {
public:
    json root;
    std::string problem;   ///< why the parse stopped, when it did

    bool null() override { return put(json(nullptr)); }
    bool boolean(bool v) override { return put(json(v)); }
    bool number_integer(number_integer_t v) override { return put(json(v)); }
    bool number_unsigned(number_unsigned_t v) override { return put(json(v)); }
    bool number_float(number_float_t v, const string_t&) override { return put(json(v)); }
    bool string(string_t& v) override { return put(json(std::move(v))); }
    bool binary(binary_t& v) override { return put(json::binary(std::move(static_cast<Bytes&>(v)))); }
    bool start_object(std::size_t) override { return open(json::object()); }
    bool key(string_t& k) override
    {
        if (stack_.back()->contains(k)) {
            problem = "a map repeats the key " + shown(k);
            return false;
        }
        key_ = std::move(k);
        return true;
    }
    bool end_object() override { return close(); }
    bool start_array(std::size_t) override { return open(json::array()); }
    bool end_array() override { return close(); }
    bool parse_error(std::size_t position, const std::string&, const json::exception& e) override
    {
        // nlohmann's own text after its "[json.exception.parse_error.N] " tag, on one line.
        std::string what = e.what();
        if (const size_t tag = what.find("] "); tag != std::string::npos) what.erase(0, tag + 2);
        what.erase(std::remove(what.begin(), what.end(), '\n'), what.end());
        while (!what.empty() && (what.back() == '.' || what.back() == ' ')) what.pop_back();
        problem = "it is not well-formed CBOR at byte " + std::to_string(position) + " (" + what + ")";
        return false;
    }

private:
    json* place(json&& v)
    {
        if (stack_.empty()) {
            root = std::move(v);
            return &root;
        }
        json& parent = *stack_.back();
        if (parent.is_array()) {
            parent.push_back(std::move(v));
            return &parent.back();
        }
        json& slot = parent[key_];
        slot = std::move(v);
        return &slot;
    }
    bool put(json&& v)
    {
        place(std::move(v));
        return true;
    }
    bool open(json&& v)
    {
        if (stack_.size() >= wire::kMaxDepth) {
            problem = "its maps and arrays nest deeper than " + std::to_string(wire::kMaxDepth) + " levels";
            return false;
        }
        // A container stays the last element of its parent while it is open, so the pointer
        // stays valid until close().
        stack_.push_back(place(std::move(v)));
        return true;
    }
    bool close()
    {
        stack_.pop_back();
        return true;
    }

    std::vector<json*> stack_;
    std::string key_;
};

}  // namespace

json parseCbor(std::string_view bytes)
{
    BoundedBuilder b;
    bool ok = false;
    try {
        ok = json::sax_parse(bytes.begin(), bytes.end(), &b, json::input_format_t::cbor, true);
    } catch (const json::exception&) {
        b.problem = "it is not well-formed CBOR";
    }
    if (!ok) refuse(b.problem.empty() ? "it is not well-formed CBOR" : b.problem);
    return std::move(b.root);
}

// ---- decoding: typed fields ----------------------------------------------------------------

uint64_t unsignedOf(const json& v, const std::string& what, uint64_t most)
{
    if (!v.is_number_unsigned()) refuse(what + " is not an unsigned integer");
    const uint64_t u = v.get<uint64_t>();
    if (u > most) refuse(what + " is " + std::to_string(u) + ", more than " + std::to_string(most));
    return u;
}

int64_t integerOf(const json& v, const std::string& what, int64_t least, int64_t most)
{
    int64_t i = 0;
    if (v.is_number_unsigned()) {
        const uint64_t u = v.get<uint64_t>();
        if (u > static_cast<uint64_t>(most)) refuse(what + " is " + std::to_string(u) + ", more than " + std::to_string(most));
        i = static_cast<int64_t>(u);
    } else if (v.is_number_integer()) {
        i = v.get<int64_t>();
    } else {
        refuse(what + " is not an integer");
    }
    if (i < least || i > most)
        refuse(what + " is " + std::to_string(i) + ", outside " + std::to_string(least) + " to " + std::to_string(most));
    return i;
}

int intOf(const json& v, const std::string& what)
{
    return static_cast<int>(integerOf(v, what, std::numeric_limits<int>::min(), std::numeric_limits<int>::max()));
}

bool boolOf(const json& v, const std::string& what)
{
    if (!v.is_boolean()) refuse(what + " is not a boolean");
    return v.get<bool>();
}

std::string textOf(const json& v, const std::string& what)
{
    if (!v.is_string()) refuse(what + " is not a text");
    return v.get<std::string>();
}

const json::array_t& listOf(const json& v, const std::string& what)
{
    if (!v.is_array()) refuse(what + " is not a list");
    return v.get_ref<const json::array_t&>();
}

/// A byte string of whole records of `size` bytes; its record count in `count`.
const Bytes& recordsOf(const json& v, const std::string& what, size_t size, size_t& count)
{
    if (!v.is_binary()) refuse(what + " is not a byte string");
    const Bytes& b = v.get_binary();
    if (b.size() % size != 0)
        refuse(what + " has " + std::to_string(b.size()) + " bytes, not a whole number of " + std::to_string(size) +
               "-byte records");
    count = b.size() / size;
    return b;
}

/// [x, y, z] of unsigned 32-bit integers.
void tripleOf(const json& v, const std::string& what, unsigned& x, unsigned& y, unsigned& z)
{
    const json::array_t& a = listOf(v, what);
    if (a.size() != 3) refuse(what + " does not have 3 components");
    x = static_cast<unsigned>(unsignedOf(a[0], what + " x", 0xFFFFFFFFu));
    y = static_cast<unsigned>(unsignedOf(a[1], what + " y", 0xFFFFFFFFu));
    z = static_cast<unsigned>(unsignedOf(a[2], what + " z", 0xFFFFFFFFu));
}

Dim3 dimOf(const json& v, const std::string& what)
{
    Dim3 d;
    tripleOf(v, what, d.x, d.y, d.z);
    if (d.x == 0 || d.y == 0 || d.z == 0) refuse(what + " has an extent of 0");
    return d;
}

Uint3 uint3Of(const json& v, const std::string& what)
{
    Uint3 u;
    tripleOf(v, what, u.x, u.y, u.z);
    return u;
}

std::string dimText(unsigned x, unsigned y, unsigned z)
{
    return "(" + std::to_string(x) + ", " + std::to_string(y) + ", " + std::to_string(z) + ")";
}

bool inside(const Uint3& b, const Dim3& grid) { return b.x < grid.x && b.y < grid.y && b.z < grid.z; }

}  // namespace ts::sim::wire_detail
