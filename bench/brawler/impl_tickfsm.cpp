// `tickfsm`: one BrawlerStateManager per agent, as a user would write it.
// `tickfsm-static`: one StaticStateManager<kBrawlerTransitions> per agent, the
// same machine as a compile-time table (not one of the spec's four
// implementations: it shows what the machine costs when its table is known at
// compile time).
// `tickfsm-by-state`: the same StateManagers ticked by PerformAllByState (perform_all.hpp)
// (blocks of 256 agents: inputs and physics in index order, then the machines
// grouped by state). Not one of the spec's four either.
#include <cstdint>
#include <memory>
#include <new>
#include <span>
#include <vector>

#include "brawler.hpp"
#include "impl.hpp"
#include "perform_all.hpp"
#include "tickfsm_brawler.hpp"

namespace brawler {
namespace {

using tickfsm_impl::BrawlerStateManager;
using tickfsm_impl::BrawlerStaticStateManager;

template <class Machine, bool kByState>
class TickfsmImpl final : public ImplBase<TickfsmImpl<Machine, kByState>> {
 public:
  explicit TickfsmImpl(std::size_t n) : fighters_(n), rng_(n) {
    for (std::size_t i = 0; i < n; ++i) rng_[i] = Seed(i);
    // StateManagers are neither copyable nor movable: one contiguous array, built in place.
    machines_ = std::allocator<Machine>{}.allocate(n);
    tickfsm_impl::BuildSharedTable();  // the kind's, not this implementation's
    const std::size_t heap = HeapBytesDuring([&] {
      for (std::size_t i = 0; i < n; ++i) {
        if constexpr (std::is_constructible_v<Machine, Fighter&, float>)
          std::construct_at(machines_ + i, fighters_[i], DT);
        else
          std::construct_at(machines_ + i, fighters_[i]);
        ++built_;
      }
      // Close each StateManager's configuration now (seed 002's InitFSM: the
      // first machine builds the shared table), so that what a running machine
      // holds is what is counted here; Idle itself is entered by the first
      // Perform, before that tick's conditions, as the spec has it.
      if constexpr (requires(Machine& m) { m.Initialize(); })
        for (std::size_t i = 0; i < n; ++i) machines_[i].Initialize();
    });
    bytes_ = sizeof(Machine) + (n > 0 ? heap / n : 0);
  }

  ~TickfsmImpl() override {
    for (std::size_t i = 0; i < built_; ++i) std::destroy_at(machines_ + i);
    std::allocator<Machine>{}.deallocate(machines_, fighters_.size());
  }
  TickfsmImpl(const TickfsmImpl&) = delete;
  TickfsmImpl& operator=(const TickfsmImpl&) = delete;

  void Tick() override {
    // The arrays' addresses in locals, as in the crowd's loop: Perform is an
    // opaque call, after which the vectors' members would be read again.
    const std::size_t n = fighters_.size();
    Fighter* const fighters = fighters_.data();
    std::uint32_t* const rng = rng_.data();
    Machine* const machines = machines_;
    if constexpr (kByState) {
      PerformAllByState(std::span<Machine>(machines, n), [rng, fighters](std::size_t i) {
        const Input in = DrawInput(rng[i]);
        Physics(fighters[i]);
        return in;
      });
    } else {
      for (std::size_t i = 0; i < n; ++i) {
        const Input in = DrawInput(rng[i]);
        Physics(fighters[i]);
        machines[i].Perform(in);
      }
    }
  }

  Checksum Sum() const override {
    Checksum c;
    for (std::size_t i = 0; i < fighters_.size(); ++i) {
      const Machine& m = machines_[i];
      Accumulate(c, tickfsm_impl::StateIndexOf([&](auto s) { return m.template IsIn<decltype(s)>(); }),
                 fighters_[i]);
    }
    return c;
  }

  std::size_t MachineBytesPerAgent() const override { return bytes_; }

 private:
  std::vector<Fighter> fighters_;
  std::vector<std::uint32_t> rng_;
  Machine* machines_ = nullptr;
  std::size_t built_ = 0;
  std::size_t bytes_ = 0;
};

template <class Machine, bool kByState = false>
std::unique_ptr<Impl> Make(std::size_t n) {
  return std::make_unique<TickfsmImpl<Machine, kByState>>(n);
}

}  // namespace
}  // namespace brawler

extern const brawler::ImplInfo kTickfsmImpl{"tickfsm", &brawler::Make<brawler::BrawlerStateManager>, true};
extern const brawler::ImplInfo kTickfsmByStateImpl{"tickfsm-by-state",
                                                   &brawler::Make<brawler::BrawlerStateManager, true>, true};
extern const brawler::ImplInfo kTickfsmStaticImpl{"tickfsm-static", &brawler::Make<brawler::BrawlerStaticStateManager>,
                                                  true};
