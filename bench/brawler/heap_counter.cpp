// Replaces every global operator new/delete so the harness can count heap use.
// Sizes come from malloc_usable_size rather than a size header, so the counted
// program keeps exactly the heap layout it would have without counting.
#include <malloc.h>

#include <atomic>
#include <cstdlib>
#include <new>

#include "brawler.hpp"

namespace {

std::atomic<std::size_t> g_live_bytes{0};
std::atomic<std::size_t> g_count{0};

void* Allocate(std::size_t size, std::size_t align) {
  if (size == 0) size = 1;
  void* p = nullptr;
  if (align <= __STDCPP_DEFAULT_NEW_ALIGNMENT__) {
    p = std::malloc(size);
  } else if (posix_memalign(&p, align, size) != 0) {
    p = nullptr;
  }
  if (p != nullptr) {
    g_live_bytes.fetch_add(malloc_usable_size(p), std::memory_order_relaxed);
    g_count.fetch_add(1, std::memory_order_relaxed);
  }
  return p;
}

void* AllocateOrThrow(std::size_t size, std::size_t align) {
  for (;;) {
    if (void* p = Allocate(size, align)) return p;
    std::new_handler handler = std::get_new_handler();
    if (handler == nullptr) throw std::bad_alloc();
    handler();
  }
}

void Release(void* p) noexcept {
  if (p == nullptr) return;
  g_live_bytes.fetch_sub(malloc_usable_size(p), std::memory_order_relaxed);
  std::free(p);
}

constexpr std::size_t kDefault = __STDCPP_DEFAULT_NEW_ALIGNMENT__;

std::size_t Align(std::align_val_t a) { return static_cast<std::size_t>(a); }

}  // namespace

namespace brawler {
std::size_t HeapCounter::bytes() { return g_live_bytes.load(std::memory_order_relaxed); }
std::size_t HeapCounter::count() { return g_count.load(std::memory_order_relaxed); }
}  // namespace brawler

void* operator new(std::size_t n) { return AllocateOrThrow(n, kDefault); }
void* operator new[](std::size_t n) { return AllocateOrThrow(n, kDefault); }
void* operator new(std::size_t n, const std::nothrow_t&) noexcept { return Allocate(n, kDefault); }
void* operator new[](std::size_t n, const std::nothrow_t&) noexcept {
  return Allocate(n, kDefault);
}
void* operator new(std::size_t n, std::align_val_t a) { return AllocateOrThrow(n, Align(a)); }
void* operator new[](std::size_t n, std::align_val_t a) { return AllocateOrThrow(n, Align(a)); }
void* operator new(std::size_t n, std::align_val_t a, const std::nothrow_t&) noexcept {
  return Allocate(n, Align(a));
}
void* operator new[](std::size_t n, std::align_val_t a, const std::nothrow_t&) noexcept {
  return Allocate(n, Align(a));
}

void operator delete(void* p) noexcept { Release(p); }
void operator delete[](void* p) noexcept { Release(p); }
void operator delete(void* p, std::size_t) noexcept { Release(p); }
void operator delete[](void* p, std::size_t) noexcept { Release(p); }
void operator delete(void* p, const std::nothrow_t&) noexcept { Release(p); }
void operator delete[](void* p, const std::nothrow_t&) noexcept { Release(p); }
void operator delete(void* p, std::align_val_t) noexcept { Release(p); }
void operator delete[](void* p, std::align_val_t) noexcept { Release(p); }
void operator delete(void* p, std::size_t, std::align_val_t) noexcept { Release(p); }
void operator delete[](void* p, std::size_t, std::align_val_t) noexcept { Release(p); }
void operator delete(void* p, std::align_val_t, const std::nothrow_t&) noexcept { Release(p); }
void operator delete[](void* p, std::align_val_t, const std::nothrow_t&) noexcept { Release(p); }
