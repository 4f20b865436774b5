// Per-state action lists (Do<X>(args...)) and the ready-made actions.

#include <catch2/catch.hpp>

#include <algorithm>
#include <limits>
#include <string>
#include <vector>

#include <tickfsm/tickfsm.hpp>

namespace {

struct Hero {
    std::vector<std::string> log;
    float x = 0;
};
struct Pad {
    bool go = false;
};
using M = tickfsm::Machine<Hero, Pad>;

inline constexpr tickfsm::Event Go{"Go"};
inline constexpr tickfsm::Event Back{"Back"};

struct Note { // an action with data, built with arguments
    std::string text;
    int updates = 0;
    explicit Note(std::string t) : text(std::move(t)) {}
    void OnEnter(Hero& h, const Pad&) { h.log.push_back("enter " + text); }
    void OnUpdate(Hero& h, const Pad&) {
        ++updates;
        h.log.push_back("update " + text);
    }
    void OnExit(Hero& h, const Pad&) { h.log.push_back("exit " + text); }
};
struct GoWhenPressed {
    void OnUpdate(Hero& h, const Pad& p, M& m) {
        h.log.push_back("update go?");
        if (p.go) m.SendEvent(Go);
    }
};
struct Mover {
    float speed = 1;
    void OnUpdate(Hero& h, const Pad&) { h.x += speed; }
};

struct A {
    void OnStateEnter(Hero& h, const Pad&) { h.log.push_back("enter A"); }
    void Perform(Hero& h, const Pad&) { h.log.push_back("perform A"); }
    void OnStateExit(Hero& h, const Pad&) { h.log.push_back("exit A"); }
};
struct B {};

} // namespace

TEST_CASE("A state's actions run in order after its own enter, perform and exit", "[action]") {
    Hero h;
    tickfsm::StateManager<Hero, Pad> m(h);
    m.SetInitialState<A>().Do<Note>("one").Do<Note>("two").On(Go).To<B>();
    m.Perform({});
    CHECK(h.log == std::vector<std::string>{"enter A", "enter one", "enter two", "perform A", "update one",
                                            "update two"});
    h.log.clear();
    m.SendEvent(Go);
    CHECK(h.log == std::vector<std::string>{"exit A", "exit one", "exit two"});
}

TEST_CASE("When an action changes the state, the rest of that list is skipped", "[action]") {
    Hero h;
    tickfsm::StateManager<Hero, Pad> m(h);
    m.SetInitialState<A>().Do<GoWhenPressed>().Do<Note>("after").On(Go).To<B>();
    m.Perform({});
    h.log.clear();
    m.Perform({true});
    CHECK(h.log == std::vector<std::string>{"perform A", "update go?", "exit A", "exit after"});
    CHECK(m.IsIn<B>());
}

TEST_CASE("Each machine has its own copy of each action", "[action][data]") {
    Hero h1, h2;
    auto configure = [](tickfsm::StateManager<Hero, Pad>& m) { m.SetInitialState<A>().Do<Note>("n"); };
    tickfsm::StateManager<Hero, Pad> m1(h1), m2(h2);
    configure(m1);
    configure(m2);
    for (int i = 0; i < 3; ++i) m1.Perform({});
    m2.Perform({});
    CHECK(std::count(h1.log.begin(), h1.log.end(), "update n") == 3);
    CHECK(std::count(h2.log.begin(), h2.log.end(), "update n") == 1);
}

TEST_CASE("Actions without arguments keep the table shared", "[action][shared]") {
    Hero h1, h2;
    tickfsm::StateManager<Hero, Pad> m1(h1), m2(h2);
    for (auto* m : {&m1, &m2}) m->SetInitialState<A>().Do<Mover>();
    m1.Perform({});
    m2.Perform({});
    CHECK(m1.SharesTable());
    CHECK(h1.x == 1.0f);
}

TEST_CASE("Changing state from an exit hook is an error", "[action][error]") {
    struct LeavesLoudly {
        void OnExit(Hero&, const Pad&, M& m) { m.SendEvent(Back); }
    };
    Hero h;
    tickfsm::StateManager<Hero, Pad> m(h);
    m.SetInitialState<A>().Do<LeavesLoudly>().On(Go).To<B>();
    m.From<B>().On(Back).To<A>();
    m.Perform({});
    REQUIRE_THROWS_WITH(m.SendEvent(Go), Catch::Matchers::Contains("SendEvent(Back) called from an exit hook of state A"));
}

