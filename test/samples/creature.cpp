// The creature sample (seed 003): its keyed states, the combo through the
// input buffer, the gates of Attack, Flinch and Die, and the scripted run.

#include <catch2/catch.hpp>

#include <optional>
#include <string>

#include "creature/creature.hpp"

using namespace creature;

namespace {

// Ticks the machine `n` times with the same input.
void TickN(CreatureStateManager& machine, int n, const Input& in = {}) {
    for (int i = 0; i < n; ++i) machine.Tick(in);
}

bool Printed(const Creature& c, const std::string& line) { return c.console.find(line) != std::string::npos; }

} // namespace

TEST_CASE("StickMoves holds only outside the dead zone", "[sample][creature]") {
    const Creature c;
    CHECK(StickMoves(c, {.stick = 1.0f}));
    CHECK(StickMoves(c, {.stick = -0.5f}));
    CHECK_FALSE(StickMoves(c, {.stick = 0.1f}));
    CHECK_FALSE(StickMoves(c, {}));
}

TEST_CASE("A press asks for the next swing of the combo or else the first", "[sample][creature]") {
    CHECK(NextSwing(std::nullopt) == CreatureState::Attack1);
    CHECK(NextSwing(CreatureState::Attack1) == CreatureState::Attack2);
    CHECK(NextSwing(CreatureState::Attack2) == CreatureState::Attack3);
    CHECK(NextSwing(CreatureState::Attack3) == CreatureState::Attack1); // a new combo, after Attack3
}

TEST_CASE("The three attack keys hold one class with their own data", "[sample][creature]") {
    Creature c;
    CreatureStateManager machine(c);
    const Attack& slash = machine.State<Attack>(CreatureState::Attack1);
    const Attack& backhand = machine.State<Attack>(CreatureState::Attack2);
    const Attack& overhead = machine.State<Attack>(CreatureState::Attack3);
    CHECK(slash.name == "Slash");
    CHECK(slash.damage == 10);
    CHECK(slash.duration == 8);
    CHECK(backhand.name == "Backhand");
    CHECK(backhand.damage == 15);
    CHECK(backhand.duration == 10);
    CHECK(overhead.name == "Overhead");
    CHECK(overhead.damage == 30);
    CHECK(overhead.duration == 14);
    CHECK(&slash != &backhand); // three objects, not one

    machine.Tick({});
    REQUIRE(machine.PressAttack());
    CHECK(machine.IsIn(CreatureState::Attack1));
    CHECK(machine.CurrentKey<CreatureState>() == CreatureState::Attack1);
    CHECK(machine.CurrentStateName() == "Attack1"); // the machine names a keyed state by its key
    CHECK(Printed(c, "Slash: swings (10 damage, 8 ticks)"));
}

TEST_CASE("The combo comes out when the presses are buffered during the swings", "[sample][creature]") {
    Creature c;
    CreatureStateManager machine(c);
    tickfsm::TracePrinter trace(c.console); // the buffer reports what became of each press
    machine.SetTrace(&trace);
    machine.Tick({});
    machine.Tick({.attack = true}); // Idle: Slash at once
    REQUIRE(machine.IsIn(CreatureState::Attack1));
    CHECK_FALSE(machine.Buffer().IsBuffering());
    TickN(machine, 4); // ticks 2..5 of 8

    machine.Tick({.attack = true}); // tick 6 of 8: Attack1 refuses, the press waits
    CHECK(machine.IsIn(CreatureState::Attack1));
    CHECK(machine.Buffer().Wanted().IsKey(CreatureState::Attack2));
    machine.Tick({}); // tick 7: still swinging
    CHECK(machine.IsIn(CreatureState::Attack1));
    machine.Tick({}); // tick 8: Slash lands, ends in Idle, and the buffer enters Attack2 in the same tick
    CHECK(machine.IsIn(CreatureState::Attack2));
    CHECK(machine.TicksInState() == 0);
    CHECK_FALSE(machine.Buffer().IsBuffering());
    CHECK(c.damage_dealt == 10);

    TickN(machine, 8);              // ticks 1..8 of Backhand's 10
    machine.Tick({.attack = true}); // tick 9
    CHECK(machine.IsIn(CreatureState::Attack2));
    machine.Tick({}); // tick 10: Backhand lands, Overhead comes out
    CHECK(machine.IsIn(CreatureState::Attack3));
    CHECK(c.damage_dealt == 25);

    TickN(machine, 14); // no press: the combo falls back to Idle
    CHECK(machine.IsIn(CreatureState::Idle));
    CHECK(c.damage_dealt == 55);
    CHECK(Printed(c, "Creature: buffered Attack2 entered"));
    CHECK(Printed(c, "Creature: buffered Attack3 entered"));
}

TEST_CASE("A press too early in a swing times out and the swing falls back to Idle", "[sample][creature]") {
    Creature c;
    CreatureStateManager machine(c);
    tickfsm::TracePrinter trace(c.console); // the buffer reports what became of each press
    machine.SetTrace(&trace);
    machine.Tick({});
    machine.Tick({.attack = true});
    machine.Tick({.attack = true}); // tick 2 of Slash's 8: the buffer waits 6 ticks, not enough
    CHECK(machine.Buffer().IsBuffering());
    TickN(machine, 5); // ticks 3..7: the sixth try fails and the press is dropped
    CHECK_FALSE(machine.Buffer().IsBuffering());
    CHECK(Printed(c, "Creature: buffered Attack2 timed out"));
    machine.Tick({}); // tick 8: Slash lands, nothing follows
    CHECK(machine.IsIn(CreatureState::Idle));
    machine.Tick({.attack = true}); // the next press starts the combo again
    CHECK(machine.IsIn(CreatureState::Attack1));
}

