// The tick rules of StateManager, one test a rule.

#include <catch2/catch.hpp>

#include <cmath>
#include <stdexcept>
#include <string>
#include <vector>

#include <tickfsm/tickfsm.hpp>

namespace {

struct Bot {
    std::vector<std::string> log;
    int go = -1; // which transition should hold
    bool stop_throwing = false;
};
struct Cmd {
    int value = 0;
};

template <int N>
struct Logged {
    static constexpr std::string_view Name = N == 0 ? "A" : N == 1 ? "B" : "C";
    void OnStateEnter(Bot& b, const Cmd&) { b.log.push_back(std::string("enter ") + std::string(Name)); }
    void Perform(Bot& b, const Cmd&) { b.log.push_back(std::string("perform ") + std::string(Name)); }
    void OnStateExit(Bot& b, const Cmd&) { b.log.push_back(std::string("exit ") + std::string(Name)); }
};
using A = Logged<0>;
using B = Logged<1>;
using C = Logged<2>;

struct Plain {}; // no hooks, no Name
struct Counter {
    int performed = 0;
    void Perform(Bot&, const Cmd&) { ++performed; }
};

using Manager = tickfsm::StateManager<Bot, Cmd>;

} // namespace

TEST_CASE("The initial state is entered on the first Perform, not before", "[tick]") {
    Bot bot;
    Manager m(bot);
    m.SetInitialState<A>();
    CHECK(bot.log.empty());
    CHECK_FALSE(m.IsIn<A>());
    CHECK_FALSE(m.IsStarted());
    CHECK(m.CurrentStateName().empty());
    m.Perform({});
    CHECK(bot.log == std::vector<std::string>{"enter A", "perform A"});
    CHECK(m.IsIn<A>());
    CHECK(m.TicksInState() == 1);
}

TEST_CASE("Ticks in state count from zero on the tick a state is entered", "[tick]") {
    Bot bot;
    Manager m(bot);
    m.SetInitialState<A>().To<B>([](const Bot& b) { return b.go == 1; });
    m.Perform({});
    m.Perform({});
    m.Perform({});
    CHECK(m.TicksInState() == 3);
    bot.go = 1;
    m.Perform({});
    CHECK(m.IsIn<B>());
    CHECK(m.TicksInState() == 0);
    CHECK(m.TimeInState() == 0.0f);
    m.Perform({});
    CHECK(m.TicksInState() == 1);
}

TEST_CASE("A transition runs exit, then enter, then the new state performs in the same tick", "[tick]") {
    Bot bot;
    Manager m(bot);
    m.SetInitialState<A>().To<B>([](const Bot& b) { return b.go == 1; });
    m.Perform({});
    bot.log.clear();
    bot.go = 1;
    m.Perform({});
    CHECK(bot.log == std::vector<std::string>{"exit A", "enter B", "perform B"});
}

TEST_CASE("Transitions are tried in declaration order and the first that holds fires", "[tick]") {
    Bot bot;
    Manager m(bot);
    std::vector<int> tried;
    m.SetInitialState<A>()
        .To<B>([&tried](const Bot&) { tried.push_back(0); return false; })
        .To<C>([&tried](const Bot&) { tried.push_back(1); return true; })
        .To<B>([&tried](const Bot&) { tried.push_back(2); return true; });
    m.Perform({});
    CHECK(tried == std::vector<int>{0, 1});
    CHECK(m.IsIn<C>());
}

TEST_CASE("At most one transition fires per Perform", "[tick]") {
    Bot bot;
    Manager m(bot);
    m.SetInitialState<A>().To<B>();
    m.From<B>().To<C>();
    m.From<C>().To<A>();
    m.Perform({});
    CHECK(m.IsIn<B>());
    m.Perform({});
    CHECK(m.IsIn<C>());
    m.Perform({});
    CHECK(m.IsIn<A>());
}

