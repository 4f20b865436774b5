// Every configuration and usage mistake throws tickfsm::ConfigError with a
// message naming the character type and the states, and the manager stays usable.

#include <catch2/catch.hpp>

#include <limits>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include <tickfsm/tickfsm.hpp>

namespace {

struct Guard;
struct Knight {
    tickfsm::StateManager<Knight, int>* machine = nullptr;
    int reenter = 0; // 1: Perform from a hook, 2: Reset from a hook, 3: Perform from a condition
};

struct Patrol {
    void Perform(Knight& k, const int&) {
        if (k.reenter == 1) k.machine->Perform(0);
        if (k.reenter == 2) k.machine->Reset();
    }
};
struct Guard {};

using Manager = tickfsm::StateManager<Knight, int>;

using Catch::Matchers::Contains;

} // namespace

TEST_CASE("ConfigError is a std::exception whose copies keep its message and cannot throw", "[error]") {
    STATIC_REQUIRE(std::is_base_of_v<std::exception, tickfsm::ConfigError>);
    STATIC_REQUIRE(std::is_nothrow_copy_constructible_v<tickfsm::ConfigError>);
    const tickfsm::ConfigError error("tickfsm: StateManager<Knight, Pad>: a message");
    const tickfsm::ConfigError copy = error;
    CHECK(std::string_view(copy.what()) == "tickfsm: StateManager<Knight, Pad>: a message");
    CHECK(copy.what() == error.what()); // one message, shared
}

TEST_CASE("Perform before SetInitialState is an error, and the manager stays usable", "[error]") {
    Knight k;
    Manager m(k);
    REQUIRE_THROWS_WITH(m.Perform(0), Contains("StateManager<Knight, int>") && Contains("SetInitialState"));
    m.SetInitialState<Patrol>();
    m.Perform(0);
    CHECK(m.IsIn<Patrol>());
}

TEST_CASE("A second SetInitialState is an error naming both states", "[error]") {
    Knight k;
    Manager m(k);
    m.SetInitialState<Patrol>();
    REQUIRE_THROWS_AS(m.SetInitialState<Guard>(), tickfsm::ConfigError);
    REQUIRE_THROWS_WITH(m.SetInitialState<Guard>(),
                        Contains("Knight") && Contains("SetInitialState<Guard>") && Contains("already Patrol"));
    m.Perform(0);
    CHECK(m.IsIn<Patrol>());
}

TEST_CASE("fixed_dt must be finite and positive", "[error]") {
    Knight k;
    for (float bad : {0.0f, -1.0f, std::numeric_limits<float>::infinity(), std::numeric_limits<float>::quiet_NaN()})
        REQUIRE_THROWS_WITH(Manager(k, bad), Contains("fixed_dt") && Contains("Knight"));
    CHECK_NOTHROW(Manager(k, 0.001f));
    // The float as given, not the double it widens to (-0.01600000075995922).
    REQUIRE_THROWS_WITH(Manager(k, -0.016f), Contains("got -0.016") && !Contains("-0.0160000"));
}

TEST_CASE("Configuring after the first Perform is an error: the table is frozen", "[error]") {
    Knight k;
    Manager m(k);
    m.SetInitialState<Patrol>();
    m.Perform(0);
    REQUIRE_THROWS_WITH(m.From<Guard>(), Contains("From<Guard>()") && Contains("frozen"));
    REQUIRE_THROWS_WITH(m.From<Patrol>(), Contains("frozen"));
    REQUIRE_THROWS_WITH(m.SetInitialState<Guard>(), Contains("SetInitialState<Guard>()") && Contains("frozen"));
    REQUIRE_THROWS_WITH(m.State<Guard>(), Contains("State<Guard>()") && Contains("frozen"));
    m.Reset();
    REQUIRE_THROWS_WITH(m.From<Patrol>(), Contains("frozen"));
    m.Perform(0);
    CHECK(m.IsIn<Patrol>());
    CHECK(m.StateCount() == 1);
}

