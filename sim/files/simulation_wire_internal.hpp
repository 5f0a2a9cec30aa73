// Internal to the simulation wire format (sim/files/simulation_wire.hpp); not for other
// callers. What the encoder and the decoder's files share: the message's format name, and the
// decoder's refusal, CBOR parse and typed fields (simulation_wire_fields.cpp), which
// simulation_wire_read.cpp reads the parts with.
#pragma once
#include <cstddef>
#include <cstdint>
#include <limits>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "sim/files/simulation_wire.hpp"

namespace ts::sim::wire_detail {

using nlohmann::json;
using Bytes = std::vector<uint8_t>;

constexpr const char* kFormat = "tilescope-simulation";
/// Throws the WireError that refuses the message, `why` its reason.
[[noreturn]] void refuse(const std::string& why);
/// Text from the message as an error sentence may quote it (at most 40 characters).
std::string shown(const std::string& text);
/// The message's CBOR as a json value, its nesting bounded; refused if malformed.
json parseCbor(std::string_view bytes);

/// A CBOR map of the message whose keys are read one by one; done() refuses keys never read.
class Map {
public:
    Map(const json& j, std::string where) : j_(j), where_(std::move(where))
    {
        if (!j.is_object()) refuse(where_ + " is not a map");
    }
    /// The value of `key` (each key is asked for once).
    const json& at(const char* key)
    {
        const auto it = j_.find(key);
        if (it == j_.end()) refuse(where_ + " has no \"" + key + "\"");
        ++read_;
        return *it;
    }
    void done() const
    {
        if (read_ != j_.size()) refuse(where_ + " has " + std::to_string(j_.size() - read_) + " unknown keys");
    }
    const std::string& where() const { return where_; }

private:
    const json& j_;
    std::string where_;
    size_t read_ = 0;
};

/// `v` as an unsigned integer of at most `most`, else refused (`what` names it).
uint64_t unsignedOf(const json& v, const std::string& what, uint64_t most = std::numeric_limits<uint64_t>::max());
/// `v` as an integer in [least, most], else refused.
int64_t integerOf(const json& v, const std::string& what, int64_t least, int64_t most);
/// `v` as an int, else refused.
int intOf(const json& v, const std::string& what);
/// `v` as a boolean, else refused.
bool boolOf(const json& v, const std::string& what);
/// `v` as text, else refused.
std::string textOf(const json& v, const std::string& what);
/// `v` as a CBOR array, else refused.
const json::array_t& listOf(const json& v, const std::string& what);
/// A byte string of whole records of `size` bytes; its record count in `count`.
const Bytes& recordsOf(const json& v, const std::string& what, size_t size, size_t& count);
/// A grid or block size [x, y, z], each at least 1, else refused.
Dim3 dimOf(const json& v, const std::string& what);
/// A block index [x, y, z] of unsigned 32-bit integers, else refused.
Uint3 uint3Of(const json& v, const std::string& what);
/// "(x, y, z)" for an error sentence.
std::string dimText(unsigned x, unsigned y, unsigned z);
/// Whether block `b` lies inside `grid`.
bool inside(const Uint3& b, const Dim3& grid);

}  // namespace ts::sim::wire_detail
