// The simulator's fiber switch (sim/engine/machine.cpp): one context per simulated thread,
// switched to and from without an OS thread. The interface is the part of Boost.Context's
// `fiber` that the scheduler uses, as `ctx::`:
//   ctx::fiber(std::allocator_arg, stackAllocator, fn)  a parked fiber that will run
//                                                        fn(fiber&& resumer) -> fiber next
//   std::move(f).resume()    switches to f; returns the context that switched back
//   bool(f), f = {}          whether f holds a parked context; destroying a parked fiber
//                            unwinds its stack (ctx::detail::forced_unwind)
//   ctx::stack_context       {sp: the stack's top, size: bytes below it}
// Chosen at build time: Boost.Context natively (one jump_fcontext, a few ns a switch), and
// in the web build (Emscripten) a stand-in on Binaryen's Asyncify, driven from C++
// (sim/engine/fiber_emscripten.hpp; docs/web.md gives its cost).
#pragma once
#include <cstddef>

#if defined(__EMSCRIPTEN__)
#include "sim/engine/fiber_emscripten.hpp"
namespace ts::sim {
namespace ctx = ts::sim::webfiber;
/// Bytes of each fiber's stack: 64 KiB for the C stack as natively, and
/// webfiber::kAsyncifyBytes for the frames Asyncify saves while the fiber is parked.
inline constexpr std::size_t kFiberStackBytes = 64 * 1024 + webfiber::kAsyncifyBytes;
}  // namespace ts::sim
#else
#include <boost/context/fiber.hpp>
namespace ts::sim {
namespace ctx = boost::context;
/// Bytes of each fiber's stack.
inline constexpr std::size_t kFiberStackBytes = 64 * 1024;
}  // namespace ts::sim
#endif