TEST_CASE("A builder kept from before the first Perform cannot add transitions after it", "[error]") {
    Knight k;
    Manager m(k);
    auto builder = m.SetInitialState<Patrol>();
    m.Perform(0);
    REQUIRE_THROWS_WITH(std::move(builder).To<Guard>(), Contains("From<Patrol>().To<Guard>()") && Contains("frozen"));
    m.Perform(0);
    CHECK(m.IsIn<Patrol>());
}

TEST_CASE("A frozen machine's error names the transition a kept builder tried to add", "[error]") {
    Knight k;
    Manager m(k);
    auto from_patrol = m.SetInitialState<Patrol>();
    auto from_guard = m.From<Guard>();
    m.Perform(0);
    REQUIRE_THROWS_WITH(std::move(from_patrol).ForceTo<Guard>([] { return true; }),
                        Contains("From<Patrol>().ForceTo<Guard>()") && Contains("frozen"));
    REQUIRE_THROWS_WITH(std::move(from_guard).ToWhenDone<Patrol>(),
                        Contains("From<Guard>().ToWhenDone<Patrol>()") && Contains("frozen"));
    m.Perform(0);
    CHECK(m.IsIn<Patrol>());
}

TEST_CASE("A builder used twice is an error", "[error]") {
    Knight k;
    Manager m(k);
    auto builder = m.SetInitialState<Patrol>();
    std::move(builder).To<Guard>([] { return false; });
    REQUIRE_THROWS_WITH(std::move(builder).To<Guard>(), Contains("used already"));
    m.Perform(0);
    CHECK(m.IsIn<Patrol>());
}

TEST_CASE("Perform or Reset from inside a hook of the same manager is an error", "[error]") {
    Knight k;
    Manager m(k);
    k.machine = &m;
    m.SetInitialState<Patrol>();
    m.Perform(0);
    k.reenter = 1;
    REQUIRE_THROWS_WITH(m.Perform(0), Contains("Perform() called from inside") && Contains("Patrol"));
    k.reenter = 2;
    REQUIRE_THROWS_WITH(m.Perform(0), Contains("Reset() called from inside"));
    k.reenter = 0;
    m.Perform(0); // still usable
    CHECK(m.IsIn<Patrol>());
    CHECK(m.TicksInState() == 4);
}

TEST_CASE("Perform from inside a condition of the same manager is an error", "[error]") {
    Knight k;
    Manager m(k);
    k.machine = &m;
    m.SetInitialState<Patrol>().To<Guard>([](const Knight& kn) {
        if (kn.reenter == 3) kn.machine->Perform(0);
        return false;
    });
    m.Perform(0);
    k.reenter = 3;
    REQUIRE_THROWS_WITH(m.Perform(0), Contains("Perform() called from inside"));
    k.reenter = 0;
    m.Perform(0);
    CHECK(m.IsIn<Patrol>());
}

