// `switch`: an enum and a tick counter per agent, one switch: the practical limit.
#include <cinttypes>
#include <cstdio>
#include <type_traits>
#include <vector>

#include "brawler.hpp"
#include "impl.hpp"

namespace brawler {
namespace {

struct Machine {
  StateId state = StateId::Idle;
  std::uint32_t ticks = 0;
};

struct NoCoverage {};

// kCount adds transition counting for the coverage check; the timed build has none.
template <bool kCount>
class SwitchImpl final : public ImplBase<SwitchImpl<kCount>> {
 public:
  explicit SwitchImpl(std::size_t n) : fighters_(n), rng_(n) {
    for (std::size_t i = 0; i < n; ++i) rng_[i] = Seed(i);
    machines_.reserve(n);
    const std::size_t heap = HeapBytesDuring([&] {
      for (std::size_t i = 0; i < n; ++i) machines_.emplace_back();
    });
    bytes_per_agent_ = sizeof(Machine) + (n > 0 ? heap / n : 0);
  }

  // The whole step is written out in the loop, as one would by hand.
  void Tick() override {
    const std::size_t n = fighters_.size();
    for (std::size_t i = 0; i < n; ++i) {
      const Input in = DrawInput(rng_[i]);
      Fighter& f = fighters_[i];
      Physics(f);
      Machine& m = machines_[i];
      const float t = TimeInState(++m.ticks);
      StateId next = m.state;
      switch (m.state) {
        case StateId::Idle:
          if (Hit(f, in, t)) next = StateId::Hurt;
          else if (CanJump(f, in, t)) next = StateId::Jump;
          else if (CanAttack(f, in, t)) next = StateId::Attack;
          else if (Moving(f, in, t)) next = StateId::Run;
          else if (Airborne(f, in, t)) next = StateId::Fall;
          break;
        case StateId::Run:
          if (Hit(f, in, t)) next = StateId::Hurt;
          else if (CanJump(f, in, t)) next = StateId::Jump;
          else if (CanAttack(f, in, t)) next = StateId::Attack;
          else if (Still(f, in, t)) next = StateId::Idle;
          else if (Airborne(f, in, t)) next = StateId::Fall;
          break;
        case StateId::Jump:
          if (Hit(f, in, t)) next = StateId::Hurt;
          else if (Descending(f, in, t)) next = StateId::Fall;
          break;
        case StateId::Fall:
          if (Hit(f, in, t)) next = StateId::Hurt;
          else if (Grounded(f, in, t)) next = StateId::Land;
          break;
        case StateId::Land:
          if (LandDone(f, in, t)) next = StateId::Idle;
          break;
        case StateId::Attack:
          if (Hit(f, in, t)) next = StateId::Hurt;
          else if (AttackDone(f, in, t)) next = StateId::Idle;
          break;
        case StateId::Hurt:
          if (NoHp(f, in, t)) next = StateId::Dead;
          else if (HurtDone(f, in, t)) next = StateId::Idle;
          break;
        case StateId::Dead:
          if (DeadDone(f, in, t)) next = StateId::Idle;
          break;
      }

      if (next != m.state) {
        if (m.state == StateId::Dead) DeadExit(f, in);
        m.ticks = 0;
        switch (next) {
          case StateId::Jump: JumpEnter(f, in); break;
          case StateId::Attack: AttackEnter(f, in); break;
          case StateId::Hurt: HurtEnter(f, in); break;
          default: break;
        }
        if constexpr (kCount) {
          ++coverage_.entered[static_cast<std::size_t>(next)];
          ++coverage_.fired[static_cast<std::size_t>(m.state)][static_cast<std::size_t>(next)];
        }
        m.state = next;
      }

      switch (m.state) {
        case StateId::Idle: IdlePerform(f, in); break;
        case StateId::Run: RunPerform(f, in); break;
        case StateId::Jump: JumpPerform(f, in); break;
        case StateId::Fall: FallPerform(f, in); break;
        case StateId::Land: LandPerform(f, in); break;
        case StateId::Attack: AttackPerform(f, in); break;
        case StateId::Hurt:
        case StateId::Dead: break;
      }
    }
  }

  Checksum Sum() const override {
    Checksum c;
    for (std::size_t i = 0; i < fighters_.size(); ++i) {
      Accumulate(c, static_cast<int>(machines_[i].state), fighters_[i]);
    }
    return c;
  }

  std::size_t MachineBytesPerAgent() const override { return bytes_per_agent_; }

  const Coverage& coverage() const
    requires kCount
  {
    return coverage_;
  }

 private:
  std::vector<Fighter> fighters_;
  std::vector<std::uint32_t> rng_;
  std::vector<Machine> machines_;
  std::size_t bytes_per_agent_ = 0;
  [[no_unique_address]] std::conditional_t<kCount, Coverage, NoCoverage> coverage_{};
};

std::unique_ptr<Impl> MakeSwitch(std::size_t n) { return std::make_unique<SwitchImpl<false>>(n); }

}  // namespace

Coverage SwitchCoverage(std::size_t n, std::uint64_t ticks) {
  SwitchImpl<true> impl(n);
  impl.Run(ticks);
  return impl.coverage();
}

void CheckCoverage(std::size_t n, std::uint64_t ticks) {
  const Coverage cov = SwitchCoverage(n, ticks);
  for (int s = 0; s < kStateCount; ++s) {
    if (cov.entered[static_cast<std::size_t>(s)] == 0) {
      std::printf("WARNING n=%zu: state %s never entered in %" PRIu64 " ticks\n", n,
                  StateName(static_cast<StateId>(s)), ticks);
    }
  }
  for (const TransitionSpec& t : kTransitions) {
    if (cov.fired[static_cast<std::size_t>(t.from)][static_cast<std::size_t>(t.to)] == 0) {
      std::printf("WARNING n=%zu: transition %s -> %s never fired in %" PRIu64 " ticks\n", n,
                  StateName(t.from), StateName(t.to), ticks);
    }
  }
}

}  // namespace brawler

extern const brawler::ImplInfo kSwitchImpl{"switch", &brawler::MakeSwitch, true};
