// Whether this test program was built with AddressSanitizer (scripts/sanitize.sh, the fuzz
// tree). A few tests measure something that a sanitized build changes on purpose: its
// speed (several tens of times slower) or its address space (ASan reserves terabytes of
// shadow memory, so an `ulimit -v` stands for nothing). They skip there, saying why.
#pragma once

namespace ts::test {

#if defined(__SANITIZE_ADDRESS__)
inline constexpr bool kAddressSanitized = true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
inline constexpr bool kAddressSanitized = true;
#else
inline constexpr bool kAddressSanitized = false;
#endif
#else
inline constexpr bool kAddressSanitized = false;
#endif

}  // namespace ts::test
