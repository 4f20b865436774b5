// Parallel regions: a state whose regions are all active at once, each with
// its own active path and time; the order of one tick; leaving the parallel
// state; events to every region; queries across regions; pushes over a
// parallel state; crowds; and the configuration errors.

#include <catch2/catch.hpp>

#include <algorithm>
#include <array>
#include <string>
#include <vector>

#include <tickfsm/tickfsm.hpp>

namespace {

struct Body {
    std::vector<std::string> log;
    bool run = false;
    bool aim = false;
    bool dead = false;
    bool stunned = false;
    bool crouch = false;
    const void* machine = nullptr; // for conditions that ask another region (see Soldier)
};
struct Pad {};

template <const char* kName>
struct Logged {
    void OnStateEnter(Body& b, const Pad&) { b.log.push_back(std::string("enter ") + kName); }
    void Perform(Body& b, const Pad&) { b.log.push_back(kName); }
    void OnStateExit(Body& b, const Pad&) { b.log.push_back(std::string("exit ") + kName); }
};
inline constexpr char kAlive[] = "Alive";
inline constexpr char kDead[] = "Dead";
inline constexpr char kLegs[] = "Legs";
inline constexpr char kStand[] = "Stand";
inline constexpr char kRun[] = "Run";
inline constexpr char kArms[] = "Arms";
inline constexpr char kLower[] = "Lower";
inline constexpr char kAim[] = "Aim";
struct Alive : Logged<kAlive> {};
struct Dead : Logged<kDead> {};
struct Legs : Logged<kLegs> {};
struct Stand : Logged<kStand> {};
struct Run : Logged<kRun> {};
struct Arms : Logged<kArms> {};
struct Lower : Logged<kLower> {};
struct Aim : Logged<kAim> {};

// Alive (parallel)
// ├── Legs: Stand (initial), Run
// └── Arms: Lower (initial), Aim
// Dead
class Soldier : public tickfsm::StateManager<Body, Pad> {
public:
    explicit Soldier(Body& b) : StateManager(b) {
        SetInitialState<Alive>().To<Dead>([](const Body& c) { return c.dead; });
        SetRegions<Alive, Legs, Arms>();
        SetSubstates<Legs, Stand, Run>();
        SetSubstates<Arms, Lower, Aim>();
        From<Stand>().To<Run>([](const Body& c) { return c.run; });
        From<Run>().To<Stand>([](const Body& c) { return !c.run; });
        From<Lower>().To<Aim>([](const Body& c) { return c.aim; });
        From<Aim>().To<Lower>([](const Body& c) { return !c.aim; });
        From<Dead>().To<Alive>([](const Body& c) { return !c.dead; });
    }
};

std::vector<std::string> Take(Body& b) {
    std::vector<std::string> out;
    out.swap(b.log);
    return out;
}

} // namespace

TEST_CASE("Entering a parallel state enters every region in order, each down to its initial state",
          "[regions]") {
    Body body;
    Soldier m(body);
    m.Perform({});
    CHECK(Take(body) == std::vector<std::string>{"enter Alive", "enter Legs", "enter Stand", "enter Arms",
                                                  "enter Lower", "Alive", "Legs", "Stand", "Arms", "Lower"});
    CHECK(m.ActivePath() == "Alive/{Legs/Stand, Arms/Lower}");
    CHECK(m.CurrentStateName() == "Alive");
}

TEST_CASE("Each region takes its own transition in the same tick, the regions in the order written", "[regions]") {
    Body body;
    Soldier m(body);
    m.Perform({});
    Take(body);
    body.run = true;
    body.aim = true;
    m.Perform({});
    CHECK(Take(body) == std::vector<std::string>{"Alive", "exit Stand", "enter Run", "Legs", "Run", "exit Lower",
                                                  "enter Aim", "Arms", "Aim"});
    CHECK(m.ActivePath() == "Alive/{Legs/Run, Arms/Aim}");
}

TEST_CASE("Each region keeps its own time in state and the parallel state's runs on", "[regions]") {
    Body body;
    Soldier m(body);
    m.Perform({});
    m.Perform({});
    body.aim = true;
    m.Perform({}); // Aim entered on Alive's third tick
    m.Perform({});
    CHECK(m.TicksInState<Alive>() == 4);
    CHECK(m.TicksInState<Legs>() == 4);
    CHECK(m.TicksInState<Stand>() == 4);
    CHECK(m.TicksInState<Arms>() == 4);
    CHECK(m.TicksInState<Aim>() == 1);
    CHECK(m.TicksInState<Lower>() == 0); // not active
    CHECK(m.TimeInState<Aim>() == Approx(1.0 / 60.0));
}

