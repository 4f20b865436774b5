// tickfsm/testing.hpp: scenarios with their expected paths, and transition
// coverage, on small machines and on the samples.

#include <catch2/catch.hpp>

#include <stdexcept>
#include <string>
#include <vector>

#include <tickfsm/testing.hpp>
#include <tickfsm/tickfsm.hpp>
#include <tickfsm/timeline.hpp>

#include "creature/creature.hpp"
#include "guard/guard.hpp"
#include "platformer/platformer.hpp"
#include "robot/robot.hpp"
#include "rollback/rollback.hpp"
#include "runner/runner.hpp"
#include "weapon/weapon.hpp"

using tickfsm::testing::CoverageRow;
using tickfsm::testing::ExpectedVisit;
using tickfsm::testing::kAnyTicks;
using tickfsm::testing::Scenario;
using tickfsm::testing::TransitionCoverage;

namespace {

struct Hero {
    bool ground = true;
};
struct Input {
    bool jump = false;
};
struct Idle {};
struct Jump {};
struct Run {};
struct Combat {};
struct Chase {};
struct Strike {};
struct Stun {};
struct Hit {
    int damage = 0;
};

class HeroMachine : public tickfsm::StateManager<Hero, Input> {
public:
    explicit HeroMachine(Hero& h) : StateManager(h) {
        SetInitialState<Idle>().To<Jump>([](const Hero&, const Input& in) { return in.jump; }).On("Go").To<Run>();
        From<Jump>().To<Idle>([](const Hero& hero) { return hero.ground; });
        From<Run>().To<Idle>([](const Hero& hero) { return !hero.ground; });
    }
};

// "machine: from -> to (what)" for each row that never fired.
std::vector<std::string> NeverFired(const TransitionCoverage& coverage) {
    std::vector<std::string> never;
    for (const CoverageRow& row : coverage.NeverFired())
        never.push_back(row.machine + ": " + row.from + " -> " + row.to + " (" + row.what + ")");
    return never;
}

std::size_t FiredOf(const TransitionCoverage& coverage, std::string_view from, std::string_view to) {
    std::size_t fired = 0;
    for (const CoverageRow& row : coverage.Rows())
        if (row.from == from && row.to == to) fired += row.fired;
    return fired;
}

} // namespace

// --- scenarios ------------------------------------------------------------------------

TEST_CASE("A scenario records the states entered and the ticks each lasted", "[testing][scenario]") {
    Hero h;
    HeroMachine m(h);
    Scenario run(m, "hero");
    h.ground = false;
    run.Ticks(3).Ticks(1, {.jump = true}).Ticks(4);
    h.ground = true;
    run.Ticks(2);

    const auto path = run.Path();
    REQUIRE(path.size() == 3);
    CHECK(path[0].state == "Idle");
    CHECK(path[0].cause == "initial");
    CHECK(path[0].entered == 0);
    CHECK(path[0].ticks == 3);
    CHECK(path[1].state == "Jump");
    CHECK(path[1].cause == "condition 0");
    CHECK(path[1].entered == 3);
    CHECK(path[1].ticks == 5); // ticks 3..7; it lands on tick 8
    CHECK_FALSE(path[1].open);
    CHECK(path[2].state == "Idle");
    CHECK(path[2].ticks == 2);
    CHECK(path[2].open);
    CHECK(run.Tick() == 10);
    CHECK(run.Expect({{"Idle", 3}, {"Jump", 5}, {"Idle", 2}}));
    CHECK(run.Expect({{"Idle", 3}, {"Jump", 5}, {"Idle"}})); // any ticks
}

TEST_CASE("A scenario's path check shows both paths and marks the first difference", "[testing][scenario]") {
    Hero h;
    HeroMachine m(h);
    Scenario run(m, "hero");
    run.Ticks(3).Ticks(1, {.jump = true}).Ticks(2);

    const tickfsm::testing::PathCheck ticks = run.Expect({{"Idle", 3}, {"Jump", 4}});
    CHECK_FALSE(ticks);
    CHECK(ticks.message == "the path differs at visit 2: Jump lasted 1 ticks, expected 4\n"
                           "     #  expected  ticks    got   ticks\n"
                           "     1  Idle          3    Idle      3  (tick 0, initial)\n"
                           "  >  2  Jump          4    Jump      1  (tick 3, condition 0)\n"
                           "     3  -                  Idle      2  (tick 4, condition 0, current)\n");

    const auto state = run.Expect({{"Idle", 3}, {"Run", 1}, {"Idle", 2}});
    CHECK_FALSE(state);
    CHECK(state.message.starts_with("the path differs at visit 2: expected Run, got Jump\n"));

    const auto shorter = run.Expect({{"Idle", 3}, {"Jump", 1}, {"Idle", 2}, {"Run", kAnyTicks}});
    CHECK_FALSE(shorter);
    CHECK(shorter.message.starts_with("the path differs at visit 4: expected 4 visits, got 3\n"));
    CHECK(shorter.message.find("  >  4  Run         any    -") != std::string::npos);
}

