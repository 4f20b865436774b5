// `switch-hsm`: an enum of leaves and a tick counter per agent, one switch, the
// parents' transitions and hooks written out by hand in each case: the
// practical limit for the nested brawler.
#include <cinttypes>
#include <cstdio>
#include <type_traits>
#include <vector>

#include "brawler_hsm.hpp"
#include "impl.hpp"

namespace brawler::hsm {
namespace {

struct Machine {
  StateId state = StateId::Idle;
  std::uint32_t ticks = 0;
};

struct NoCoverage {};

// kCount adds transition counting for the coverage check; the timed build has none.
template <bool kCount>
class SwitchHsmImpl final : public ImplBase<SwitchHsmImpl<kCount>> {
 public:
  explicit SwitchHsmImpl(std::size_t n) : fighters_(n), rng_(n) {
    for (std::size_t i = 0; i < n; ++i) rng_[i] = Seed(i);
    machines_.reserve(n);
    const std::size_t heap = HeapBytesDuring([&] { machines_.resize(n); });
    bytes_ = sizeof(Machine) + (n > 0 ? heap / n : 0);
    // Idle is entered before the first tick: Alive, Vulnerable, Grounded, Idle.
    for (HsmFighter& f : fighters_) {
      AliveEnter(f, Input{});
      GroundedEnter(f, Input{});
    }
  }

  // Each case tries the active path's transitions outermost first (Vulnerable's,
  // Grounded's or Airborne's, the leaf's) and, for the one that holds, runs by
  // hand the exits up to the common ancestor and the enters down to the target.
  void Tick() override {
    const std::size_t n = fighters_.size();
    for (std::size_t i = 0; i < n; ++i) {
      const Input in = DrawInput(rng_[i]);
      HsmFighter& f = fighters_[i];
      Physics(f);
      Machine& m = machines_[i];
      const float t = TimeInState(++m.ticks);
      StateId to = m.state;
      switch (m.state) {
        case StateId::Idle:
        case StateId::Run:
          if (Hit(f, in, t)) {  // Vulnerable -> Hurt
            HurtEnter(f, in);
            to = StateId::Hurt;
          } else if (CanJump(f, in, t)) {  // Grounded -> Airborne/Jump
            JumpEnter(f, in);
            to = StateId::Jump;
          } else if (CanAttack(f, in, t)) {  // Grounded -> Attack
            AttackEnter(f, in);
            to = StateId::Attack;
          } else if (Airborne(f, in, t)) {  // Grounded -> Airborne/Fall
            to = StateId::Fall;
          } else if (m.state == StateId::Idle) {
            if (Moving(f, in, t)) to = StateId::Run;
          } else if (Still(f, in, t)) {
            to = StateId::Idle;
          }
          break;
        case StateId::Jump:
        case StateId::Fall:
          if (Hit(f, in, t)) {  // Vulnerable -> Hurt, leaving Airborne
            AirborneExit(f, in);
            HurtEnter(f, in);
            to = StateId::Hurt;
          } else if (m.state == StateId::Jump) {
            if (Descending(f, in, t)) to = StateId::Fall;
          } else if (Grounded(f, in, t)) {  // leaving Airborne and Vulnerable
            AirborneExit(f, in);
            to = StateId::Land;
          }
          break;
        case StateId::Attack:
          if (Hit(f, in, t)) {
            HurtEnter(f, in);
            to = StateId::Hurt;
          } else if (AttackDone(f, in, t)) {
            GroundedEnter(f, in);
            to = StateId::Idle;
          }
          break;
        case StateId::Land:
          if (LandDone(f, in, t)) {  // entering Vulnerable, Grounded
            GroundedEnter(f, in);
            to = StateId::Idle;
          }
          break;
        case StateId::Hurt:
          if (NoHp(f, in, t)) {  // leaving Alive
            AliveExit(f, in);
            to = StateId::Dead;
          } else if (HurtDone(f, in, t)) {
            GroundedEnter(f, in);
            to = StateId::Idle;
          }
          break;
        case StateId::Dead:
          if (DeadDone(f, in, t)) {  // entering Alive, Vulnerable, Grounded
            DeadExit(f, in);
            AliveEnter(f, in);
            GroundedEnter(f, in);
            to = StateId::Idle;
          }
          break;
      }
      if (to != m.state) {
        if constexpr (kCount) Count(m.state, to);
        m.state = to;
        m.ticks = 0;
      }

      // Grounded's perform, then the leaf's.
      switch (m.state) {
        case StateId::Idle:
          GroundedPerform(f, in);
          StandPerform(f, in);
          break;
        case StateId::Run:
          GroundedPerform(f, in);
          RunPerform(f, in);
          break;
        case StateId::Jump: JumpPerform(f, in); break;
        case StateId::Fall: FallPerform(f, in); break;
        case StateId::Land: StandPerform(f, in); break;
        case StateId::Attack: AttackPerform(f, in); break;
        case StateId::Hurt:
        case StateId::Dead: break;
      }
    }
  }