// Regression: a fast tick marks its machine busy with kBusy stored into one
// byte of its flags and that byte stored back as it was; every call back in
// must still be refused, and the byte must come back after the refusal unwinds
// the tick. (The mark used to take the machine's steps pointer away.)
TEST_CASE("Every call into the machine from one of its fast-path hooks is refused, and it ticks on after",
          "[error][regression]") {
    struct Rogue {
        tickfsm::StateManager<Rogue, int>* machine = nullptr;
        int call = 0;
    };
    struct Calm {};
    struct Meddler {
        void Perform(Rogue& r, const int&) {
            auto& m = *r.machine;
            switch (r.call) {
            case 1: m.Perform(0); break;
            case 2: m.Reset(); break;
            case 3: m.Initialize(); break;
            case 4: m.SendEvent(tickfsm::Event{"poke"}, 0); break;
            case 5: m.TrySetState<Calm>(); break;
            case 6: m.SetGlobalState<Calm>(); break;
            case 7: m.SetObserver(nullptr); break;
            case 8: m.ClearGlobalState(); break;
            default: break;
            }
        }
    };
    Rogue r;
    tickfsm::StateManager<Rogue, int> m(r);
    r.machine = &m;
    m.SetInitialState<Meddler>().To<Calm>([](const Rogue&, const int& a) { return a == 7; });
    m.From<Calm>();
    m.Perform(0); // the first tick starts the machine on the general path; the next ones are fast
    const char* refused[] = {"Perform() called from inside", "Reset() called from inside",
                             "Initialize() called from inside a hook or condition of this machine (state Meddler)", "SendEvent(poke) called on the machine from inside",
                             "TrySetState(Calm) called on the machine from inside",
                             "SetGlobalState<Calm>() called from inside a hook or condition of this machine (state Meddler)",
                             "SetObserver() called from inside",
                             "ClearGlobalState() called from inside a hook or condition of this machine (state Meddler)"};
    for (int call = 1; call <= 8; ++call) {
        INFO("call " << call);
        r.call = call;
        REQUIRE_THROWS_WITH(m.Perform(0), Contains(refused[call - 1]));
    }
    r.call = 0;
    m.Perform(0);
    CHECK(m.IsIn<Meddler>());
    CHECK(m.TicksInState() == 10);
    m.Perform(7); // the transition still fires: the fast path is back
    CHECK(m.IsIn<Calm>());
}

// --- user code that throws: the exception propagates; the machine's state is documented ---

namespace {
struct Boom : std::runtime_error {
    Boom() : std::runtime_error("boom") {}
};
struct Fuse {
    int where = 0; // 1 condition, 2 exit, 3 enter, 4 perform, 5 initial enter
    std::string log;
};
struct Calm {
    void OnStateEnter(Fuse& f, const int&) {
        if (f.where == 5) throw Boom();
    }
    void OnStateExit(Fuse& f, const int&) {
        if (f.where == 2) throw Boom();
    }
};
struct Angry {
    void OnStateEnter(Fuse& f, const int&) {
        if (f.where == 3) throw Boom();
    }
    void Perform(Fuse& f, const int&) {
        if (f.where == 4) throw Boom();
    }
};
using FuseManager = tickfsm::StateManager<Fuse, int>;
bool g_fragile_throws = false;

void Configure(FuseManager& m) {
    m.SetInitialState<Calm>().To<Angry>([](const Fuse& f, const int& go) {
        if (f.where == 1) throw Boom();
        return go == 1;
    });
    m.From<Angry>().To<Calm>([](const Fuse&, const int& go) { return go == 2; });
}
} // namespace

TEST_CASE("A throwing condition leaves the state unchanged with the tick counted", "[error][throw]") {
    Fuse f;
    FuseManager m(f);
    Configure(m);
    m.Perform(0);
    f.where = 1;
    REQUIRE_THROWS_AS(m.Perform(1), Boom);
    CHECK(m.IsIn<Calm>());
    CHECK(m.TicksInState() == 2);
    f.where = 0;
    m.Perform(1);
    CHECK(m.IsIn<Angry>());
}

TEST_CASE("A throwing exit hook leaves the old state current", "[error][throw]") {
    Fuse f;
    FuseManager m(f);
    Configure(m);
    m.Perform(0);
    f.where = 2;
    REQUIRE_THROWS_AS(m.Perform(1), Boom);
    CHECK(m.IsIn<Calm>());
    f.where = 0;
    m.Perform(1);
    CHECK(m.IsIn<Angry>());
}

TEST_CASE("A throwing enter hook leaves the new state current with zero ticks, not performed", "[error][throw]") {
    Fuse f;
    FuseManager m(f);
    Configure(m);
    m.Perform(0);
    f.where = 3;
    REQUIRE_THROWS_AS(m.Perform(1), Boom);
    CHECK(m.IsIn<Angry>());
    CHECK(m.TicksInState() == 0);
    f.where = 0;
    m.Perform(0);
    CHECK(m.TicksInState() == 1);
}

