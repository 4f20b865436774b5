// What each level of nesting costs tickfsm: the flat brawler's machine
// (kBrawlerTransitions) wrapped in K empty composites, Wrap<1> holding Wrap<2>
// ... holding the eight states. The composites have no transitions nor hooks,
// so every K behaves as the flat brawler, and the checksum must be the flat
// switch's. One run of RunLevels<K> (N agents, T ticks, one StateManager each)
// per invocation, for callgrind:
//   valgrind --tool=callgrind --toggle-collect='void brawler::levels::RunLevels*'
//            tickfsm_bench_nesting_levels K [N] [T]
// prints `LEVELS k=K n=N ticks=T sum=S hash=H`; Ir / (N * T) is the cost per agent-tick.
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <vector>

#include <tickfsm/static_machine.hpp>

#include "brawler.hpp"
#include "tickfsm_brawler.hpp"

namespace brawler::levels {

template <int I>
struct Wrap {};

template <int K>
class Wrapped : public tickfsm::StateManager<Fighter, Input> {
 public:
  explicit Wrapped(Fighter& fighter) : StateManager(fighter, DT) {
    using namespace tickfsm_impl;
    if constexpr (K >= 1) SetSubstates<Wrap<K>, Idle, Run, Jump, Fall, Land, Attack, Hurt, Dead>();
    if constexpr (K >= 2) SetSubstates<Wrap<K - 1>, Wrap<K>>();
    if constexpr (K >= 3) SetSubstates<Wrap<K - 2>, Wrap<K - 1>>();
    if constexpr (K >= 4) SetSubstates<Wrap<K - 3>, Wrap<K - 2>>();
    Configure(kBrawlerTransitions);
  }
};

template <int K>
[[gnu::noinline]] void RunLevels(std::vector<Fighter>& fighters, std::vector<std::uint32_t>& rng,
                                 std::vector<std::unique_ptr<Wrapped<K>>>& machines, std::uint64_t ticks) {
  for (std::uint64_t t = 0; t < ticks; ++t) {
    for (std::size_t i = 0; i < fighters.size(); ++i) {
      const Input in = DrawInput(rng[i]);
      Physics(fighters[i]);
      machines[i]->Perform(in);
    }
  }
}

template <int K>
Checksum Levels(std::size_t n, std::uint64_t ticks) {
  std::vector<Fighter> fighters(n);
  std::vector<std::uint32_t> rng(n);
  std::vector<std::unique_ptr<Wrapped<K>>> machines;
  for (std::size_t i = 0; i < n; ++i) {
    rng[i] = Seed(i);
    machines.push_back(std::make_unique<Wrapped<K>>(fighters[i]));
  }
  RunLevels<K>(fighters, rng, machines, ticks);
  Checksum c;
  for (std::size_t i = 0; i < n; ++i) {
    const Wrapped<K>& m = *machines[i];
    Accumulate(c, tickfsm_impl::StateIndexOf([&](auto s) { return m.template IsIn<decltype(s)>(); }), fighters[i]);
  }
  return c;
}

}  // namespace brawler::levels

int main(int argc, char** argv) {
  using brawler::levels::Levels;
  const int k = argc > 1 ? std::atoi(argv[1]) : -1;
  const std::size_t n = argc > 2 ? std::strtoull(argv[2], nullptr, 10) : 1000;
  const std::uint64_t ticks = argc > 3 ? std::strtoull(argv[3], nullptr, 10) : 1000;
  brawler::Checksum c;
  switch (k) {
    case 0: c = Levels<0>(n, ticks); break;
    case 1: c = Levels<1>(n, ticks); break;
    case 2: c = Levels<2>(n, ticks); break;
    case 3: c = Levels<3>(n, ticks); break;
    case 4: c = Levels<4>(n, ticks); break;
    default: std::fprintf(stderr, "usage: %s K(0-4) [N] [T]\n", argv[0]); return 2;
  }
  std::printf("LEVELS k=%d n=%zu ticks=%" PRIu64 " sum=%" PRIu64 " hash=%016" PRIx64 "\n", k, n, ticks, c.sum,
              c.hash);
  return 0;
}
