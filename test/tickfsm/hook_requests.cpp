// Changes asked from hooks in the less common places: entering a state with
// arguments, the global state's own hooks, OnStateInit, and a dry run's
// conditions. Each rule here is one the README states.

#include <catch2/catch.hpp>

#include <cstdint>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include <tickfsm/tickfsm.hpp>

namespace {

struct Bot {
    std::vector<std::string> log;
    tickfsm::StateManager<Bot, int>* machine = nullptr;
    int ask = 0; // what the hooks under test ask for (each test says)
};
using M = tickfsm::Machine<Bot, int>;

std::vector<std::string>* g_log = nullptr; // where a Walk built with arguments says so

struct Walk {
    int steps = 0;
    Walk() = default;
    explicit Walk(int n) : steps(n) {
        if (n < 0) throw std::invalid_argument("negative steps");
        if (g_log) g_log->push_back("build Walk " + std::to_string(n));
    }
    void OnStateEnter(Bot& b, const int&) { b.log.push_back("enter Walk " + std::to_string(steps)); }
    void OnStateExit(Bot& b, const int&) { b.log.push_back("exit Walk"); }
};
struct Run {};
struct Stand {
    void OnStateExit(Bot& b, const int&) { b.log.push_back("exit Stand"); }
    void Perform(Bot& b, const int&, M& m) {
        if (b.ask == 1) m.ForceSetState<Walk>(7);
        if (b.ask == 2) {
            m.ForceSetState<Walk>(7);
            m.ForceSetState<Run>(); // the last request wins: Walk's object is not rebuilt
        }
    }
};

/// A global state that, from its own Perform, asks to enter itself with arguments.
struct Greedy {
    int power = 0;
    Greedy() = default;
    explicit Greedy(int p) : power(p) {}
    void Perform(Bot&, const int&, M& m) { m.ForceSetState<Greedy>(power + 1); }
};

/// A global state whose enter and exit hooks reach the machine.
struct Watcher {
    void OnStateEnter(Bot& b, const int&, M& m) {
        b.log.push_back(m.IsIn<Stand>() ? "Watcher sees Stand" : "Watcher sees no Stand");
        if (b.ask == 3) m.TrySetState<Run>();
        if (b.ask == 4) m.SendEvent("Go");
    }
    void OnStateExit(Bot& b, const int&, M& m) {
        b.log.push_back("exit Watcher");
        if (b.ask == 5) m.SendEvent("Go");
        if (b.ask == 6) m.NextState<Run>();
    }
};

class BotStateManager : public tickfsm::StateManager<Bot, int> {
public:
    explicit BotStateManager(Bot& b) : StateManager(b) {
        b.machine = this;
        SetInitialState<Stand>().On("Go").To<Walk>();
        From<Walk>();
        From<Run>();
        From<Greedy>();
        From<Watcher>();
    }
};

} // namespace

TEST_CASE("A state entered with arguments from a hook is built between the exit and the enter",
          "[hook][arguments]") {
    Bot b;
    g_log = &b.log;
    BotStateManager m(b);
    m.Perform(0);
    b.ask = 1;
    m.Perform(0);
    g_log = nullptr;
    CHECK(b.log == std::vector<std::string>{"exit Stand", "build Walk 7", "enter Walk 7"});
    CHECK(m.State<Walk>().steps == 7);
}

/// A state built from several arguments, one of them move-only.
struct Carry {
    std::string what;
    int load = 0;
    int count = 0;
    Carry() = default;
    Carry(std::string w, std::unique_ptr<int> l, int n) : what(std::move(w)), load(*l), count(n) {}
};
struct Pick {
    void Perform(Bot& b, const int&, M& m) {
        if (b.ask == 7) m.ForceSetState<Carry>(std::string("crate"), std::make_unique<int>(40), 3);
    }
};
class CarryStateManager : public tickfsm::StateManager<Bot, int> {
public:
    explicit CarryStateManager(Bot& b) : StateManager(b) {
        SetInitialState<Pick>();
        From<Carry>();
    }
};