TEST_CASE("A scenario sends events and calls functions between ticks", "[testing][scenario]") {
    Hero h;
    HeroMachine m(h);
    Scenario run(m, "hero");
    run.Ticks(2).Send("Go");
    CHECK(run.Took());
    run.Send("Go");
    CHECK_FALSE(run.Took()); // Run has no transition on Go
    run.Ticks(2).Call([](Hero& hero) { hero.ground = false; }).Ticks(1).Call([](HeroMachine& machine) {
        machine.ForceSetState<Jump>();
    });
    run.Ticks(1);
    CHECK(run.Expect({{"Idle", 2}, {"Run", 2}, {"Idle", 1}, {"Jump", 1}}));
    CHECK(run.Path()[1].cause == "event Go");
    CHECK(run.Path()[3].cause == "direct");
    CHECK(run.PathString() == "  Idle       2 ticks  (tick 0, initial)\n"
                              "  Run        2 ticks  (tick 2, event Go)\n"
                              "  Idle       1 ticks  (tick 4, condition 0)\n"
                              "  Jump       1 ticks  (tick 5, direct, current)\n");
}

TEST_CASE("A scenario takes the action of each tick from a function and runs the loop's other work after it",
          "[testing][scenario]") {
    Hero h;
    HeroMachine m(h);
    Scenario run(m, "hero");
    int after = 0;
    run.AfterEachTick([&](HeroMachine&) { ++after; });
    run.Ticks(10, [](std::uint64_t tick) { return Input{.jump = tick == 4}; });
    CHECK(after == 10);
    CHECK(run.Expect({{"Idle", 4}, {"Jump", 1}, {"Idle", 5}}));
}

TEST_CASE("An expected state may name a nested state by its active path", "[testing][scenario][nested]") {
    Hero h;
    tickfsm::StateManager<Hero, Input> m(h);
    m.SetSubstates<Combat, Chase, Strike>();
    m.SetInitialState<Idle>().To<Combat>([](const Hero&, const Input& in) { return in.jump; });
    m.From<Chase>().To<Strike>([](const Hero& hero) { return !hero.ground; });
    m.From<Combat>().On<Hit>().To<Idle>();
    Scenario run(m, "fighter");
    run.Ticks(1).Ticks(1, {.jump = true}).Call([](Hero& hero) { hero.ground = false; }).Ticks(2).Send(Hit{.damage = 3});
    CHECK(run.Expect({{"Idle", 1}, {"Combat/Chase", 1}, {"Strike", 2}, {"Idle", 0}}));
    CHECK(run.Path()[2].path == "Combat/Strike");
    CHECK(run.Path()[3].cause == "event Hit");
    CHECK_FALSE(run.Expect({{"Idle", 1}, {"Chase/Combat", 1}, {"Strike", 2}, {"Idle", 0}}));
}

namespace {
struct Body {
    bool run = false, dead = false;
};
struct Pad {};
struct Alive {};
struct Dead {};
struct Legs {};
struct Stand {};
struct Sprint {};
struct Arms {};
struct Lower {};
} // namespace

TEST_CASE("A scenario records each parallel region's visits, in the order they began", "[testing][scenario][regions]") {
    Body b;
    tickfsm::StateManager<Body, Pad> m(b);
    m.SetInitialState<Alive>().To<Dead>([](const Body& c) { return c.dead; });
    m.SetRegions<Alive, Legs, Arms>();
    m.SetSubstates<Legs, Stand, Sprint>();
    m.SetSubstates<Arms, Lower>();
    m.From<Stand>().To<Sprint>([](const Body& c) { return c.run; });
    Scenario run(m, "soldier");
    run.Ticks(2).Call([](Body& c) { c.run = true; }).Ticks(3).Call([](Body& c) { c.dead = true; }).Ticks(1);
    const auto check = run.Expect({{"Alive", 5}, {"Alive/Legs/Stand", 2}, {"Lower", 5}, {"Sprint", 3}, {"Dead", 1}});
    INFO(check.message);
    CHECK(check);
    CHECK(run.Path()[2].region == "Arms");
    CHECK(run.Path()[3].region == "Legs");
    CHECK(run.Path()[4].region.empty());
}