TEST_CASE("IsIn ActiveStates and ParentOf see every region", "[regions]") {
    Body body;
    Soldier m(body);
    CHECK_FALSE(m.IsIn<Stand>());
    m.Perform({});
    CHECK(m.IsIn<Alive>());
    CHECK(m.IsIn<Legs>());
    CHECK(m.IsIn<Stand>());
    CHECK(m.IsIn<Lower>());
    CHECK_FALSE(m.IsIn<Aim>());
    CHECK_FALSE(m.IsIn<Dead>());
    std::array<tickfsm::StateId, 8> ids{};
    REQUIRE(m.ActiveStates(ids) == 5);
    CHECK(ids[0] == m.IdOf<Alive>());
    CHECK(ids[1] == m.IdOf<Legs>());
    CHECK(ids[2] == m.IdOf<Stand>());
    CHECK(ids[3] == m.IdOf<Arms>());
    CHECK(ids[4] == m.IdOf<Lower>());
    std::array<tickfsm::StateId, 2> few{};
    CHECK(m.ActiveStates(few) == 5); // counts all, writes what fits
    CHECK(few[1] == m.IdOf<Legs>());
    CHECK(m.ParentOf(m.IdOf<Legs>()) == m.IdOf<Alive>());
    CHECK(m.ParentOf(m.IdOf<Aim>()) == m.IdOf<Arms>());
    body.dead = true;
    m.Perform({});
    CHECK_FALSE(m.IsIn<Stand>());
    CHECK_FALSE(m.IsIn<Legs>());
    CHECK(m.ActiveStates(ids) == 1);
}

TEST_CASE("Leaving the parallel state exits every region the last first and each innermost first", "[regions]") {
    Body body;
    Soldier m(body);
    m.Perform({});
    Take(body);
    body.dead = true;
    m.Perform({});
    CHECK(Take(body) == std::vector<std::string>{"exit Lower", "exit Arms", "exit Stand", "exit Legs", "exit Alive",
                                                  "enter Dead", "Dead"});
    body.dead = false;
    m.Perform({});
    CHECK(m.ActivePath() == "Alive/{Legs/Stand, Arms/Lower}"); // no history: the initial states again
}

namespace {
// A region's transition that leaves its parallel state, and a region's
// condition that asks another region: Arms may aim only while Legs stand.
class Soldier2 : public tickfsm::StateManager<Body, Pad> {
public:
    explicit Soldier2(Body& b) : StateManager(b) {
        b.machine = this;
        SetInitialState<Alive>();
        SetRegions<Alive, Legs, Arms>();
        SetSubstates<Legs, Stand, Run>();
        SetSubstates<Arms, Lower, Aim>();
        From<Stand>().To<Run>([](const Body& c) { return c.run; });
        From<Run>().To<Dead>([](const Body& c) { return c.dead; }); // leaves Alive from inside a region
        From<Lower>().To<Aim>([](const Body& c) {
            return c.aim && static_cast<const Soldier2*>(c.machine)->IsIn<Stand>();
        });
        From<Dead>().To<Alive>([](const Body& c) { return !c.dead; });
    }
};
} // namespace

TEST_CASE("A region's transition out of its parallel state exits every region and stops the tick there",
          "[regions]") {
    Body body;
    Soldier2 m(body);
    body.run = true;
    m.Perform({});
    m.Perform({});
    Take(body);
    body.dead = true;
    m.Perform({});
    // Legs ticks first; its change leaves Alive, so Arms does not tick this
    // time, and Dead, entered after Alive's Perform, performs from the next tick.
    CHECK(Take(body) == std::vector<std::string>{"Alive", "exit Lower", "exit Arms", "exit Run", "exit Legs",
                                                  "exit Alive", "enter Dead"});
    CHECK(m.ActivePath() == "Dead");
}

TEST_CASE("A region's condition can ask whether another region is in a state", "[regions]") {
    Body body;
    Soldier2 m(body);
    m.Perform({});
    body.run = true;
    body.aim = true;
    m.Perform({}); // Legs goes to Run first, so Arms sees Run and does not aim
    CHECK(m.ActivePath() == "Alive/{Legs/Run, Arms/Lower}");
    body.run = false;
    Soldier2 n(body);
    n.Perform({});
    n.Perform({});
    CHECK(n.ActivePath() == "Alive/{Legs/Stand, Arms/Aim}");
}

namespace {
// Events: "down" is taken by both regions; "hold" by Arms only; "die" by
// Alive when no region takes it.
class Listener : public tickfsm::StateManager<Body, Pad> {
public:
    explicit Listener(Body& b) : StateManager(b) {
        SetInitialState<Alive>();
        SetRegions<Alive, Legs, Arms>();
        SetSubstates<Legs, Stand, Run>();
        SetSubstates<Arms, Lower, Aim>();
        From<Stand>().On("go").To<Run>();
        From<Run>().On("down").To<Stand>();
        From<Lower>().On("go").To<Aim>();
        From<Aim>().On("down").To<Lower>();
        From<Alive>().On("die").To<Dead>();
        From<Alive>().On("go").To<Dead>(); // never reached while a region takes "go"
    }
};
} // namespace

