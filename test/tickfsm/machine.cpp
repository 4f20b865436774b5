// The Machine handle a hook can take: events from hooks, NextState, OnStateInit.

#include <catch2/catch.hpp>

#include <algorithm>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include <tickfsm/tickfsm.hpp>

namespace {

struct Gun {
    std::vector<std::string> log;
    int ammo = 0;
};
struct Trigger {
    bool pull = false;
};
using M = tickfsm::Machine<Gun, Trigger>;

struct Raise;
struct Idle;
struct Lower;

struct Init {
    void OnStateInit(Gun& g) { g.log.push_back("init Init"); }
    void Perform(Gun& g, const Trigger&, M& m) {
        g.log.push_back("run Init");
        m.NextState<Raise>();
    }
};
struct Raise {
    void OnStateInit(Gun& g) { g.log.push_back("init Raise"); }
    void OnStateEnter(Gun& g, const Trigger&) { g.log.push_back("enter Raise"); }
    void Perform(Gun& g, const Trigger&, M& m) {
        g.log.push_back("run Raise " + std::to_string(m.TicksInState()));
        if (m.TicksInState() == 2) m.NextState<Idle>();
    }
};
struct Idle {
    void OnStateEnter(Gun& g, const Trigger&) { g.log.push_back("enter Idle"); }
    void Perform(Gun& g, const Trigger& t, M& m) {
        g.log.push_back("run Idle");
        if (t.pull) {
            m.NextState<Lower>();
            m.NextState<Raise>(); // replaces the first request
        }
    }
};
struct Lower {};

class GunStateManager : public tickfsm::StateManager<Gun, Trigger> {
public:
    explicit GunStateManager(Gun& g) : StateManager(g) {
        SetInitialState<Init>();
        From<Raise>();
        From<Idle>().To<Lower>([](const Gun& gun) { return gun.ammo < 0; });
        From<Lower>();
    }
};

} // namespace

TEST_CASE("OnStateInit runs once for every state, in order, before the initial state is entered", "[machine][init]") {
    Gun g;
    GunStateManager m(g);
    m.Perform({});
    REQUIRE(g.log.size() >= 3);
    CHECK(g.log[0] == "init Init");
    CHECK(g.log[1] == "init Raise");
    CHECK(g.log[2] == "run Init");
    m.Reset();
    m.Perform({});
    CHECK(std::count(g.log.begin(), g.log.end(), "init Init") == 1); // not again after Reset
}

TEST_CASE("NextState is applied at the start of the next Perform as that tick's transition", "[machine][next]") {
    Gun g;
    GunStateManager m(g);
    m.Perform({});
    CHECK(m.IsIn<Init>()); // the request waits for the next tick
    g.log.clear();
    m.Perform({});
    CHECK(m.IsIn<Raise>());
    CHECK(g.log == std::vector<std::string>{"enter Raise", "run Raise 0"});
    m.Perform({});
    m.Perform({});
    CHECK(m.IsIn<Raise>());
    m.Perform({});
    CHECK(m.IsIn<Idle>());
}

TEST_CASE("A second NextState in the same tick replaces the first", "[machine][next]") {
    Gun g;
    GunStateManager m(g);
    for (int i = 0; i < 5; ++i) m.Perform({});
    REQUIRE(m.IsIn<Idle>());
    m.Perform({true});
    m.Perform({});
    CHECK(m.IsIn<Raise>());
}

TEST_CASE("A tick that applies NextState does not try conditions", "[machine][next]") {
    Gun g;
    GunStateManager m(g);
    for (int i = 0; i < 5; ++i) m.Perform({});
    REQUIRE(m.IsIn<Idle>());
    m.Perform({true}); // Idle asks for Raise
    g.ammo = -1;       // Idle's condition to Lower would hold now...
    m.Perform({});
    CHECK(m.IsIn<Raise>()); // ...but the request is this tick's one transition
}

