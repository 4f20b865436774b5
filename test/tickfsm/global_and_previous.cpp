// Seed 004: a global state beside the current one, the previous state and revert.

#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include <tickfsm/tickfsm.hpp>

namespace {

struct Robot {
    int battery = 100;
    bool interrupted = false;
    std::vector<std::string> log;
};
struct Tap {
    bool walk = false;
};
using M = tickfsm::Machine<Robot, Tap>;

struct Stand {
    void OnStateEnter(Robot& r, const Tap&) { r.log.push_back("enter Stand"); }
    void Perform(Robot& r, const Tap&) { r.log.push_back("Stand"); }
};
struct Walk {
    void Perform(Robot& r, const Tap&) { r.log.push_back("Walk"); }
};
struct Talk {
    bool CanEnterState(const Robot& r, const tickfsm::StateRef&) const { return r.battery > 10; }
};
struct Battery { // the global state: drains every update
    void OnStateEnter(Robot& r, const Tap&) { r.log.push_back("enter Battery"); }
    void Perform(Robot& r, const Tap&) {
        --r.battery;
        r.log.push_back("Battery");
    }
    void OnStateExit(Robot& r, const Tap&) { r.log.push_back("exit Battery"); }
};
struct Alarm {
    void Perform(Robot& r, const Tap&, M& m) {
        if (r.interrupted) m.SendEvent("Interrupt");
    }
};

class RobotStateManager : public tickfsm::StateManager<Robot, Tap> {
public:
    explicit RobotStateManager(Robot& r) : StateManager(r) {
        KeepPreviousState();
        SetInitialState<Stand>().To<Walk>([](const Robot&, const Tap& t) { return t.walk; });
        From<Walk>().To<Stand>([](const Robot&, const Tap& t) { return !t.walk; }).On("Interrupt").To<Talk>();
        From<Talk>();
        From<Battery>();
        From<Alarm>();
    }
};

} // namespace

TEST_CASE("The global state performs every tick, before the current state", "[global]") {
    Robot r;
    RobotStateManager m(r);
    m.Perform({});
    m.SetGlobalState<Battery>();
    CHECK(r.log == std::vector<std::string>{"enter Stand", "Stand", "enter Battery"});
    r.log.clear();
    m.Perform({});
    m.Perform({.walk = true});
    CHECK(r.log == std::vector<std::string>{"Battery", "Stand", "Battery", "Walk"});
    CHECK(r.battery == 98);
    CHECK(m.GlobalStateName() == "Battery");
}

TEST_CASE("Changing the global state exits the old one and enters the new", "[global]") {
    Robot r;
    RobotStateManager m(r);
    m.Perform({});
    r.log.clear();
    m.SetGlobalState<Battery>();
    m.SetGlobalState<Alarm>();
    CHECK(r.log == std::vector<std::string>{"enter Battery", "exit Battery"});
    r.log.clear();
    m.ClearGlobalState();
    m.Perform({});
    CHECK(r.log == std::vector<std::string>{"Stand"});
    CHECK(m.GlobalStateName().empty());
}

TEST_CASE("A global state's events move the current state", "[global]") {
    Robot r;
    RobotStateManager m(r);
    m.SetGlobalState<Alarm>();
    m.Perform({.walk = true});
    m.Perform({.walk = true});
    REQUIRE(m.IsIn<Walk>());
    r.interrupted = true;
    m.Perform({.walk = true});
    CHECK(m.IsIn<Talk>());
}

TEST_CASE("The previous state is remembered and revert goes back to it", "[previous]") {
    Robot r;
    RobotStateManager m(r);
    m.Perform({});
    CHECK_FALSE(m.PreviousState().Valid());
    CHECK_FALSE(m.RevertToPreviousState()); // nothing to go back to: a no-op
    m.Perform({.walk = true});
    CHECK(m.PreviousState().Is<Stand>());
    CHECK(m.PreviousState().Name() == "Stand");
    m.SendEvent("Interrupt");
    CHECK(m.IsIn<Talk>());
    CHECK(m.PreviousState().Is<Walk>());
    CHECK(m.RevertToPreviousState());
    CHECK(m.IsIn<Walk>());
    CHECK(m.PreviousState().Is<Talk>());
}

TEST_CASE("Revert goes through the gates unless forced", "[previous][gate]") {
    Robot r;
    RobotStateManager m(r);
    m.Perform({.walk = true});
    m.Perform({.walk = true});
    m.SendEvent("Interrupt"); // Walk -> Talk
    m.ForceSetState<Stand>(); // Talk -> Stand
    r.battery = 5;            // Talk refuses to be entered now
    CHECK_FALSE(m.RevertToPreviousState());
    CHECK(m.IsIn<Stand>());
    CHECK(m.RevertToPreviousState(/*force=*/true));
    CHECK(m.IsIn<Talk>());
}

