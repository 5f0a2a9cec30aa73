// The web build's fibers (sim/engine/fiber.hpp): the part of Boost.Context's `fiber` that
// the simulator uses, on Binaryen's Asyncify (-sASYNCIFY) driven from C++, without
// Emscripten's fiber API and without JavaScript (sim/engine/fiber_emscripten.cpp).
// The thread's own context (the scheduler's) is never a fiber: resuming a fiber from it runs
// a loop, ts_webfiber_run, that calls the fiber's entry; a fiber that parks (switches to
// another context) unwinds its wasm frames into its own buffer back to that loop, which then
// rewinds or starts the next fiber, or returns when the next is the thread's own. So a switch
// costs the fiber's frames between its entry and the park, never the scheduler's (down to
// main()), and no call into JavaScript (docs/web.md, "Speed"). Single-threaded: the web build
// runs the simulator on the page's one thread.
#pragma once
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

/// Asyncify's description of a buffer for saved frames: the next free byte and the end
/// (the layout asyncify_start_unwind and asyncify_start_rewind read).
struct AsyncifyData {
    void* pos = nullptr;
    void* end = nullptr;
};

/// One execution context: the thread's own (the scheduler's: entry null) or a fiber's.
struct Record {
    AsyncifyData frames;              ///< a fiber's frames while it is parked
    char* framesBegin = nullptr;      ///< the start of that buffer
    std::uintptr_t sp = 0;            ///< a fiber's stack pointer while parked
    std::uintptr_t stackTop = 0, stackEnd = 0;   ///< a fiber's C stack: top and lowest address
    void (*start)(Record*) noexcept = nullptr;   ///< runs the fiber from its beginning
    bool started = false;             ///< has run (is rewound, not entered, when resumed)
    Record* from = nullptr;           ///< who switched here last (null: a fiber that ended)
    bool unwind = false;              ///< switched to in order to be unwound
    void (*release)(Record*) noexcept = nullptr;   ///< frees a fiber's record and stack once it has ended
};

/// Thrown in a parked fiber that is being destroyed; its entry catches it and switches
/// back to `to`, the context that destroyed it.
struct forced_unwind {
    Record* to = nullptr;
    /// What a fiber function that catches this returns instead of rethrowing it: the context
    /// that destroyed the fiber (a noexcept fiber function must, see FiberRecord::entry).
    fiber back() const noexcept;
};

}  // namespace detail
}  // namespace ts::sim::webfiber

extern "C" {
/// Runs fibers from `target` on, each until it parks or ends, until one switches to the
/// thread's own context `own` (sim/engine/fiber_emscripten.cpp). Never on a fiber's stack;
/// not instrumented by Asyncify (cmake/web.cmake names it in ASYNCIFY_REMOVE).
void ts_webfiber_run(ts::sim::webfiber::detail::Record* own, ts::sim::webfiber::detail::Record* target) noexcept;
/// Parks the running fiber `me`: starts unwinding its frames into its buffer; when the fiber
/// is rewound, ends the rewind and returns. The one place a fiber switches.
void ts_webfiber_park(ts::sim::webfiber::detail::Record* me) noexcept;
}

namespace ts::sim::webfiber::detail {

/// The context that runs now (null: the thread's own).
inline Record*& current()
{
    static Record* c = nullptr;
    return c;
}

/// The context a parking or ending fiber hands over to (read by ts_webfiber_run).
inline Record*& handTo()
{
    static Record* n = nullptr;
    return n;
}

/// A fiber that has ended; its stack is freed by the next context that runs.
inline Record*& zombie()
{
    static Record* z = nullptr;
    return z;
}

inline void freeZombie() noexcept
{
    if (Record* z = std::exchange(zombie(), nullptr)) z->release(z);
}

/// The thread's own context.
inline Record* own()
{
    static Record o;
    return &o;
}

/// The running context's record.
inline Record* self()
{
    return current() ? current() : own();
}

/// Switches to `target`; returns (this context's record) when some context switches back.
inline Record* jump(Record* target) noexcept
{
    Record* me = self();
    target->from = me;
    if (me == own()) {
        ts_webfiber_run(me, target);
    } else {
        handTo() = target;
        ts_webfiber_park(me);
    }
    freeZombie();
    return me;
}

template <class StackAlloc, class Fn>
struct FiberRecord : Record {
    FiberRecord(StackAlloc a, Fn f, stack_context s) : salloc(std::move(a)), fn(std::move(f)), sc(s) {}
    StackAlloc salloc;
    Fn fn;
    stack_context sc;

    static void entry(Record* p) noexcept;
    static void destroy(Record* r) noexcept
    {
        auto* rec = static_cast<FiberRecord*>(r);
        StackAlloc a = std::move(rec->salloc);
        stack_context sc = rec->sc;
        rec->~FiberRecord();
        a.deallocate(sc);
    }
};

}  // namespace ts::sim::webfiber::detail

namespace ts::sim::webfiber {

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
        rec->start = &R::entry;
        rec->framesBegin = bottom;
        rec->frames.end = bottom + kAsyncifyBytes;
        rec->stackTop = at;
        rec->stackEnd = reinterpret_cast<std::uintptr_t>(bottom + kAsyncifyBytes);
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
    friend struct detail::forced_unwind;
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

inline fiber forced_unwind::back() const noexcept
{
    return fiber(to);
}

/// A fiber's first run: fn(resumer) in the fiber; what it returns (or, when it is unwound, the
/// context that destroyed it) runs next, and this fiber's stack is freed by that one.
/// A noexcept fn is called without a try block: fn catches forced_unwind itself and returns
/// back(). The try block would make the call go through an invoke_* wrapper in JavaScript,
/// which is on the stack, unwound and rewound, at every switch of the fiber.
template <class StackAlloc, class Fn>
void FiberRecord<StackAlloc, Fn>::entry(Record* p) noexcept
{
    freeZombie();
    auto* rec = static_cast<FiberRecord*>(p);
    Record* from = std::exchange(rec->from, nullptr);
    Record* next = from;   // destroyed before it ever ran: straight back
    if (!rec->unwind) {
        if constexpr (std::is_nothrow_invocable_v<Fn&, fiber&&>) {
            next = rec->fn(fiber(from)).release();
        } else {
            try {
                next = rec->fn(fiber(from)).release();
            } catch (const forced_unwind& u) {
                next = u.to;
            }
        }
    }
    // Back to ts_webfiber_run, which runs `next`.
    next->from = nullptr;
    zombie() = rec;
    handTo() = next;
}

}  // namespace detail
}  // namespace ts::sim::webfiber