TEST_CASE("A throwing Perform leaves the state as the tick's transition made it", "[error][throw]") {
    Fuse f;
    FuseManager m(f);
    Configure(m);
    m.Perform(0);
    f.where = 4;
    REQUIRE_THROWS_AS(m.Perform(1), Boom);
    CHECK(m.IsIn<Angry>());
    f.where = 0;
    m.Perform(2);
    CHECK(m.IsIn<Calm>());
}

TEST_CASE("A throwing initial enter hook leaves the machine started in the initial state", "[error][throw]") {
    Fuse f;
    FuseManager m(f);
    Configure(m);
    f.where = 5;
    REQUIRE_THROWS_AS(m.Perform(0), Boom);
    CHECK(m.IsStarted());
    CHECK(m.IsIn<Calm>());
    CHECK(m.TicksInState() == 0);
    f.where = 0;
    m.Perform(1);
    CHECK(m.IsIn<Angry>());
}

TEST_CASE("A state whose constructor throws fails the first Perform, which can be retried", "[error][throw]") {
    struct Fragile {
        int data = 0;
        Fragile() {
            if (g_fragile_throws) throw Boom();
        }
    };
    Fuse f;
    FuseManager m(f);
    m.SetInitialState<Calm>().To<Fragile>([](const Fuse&, const int& go) { return go == 1; });
    g_fragile_throws = true;
    REQUIRE_THROWS_AS(m.Perform(0), Boom); // states are built when the machine first needs them
    CHECK_FALSE(m.IsStarted());
    g_fragile_throws = false;
    m.Perform(1);
    CHECK(m.IsIn<Fragile>());
}

TEST_CASE("A private machine's state whose constructor throws is not added", "[error][throw]") {
    struct Fragile {
        int data = 0;
        Fragile() { throw Boom(); }
    };
    Fuse f;
    FuseManager m(f);
    int captured = 2;
    m.SetInitialState<Calm>().To<Angry>([captured](const Fuse&, const int& go) { return go == captured; });
    REQUIRE_THROWS_AS(m.From<Fragile>(), Boom);
    CHECK_FALSE(m.IdOf<Fragile>().Valid());
    CHECK(m.StateCount() == 2);
    m.Perform(2);
    CHECK(m.IsIn<Angry>());
}

namespace {
struct Sentry {};
enum class Post { Gate, Wall };
} // namespace

TEST_CASE("A builder used twice leaves the machine as it was", "[error][regression]") {
    Knight k;
    Manager m(k); // on the shared path
    auto builder = m.SetInitialState<Patrol>();
    std::move(builder).To<Guard>([] { return false; });
    REQUIRE(m.StateCount() == 2);
    REQUIRE_THROWS_WITH(std::move(builder).To<Sentry>(), Contains("StateManager<Knight, int>") &&
                                                             Contains("From<Patrol>().To<Sentry>()") &&
                                                             Contains("used already"));
    CHECK(m.StateCount() == 2);
    CHECK_FALSE(m.IdOf<Sentry>().Valid());
    CHECK(m.SharesTable());
    m.Perform(0);
    CHECK(m.IsIn<Patrol>());

    Manager own(k); // a private table
    int captured = 0;
    auto own_builder = own.SetInitialState<Patrol>();
    std::move(own_builder).To<Guard>([captured] { return captured != 0; });
    REQUIRE_THROWS_WITH(std::move(own_builder).To<Sentry>(), Contains("used already"));
    CHECK(own.StateCount() == 2);
    own.Perform(0);
    CHECK(own.IsIn<Patrol>());
}