TEST_CASE("An action can be attached only through the builder of its own state", "[action]") {
    // The seed's bug (Jumping's and Die's actions added to Running) cannot be
    // written: Do<X>() belongs to the From<S>() builder, which names S.
    Hero h;
    tickfsm::StateManager<Hero, Pad> m(h);
    m.SetInitialState<A>().On(Go).To<B>();
    m.From<B>().Do<Note>("on B");
    m.Perform({});
    CHECK(std::count(h.log.begin(), h.log.end(), "update on B") == 0);
    m.SendEvent(Go);
    m.Perform({});
    CHECK(std::count(h.log.begin(), h.log.end(), "update on B") == 1);
}

TEST_CASE("TimedWait sends its event once the state has lasted that long", "[action][ready]") {
    Hero h;
    tickfsm::StateManager<Hero, Pad> m(h, 0.25f);
    m.SetInitialState<A>().Do<tickfsm::TimedWait>(1.0f, Go).On(Go).To<B>();
    m.Perform({}); // t = 0.25
    m.Perform({}); // 0.5
    m.Perform({}); // 0.75
    CHECK(m.IsIn<A>());
    m.Perform({}); // 1.0: sent
    CHECK(m.IsIn<B>());
}

TEST_CASE("TimedWait refuses a wait that is negative or not finite, naming the machine and the state",
          "[action][ready][config_error]") {
    Hero h;
    tickfsm::StateManager<Hero, Pad> m(h, 0.25f);
    auto a = m.SetInitialState<A>();
    for (const float wait : {-1.0f, std::numeric_limits<float>::quiet_NaN(), std::numeric_limits<float>::infinity()})
        CHECK_THROWS_WITH(m.From<A>().Do<tickfsm::TimedWait>(wait, Go),
                          Catch::Contains("StateManager<Hero, Pad>: From<A>().Do<TimedWait>(...): the wait "
                                          "must be a finite number of seconds, 0 or more"));
    std::move(a).Do<tickfsm::TimedWait>(0.0f, Go).On(Go).To<B>(); // no wait: the first update sends
    m.Perform({});
    CHECK(m.IsIn<B>());
}

TEST_CASE("SendEventWhen sends its event on the first update its condition holds", "[action][ready]") {
    Hero h;
    tickfsm::StateManager<Hero, Pad> m(h);
    auto pressed = [](const Hero&, const Pad& p) { return p.go; };
    m.SetInitialState<A>().Do<tickfsm::SendEventWhen>(pressed, Go).On(Go).To<B>();
    m.Perform({});
    CHECK(m.IsIn<A>());
    m.Perform({true});
    CHECK(m.IsIn<B>());
}

namespace {
struct SendGoOnEnter {
    void OnEnter(Hero&, const Pad&, M& m) { m.SendEvent(Go); }
};
struct Sound {
    void OnEnter(Hero& h, const Pad&) { h.log.push_back("sound on"); }
    void OnExit(Hero& h, const Pad&) { h.log.push_back("sound off"); }
};
} // namespace

TEST_CASE("Leaving a state runs every action's OnExit, even one whose OnEnter a change skipped",
          "[action][order]") {
    Hero h;
    tickfsm::StateManager<Hero, Pad> m(h);
    m.SetInitialState<A>().Do<SendGoOnEnter>().Do<Sound>().On(Go).To<B>();
    m.From<B>();
    m.Perform({});
    CHECK(m.IsIn<B>());
    CHECK(std::count(h.log.begin(), h.log.end(), "sound on") == 0);
    CHECK(std::count(h.log.begin(), h.log.end(), "sound off") == 1); // as seed 000's ExitState does
}

namespace {
struct CountUnhandled : tickfsm::Observer {
    int unhandled = 0;
    void OnUnhandledEvent(std::string_view, std::string_view, const tickfsm::Event&) override { ++unhandled; }
};
inline constexpr tickfsm::Event Ping{"Ping"};
} // namespace