TEST_CASE("A transition to the same state exits and re-enters it", "[tick]") {
    Bot bot;
    Manager m(bot);
    m.SetInitialState<A>().To<A>([](const Bot& b) { return b.go == 0; });
    m.Perform({});
    m.Perform({});
    bot.log.clear();
    bot.go = 0;
    m.Perform({});
    CHECK(bot.log == std::vector<std::string>{"exit A", "enter A", "perform A"});
    CHECK(m.TicksInState() == 0);
}

TEST_CASE("Conditions see the time in state after this tick's increment", "[tick][time]") {
    Bot bot;
    Manager m(bot, 0.25f);
    std::vector<float> seen;
    m.SetInitialState<A>().To<B>([&seen](const Bot&, const Cmd&, float t) {
        seen.push_back(t);
        return t >= 0.75f;
    });
    for (int i = 0; i < 4; ++i) m.Perform({});
    CHECK(seen == std::vector<float>{0.25f, 0.5f, 0.75f});
    CHECK(m.IsIn<B>());
}

TEST_CASE("TimeInState is TicksInState times fixed_dt, with no accumulated drift", "[time]") {
    Bot bot;
    Manager m(bot, 1.0f / 60.0f);
    m.SetInitialState<Counter>();
    for (int i = 0; i < 100000; ++i) m.Perform({});
    CHECK(m.TicksInState() == 100000u);
    CHECK(m.TimeInState() == 100000.0 * static_cast<double>(1.0f / 60.0f));
    CHECK(std::fabs(m.TimeInState() - 100000.0f / 60.0f) < 1e-3f);
    CHECK(m.FixedDeltaTime() == 1.0f / 60.0f);
}

TEST_CASE("Several From calls for one state append their transitions in order", "[config]") {
    Bot bot;
    Manager m(bot);
    m.SetInitialState<A>().To<B>([](const Bot& b) { return b.go == 1; });
    m.From<A>().To<C>([](const Bot& b) { return b.go >= 1; });
    m.Perform({});
    bot.go = 2;
    m.Perform({});
    CHECK(m.IsIn<C>()); // only the second chain holds
    m.Reset();
    bot.go = 1;
    m.Perform({});
    CHECK(m.IsIn<B>()); // both hold: the first declared wins
}

TEST_CASE("To without a condition fires on the first tick it is tried", "[config]") {
    Bot bot;
    Manager m(bot);
    m.SetInitialState<A>().To<B>();
    m.Perform({});
    CHECK(m.IsIn<B>());
    CHECK(bot.log == std::vector<std::string>{"enter A", "exit A", "enter B", "perform B"});
}

TEST_CASE("States without hooks are allowed and a state without transitions just performs", "[config]") {
    Bot bot;
    Manager m(bot);
    m.SetInitialState<Plain>().To<Counter>();
    m.Perform({});
    m.Perform({});
    CHECK(m.IsIn<Counter>());
    CHECK(m.State<Counter>().performed == 2);
}

TEST_CASE("Reset goes back to the initial state, entered on the next Perform without hooks now", "[tick]") {
    Bot bot;
    Manager m(bot);
    m.SetInitialState<A>().To<B>();
    m.Perform({});
    REQUIRE(m.IsIn<B>());
    bot.log.clear();
    m.Reset();
    CHECK(bot.log.empty());
    CHECK_FALSE(m.IsStarted());
    CHECK_FALSE(m.IsIn<B>());
    m.Perform({});
    CHECK(bot.log == std::vector<std::string>{"enter A", "exit A", "enter B", "perform B"});
}

TEST_CASE("WouldTransition tells the next state without calling any hook", "[query]") {
    Bot bot;
    Manager m(bot, 0.5f);
    m.SetInitialState<A>()
        .To<B>([](const Bot& b) { return b.go == 1; })
        .To<C>([](const Bot&, const Cmd& c, float t) { return c.value == 7 && t >= 1.0f; });
    CHECK_FALSE(m.WouldTransition({}).Valid());
    bot.go = 1;
    CHECK(m.WouldTransition({}) == m.IdOf<B>()); // before start: as if A had just been entered
    CHECK(bot.log.empty());
    bot.go = -1;
    CHECK_FALSE(m.WouldTransition({7}).Valid()); // the first tick sees t = 0.5
    CHECK(bot.log.empty());
    CHECK_FALSE(m.IsStarted());
}

