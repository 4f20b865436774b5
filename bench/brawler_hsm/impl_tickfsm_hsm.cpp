// `tickfsm-hsm`: one HsmStateManager per agent, the tree configured fluently in
// its constructor as a user would write it.
// `tickfsm-hsm-crowd`: the same machine for all agents, a Crowd on one shared
// table, ticked by TickAll.
// `tickfsm-hsm-table`, `tickfsm-hsm-table-crowd`: the same tree and transitions
// written as a compile-time constant, which the StateManager takes with
// Configure (each leaf then ticks with its whole path compiled in).
// `tickfsm-hsm-static`, `tickfsm-hsm-static-crowd`: the same constant run by
// a StaticStateManager per agent and by a StaticCrowd (one switch).
#include <memory>
#include <optional>
#include <span>
#include <type_traits>
#include <vector>

#include <tickfsm/static_machine.hpp>
#include <tickfsm/tickfsm.hpp>

#include "brawler_hsm.hpp"
#include "impl.hpp"

namespace brawler::hsm {
namespace {

// Composites.
struct Alive {
  void OnStateEnter(HsmFighter& f, const Input& in) { AliveEnter(f, in); }
  void OnStateExit(HsmFighter& f, const Input& in) { AliveExit(f, in); }
};
struct Vulnerable {};
struct GroundedState {
  void OnStateEnter(HsmFighter& f, const Input& in) { GroundedEnter(f, in); }
  void Perform(HsmFighter& f, const Input& in) { GroundedPerform(f, in); }
};
struct AirborneState {
  void OnStateExit(HsmFighter& f, const Input& in) { AirborneExit(f, in); }
};

// Leaves, with the spec's state index.
struct Idle {
  static constexpr int kIndex = 0;
  void Perform(HsmFighter& f, const Input& in) { StandPerform(f, in); }
};
struct Run {
  static constexpr int kIndex = 1;
  void Perform(HsmFighter& f, const Input& in) { RunPerform(f, in); }
};
struct Jump {
  static constexpr int kIndex = 2;
  void OnStateEnter(HsmFighter& f, const Input& in) { JumpEnter(f, in); }
  void Perform(HsmFighter& f, const Input& in) { JumpPerform(f, in); }
};
struct Fall {
  static constexpr int kIndex = 3;
  void Perform(HsmFighter& f, const Input& in) { FallPerform(f, in); }
};
struct Land {
  static constexpr int kIndex = 4;
  void Perform(HsmFighter& f, const Input& in) { StandPerform(f, in); }
};
struct Attack {
  static constexpr int kIndex = 5;
  void OnStateEnter(HsmFighter& f, const Input& in) { AttackEnter(f, in); }
  void Perform(HsmFighter& f, const Input& in) { AttackPerform(f, in); }
};
struct Hurt {
  static constexpr int kIndex = 6;
  void OnStateEnter(HsmFighter& f, const Input& in) { HurtEnter(f, in); }
};
struct Dead {
  static constexpr int kIndex = 7;
  void OnStateExit(HsmFighter& f, const Input& in) { DeadExit(f, in); }
};

class HsmStateManager : public tickfsm::StateManager<HsmFighter, Input> {
 public:
  explicit HsmStateManager(HsmFighter& fighter) : StateManager(fighter, DT) {
    SetSubstates<Alive, Vulnerable, Land, Hurt>();
    SetSubstates<Vulnerable, GroundedState, AirborneState, Attack>();
    SetSubstates<GroundedState, Idle, Run>();
    SetSubstates<AirborneState, Jump, Fall>();
    SetInitialState<Idle>().To<Run>([](const HsmFighter& f, const Input& in, float t) { return Moving(f, in, t); });
    From<Run>().To<Idle>([](const HsmFighter& f, const Input& in, float t) { return Still(f, in, t); });
    From<Vulnerable>().To<Hurt>([](const HsmFighter& f, const Input& in, float t) { return Hit(f, in, t); });
    From<GroundedState>()
        .To<Jump>([](const HsmFighter& f, const Input& in, float t) { return CanJump(f, in, t); })
        .To<Attack>([](const HsmFighter& f, const Input& in, float t) { return CanAttack(f, in, t); })
        .To<Fall>([](const HsmFighter& f, const Input& in, float t) { return Airborne(f, in, t); });
    From<Jump>().To<Fall>([](const HsmFighter& f, const Input& in, float t) { return Descending(f, in, t); });
    From<Fall>().To<Land>([](const HsmFighter& f, const Input& in, float t) { return Grounded(f, in, t); });
    From<Attack>().To<Idle>([](const HsmFighter& f, const Input& in, float t) { return AttackDone(f, in, t); });
    From<Land>().To<Idle>([](const HsmFighter& f, const Input& in, float t) { return LandDone(f, in, t); });
    From<Hurt>()
        .To<Dead>([](const HsmFighter& f, const Input& in, float t) { return NoHp(f, in, t); })
        .To<Idle>([](const HsmFighter& f, const Input& in, float t) { return HurtDone(f, in, t); });
    From<Dead>().To<Idle>([](const HsmFighter& f, const Input& in, float t) { return DeadDone(f, in, t); });
  }
};

// The same tree and transitions as one compile-time constant, which a
// StateManager takes with Configure: each leaf then ticks with its whole
// path's conditions and Performs inlined.
inline constexpr auto kHsmTransitions =
    tickfsm::Transitions<HsmFighter, Input>()
        .SetSubstates<Alive, Vulnerable, Land, Hurt>()
        .SetSubstates<Vulnerable, GroundedState, AirborneState, Attack>()
        .SetSubstates<GroundedState, Idle, Run>()
        .SetSubstates<AirborneState, Jump, Fall>()
        .SetInitialState<Idle>()
            .To<Run>([](const HsmFighter& f, const Input& in, float t) { return Moving(f, in, t); })
        .From<Run>()
            .To<Idle>([](const HsmFighter& f, const Input& in, float t) { return Still(f, in, t); })
        .From<Vulnerable>()
            .To<Hurt>([](const HsmFighter& f, const Input& in, float t) { return Hit(f, in, t); })
        .From<GroundedState>()
            .To<Jump>([](const HsmFighter& f, const Input& in, float t) { return CanJump(f, in, t); })
            .To<Attack>([](const HsmFighter& f, const Input& in, float t) { return CanAttack(f, in, t); })
            .To<Fall>([](const HsmFighter& f, const Input& in, float t) { return Airborne(f, in, t); })
        .From<Jump>()
            .To<Fall>([](const HsmFighter& f, const Input& in, float t) { return Descending(f, in, t); })
        .From<Fall>()
            .To<Land>([](const HsmFighter& f, const Input& in, float t) { return Grounded(f, in, t); })
        .From<Attack>()
            .To<Idle>([](const HsmFighter& f, const Input& in, float t) { return AttackDone(f, in, t); })
        .From<Land>()
            .To<Idle>([](const HsmFighter& f, const Input& in, float t) { return LandDone(f, in, t); })
        .From<Hurt>()
            .To<Dead>([](const HsmFighter& f, const Input& in, float t) { return NoHp(f, in, t); })
            .To<Idle>([](const HsmFighter& f, const Input& in, float t) { return HurtDone(f, in, t); })
        .From<Dead>()
            .To<Idle>([](const HsmFighter& f, const Input& in, float t) { return DeadDone(f, in, t); });

class HsmTableStateManager : public tickfsm::StateManager<HsmFighter, Input> {
 public:
  explicit HsmTableStateManager(HsmFighter& fighter) : StateManager(fighter, DT) { Configure(kHsmTransitions); }
};

// The same constant, each leaf's path in its case of one switch (a class of
// its own, so that tools print its name instead of the constant's type).
class HsmStaticStateManager : public tickfsm::StaticStateManager<kHsmTransitions> {
 public:
  using StaticStateManager::StaticStateManager;
};

// The spec's index of the leaf that `is_in` reports active.
template <class IsIn>
int LeafIndex(IsIn&& is_in) {
  int index = Dead::kIndex;
  auto test = [&](auto leaf) {
    if (is_in(leaf)) index = decltype(leaf)::kIndex;
    return index != Dead::kIndex;
  };
  (void)(test(Idle{}) || test(Run{}) || test(Jump{}) || test(Fall{}) || test(Land{}) || test(Attack{}) ||
         test(Hurt{}));
  return index;
}

// Whatever the kind keeps for the rest of the process (a shared table, if the
// machine shares one) is built here, before any implementation counts bytes.
template <class Manager>
void BuildKindOnce() {
  HsmFighter fighter;
  Manager machine(fighter);
  machine.Perform(Input{});
}

// The crowd of a kind of machine: a Crowd of a StateManager, the StaticCrowd
// of the constant HsmStaticStateManager runs.
template <class Manager>
struct CrowdOf {
  using type = tickfsm::Crowd<Manager>;
};
template <>
struct CrowdOf<HsmStaticStateManager> {
  using type = tickfsm::StaticCrowd<kHsmTransitions>;
};

// One Manager per agent (kCrowd false) or one crowd of them (true); Manager
// is a StateManager or a StaticStateManager.
template <class Manager, bool kCrowd>
class TickfsmHsmImpl final : public ImplBase<TickfsmHsmImpl<Manager, kCrowd>> {
 public:
  explicit TickfsmHsmImpl(std::size_t n) : fighters_(n), rng_(n) {
    for (std::size_t i = 0; i < n; ++i) rng_[i] = Seed(i);
    if constexpr (!kStatic) BuildKindOnce<Manager>();
    if constexpr (kCrowd) {
      const std::size_t heap = HeapBytesDuring([&] {
        if constexpr (kStatic) {
          crowd_.emplace(n, DT);
        } else {
          HsmFighter prototype;
          crowd_.emplace(n, prototype);
        }
      });
      bytes_ = n > 0 ? (sizeof(Crowd) + heap) / n : 0;
    } else {
      // A StateManager is not copyable nor movable: one array, built in place,
      // configuration closed by Initialize(); Idle is entered by the first Perform.
      machines_ = std::allocator<Manager>{}.allocate(n);
      const std::size_t heap = HeapBytesDuring([&] {
        for (; built_ < n; ++built_) {
          if constexpr (kStatic) std::construct_at(machines_ + built_, fighters_[built_], DT);
          else std::construct_at(machines_ + built_, fighters_[built_]);
        }
        if constexpr (!kStatic)
          for (std::size_t i = 0; i < n; ++i) machines_[i].Initialize();
      });
      bytes_ = sizeof(Manager) + (n > 0 ? heap / n : 0);
    }
  }