TEST_CASE("A second transition on one event leaves the machine as it was", "[error][event][regression]") {
    Knight k;
    Manager own(k); // a private table
    int captured = 0;
    own.SetInitialState<Patrol>().To<Guard>([captured] { return captured != 0; }).On("Alarm").To<Guard>();
    REQUIRE(own.StateCount() == 2);
    REQUIRE_THROWS_WITH(own.From<Patrol>().On("Alarm").To<Sentry>(),
                        Contains("StateManager<Knight, int>") && Contains("From<Patrol>().On(Alarm).To<Sentry>()") &&
                            Contains("already has a transition on event Alarm"));
    CHECK(own.StateCount() == 2);
    CHECK_FALSE(own.IdOf<Sentry>().Valid());

    Manager shared(k); // a builder that is no longer at the machine's place on the shared path
    auto from_patrol = shared.SetInitialState<Patrol>().On("Alarm").To<Guard>();
    shared.From<Guard>();
    REQUIRE_THROWS_WITH(std::move(from_patrol).On("Alarm").To<Sentry>(),
                        Contains("From<Patrol>().On(Alarm).To<Sentry>()") && Contains("already has a transition"));
    CHECK(shared.StateCount() == 2);
    CHECK(shared.SharesTable());
    shared.Perform(0);
    CHECK(shared.SendEvent("Alarm"));
    CHECK(shared.IsIn<Guard>());
}

TEST_CASE("AddDelegateState of a type that is already a state leaves the machine as it was", "[error][delegate][regression]") {
    Knight k;
    Manager m(k);
    m.SetInitialState<Patrol>().To<Guard>([] { return false; });
    REQUIRE_THROWS_WITH(m.AddDelegateState<Guard>(), Contains("StateManager<Knight, int>") &&
                                                         Contains("AddDelegateState<Guard>()") &&
                                                         Contains("already a state"));
    CHECK(m.SharesTable());
    CHECK(m.StateCount() == 2);
}

TEST_CASE("An unknown key given to SetInitialState or From leaves the machine as it was", "[error][keyed][regression]") {
    Knight k;
    Manager m(k);
    m.From<Guard>();
    REQUIRE_THROWS_WITH(m.SetInitialState(Post::Gate), Contains("StateManager<Knight, int>") &&
                                                           Contains("SetInitialState(Post::Gate)") &&
                                                           Contains("no state is registered under that key"));
    REQUIRE_THROWS_WITH(m.From(Post::Wall), Contains("From(Post::Wall)") && Contains("no state is registered"));
    CHECK(m.SharesTable());
    CHECK(m.StateCount() == 1);
    m.SetInitialState<Patrol>();
    m.Perform(0);
    CHECK(m.IsIn<Patrol>());
}

namespace {
struct Shelter {};
struct Resting {};
// Gated (CanExitState with a transition out), so it ticks on the general
// path while Resting, under Shelter, ticks on the nested fast path.
struct Sore {
    bool CanExitState(const Fuse&, const tickfsm::StateRef&) const { return true; }
    void OnStateEnter(Fuse& f, const int&) {
        if (f.where == 3) throw Boom();
    }
};
} // namespace

TEST_CASE("A throwing enter hook on a change from the nested fast path leaves a machine that ticks on",
          "[error][throw][nested]") {
    Fuse f;
    FuseManager m(f);
    m.SetSubstates<Shelter, Resting>();
    m.SetInitialState<Shelter>();
    m.From<Resting>().To<Sore>([](const Fuse&, const int& go) { return go == 1; });
    m.From<Sore>().To<Resting>([](const Fuse&, const int& go) { return go == 2; });
    m.Perform(0);
    REQUIRE(m.ActivePath() == "Shelter/Resting");
    f.where = 3;
    REQUIRE_THROWS_AS(m.Perform(1), Boom);
    CHECK(m.IsIn<Sore>());
    CHECK(m.TicksInState() == 0);
    f.where = 0;
    m.Perform(0); // Sore's tick, on the general path
    CHECK(m.TicksInState() == 1);
    m.Perform(2);
    CHECK(m.ActivePath() == "Shelter/Resting");
    m.Perform(0);
    CHECK(m.TicksInState<Shelter>() == 1);
}