TEST_CASE("WouldTransition evaluates at the time the next tick will have", "[query][time]") {
    Bot bot;
    Manager m(bot, 0.5f);
    m.SetInitialState<A>().To<C>([](const Bot&, const Cmd& c, float t) { return c.value == 7 && t >= 1.0f; });
    m.Perform({}); // t = 0.5 after this tick
    bot.log.clear();
    const auto next = m.WouldTransition({7}); // the next tick sees t = 1.0
    REQUIRE(next.Valid());
    CHECK(next == m.IdOf<C>());
    CHECK(m.StateName(next) == "C");
    CHECK(bot.log.empty());
    CHECK(m.IsIn<A>());
    CHECK(m.TicksInState() == 1);
}

TEST_CASE("CurrentStateName uses a state's Name, else its unqualified class name", "[query]") {
    Bot bot;
    Manager m(bot);
    m.SetInitialState<Plain>().To<A>([](const Bot& b) { return b.go == 1; });
    m.Perform({});
    CHECK(m.CurrentStateName() == "Plain");
    bot.go = 1;
    m.Perform({});
    CHECK(m.CurrentStateName() == "A");
    CHECK(m.StateName(m.IdOf<Plain>()) == "Plain");
    CHECK_FALSE(m.IdOf<Counter>().Valid());
    CHECK(m.StateCount() == 2);
}

TEST_CASE("State<S>() is this manager's one object of S", "[query]") {
    Bot bot1, bot2;
    Manager m1(bot1), m2(bot2);
    m1.SetInitialState<Counter>();
    m2.SetInitialState<Counter>();
    for (int i = 0; i < 3; ++i) m1.Perform({});
    m2.Perform({});
    CHECK(&m1.State<Counter>() == &m1.State<Counter>());
    CHECK(&m1.State<Counter>() != &m2.State<Counter>());
    CHECK(m1.State<Counter>().performed == 3);
    CHECK(m2.State<Counter>().performed == 1);
}

namespace {
int sentries_alive = 0;
// No data members, but a constructor and destructor with effects (a sound
// started and stopped, a counter of live guards).
struct Sentry {
    Sentry() { ++sentries_alive; }
    Sentry(const Sentry&) { ++sentries_alive; }
    ~Sentry() { --sentries_alive; }
    void Perform(Bot&, const Cmd&) {}
};
} // namespace

TEST_CASE("A state without data whose constructor has effects is one object per manager", "[query][data]") {
    CHECK(sentries_alive == 0); // not made before main, as a shared object would be
    {
        Bot bot1, bot2;
        Manager m1(bot1), m2(bot2);
        m1.SetInitialState<Sentry>();
        m2.SetInitialState<Sentry>();
        m1.Perform({});
        m2.Perform({});
        CHECK(sentries_alive == 2);
        CHECK(&m1.State<Sentry>() != &m2.State<Sentry>());
        const tickfsm::Snapshot saved = m1.Save(); // nothing to save, and no refusal
        m1.Perform({});
        m1.Restore(saved);
        CHECK(m1.IsIn<Sentry>());
    }
    CHECK(sentries_alive == 0);
}

namespace {
struct Big {
    alignas(32) double values[8] = {};
    int entered = 0;
    void OnStateEnter(Bot&, const Cmd&) { ++entered; }
};
struct Small {
    char tag = 'x';
    int entered = 0;
    void OnStateEnter(Bot&, const Cmd&) { ++entered; }
};
} // namespace