  ~TickfsmHsmImpl() override {
    if constexpr (!kCrowd) {
      for (std::size_t i = 0; i < built_; ++i) std::destroy_at(machines_ + i);
      std::allocator<Manager>{}.deallocate(machines_, fighters_.size());
    }
  }
  TickfsmHsmImpl(const TickfsmHsmImpl&) = delete;
  TickfsmHsmImpl& operator=(const TickfsmHsmImpl&) = delete;

  void Tick() override {
    std::uint32_t* const rng = rng_.data();
    if constexpr (kCrowd) {
      crowd_->TickAll(std::span<HsmFighter>(fighters_), [rng](std::size_t i, HsmFighter& f) {
        const Input in = DrawInput(rng[i]);
        Physics(f);
        return in;
      });
    } else {
      const std::size_t n = fighters_.size();
      HsmFighter* const fighters = fighters_.data();
      Manager* const machines = machines_;
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
      int index = 0;
      if constexpr (kCrowd)
        index = LeafIndex([&](auto s) { return crowd_->template IsIn<decltype(s)>(i); });
      else
        index = LeafIndex([&](auto s) { return machines_[i].template IsIn<decltype(s)>(); });
      AccumulateHsm(c, index, fighters_[i]);
    }
    return c;
  }

  std::size_t MachineBytesPerAgent() const override { return bytes_; }