namespace {
// Each hook logs itself; Den's (a composite) throw when Fuse::where says so:
// 6 its exit, 7 its enter.
struct Den {
    void OnStateEnter(Fuse& f, const int&) {
        f.log += "+Den ";
        if (f.where == 7) throw Boom();
    }
    void OnStateExit(Fuse& f, const int&) {
        f.log += "-Den ";
        if (f.where == 6) throw Boom();
    }
};
struct Cub {
    void OnStateEnter(Fuse& f, const int&) { f.log += "+Cub "; }
    void OnStateExit(Fuse& f, const int&) { f.log += "-Cub "; }
};
struct Out {};

void ConfigureDen(FuseManager& m) {
    m.SetSubstates<Den, Cub>();
    m.SetInitialState<Den>().To<Out>([](const Fuse&, const int& go) { return go == 1; });
    m.From<Out>().To<Den>([](const Fuse&, const int& go) { return go == 2; });
    m.From<Cub>();
}
} // namespace

TEST_CASE("A composite's throwing exit hook leaves the active path, whose substates exit again at the next change",
          "[error][throw][nested]") {
    Fuse f;
    FuseManager m(f);
    ConfigureDen(m);
    m.Perform(0);
    f.log.clear();
    f.where = 6;
    REQUIRE_THROWS_AS(m.Perform(1), Boom);
    CHECK(f.log == "-Cub -Den ");
    CHECK(m.ActivePath() == "Den/Cub");
    CHECK(m.TicksInState() == 2);
    f.where = 0;
    f.log.clear();
    m.Perform(1);
    CHECK(f.log == "-Cub -Den ");
    CHECK(m.IsIn<Out>());
}

TEST_CASE("A composite's throwing enter hook leaves it current without a substate until a change re-enters it",
          "[error][throw][nested]") {
    Fuse f;
    FuseManager m(f);
    ConfigureDen(m);
    m.Perform(0);
    m.Perform(1);
    f.where = 7;
    f.log.clear();
    REQUIRE_THROWS_AS(m.Perform(2), Boom);
    CHECK(f.log == "+Den ");
    CHECK(m.ActivePath() == "Den");
    CHECK(m.TicksInState() == 0);
    f.where = 0;
    m.Perform(0); // Den's own transitions are tried; no substate is entered
    CHECK(m.ActivePath() == "Den");
    CHECK(m.TicksInState() == 1);
    f.log.clear();
    m.ForceSetState<Den>();
    CHECK(f.log == "-Den +Den +Cub ");
    CHECK(m.ActivePath() == "Den/Cub");
    m.Perform(1);
    CHECK(m.IsIn<Out>());
}

TEST_CASE("A composite left current by its throwing enter hook keeps its time when a change enters its substate",
          "[error][throw][nested]") {
    const bool stack = GENERATE(false, true); // a push stack counts composites' time another way
    Fuse f;
    FuseManager m(f);
    ConfigureDen(m);
    if (stack) m.SetPushCapacity<1>();
    m.Perform(0);
    m.Perform(1);
    f.where = 7;
    REQUIRE_THROWS_AS(m.Perform(2), Boom);
    f.where = 0;
    m.Perform(0);
    m.Perform(0);
    REQUIRE(m.ActivePath() == "Den");
    REQUIRE(m.TicksInState<Den>() == 2);
    REQUIRE(m.TrySetState<Cub>()); // Den is not left: only Cub is entered, and Den's time goes on
    CHECK(m.ActivePath() == "Den/Cub");
    CHECK(m.TicksInState<Den>() == 2);
    m.Perform(0);
    CHECK(m.TicksInState<Den>() == 3);
    CHECK(m.TicksInState<Cub>() == 1);
}

namespace {
class DenManager : public FuseManager {
public:
    explicit DenManager(Fuse& f) : FuseManager(f) { ConfigureDen(*this); }
};
} // namespace