namespace {
struct Flags {
    int go = 0;
    bool back = false;
};
struct Top {};
struct Main {};
struct Home {};
struct Dance {};
struct Steps {};
struct Step {};
struct Beat {};
struct Tap {};
struct Fight {};
struct Fists {};
struct Jab {};
struct Feet {};
struct Kick {};
struct Radio {};
struct Tune {};

// Top holds the regions Main {Home, Dance, Fight} and Radio {Tune}; Dance and
// Fight, inside Main, are parallel: Dance {Steps {Step}, Beat {Tap}}, Fight
// {Fists {Jab}, Feet {Kick}}. Step and Jab go back Home, leaving theirs.
class Deck : public tickfsm::StateManager<Flags, Pad> {
public:
    explicit Deck(Flags& f) : StateManager(f) {
        SetInitialState<Top>();
        SetRegions<Top, Main, Radio>();
        SetSubstates<Main, Home, Dance, Fight>();
        SetRegions<Dance, Steps, Beat>();
        SetSubstates<Steps, Step>();
        SetSubstates<Beat, Tap>();
        SetRegions<Fight, Fists, Feet>();
        SetSubstates<Fists, Jab>();
        SetSubstates<Feet, Kick>();
        SetSubstates<Radio, Tune>();
        From<Home>().To<Dance>([](const Flags& c) { return c.go == 1; }).To<Fight>([](const Flags& c) {
            return c.go == 2;
        });
        From<Step>().To<Home>([](const Flags& c) { return c.back; });
        From<Jab>().To<Home>([](const Flags& c) { return c.back; });
    }
};

// Home -> Dance on tick 1, Step -> Home on tick 2, Home -> Fight on tick 3,
// Jab -> Home on tick 4, then one tick more.
template <class Manager>
void DanceFightAndBack(Scenario<Manager>& run) {
    auto go = [](int to) { return [to](Flags& c) { c.go = to, c.back = to == 0; }; };
    run.Ticks(1).Call(go(1)).Ticks(1).Call(go(0)).Ticks(1).Call(go(2)).Ticks(1).Call(go(0)).Ticks(1);
    run.Call([](Flags& c) { c.back = false; }).Ticks(1);
}
} // namespace

TEST_CASE("A scenario closes the visits of a parallel state's regions when the region holding it leaves it",
          "[testing][scenario][regions]") {
    Flags f;
    Deck m(f);
    Scenario run(m, "deck");
    DanceFightAndBack(run);
    const auto check = run.Expect({{"Top", 6},
                                   {"Top/Main/Home", 1},
                                   {"Tune", 6},
                                   {"Dance", 1},
                                   {"Top/Main/Dance/Steps/Step", 1},
                                   {"Tap", 1},
                                   {"Home", 1},
                                   {"Fight", 1},
                                   {"Jab", 1},
                                   {"Kick", 1},
                                   {"Home", 2}});
    INFO(check.message);
    CHECK(check);
    std::vector<std::string> open;
    for (const auto& visit : run.Path())
        if (visit.open) open.push_back(visit.state);
    CHECK(open == std::vector<std::string>{"Top", "Tune", "Home"});
}

TEST_CASE("A scenario counts a tick whose Perform threw, as the machine counts it", "[testing][scenario]") {
    Hero h;
    tickfsm::StateManager<Hero, Input> m(h);
    m.SetInitialState<Idle>().To<Jump>([](const Hero& hero, const Input& in) {
        if (in.jump && !hero.ground) throw std::runtime_error("no ground to jump from");
        return in.jump;
    });
    m.From<Jump>();
    Scenario run(m, "hero");
    h.ground = false;
    run.Ticks(2);
    CHECK_THROWS_AS(run.Ticks(1, {.jump = true}), std::runtime_error);
    CHECK(run.Tick() == 3);
    h.ground = true;
    run.Ticks(1);
    CHECK(m.TicksInState() == 4);
    run.Ticks(1, {.jump = true});
    const auto check = run.Expect({{"Idle", 4}, {"Jump", 1}});
    INFO(check.message);
    CHECK(check);
}

