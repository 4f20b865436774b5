#pragma once
// Seed 003's creature on tickfsm: a keyed machine (Animancer's
// StateMachine<TKey, TState>) whose states are registered under the values of
// an enum. One Attack class is registered under three keys with its own data
// for each (a three-hit combo), its gate refuses to let it be left except for
// Flinch or Die, and it ends itself with a forced change to Idle once its
// animation is over. Attack presses are buffered so that a press slightly
// before a swing ends still comes out as the next hit of the combo.
//
//   Idle <--stick moves / stops--> Walk              (condition transitions)
//   Idle, Walk --press--> Attack1                    (TrySetState(key), through a buffer)
//   Attack1 --swing over: m.ForceSetState(Idle)--> Idle --press buffered during the swing,
//       same tick--> Attack2 --over--> Idle --buffered--> Attack3 --over--> Idle
//   any state --hit: TryResetState(Flinch)--> Flinch (lambdas) --6 ticks--> Idle
//   any state --health 0: TrySetState(Die)--> Die   (its gate refuses every way out)
//
//   Attack's gate: CanExitState(to) holds only for Flinch and Die, so neither the
//   stick (a condition transition to Walk) nor a buffered press cuts a swing
//   short; a swing ends itself, and a press that waited comes out from Idle.

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <iterator>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

#include <fmt/format.h>
#include <tickfsm/tickfsm.hpp>

#include "common/sample.hpp"
#include "common/trace_option.hpp"

namespace creature {

/// The keys of the creature's states (the seed's CreatureState enum).
enum class CreatureState { Idle, Walk, Attack1, Attack2, Attack3, Flinch, Die };

/// The three swings of the combo, in order.
inline constexpr CreatureState kSwings[] = {CreatureState::Attack1, CreatureState::Attack2, CreatureState::Attack3};

/// The key's name, as the machine names the state registered under it.
constexpr std::string_view KeyName(CreatureState key) {
    constexpr std::array<std::string_view, 7> kNames{"Idle", "Walk", "Attack1", "Attack2", "Attack3", "Flinch", "Die"};
    return kNames[static_cast<std::size_t>(key)];
}

inline constexpr int kMaxHealth = 30;
inline constexpr float kDeadZone = 0.2f;     // stick values smaller than this are no movement
inline constexpr float kWalkSpeed = 0.5f;    // units a tick at full stick
inline constexpr std::uint32_t kFlinchTicks = 6;
inline constexpr float kComboBufferSeconds = 0.1f; // how long a press waits for the swing to end: 6 ticks at 60 Hz

/// The controller: the seed's Creature without the Animancer component.
struct Creature : samples::TickConsole {
    int health = kMaxHealth;
    float x = 0;
    int damage_dealt = 0; // by the swings that were not cut short
    int last_hit = 0;     // the damage of the last hit taken, for Flinch to print
};

/// What happens this tick: the stick, the attack button, a hit taken.
struct Input {
    float stick = 0;     // -1 (left) .. 1 (right)
    bool attack = false; // the attack button was pressed this tick
    int hit = 0;         // damage taken this tick (0: not hit)
};

using Machine = tickfsm::Machine<Creature, Input>;

/// The condition between Idle and Walk (and the one a swing's gate refuses).
inline bool StickMoves(const Creature&, const Input& in) { return std::abs(in.stick) >= kDeadZone; }

/// True for the key of any of the three swings.
inline bool IsAttack(const tickfsm::StateRef& state) {
    return state.IsKey(CreatureState::Attack1) || state.IsKey(CreatureState::Attack2) ||
           state.IsKey(CreatureState::Attack3);
}

struct Idle {
    void OnStateEnter(Creature& c, const Input&) { c.Print("Idle: stands at x = {:.1f}", c.x); }
};

struct Walk {
    void OnStateEnter(Creature& c, const Input& in) {
        c.Print("Walk: sets off to the {}", in.stick < 0 ? "left" : "right");
    }
    void Perform(Creature& c, const Input& in) { c.x += in.stick * kWalkSpeed; }
};

/// One class for the three swings of the combo; each key holds its own object,
/// built from its own data by AddState<Attack>(key, name, damage, duration).
struct Attack {
    std::string_view name;
    int damage = 0;
    std::uint32_t duration = 0; // ticks of the swing's animation

