// Push and pop (seed 002's bury and unbury): the buried state keeps its
// object and time, pause and resume hooks, pushes and pops as transitions and
// as calls, the fixed capacity and the mistakes.

#include <catch2/catch.hpp>

#include <algorithm>
#include <array>
#include <string>
#include <string_view>
#include <vector>

#include <tickfsm/tickfsm.hpp>

namespace {

struct Guard {
    std::vector<std::string> log;
    bool stunned = false;
    bool recovered = false;
};
struct Tick {};
using M = tickfsm::Machine<Guard, Tick>;

struct Patrol {
    int steps = 0;
    void OnStateEnter(Guard& g, const Tick&) { g.log.push_back("enter Patrol"); }
    void Perform(Guard&, const Tick&) { ++steps; }
    void OnStateExit(Guard& g, const Tick&) { g.log.push_back("exit Patrol"); }
    void OnStatePause(Guard& g, const Tick&) { g.log.push_back("pause Patrol"); }
    void OnStateResume(Guard& g, const Tick&) { g.log.push_back("resume Patrol"); }
};
struct Stunned {
    void OnStateEnter(Guard& g, const Tick&) { g.log.push_back("enter Stunned"); }
    void OnStateExit(Guard& g, const Tick&) { g.log.push_back("exit Stunned"); }
};
struct Dazed {
    void OnStateEnter(Guard& g, const Tick&) { g.log.push_back("enter Dazed"); }
    void OnStateExit(Guard& g, const Tick&) { g.log.push_back("exit Dazed"); }
};

class GuardMachine : public tickfsm::StateManager<Guard, Tick> {
public:
    explicit GuardMachine(Guard& g) : StateManager(g) {
        SetPushCapacity<2>();
        SetInitialState<Patrol>().Push<Stunned>([](const Guard& c) { return c.stunned; });
        From<Stunned>().Pop([](const Guard& c) { return c.recovered; });
        From<Dazed>();
    }
};

std::vector<std::string> Take(Guard& g) {
    std::vector<std::string> out;
    out.swap(g.log);
    return out;
}

} // namespace

TEST_CASE("A push buries the current state with its object and time, and a pop brings it back", "[push]") {
    Guard guard;
    GuardMachine m(guard);
    m.Perform({});
    m.Perform({});
    m.Perform({});
    REQUIRE(m.State<Patrol>().steps == 3);
    REQUIRE(m.TicksInState() == 3);
    Take(guard);
    guard.stunned = true;
    m.Perform({});
    CHECK(Take(guard) == std::vector<std::string>{"pause Patrol", "enter Stunned"});
    CHECK(m.IsIn<Stunned>());
    CHECK_FALSE(m.IsIn<Patrol>()); // buried, not active
    CHECK(m.BuriedCount() == 1);
    guard.stunned = false;
    m.Perform({});
    guard.recovered = true;
    m.Perform({});
    CHECK(Take(guard) == std::vector<std::string>{"exit Stunned", "resume Patrol"});
    CHECK(m.IsIn<Patrol>());
    CHECK(m.BuriedCount() == 0);
    // Its time and its object are as they were when it was buried, on the
    // tick of the push (counted before the push fired); the pop's tick performs.
    CHECK(m.TicksInState() == 4);
    CHECK(m.State<Patrol>().steps == 4);
}

TEST_CASE("Push and Pop as calls, from outside and from hooks", "[push]") {
    struct Shout {
        void OnStateEnter(Guard&, const Tick&, M& m) { m.Pop(); } // back at once
    };
    struct Caller : tickfsm::StateManager<Guard, Tick> {
        explicit Caller(Guard& g) : StateManager(g) {
            SetPushCapacity<3>();
            SetInitialState<Patrol>();
            From<Dazed>();
            From<Stunned>();
            From<Shout>();
        }
    };
    Guard guard;
    Caller m(guard);
    m.Perform({});
    m.Push<Stunned>();
    m.Push<Dazed>();
    CHECK(m.BuriedCount() == 2);
    CHECK(m.IsIn<Dazed>());
    m.Pop();
    CHECK(m.IsIn<Stunned>());
    m.Pop();
    CHECK(m.IsIn<Patrol>());
    Take(guard);
    m.Push<Shout>();
    CHECK(Take(guard) == std::vector<std::string>{"pause Patrol", "resume Patrol"});
    CHECK(m.IsIn<Patrol>());
}