TEST_CASE("A scenario keeps a timeline on its ticks", "[testing][scenario][timeline]") {
    Hero h;
    HeroMachine m(h);
    std::string json;
    tickfsm::TimelineWriter timeline(json);
    {
        Scenario run(m, "hero");
        run.Also(timeline).Ticks(3).Ticks(1, {.jump = true}).Ticks(1);
    }
    timeline.Finish();
    CHECK(json.find("{\"name\":\"Idle\",\"cat\":\"state\",\"ph\":\"X\",\"ts\":0,\"dur\":3000,") != std::string::npos);
    CHECK(json.find("{\"name\":\"Jump\",\"cat\":\"state\",\"ph\":\"X\",\"ts\":3000,\"dur\":1000,") != std::string::npos);
}

// --- coverage ---------------------------------------------------------------------------

TEST_CASE("Transition coverage counts what fired and lists what never did", "[testing][coverage]") {
    Hero h;
    HeroMachine m(h);
    TransitionCoverage coverage;
    coverage.Watch(m, "hero");
    m.Perform({});
    m.Perform({.jump = true}); // Idle -> Jump
    m.Perform({});             // Jump -> Idle (on the ground)
    m.Perform({.jump = true}); // Idle -> Jump
    m.Perform({});             // Jump -> Idle
    m.SendEvent("Go");         // Idle -> Run
    m.ForceSetState<Jump>();   // direct: outside the table

    REQUIRE(coverage.Rows().size() == 4);
    CHECK(coverage.FiredCount() == 3);
    CHECK(coverage.OtherChanges() == 2); // the initial entry and the direct change
    CHECK(coverage.Unmatched().empty());
    CHECK(FiredOf(coverage, "Idle", "Jump") == 2);
    CHECK(FiredOf(coverage, "Jump", "Idle") == 2);
    CHECK(FiredOf(coverage, "Idle", "Run") == 1);
    CHECK(NeverFired(coverage) == std::vector<std::string>{"hero: Run -> Idle (condition 0)"});
    CHECK(coverage.Table() == "  machine  from  to    what         fired\n"
                              "  hero     Idle  Jump  condition 0      2\n"
                              "  hero     Idle  Run   event Go         1\n"
                              "  hero     Jump  Idle  condition 0      2\n"
                              "  hero     Run   Idle  condition 0  NEVER\n"
                              "3 of 4 transitions fired; changes outside the table (initial, direct, request, "
                              "pushes and pops asked for): 2\n"
                              "never fired:\n"
                              "  hero: Run -> Idle (condition 0)\n");
    coverage.Clear();
    CHECK(coverage.FiredCount() == 0);
    m.SetObserver(nullptr);
}

TEST_CASE("Coverage finds a parent's transition, an any-state one and a push among the active path's",
          "[testing][coverage][nested]") {
    Hero h;
    tickfsm::StateManager<Hero, Input> m(h);
    m.SetPushCapacity<1>();
    m.SetSubstates<Combat, Chase, Strike>();
    m.FromAny().Push<Stun>([](const Hero& hero) { return !hero.ground; });
    m.SetInitialState<Idle>().To<Combat>([](const Hero&, const Input& in) { return in.jump; });
    m.From<Combat>().To<Idle>([](const Hero&, const Input& in) { return !in.jump; }).On<Hit>().To<Idle>();
    m.From<Chase>().To<Strike>([](const Hero&, const Input& in) { return in.jump; });
    m.From<Stun>().Pop([](const Hero& hero) { return hero.ground; });
    TransitionCoverage coverage;
    coverage.Watch(m, "fighter");
    m.Perform({});
    m.Perform({.jump = true}); // Idle -> Combat/Chase
    m.Perform({.jump = true}); // Chase -> Strike
    m.Perform({});             // Combat's condition 0: Combat/Strike -> Idle
    m.Perform({.jump = true}); // Idle -> Combat/Chase
    h.ground = false;
    m.Perform({.jump = true}); // the any-state push: Chase buried under Stun
    h.ground = true;
    m.Perform({.jump = true}); // the pop: back to Combat/Chase
    m.SendEvent(Hit{});        // Combat's typed event, from Chase

    CHECK(coverage.Unmatched().empty());
    CHECK(FiredOf(coverage, "Idle", "Combat") == 2);
    CHECK(FiredOf(coverage, "Chase", "Strike") == 1);
    CHECK(FiredOf(coverage, "(any)", "Stun") == 1);
    CHECK(FiredOf(coverage, "Stun", "(buried)") == 1);
    CHECK(coverage.Rows().size() == 6);
    std::size_t combat_condition = 0, combat_event = 0;
    for (const CoverageRow& row : coverage.Rows()) {
        if (row.from == "Combat" && row.what == "condition 0") combat_condition = row.fired;
        if (row.from == "Combat" && row.what == "event Hit") combat_event = row.fired;
    }
    CHECK(combat_condition == 1);
    CHECK(combat_event == 1);
    CHECK(coverage.NeverFired().empty());
    m.SetObserver(nullptr);
}

