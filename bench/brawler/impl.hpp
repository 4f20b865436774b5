// The plug-in interface every brawler implementation provides.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>

#include "brawler.hpp"

namespace brawler {

// An implementation owns N fighters, N rng states (seeded with Seed(i)) and N
// machines, all in Idle with zero time in state when construction returns.
class Impl {
 public:
  virtual ~Impl() = default;
  // One tick for all agents; for each agent i in order:
  //   Input in = DrawInput(rng[i]); Physics(f[i]); then the machine step.
  virtual void Tick() = 0;
  // `ticks` calls of Tick(); ImplBase overrides it so the per-tick call is direct.
  virtual void Run(std::uint64_t ticks) {
    for (std::uint64_t i = 0; i < ticks; ++i) Tick();
  }
  // Accumulate() over all agents in index order.
  virtual Checksum Sum() const = 0;
  // sizeof(one agent's machine object) + heap the machines own / N, where the
  // heap is HeapBytesDuring() around constructing the machines only (the array
  // holding them is allocated beforehand and not counted again).
  virtual std::size_t MachineBytesPerAgent() const = 0;
};

// Derive `class X final : public ImplBase<X>` so Run() loops over X::Tick
// without a virtual call per tick, the same for every implementation.
template <class Derived>
class ImplBase : public Impl {
 public:
  void Run(std::uint64_t ticks) final {
    auto& self = static_cast<Derived&>(*this);
    for (std::uint64_t i = 0; i < ticks; ++i) self.Derived::Tick();
  }
};

struct ImplInfo {
  const char* name;
  std::unique_ptr<Impl> (*make)(std::size_t n);
  bool must_not_allocate;  // during Tick(); the harness fails if it does
};

// Live heap bytes added while `f` runs.
template <class F>
std::size_t HeapBytesDuring(F&& f) {
  const std::size_t before = HeapCounter::bytes();
  f();
  const std::size_t after = HeapCounter::bytes();
  return after > before ? after - before : 0;
}

// All registered implementations, in run order (impls.cpp; one such file per
// executable that uses this harness, main.cpp).
std::span<const ImplInfo* const> AllImpls();
// The benchmark's name in the harness's header line ("brawler").
const char* BenchmarkName();
// The implementation ratios are taken against ("switch").
const char* BaselineImpl();

// Runs the baseline switch machine `ticks` ticks with n agents and prints a
// `WARNING n=N: ...` line for each state never entered and each transition
// never fired (impl_switch.cpp).
void CheckCoverage(std::size_t n, std::uint64_t ticks);

// How often each state was entered and each (from, to) transition fired when
// the switch machine runs `ticks` ticks with n agents (impl_switch.cpp).
struct Coverage {
  std::array<std::uint64_t, kStateCount> entered{};
  std::array<std::array<std::uint64_t, kStateCount>, kStateCount> fired{};
};
Coverage SwitchCoverage(std::size_t n, std::uint64_t ticks);

}  // namespace brawler
