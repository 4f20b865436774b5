#pragma once
// Seed 002's aoWeapon on tickfsm: six states with per-state Init, Enter and Run,
// each state deciding its own successor with NextState (applied on the next
// tick), and the machine printing what it does in the seed's format.
//
//   STATE_INIT -> STATE_RAISE -> STATE_IDLE -> STATE_LOWER
//                    ^              |  ^            |
//                    |   (trigger)  v  |            | (draw)
//                    |        STATE_FIRING          |
//                    |              | (clip empty)  |
//                    |              v               |
//                    |        STATE_RELOAD ---------'---> STATE_IDLE
//                    '----------------------------------'

#include <string>
#include <string_view>

#include <fmt/format.h>
#include <tickfsm/tickfsm.hpp>

#include "common/sample.hpp"
#include "common/trace_option.hpp"

namespace weapon {

/// The owner of the machine: the weapon, and where its lines go.
struct Weapon {
    int ammo = 0;
    int clip_ammo = 0;
    std::string console; // everything the run prints, in order

    template <class... Args>
    void Print(fmt::format_string<Args...> format, Args&&... args) {
        samples::PrintLine(console, format, std::forward<Args>(args)...);
    }
};

/// What the player does this tick.
struct Trigger {
    bool pull = false; // fire
    bool draw = false; // take the weapon out again
};

using Machine = tickfsm::Machine<Weapon, Trigger>;

struct Raise;
struct Idle;
struct Lower;
struct Firing;
struct Reload;

struct Init {
    static constexpr std::string_view Name = "STATE_INIT";
    void OnStateEnter(Weapon& w, const Trigger&) { w.Print("Let's give som ammo and go to idle immediately"); }
    void Perform(Weapon& w, const Trigger&, Machine& m) {
        w.ammo = 60;
        w.clip_ammo = 30;
        w.Print("ammo: {} clip ammo: {}", w.ammo, w.clip_ammo);
        m.NextState<Raise>();
    }
};

/// A state that lasts a fixed number of ticks, set by its Init.
struct Timed {
    std::uint32_t tick_duration = 0;
};

struct Raise : Timed {
    static constexpr std::string_view Name = "STATE_RAISE";
    void OnStateInit(Weapon&) { tick_duration = 4; }
    void Perform(Weapon& w, const Trigger&, Machine& m) {
        w.Print("aoWeaponStateRaising::Run: raising weapon tick {} of {}", m.TicksInState(), tick_duration);
        if (m.TicksInState() >= tick_duration) m.NextState<Idle>();
    }
};

struct Idle : Timed {
    static constexpr std::string_view Name = "STATE_IDLE";
    void OnStateInit(Weapon&) { tick_duration = 8; }
    void Perform(Weapon& w, const Trigger& t, Machine& m) {
        w.Print("aoWeaponStateIdle::Run: Idle weapon tick {} of {}", m.TicksInState(), tick_duration);
        if (t.pull && w.clip_ammo > 0) m.NextState<Firing>();
        else if (m.TicksInState() >= tick_duration) m.NextState<Lower>();
    }
};

struct Lower : Timed {
    static constexpr std::string_view Name = "STATE_LOWER";
    void OnStateInit(Weapon&) { tick_duration = 4; }
    void Perform(Weapon& w, const Trigger& t, Machine& m) {
        if (m.TicksInState() <= tick_duration)
            w.Print("aoWeaponStateLowering::Run: lowering weapon tick {} of {}", m.TicksInState(), tick_duration);
        else if (t.draw)
            m.NextState<Raise>();
    }
};

struct Firing {
    static constexpr std::string_view Name = "STATE_FIRING";
    void Perform(Weapon& w, const Trigger& t, Machine& m) {
        if (!t.pull) {
            m.NextState<Idle>();
            return;
        }
        --w.clip_ammo;
        w.Print("aoWeaponStateFiring::Run: bang, clip ammo: {}", w.clip_ammo);
        if (w.clip_ammo == 0) m.NextState<Reload>();
    }
};

struct Reload : Timed {
    static constexpr std::string_view Name = "STATE_RELOAD";
    void OnStateInit(Weapon&) { tick_duration = 6; }
    void Perform(Weapon& w, const Trigger&, Machine& m) {
        w.Print("aoWeaponStateReloading::Run: reloading tick {} of {}", m.TicksInState(), tick_duration);
        if (m.TicksInState() < tick_duration) return;
        const int moved = w.ammo < 30 - w.clip_ammo ? w.ammo : 30 - w.clip_ammo;
        w.ammo -= moved;
        w.clip_ammo += moved;
        w.Print("ammo: {} clip ammo: {}", w.ammo, w.clip_ammo);
        m.NextState<Idle>();
    }
};

/// The seed's aoWeapon: every state is declared up front, in the seed's order,
/// because each state decides its successor itself (NextState) rather than
/// through transitions.
class AoWeaponStateManager : public tickfsm::StateManager<Weapon, Trigger> {
public:
    explicit AoWeaponStateManager(Weapon& w) : StateManager(w) {
        SetInitialState<Init>();
        From<Raise>();
        From<Lower>();
        From<Idle>();
        From<Firing>();
        From<Reload>();
    }
};

/// The scripted run: the seed's part (no input), then the weapon is drawn
/// again, fires a whole clip, reloads and idles. Returns all it printed.
/// `watch`: see common/trace_option.hpp.
inline std::string Run(samples::Watch* watch = nullptr) {
    Weapon w;
    AoWeaponStateManager machine(w);
    tickfsm::TracePrinter trace(w.console);
    samples::Observe(watch, machine, "aoWeapon", &trace);
    machine.Initialize();
    w.console.push_back('\n');
    for (int tick = 0; tick < 80; ++tick) {
        samples::Tick(watch, tick);
        Trigger t;
        t.draw = tick == 24;
        t.pull = tick >= 34 && tick < 66;
        machine.Perform(t);
    }
    return w.console;
}

} // namespace weapon