TEST_CASE("Coverage counts any-state event transitions, and pushes and pops asked for by code apart",
          "[testing][coverage][push]") {
    Hero h;
    tickfsm::StateManager<Hero, Input> m(h);
    m.SetPushCapacity<1>();
    m.FromAny().On<Hit>().To<Stun>().On("rest").To<Idle>();
    m.SetInitialState<Idle>().Push<Stun>([](const Hero& hero) { return !hero.ground; }); // never holds here
    m.From<Stun>().Pop([](const Hero& hero) { return hero.ground; });
    TransitionCoverage coverage;
    coverage.Watch(m, "fighter");
    m.Perform({});
    m.SendEvent(Hit{}); // Idle -> Stun by the any-state typed event
    m.SendEvent("rest"); // Stun -> Idle by the any-state named event
    m.Push<Stun>();      // code pushes: no transition of the table
    m.Pop();             // code pops
    INFO(coverage.Table());
    CHECK(coverage.Unmatched().empty());
    CHECK(FiredOf(coverage, "(any)", "Stun") == 1);
    CHECK(FiredOf(coverage, "(any)", "Idle") == 1);
    CHECK(FiredOf(coverage, "Idle", "Stun") == 0);
    CHECK(FiredOf(coverage, "Stun", "(buried)") == 0);
    CHECK(coverage.OtherChanges() == 3); // the initial state, the push and the pop
    m.SetObserver(nullptr);
}

TEST_CASE("Coverage passes over an any-state transition whose target holds the state left, as the machine does",
          "[testing][coverage][nested]") {
    Hero h;
    tickfsm::StateManager<Hero, Input> m(h);
    m.SetSubstates<Combat, Chase, Strike>();
    m.FromAny().On("hit").To<Combat>(); // from anywhere but Combat
    m.SetInitialState<Idle>();
    m.From<Chase>().To<Strike>([](const Hero&, const Input& in) { return in.jump; });
    m.From<Strike>().On("hit").To<Chase>().To<Idle>([](const Hero& hero) { return !hero.ground; });
    TransitionCoverage coverage;
    coverage.Watch(m, "fighter");
    m.Perform({});
    m.SendEvent("hit");        // Idle -> Combat/Chase by the any-state transition
    m.Perform({.jump = true}); // Chase -> Strike
    m.SendEvent("hit");        // Combat is active: Strike's own transition takes it
    CHECK(m.IsIn<Chase>());
    INFO(coverage.Table());
    CHECK(coverage.Unmatched().empty());
    CHECK(FiredOf(coverage, "(any)", "Combat") == 1);
    CHECK(FiredOf(coverage, "Strike", "Chase") == 1);
    m.SetObserver(nullptr);
}

TEST_CASE("Coverage counts a region's transitions, one leaving its parallel state too", "[testing][coverage][regions]") {
    Body b;
    tickfsm::StateManager<Body, Pad> m(b);
    m.SetInitialState<Alive>();
    m.SetRegions<Alive, Legs, Arms>();
    m.SetSubstates<Legs, Stand, Sprint>();
    m.SetSubstates<Arms, Lower>();
    m.From<Stand>().To<Sprint>([](const Body& c) { return c.run; });
    m.From<Sprint>().To<Dead>([](const Body& c) { return c.dead; }); // out of Alive: every region exits
    m.From<Dead>();
    TransitionCoverage coverage;
    coverage.Watch(m, "soldier");
    m.Perform({});
    b.run = true;
    m.Perform({});
    b.dead = true;
    m.Perform({});
    INFO(coverage.Table());
    CHECK(m.IsIn<Dead>());
    CHECK(coverage.Unmatched().empty());
    CHECK(FiredOf(coverage, "Stand", "Sprint") == 1);
    CHECK(FiredOf(coverage, "Sprint", "Dead") == 1);
    CHECK(coverage.OtherChanges() == 3); // Alive entered, then each region
    m.SetObserver(nullptr);
}