TEST_CASE("States with data keep their data and alignment as more states are added", "[config][data]") {
    Bot bot;
    Manager m(bot);
    m.SetInitialState<Small>().To<Big>([](const Bot& b) { return b.go == 1; });
    m.State<Small>().tag = 'q';
    m.From<Big>().To<Small>([](const Bot& b) { return b.go == 0; });
    CHECK(m.State<Small>().tag == 'q');
    CHECK(reinterpret_cast<std::uintptr_t>(&m.State<Big>()) % 32 == 0);
    m.Perform({});
    bot.go = 1;
    m.Perform({});
    bot.go = 0;
    m.Perform({});
    CHECK(m.State<Small>().entered == 2);
    CHECK(m.State<Big>().entered == 1);
    CHECK(m.State<Small>().tag == 'q');
}

TEST_CASE("Two managers on two controllers stay independent", "[tick]") {
    Bot left, right;
    Manager ml(left), mr(right);
    for (Manager* m : {&ml, &mr}) {
        m->SetInitialState<A>().To<B>([](const Bot& b) { return b.go == 1; });
        m->From<B>().To<A>([](const Bot& b) { return b.go == 0; });
    }
    ml.Perform({});
    mr.Perform({});
    left.go = 1;
    ml.Perform({});
    mr.Perform({});
    CHECK(ml.IsIn<B>());
    CHECK(mr.IsIn<A>());
    CHECK(mr.TicksInState() == 2);
    CHECK(ml.TicksInState() == 0);
    CHECK(&ml.GetController() == &left);
    CHECK(&mr.GetController() == &right);
}

TEST_CASE("A manager can be configured from outside, by a tool or a test", "[config]") {
    Bot bot;
    Manager m(bot);
    m.SetInitialState<A>();
    m.From<A>().To<B>([](const Bot&, const Cmd& c) { return c.value > 0; });
    m.Perform({1});
    CHECK(m.IsIn<B>());
}

namespace regression {
// States named like the library's internals must not clash with them.
struct Step {};
struct Table {};
struct Node {};
struct Block {};
struct Record {};
struct Data {};
class Clashing : public tickfsm::StateManager<Bot, Cmd> {
public:
    explicit Clashing(Bot& b) : StateManager(b) {
        SetInitialState<Step>().To<Table>();
        From<Table>().To<Node>();
        From<Node>().To<Block>();
        From<Block>().To<Record>();
        From<Record>().To<Data>();
    }
};
} // namespace regression

TEST_CASE("States may be named like the library's internal names", "[regression]") {
    Bot bot;
    regression::Clashing m(bot);
    for (int i = 0; i < 6; ++i) m.Perform({});
    CHECK(m.IsIn<regression::Data>());
}

// A StateManager's fast tick calls the step it keeps for its current state
// (see docs/internals.md): every change made between ticks must leave
// the next tick running the state it changed to, never the step of the state
// before it.
namespace {
struct Pace {
    std::vector<std::string> log;
};
struct Walk {
    void Perform(Pace& p, const int&) { p.log.push_back("walk"); }
};
struct Run {
    void Perform(Pace& p, const int&) { p.log.push_back("run"); }
};
struct Stop {
    void Perform(Pace& p, const int&) { p.log.push_back("stop"); }
};
struct Over {
    void Perform(Pace& p, const int&) { p.log.push_back("over"); }
};
struct CountingObserver : tickfsm::Observer {
    int transitions = 0;
    void OnTransition(const tickfsm::TransitionInfo&) override { ++transitions; }
};
} // namespace