TEST_CASE("BuriedStates lists the buried leaves, the one buried first first", "[push][query]") {
    Guard guard;
    GuardMachine m(guard);
    std::array<tickfsm::StateId, 3> buried{};
    CHECK(m.BuriedStates(buried) == 0); // not started
    m.Perform({});
    m.Push<Stunned>();
    m.Push<Dazed>();
    CHECK(m.BuriedStates(buried) == 2);
    CHECK(buried[0] == m.IdOf<Patrol>());
    CHECK(buried[1] == m.IdOf<Stunned>()); // where the next pop returns
    CHECK_FALSE(buried[2].Valid());
    std::array<tickfsm::StateId, 1> one{};
    CHECK(m.BuriedStates(one) == 2); // as many as fit; the count of all
    CHECK(one[0] == m.IdOf<Patrol>());
    m.Pop();
    CHECK(m.BuriedStates(buried) == 1);
    CHECK(buried[0] == m.IdOf<Patrol>());
}

TEST_CASE("Push and Pop transitions without a condition fire as with one that always holds", "[push]") {
    struct Bare : tickfsm::StateManager<Guard, Tick> {
        explicit Bare(Guard& g) : StateManager(g) {
            SetPushCapacity<1>();
            SetInitialState<Patrol>().Push<Stunned>();
            From<Stunned>().Pop().To<Dazed>(); // never tried: the pop always comes first
            SetTerminal<Dazed>();
        }
    };
    struct Spelled : tickfsm::StateManager<Guard, Tick> {
        explicit Spelled(Guard& g) : StateManager(g) {
            SetPushCapacity<1>();
            SetInitialState<Patrol>().Push<Stunned>([] { return true; });
            From<Stunned>().Pop([] { return true; }).To<Dazed>([] { return true; });
            From<Dazed>();
        }
    };
    Guard bare_guard, spelled_guard;
    Bare bare(bare_guard);
    Spelled spelled(spelled_guard);
    for (int i = 0; i < 5; ++i) {
        bare.Perform({});
        spelled.Perform({});
        CHECK(bare.ActivePath() == spelled.ActivePath());
        CHECK(bare.BuriedCount() == spelled.BuriedCount());
    }
    CHECK(bare_guard.log == spelled_guard.log);
    // Pushed on the first tick, popped on the next, and so on.
    CHECK(std::count(bare_guard.log.begin(), bare_guard.log.end(), "pause Patrol") == 3);
    CHECK(std::count(bare_guard.log.begin(), bare_guard.log.end(), "resume Patrol") == 2);
    const auto rules = bare.Transitions();
    REQUIRE(rules.size() == 3);
    CHECK((rules[0].kind == tickfsm::TransitionKind::Push && rules[0].always));
    CHECK((rules[1].kind == tickfsm::TransitionKind::Pop && rules[1].always));
    const auto found = bare.Validate();
    REQUIRE(found.size() == 1);
    CHECK(found[0].kind == tickfsm::FindingKind::NeverTried);
    CHECK(found[0].message.view().find("its pop 0 has no condition") != std::string_view::npos);
}

TEST_CASE("Push and pop mistakes are ConfigErrors and leave the machine usable", "[push][config_error]") {
    Guard guard;
    GuardMachine m(guard);
    CHECK_THROWS_WITH(m.Pop(), Catch::Contains("Pop() before the first Perform"));
    m.Perform({});
    CHECK_THROWS_WITH(m.Pop(), Catch::Contains("Pop() in state Patrol: no state is buried"));
    CHECK_THROWS_WITH(m.Push<Patrol>(), Catch::Contains("Push<Patrol>() in state Patrol: Patrol is active"));
    m.Push<Stunned>();
    m.Push<Dazed>();
    CHECK_THROWS_WITH(m.Push<Patrol>(), Catch::Contains("the push stack is full (2 buried, SetPushCapacity<2>())"));
    m.Pop();
    CHECK_THROWS_WITH(m.Push<Patrol>(), Catch::Contains("entering Patrol: it is buried by a push (under Stunned)"));
    CHECK(m.IsIn<Stunned>());
    CHECK(m.BuriedCount() == 1);
    m.Pop();
    CHECK(m.IsIn<Patrol>());
}