TEST_CASE("Coverage forgets the regions of a parallel state nested in a region once that state is left",
          "[testing][coverage][regions]") {
    Flags f;
    Deck m(f);
    TransitionCoverage coverage;
    coverage.Track(m, "deck");
    Scenario run(m, "deck");
    run.Also(coverage);
    DanceFightAndBack(run);
    INFO(coverage.Table());
    CHECK(coverage.Unmatched().empty());
    // Each leaving is heard as "Dance -> Home" and "Fight -> Home" in Main:
    // only Fight's regions, not Dance's left before, can have made the second.
    CHECK(FiredOf(coverage, "Step", "Home") == 1);
    CHECK(FiredOf(coverage, "Jab", "Home") == 1);
    CHECK(coverage.NeverFired().empty());
}

namespace {
struct Squad {
    bool shake = false, run = false, dead = false;
};
struct Shaken {};

// Alive {Legs {Stand, Sprint}, Arms {Lower}}, pushed under Shaken and popped
// back; Lower -> Dead leaves Alive.
class Soldier : public tickfsm::StateManager<Squad, Pad> {
public:
    explicit Soldier(Squad& s) : StateManager(s) {
        SetPushCapacity<1>();
        SetInitialState<Alive>().Push<Shaken>([](const Squad& c) { return c.shake; });
        SetRegions<Alive, Legs, Arms>();
        SetSubstates<Legs, Stand, Sprint>();
        SetSubstates<Arms, Lower>();
        From<Stand>().To<Sprint>([](const Squad& c) { return c.run; });
        From<Lower>().To<Dead>([](const Squad& c) { return c.dead; });
        From<Shaken>().Pop([](const Squad& c) { return !c.shake; });
        From<Dead>();
    }
};
} // namespace

TEST_CASE("Coverage takes the regions a pop resumes as part of the pop, and knows them after it",
          "[testing][coverage][regions][push]") {
    // What the machine tells an observer of a push over Alive and the pop
    // back: the pop, then each region's state resuming, in region order.
    Squad squad;
    Soldier m(squad);
    for (const bool asked_for_by_code : {false, true}) {
        CAPTURE(asked_for_by_code);
        const std::size_t pop = asked_for_by_code ? tickfsm::TransitionInfo::kNoCondition : 0;
        TransitionCoverage coverage;
        coverage.Track(m, "soldier");
        tickfsm::testing::PathRecorder recorder;
        recorder.AddStates(m.States());
        auto hear = [&](std::uint64_t tick, std::string_view from, std::string_view to, tickfsm::Cause cause,
                        std::size_t condition, std::string_view region = {}) {
            tickfsm::TransitionInfo info;
            info.machine = "soldier";
            info.from = from;
            info.to = to;
            info.cause = cause;
            info.condition = condition;
            info.region = region;
            recorder.SetTick(tick);
            recorder.OnTransition(info);
            coverage.OnTransition(info);
        };
        hear(0, "", "Alive", tickfsm::Cause::Initial, 0);
        hear(0, "", "Stand", tickfsm::Cause::Initial, 0, "Legs");
        hear(0, "", "Lower", tickfsm::Cause::Initial, 0, "Arms");
        hear(2, "Alive", "Shaken", tickfsm::Cause::Push, pop);
        hear(4, "Shaken", "Alive", tickfsm::Cause::Pop, pop);
        hear(4, "Shaken", "Stand", tickfsm::Cause::Pop, pop, "Legs");
        hear(4, "Shaken", "Lower", tickfsm::Cause::Pop, pop, "Arms");
        hear(6, "Alive", "Dead", tickfsm::Cause::Condition, 0); // Lower's transition leaves Alive
        recorder.SetTick(7);
        INFO(coverage.Table());
        CHECK(coverage.Unmatched().empty());
        CHECK(FiredOf(coverage, "Shaken", "(buried)") == (asked_for_by_code ? 0u : 1u));
        CHECK(FiredOf(coverage, "Alive", "Shaken") == (asked_for_by_code ? 0u : 1u));
        CHECK(FiredOf(coverage, "Lower", "Dead") == 1);
        CHECK(coverage.OtherChanges() == (asked_for_by_code ? 5u : 3u)); // the first states, and the push and pop
        const std::vector<ExpectedVisit> path{{"Alive", 2}, {"Stand", 2}, {"Lower", 2}, {"Shaken", 2},
                                              {"Alive", 2}, {"Stand", 2}, {"Lower", 2}, {"Dead", 1}};
        const auto check = tickfsm::testing::ComparePath(recorder.Path(), path);
        INFO(check.message);
        CHECK(check);
    }
}