TEST_CASE("A crowd character left in a composite by its throwing enter hook ticks on as a StateManager does",
          "[error][throw][nested][crowd]") {
    Fuse lone_fuse;
    DenManager lone(lone_fuse);
    tickfsm::Crowd<DenManager> crowd(2);
    std::vector<Fuse> fuses(2);
    auto both = [&](int go) {
        bool threw[2] = {false, false};
        try {
            lone.Perform(go);
        } catch (const Boom&) {
            threw[0] = true;
        }
        try {
            crowd.Perform(1, fuses[1], go);
        } catch (const Boom&) {
            threw[1] = true;
        }
        CHECK(threw[0] == threw[1]);
        CHECK(crowd.ActivePath(1) == lone.ActivePath());
        CHECK(crowd.TicksInState(1) == lone.TicksInState());
        return threw[0];
    };
    both(0);
    both(1);
    lone_fuse.where = fuses[1].where = 7;
    CHECK(both(2)); // Den's enter hook throws: Den is current, Cub not entered
    lone_fuse.where = fuses[1].where = 0;
    both(0); // the composite ticks (on the general path), no substate entered
    both(0);
    both(1); // and leaves
    CHECK(crowd.ActivePath(1) == "Out");
    both(2);
    CHECK(crowd.ActivePath(1) == "Den/Cub");
}

namespace melee {
struct Attack {};
} // namespace melee
namespace ranged {
struct Attack {};
} // namespace ranged

TEST_CASE("Two states of one name are a ConfigError by the first Perform: tools tell states apart by name",
          "[error][config_error]") {
    Fuse f;
    FuseManager m(f);
    m.SetInitialState<Calm>().To<melee::Attack>([](const Fuse&, const int& go) { return go == 1; });
    // A private table refuses at the call; a shared one when it is next built.
    CHECK_THROWS_WITH(
        [&] {
            m.From<Calm>().To<ranged::Attack>([](const Fuse&, const int& go) { return go == 2; });
            m.Perform(0);
        }(),
        Catch::Contains("StateManager<Fuse, int>: a second state named Attack") &&
            Catch::Contains("rename one of the two classes (or keys) named Attack"));
    CHECK_FALSE(m.IsStarted());
}

namespace {
struct Charge {};
struct Strike {
    int power = 0;
};
struct Rest {};
} // namespace

TEST_CASE("SendEvent from a condition is told that a condition sends nothing", "[error][event]") {
    Knight k;
    Manager m(k);
    k.machine = &m;
    m.SetInitialState<Patrol>().On("charge").To<Guard>().To<Guard>([](const Knight& kn) {
        if (kn.reenter == 4) return kn.machine->SendEvent("charge", 0);
        if (kn.reenter == 5) return kn.machine->SendEvent(Strike{}, 0);
        return false;
    });
    m.Perform(0);
    for (const int mode : {4, 5}) {
        k.reenter = mode;
        CAPTURE(mode);
        REQUIRE_THROWS_WITH(m.Perform(0), Contains("a condition sends nothing (it may run in a dry run); in a hook, "
                                                   "take a tickfsm::Machine<Controller, Action>& as its last "
                                                   "parameter and call SendEvent on it"));
    }
    k.reenter = 0;
    m.Perform(0);
    CHECK(m.IsIn<Patrol>());
}

TEST_CASE("RevertToPreviousState without KeepPreviousState names RevertToPreviousState", "[error][previous]") {
    Knight k;
    Manager m(k);
    m.SetInitialState<Patrol>().To<Guard>();
    m.Perform(0);
    REQUIRE_THROWS_WITH(m.RevertToPreviousState(),
                        Contains("RevertToPreviousState() needs KeepPreviousState() in the machine's configuration"));
    REQUIRE_THROWS_WITH(m.PreviousState(),
                        Contains("PreviousState() needs KeepPreviousState()") && !Contains("Revert"));
}

TEST_CASE("A state that is not one of a started machine's is named first, with the configuration that adds it",
          "[error]") {
    Knight k;
    Manager m(k);
    m.SetInitialState<Patrol>().To<Guard>();
    m.Perform(0);
    REQUIRE_THROWS_WITH(m.State<Rest>(),
                        Contains("State<Rest>(): Rest is not a state of this machine") &&
                            Contains("configure it with From<Rest>() or a transition To<Rest>() before then"));
    REQUIRE_THROWS_WITH(m.TrySetState<Charge>(),
                        Contains("TrySetState<Charge>(): Charge is not a state of this machine; configure it with "
                                 "From<Charge>() or a transition To<Charge>()"));
    m.Perform(0); // usable after each refusal
    CHECK(m.IsIn<Guard>());
}