TEST_CASE("An event reaches every region, and the parallel state only when no region takes it", "[regions][event]") {
    Body body;
    Listener m(body);
    m.Perform({});
    Take(body);
    CHECK(m.SendEvent("go"));
    CHECK(Take(body) == std::vector<std::string>{"exit Stand", "enter Run", "exit Lower", "enter Aim"});
    CHECK(m.ActivePath() == "Alive/{Legs/Run, Arms/Aim}");
    CHECK_FALSE(m.SendEvent("nothing"));
    CHECK(m.SendEvent("die"));
    CHECK(m.ActivePath() == "Dead");
}

namespace {
struct Hit {
    int damage = 0;
};
struct Brace {
    void OnEvent(Body& b, const Hit& hit) { b.log.push_back("brace " + std::to_string(hit.damage)); }
};
struct Flinch {
    void OnEvent(Body& b, const Hit& hit) { b.log.push_back("flinch " + std::to_string(hit.damage)); }
};
class Wounded : public tickfsm::StateManager<Body, Pad> {
public:
    explicit Wounded(Body& b) : StateManager(b) {
        SetInitialState<Alive>();
        SetRegions<Alive, Legs, Arms>();
        SetSubstates<Legs, Stand, Flinch>();
        SetSubstates<Arms, Brace, Aim>();
        From<Stand>().On<Hit>([](const Body&, const Hit& h) { return h.damage >= 10; }).To<Flinch>();
        From<Brace>().On<Hit>().Handle(); // Arms handles every hit in place
    }
};
} // namespace

TEST_CASE("A typed event reaches every region, each with its own guard", "[regions][event]") {
    Body body;
    Wounded m(body);
    m.Perform({});
    Take(body);
    CHECK(m.SendEvent(Hit{.damage = 5})); // Legs' guard refuses, Arms handles it
    CHECK(Take(body) == std::vector<std::string>{"brace 5"});
    CHECK(m.ActivePath() == "Alive/{Legs/Stand, Arms/Brace}");
    CHECK(m.SendEvent(Hit{.damage = 30}));
    CHECK(Take(body) == std::vector<std::string>{"exit Stand", "flinch 30", "brace 30"});
    CHECK(m.ActivePath() == "Alive/{Legs/Flinch, Arms/Brace}");
}

TEST_CASE("A region remembers its path with history when its parallel state is entered again", "[regions][history]") {
    struct Remembering : Soldier {
        explicit Remembering(Body& b) : Soldier(b) { SetHistory<Legs>(tickfsm::History::Shallow); }
    };
    Body body;
    Remembering m(body);
    body.run = true;
    body.aim = true;
    m.Perform({});
    m.Perform({});
    CHECK(m.ActivePath() == "Alive/{Legs/Run, Arms/Aim}");
    body.dead = true;
    m.Perform({});
    body.dead = false;
    body.aim = false;
    m.Perform({});
    CHECK(m.ActivePath() == "Alive/{Legs/Run, Arms/Lower}"); // Legs remembers Run, Arms starts over
}

TEST_CASE("Deep history above a parallel state brings it back, each region by its own history",
          "[regions][history]") {
    struct Top {};
    struct Away {};
    struct Veteran : tickfsm::StateManager<Body, Pad> {
        explicit Veteran(Body& b) : StateManager(b) {
            SetInitialState<Top>();
            SetSubstates<Top, Away, Alive>();
            SetHistory<Top>(tickfsm::History::Deep);
            SetRegions<Alive, Legs, Arms>();
            SetSubstates<Legs, Stand, Run>();
            SetSubstates<Arms, Lower, Aim>();
            SetHistory<Legs>(tickfsm::History::Shallow); // Arms has none
            From<Away>().To<Alive>([](const Body& c) { return !c.dead; });
            From<Stand>().To<Run>([](const Body& c) { return c.run; });
            From<Lower>().To<Aim>([](const Body& c) { return c.aim; });
            From<Top>().To<Dead>([](const Body& c) { return c.dead; });
            From<Dead>().To<Top>([](const Body& c) { return !c.dead; });
        }
    };
    Body body;
    Veteran m(body);
    body.run = true;
    body.aim = true;
    for (int i = 0; i < 3; ++i) m.Perform({});
    REQUIRE(m.ActivePath() == "Top/Alive/{Legs/Run, Arms/Aim}");
    body.dead = true;
    m.Perform({});
    CHECK(m.IsIn<Dead>());
    body.dead = false;
    body.run = false;
    body.aim = false;
    m.Perform({});
    CHECK(m.ActivePath() == "Top/Alive/{Legs/Run, Arms/Lower}"); // Top's deep history, Legs' own history
}