TEST_CASE("After a push over a parallel state and the pop back, a scenario and coverage follow its regions",
          "[testing][scenario][coverage][regions][push]") {
    Squad squad;
    Soldier m(squad);
    TransitionCoverage coverage;
    coverage.Track(m, "soldier");
    Scenario run(m, "soldier");
    run.Also(coverage);
    run.Ticks(2).Call([](Squad& c) { c.shake = true; }).Ticks(2).Call([](Squad& c) { c.shake = false; }).Ticks(2);
    run.Call([](Squad& c) { c.run = true; }).Ticks(1).Call([](Squad& c) { c.dead = true; }).Ticks(1);
    const auto check = run.Expect({{"Alive", 2}, {"Stand", 2}, {"Lower", 2}, {"Shaken", 2}, {"Alive", 3},
                                   {"Stand", 2}, {"Lower", 3}, {"Sprint", 1}, {"Dead", 1}});
    INFO(check.message);
    CHECK(check);
    INFO(coverage.Table());
    CHECK(coverage.Unmatched().empty());
    CHECK(coverage.NeverFired().empty());
}

TEST_CASE("Coverage lists a change that no transition of the table fits", "[testing][coverage]") {
    Hero h;
    HeroMachine m(h);
    TransitionCoverage coverage;
    m.SetObserver(&coverage, "untracked");
    m.Perform({});
    m.Perform({.jump = true});
    CHECK(coverage.Unmatched() == std::vector<std::string>{"untracked: Idle -> Jump (condition 0)"});
    CHECK(coverage.Table().find("changes no transition fits:\n  untracked: Idle -> Jump (condition 0)\n") !=
          std::string::npos);
    m.SetObserver(nullptr);
}

// --- the samples ------------------------------------------------------------------------

TEST_CASE("The platformer's scripted run is a scenario with its ticks and covers every transition",
          "[testing][sample][platformer]") {
    platformer::PlatformerCharacter hero;
    platformer::PlatformerCharacterStateManager machine(hero);
    TransitionCoverage coverage;
    coverage.Track(machine, "Platformer");
    Scenario run(machine, "Platformer");
    run.Also(coverage).AfterEachTick([](platformer::PlatformerCharacterStateManager& m) {
        m.GetController().Integrate(m.FixedDeltaTime());
    });
    run.Ticks(150, [](std::uint64_t tick) {
        return platformer::PlayerInput{.move = tick < 100 ? 1.0f : -1.0f,
                                       .jump = tick == 10 || tick == 20 || tick == 30 || tick == 80 || tick == 120};
    });
    const auto check = run.Expect({{"Move", 10}, {"Jump", 10}, {"DoubleJump", 42}, {"Move", 18}, {"Jump", 35},
                                   {"Move", 5}, {"Jump", 30}});
    INFO(check.message);
    CHECK(check);
    INFO(coverage.Table());
    CHECK(coverage.NeverFired().empty());
    CHECK(coverage.FiredCount() == 4);
}

TEST_CASE("The guard's reaction machine driven alone by its events", "[testing][sample][guard]") {
    guard::Guard g;
    guard::Reaction reaction(g);
    TransitionCoverage coverage;
    coverage.Track(reaction, "reaction");
    Scenario run(reaction, "reaction");
    run.Also(coverage);
    run.Ticks(4).Send(guard::Heard{.x = 3}).Ticks(5);
    CHECK(reaction.State<guard::Investigate>().spot == 3);
    run.Send(guard::EnemySeen{.x = 8}).Ticks(2).Ticks(1, {.flash = true}).Ticks(3);
    g.x = 8; // next to the enemy: Chase -> Strike
    run.Ticks(2).Send(guard::EnemyLost{}).Ticks(1);
    const auto check = run.Expect({{"Calm/Patrol", 4},
                                   {"Calm/Investigate", 5},
                                   {"Combat/Chase", 2},
                                   {"Stunned", 3},
                                   {"Combat/Chase", 1},
                                   {"Combat/Strike", 2}, // Strike -> Chase waits 3 ticks: the enemy is lost first
                                   {"Calm/Investigate", 1}}); // Calm's history
    INFO(check.message);
    CHECK(check);
    INFO(coverage.Table());
    CHECK(NeverFired(coverage) == std::vector<std::string>{"reaction: Investigate -> Patrol (condition 0)",
                                                           "reaction: Strike -> Chase (condition 0)"});
}