    Attack() = default;
    Attack(std::string_view swing, int dmg, std::uint32_t ticks) : name(swing), damage(dmg), duration(ticks) {}

    /// The seed's rule: an attack cannot be left, except when the creature is
    /// hit or killed.
    bool CanExitState(const Creature&, const tickfsm::StateRef& to) const {
        return to.IsKey(CreatureState::Flinch) || to.IsKey(CreatureState::Die);
    }
    void OnStateEnter(Creature& c, const Input&) {
        c.Print("{}: swings ({} damage, {} ticks)", name, damage, duration);
    }
    void Perform(Creature& c, const Input& in, Machine& m) {
        if (StickMoves(c, in) && m.TicksInState() < duration)
            c.Print("{}: the stick moves, the swing goes on (tick {} of {})", name, m.TicksInState(), duration);
        if (m.TicksInState() < duration) return;
        c.damage_dealt += damage;
        c.Print("{}: lands for {} damage", name, damage);
        // The swing knows it is over and Idle asks nothing: skip the gate, as the seed says.
        m.ForceSetState(CreatureState::Idle);
    }
};

/// Dead is dead: the gate refuses every way out.
struct Die {
    bool CanExitState(const Creature&, const tickfsm::StateRef&) const { return false; }
    void OnStateEnter(Creature& c, const Input&) { c.Print("Die: the creature falls at x = {:.1f}", c.x); }
};

/// The swing a press asks for: the next of the combo during a swing, else the first.
constexpr CreatureState NextSwing(std::optional<CreatureState> current) {
    if (current == CreatureState::Attack1) return CreatureState::Attack2;
    if (current == CreatureState::Attack2) return CreatureState::Attack3;
    return CreatureState::Attack1; // from Attack3 a new combo starts, after it
}

class CreatureStateManager : public tickfsm::StateManager<Creature, Input> {
public:
    explicit CreatureStateManager(Creature& c) : StateManager(c), buffer_(*this) {
        AddState<Idle>(CreatureState::Idle);
        AddState<Walk>(CreatureState::Walk);
        AddState<Attack>(CreatureState::Attack1, "Slash", 10, 8u);
        AddState<Attack>(CreatureState::Attack2, "Backhand", 15, 10u);
        AddState<Attack>(CreatureState::Attack3, "Overhead", 30, 14u);
        // Flinch is made of lambdas (the seed's DelegateState).
        AddDelegateState(CreatureState::Flinch)
            .OnEnter([](Creature& cr, const Input&) {
                cr.Print("Flinch: hit for {}, health {}", cr.last_hit, cr.health);
            })
            .Perform([](Creature&, const Input&, Machine& m) {
                if (m.TicksInState() >= kFlinchTicks) m.TrySetState(CreatureState::Idle);
            })
            // While it reels, only another hit, death or its own end move it on:
            // a buffered attack waits.
            .CanExit([](const Creature&, const tickfsm::StateRef& to) {
                return to.IsKey(CreatureState::Idle) || to.IsKey(CreatureState::Flinch) ||
                       to.IsKey(CreatureState::Die);
            });
        AddState<Die>(CreatureState::Die);

        SetInitialState(CreatureState::Idle).To(CreatureState::Walk, StickMoves, "stick moves");
        From(CreatureState::Walk).To(
            CreatureState::Idle, [](const Creature& cr, const Input& in) { return !StickMoves(cr, in); },
            "stick still");
        // The stick would walk out of a swing, but Attack's gate refuses: these never fire.
        for (const CreatureState swing : kSwings) From(swing).To(CreatureState::Walk, StickMoves, "stick moves");
        SetTerminal(CreatureState::Die);
    }

    /// Attaches the trace to the machine (the combo buffer reports through it).
    void SetTrace(tickfsm::Observer* observer) { SetObserver(observer, "Creature"); }

    /// The current swing, if attacking.
    std::optional<CreatureState> CurrentSwing() const {
        for (const CreatureState swing : kSwings)
            if (IsIn(swing)) return swing;
        return std::nullopt;
    }

