// The web build's fibers (sim/engine/fiber.hpp): the part of Boost.Context's `fiber` that
// the simulator uses, on Emscripten's fiber API (emscripten_fiber_init / _swap, which need
// -sASYNCIFY). A swap unwinds the running fiber's wasm frames into its Asyncify buffer and
// rewinds the target's: its cost grows with the frames between the fiber's entry and the
// swap. Single-threaded: the web build runs the simulator on the page's one thread.
#pragma once
#include <emscripten/fiber.h>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <new>
#include <type_traits>
#include <utility>

namespace ts::sim::webfiber {

/// Bytes at the bottom of each fiber's stack that hold its frames while it is parked.
inline constexpr std::size_t kAsyncifyBytes = 32 * 1024;

/// A stack as Boost.Context describes it: `size` bytes below the top `sp`.
struct stack_context {
    std::size_t size = 0;
    void* sp = nullptr;
};

class fiber;

namespace detail {

/// One execution context: the thread's own (the scheduler's) or a fiber's.
struct Record {
    emscripten_fiber_t ef{};
    Record* from = nullptr;      ///< who switched here last (null: a fiber that ended)
    bool unwind = false;         ///< switched to in order to be unwound
    void (*release)(Record*) = nullptr;   ///< frees a fiber's record and stack once it has ended
};

/// Thrown in a parked fiber that is being destroyed; its entry catches it and switches
/// back to `to`, the context that destroyed it.
struct forced_unwind {
    Record* to = nullptr;
};

/// The context that runs now (null until the first switch: the thread's own).
inline Record*& current()
{
    static Record* c = nullptr;
    return c;
}

/// A fiber that has ended; its stack is freed by the next context that runs, since a
/// fiber cannot free the stack it runs on.
inline Record*& zombie()
{
    static Record* z = nullptr;
    return z;
}

inline void freeZombie()
{
    if (Record* z = std::exchange(zombie(), nullptr)) z->release(z);
}

/// The running context's record; the thread's own is made on first use.
inline Record* self()
{
    if (current()) return current();
    static Record own;
    static char frames[256 * 1024];   // the scheduler's frames down from main(), while it waits
    emscripten_fiber_init_from_current_context(&own.ef, frames, sizeof frames);
    current() = &own;
    return &own;
}

/// Switches to `target`; returns (this context's record) when some context switches back.
inline Record* jump(Record* target)
{
    Record* me = self();
    target->from = me;
    current() = target;
    emscripten_fiber_swap(&me->ef, &target->ef);
    freeZombie();
    return me;
}

/// Leaves the fiber `me`, which has ended, for `next`; never returns.
[[noreturn]] inline void finish(Record* me, Record* next)
{
    next->from = nullptr;
    zombie() = me;
    current() = next;
    emscripten_fiber_swap(&me->ef, &next->ef);
    std::abort();   // an ended fiber is never switched to
}

template <class StackAlloc, class Fn>
struct FiberRecord : Record {
    FiberRecord(StackAlloc a, Fn f, stack_context s) : salloc(std::move(a)), fn(std::move(f)), sc(s) {}
    StackAlloc salloc;
    Fn fn;
    stack_context sc;

    static void entry(void* p);
    static void destroy(Record* r)
    {
        auto* rec = static_cast<FiberRecord*>(r);
        StackAlloc a = std::move(rec->salloc);
        stack_context sc = rec->sc;
        rec->~FiberRecord();
        a.deallocate(sc);
    }
};

}  // namespace detail

/// A parked context, or none. Move-only, as Boost's.
class fiber {
public:
    fiber() noexcept = default;

    /// A fiber on a stack from `salloc` that runs fn(fiber&& resumer) when first resumed;
    /// when fn returns fiber `next`, next is resumed (with an empty resumer) and this
    /// fiber's stack is given back to the allocator.
    template <class StackAlloc, class Fn>
    fiber(std::allocator_arg_t, StackAlloc salloc, Fn&& fn)
    {
        using R = detail::FiberRecord<std::decay_t<StackAlloc>, std::decay_t<Fn>>;
        stack_context sc = salloc.allocate();
        char* top = static_cast<char*>(sc.sp);
        char* bottom = top - sc.size;
        auto at = (reinterpret_cast<std::uintptr_t>(top) - sizeof(R)) & ~std::uintptr_t{15};
        R* rec = new (reinterpret_cast<void*>(at)) R(std::move(salloc), std::forward<Fn>(fn), sc);
        rec->release = &R::destroy;
        char* cStack = bottom + kAsyncifyBytes;
        emscripten_fiber_init(&rec->ef, &R::entry, rec, cStack,
                              static_cast<std::size_t>(reinterpret_cast<char*>(at) - cStack), bottom, kAsyncifyBytes);
        r_ = rec;
    }

    ~fiber()
    {
        if (r_) destroy();
    }
    fiber(fiber&& o) noexcept : r_(std::exchange(o.r_, nullptr)) {}
    fiber& operator=(fiber&& o) noexcept
    {
        if (this != &o) {
            if (r_) destroy();
            r_ = std::exchange(o.r_, nullptr);
        }
        return *this;
    }
    fiber(const fiber&) = delete;
    fiber& operator=(const fiber&) = delete;

    explicit operator bool() const noexcept { return r_ != nullptr; }
    bool operator!() const noexcept { return r_ == nullptr; }

    /// Switches to this fiber; returns the context that switched back (empty when that
    /// one ended). Throws detail::forced_unwind when this context is being destroyed.
    fiber resume() &&
    {
        detail::Record* me = detail::jump(std::exchange(r_, nullptr));
        detail::Record* from = std::exchange(me->from, nullptr);
        if (me->unwind) throw detail::forced_unwind{from};
        return fiber(from);
    }

private:
    template <class, class>
    friend struct detail::FiberRecord;
    explicit fiber(detail::Record* r) noexcept : r_(r) {}
    detail::Record* release() noexcept { return std::exchange(r_, nullptr); }

    /// Unwinds the parked context: it runs until its entry catches forced_unwind.
    void destroy() noexcept
    {
        detail::Record* target = std::exchange(r_, nullptr);
        target->unwind = true;
        detail::Record* me = detail::jump(target);
        me->from = nullptr;
    }

    detail::Record* r_ = nullptr;
};

namespace detail {

template <class StackAlloc, class Fn>
void FiberRecord<StackAlloc, Fn>::entry(void* p)
{
    freeZombie();
    auto* rec = static_cast<FiberRecord*>(p);
    Record* from = std::exchange(rec->from, nullptr);
    Record* next = from;   // destroyed before it ever ran: straight back
    if (!rec->unwind) {
        try {
            next = rec->fn(fiber(from)).release();
        } catch (const forced_unwind& u) {
            next = u.to;
        }
    }
    finish(rec, next);
}

}  // namespace detail
}  // namespace ts::sim::webfiber