namespace {
struct Opening {
    void OnStateEnter(Gun& g, const Trigger&, M& m) {
        g.log.push_back("enter Opening");
        m.NextState<Idle>();
    }
    void Perform(Gun& g, const Trigger&) { g.log.push_back("run Opening"); }
    void OnStateExit(Gun& g, const Trigger&) { g.log.push_back("exit Opening"); }
};
} // namespace

TEST_CASE("A NextState asked by the initial state's enter hook waits for the second Perform", "[machine][next]") {
    Gun g;
    tickfsm::StateManager<Gun, Trigger> m(g);
    m.SetInitialState<Opening>().To<Lower>([](const Gun&) { return true; }); // not tried while a request waits
    m.From<Idle>();
    m.Perform({});
    CHECK(m.IsIn<Opening>());
    CHECK(g.log == std::vector<std::string>{"enter Opening", "run Opening"});
    CHECK(m.WouldTransition({}) == m.IdOf<Idle>());
    g.log.clear();
    m.Perform({});
    CHECK(m.IsIn<Idle>());
    CHECK(g.log == std::vector<std::string>{"exit Opening", "enter Idle", "run Idle"});
    SECTION("and after Reset, the same") {
        m.Reset();
        g.log.clear();
        m.Perform({});
        CHECK(m.IsIn<Opening>());
        CHECK(g.log == std::vector<std::string>{"enter Opening", "run Opening"});
    }
}

TEST_CASE("NextState of a type that is not a state is an error", "[machine][error]") {
    struct Stranger {};
    struct Asks {
        void Perform(Gun&, const Trigger&, M& m) { m.NextState<Stranger>(); }
    };
    Gun g;
    tickfsm::StateManager<Gun, Trigger> m(g);
    m.SetInitialState<Asks>();
    REQUIRE_THROWS_WITH(m.Perform({}), Catch::Matchers::Contains("NextState<Stranger>()") &&
                                           Catch::Matchers::Contains("not a state"));
}

TEST_CASE("The handle reads the machine's time and state", "[machine]") {
    struct Reader {
        float seen = -1;
        bool in_self = false;
        void Perform(Gun&, const Trigger&, M& m) {
            seen = static_cast<float>(m.TimeInState());
            in_self = m.IsIn<Reader>() && m.CurrentStateName() == "Reader";
        }
    };
    Gun g;
    tickfsm::StateManager<Gun, Trigger> m(g, 0.5f);
    m.SetInitialState<Reader>();
    m.Perform({});
    m.Perform({});
    CHECK(m.State<Reader>().seen == 1.0f);
    CHECK(m.State<Reader>().in_self);
}

TEST_CASE("The handle cannot be copied or moved, so it cannot be kept", "[machine]") {
    STATIC_REQUIRE_FALSE(std::is_copy_constructible_v<M>);
    STATIC_REQUIRE_FALSE(std::is_move_constructible_v<M>);
    STATIC_REQUIRE_FALSE(std::is_copy_assignable_v<M>);
}

TEST_CASE("States that keep sending each other on without a tick are a ConfigError", "[machine][error]") {
    struct Ping {
        void OnStateEnter(Gun&, const Trigger&, M& m) { m.SendEvent("Go"); }
    };
    struct Pong {
        void OnStateEnter(Gun&, const Trigger&, M& m) { m.SendEvent("Go"); }
    };
    Gun g;
    tickfsm::StateManager<Gun, Trigger> m(g);
    m.SetInitialState<Ping>().On("Go").To<Pong>();
    m.From<Pong>().On("Go").To<Ping>();
    REQUIRE_THROWS_WITH(m.Perform({}), Catch::Matchers::Contains("state changes in a row"));
}