TEST_CASE("Pushes and pops need SetPushCapacity, set once", "[push][config_error]") {
    Guard guard;
    tickfsm::StateManager<Guard, Tick> m(guard);
    CHECK_THROWS_WITH(m.SetInitialState<Patrol>().Push<Stunned>([] { return true; }),
                      Catch::Contains("From<Patrol>().Push(): this machine has no push stack"));
    m.From<Stunned>();
    m.Perform({});
    CHECK_THROWS_WITH(m.Push<Stunned>(), Catch::Contains("add SetPushCapacity<N>()"));
    tickfsm::StateManager<Guard, Tick> twice(guard);
    twice.SetPushCapacity<1>();
    CHECK_THROWS_WITH(twice.SetPushCapacity<2>(), Catch::Contains("the push capacity is set already (1)"));
}

TEST_CASE("A dry run of a pop names the buried state", "[push]") {
    Guard guard;
    GuardMachine m(guard);
    guard.stunned = true;
    m.Perform({});
    m.Perform({});
    REQUIRE(m.IsIn<Stunned>());
    guard.stunned = false;
    guard.recovered = true;
    CHECK(m.WouldTransition({}) == m.IdOf<Patrol>());
}

TEST_CASE("A crowd pushes and pops per character", "[push][crowd]") {
    tickfsm::Crowd<GuardMachine> crowd(2);
    std::vector<Guard> guards(2);
    guards[1].stunned = true;
    for (int t = 0; t < 2; ++t)
        for (std::size_t i = 0; i < 2; ++i) crowd.Perform(i, guards[i], Tick{});
    CHECK(crowd.IsIn<Patrol>(0));
    CHECK(crowd.IsIn<Stunned>(1));
    std::array<tickfsm::StateId, 2> buried{};
    CHECK(crowd.BuriedCount(0) == 0);
    CHECK(crowd.BuriedStates(1, buried) == 1); // as StateManager::BuriedStates
    CHECK(buried[0] == crowd.IdOf<Patrol>());
    CHECK(crowd.BuriedCount(1) == 1);
    guards[1].stunned = false;
    guards[1].recovered = true;
    crowd.Perform(1, guards[1], Tick{});
    CHECK(crowd.IsIn<Patrol>(1));
    CHECK(crowd.BuriedCount(1) == 0);
    CHECK(crowd.State<Patrol>(1).steps == 1); // pushed on its first tick, before performing; the pop's tick performs
}

namespace tree {
struct Combat { // pushes Cutscene from its enter hook when the guard is stunned on arrival
    void OnStateEnter(Guard& g, const Tick&, M& m) {
        if (g.stunned) m.Push<Stunned>();
    }
};
struct Attack {};
struct Block {};
struct Alive {};
struct Legs {};
struct Run {};
struct Arms {};
struct Aim {};
struct Idle {};
} // namespace tree

TEST_CASE("A push that would bury a state it enters again, or enter a region's middle, is a ConfigError",
          "[push][nested][config_error]") {
    using namespace tree;
    Guard g;
    tickfsm::StateManager<Guard, Tick> m(g);
    m.SetPushCapacity<2>();
    m.SetSubstates<Combat, Attack, Block>();
    m.SetRegions<Alive, Legs, Arms>();
    m.SetSubstates<Legs, Run>();
    m.SetSubstates<Arms, Aim>();
    m.SetInitialState<Idle>().To<Combat>([](const Guard& c) { return c.recovered; });
    m.From<Stunned>();
    m.Perform({});
    CHECK_THROWS_WITH(m.Push<Run>(), Catch::Contains("Push<Run>() in state Idle: Run is in region Legs of Alive") &&
                                         Catch::Contains("push Alive"));
    CHECK(m.ActivePath() == "Idle");
    g.recovered = true;
    m.Perform({});
    REQUIRE(m.ActivePath() == "Combat/Attack");
    m.Perform({});
    // Block's parent Combat is active: the push would bury Combat and enter it again.
    CHECK_THROWS_WITH(m.Push<Block>(), Catch::Contains("Push<Block>() in state Attack: Combat, which holds Block, "
                                                       "is active"));
    CHECK(m.ActivePath() == "Combat/Attack");
    CHECK(m.TicksInState<Combat>() == 1);
    CHECK(m.BuriedCount() == 0);
    m.Push<Stunned>(); // outside Combat: buries the whole path
    CHECK(m.ActivePath() == "Stunned");
    std::array<tickfsm::StateId, 1> buried{};
    CHECK(m.BuriedStates(buried) == 1);
    CHECK(buried[0] == m.IdOf<Attack>()); // the leaf; Combat was buried with it
    m.Pop();
    CHECK(m.ActivePath() == "Combat/Attack");
    CHECK(m.TicksInState<Combat>() == 1);
}