namespace {
struct Stunned {
    void Perform(Body& b, const Pad&) { b.log.push_back("Stunned"); }
};
struct Paused {
    void OnStatePause(Body& b, const Pad&) { b.log.push_back("pause Paused"); }
    void OnStateResume(Body& b, const Pad&) { b.log.push_back("resume Paused"); }
};
class Stunnable : public tickfsm::StateManager<Body, Pad> {
public:
    explicit Stunnable(Body& b) : StateManager(b) {
        SetPushCapacity<1>();
        SetInitialState<Alive>().Push<Stunned>([](const Body& c) { return c.stunned; });
        SetRegions<Alive, Legs, Arms>();
        SetSubstates<Legs, Paused, Run>();
        SetSubstates<Arms, Lower, Aim>();
        From<Paused>().To<Run>([](const Body& c) { return c.run; });
        From<Stunned>().Pop([](const Body& c) { return !c.stunned; });
        From<Lower>().Push<Stunned>([](const Body& c) { return c.crouch; }); // a push from a region
    }
};
} // namespace

TEST_CASE("A push buries a parallel state with its regions and a pop resumes them with their time", "[regions][push]") {
    Body body;
    Stunnable m(body);
    m.Perform({});
    m.Perform({});
    Take(body);
    body.stunned = true;
    m.Perform({});
    CHECK(Take(body) == std::vector<std::string>{"pause Paused", "Stunned"});
    CHECK(m.ActivePath() == "Stunned");
    CHECK_FALSE(m.IsIn<Paused>());
    body.stunned = false;
    m.Perform({});
    CHECK(Take(body) == std::vector<std::string>{"resume Paused", "Alive", "Legs", "Arms", "Lower"});
    CHECK(m.ActivePath() == "Alive/{Legs/Paused, Arms/Lower}");
    CHECK(m.TicksInState<Alive>() == 3); // the ticks buried do not count
    CHECK(m.TicksInState<Paused>() == 3);
}

TEST_CASE("A push or a NextState from a region is a ConfigError naming the region", "[regions][config_error]") {
    Body body;
    Stunnable m(body);
    m.Perform({});
    body.crouch = true;
    CHECK_THROWS_WITH(m.Perform({}), Catch::Contains("Push<Stunned>() in region Arms (state Lower)"));
    CHECK(m.ActivePath() == "Alive/{Legs/Paused, Arms/Lower}");

    struct Asker {
        void Perform(Body&, const Pad&, tickfsm::Machine<Body, Pad>& machine) { machine.NextState<Aim>(); }
    };
    struct Asking : tickfsm::StateManager<Body, Pad> {
        explicit Asking(Body& b) : StateManager(b) {
            SetInitialState<Alive>();
            SetRegions<Alive, Arms>();
            SetSubstates<Arms, Asker, Aim>();
        }
    };
    Asking n(body);
    CHECK_THROWS_WITH(n.Perform({}), Catch::Contains("NextState() called from state Asker in region Arms"));

    struct Reverter {
        void Perform(Body&, const Pad&, tickfsm::Machine<Body, Pad>& machine) { machine.RevertToPreviousState(); }
    };
    struct Reverting : tickfsm::StateManager<Body, Pad> {
        explicit Reverting(Body& b) : StateManager(b) {
            KeepPreviousState();
            SetInitialState<Alive>();
            SetRegions<Alive, Arms>();
            SetSubstates<Arms, Reverter, Aim>();
        }
    };
    Reverting r(body);
    CHECK_THROWS_WITH(r.Perform({}), Catch::Contains("RevertToPreviousState() called from state Reverter in region "
                                                     "Arms: the request for the next tick and the previous state are "
                                                     "the machine's own"));
}

TEST_CASE("Regions misconfigured are ConfigErrors naming the states, and the machine stays usable",
          "[regions][config_error]") {
    struct Plain : tickfsm::StateManager<Body, Pad> {
        explicit Plain(Body& b) : StateManager(b) {
            SetInitialState<Alive>().To<Dead>([](const Body& c) { return c.dead; });
            SetRegions<Alive, Legs, Arms>();
            SetSubstates<Legs, Stand, Run>();
        }
    };
    Body body;
    Plain m(body);
    CHECK_THROWS_WITH((m.SetRegions<Alive, Lower>()), Catch::Contains("Alive holds regions already (its first is Legs)"));
    CHECK_THROWS_WITH((m.SetRegions<Legs, Lower>()), Catch::Contains("Legs holds substates (its initial substate is Stand)"));
    CHECK_THROWS_WITH((m.SetSubstates<Alive, Lower>()), Catch::Contains("Alive holds regions (SetRegions)"));
    CHECK_THROWS_WITH((m.SetRegions<Dead, Stand>()), Catch::Contains("Stand is a substate of Legs already"));
    CHECK_THROWS_WITH((m.SetRegions<Dead, Legs>()), Catch::Contains("Legs is a region of Alive already"));
    CHECK_THROWS_WITH((m.SetSubstates<Dead, Arms>()), Catch::Contains("Arms is a region of Alive already"));
    CHECK_THROWS_WITH((m.SetRegions<Run, Alive>()), Catch::Contains("Alive would be its own ancestor"));
    CHECK_THROWS_WITH((m.SetRegions<Dead, Aim, Aim>()), Catch::Contains("Aim is listed twice"));
    CHECK_THROWS_WITH(m.SetGlobalState<Legs>(), Catch::Contains("Legs is a nested state"));
    m.Perform({});
    CHECK(m.ActivePath() == "Alive/{Legs/Stand, Arms}");
    body.dead = true;
    m.Perform({});
    CHECK(m.ActivePath() == "Dead");
    CHECK_THROWS_WITH(m.ForceSetState<Run>(), Catch::Contains("entering Run from Dead: Run is in region Legs of Alive"));
    CHECK(m.ActivePath() == "Dead");
}

