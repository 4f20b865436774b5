// Machines configured the same way share one immutable table; anything that
// holds data per machine (captures, function addresses, state data) stays
// per machine.

#include <catch2/catch.hpp>

#include <string>

#include <tickfsm/tickfsm.hpp>

namespace {

struct Npc {
    int alarm = 0;
};
struct Sense {
    int noise = 0;
};
struct Calm {};
struct Alert {
    int times = 0;
    void OnStateEnter(Npc&, const Sense&) { ++times; }
};

bool Loud(const Npc&, const Sense& s) { return s.noise > 5; }
bool Quiet(const Npc&, const Sense& s) { return s.noise < 2; }

class GuardStateManager : public tickfsm::StateManager<Npc, Sense> {
public:
    explicit GuardStateManager(Npc& npc) : StateManager(npc) {
        SetInitialState<Calm>().To<Alert>(Loud);
        From<Alert>().To<Calm>([](const Npc&, const Sense& s) { return s.noise == 0; });
    }
};

class ThresholdStateManager : public tickfsm::StateManager<Npc, Sense> {
public:
    ThresholdStateManager(Npc& npc, int threshold) : StateManager(npc) {
        SetInitialState<Calm>().To<Alert>([threshold](const Npc&, const Sense& s) { return s.noise > threshold; });
    }
};

class PluggableStateManager : public tickfsm::StateManager<Npc, Sense> {
public:
    PluggableStateManager(Npc& npc, bool (*wake)(const Npc&, const Sense&)) : StateManager(npc) {
        SetInitialState<Calm>().To<Alert>(wake);
    }
};

} // namespace

TEST_CASE("Machines with captureless conditions share their table", "[shared]") {
    Npc a, b;
    GuardStateManager ma(a), mb(b);
    CHECK(ma.SharesTable());
    CHECK(mb.SharesTable());
    ma.Perform({9});
    mb.Perform({0});
    CHECK(ma.IsIn<Alert>());
    CHECK(mb.IsIn<Calm>());
    CHECK(ma.State<Alert>().times == 1); // state data stays per machine
    CHECK(mb.State<Alert>().times == 0);
}

TEST_CASE("A capturing condition gives a machine its own table, with its own captures", "[shared]") {
    Npc a, b;
    ThresholdStateManager low(a, 1), high(b, 100);
    CHECK_FALSE(low.SharesTable());
    low.Perform({5});
    high.Perform({5});
    CHECK(low.IsIn<Alert>());
    CHECK(high.IsIn<Calm>());
}

TEST_CASE("Function conditions are told apart by address", "[shared]") {
    Npc a, b;
    PluggableStateManager loud(a, Loud), quiet(b, Quiet);
    CHECK(loud.SharesTable());
    loud.Perform({0});
    quiet.Perform({0});
    CHECK(loud.IsIn<Calm>());
    CHECK(quiet.IsIn<Alert>());
}

TEST_CASE("State data set while configuring survives further configuration", "[shared][data]") {
    Npc n;
    tickfsm::StateManager<Npc, Sense> m(n);
    m.SetInitialState<Calm>();
    m.State<Alert>().times = 40;
    m.From<Calm>().To<Alert>(Loud);
    m.From<Alert>().To<Calm>(Quiet);
    CHECK(m.State<Alert>().times == 40);
    m.Perform({0});
    m.Perform({9});
    CHECK(m.State<Alert>().times == 41);
}

TEST_CASE("A machine configured further than its siblings does not change theirs", "[shared]") {
    Npc a, b;
    tickfsm::StateManager<Npc, Sense> short_one(a), long_one(b);
    for (auto* m : {&short_one, &long_one}) m->SetInitialState<Calm>().To<Alert>(Loud);
    short_one.Perform({0}); // its table is built and published here
    long_one.From<Alert>().To<Calm>(Quiet);
    long_one.Perform({9});
    short_one.Perform({9});
    long_one.Perform({0});
    short_one.Perform({0});
    CHECK(long_one.IsIn<Calm>());
    CHECK(short_one.IsIn<Alert>()); // it has no way back
    CHECK(short_one.StateCount() == 2);
}

TEST_CASE("Builders used out of order still configure the machine they came from", "[shared]") {
    Npc n;
    tickfsm::StateManager<Npc, Sense> m(n);
    auto from_calm = m.SetInitialState<Calm>();
    m.From<Alert>().To<Calm>(Quiet);
    std::move(from_calm).To<Alert>(Loud);
    m.Perform({9});
    CHECK(m.IsIn<Alert>());
    m.Perform({0});
    CHECK(m.IsIn<Calm>());
}

namespace {
struct Patrol {};
struct Chase {};
struct Radio { // a global state
    void Perform(Npc& n, const Sense&) { ++n.alarm; }
};
class LightGuardStateManager : public tickfsm::StateManager<Npc, Sense> {
public:
    explicit LightGuardStateManager(Npc& npc) : StateManager(npc) {
        SetInitialState<Patrol>().To<Chase>([](const Npc&, const Sense& s) { return s.noise > 5; });
        From<Chase>().To<Patrol>([](const Npc&, const Sense&, float t) { return t >= 0.05f; });
        From<Radio>(); // may be the global state
    }
};
} // namespace

TEST_CASE("A running machine without state data still takes an observer and a global state and resets",
          "[shared][regression]") {
    // Such a machine lets its per-machine block go when it starts (it owns no
    // heap); everything that needs the block must get it back.
    Npc a, b;
    LightGuardStateManager m(a), twin(b);
    m.Perform({0});
    twin.Perform({0});
    CHECK(m.SharesTable());
    CHECK(m.TicksInState() == 1);
    CHECK(m.TimeInState() == Approx(1.0f / 60.0f));
    CHECK(m.FixedDeltaTime() == 1.0f / 60.0f);
    CHECK(m.GlobalStateName().empty());

    std::string trace;
    tickfsm::TracePrinter printer(trace);
    m.SetObserver(&printer, "guard");
    m.Perform({9});
    CHECK(m.IsIn<Chase>());
    CHECK(trace.find("Chase") != std::string::npos);
    CHECK(m.SharesTable());

    m.SetGlobalState<Radio>();
    m.Perform({0});
    CHECK(a.alarm == 1);
    CHECK(m.GlobalStateName() == "Radio");
    m.ClearGlobalState();
    m.SetObserver(nullptr);

    m.Reset();
    CHECK_FALSE(m.IsStarted());
    m.Perform({0});
    CHECK(m.IsIn<Patrol>());
    CHECK(m.TrySetState<Chase>());
    CHECK(m.IsIn<Chase>());
    for (int i = 0; i < 3; ++i) m.Perform({0});
    CHECK(m.IsIn<Patrol>()); // 0.05 s at 60 Hz: back on the third tick
    CHECK(a.alarm == 1);

    // The twin, which never needed its block back, is untouched by all this.
    twin.Perform({9});
    CHECK(twin.IsIn<Chase>());
    CHECK(b.alarm == 0);
}