TEST_CASE("After a change made between ticks, the next tick runs the state it changed to", "[tick][regression]") {
    Pace p;
    tickfsm::StateManager<Pace, int> m(p);
    m.SetInitialState<Walk>().To<Run>([](const Pace&, const int& in) { return in == 1; });
    m.From<Run>().To<Walk>([](const Pace&, const int& in) { return in == 2; });
    m.From<Stop>().On("go").To<Walk>();
    m.State<Over>();
    CountingObserver observer;

    m.Perform(0); // walk
    m.Perform(0); // walk, on the fast path
    REQUIRE(m.TrySetState<Stop>());
    m.Perform(0); // stop
    REQUIRE(m.SendEvent(tickfsm::Event{"go"}, 0));
    m.Perform(0); // walk
    m.ForceSetState<Run>();
    m.Perform(0); // run
    m.Perform(2); // walk: the fast step's own transition
    m.Perform(1); // run
    m.Reset();
    m.Perform(0); // walk: the initial state again
    m.SetGlobalState<Over>();
    m.Perform(0); // over, walk
    m.ClearGlobalState();
    m.Perform(1); // run
    m.SetObserver(&observer, "pace");
    m.Perform(2); // walk, seen by the observer
    m.SetObserver(nullptr);
    m.Perform(1); // run, not seen
    const std::vector<std::string> expected{"walk", "walk", "stop", "walk", "run", "walk",
                                            "run",  "walk", "over", "walk", "run",  "walk", "run"};
    CHECK(p.log == expected);
    CHECK(observer.transitions == 1);
    CHECK(m.IsIn<Run>());
    CHECK(m.TicksInState() == 0);
}

TEST_CASE("TicksInState saturates at 2^32-1 instead of wrapping to 0, on the fast and the general path",
          "[tick][time][regression]") {
    for (const bool general : {false, true}) {
        Bot b;
        Manager m(b);
        // Holds only at 0 seconds in state: it would fire if the ticks wrapped to 0.
        m.SetInitialState<Plain>().To<A>([](const Bot&, const Cmd&, float t) { return t == 0.0f; });
        tickfsm::Observer quiet; // an observer sends every tick to the general path
        if (general) m.SetObserver(&quiet);
        m.Perform({});
        tickfsm::detail::TicksAccess::Of(m) = UINT32_MAX - 1;
        m.Perform({});
        CHECK(m.TicksInState() == UINT32_MAX);
        m.Perform({});
        CHECK(m.TicksInState() == UINT32_MAX);
        CHECK(m.IsIn<Plain>());
        CHECK(m.TimeInState() == static_cast<double>(UINT32_MAX) * static_cast<double>(1.0f / 60));
    }
}

TEST_CASE("TimeInState is ticks times fixed_dt in double, and keeps advancing past 2^24 ticks", "[time][regression]") {
    Bot b;
    Manager m(b);
    m.SetInitialState<Plain>();
    m.Perform({});
    const double dt = static_cast<double>(m.FixedDeltaTime());
    auto& ticks = tickfsm::detail::TicksAccess::Of(m);
    ticks = 1u << 24;
    const double at = m.TimeInState();
    CHECK(at == static_cast<double>(1u << 24) * dt);
    ticks = (1u << 24) + 1;
    CHECK(m.TimeInState() > at);
    CHECK(m.TimeInState() == static_cast<double>((1u << 24) + 1) * dt);
}

namespace {
struct ShadowHero {
    int hp = 0;
};
struct ShadowIdle {};
// Names a subclass is likely to use: the base class's own members must not
// take them, or the subclass fails to compile with -Wshadow -Werror (as this
// file is built).
// Names a game may give its own types: a subclass uses them unqualified, so
// the base class's private members must not take them either.
struct StateData {
    int value = 4;
};
struct Request {
    int value = 5;
};
class ShadowManager : public tickfsm::StateManager<ShadowHero, int> {
public:
    explicit ShadowManager(ShadowHero& controller) : StateManager(controller) { SetInitialState<ShadowIdle>(); }
    StateData data;
    Request request;
    static int Read(const ShadowHero& controller, int seat, int runtime, int dt, int table) {
        return controller.hp + seat + runtime + dt + table;
    }
};
} // namespace

TEST_CASE("A subclass may name its parameters controller and its types StateData without clashing with the base",
          "[state_manager][warnings]") {
    ShadowHero hero;
    ShadowManager machine(hero);
    machine.Perform(0);
    CHECK(machine.IsIn<ShadowIdle>());
    CHECK(ShadowManager::Read(hero, 1, 2, 3, 4) == 10);
    CHECK(machine.data.value + machine.request.value == 9);
}