TEST_CASE("The guard's run fires all its transitions but two", "[testing][sample][guard][coverage]") {
    TransitionCoverage coverage;
    samples::Watch watch;
    watch.coverage = &coverage;
    guard::RunGuard(nullptr, &watch);
    INFO(coverage.Table());
    CHECK(coverage.Rows().size() == 15);
    CHECK(coverage.Unmatched().empty());
    // Listening lasts a few ticks, but the enemy comes into sight first; a
    // strike ends with the enemy lost before it could chase again.
    CHECK(NeverFired(coverage) == std::vector<std::string>{"sensing: Listening -> Quiet (condition 0)",
                                                           "reaction: Strike -> Chase (condition 0)"});
}

TEST_CASE("The robot walks, greets and reverts in a scenario, its run firing both greetings",
          "[testing][sample][robot]") {
    robot::Robot r;
    robot::RobotStateManager machine(r);
    machine.SetGlobalState<robot::Battery>();
    Scenario run(machine, "Robot");
    auto revert_after_greeting = [](robot::RobotStateManager& m) {
        if (m.IsIn<robot::Greet>() && m.State<robot::Greet>().Over()) m.RevertToPreviousState();
    };
    run.AfterEachTick(revert_after_greeting);
    run.Ticks(2).Call([](robot::RobotStateManager& m) { m.WalkTo({5, 0}); }).Ticks(3);
    run.Ticks(1, {.hello = true}).Ticks(12);
    // Three of the 11 steps on ticks 2 to 4; Greet performs on ticks 5, 6 and
    // 7 and is reverted after tick 7; the resumed walk takes the 8 steps left
    // on ticks 8 to 15 and stands on the last one.
    const auto check = run.Expect({{"Stand", 2}, {"Walk", 3}, {"Greet", 3}, {"Walk", 7}, {"Stand", 3}});
    INFO(check.message);
    CHECK(check);
    CHECK(r.position == robot::Tile{5, 0});
    CHECK(run.Path()[2].cause == "condition 0");
    CHECK(run.Path()[3].cause == "direct"); // the revert

    TransitionCoverage coverage;
    samples::Watch watch;
    watch.coverage = &coverage;
    robot::Run(&watch);
    INFO(coverage.Table());
    CHECK(coverage.Unmatched().empty());
    CHECK(coverage.NeverFired().empty()); // Stand -> Greet and Walk -> Greet; the rest is direct
    CHECK(coverage.OtherChanges() > 5);
}

TEST_CASE("The creature's run leaves only the swings' walks, which Attack's gate refuses, unfired",
          "[testing][sample][creature][coverage]") {
    TransitionCoverage coverage;
    samples::Watch watch;
    watch.coverage = &coverage;
    creature::Run(&watch);
    INFO(coverage.Table());
    CHECK(coverage.Unmatched().empty());
    CHECK(NeverFired(coverage) == std::vector<std::string>{"Creature: Attack1 -> Walk (condition 0)",
                                                           "Creature: Attack2 -> Walk (condition 0)",
                                                           "Creature: Attack3 -> Walk (condition 0)"});
}

TEST_CASE("The rollback sample's lockstep run fires every transition of both fighters",
          "[testing][sample][rollback][coverage]") {
    TransitionCoverage coverage;
    samples::Watch watch;
    watch.coverage = &coverage;
    const rollback::Session s = rollback::RunSession(600, 3, 5, &watch);
    CHECK(s.equal); // observing the lockstep run changes nothing a snapshot holds
    INFO(coverage.Table());
    CHECK(coverage.Rows().size() == 20);
    CHECK(coverage.Unmatched().empty());
    CHECK(coverage.NeverFired().empty());
    CHECK(FiredOf(coverage, "(any)", "Hurt") == 12); // six hits each: 100 hp down to 40
}

TEST_CASE("The runner's and the weapon's runs fire every transition they have", "[testing][sample][coverage]") {
    TransitionCoverage runner_coverage;
    samples::Watch runner_watch;
    runner_watch.coverage = &runner_coverage;
    runner::Run(&runner_watch);
    INFO(runner_coverage.Table());
    CHECK(runner_coverage.Rows().size() == 3);
    CHECK(runner_coverage.NeverFired().empty());
    CHECK(FiredOf(runner_coverage, "Running", "Jumping") == 2);

    TransitionCoverage weapon_coverage; // every change is a NextState request: no transition in the table
    samples::Watch weapon_watch;
    weapon_watch.coverage = &weapon_coverage;
    weapon::Run(&weapon_watch);
    INFO(weapon_coverage.Table());
    CHECK(weapon_coverage.Rows().empty());
    CHECK(weapon_coverage.OtherChanges() == 9);
}