// Regression: a fast tick that enters a state whose own ticks need the general
// path (here Rest, because leaving it asks Walk's gate) raises kSlow on the way,
// and whatever marks the tick as running must leave it raised. Losing kSlow
// would send the next tick down a fast path that Rest does not have (a variant
// of the running mark that cleared the flags as a constant did exactly that).
TEST_CASE("A fast tick that enters a state ticking on the general path hands the next tick to it",
          "[machine][regression]") {
    struct Walk {
        void Perform(Gun& g, const Trigger&) { g.log.push_back("walk"); }
        bool CanEnterState(const Gun& g, const tickfsm::StateRef&) const { return g.ammo >= 0; }
    };
    struct Rest {
        void Perform(Gun& g, const Trigger&) { g.log.push_back("rest"); }
    };
    Gun g;
    tickfsm::StateManager<Gun, Trigger> m(g);
    m.SetInitialState<Walk>().To<Rest>([](const Gun&, const Trigger& t) { return t.pull; });
    m.From<Rest>().To<Walk>([](const Gun&, const Trigger&, float t) { return t >= 2.5f / 60.0f; });
    const Trigger pull{.pull = true};
    for (int round = 0; round < 2; ++round) {
        m.Perform({});   // Walk: the fast path, from the second round on
        m.Perform(pull); // Walk's fast step enters Rest
        m.Perform({});   // Rest: the general path
        m.Perform({});
        m.Perform({});   // back to Walk through its gate
    }
    const std::vector<std::string> expected{"walk", "rest", "rest", "rest", "walk",
                                            "walk", "rest", "rest", "rest", "walk"};
    CHECK(g.log == expected);
    CHECK(m.IsIn<Walk>());
    CHECK(m.TicksInState() == 0);
}

// Regression: a fast tick that enters a state on the general path leaves that
// state's tick to the machine's general step, which runs inside Perform's
// mark; a NextState its hook asks for there, and a throw from it, must survive
// the mark's end.
TEST_CASE("A state on the general path entered by a fast tick keeps its NextState requests", "[machine][regression]") {
    struct Aim {
        void Perform(Gun& g, const Trigger&) { g.log.push_back("aim"); }
    };
    struct Fire {
        void Perform(Gun& g, const Trigger&, M& m) {
            g.log.push_back("fire " + std::to_string(m.TicksInState()));
            if (g.ammo < 0) throw std::runtime_error("jam");
            if (m.TicksInState() == 2) m.NextState<Aim>();
        }
    };
    Gun g;
    tickfsm::StateManager<Gun, Trigger> m(g);
    m.SetInitialState<Aim>().To<Fire>([](const Gun&, const Trigger& t) { return t.pull; });
    m.From<Fire>();
    const Trigger pull{.pull = true};
    m.Perform({});   // aim
    m.Perform(pull); // the fast step enters Fire: fire 0
    m.Perform({});   // fire 1
    g.ammo = -1;
    REQUIRE_THROWS_WITH(m.Perform({}), "jam"); // fire 2, then the throw
    g.ammo = 0;
    m.Perform({}); // fire 3
    m.Perform({}); // fire 4
    CHECK(m.IsIn<Fire>());
    g.log.clear();
    m.Reset();
    m.Perform({});   // aim
    m.Perform(pull); // fire 0
    m.Perform({});   // fire 1
    m.Perform({});   // fire 2: asks for Aim
    m.Perform({});   // aim
    m.Perform({});   // aim, on the fast path again
    const std::vector<std::string> expected{"aim", "fire 0", "fire 1", "fire 2", "aim", "aim"};
    CHECK(g.log == expected);
    CHECK(m.IsIn<Aim>());
}

TEST_CASE("The handle's TimeInState is a double that keeps advancing past 2^24 ticks", "[machine][time][regression]") {
    struct Reader {
        double seen = -1;
        void Perform(Gun&, const Trigger&, M& m) { seen = m.TimeInState(); }
    };
    Gun g;
    tickfsm::StateManager<Gun, Trigger> m(g);
    m.SetInitialState<Reader>();
    m.Perform({});
    tickfsm::detail::TicksAccess::Of(m) = 1u << 24;
    m.Perform({});
    CHECK(m.State<Reader>().seen == static_cast<double>((1u << 24) + 1) * static_cast<double>(1.0f / 60));
}