 private:
  static constexpr bool kStatic = !std::is_base_of_v<tickfsm::StateManager<HsmFighter, Input>, Manager>;
  using Crowd = typename CrowdOf<Manager>::type;
  std::vector<HsmFighter> fighters_;
  std::vector<std::uint32_t> rng_;
  std::optional<Crowd> crowd_;
  Manager* machines_ = nullptr;
  std::size_t built_ = 0;
  std::size_t bytes_ = 0;
};

template <class Manager, bool kCrowd>
std::unique_ptr<Impl> Make(std::size_t n) {
  return std::make_unique<TickfsmHsmImpl<Manager, kCrowd>>(n);
}

}  // namespace
}  // namespace brawler::hsm

extern const brawler::ImplInfo kTickfsmHsmImpl{"tickfsm-hsm", &brawler::hsm::Make<brawler::hsm::HsmStateManager, false>,
                                               true};
extern const brawler::ImplInfo kTickfsmHsmCrowdImpl{"tickfsm-hsm-crowd",
                                                    &brawler::hsm::Make<brawler::hsm::HsmStateManager, true>, true};
extern const brawler::ImplInfo kTickfsmHsmTableImpl{
    "tickfsm-hsm-table", &brawler::hsm::Make<brawler::hsm::HsmTableStateManager, false>, true};
extern const brawler::ImplInfo kTickfsmHsmTableCrowdImpl{
    "tickfsm-hsm-table-crowd", &brawler::hsm::Make<brawler::hsm::HsmTableStateManager, true>, true};
extern const brawler::ImplInfo kTickfsmHsmStaticImpl{
    "tickfsm-hsm-static", &brawler::hsm::Make<brawler::hsm::HsmStaticStateManager, false>, true};
extern const brawler::ImplInfo kTickfsmHsmStaticCrowdImpl{
    "tickfsm-hsm-static-crowd", &brawler::hsm::Make<brawler::hsm::HsmStaticStateManager, true>, true};
