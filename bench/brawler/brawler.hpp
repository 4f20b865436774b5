// The brawler workload (spec: shared/bench/brawler.md), shared by every implementation.
#pragma once

#include <cmath>
#include <cstddef>
#include <cstdint>

namespace brawler {

constexpr float DT = 1.0f / 60.0f;

struct Fighter {
  float x = 0, vx = 0, y = 0, vy = 0;
  bool grounded = true;
  int hp = 100;
  int stamina = 100;
};

struct Input {
  float move;
  bool jump;
  bool attack;
  bool hit;
};

enum class StateId : std::uint8_t { Idle, Run, Jump, Fall, Land, Attack, Hurt, Dead };
constexpr int kStateCount = 8;

inline std::uint32_t Seed(std::size_t agent) {
  return static_cast<std::uint32_t>(agent) * 2654435761u + 1u;
}

inline std::uint32_t XorShift(std::uint32_t& x) {
  x ^= x << 13;
  x ^= x >> 17;
  x ^= x << 5;
  return x;
}

inline Input DrawInput(std::uint32_t& rng) {
  const std::uint32_t r = XorShift(rng);
  return Input{static_cast<float>(r & 0xFFu) / 127.5f - 1.0f, ((r >> 8) & 0x3Fu) == 0,
               ((r >> 14) & 0x3Fu) == 1, ((r >> 20) & 0xFFu) == 2};
}

inline void Physics(Fighter& f) {
  f.y += f.vy * DT;
  f.vy -= 20 * DT;
  if (f.y <= 0) {
    f.y = 0;
    f.vy = 0;
    f.grounded = true;
  } else {
    f.grounded = false;
  }
  f.x += f.vx * DT;
}

// Time in state. The spec accumulates `t += DT` per tick; every implementation
// here instead keeps an integer tick count and derives t = float(ticks) * DT, so
// that all of them see bit-identical t regardless of how they store it (a float
// accumulator drifts differently from a product, e.g. at the 0.1 s threshold).
inline float TimeInState(std::uint32_t ticks) { return static_cast<float>(ticks) * DT; }

// Transition conditions. Uniform signature (fighter, input, time in state) so
// any machine can take them as guards; see kTransitions for where each is used.
inline bool Hit(const Fighter&, const Input& in, float) { return in.hit; }
inline bool CanJump(const Fighter& f, const Input& in, float) { return in.jump && f.grounded; }
inline bool CanAttack(const Fighter& f, const Input& in, float) {
  return in.attack && f.stamina >= 10;
}
inline bool Moving(const Fighter&, const Input& in, float) { return std::fabs(in.move) > 0.1f; }
inline bool Still(const Fighter&, const Input& in, float) { return std::fabs(in.move) <= 0.1f; }
inline bool Airborne(const Fighter& f, const Input&, float) { return !f.grounded; }
inline bool Grounded(const Fighter& f, const Input&, float) { return f.grounded; }
inline bool Descending(const Fighter& f, const Input&, float) { return f.vy <= 0; }
inline bool LandDone(const Fighter&, const Input&, float t) { return t >= 0.1f; }
inline bool AttackDone(const Fighter&, const Input&, float t) { return t >= 0.3f; }
inline bool HurtDone(const Fighter&, const Input&, float t) { return t >= 0.5f; }
inline bool NoHp(const Fighter& f, const Input&, float) { return f.hp <= 0; }
inline bool DeadDone(const Fighter&, const Input&, float t) { return t >= 2.0f; }

// State effects; states and hooks not listed here do nothing.
inline void IdlePerform(Fighter& f, const Input&) {
  f.vx = 0;
  f.stamina = f.stamina + 1 < 100 ? f.stamina + 1 : 100;
}
inline void RunPerform(Fighter& f, const Input& in) { f.vx = in.move * 6; }
inline void JumpEnter(Fighter& f, const Input&) {
  f.vy = 8;
  f.grounded = false;
}
inline void JumpPerform(Fighter& f, const Input& in) { f.vx = in.move * 4; }
inline void FallPerform(Fighter& f, const Input& in) { f.vx = in.move * 3; }
inline void LandPerform(Fighter& f, const Input&) { f.vx = 0; }
inline void AttackEnter(Fighter& f, const Input&) { f.stamina -= 10; }
inline void AttackPerform(Fighter& f, const Input&) { f.vx = 0; }
inline void HurtEnter(Fighter& f, const Input&) { f.hp -= 25; }
inline void DeadExit(Fighter& f, const Input&) { f.hp = 100; }

using Condition = bool (*)(const Fighter&, const Input&, float);

struct TransitionSpec {
  StateId from;
  StateId to;
  Condition when;
};

// The transition table, grouped by source state and in priority order.
inline constexpr TransitionSpec kTransitions[] = {
    {StateId::Idle, StateId::Hurt, Hit},          {StateId::Idle, StateId::Jump, CanJump},
    {StateId::Idle, StateId::Attack, CanAttack},  {StateId::Idle, StateId::Run, Moving},
    {StateId::Idle, StateId::Fall, Airborne},     {StateId::Run, StateId::Hurt, Hit},
    {StateId::Run, StateId::Jump, CanJump},       {StateId::Run, StateId::Attack, CanAttack},
    {StateId::Run, StateId::Idle, Still},         {StateId::Run, StateId::Fall, Airborne},
    {StateId::Jump, StateId::Hurt, Hit},          {StateId::Jump, StateId::Fall, Descending},
    {StateId::Fall, StateId::Hurt, Hit},          {StateId::Fall, StateId::Land, Grounded},
    {StateId::Land, StateId::Idle, LandDone},     {StateId::Attack, StateId::Hurt, Hit},
    {StateId::Attack, StateId::Idle, AttackDone}, {StateId::Hurt, StateId::Dead, NoHp},
    {StateId::Hurt, StateId::Idle, HurtDone},     {StateId::Dead, StateId::Idle, DeadDone},
};

inline const char* StateName(StateId s) {
  constexpr const char* kNames[] = {"Idle", "Run", "Jump", "Fall", "Land", "Attack", "Hurt", "Dead"};
  return kNames[static_cast<int>(s)];
}

struct Checksum {
  std::uint64_t sum = 0;
  std::uint64_t hash = 1469598103934665603ull;
  friend bool operator==(const Checksum&, const Checksum&) = default;
};

// Call once per agent, in agent index order, after the last tick.
inline void Accumulate(Checksum& c, int state_index, const Fighter& f) {
  const std::int64_t values[] = {state_index, f.hp, f.stamina,
                                 std::llround(static_cast<double>(f.x) * 1000)};
  for (const std::int64_t v : values) {
    const auto u = static_cast<std::uint64_t>(v);
    c.sum += u;
    c.hash ^= u;
    c.hash *= 1099511628211ull;
  }
}

// Counts every global operator new/delete in the process (heap_counter.cpp).
// bytes() is live heap in malloc_usable_size units; count() is cumulative allocations.
struct HeapCounter {
  static std::size_t bytes();
  static std::size_t count();
};

}  // namespace brawler
