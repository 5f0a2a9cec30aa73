// Internal to the simulator's fiber scheduler (sim/engine/machine.cpp); not for other callers.
// The fibers' stacks: a pool of stacks with guard pages, reused from block to block, and the
// annotations that tell AddressSanitizer when the scheduler switches from one stack to another.
#pragma once
#include <cstddef>
#include <cstdlib>
#include <new>
#include <vector>

#if !defined(__EMSCRIPTEN__)
#include <sys/mman.h>
#include <unistd.h>
#endif

#include "sim/engine/fiber.hpp"

// AddressSanitizer must be told when the simulator switches stacks (scripts/sanitize.sh),
// or it takes a fiber's stack for the thread's and its stack checks go wrong.
#if defined(__SANITIZE_ADDRESS__)
#define TS_ASAN_FIBERS 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define TS_ASAN_FIBERS 1
#endif
#endif
#ifdef TS_ASAN_FIBERS
#include <sanitizer/asan_interface.h>
#include <sanitizer/common_interface_defs.h>
#endif

namespace ts::sim::machine_detail {

/// A stack's lowest address and size, as ASan's fiber annotations name it.
struct StackSpan {
    const void* bottom = nullptr;
    size_t size = 0;
};

/// About to switch to the stack `to`. `fake` keeps this context's fake stack (ASan's
/// stack-use-after-return frames) until it runs again, or until asanFreeFakeStack frees it
/// when it has ended. (Passing nullptr would free it at once, under the frames that still
/// run on this stack before the switch.)
inline void asanStartSwitch([[maybe_unused]] void** fake, [[maybe_unused]] const StackSpan& to)
{
#ifdef TS_ASAN_FIBERS
    __sanitizer_start_switch_fiber(fake, to.bottom, to.size);
#endif
}

/// Arrived on this stack again (`fake` as saved by asanStartSwitch, nullptr on a fiber's
/// first run); ASan names the stack that was left, stored in `*from`.
inline void asanFinishSwitch([[maybe_unused]] void* fake, [[maybe_unused]] StackSpan* from)
{
#ifdef TS_ASAN_FIBERS
    __sanitizer_finish_switch_fiber(fake, &from->bottom, &from->size);
#endif
}

/// Frees the fake stack `dead` of a fiber that has ended, then sets it to nullptr. ASan
/// frees a fake stack only while it is the current one, so it is made current for a moment
/// on this stack (`own`) and this context's own fake stack is put back afterwards.
inline void asanFreeFakeStack(void*& dead, [[maybe_unused]] const StackSpan& own)
{
#ifdef TS_ASAN_FIBERS
    if (dead) {
        void* mine = nullptr;
        __sanitizer_start_switch_fiber(&mine, own.bottom, own.size);
        __sanitizer_finish_switch_fiber(dead, nullptr, nullptr);
        __sanitizer_start_switch_fiber(nullptr, own.bottom, own.size);
        __sanitizer_finish_switch_fiber(mine, nullptr, nullptr);
    }
#endif
    dead = nullptr;
}

/// Fiber stacks, reused from block to block (a launch creates one fiber per thread).
/// Natively each stack is mapped on its own with an inaccessible guard page below it, so a
/// thread that outgrows its stack (a local array larger than the stack was sized for)
/// faults at once instead of overwriting the memory next to it.
class StackPool {
public:
    explicit StackPool(size_t size) : size_(size) {}
    ~StackPool()
    {
        for (void* p : free_) release(p);
    }
    ctx::stack_context allocate()
    {
        void* p;
        if (free_.empty()) {
            p = obtain();
        } else {
            p = free_.back();
            free_.pop_back();
#ifdef TS_ASAN_FIBERS
            // A fiber that ended left its frames' redzones poisoned (it never returned);
            // the next fiber's frames start clean.
            ASAN_UNPOISON_MEMORY_REGION(p, size_);
#endif
        }
        // Skew each stack's top by a multiple of a cache line: stacks of the same size would
        // otherwise all start in the same cache sets and evict each other at every switch.
        const size_t skew = (next_++ % 61) * 64;
        ctx::stack_context sc;
        sc.size = size_ - skew;
        sc.sp = static_cast<char*>(p) + size_ - skew;
        return sc;
    }
    void deallocate(ctx::stack_context& sc) noexcept
    {
        free_.push_back(static_cast<char*>(sc.sp) - sc.size);
    }

private:
#if defined(__EMSCRIPTEN__)
    void* obtain()
    {
        void* p = std::malloc(size_);
        if (!p) throw std::bad_alloc();
        return p;
    }
    void release(void* p) { std::free(p); }
#else
    static size_t page()
    {
        static const size_t bytes = static_cast<size_t>(sysconf(_SC_PAGESIZE));
        return bytes;
    }
    /// The usable stack rounded up to whole pages, with one guard page below it.
    size_t mapped() const { return (size_ + page() - 1) / page() * page() + page(); }
    void* obtain()
    {
        const size_t bytes = mapped();
        void* base = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (base == MAP_FAILED) throw std::bad_alloc();
        if (mprotect(base, page(), PROT_NONE) != 0) {
            munmap(base, bytes);
            throw std::bad_alloc();
        }
        // The stack is the top size_ bytes of the mapping.
        return static_cast<char*>(base) + bytes - size_;
    }
    void release(void* p)
    {
        const size_t bytes = mapped();
        munmap(static_cast<char*>(p) + size_ - bytes, bytes);
    }
#endif
    size_t size_;
    size_t next_ = 0;
    std::vector<void*> free_;
};

/// The StackAllocator concept Boost.Context copies into each fiber: a handle on the pool.
/// `span` receives the stack's extent (for ASan's annotations).
struct PoolHandle {
    StackPool* pool;
    StackSpan* span;
    ctx::stack_context allocate()
    {
        ctx::stack_context sc = pool->allocate();
        *span = StackSpan{static_cast<char*>(sc.sp) - sc.size, sc.size};
        return sc;
    }
    void deallocate(ctx::stack_context& sc) noexcept { pool->deallocate(sc); }
};

}  // namespace ts::sim::machine_detail