TEST_CASE("A push asked for by a composite's enter hook, before its substates are entered, is a ConfigError",
          "[push][nested][config_error]") {
    using namespace tree;
    Guard g;
    tickfsm::StateManager<Guard, Tick> m(g);
    m.SetPushCapacity<1>();
    m.SetSubstates<Combat, Attack>();
    m.SetInitialState<Idle>().To<Combat>([](const Guard& c) { return c.recovered; });
    m.From<Stunned>();
    m.Perform({});
    g.recovered = true;
    g.stunned = true;
    CHECK_THROWS_WITH(m.Perform({}), Catch::Contains("Push<Stunned>() in state Combat: Combat holds substates or "
                                                     "regions that are not entered yet"));
    CHECK(m.BuriedCount() == 0);
    g.stunned = false;
    m.ForceSetState<Combat>();
    CHECK(m.ActivePath() == "Combat/Attack");
}

namespace {
struct Restless { // asks for a change while a push buries it
    void OnStatePause(Guard&, const Tick&, M& m) { m.SendEvent("wake"); }
};
} // namespace

TEST_CASE("A pause hook that asks for a change is a ConfigError, and nothing is buried", "[push][config_error]") {
    Guard g;
    tickfsm::StateManager<Guard, Tick> m(g);
    m.SetPushCapacity<1>();
    m.SetInitialState<Restless>().On("wake").To<Patrol>();
    m.From<Stunned>();
    m.Perform({});
    CHECK_THROWS_WITH(m.Push<Stunned>(), Catch::Contains("SendEvent(wake) called from an exit hook of state Restless (or "
                                                         "a pause hook, when a push buries it)"));
    CHECK(m.IsIn<Restless>());
    CHECK(m.BuriedCount() == 0);
}

namespace {
struct Dizzy { // lets the machine go back to Patrol only
    bool CanExitState(const Guard&, const tickfsm::StateRef& to) const { return to.Is<Patrol>(); }
    bool CanEnterState(const Guard&, const tickfsm::StateRef&) const { return true; }
};
struct Lookout {};
} // namespace

TEST_CASE("A Pop transition's gate is told the state it goes back to", "[push][gate]") {
    Guard g;
    tickfsm::StateManager<Guard, Tick> m(g);
    m.SetPushCapacity<2>();
    m.SetInitialState<Patrol>().Push<Dizzy>([](const Guard& c) { return c.stunned; });
    m.From<Lookout>().Push<Dizzy>([](const Guard& c) { return c.stunned; });
    m.From<Dizzy>().Pop([](const Guard& c) { return c.recovered; });
    m.Perform({});
    g.stunned = true;
    m.Perform({});
    CHECK(m.IsIn<Dizzy>());
    g.stunned = false;
    g.recovered = true;
    m.Perform({});
    CHECK(m.IsIn<Patrol>()); // the gate let it back to Patrol
    m.ForceSetState<Lookout>();
    g.recovered = false;
    g.stunned = true;
    m.Perform({});
    g.stunned = false;
    g.recovered = true;
    m.Perform({});
    CHECK(m.IsIn<Dizzy>()); // told Lookout, the gate holds it
    CHECK(m.BuriedCount() == 1);
}

TEST_CASE("The dry run follows a pass-through state that pops, back to the buried state", "[push][pass_through]") {
    struct Check {}; // pushed on top; routes on at once
    struct Router : tickfsm::StateManager<Guard, Tick> {
        explicit Router(Guard& g) : StateManager(g) {
            SetPushCapacity<1>();
            SetPassThrough<Check>();
            SetInitialState<Patrol>().Push<Check>([](const Guard& c) { return c.stunned; });
            From<Check>().To<Stunned>([](const Guard& c) { return !c.recovered; }).Pop();
            From<Stunned>();
        }
    };
    Guard g;
    Router m(g);
    m.Perform(Tick{});
    g.stunned = true;
    g.recovered = true;
    CHECK(m.WouldTransition(Tick{}) == m.IdOf<Patrol>()); // Patrol -> Check (pass-through) -> popped back to Patrol
    g.recovered = false;
    CHECK(m.WouldTransition(Tick{}) == m.IdOf<Stunned>());
    m.Perform(Tick{});
    CHECK(m.IsIn<Stunned>());
}