TEST_CASE("PreviousState without KeepPreviousState is an error", "[previous][error]") {
    Robot r;
    tickfsm::StateManager<Robot, Tap> m(r);
    m.SetInitialState<Stand>();
    m.Perform({});
    REQUIRE_THROWS_WITH(m.PreviousState(), Catch::Matchers::Contains("KeepPreviousState()"));
    REQUIRE_THROWS_AS(m.RevertToPreviousState(), tickfsm::ConfigError);
}

TEST_CASE("SetGlobalState of a state never configured is an error", "[global][error]") {
    Robot r;
    tickfsm::StateManager<Robot, Tap> m(r);
    m.SetInitialState<Stand>();
    REQUIRE_THROWS_WITH(m.SetGlobalState<Battery>(), Catch::Matchers::Contains("SetGlobalState<Battery>()"));
}

TEST_CASE("ClearGlobalState without a global state does nothing, and SetGlobalState closes the configuration",
          "[global][config_error]") {
    Robot r;
    tickfsm::StateManager<Robot, Tap> m(r);
    m.ClearGlobalState(); // nothing to clear: the configuration stays open
    m.SetInitialState<Stand>();
    m.From<Battery>();
    m.SetGlobalState<Battery>();
    CHECK_THROWS_WITH(m.From<Walk>(), Catch::Contains("From<Walk>(): the transition table is frozen once the machine "
                                                      "starts") &&
                                          Catch::Contains("SetGlobalState"));
    m.Perform({});
    CHECK(m.IsIn<Stand>());
    CHECK(m.GlobalStateName() == "Battery");
}

TEST_CASE("A state that is or can become current cannot be the global state", "[global][config_error]") {
    Robot r;
    RobotStateManager m(r);
    m.Perform({});
    SECTION("the initial state, current here") {
        CHECK_THROWS_WITH(m.SetGlobalState<Stand>(), Catch::Contains("SetGlobalState<Stand>(): Stand is the initial "
                                                                     "state"));
    }
    SECTION("a transition's target") {
        CHECK_THROWS_WITH(m.SetGlobalState<Walk>(),
                          Catch::Contains("Walk is the target of a transition from Stand") &&
                              Catch::Contains("give the global job its own state class"));
    }
    SECTION("a state with transitions of its own, which a global state never tries") {
        Robot r2;
        tickfsm::StateManager<Robot, Tap> m2(r2);
        m2.SetInitialState<Stand>();
        m2.From<Battery>().To<Walk>([](const Robot&, const Tap&) { return true; });
        CHECK_THROWS_WITH(m2.SetGlobalState<Battery>(), Catch::Contains("Battery has transitions of its own (to "
                                                                        "Walk)"));
    }
    // Refused before anything changed: the machine goes on without a global state.
    CHECK(m.GlobalStateName().empty());
    r.log.clear();
    m.Perform({});
    CHECK(r.log == std::vector<std::string>{"Stand"});
}

TEST_CASE("A change into the global state is refused and leaves the machine where it was",
          "[global][config_error]") {
    Robot r;
    RobotStateManager m(r);
    m.Perform({});
    m.ForceSetState<Battery>(); // current before it is made global: accepted later once left
    m.ForceSetState<Walk>();
    m.SetGlobalState<Battery>();
    CHECK_THROWS_WITH(m.RevertToPreviousState(true),
                      Catch::Contains("entering Battery from Walk: it is this machine's global state"));
    CHECK_THROWS_WITH(m.ForceSetState<Battery>(), Catch::Contains("entering Battery from Walk"));
    CHECK(m.IsIn<Walk>());
    r.log.clear();
    m.Perform({.walk = true});
    CHECK(r.log == std::vector<std::string>{"Battery", "Walk"});
}

TEST_CASE("A direct change into the global state before the first tick leaves the machine not started",
          "[global][config_error]") {
    Robot r;
    RobotStateManager m(r);
    m.SetGlobalState<Battery>();
    CHECK_THROWS_WITH(m.ForceSetState<Battery>(), Catch::Contains("entering Battery"));
    CHECK_FALSE(m.IsStarted());
    m.Perform({});
    CHECK(m.IsIn<Stand>());
    CHECK(r.log == std::vector<std::string>{"enter Stand", "enter Battery", "Battery", "Stand"});
}

TEST_CASE("RevertToPreviousState on the machine from inside its own hook is refused even with nothing to go back to",
          "[previous][config_error]") {
    struct Pilot {
        tickfsm::StateManager<Pilot, int>* machine = nullptr;
    };
    struct Cruise {
        void Perform(Pilot& p, const int&) { p.machine->RevertToPreviousState(); }
    };
    Pilot p;
    tickfsm::StateManager<Pilot, int> m(p);
    p.machine = &m;
    m.KeepPreviousState();
    m.SetInitialState<Cruise>();
    CHECK_THROWS_WITH(m.Perform(0), Catch::Contains("RevertToPreviousState() called on the machine from inside one of "
                                                    "its hooks or conditions (state Cruise)"));
}
