// The brawler machine written with tickfsm, as a user would: one state class
// per state, one StateManager subclass configured fluently in its constructor.
#pragma once

#include <string_view>

#include <tickfsm/static_machine.hpp>
#include <tickfsm/tickfsm.hpp>

#include "brawler.hpp"

namespace brawler::tickfsm_impl {

struct Idle {
  static constexpr int kIndex = 0;
  void Perform(Fighter& f, const Input& in) { IdlePerform(f, in); }
};
struct Run {
  static constexpr int kIndex = 1;
  void Perform(Fighter& f, const Input& in) { RunPerform(f, in); }
};
struct Jump {
  static constexpr int kIndex = 2;
  void OnStateEnter(Fighter& f, const Input& in) { JumpEnter(f, in); }
  void Perform(Fighter& f, const Input& in) { JumpPerform(f, in); }
};
struct Fall {
  static constexpr int kIndex = 3;
  void Perform(Fighter& f, const Input& in) { FallPerform(f, in); }
};
struct Land {
  static constexpr int kIndex = 4;
  void Perform(Fighter& f, const Input& in) { LandPerform(f, in); }
};
struct Attack {
  static constexpr int kIndex = 5;
  void OnStateEnter(Fighter& f, const Input& in) { AttackEnter(f, in); }
  void Perform(Fighter& f, const Input& in) { AttackPerform(f, in); }
};
struct Hurt {
  static constexpr int kIndex = 6;
  void OnStateEnter(Fighter& f, const Input& in) { HurtEnter(f, in); }
};
struct Dead {
  static constexpr int kIndex = 7;
  void OnStateExit(Fighter& f, const Input& in) { DeadExit(f, in); }
};

class BrawlerStateManager : public tickfsm::StateManager<Fighter, Input> {
 public:
  explicit BrawlerStateManager(Fighter& fighter) : StateManager(fighter, DT) {
    SetInitialState<Idle>()
        .To<Hurt>([](const Fighter& f, const Input& in, float t) { return Hit(f, in, t); })
        .To<Jump>([](const Fighter& f, const Input& in, float t) { return CanJump(f, in, t); })
        .To<Attack>([](const Fighter& f, const Input& in, float t) { return CanAttack(f, in, t); })
        .To<Run>([](const Fighter& f, const Input& in, float t) { return Moving(f, in, t); })
        .To<Fall>([](const Fighter& f, const Input& in, float t) { return Airborne(f, in, t); });
    From<Run>()
        .To<Hurt>([](const Fighter& f, const Input& in, float t) { return Hit(f, in, t); })
        .To<Jump>([](const Fighter& f, const Input& in, float t) { return CanJump(f, in, t); })
        .To<Attack>([](const Fighter& f, const Input& in, float t) { return CanAttack(f, in, t); })
        .To<Idle>([](const Fighter& f, const Input& in, float t) { return Still(f, in, t); })
        .To<Fall>([](const Fighter& f, const Input& in, float t) { return Airborne(f, in, t); });
    From<Jump>()
        .To<Hurt>([](const Fighter& f, const Input& in, float t) { return Hit(f, in, t); })
        .To<Fall>([](const Fighter& f, const Input& in, float t) { return Descending(f, in, t); });
    From<Fall>()
        .To<Hurt>([](const Fighter& f, const Input& in, float t) { return Hit(f, in, t); })
        .To<Land>([](const Fighter& f, const Input& in, float t) { return Grounded(f, in, t); });
    From<Land>()
        .To<Idle>([](const Fighter& f, const Input& in, float t) { return LandDone(f, in, t); });
    From<Attack>()
        .To<Hurt>([](const Fighter& f, const Input& in, float t) { return Hit(f, in, t); })
        .To<Idle>([](const Fighter& f, const Input& in, float t) { return AttackDone(f, in, t); });
    From<Hurt>()
        .To<Dead>([](const Fighter& f, const Input& in, float t) { return NoHp(f, in, t); })
        .To<Idle>([](const Fighter& f, const Input& in, float t) { return HurtDone(f, in, t); });
    From<Dead>()
        .To<Idle>([](const Fighter& f, const Input& in, float t) { return DeadDone(f, in, t); });
  }
};

// The same machine as a compile-time table (tickfsm/static_machine.hpp): the
// same words, written once as a constant whose type is the whole table.
inline constexpr auto kBrawlerTransitions =
    tickfsm::Transitions<Fighter, Input>()
        .SetInitialState<Idle>()
        .To<Hurt>([](const Fighter& f, const Input& in, float t) { return Hit(f, in, t); })
        .To<Jump>([](const Fighter& f, const Input& in, float t) { return CanJump(f, in, t); })
        .To<Attack>([](const Fighter& f, const Input& in, float t) { return CanAttack(f, in, t); })
        .To<Run>([](const Fighter& f, const Input& in, float t) { return Moving(f, in, t); })
        .To<Fall>([](const Fighter& f, const Input& in, float t) { return Airborne(f, in, t); })
        .From<Run>()
        .To<Hurt>([](const Fighter& f, const Input& in, float t) { return Hit(f, in, t); })
        .To<Jump>([](const Fighter& f, const Input& in, float t) { return CanJump(f, in, t); })
        .To<Attack>([](const Fighter& f, const Input& in, float t) { return CanAttack(f, in, t); })
        .To<Idle>([](const Fighter& f, const Input& in, float t) { return Still(f, in, t); })
        .To<Fall>([](const Fighter& f, const Input& in, float t) { return Airborne(f, in, t); })
        .From<Jump>()
        .To<Hurt>([](const Fighter& f, const Input& in, float t) { return Hit(f, in, t); })
        .To<Fall>([](const Fighter& f, const Input& in, float t) { return Descending(f, in, t); })
        .From<Fall>()
        .To<Hurt>([](const Fighter& f, const Input& in, float t) { return Hit(f, in, t); })
        .To<Land>([](const Fighter& f, const Input& in, float t) { return Grounded(f, in, t); })
        .From<Land>()
        .To<Idle>([](const Fighter& f, const Input& in, float t) { return LandDone(f, in, t); })
        .From<Attack>()
        .To<Hurt>([](const Fighter& f, const Input& in, float t) { return Hit(f, in, t); })
        .To<Idle>([](const Fighter& f, const Input& in, float t) { return AttackDone(f, in, t); })
        .From<Hurt>()
        .To<Dead>([](const Fighter& f, const Input& in, float t) { return NoHp(f, in, t); })
        .To<Idle>([](const Fighter& f, const Input& in, float t) { return HurtDone(f, in, t); })
        .From<Dead>()
        .To<Idle>([](const Fighter& f, const Input& in, float t) { return DeadDone(f, in, t); });

// A character type and a crowd type named after the machine, as a game would
// name them (profilers then show these names, not the table's long type).
class BrawlerStaticStateManager : public tickfsm::StaticStateManager<kBrawlerTransitions> {
 public:
  using StaticStateManager::StaticStateManager;
};
class BrawlerStaticCrowd : public tickfsm::StaticCrowd<kBrawlerTransitions> {
 public:
  using StaticCrowd::StaticCrowd;
};

// The spec's state index of whatever state `is_in` reports current.
template <class IsIn>
int StateIndexOf(IsIn&& is_in) {
  if (is_in(Idle{})) return Idle::kIndex;
  if (is_in(Run{})) return Run::kIndex;
  if (is_in(Jump{})) return Jump::kIndex;
  if (is_in(Fall{})) return Fall::kIndex;
  if (is_in(Land{})) return Land::kIndex;
  if (is_in(Attack{})) return Attack::kIndex;
  if (is_in(Hurt{})) return Hurt::kIndex;
  return Dead::kIndex;
}

// Builds BrawlerStateManager's shared table, if no machine of the kind has yet.
// The registry keeps it for the rest of the process, for every machine and
// crowd of the kind: the harness builds it before counting an implementation's
// bytes, so that the first implementation constructed does not count the table
// as its own bytes per agent (tickfsm_bench_table_size measures the table).
inline void BuildSharedTable() {
  Fighter fighter;
  BrawlerStateManager machine(fighter);
  machine.Perform(Input{});
}

}  // namespace brawler::tickfsm_impl