TEST_CASE("TimedWait and SendEventWhen send once per visit, not on every tick after", "[action][ready]") {
    Hero h;
    CountUnhandled heard;
    tickfsm::StateManager<Hero, Pad> m(h, 0.25f);
    auto pressed = [](const Hero&, const Pad& p) { return p.go; };
    m.SetInitialState<A>()
        .Do<tickfsm::TimedWait>(0.5f, Ping) // nothing handles Ping
        .Do<tickfsm::SendEventWhen>(pressed, Ping)
        .On(Go)
        .To<A>();
    m.SetObserver(&heard);
    for (int i = 0; i < 6; ++i) m.Perform({true});
    CHECK(heard.unhandled == 2); // one each
    m.SendEvent(Go);             // A again: both are armed again
    for (int i = 0; i < 6; ++i) m.Perform({true});
    CHECK(heard.unhandled == 4);
}

TEST_CASE("LogLine writes a line when its state is entered", "[action][ready]") {
    Hero h;
    std::string out;
    tickfsm::StateManager<Hero, Pad> m(h);
    m.SetInitialState<A>().Do<tickfsm::LogLine>("hello", out).On(Go).To<B>();
    m.From<B>().Do<tickfsm::LogLine>("bye", out, tickfsm::LogLine::Enter | tickfsm::LogLine::Update);
    m.Perform({});
    m.SendEvent(Go);
    m.Perform({});
    CHECK(out == "[A] hello\n[B] bye\n[B] bye\n");
}

namespace {
struct Combat {};
struct Swing {};
struct Parry {};
struct Drain { // a global state's action
    void OnEnter(Hero& h, const Pad&) { h.log.push_back("enter drain"); }
    void OnUpdate(Hero& h, const Pad&, M& m) { h.log.push_back("drain " + std::string(m.StateName())); }
    void OnExit(Hero& h, const Pad&) { h.log.push_back("exit drain"); }
};
struct Battery {};
struct OwnTime { // reads the time of the state it belongs to
    void OnUpdate(Hero& h, const Pad&, M& m) {
        h.log.push_back(std::string(m.StateName()) + " " + std::to_string(m.TicksInState()) + " leaf " +
                        std::string(m.CurrentStateName()));
    }
};
} // namespace

TEST_CASE("A composite's actions read the composite's own time and name, not its leaf's", "[action][nested]") {
    Hero h;
    std::string out;
    tickfsm::StateManager<Hero, Pad> m(h, 0.25f);
    m.SetSubstates<Combat, Swing, Parry>();
    m.SetInitialState<Combat>()
        .Do<tickfsm::TimedWait>(1.0f, Go)
        .Do<OwnTime>()
        .Do<tickfsm::LogLine>("combat", out, tickfsm::LogLine::Enter | tickfsm::LogLine::Exit)
        .On(Go)
        .To<B>();
    m.From<Swing>().To<Parry>([](const Hero&, const Pad&) { return true; });
    m.From<Parry>().To<Swing>([](const Hero&, const Pad&) { return true; });
    m.Perform({}); // starts in Combat/Swing and changes to Parry: the leaf's time restarts every tick
    m.Perform({});
    m.Perform({});
    CHECK(m.IsIn<Combat>());
    m.Perform({}); // Combat's own time reaches 1 s: TimedWait sends Go
    CHECK(m.IsIn<B>());
    CHECK(out == "[Combat] combat\n[Combat] combat\n");
    CHECK(h.log == std::vector<std::string>{"Combat 1 leaf Parry", "Combat 2 leaf Swing", "Combat 3 leaf Parry"});
}

TEST_CASE("A global state's action list runs with its enter, perform and exit", "[action][global]") {
    Hero h;
    tickfsm::StateManager<Hero, Pad> m(h);
    m.SetInitialState<A>();
    m.From<Battery>().Do<Drain>();
    m.SetGlobalState<Battery>();
    m.Perform({});
    m.ClearGlobalState();
    CHECK(h.log == std::vector<std::string>{"enter A", "enter drain", "drain Battery", "perform A", "exit drain"});
}
