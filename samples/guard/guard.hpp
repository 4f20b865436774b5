#pragma once
// Sample 6: an AI guard run by three machines that talk (an Ensemble):
// sensing turns the world into typed events, reaction decides, movement
// moves. Reaction uses nested states with history, typed
// events with data, and a push for a stun.
//
//   sensing:   Quiet ──noise──▶ Listening ──after 0.1 s──▶ Quiet
//              any state ──enemy in sight──▶ Watching ──enemy gone──▶ Quiet
//              posts Heard{x} and EnemySeen{x} to reaction, EnemyLost when it loses sight
//   reaction:  Calm (history) = {Patrol (initial), Investigate}
//                Patrol ──Heard──▶ Investigate ──there, after 0.1 s──▶ Patrol
//              Combat = {Chase (initial), Strike}
//                Chase ──in reach──▶ Strike ──after 0.05 s──▶ Chase
//              Calm ──EnemySeen──▶ Combat ──EnemyLost──▶ Calm (back where it was)
//              Stunned: pushed from any state by a flash, popped after 0.05 s
//   movement:  any state ──still, or there──▶ Still
//              any state ──run pace, not there──▶ Run
//              any state ──walk pace, not there──▶ Walk
//              (following the goal and pace reaction sets)
//
// The world is a script: a noise at tick 5, an enemy from tick 10 to 19, a
// flash at tick 14. After the enemy is lost the guard goes back to what it
// did in Calm (its history: Investigate), then to its patrol. The run prints
// the machines' transitions and the guard's moves, and checks itself
// (main.cpp).

#include <cmath>
#include <cstddef>
#include <string>

#include <tickfsm/tickfsm.hpp>

#include "common/sample.hpp"
#include "common/trace_option.hpp"