  std::size_t MachineBytesPerAgent() const override { return bytes_; }
  Checksum Sum() const override {
    Checksum c;
    for (std::size_t i = 0; i < fighters_.size(); ++i)
      AccumulateHsm(c, static_cast<int>(machines_[i].state), fighters_[i]);
    return c;
  }
  const Coverage& Counts() const
    requires kCount
  {
    return counts_;
  }

 private:
  void Count(StateId from, StateId to)
    requires kCount
  {
    ++counts_.entered[static_cast<std::size_t>(to)];
    ++counts_.fired[static_cast<std::size_t>(from)][static_cast<std::size_t>(to)];
  }

  std::vector<HsmFighter> fighters_;
  std::vector<std::uint32_t> rng_;
  std::vector<Machine> machines_;
  std::size_t bytes_ = 0;
  [[no_unique_address]] std::conditional_t<kCount, Coverage, NoCoverage> counts_{};
};

std::unique_ptr<Impl> MakeSwitchHsm(std::size_t n) { return std::make_unique<SwitchHsmImpl<false>>(n); }

}  // namespace
}  // namespace brawler::hsm

namespace brawler {

namespace hsm {
namespace {
constexpr unsigned Leaf(StateId s) { return 1u << static_cast<unsigned>(s); }
constexpr unsigned kGroundedLeaves = Leaf(StateId::Idle) | Leaf(StateId::Run);
constexpr unsigned kVulnerableLeaves =
    kGroundedLeaves | Leaf(StateId::Jump) | Leaf(StateId::Fall) | Leaf(StateId::Attack);

// The transitions as written on the tree: `from` and the leaves it holds.
struct Declared {
  const char* from;
  unsigned leaves;
  StateId to;
};
constexpr Declared kDeclared[] = {
    {"Vulnerable", kVulnerableLeaves, StateId::Hurt}, {"Grounded", kGroundedLeaves, StateId::Jump},
    {"Grounded", kGroundedLeaves, StateId::Attack},   {"Grounded", kGroundedLeaves, StateId::Fall},
    {"Idle", Leaf(StateId::Idle), StateId::Run},      {"Run", Leaf(StateId::Run), StateId::Idle},
    {"Jump", Leaf(StateId::Jump), StateId::Fall},     {"Fall", Leaf(StateId::Fall), StateId::Land},
    {"Attack", Leaf(StateId::Attack), StateId::Idle}, {"Land", Leaf(StateId::Land), StateId::Idle},
    {"Hurt", Leaf(StateId::Hurt), StateId::Dead},     {"Hurt", Leaf(StateId::Hurt), StateId::Idle},
    {"Dead", Leaf(StateId::Dead), StateId::Idle},
};
}  // namespace
}  // namespace hsm

// Every leaf entered and every transition of the tree fired from at least one
// of its leaves. Not every (leaf, leaf) pair: Grounded's Fall from Run cannot
// fire, as Run is entered only from a grounded Idle (Grounded's Fall comes
// first there) and nothing but Jump's enter leaves the ground.
void CheckCoverage(std::size_t n, std::uint64_t ticks) {
  hsm::SwitchHsmImpl<true> impl(n);
  impl.Run(ticks);
  const Coverage& cov = impl.Counts();
  for (int s = 0; s < kStateCount; ++s) {
    if (cov.entered[static_cast<std::size_t>(s)] == 0)
      std::printf("WARNING n=%zu: state %s never entered in %" PRIu64 " ticks\n", n,
                  StateName(static_cast<StateId>(s)), ticks);
  }
  for (const hsm::Declared& d : hsm::kDeclared) {
    std::uint64_t fired = 0;
    for (std::size_t from = 0; from < kStateCount; ++from) {
      if ((d.leaves >> from) & 1u) fired += cov.fired[from][static_cast<std::size_t>(d.to)];
    }
    if (fired == 0)
      std::printf("WARNING n=%zu: transition %s -> %s never fired in %" PRIu64 " ticks\n", n, d.from,
                  StateName(d.to), ticks);
  }
}

}  // namespace brawler

extern const brawler::ImplInfo kSwitchHsmImpl{"switch-hsm", &brawler::hsm::MakeSwitchHsm, true};
