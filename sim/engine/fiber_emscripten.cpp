// The web build's fiber switch (sim/engine/fiber_emscripten.hpp): the two functions that
// drive Binaryen's Asyncify. Natively this file is empty (Boost.Context switches there).
//
// Asyncify (-sASYNCIFY) instruments every function that may be on a fiber's stack when it
// parks: after a call that may park it checks a state, and while *unwinding* it saves its
// locals into a buffer and returns; while *rewinding* it restores them and calls the same
// callee again, down to the point that parked. Binaryen's Asyncify pass links the imports
// asyncify.start_unwind / stop_unwind / start_rewind / stop_rewind below to its own
// functions (they never reach JavaScript; web/asyncify_intrinsics.js only names them for
// Emscripten's linker). A function that calls start_unwind or stop_rewind is the bottom of
// an unwind: not instrumented itself, but every caller of it is.
#if defined(__EMSCRIPTEN__)
#include "sim/engine/fiber.hpp"

#include <cstdint>

using ts::sim::webfiber::detail::Record;

// Every function called here is declared noexcept: under Emscripten's JavaScript exceptions a
// call that may throw, made from a noexcept function, goes through an invoke_* wrapper in
// JavaScript, which Binaryen cannot link to its Asyncify functions (and which costs a trip
// through JavaScript at every switch). <emscripten/stack.h> is not included for that reason.
extern "C" {
__attribute__((import_module("asyncify"), import_name("start_unwind"))) void tsAsyncifyStartUnwind(void* data) noexcept;
__attribute__((import_module("asyncify"), import_name("stop_unwind"))) void tsAsyncifyStopUnwind() noexcept;
__attribute__((import_module("asyncify"), import_name("start_rewind"))) void tsAsyncifyStartRewind(void* data) noexcept;
__attribute__((import_module("asyncify"), import_name("stop_rewind"))) void tsAsyncifyStopRewind() noexcept;
// The C stack pointer and limits (Emscripten's compiler-rt: stack_ops.S, stack_limits.S).
std::uintptr_t stackSave() noexcept;
void stackRestore(std::uintptr_t sp) noexcept;
void emscripten_stack_set_limits(void* base, void* end) noexcept;
std::uintptr_t emscripten_stack_get_base() noexcept;
std::uintptr_t emscripten_stack_get_end() noexcept;
}

namespace {
bool parking = false;     ///< a fiber is unwinding to ts_webfiber_run
bool rewinding = false;   ///< ts_webfiber_run is rewinding a fiber to its park
}  // namespace

// Exported (export_name) and noinline so that neither LLVM nor Binaryen inlines it into its
// one caller: the caller must stay a separate, instrumented function, and this one the
// bottom of each unwind.
extern "C" __attribute__((noinline, used, export_name("ts_webfiber_park"))) void
ts_webfiber_park(Record* me) noexcept
{
    if (rewinding) {   // resumed: the rewind has reached the park
        rewinding = false;
        tsAsyncifyStopRewind();
        return;
    }
    me->sp = stackSave();
    me->frames.pos = me->framesBegin;
    parking = true;
    tsAsyncifyStartUnwind(&me->frames);
}

namespace {
void* ownStackBase = nullptr;   ///< the thread's own C stack, while ts_webfiber_run runs fibers
void* ownStackEnd = nullptr;
}  // namespace

extern "C" __attribute__((noinline)) void ts_webfiber_run(Record* own, Record* target)
{
    const std::uintptr_t sp = stackSave();
    void* const base = ownStackBase = reinterpret_cast<void*>(emscripten_stack_get_base());
    void* const end = ownStackEnd = reinterpret_cast<void*>(emscripten_stack_get_end());
    Record* t = target;
    auto& current = ts::sim::webfiber::detail::current();
    auto& handTo = ts::sim::webfiber::detail::handTo();
    do {
        current = t;
        handTo = nullptr;
        emscripten_stack_set_limits(reinterpret_cast<void*>(t->stackTop), reinterpret_cast<void*>(t->stackEnd));
        if (t->started) {
            stackRestore(t->sp);
            rewinding = true;
            tsAsyncifyStartRewind(&t->frames);
        } else {
            t->started = true;
            stackRestore(t->stackTop);
        }
        t->start(t);   // returns when the fiber parks (unwound) or ends
        stackRestore(sp);
        if (parking) {
            parking = false;
            tsAsyncifyStopUnwind();
        }
        t = handTo;
    } while (t != own);
    emscripten_stack_set_limits(base, end);
    current = nullptr;
}
extern "C" void ts_webfiber_escaped() noexcept
{
    // The exception has unwound the fiber's frames and ts_webfiber_run's, and the invoke_*
    // wrapper that caught it has set the stack pointer back to the thread's own.
    Record* dead = ts::sim::webfiber::detail::current();
    ts::sim::webfiber::detail::current() = nullptr;
    emscripten_stack_set_limits(ownStackBase, ownStackEnd);
    parking = rewinding = false;
    if (dead) dead->release(dead);
}
#endif