TEST_CASE("A transition into a region's middle from outside is a ConfigError naming the states",
          "[regions][config_error]") {
    struct Into : tickfsm::StateManager<Body, Pad> {
        explicit Into(Body& b) : StateManager(b) {
            SetInitialState<Dead>().To<Run>([](const Body& c) { return !c.dead; });
            SetRegions<Alive, Legs, Arms>();
            SetSubstates<Legs, Stand, Run>();
        }
    };
    Body body;
    CHECK_THROWS_WITH([&] { Into(body).Perform({}); }(),
                      Catch::Contains("Dead -> Run: Run is in region Legs of Alive, and Dead is not"));

    struct Across : tickfsm::StateManager<Body, Pad> {
        explicit Across(Body& b) : StateManager(b) {
            SetInitialState<Alive>();
            SetRegions<Alive, Legs, Arms>();
            SetSubstates<Legs, Stand, Run>();
            SetSubstates<Arms, Lower, Aim>();
            From<Aim>().To<Run>([](const Body&) { return true; }); // from one region into another
        }
    };
    CHECK_THROWS_WITH([&] { Across(body).Perform({}); }(),
                      Catch::Contains("Aim -> Run: Run is in region Legs of Alive, and Aim is not"));

    struct StartsInside : tickfsm::StateManager<Body, Pad> {
        explicit StartsInside(Body& b) : StateManager(b) {
            SetInitialState<Stand>();
            SetRegions<Alive, Legs>();
            SetSubstates<Legs, Stand, Run>();
        }
    };
    CHECK_THROWS_WITH([&] { StartsInside(body).Perform({}); }(),
                      Catch::Contains("SetInitialState<Stand>(): Stand is in region Legs of Alive"));
}

namespace {
inline constexpr char kGun[] = "Gun";
inline constexpr char kSight[] = "Sight";
inline constexpr char kReady[] = "Ready";
inline constexpr char kScope[] = "Scope";
struct Gun : Logged<kGun> {};
struct Sight : Logged<kSight> {};
struct Ready : Logged<kReady> {};
struct Scope : Logged<kScope> {};

// Alive (parallel)
// ├── Legs: Stand, Run
// └── Arms: Lower, Aim (parallel)
//              ├── Gun: Ready
//              └── Sight: Scope
class Sniper : public tickfsm::StateManager<Body, Pad> {
public:
    explicit Sniper(Body& b) : StateManager(b) {
        SetInitialState<Alive>().To<Dead>([](const Body& c) { return c.dead; });
        SetRegions<Alive, Legs, Arms>();
        SetSubstates<Legs, Stand, Run>();
        SetSubstates<Arms, Lower, Aim>();
        SetRegions<Aim, Gun, Sight>();
        SetSubstates<Gun, Ready>();
        SetSubstates<Sight, Scope>();
        From<Lower>().To<Aim>([](const Body& c) { return c.aim; });
        From<Scope>().To<Lower>([](const Body& c) { return !c.aim; }); // leaves Aim from its inner region
    }
};
} // namespace

TEST_CASE("A region may hold a parallel state of its own", "[regions]") {
    Body body;
    Sniper m(body);
    m.Perform({});
    body.aim = true;
    m.Perform({});
    CHECK(m.ActivePath() == "Alive/{Legs/Stand, Arms/Aim/{Gun/Ready, Sight/Scope}}");
    CHECK(m.IsIn<Scope>());
    m.Perform({});
    CHECK(m.TicksInState<Scope>() == 1);
    Take(body);
    body.aim = false;
    m.Perform({});
    CHECK(Take(body) == std::vector<std::string>{"Alive", "Legs", "Stand", "Arms", "Aim", "Gun", "Ready",
                                                  "exit Scope", "exit Sight", "exit Ready", "exit Gun", "exit Aim",
                                                  "enter Lower"});
    CHECK(m.ActivePath() == "Alive/{Legs/Stand, Arms/Lower}");
    body.dead = true;
    m.Perform({});
    CHECK(m.ActivePath() == "Dead");
}