TEST_CASE("A state entered from a hook is built from every argument it was given, a move-only one included",
          "[hook][arguments]") {
    Bot b;
    CarryStateManager m(b);
    m.Perform(0);
    b.ask = 7;
    m.Perform(0);
    REQUIRE(m.IsIn<Carry>());
    CHECK(m.State<Carry>().what == "crate");
    CHECK(m.State<Carry>().load == 40);
    CHECK(m.State<Carry>().count == 3);
}
TEST_CASE("Arguments of a request that a later request replaced build nothing", "[hook][arguments]") {
    Bot b;
    BotStateManager m(b);
    m.State<Walk>().steps = 3;
    m.Perform(0);
    b.ask = 2;
    m.Perform(0);
    CHECK(m.IsIn<Run>());
    CHECK(m.State<Walk>().steps == 3);
}

TEST_CASE("A global state cannot enter itself with arguments from its own Perform", "[global][arguments][error]") {
    Bot b;
    BotStateManager m(b);
    m.Perform(0);
    m.SetGlobalState<Greedy>();
    m.State<Greedy>().power = 5;
    REQUIRE_THROWS_WITH(m.Perform(0), Catch::Matchers::Contains("entering Greedy with arguments from one of its own "
                                                                "hooks"));
    CHECK(m.State<Greedy>().power == 5);
    CHECK(m.IsIn<Stand>());
}

TEST_CASE("A global state set before the first Perform is entered after the initial state", "[global]") {
    Bot b;
    BotStateManager m(b);
    m.SetGlobalState<Watcher>();
    CHECK(b.log.empty());
    m.Perform(0);
    CHECK(b.log == std::vector<std::string>{"Watcher sees Stand"});
    CHECK(m.IsIn<Stand>());
}

TEST_CASE("A change the waiting global state's enter hook asks for applies when it is entered", "[global]") {
    Bot b;
    BotStateManager m(b);
    SECTION("TrySetState") {
        b.ask = 3;
        m.SetGlobalState<Watcher>();
        m.Perform(0);
        CHECK(m.IsIn<Run>());
    }
    SECTION("an event") {
        b.ask = 4;
        m.SetGlobalState<Watcher>();
        m.Perform(0);
        CHECK(m.IsIn<Walk>());
    }
    SECTION("a direct change that starts the machine enters it too") {
        m.SetGlobalState<Watcher>();
        m.ForceSetState<Run>();
        CHECK(b.log == std::vector<std::string>{"Watcher sees no Stand"});
        CHECK(m.IsIn<Run>());
    }
}

TEST_CASE("A global state cleared before the machine started was never entered, so it is not exited", "[global]") {
    Bot b;
    BotStateManager m(b);
    m.SetGlobalState<Watcher>();
    m.ClearGlobalState();
    m.Perform(0);
    CHECK(b.log.empty());
    CHECK(m.GlobalStateName().empty());
}

TEST_CASE("The global state's exit hook cannot change state", "[global][error]") {
    Bot b;
    BotStateManager m(b);
    m.Perform(0);
    m.SetGlobalState<Watcher>();
    b.ask = 5;
    SECTION("on ClearGlobalState, an event") {
        REQUIRE_THROWS_WITH(m.ClearGlobalState(), Catch::Matchers::Contains("SendEvent(Go) called from an exit hook"));
    }
    SECTION("when replaced, an event") {
        REQUIRE_THROWS_WITH(m.SetGlobalState<Greedy>(), Catch::Matchers::Contains("called from an exit hook"));
    }
    SECTION("on ClearGlobalState, NextState") {
        b.ask = 6;
        REQUIRE_THROWS_WITH(m.ClearGlobalState(), Catch::Matchers::Contains("NextState() called from an exit hook"));
        m.Perform(0);
    }
    CHECK(m.IsIn<Stand>());
}

namespace {

struct Counted {
    int inits = 0;
};
struct Eager { // its OnStateInit reaches for the machine it initializes
    void OnStateInit(Counted& c);
};
struct Plain {
    void OnStateInit(Counted& c) { ++c.inits; }
};
struct Fragile {
    void OnStateInit(Counted& c) {
        if (c.inits < 2) throw std::runtime_error("not yet");
        c.inits += 10;
    }
};
tickfsm::StateManager<Counted, int>* g_machine = nullptr;
int g_call = 0;
void Eager::OnStateInit(Counted&) {
    if (g_call == 0) g_machine->Perform(0);
    if (g_call == 1) g_machine->ForceSetState<Plain>();
    if (g_call == 2) g_machine->Reset();
}

} // namespace