namespace guard {

enum class Pace { Still, Walk, Run };

struct World;
struct Guard;
using Team = tickfsm::Ensemble<Guard, World, 8>;

struct Guard : samples::TickConsole {
    float x = 0;         // where the guard stands
    float goal = 0;      // where reaction wants it
    Pace pace = Pace::Still;
    int strikes = 0;
    Team* team = nullptr;
    std::size_t reaction = 0; // reaction's index in the team
};

/// One tick of the scripted world, as the guard's senses get it.
struct World {
    bool noise = false;
    float noise_x = 0;
    bool enemy = false;
    float enemy_x = 0;
    bool flash = false;
};

// --- typed events ----------------------------------------------------------------
struct Heard { float x = 0; };
struct EnemySeen { float x = 0; };
struct EnemyLost {};

// --- sensing ---------------------------------------------------------------------
struct Quiet {};
struct Listening {
    void OnStateEnter(Guard& g, const World& w) { g.team->Post(g.reaction, Heard{.x = w.noise_x}); }
};
struct Watching {
    void OnStateEnter(Guard& g, const World& w) { g.team->Post(g.reaction, EnemySeen{.x = w.enemy_x}); }
    void OnStateExit(Guard& g, const World&) { g.team->Post(g.reaction, EnemyLost{}); }
};
class Sensing : public tickfsm::StateManager<Guard, World> {
public:
    explicit Sensing(Guard& g) : StateManager(g) {
        FromAny().To<Watching>([](const Guard&, const World& w) { return w.enemy; }, "enemy in sight");
        SetInitialState<Quiet>().To<Listening>([](const Guard&, const World& w) { return w.noise; }, "noise");
        From<Listening>().To<Quiet>([](const Guard&, const World&, float t) { return t > 0.1f; }, "after 0.1 s");
        From<Watching>().To<Quiet>([](const Guard&, const World& w) { return !w.enemy; }, "enemy gone");
    }
};

// --- reaction --------------------------------------------------------------------
struct Calm {};
struct Patrol {
    void OnStateEnter(Guard& g, const World&) { g.pace = Pace::Walk; }
    void Perform(Guard& g, const World&) {
        if (std::fabs(g.x - g.goal) < 0.5f) g.goal = g.goal < 5.0f ? 10.0f : 0.0f; // back and forth
    }
};
struct Investigate {
    float spot = 0;
    void OnEvent(Guard& g, const Heard& h) {
        spot = h.x;
        g.Print("reaction: heard something at {}", h.x);
    }
    void OnStateEnter(Guard& g, const World&) { g.pace = Pace::Walk; }
    void Perform(Guard& g, const World&) { g.goal = spot; }
};
struct Combat {
    float enemy = 0;
    void OnEvent(Guard& g, const EnemySeen& e) {
        enemy = e.x;
        g.goal = e.x;
        g.Print("reaction: enemy at {}", e.x);
    }
    void Perform(Guard& g, const World& w) {
        if (w.enemy) enemy = w.enemy_x; // eyes on it: follow it
        g.goal = enemy;
    }
};
struct Chase {
    void OnStateEnter(Guard& g, const World&) { g.pace = Pace::Run; }
};
struct Strike {
    void OnStateEnter(Guard& g, const World&) {
        g.pace = Pace::Still;
        ++g.strikes;
        g.Print("reaction: strike {}", g.strikes);
    }
};
struct Stunned {
    Pace was = Pace::Still;
    void OnStateEnter(Guard& g, const World&) {
        was = g.pace;
        g.pace = Pace::Still;
        g.Print("reaction: stunned");
    }
    void OnStateExit(Guard& g, const World&) {
        g.pace = was;
        g.Print("reaction: shakes it off");
    }
};
class Reaction : public tickfsm::StateManager<Guard, World> {
public:
    explicit Reaction(Guard& g) : StateManager(g) {
        SetPushCapacity<1>();
        SetSubstates<Calm, Patrol, Investigate>();
        SetHistory<Calm>(tickfsm::History::Shallow);
        SetSubstates<Combat, Chase, Strike>();
        FromAny().Push<Stunned>([](const Guard&, const World& w) { return w.flash; }, "flash");
        SetInitialState<Calm>().On<EnemySeen>().To<Combat>();
        From<Patrol>().On<Heard>().To<Investigate>();
        From<Investigate>().To<Patrol>([](const Guard& c, const World&, float t) {
            return std::fabs(c.x - c.goal) < 0.5f && t > 0.1f;
        }, "there, after 0.1 s");
        From<Combat>().On<EnemyLost>().To<Calm>();
        From<Chase>().To<Strike>([](const Guard& c) { return std::fabs(c.x - c.goal) < 1.0f; }, "in reach");
        From<Strike>().To<Chase>([](const Guard&, const World&, float t) { return t >= 0.05f; }, "after 0.05 s");
        From<Stunned>().Pop([](const Guard&, const World&, float t) { return t >= 0.05f; }, "after 0.05 s");
    }
};

// --- movement --------------------------------------------------------------------
struct Still {};
struct Walk {
    void Perform(Guard& g, const World&) { g.x += g.goal > g.x ? 0.5f : -0.5f; }
};
struct Run {
    void Perform(Guard& g, const World&) { g.x += g.goal > g.x ? 1.0f : -1.0f; }
};
class Movement : public tickfsm::StateManager<Guard, World> {
public:
    explicit Movement(Guard& g) : StateManager(g) {
        FromAny().To<Still>([](const Guard& c) { return c.pace == Pace::Still || std::fabs(c.goal - c.x) < 0.5f; },
                          "still, or there");
        FromAny().To<Run>([](const Guard& c) { return c.pace == Pace::Run && std::fabs(c.goal - c.x) >= 0.5f; },
                        "run pace, not there");
        FromAny().To<Walk>([](const Guard& c) { return c.pace == Pace::Walk && std::fabs(c.goal - c.x) >= 0.5f; },
                         "walk pace, not there");
        SetInitialState<Still>();
        From<Walk>();
        From<Run>();
    }
};

inline constexpr int kTicks = 36;

/// The scripted world at `tick`.
inline World WorldAt(int tick) {
    World w;
    w.noise = tick == 5;
    w.noise_x = 0;
    w.enemy = tick >= 10 && tick < 20;
    w.enemy_x = 8.0f - static_cast<float>(tick - 10) * 0.25f;
    w.flash = tick == 14;
    return w;
}

/// Runs the guard for kTicks ticks; returns what it printed. `watch`: see
/// common/trace_option.hpp.
inline std::string RunGuard(int* strikes = nullptr, samples::Watch* watch = nullptr) {
    Guard g;
    Sensing sensing(g);
    Reaction reaction(g);
    Movement movement(g);
    Team team;
    g.team = &team;
    team.Add(sensing, "sensing");
    g.reaction = team.Add(reaction, "reaction");
    team.Add(movement, "movement");
    tickfsm::TracePrinter trace(g.console, {.causes = true});
    samples::Observe(watch, sensing, "sensing", &trace);
    samples::Observe(watch, reaction, "reaction", &trace);
    samples::Observe(watch, movement, "movement", &trace);
    for (g.tick = 1; g.tick <= kTicks; ++g.tick) {
        samples::Tick(watch, g.tick);
        team.Perform(WorldAt(g.tick));
        g.Print("guard at {} ({})", g.x, reaction.ActivePath());
    }
    if (strikes) *strikes = g.strikes;
    return g.console;
}

} // namespace guard