TEST_CASE("An observer hears which region changed state", "[regions][observer]") {
    struct Heard : tickfsm::Observer {
        std::vector<std::string> lines;
        void OnTransition(const tickfsm::TransitionInfo& info) override {
            lines.push_back(std::string(info.region) + ":" + std::string(info.from) + "->" + std::string(info.to));
        }
    } heard;
    Body body;
    Soldier m(body);
    m.SetObserver(&heard, "soldier");
    m.Perform({});
    body.aim = true;
    m.Perform({});
    CHECK(heard.lines == std::vector<std::string>{":->Alive", "Legs:->Stand", "Arms:->Lower", "Arms:Lower->Aim"});
}

TEST_CASE("An observer hears the index and owner of a region's transition that leaves the parallel state",
          "[regions][observer]") {
    struct Heard : tickfsm::Observer {
        std::vector<std::string> lines;
        void OnTransition(const tickfsm::TransitionInfo& info) override {
            lines.push_back(std::string(info.owner) + "#" + std::to_string(info.condition) + ":" +
                            std::string(info.from) + "->" + std::string(info.to));
        }
    } heard;
    class Fragile : public Soldier {
    public:
        explicit Fragile(Body& b) : Soldier(b) {
            From<Aim>().To<Dead>([](const Body& c) { return c.stunned; }); // Aim's second transition
        }
    };
    Body body;
    Fragile m(body);
    m.SetObserver(&heard, "soldier");
    m.Perform({});
    body.aim = true;
    m.Perform({});
    body.stunned = true;
    heard.lines.clear();
    m.Perform({});
    CHECK(m.ActivePath() == "Dead");
    CHECK(heard.lines == std::vector<std::string>{"Aim#1:Alive->Dead"});
}

TEST_CASE("States and Transitions describe regions", "[regions][describe]") {
    Body body;
    Soldier m(body);
    int parallel = 0;
    int regions = 0;
    for (const tickfsm::StateInfo& info : m.States()) {
        if (info.parallel) {
            ++parallel;
            CHECK(info.name == "Alive");
        }
        if (info.region) {
            ++regions;
            CHECK(info.parent == m.IdOf<Alive>());
        }
    }
    CHECK(parallel == 1);
    CHECK(regions == 2);
}

TEST_CASE("A crowd of machines with regions ticks each character's regions", "[regions][crowd]") {
    tickfsm::Crowd<Soldier> crowd(3);
    std::vector<Body> bodies(3);
    bodies[1].run = true;
    bodies[2].aim = true;
    bodies[2].run = true;
    for (int t = 0; t < 3; ++t)
        for (std::size_t i = 0; i < 3; ++i) crowd.Perform(i, bodies[i], Pad{});
    CHECK(crowd.IsIn<Stand>(0));
    CHECK(crowd.IsIn<Lower>(0));
    CHECK(crowd.IsIn<Run>(1));
    CHECK(crowd.IsIn<Lower>(1));
    CHECK(crowd.IsIn<Run>(2));
    CHECK(crowd.IsIn<Aim>(2));
    CHECK_FALSE(crowd.IsIn<Stand>(2));
    bodies[2].dead = true;
    crowd.Perform(2, bodies[2], Pad{});
    CHECK(crowd.IsIn<Dead>(2));
    CHECK_FALSE(crowd.IsIn<Aim>(2));
}

TEST_CASE("A hook in a region can ask for a state outside it", "[regions]") {
    struct Quitter {
        void Perform(Body& b, const Pad&, tickfsm::Machine<Body, Pad>& machine) {
            if (b.dead) machine.ForceSetState<Dead>();
        }
    };
    struct Quitting : tickfsm::StateManager<Body, Pad> {
        explicit Quitting(Body& b) : StateManager(b) {
            SetInitialState<Alive>();
            SetRegions<Alive, Legs, Arms>();
            SetSubstates<Legs, Quitter>();
            SetSubstates<Arms, Lower>();
            From<Dead>().To<Alive>([](const Body& c) { return !c.dead; });
        }
    };
    Body body;
    Quitting m(body);
    m.Perform({});
    Take(body);
    body.dead = true;
    m.Perform({});
    CHECK(Take(body) == std::vector<std::string>{"Alive", "Legs", "exit Lower", "exit Arms", "exit Legs",
                                                  "exit Alive", "enter Dead"});
    CHECK(m.ActivePath() == "Dead");
}

namespace {
struct Reload {
    void Perform(Body& b, const Pad&, tickfsm::Machine<Body, Pad>& machine) {
        b.log.push_back("Reload " + std::to_string(machine.TicksInState()));
        if (machine.TicksInState() == 2) machine.Done();
    }
    bool CanExitState(const Body&, const tickfsm::StateRef&) const { return false; } // until Done()
};
struct Fire {
    void OnStateEnter(Body& b, const Pad&) { b.log.push_back("enter Fire"); }
};
struct Holster {};
} // namespace

