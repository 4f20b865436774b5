#pragma once
// Sample 7: rollback netcode. Two players each run both fighters; a remote
// player's input reaches the other side a few ticks late. Each side predicts
// the input it has not received (the last one it knows), and when the real
// one arrives and differs, it restores the snapshot of the tick it guessed
// wrong and simulates again from there. At the end both sides must hold
// exactly what a lockstep run (every input known on time) holds.
//
//   Idle --move--> Walk --no move--> Idle
//   Idle / Walk --jump--> Jump --landed--> Idle
//   Idle / Walk --attack--> Attack --0.25 s--> Idle
//   any --hit--> Hurt --0.3 s--> Idle
//
// A fighter's attack hits the other when it is within reach in the attack's
// fifth tick.

#include <array>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include <tickfsm/tickfsm.hpp>

#include "common/trace_option.hpp"

namespace rollback {

/// One player's input for one tick.
struct Pad {
    std::int8_t move = 0; // -1, 0, 1
    bool jump = false;
    bool attack = false;
    friend bool operator==(const Pad&, const Pad&) = default;
};

/// A fighter: the controller, the game's own state (not in the machine's snapshot).
struct Fighter {
    float x = 0, y = 0, vy = 0;
    int hp = 100;
    bool hit = false;     // set by the world when the other's attack lands
    int swing = -1;       // the tick of the current attack that lands (-1: none)
    friend bool operator==(const Fighter&, const Fighter&) = default;
};

struct Idle {};
struct Walk {
    void Perform(Fighter& f, const Pad& p) { f.x += 0.1f * p.move; }
};
struct Jump {
    void OnStateEnter(Fighter& f, const Pad&) { f.vy = 0.3f; }
    void Perform(Fighter& f, const Pad& p) {
        f.x += 0.05f * p.move;
        f.y += f.vy;
        f.vy -= 0.03f;
        if (f.y <= 0) f.y = 0;
    }
};
struct Attack {
    int ticks = 0; // state data, kept by the snapshot
    void OnStateEnter(Fighter&, const Pad&) { ticks = 0; }
    void Perform(Fighter& f, const Pad&) { f.swing = ++ticks == 5 ? 1 : -1; }
    void OnStateExit(Fighter& f, const Pad&) { f.swing = -1; }
};
struct Hurt {
    void OnStateEnter(Fighter& f, const Pad&) {
        f.hp -= 10;
        f.hit = false;
    }
};

class FighterStateManager : public tickfsm::StateManager<Fighter, Pad> {
public:
    explicit FighterStateManager(Fighter& f) : StateManager(f) {
        FromAny().To<Hurt>([](const Fighter& c) { return c.hit; });
        SetInitialState<Idle>()
            .To<Jump>([](const Fighter&, const Pad& p) { return p.jump; })
            .To<Attack>([](const Fighter&, const Pad& p) { return p.attack; })
            .To<Walk>([](const Fighter&, const Pad& p) { return p.move != 0; });
        From<Walk>()
            .To<Jump>([](const Fighter&, const Pad& p) { return p.jump; })
            .To<Attack>([](const Fighter&, const Pad& p) { return p.attack; })
            .To<Idle>([](const Fighter&, const Pad& p) { return p.move == 0; });
        From<Jump>().To<Idle>([](const Fighter& c, const Pad&, float t) { return t > 0.05f && c.y <= 0; });
        From<Attack>().To<Idle>([](const Fighter&, const Pad&, float t) { return t >= 0.25f; });
        From<Hurt>().To<Idle>([](const Fighter&, const Pad&, float t) { return t >= 0.3f; });
    }
};

/// Both fighters and their machines: what each side simulates.
class World {
public:
    World() : machines{FighterStateManager(fighters[0]), FighterStateManager(fighters[1])} {
        fighters[1].x = 2.0f;
    }
    World(const World&) = delete;
    World& operator=(const World&) = delete;

    /// One tick with both players' pads.
    void Tick(const std::array<Pad, 2>& pads) {
        for (int i = 0; i < 2; ++i) machines[i].Perform(pads[static_cast<std::size_t>(i)]);
        for (int i = 0; i < 2; ++i) { // an attack in its fifth tick lands within reach
            Fighter& self = fighters[static_cast<std::size_t>(i)];
            Fighter& other = fighters[static_cast<std::size_t>(1 - i)];
            if (self.swing == 1 && std::fabs(self.x - other.x) < 1.0f && other.y < 0.5f) other.hit = true;
        }
    }

    /// Everything a rollback puts back: both machines' snapshots and both controllers.
    struct Saved {
        std::array<tickfsm::Snapshot, 2> machines;
        std::array<Fighter, 2> fighters;
    };
    void SaveInto(Saved& saved) const {
        for (std::size_t i = 0; i < 2; ++i) machines[i].SaveInto(saved.machines[i]);
        saved.fighters = fighters;
    }
    void Restore(const Saved& saved) {
        for (std::size_t i = 0; i < 2; ++i) machines[i].Restore(saved.machines[i]);
        fighters = saved.fighters;
    }

