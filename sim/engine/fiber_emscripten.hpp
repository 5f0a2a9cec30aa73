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
    void (*start)(Record*) = nullptr;   ///< runs the fiber from its beginning
    bool started = false;             ///< has run (is rewound, not entered, when resumed)
    Record* from = nullptr;           ///< who switched here last (null: a fiber that ended)
    bool unwind = false;              ///< switched to in order to be unwound
    void (*release)(Record*) noexcept = nullptr;   ///< frees a fiber's record and stack once it has ended
};

/// Thrown in a parked fiber that is being destroyed; it unwinds the fiber's frames, leaves
/// the fiber and is caught by fiber::destroy() (`to`: the context that destroyed it).
struct forced_unwind {
    Record* to = nullptr;
};

}  // namespace detail
}  // namespace ts::sim::webfiber

extern "C" {
/// Runs fibers from `target` on, each until it parks or ends, until one switches to the
/// thread's own context `own` (sim/engine/fiber_emscripten.cpp). Never on a fiber's stack;
/// not instrumented by Asyncify (cmake/web.cmake names it in ASYNCIFY_REMOVE). An exception
/// that leaves a fiber leaves this too (the fiber has ended: ts_webfiber_escaped).
void ts_webfiber_run(ts::sim::webfiber::detail::Record* own, ts::sim::webfiber::detail::Record* target);
/// After an exception has left the fiber that ran and ts_webfiber_run: frees that fiber and
/// makes the thread's own context the running one again.
void ts_webfiber_escaped() noexcept;
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
/// From the thread's own context, throws what left a fiber that ran (which has ended).
inline Record* jump(Record* target)
{
    Record* me = self();
    target->from = me;
    if (me == own()) {
        // The only try block on the way of a switch, and it is never taken inside a fiber.
        try {
            ts_webfiber_run(me, target);
        } catch (...) {
            ts_webfiber_escaped();
            throw;
        }
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

    static void entry(Record* p);
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
    /// Unlike Boost's: an exception that leaves a fiber's function ends that fiber and is
    /// thrown by the resume() of the thread's own context that (directly or through other
    /// fibers) ran it, so the fiber function needs no try block (docs/web.md, "Speed").
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

    /// Unwinds the parked context: it runs until forced_unwind has left it. Only from the
    /// thread's own context (BlockRunner::abandon): from a fiber, the exception would arrive
    /// in the thread's own context instead of here. A fiber object that holds the thread's
    /// own context (a resumer left behind by a fiber that a fault ended) is only emptied:
    /// that context is the one running.
    void destroy() noexcept
    {
        if (detail::current()) std::abort();
        detail::Record* target = std::exchange(r_, nullptr);
        if (target == detail::own()) return;
        target->unwind = true;
        try {
            detail::Record* me = detail::jump(target);   // returns if it never ran
            me->from = nullptr;
        } catch (const detail::forced_unwind&) {
        }
    }

    detail::Record* r_ = nullptr;
};

namespace detail {

/// A fiber's first run: fn(resumer) in the fiber; what it returns runs next, and this fiber's
/// stack is freed by that one. No try block and no cleanup around fn: either would make the
/// call go through an invoke_* wrapper in JavaScript, which is on the stack, unwound and
/// rewound, at every switch of the fiber. So the resumer is built in raw storage (fn moves
/// from it first), and what fn throws leaves the fiber (see resume()).
template <class StackAlloc, class Fn>
void FiberRecord<StackAlloc, Fn>::entry(Record* p)
{
    freeZombie();
    auto* rec = static_cast<FiberRecord*>(p);
    Record* from = std::exchange(rec->from, nullptr);
    Record* next = from;   // destroyed before it ever ran: straight back
    if (!rec->unwind) {
        alignas(fiber) unsigned char raw[sizeof(fiber)];
        fiber* resumer = new (raw) fiber(from);
        next = rec->fn(std::move(*resumer)).release();
        resumer->~fiber();
    }
    // Back to ts_webfiber_run, which runs `next`.
    next->from = nullptr;
    zombie() = rec;
    handTo() = next;
}

}  // namespace detail
}  // namespace ts::sim::webfiber
