// The hierarchical brawler workload (spec: shared/bench/brawler-hsm.md): the
// brawler of brawler.hpp with its states nested. Input stream, physics, DT,
// seeds, conditions and most leaf effects are brawler.hpp's.
#pragma once

#include <cstdint>

#include "brawler.hpp"

namespace brawler::hsm {

// Fighter plus `mark`, which the composite states' enter and exit hooks update,
// so that the checksum sees the order in which composites are entered and left.
struct HsmFighter : Fighter {
  std::uint32_t mark = 0;
};

// The tree (leaves keep brawler.hpp's StateId and indices):
//   Alive { Vulnerable { Grounded { Idle, Run }, Airborne { Jump, Fall }, Attack }, Land, Hurt }
//   Dead
// Composite hooks; leaf hooks are brawler.hpp's (JumpEnter, AttackEnter,
// HurtEnter, DeadExit, RunPerform, JumpPerform, FallPerform, AttackPerform).
inline void Mark(HsmFighter& f, std::uint32_t v) { f.mark = f.mark * 31u + v; }
inline void AliveEnter(HsmFighter& f, const Input&) { Mark(f, 1); }
inline void AliveExit(HsmFighter& f, const Input&) { Mark(f, 2); }
inline void GroundedEnter(HsmFighter& f, const Input&) { Mark(f, 3); }
inline void GroundedPerform(HsmFighter& f, const Input&) {
  f.stamina = f.stamina + 1 < 100 ? f.stamina + 1 : 100;
}
inline void AirborneExit(HsmFighter& f, const Input&) { Mark(f, 4); }
// Idle's and Land's own perform (Idle's stamina is Grounded's here).
inline void StandPerform(HsmFighter& f, const Input&) { f.vx = 0; }

// brawler.md's four values, then mark: the same running sum and hash over five.
inline void AccumulateHsm(Checksum& c, int state_index, const HsmFighter& f) {
  Accumulate(c, state_index, f);
  c.sum += f.mark;
  c.hash ^= f.mark;
  c.hash *= 1099511628211ull;
}

}  // namespace brawler::hsm
