// Deterministic replay of the five seed samples: each runs 10,000 random
// ticks; snapshots taken at random ticks (the machine's Save, its input
// buffer's, and a copy of the controller, which is the game's to keep) are
// restored into a fresh machine, which must then do tick for tick what the
// first did: the same snapshot after every tick and the same controller.

#include <catch2/catch.hpp>

#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "creature/creature.hpp"
#include "platformer/platformer.hpp"
#include "robot/robot.hpp"
#include "runner/runner.hpp"
#include "weapon/weapon.hpp"

namespace {

constexpr int kTicks = 10000;
constexpr int kRestores = 12;
constexpr int kWindow = 400; // ticks compared after each restore

// A sample as the replay drives it: `Input Next(rng, tick)` draws a tick's
// input, `Tick(machine, controller, input)` runs one game-loop tick,
// `Text(controller)` is what the controller did, `SaveExtra`/`RestoreExtra`
// keep what lives beside the machine (an input buffer).
template <class Sample>
void Replay(std::uint32_t seed) {
    using Manager = typename Sample::Manager;
    using Controller = typename Sample::Controller;
    using Input = typename Sample::Input;
    std::mt19937 rng(seed);
    std::vector<Input> inputs;
    for (int t = 0; t < kTicks; ++t) inputs.push_back(Sample::Next(rng, t));

    struct Kept {
        int tick;
        tickfsm::Snapshot snapshot;
        Controller controller;
        typename Sample::Extra extra;
    };
    std::vector<int> at;
    for (int i = 0; i < kRestores; ++i) at.push_back(static_cast<int>(rng() % (kTicks - kWindow)));

    Controller c;
    Manager m(c);
    Sample::Setup(m);
    std::vector<Kept> kept;
    std::vector<tickfsm::Snapshot> after(kTicks); // the machine after each tick
    std::vector<std::string> text(kTicks);
    int changes = 0;
    for (int t = 0; t < kTicks; ++t) {
        for (int a : at)
            if (a == t) kept.push_back({t, m.Save(), c, Sample::SaveExtra(m)});
        const std::string before(m.CurrentStateName());
        Sample::Tick(m, c, inputs[static_cast<std::size_t>(t)], t);
        changes += before != m.CurrentStateName();
        m.SaveInto(after[static_cast<std::size_t>(t)]);
        text[static_cast<std::size_t>(t)] = Sample::Text(c);
    }
    CHECK(changes > 50); // the random input moved the machine around

    for (const Kept& k : kept) {
        INFO(Sample::kName << ": seed " << seed << ", restored at tick " << k.tick);
        Controller d = k.controller;
        Manager n(d);
        Sample::Setup(n);
        n.Restore(k.snapshot);
        Sample::RestoreExtra(n, k.extra);
        for (int t = k.tick; t < k.tick + kWindow; ++t) {
            Sample::Tick(n, d, inputs[static_cast<std::size_t>(t)], t);
            INFO("tick " << t);
            REQUIRE(n.Save() == after[static_cast<std::size_t>(t)]);
            REQUIRE(Sample::Text(d) == text[static_cast<std::size_t>(t)]);
        }
    }
}

struct NoExtra {};

// What a sample without anything beside its machine leaves as it is.
template <class Manager>
struct NothingBeside {
    using Extra = NoExtra;
    static void Setup(Manager&) {}
    static Extra SaveExtra(Manager&) { return {}; }
    static void RestoreExtra(Manager&, const Extra&) {}
};

struct CreatureSample {
    static constexpr const char* kName = "creature";
    using Manager = creature::CreatureStateManager;
    using Controller = creature::Creature;
    using Input = creature::Input;
    using Extra = tickfsm::InputBuffer<Controller, Input>::Saved;
    static Input Next(std::mt19937& rng, int) {
        constexpr float kSticks[] = {-1.0f, 0.0f, 0.0f, 0.1f, 0.6f, 1.0f};
        Input in;
        in.stick = kSticks[rng() % 6];
        in.attack = rng() % 6 == 0;
        in.hit = rng() % 40 == 0 ? static_cast<int>(1 + rng() % 8) : 0;
        return in;
    }
    static void Setup(Manager&) {}
    static void Tick(Manager& m, Controller& c, const Input& in, int t) {
        c.tick = t;
        m.Tick(in);
        if (m.IsIn(creature::CreatureState::Die) && m.TicksInState() > 30) { // back for more
            c.health = creature::kMaxHealth;
            m.Reset();
        }
        c.console.clear(); // the text compared is the tick's own
    }
    static std::string Text(const Controller& c) {
        return std::to_string(c.health) + " " + std::to_string(c.x) + " " + std::to_string(c.damage_dealt);
    }
    static Extra SaveExtra(Manager& m) { return m.Buffer().Save(); }
    static void RestoreExtra(Manager& m, const Extra& e) { m.Buffer().Restore(e); }
};

struct PlatformerSample : NothingBeside<platformer::PlatformerCharacterStateManager> {
    static constexpr const char* kName = "platformer";
    using Manager = platformer::PlatformerCharacterStateManager;
    using Controller = platformer::Character;
    using Input = platformer::Input;
    static Input Next(std::mt19937& rng, int) {
        constexpr float kMoves[] = {-1.0f, 0.0f, 0.5f, 1.0f};
        return Input{kMoves[rng() % 4], rng() % 8 == 0};
    }
    static void Tick(Manager& m, Controller& c, const Input& in, int) {
        m.Perform(in);
        c.Integrate(1.0f / 60.0f);
    }
    static std::string Text(const Controller& c) {
        return std::to_string(c.x) + " " + std::to_string(c.y) + " " + std::to_string(c.vy) + " " +
               std::to_string(c.jumps);
    }
};

template <class RobotManager>
struct RobotSample : NothingBeside<RobotManager> {
    static constexpr const char* kName = "robot";
    using Manager = RobotManager;
    using Controller = robot::Robot;
    using Input = robot::Input;
    static Input Next(std::mt19937& rng, int) {
        Input in;
        if (rng() % 15 == 0) in.tap = robot::Tile{static_cast<int>(rng() % 8), static_cast<int>(rng() % 6)};
        in.hello = rng() % 25 == 0;
        return in;
    }
    static void Setup(Manager& m) { m.template SetGlobalState<robot::Battery>(); }
    static void Tick(Manager& m, Controller& r, const Input& in, int t) {
        r.tick = t;
        if (t % 500 == 0) r.battery = robot::kStartBattery; // a charger
        if (in.tap) m.WalkTo(*in.tap);
        m.Perform(in);
        if (m.template IsIn<robot::Greet>() && m.template State<robot::Greet>().Over()) {
            if constexpr (std::is_same_v<Manager, robot::NestedRobotStateManager>)
                m.template ForceSetState<robot::Working>();
            else
                m.RevertToPreviousState();
        }
        r.console.clear();
    }
    static std::string Text(const Controller& r) {
        return std::to_string(r.position.x) + "," + std::to_string(r.position.y) + " " + std::to_string(r.battery);
    }
};

struct RunnerSample : NothingBeside<runner::RunnerStateManager> {
    static constexpr const char* kName = "runner";
    using Manager = runner::RunnerStateManager;
    using Controller = runner::RunnerCharacter;
    using Input = int; // 0 nothing, 1 jump, 2 obstacle
    static Input Next(std::mt19937& rng, int) {
        const auto r = rng() % 100;
        return r < 6 ? 1 : r < 7 ? 2 : 0;
    }
    static void Tick(Manager& m, Controller& c, const Input& in, int t) {
        const runner::Frame frame{t};
        if (in == 1) m.SendEvent(runner::Jump, frame);
        m.Perform(frame);
        if (m.IsIn<runner::Jumping>() && m.TicksInState() > 0 && c.y <= 0.0f) m.SendEvent(runner::HitGround, frame);
        if (in == 2) m.SendEvent(runner::HitObstacle, frame);
        if (m.IsIn<runner::Die>() && m.TicksInState() > 20) m.Reset(); // and again
        c.console.clear();
    }
    static std::string Text(const Controller& c) {
        return std::to_string(c.x) + " " + std::to_string(c.y) + " " + c.animation;
    }
};

struct WeaponSample : NothingBeside<weapon::AoWeaponStateManager> {
    static constexpr const char* kName = "weapon";
    using Manager = weapon::AoWeaponStateManager;
    using Controller = weapon::Weapon;
    using Input = weapon::Trigger;
    static Input Next(std::mt19937& rng, int) {
        Input in;
        in.pull = rng() % 3 == 0;
        in.draw = rng() % 30 == 0;
        return in;
    }
    static void Tick(Manager& m, Controller& w, const Input& in, int t) {
        if (t % 300 == 0) w.ammo += 30; // a pickup
        m.Perform(in);
        w.console.clear();
    }
    static std::string Text(const Controller& w) { return std::to_string(w.ammo) + " " + std::to_string(w.clip_ammo); }
};

} // namespace

TEST_CASE("A restored creature replays its ticks exactly", "[snapshot][replay][sample]") { Replay<CreatureSample>(1); }
TEST_CASE("A restored platformer character replays its ticks exactly", "[snapshot][replay][sample]") {
    Replay<PlatformerSample>(2);
}
TEST_CASE("A restored robot replays its ticks exactly", "[snapshot][replay][sample]") {
    Replay<RobotSample<robot::RobotStateManager>>(3);
}
TEST_CASE("A restored nested robot replays its ticks exactly", "[snapshot][replay][sample]") {
    Replay<RobotSample<robot::NestedRobotStateManager>>(4);
}
TEST_CASE("A restored runner replays its ticks exactly", "[snapshot][replay][sample]") { Replay<RunnerSample>(5); }
TEST_CASE("A restored weapon replays its ticks exactly", "[snapshot][replay][sample]") { Replay<WeaponSample>(6); }