TEST_CASE("An attack cannot be interrupted except by a hit or by death", "[sample][creature]") {
    Creature c;
    CreatureStateManager machine(c);
    machine.Tick({});
    machine.Tick({.attack = true});
    REQUIRE(machine.IsIn(CreatureState::Attack1));

    // The stick's transition to Walk holds, but Attack's gate refuses it.
    CHECK_FALSE(machine.WouldTransition({.stick = 1.0f}).Valid());
    machine.Tick({.stick = 1.0f});
    CHECK(machine.IsIn(CreatureState::Attack1));
    CHECK(c.x == 0.0f);
    CHECK_FALSE(machine.TrySetState(CreatureState::Idle));
    CHECK_FALSE(machine.TrySetState(CreatureState::Walk));
    CHECK_FALSE(machine.TrySetState(CreatureState::Attack2));
    CHECK(machine.IsIn(CreatureState::Attack1));

    machine.Tick({.hit = 5}); // a hit: Flinch is let through
    CHECK(machine.IsIn(CreatureState::Flinch));
    CHECK(c.health == kMaxHealth - 5);
    CHECK(c.damage_dealt == 0); // the swing was cut short and dealt nothing

    Creature other;
    CreatureStateManager killed(other);
    killed.Tick({});
    killed.Tick({.attack = true});
    killed.Tick({.hit = kMaxHealth}); // death: Die is let through
    CHECK(killed.IsIn(CreatureState::Die));
    CHECK(other.health == 0);
}

TEST_CASE("A hit during a swing drops the buffered press", "[sample][creature]") {
    Creature c;
    CreatureStateManager machine(c);
    machine.Tick({});
    machine.Tick({.attack = true});
    machine.Tick({.attack = true});
    REQUIRE(machine.Buffer().Wanted().IsKey(CreatureState::Attack2));
    machine.Tick({.hit = 3});
    CHECK(machine.IsIn(CreatureState::Flinch));
    CHECK_FALSE(machine.Buffer().IsBuffering());
    CHECK(Printed(c, "hit: the combo is broken, Attack2 dropped"));
    TickN(machine, 10);
    CHECK(machine.IsIn(CreatureState::Idle)); // no Backhand after the flinch
}

TEST_CASE("Flinch lasts six ticks and holds a buffered press until it ends", "[sample][creature]") {
    Creature c;
    CreatureStateManager machine(c);
    machine.Tick({});
    machine.Tick({.hit = 4}); // Flinch, tick 1 of 6
    REQUIRE(machine.IsIn(CreatureState::Flinch));
    CHECK(Printed(c, "Flinch: hit for 4, health 26"));
    machine.Tick({.stick = 1.0f, .attack = true}); // tick 2: its gate refuses Attack1; no transition to Walk
    CHECK(machine.IsIn(CreatureState::Flinch));
    CHECK(machine.Buffer().Wanted().IsKey(CreatureState::Attack1));
    machine.Tick({.hit = 2}); // hit again: Flinch starts over, tick 1 of 6
    CHECK(machine.IsIn(CreatureState::Flinch));
    CHECK(c.health == 24);
    machine.Tick({}); // tick 2
    CHECK(machine.IsIn(CreatureState::Flinch));
    // The press from before the second hit was dropped with it.
    CHECK_FALSE(machine.Buffer().IsBuffering());
    machine.Tick({.attack = true}); // tick 3: a new press waits
    TickN(machine, 2);              // ticks 4, 5
    CHECK(machine.IsIn(CreatureState::Flinch));
    machine.Tick({}); // tick 6: Flinch ends in Idle and the press comes out
    CHECK(machine.IsIn(CreatureState::Attack1));
}

TEST_CASE("Die refuses to exit", "[sample][creature]") {
    Creature c;
    CreatureStateManager machine(c);
    tickfsm::TracePrinter trace(c.console); // the buffer reports what became of each press
    machine.SetTrace(&trace);
    machine.Tick({});
    machine.Tick({.hit = kMaxHealth + 10});
    REQUIRE(machine.IsIn(CreatureState::Die));
    CHECK(c.health == 0);
    CHECK_FALSE(machine.TrySetState(CreatureState::Idle));
    CHECK_FALSE(machine.TrySetState(CreatureState::Flinch));
    CHECK_FALSE(machine.TrySetState(CreatureState::Attack1));
    CHECK_FALSE(machine.TryResetState(CreatureState::Die)); // not even into itself
    CHECK_FALSE(machine.PressAttack());
    TickN(machine, 10, {.stick = 1.0f});
    CHECK(machine.IsIn(CreatureState::Die));
    CHECK(Printed(c, "Creature: buffered Attack1 timed out"));
    machine.TakeHit(5);
    CHECK(machine.IsIn(CreatureState::Die));
    CHECK(Printed(c, "hit for 5: already down"));
    machine.ForceSetState(CreatureState::Idle); // only a forced change skips the gate
    CHECK(machine.IsIn(CreatureState::Idle));
}

TEST_CASE("The scripted run ends dead with the damage of the swings that landed", "[sample][creature]") {
    const std::string out = Run();
    CHECK(out.find("Successfully initialized 7 fsmStates") != std::string::npos);
    CHECK(out.find("Attack2 -> Flinch (direct)") != std::string::npos);
    CHECK(out.find("Attack1 -> Die (direct)") != std::string::npos);
    CHECK(out.find("tick 80  done: health 0, x = 2.0, 65 damage dealt, state Die") != std::string::npos);
    CHECK(out.find("\nDie -> ") == std::string::npos); // never left: no transition line starts at Die
    CHECK(out.find("Creature: refused Die -> Attack1") != std::string::npos); // the buffer's retries, refused
}