TEST_CASE("An input buffer's request for a type that is not a state names the type, the buffer and the fix",
          "[error][input_buffer]") {
    Knight k;
    Manager m(k);
    m.SetInitialState<Patrol>().To<Guard>();
    m.Perform(0);
    tickfsm::InputBuffer buffer(m);
    REQUIRE_THROWS_WITH(buffer.Buffer<Rest>(0.2f),
                        Contains("StateManager<Knight, int>") &&
                            Contains("InputBuffer::Buffer<Rest>(): Rest is not a state of this machine; configure "
                                     "it with From<Rest>() or a transition To<Rest>()"));
    tickfsm::InputSequenceBuffer<Knight, int> sequence(m);
    REQUIRE_THROWS_WITH(sequence.Buffer<Rest>(0.2f),
                        Contains("InputSequenceBuffer::Buffer<Rest>(): Rest is not a state of this machine"));
    REQUIRE_THROWS_WITH(sequence.Buffer<Guard>(-1.0f),
                        Contains("InputSequenceBuffer::Buffer() for state Guard: the time-out must be finite and "
                                 "positive, got -1"));
    CHECK_FALSE(buffer.IsBuffering());
    m.Perform(0); // usable after each refusal
    CHECK(m.IsIn<Guard>());
}

TEST_CASE("FromAny() after the first Perform is refused as FromAny(), not as From<FromAny()>()", "[error][any]") {
    Knight k;
    Manager m(k);
    m.SetInitialState<Patrol>().To<Guard>();
    m.Perform(0);
    REQUIRE_THROWS_WITH(m.FromAny(), Contains("FromAny(): the transition table is frozen once the machine starts") &&
                                         !Contains("From<FromAny()>"));
}

namespace {
struct Unnamed {
    static constexpr std::string_view Name = "";
};
struct Slashed {
    static constexpr std::string_view Name = "Alive/Run";
};
struct Braced {
    static constexpr std::string_view Name = "Legs{";
};
struct Listed {
    static constexpr std::string_view Name = "Legs, Arms";
};
template <class A, class B>
struct Pair {};
} // namespace

TEST_CASE("A state Name that is empty or holds a separator of ActivePath is refused where two names clash",
          "[error][names]") {
    Knight k;
    {
        Manager m(k);
        m.SetInitialState<Patrol>().To<Unnamed>();
        REQUIRE_THROWS_WITH(m.Perform(0), Contains("StateManager<Knight, int>") &&
                                              Contains("state Unnamed: its Name is empty") &&
                                              Contains("give Unnamed a Name that is not empty"));
        CHECK_FALSE(m.IsStarted());
    }
    {
        Manager m(k);
        m.SetInitialState<Patrol>().To<Slashed>();
        REQUIRE_THROWS_WITH(m.Perform(0), Contains("state Slashed: its Name \"Alive/Run\" holds '/'") &&
                                              Contains("give Slashed a Name without"));
    }
    {
        Manager m(k);
        m.SetInitialState<Braced>();
        REQUIRE_THROWS_WITH(m.Perform(0), Contains("state Braced: its Name \"Legs{\" holds '{'"));
    }
    {
        Manager m(k);
        m.SetInitialState<Listed>();
        REQUIRE_THROWS_WITH(m.StateCount(), Contains("state Listed: its Name \"Legs, Arms\" holds ','"));
    }
    {
        // A class name holds commas and braces only inside its template arguments: not separators.
        Manager m(k);
        m.SetInitialState<Pair<Patrol, Guard>>();
        m.Perform(0);
        const std::string name(m.CurrentStateName()); // "Pair<{anonymous}::Patrol, {anonymous}::Guard>" in g++
        CHECK(name.rfind("Pair<", 0) == 0);
        CHECK(name.find(", ") != std::string::npos);
    }
}