TEST_CASE("Pass-through states and waiting transitions work inside a region", "[regions][pass_through]") {
    struct Armed : tickfsm::StateManager<Body, Pad> {
        explicit Armed(Body& b) : StateManager(b) {
            SetInitialState<Alive>();
            SetRegions<Alive, Legs, Arms>();
            SetSubstates<Legs, Stand, Run>();
            SetSubstates<Arms, Lower, Aim, Holster>();
            SetSubstates<Aim, Reload, Fire>();
            SetPassThrough<Lower>();
            From<Lower>().To<Aim>([](const Body& c) { return c.aim; });
            From<Aim>().ToWhenDone<Holster>([](const Body&) { return true; }); // waits for Reload's Done()
            From<Holster>().To<Lower>([](const Body& c) { return !c.aim; });
        }
    };
    Body body;
    body.aim = true;
    Armed m(body);
    m.Perform({}); // Lower passes through to Aim in the tick it is entered
    CHECK(m.ActivePath() == "Alive/{Legs/Stand, Arms/Aim/Reload}");
    m.Perform({});
    CHECK(m.ActivePath() == "Alive/{Legs/Stand, Arms/Aim/Reload}"); // Aim's transition waits
    m.Perform({});
    CHECK(m.ActivePath() == "Alive/{Legs/Stand, Arms/Aim/Reload}"); // Done() from this tick's Perform
    m.Perform({});
    CHECK(m.ActivePath() == "Alive/{Legs/Stand, Arms/Holster}");
    CHECK(std::find(body.log.begin(), body.log.end(), "Reload 2") != body.log.end());
}

TEST_CASE("An Ensemble's posts reach every region of the receiver", "[regions][ensemble]") {
    Body body;
    Listener m(body);
    tickfsm::Ensemble<Body, Pad> ensemble;
    ensemble.Add(m, "listener");
    ensemble.Perform({});
    ensemble.Post(0, tickfsm::Event("go"));
    ensemble.Perform({});
    CHECK(m.ActivePath() == "Alive/{Legs/Run, Arms/Aim}");
}

namespace region_siblings {
struct Moving {};
struct Feet {};
struct Head {};
struct OnFoot {};
struct InAir {};
struct Step {};
struct Stride {};
struct Hop {};
struct Glide {};
// Moving (parallel)
// ├── Feet: OnFoot = {Step, Stride}, InAir = {Hop, Glide}
// └── Head
class Runner : public tickfsm::StateManager<Body, Pad> {
public:
    explicit Runner(Body& b) : StateManager(b) {
        SetInitialState<Moving>();
        SetRegions<Moving, Feet, Head>();
        SetSubstates<Feet, OnFoot, InAir>();
        SetSubstates<OnFoot, Step, Stride>();
        SetSubstates<InAir, Hop, Glide>();
        From<Step>().To<Hop>([](const Body& c) { return c.run; });
        From<Hop>().To<Stride>([](const Body& c) { return !c.run; });
    }
};
} // namespace region_siblings

TEST_CASE("Composite siblings in a region share one counter, each with its own time", "[regions][crowd]") {
    using namespace region_siblings;
    // Per character: the machine's Runtime, a Runtime per region, and two
    // counters: Feet's, and one that OnFoot and InAir share.
    CHECK(tickfsm::Crowd<Runner>(1).BytesPerCharacter() == 8 + 2 * 8 + 2 * 4);
    Body body;
    Runner m(body);
    for (int i = 0; i < 3; ++i) m.Perform({});
    CHECK(m.TicksInState<OnFoot>() == 3);
    body.run = true;
    m.Perform({}); // Step -> Hop on Feet's fourth tick
    m.Perform({});
    m.Perform({});
    CHECK(m.TicksInState<InAir>() == 2);
    CHECK(m.TicksInState<OnFoot>() == 0); // not active
    CHECK(m.TicksInState<Feet>() == 6);
    body.run = false;
    m.Perform({}); // Hop -> Stride: OnFoot entered again
    m.Perform({});
    CHECK(m.TicksInState<OnFoot>() == 1);
    CHECK(m.TicksInState<Stride>() == 1);
    CHECK(m.TicksInState<InAir>() == 0);
    CHECK(m.TicksInState<Feet>() == 8);
    CHECK(m.TicksInState<Moving>() == 8);
}

namespace {
struct Heard : tickfsm::Observer {
    std::vector<std::string> lines;
    void OnTransition(const tickfsm::TransitionInfo& info) override {
        lines.push_back(std::string(info.region) + ":" + std::string(info.from) + "->" + std::string(info.to));
    }
};
struct Dazed {};
class PushedSoldier : public Soldier {
public:
    explicit PushedSoldier(Body& b) : Soldier(b) {
        SetPushCapacity<1>();
        From<Dazed>();
    }
};
} // namespace