    bool operator==(const World& other) const {
        for (std::size_t i = 0; i < 2; ++i)
            if (!(fighters[i] == other.fighters[i]) || !(machines[i].Save() == other.machines[i].Save())) return false;
        return true;
    }

    std::array<Fighter, 2> fighters;
    std::array<FighterStateManager, 2> machines;
};

/// Player `player`'s pad at `tick`: a fixed pseudo-random script.
inline Pad ScriptedPad(int player, int tick) {
    std::uint32_t h = static_cast<std::uint32_t>(tick / 6) * 2654435761u + static_cast<std::uint32_t>(player) * 40503u;
    h ^= h >> 13;
    h *= 0x5bd1e995u;
    h ^= h >> 15;
    Pad p;
    p.move = static_cast<std::int8_t>(static_cast<int>(h % 3) - 1) ;
    p.jump = (h >> 4) % 9 == 0;
    p.attack = (h >> 8) % 5 == 0;
    return p;
}

/// One side of the session: it knows its own pads at once and the other's
/// `delay` ticks late, predicts what it does not know, and rolls back.
class Peer {
public:
    Peer(int player, int delay, int ticks)
        : self(player), late(delay), known(static_cast<std::size_t>(ticks)), history(static_cast<std::size_t>(ticks) + 1) {}

    /// Runs tick `tick`: the remote pads that arrive now (those of tick - delay)
    /// first, rolling back if a prediction was wrong, then the tick itself.
    void Step(int tick) {
        const int arrived = tick - late;
        if (arrived >= 0) Receive(arrived);
        Simulate(tick);
    }

    /// The pads still in flight at the end arrive.
    void Finish(int ticks) {
        for (int t = ticks - late < 0 ? 0 : ticks - late; t < ticks; ++t) Receive(t, ticks);
    }

    int rollbacks = 0;
    int resimulated = 0;
    World world;

private:
    void Receive(int arrived, int now = -1) {
        known[static_cast<std::size_t>(arrived)] = true;
        if (static_cast<std::size_t>(arrived) >= used.size()) return; // on time: not simulated yet
        const int until = now < 0 ? arrived + late : now;
        if (ScriptedPad(1 - self, arrived) == used[static_cast<std::size_t>(arrived)]) return;
        // Wrong guess: back to the world before tick `arrived`, and again from there.
        ++rollbacks;
        world.Restore(history[static_cast<std::size_t>(arrived)]);
        for (int t = arrived; t < until; ++t) {
            Simulate(t);
            ++resimulated;
        }
    }

    void Simulate(int tick) {
        const std::size_t t = static_cast<std::size_t>(tick);
        world.SaveInto(history[t]); // the world before this tick, for a later rollback
        if (used.size() <= t) used.resize(t + 1);
        Pad remote = ScriptedPad(1 - self, tick);
        if (!known[t]) { // predict: the last pad known
            remote = Pad{};
            for (int k = tick - 1; k >= 0; --k)
                if (known[static_cast<std::size_t>(k)]) {
                    remote = ScriptedPad(1 - self, k);
                    break;
                }
        }
        used[t] = remote;
        std::array<Pad, 2> pads;
        pads[static_cast<std::size_t>(self)] = ScriptedPad(self, tick);
        pads[static_cast<std::size_t>(1 - self)] = remote;
        world.Tick(pads);
    }

    int self;
    int late;
    std::vector<bool> known;
    std::vector<Pad> used; // the remote pad each tick was simulated with
    std::vector<World::Saved> history;
};

/// What a session did.
struct Session {
    std::array<int, 2> rollbacks{};
    std::array<int, 2> resimulated{};
    bool equal = false; // both sides hold what the lockstep run holds
    int hp0 = 0, hp1 = 0;
};

/// A session of `ticks` ticks, each player's pads reaching the other
/// `delay0` (player 0's) and `delay1` (player 1's) ticks late. `watch` (see
/// common/trace_option.hpp) watches the lockstep run, the one both sides must
/// end up with: a rollback restores a machine without its observer hearing it.
inline Session RunSession(int ticks, int delay0, int delay1, samples::Watch* watch = nullptr) {
    World lockstep;
    samples::Observe(watch, lockstep.machines[0], "player 0", nullptr);
    samples::Observe(watch, lockstep.machines[1], "player 1", nullptr);
    for (int t = 0; t < ticks; ++t) {
        samples::Tick(watch, t);
        lockstep.Tick({ScriptedPad(0, t), ScriptedPad(1, t)});
    }
    Peer a(0, delay1, ticks); // player 0 hears player 1's pads delay1 ticks late
    Peer b(1, delay0, ticks);
    for (int t = 0; t < ticks; ++t) {
        a.Step(t);
        b.Step(t);
    }
    a.Finish(ticks);
    b.Finish(ticks);
    Session s;
    s.rollbacks = {a.rollbacks, b.rollbacks};
    s.resimulated = {a.resimulated, b.resimulated};
    s.equal = a.world == lockstep && b.world == lockstep;
    s.hp0 = lockstep.fighters[0].hp;
    s.hp1 = lockstep.fighters[1].hp;
    return s;
}

} // namespace rollback