TEST_CASE("An OnStateInit cannot tick, change or reset the machine it initializes", "[init][error]") {
    Counted c;
    tickfsm::StateManager<Counted, int> m(c);
    g_machine = &m;
    m.SetInitialState<Plain>();
    m.From<Eager>();
    g_call = GENERATE(0, 1, 2);
    // The message names the state whose OnStateInit made the call.
    SECTION("through Initialize()") { REQUIRE_THROWS_WITH(m.Initialize(), Catch::Contains("(state Eager)")); }
    SECTION("on the first Perform") { REQUIRE_THROWS_WITH(m.Perform(0), Catch::Contains("(state Eager)")); }
    CHECK(c.inits == 1); // Plain's OnStateInit ran once, not again by a nested call
    CHECK_FALSE(m.IsStarted());
    g_call = -1;
    m.Perform(0);
    CHECK(c.inits == 1);
    CHECK(m.IsIn<Plain>());
}

TEST_CASE("After an OnStateInit throws, the next Perform resumes with that state", "[init]") {
    Counted c;
    tickfsm::StateManager<Counted, int> m(c);
    m.SetInitialState<Plain>();
    m.From<Fragile>();
    m.From<Plain>();
    REQUIRE_THROWS_WITH(m.Perform(0), "not yet");
    CHECK(c.inits == 1);
    CHECK_FALSE(m.IsStarted());
    CHECK(m.TicksInState() == 0); // not started: no time in any state
    CHECK(m.TimeInState() == 0.0);
    c.inits = 2;
    m.Perform(0);
    CHECK(c.inits == 12); // Fragile's init, once; Plain's did not run again
    CHECK(m.IsIn<Plain>());
    CHECK(m.TicksInState() == 1);
}

namespace {

struct Idle {};
struct Next {
    void Perform(Bot&, const int&, M& m) { m.NextState<Idle>(); }
};

} // namespace

TEST_CASE("WouldTransition reports a waiting NextState request", "[query][next_state]") {
    Bot b;
    tickfsm::StateManager<Bot, int> m(b);
    m.SetInitialState<Next>().To<Run>([](const Bot&, const int& in) { return in == 1; });
    m.From<Idle>();
    m.From<Run>();
    m.Perform(0);
    CHECK(m.WouldTransition(1) == m.IdOf<Idle>()); // the request comes before the conditions
    m.Perform(1);
    CHECK(m.IsIn<Idle>());
}

TEST_CASE("A condition that reaches the machine during WouldTransition is refused and changes nothing",
          "[query][error]") {
    Bot b;
    tickfsm::StateManager<Bot, int> m(b);
    m.SetInitialState<Stand>()
        .On("Go")
        .To<Walk>()
        .To<Run>([&m](const Bot&, const int& in) { return in == 1 && m.SendEvent("Go"); });
    m.From<Walk>();
    m.From<Run>();
    m.Perform(0);
    REQUIRE_THROWS_AS(m.WouldTransition(1), tickfsm::ConfigError);
    CHECK(m.IsIn<Stand>());
    m.Perform(0); // the machine still ticks
    CHECK(m.IsIn<Stand>());
}

TEST_CASE("A state constructor that throws when entered with arguments leaves the old state, exited",
          "[arguments][exception]") {
    Bot b;
    BotStateManager m(b);
    m.Perform(0);
    m.State<Walk>().steps = 3;
    REQUIRE_THROWS_AS(m.ForceSetState<Walk>(-1), std::invalid_argument);
    CHECK(b.log == std::vector<std::string>{"exit Stand"});
    CHECK(m.IsIn<Stand>());
    CHECK(m.State<Walk>().steps == 3);
    m.Perform(0); // still ticks, in Stand
    CHECK(m.IsIn<Stand>());
}

TEST_CASE("WouldTransition at saturated ticks sees the time the next tick will see", "[query][time]") {
    Bot b;
    tickfsm::StateManager<Bot, int> m(b);
    m.SetInitialState<Idle>().To<Run>([](const Bot&, const int&, float t) { return t < 1.0f; });
    m.From<Run>();
    m.Perform(0);
    m.ForceSetState<Idle>(); // 0 ticks: the next tick's time is 1/60 s, so the condition holds
    CHECK(m.WouldTransition(0) == m.IdOf<Run>());
    tickfsm::detail::TicksAccess::Of(m) = UINT32_MAX; // the next tick stays at 2^32-1 ticks, not 0
    CHECK_FALSE(m.WouldTransition(0).Valid());
    m.Perform(0);
    CHECK(m.IsIn<Idle>());
}