    /// The attack button: ask for the next swing through the buffer.
    bool PressAttack() {
        const CreatureState swing = NextSwing(CurrentSwing());
        GetController().Print("press: {}", KeyName(swing));
        return buffer_.Buffer(swing, kComboBufferSeconds);
    }

    /// A hit: health down, then Flinch (again, if flinching) or Die, through the
    /// gates (an attack lets both through; Die lets nothing through).
    void TakeHit(int damage) {
        Creature& c = GetController();
        c.health = std::max(0, c.health - damage);
        c.last_hit = damage;
        if (buffer_.IsBuffering()) {
            c.Print("hit: the combo is broken, {} dropped", buffer_.Wanted().Name());
            buffer_.Clear();
        }
        if (c.health == 0) {
            if (!TrySetState(CreatureState::Die)) c.Print("hit for {}: already down", damage);
        } else if (!TryResetState(CreatureState::Flinch)) {
            c.Print("hit for {}: {} shrugs it off", damage, CurrentStateName());
        }
    }

    /// One tick of the game loop: the hit, the button, the machine, then the buffer.
    void Tick(const Input& in) {
        if (in.hit > 0) TakeHit(in.hit);
        if (in.attack) PressAttack();
        Perform(in);
        buffer_.Update();
    }

    /// The combo buffer (seed 003's InputBuffer), keyed by the swings.
    const tickfsm::InputBuffer<Creature, Input>& Buffer() const noexcept { return buffer_; }
    tickfsm::InputBuffer<Creature, Input>& Buffer() noexcept { return buffer_; }

private:
    tickfsm::InputBuffer<Creature, Input> buffer_;
};

/// The script: what happens at which tick of the run.
struct Cue {
    int first = 0; // ticks first..last
    int last = 0;
    Input input;
};
inline constexpr Cue kScript[] = {
    {3, 8, {.stick = 1.0f}},     // a walk to the right
    {10, 10, {.attack = true}},  // Slash
    {16, 16, {.attack = true}},  // a tick before Slash ends: buffered, Backhand comes out
    {20, 22, {.stick = -1.0f}},  // the stick cannot cut Backhand short
    {25, 25, {.attack = true}},  // buffered again: Overhead
    {30, 30, {.attack = true}},  // too early in Overhead: times out, the combo falls back to Idle
    {45, 50, {.stick = -1.0f}},  // a walk to the left...
    {47, 47, {.stick = -1.0f, .hit = 8}}, // ...cut by a hit
    {49, 49, {.stick = -1.0f, .attack = true}}, // pressed while reeling: comes out when Flinch ends
    {56, 56, {.attack = true}},  // Backhand, buffered
    {63, 63, {.attack = true}},  // Overhead, buffered...
    {64, 64, {.hit = 7}},        // ...but a hit cuts Backhand short and breaks the combo
    {72, 72, {.attack = true}},  // Slash
    {74, 74, {.hit = 15}},       // health 0: Die, out of the swing
    {75, 75, {.attack = true}},  // Die refuses: the press times out at tick 80
};
inline constexpr int kTicks = 80;

constexpr Input ScriptedInput(int tick) {
    Input in{};
    for (const Cue& cue : kScript)
        if (tick >= cue.first && tick <= cue.last) in = cue.input; // later cues win
    return in;
}

/// The scripted run. Returns all it printed. `watch`: see common/trace_option.hpp.
inline std::string Run(samples::Watch* watch = nullptr) {
    Creature c;
    CreatureStateManager machine(c);
    tickfsm::TracePrinter trace(c.console, {.causes = true});
    samples::Observe(watch, machine, "Creature", &trace); // as SetTrace(&trace), with what `watch` adds
    for (int tick = 1; tick <= kTicks; ++tick) {
        c.tick = tick;
        samples::Tick(watch, tick);
        machine.Tick(ScriptedInput(tick));
    }
    c.Print("done: health {}, x = {:.1f}, {} damage dealt, state {}", c.health, c.x, c.damage_dealt,
            machine.CurrentStateName());
    return c.console;
}

} // namespace creature