TEST_CASE("A pop that brings a parallel state back tells the observer each region is current again",
          "[regions][push][observer]") {
    Heard heard;
    Body body;
    PushedSoldier m(body);
    m.SetObserver(&heard, "soldier");
    m.Perform({});
    body.aim = true;
    m.Perform({});
    heard.lines.clear();
    m.Push<Dazed>();
    m.Pop();
    CHECK(heard.lines == std::vector<std::string>{":Alive->Dazed", ":Dazed->Alive", "Legs:->Stand", "Arms:->Aim"});
    CHECK(m.ActivePath() == "Alive/{Legs/Stand, Arms/Aim}");
}

TEST_CASE("A direct change to a state of an active region is made in that region", "[regions][direct]") {
    Body body;
    Soldier m(body);
    m.Perform({});
    CHECK(m.TrySetState<Run>());
    CHECK(m.ActivePath() == "Alive/{Legs/Run, Arms/Lower}");
    CHECK_FALSE(m.TrySetState<Run>()); // already in it
    m.ForceSetState<Aim>();
    CHECK(m.ActivePath() == "Alive/{Legs/Run, Arms/Aim}");
    body.aim = true;
    body.run = true;
    m.Perform({});
    CHECK(m.ActivePath() == "Alive/{Legs/Run, Arms/Aim}");
}

namespace {
struct Guarded {
    bool locked = true;
    std::vector<std::string> asked;
};
struct Poised { // a region's leaf that refuses to be left while locked
    bool CanExitState(const Guarded& g, const tickfsm::StateRef& to) const {
        const_cast<Guarded&>(g).asked.push_back(std::string("exit Poised to ") + std::string(to.Name()));
        return !g.locked;
    }
};
struct Strike {
    bool CanEnterState(const Guarded& g, const tickfsm::StateRef& from) const {
        const_cast<Guarded&>(g).asked.push_back(std::string("enter Strike from ") + std::string(from.Name()));
        return true;
    }
};
struct Fighter2 {};
struct Feet {};
struct Hands {};
struct Planted {};
struct Moving {};
class Duelist : public tickfsm::StateManager<Guarded, Pad> {
public:
    explicit Duelist(Guarded& g) : StateManager(g) {
        SetInitialState<Fighter2>();
        SetRegions<Fighter2, Feet, Hands>();
        SetSubstates<Feet, Planted, Moving>();
        SetSubstates<Hands, Poised, Strike>();
    }
};
} // namespace

TEST_CASE("A direct change into a region asks that region's leaf and the target, not the parallel state",
          "[regions][direct][gates]") {
    Guarded g;
    Duelist m(g);
    m.Perform({});
    CHECK_FALSE(m.TrySetState<Strike>());
    CHECK(m.ActivePath() == "Fighter2/{Feet/Planted, Hands/Poised}");
    CHECK(g.asked == std::vector<std::string>{"exit Poised to Strike"});
    g.asked.clear();
    tickfsm::InputBuffer buffer(m);
    CHECK_FALSE(buffer.Buffer<Strike>(1.0f));
    m.Perform({});
    CHECK(m.IsIn<Poised>());
    g.locked = false;
    g.asked.clear();
    m.Perform({});
    buffer.Update();
    CHECK_FALSE(buffer.IsBuffering());
    CHECK(m.ActivePath() == "Fighter2/{Feet/Planted, Hands/Strike}");
    CHECK(g.asked == std::vector<std::string>{"exit Poised to Strike", "enter Strike from Poised"});
    CHECK(m.TrySetState<Moving>()); // the other region's leaf has no gate
    CHECK(m.ActivePath() == "Fighter2/{Feet/Moving, Hands/Strike}");
}

namespace {
inline constexpr tickfsm::Event kFlee{"flee"};
struct Alarm { // a global state's hook and the parallel state's send to the regions
    void Perform(Body& b, const Pad&, tickfsm::Machine<Body, Pad>& m) {
        if (b.stunned) m.SendEvent(kFlee);
    }
};
struct Stance {
    void Perform(Body& b, const Pad&, tickfsm::Machine<Body, Pad>& m) {
        if (b.crouch) m.SendEvent(kFlee);
    }
};
class Fleeing : public tickfsm::StateManager<Body, Pad> {
public:
    explicit Fleeing(Body& b) : StateManager(b) {
        SetInitialState<Stance>();
        SetRegions<Stance, Legs, Arms>();
        SetSubstates<Legs, Stand, Run>();
        SetSubstates<Arms, Lower, Aim>();
        From<Stand>().On(kFlee).To<Run>();
        From<Alarm>();
    }
};
} // namespace

TEST_CASE("An event a hook sends from outside the regions reaches them first", "[regions][event]") {
    Body body;
    Fleeing m(body);
    m.SetGlobalState<Alarm>();
    m.Perform({});
    body.stunned = true; // the global state's hook
    m.Perform({});
    CHECK(m.ActivePath() == "Stance/{Legs/Run, Arms/Lower}");
    body.stunned = false;
    m.ForceSetState<Stand>();
    body.crouch = true; // the parallel state's own hook
    m.Perform({});
    CHECK(m.ActivePath() == "Stance/{Legs/Run, Arms/Lower}");
}
