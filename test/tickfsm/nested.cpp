// Nested states: substates, the order of one tick along the active path,
// exits and enters up to the common ancestor, time per level, history,
// events from the leaf outward, queries and the configuration errors.

#include <catch2/catch.hpp>

#include <array>
#include <stdexcept>
#include <string>
#include <vector>

#include <tickfsm/tickfsm.hpp>

namespace {

struct Hero {
    std::vector<std::string> log;
    bool enemy = false;
    bool swing = false;
    bool guard = false;
    bool heavy = false;
    std::string fuse; // the hook that logs this line throws, once
    void Note(std::string line) {
        log.push_back(line);
        if (line == fuse) {
            fuse.clear();
            throw std::runtime_error(line);
        }
    }
};
struct Pad {};

// A state that logs its hooks under its own name.
template <const char* kName>
struct Logged {
    void OnStateEnter(Hero& h, const Pad&) { h.Note(std::string("enter ") + kName); }
    void Perform(Hero& h, const Pad&) { h.Note(kName); }
    void OnStateExit(Hero& h, const Pad&) { h.Note(std::string("exit ") + kName); }
};
inline constexpr char kIdle[] = "Idle";
inline constexpr char kCombat[] = "Combat";
inline constexpr char kAttack[] = "Attack";
inline constexpr char kBlock[] = "Block";
inline constexpr char kLight[] = "Light";
inline constexpr char kHeavy[] = "Heavy";
struct Idle : Logged<kIdle> {};
struct Combat : Logged<kCombat> {};
struct Attack : Logged<kAttack> {};
struct Block : Logged<kBlock> {};
struct Light : Logged<kLight> {};
struct Heavy : Logged<kHeavy> {};

// Idle
// Combat
// ├── Attack (initial)
// │   ├── Light (initial)
// │   └── Heavy
// └── Block
class HeroMachine : public tickfsm::StateManager<Hero, Pad> {
public:
    explicit HeroMachine(Hero& h, tickfsm::History history = tickfsm::History::None) : StateManager(h) {
        SetSubstates<Combat, Attack, Block>();
        SetSubstates<Attack, Light, Heavy>();
        if (history != tickfsm::History::None) SetHistory<Combat>(history);
        SetInitialState<Idle>().To<Combat>([](const Hero& c) { return c.enemy; });
        From<Combat>().To<Idle>([](const Hero& c) { return !c.enemy; });
        From<Attack>().To<Block>([](const Hero& c) { return c.guard; });
        From<Block>().To<Attack>([](const Hero& c) { return !c.guard; });
        From<Light>().To<Heavy>([](const Hero& c) { return c.heavy; });
    }
};

std::vector<std::string> Take(Hero& h) {
    std::vector<std::string> out;
    out.swap(h.log);
    return out;
}

} // namespace

TEST_CASE("Entering a composite state enters its initial substate, outermost first", "[nested]") {
    Hero hero;
    HeroMachine m(hero);
    m.Perform({});
    CHECK(Take(hero) == std::vector<std::string>{"enter Idle", "Idle"});
    hero.enemy = true;
    m.Perform({});
    CHECK(Take(hero) == std::vector<std::string>{"exit Idle", "enter Combat", "enter Attack", "enter Light", "Combat",
                                                 "Attack", "Light"});
    CHECK(m.CurrentStateName() == "Light");
    CHECK(m.ActivePath() == "Combat/Attack/Light");
    CHECK(m.IsIn<Combat>());
    CHECK(m.IsIn<Attack>());
    CHECK(m.IsIn<Light>());
    CHECK_FALSE(m.IsIn<Idle>());
    CHECK_FALSE(m.IsIn<Block>());
}

TEST_CASE("A parent's transitions are tried before its substates' and leave from the active leaf", "[nested]") {
    Hero hero;
    HeroMachine m(hero);
    hero.enemy = true;
    m.Perform({});
    m.Perform({});
    Take(hero);
    // Both Combat -> Idle and Attack -> Block hold: the outermost, Combat's, fires.
    hero.enemy = false;
    hero.guard = true;
    m.Perform({});
    CHECK(Take(hero) == std::vector<std::string>{"exit Light", "exit Attack", "exit Combat", "enter Idle", "Idle"});
    CHECK(m.ActivePath() == "Idle");
}

TEST_CASE("A change between siblings exits and enters only below their common parent", "[nested]") {
    Hero hero;
    HeroMachine m(hero);
    hero.enemy = true;
    m.Perform({});
    m.Perform({});
    m.Perform({});
    Take(hero);
    CHECK(m.TicksInState<Combat>() == 2);
    hero.guard = true;
    m.Perform({});
    CHECK(Take(hero) == std::vector<std::string>{"exit Light", "exit Attack", "enter Block", "Combat", "Block"});
    CHECK(m.ActivePath() == "Combat/Block");
    // The parent's time runs on; the new leaf's starts at 0.
    CHECK(m.TicksInState<Combat>() == 3);
    CHECK(m.TicksInState() == 0);
    CHECK(m.TicksInState<Block>() == 0);
    CHECK(m.TicksInState<Attack>() == 0); // not active
    CHECK(m.TimeInState<Combat>() == Approx(3.0 / 60.0));
}

TEST_CASE("A transition into a deeper substate enters the states on the way", "[nested]") {
    struct Jumper : tickfsm::StateManager<Hero, Pad> {
        explicit Jumper(Hero& h) : StateManager(h) {
            SetSubstates<Combat, Attack, Block>();
            SetSubstates<Attack, Light, Heavy>();
            SetInitialState<Idle>().To<Heavy>([](const Hero& c) { return c.heavy; });
            From<Combat>().To<Idle>([](const Hero& c) { return !c.heavy; });
        }
    };
    Hero hero;
    Jumper m(hero);
    m.Perform({});
    Take(hero);
    hero.heavy = true;
    m.Perform({});
    CHECK(Take(hero) == std::vector<std::string>{"exit Idle", "enter Combat", "enter Attack", "enter Heavy", "Combat",
                                                 "Attack", "Heavy"});
    CHECK(m.ActivePath() == "Combat/Attack/Heavy");
}

TEST_CASE("A transition to an active composite state leaves it and enters it again", "[nested]") {
    struct Restart : tickfsm::StateManager<Hero, Pad> {
        explicit Restart(Hero& h) : StateManager(h) {
            SetSubstates<Combat, Attack, Block>();
            SetInitialState<Combat>();
            From<Attack>().To<Block>([](const Hero& c) { return c.guard; });
            From<Block>().To<Combat>([](const Hero& c) { return c.swing; });
        }
    };
    Hero hero;
    Restart m(hero);
    hero.guard = true;
    m.Perform({});
    m.Perform({});
    CHECK(m.ActivePath() == "Combat/Block");
    Take(hero);
    hero.guard = false;
    hero.swing = true;
    m.Perform({});
    CHECK(Take(hero) == std::vector<std::string>{"exit Block", "exit Combat", "enter Combat", "enter Attack", "Combat",
                                                 "Attack"});
}

TEST_CASE("A parent's transition into its own substate keeps the parent active", "[nested]") {
    struct Inward : tickfsm::StateManager<Hero, Pad> {
        explicit Inward(Hero& h) : StateManager(h) {
            SetSubstates<Combat, Attack, Block>();
            SetInitialState<Combat>();
            From<Combat>().To<Block>([](const Hero& c) { return c.guard; });
        }
    };
    Hero hero;
    Inward m(hero);
    m.Perform({});
    m.Perform({});
    Take(hero);
    hero.guard = true;
    m.Perform({});
    CHECK(Take(hero) == std::vector<std::string>{"exit Attack", "enter Block", "Combat", "Block"});
    CHECK(m.TicksInState<Combat>() == 3);
}

TEST_CASE("Shallow history re-enters the substate held last, deep history the whole path", "[nested][history]") {
    auto run = [](tickfsm::History history) {
        Hero hero;
        HeroMachine m(hero, history);
        hero.enemy = true;
        m.Perform({});
        hero.heavy = true;
        m.Perform({}); // Combat/Attack/Heavy
        REQUIRE(m.ActivePath() == "Combat/Attack/Heavy");
        hero.heavy = false;
        hero.enemy = false;
        m.Perform({}); // Idle
        REQUIRE(m.ActivePath() == "Idle");
        hero.enemy = true;
        m.Perform({});
        return m.ActivePath();
    };
    CHECK(run(tickfsm::History::None) == "Combat/Attack/Light");
    CHECK(run(tickfsm::History::Shallow) == "Combat/Attack/Light"); // Attack remembered, then its initial substate
    CHECK(run(tickfsm::History::Deep) == "Combat/Attack/Heavy");
}

TEST_CASE("Shallow history remembers the substate of the composite it is set on", "[nested][history]") {
    Hero hero;
    HeroMachine m(hero, tickfsm::History::Shallow);
    hero.enemy = true;
    m.Perform({});
    hero.guard = true;
    m.Perform({});
    REQUIRE(m.ActivePath() == "Combat/Block");
    hero.enemy = false;
    m.Perform({});
    REQUIRE(m.ActivePath() == "Idle");
    hero.enemy = true;
    m.Perform({});
    CHECK(m.ActivePath() == "Combat/Block");
}

TEST_CASE("Events go from the active leaf outward to the first state that handles them", "[nested][event]") {
    struct Evented : tickfsm::StateManager<Hero, Pad> {
        explicit Evented(Hero& h) : StateManager(h) {
            SetSubstates<Combat, Attack, Block>();
            SetInitialState<Combat>().On("calm").To<Idle>();
            From<Attack>().On("parry").To<Block>();
            From<Combat>().On("parry").To<Idle>(); // the leaf's own transition wins
            From<Idle>();
        }
    };
    Hero hero;
    Evented m(hero);
    m.Perform({});
    CHECK(m.SendEvent("parry"));
    CHECK(m.ActivePath() == "Combat/Block");
    CHECK(m.SendEvent("calm")); // handled by the parent
    CHECK(m.ActivePath() == "Idle");
    CHECK_FALSE(m.SendEvent("parry"));
}

TEST_CASE("The active path is given as ids, outermost first, with each state's parent", "[nested]") {
    Hero hero;
    HeroMachine m(hero);
    hero.enemy = true;
    m.Perform({});
    std::array<tickfsm::StateId, 4> ids{};
    REQUIRE(m.ActiveStates(ids) == 3);
    CHECK(ids[0] == m.IdOf<Combat>());
    CHECK(ids[1] == m.IdOf<Attack>());
    CHECK(ids[2] == m.IdOf<Light>());
    CHECK(m.ParentOf(m.IdOf<Light>()) == m.IdOf<Attack>());
    CHECK_FALSE(m.ParentOf(m.IdOf<Combat>()).Valid());
    std::array<tickfsm::StateId, 1> one{};
    CHECK(m.ActiveStates(one) == 3); // as many as fit are written
    CHECK(one[0] == m.IdOf<Combat>());
}

TEST_CASE("A direct change to a composite enters its initial substate and TrySetState to an active one does nothing",
          "[nested]") {
    Hero hero;
    HeroMachine m(hero);
    m.Perform({});
    m.ForceSetState<Combat>();
    CHECK(m.ActivePath() == "Combat/Attack/Light");
    Take(hero);
    CHECK_FALSE(m.TrySetState<Combat>());
    CHECK_FALSE(m.TrySetState<Attack>());
    CHECK(Take(hero).empty());
    CHECK(m.TrySetState<Block>());
    CHECK(m.ActivePath() == "Combat/Block");
}

TEST_CASE("A dry run tries the whole active path with each level's next time", "[nested]") {
    struct Timed : tickfsm::StateManager<Hero, Pad> {
        explicit Timed(Hero& h) : StateManager(h) {
            SetSubstates<Combat, Attack, Block>();
            SetInitialState<Combat>().To<Idle>([](const Hero&, const Pad&, float t) { return t >= 3.0f / 60.0f; });
            From<Attack>().To<Block>([](const Hero&, const Pad&, float t) { return t >= 1.5f / 60.0f; });
            From<Block>().To<Attack>([](const Hero&, const Pad&, float t) { return t >= 1.5f / 60.0f; });
        }
    };
    Hero hero;
    Timed m(hero);
    CHECK_FALSE(m.WouldTransition({}).Valid()); // Combat 1 tick, Attack 1 tick
    m.Perform({});
    REQUIRE(m.WouldTransition({}) == m.IdOf<Block>()); // Attack's second tick
    m.Perform({});
    CHECK(m.ActivePath() == "Combat/Block");
    REQUIRE(m.WouldTransition({}) == m.IdOf<Idle>()); // Combat's third tick, tried first
    m.Perform({});
    CHECK(m.ActivePath() == "Idle");
}

TEST_CASE("A crowd of nested machines ticks each character along its own path", "[nested][crowd]") {
    tickfsm::Crowd<HeroMachine> crowd(3);
    std::vector<Hero> heroes(3);
    heroes[1].enemy = true;
    heroes[2].enemy = true;
    heroes[2].guard = true;
    for (int t = 0; t < 3; ++t)
        for (std::size_t i = 0; i < 3; ++i) crowd.Perform(i, heroes[i], Pad{});
    CHECK(crowd.IsIn<Idle>(0));
    CHECK(crowd.IsIn<Combat>(1));
    CHECK(crowd.IsIn<Light>(1));
    CHECK(crowd.IsIn<Combat>(2));
    CHECK(crowd.IsIn<Block>(2));
    CHECK_FALSE(crowd.IsIn<Attack>(2));
}

TEST_CASE("A composite costs a crowd character 4 bytes, and history 2 more as alignment rounds them",
          "[nested][crowd][history]") {
    Hero prototype;
    tickfsm::Crowd<HeroMachine> plain(1, prototype);
    tickfsm::Crowd<HeroMachine> remembering(1, prototype, tickfsm::History::Shallow);
    // Combat and Attack hold substates; the states themselves hold no data.
    CHECK(plain.BytesPerCharacter() == 8 + 2 * 4);
    CHECK(remembering.BytesPerCharacter() == 8 + 12);
}

namespace siblings {
struct Body {};
struct Top {};
struct Ground {};
struct Air {};
struct Stand {};
struct Walk {};
struct Rise {};
struct Drop {};
// Top = {Ground = {Stand, Walk}, Air = {Rise, Drop}}: Ground and Air are
// composite siblings. kPush 0: no push stack; 1: SetPushCapacity after the tree; 2: before it.
template <int kPush>
class Machine : public tickfsm::StateManager<Body, Pad> {
public:
    explicit Machine(Body& b) : StateManager(b) {
        if constexpr (kPush == 2) SetPushCapacity<1>();
        SetSubstates<Top, Ground, Air>();
        SetSubstates<Ground, Stand, Walk>();
        SetSubstates<Air, Rise, Drop>();
        if constexpr (kPush == 1) SetPushCapacity<1>();
        SetInitialState<Stand>();
        From<Rise>();
        From<Walk>();
        From<Drop>();
    }
};
} // namespace siblings

TEST_CASE("Composite siblings share one counter, each with its own time", "[nested][crowd]") {
    using namespace siblings;
    Body body;
    Machine<0> m(body);
    tickfsm::Crowd<Machine<0>> crowd(1);
    CHECK(crowd.BytesPerCharacter() == 8 + 2 * 4); // Top's counter, and one for Ground and Air
    for (int i = 0; i < 3; ++i) m.Perform({});
    CHECK(m.TicksInState<Ground>() == 3);
    m.ForceSetState(m.IdOf<Rise>());
    CHECK(m.TicksInState<Air>() == 0);
    CHECK(m.TicksInState<Ground>() == 0); // not active
    m.Perform({});
    m.Perform({});
    CHECK(m.TicksInState<Air>() == 2);
    CHECK(m.TicksInState<Top>() == 5);
    m.ForceSetState(m.IdOf<Walk>());
    m.Perform({});
    CHECK(m.TicksInState<Ground>() == 1); // entered again: its time restarts
    CHECK(m.TicksInState<Air>() == 0);
    CHECK(m.TicksInState<Top>() == 6);
}

TEST_CASE("With a push stack, composite siblings keep a counter each, whichever comes first",
          "[nested][crowd][push]") {
    using namespace siblings;
    Body body;
    Machine<1> after(body);
    Machine<2> before(body);
    tickfsm::Crowd<Machine<0>> shared(1);
    tickfsm::Crowd<Machine<1>> own_after(1);
    tickfsm::Crowd<Machine<2>> own_before(1);
    CHECK(own_after.BytesPerCharacter() == own_before.BytesPerCharacter());
    CHECK(own_after.BytesPerCharacter() > shared.BytesPerCharacter() + 4); // a counter more, and the stack
    auto check = [](auto& m) {
        for (int i = 0; i < 3; ++i) m.Perform({});
        // Air is under Top, which is active: a push would bury Top and enter it again.
        CHECK_THROWS_WITH(m.template Push<Rise>(), Catch::Contains("Push<Rise>() in state Stand: Top, which holds "
                                                                   "Rise, is active"));
        CHECK(m.template IsIn<Ground>());
        CHECK(m.BuriedCount() == 0);
        m.Perform({});
        CHECK(m.template TicksInState<Ground>() == 4);
    };
    check(after);
    check(before);
}

TEST_CASE("Substates misconfigured are ConfigErrors naming the states, and the machine stays usable",
          "[nested][config_error]") {
    struct Plain : tickfsm::StateManager<Hero, Pad> {
        explicit Plain(Hero& h) : StateManager(h) {
            SetSubstates<Combat, Attack, Block>();
            SetInitialState<Idle>().To<Combat>([](const Hero& c) { return c.enemy; });
        }
    };
    Hero hero;
    Plain m(hero);
    CHECK_THROWS_WITH((m.SetSubstates<Block, Combat>()),
                      Catch::Contains("Combat would be its own ancestor") && Catch::Contains("SetSubstates<Block, Combat>"));
    CHECK_THROWS_WITH((m.SetSubstates<Idle, Attack>()), Catch::Contains("Attack is a substate of Combat already"));
    CHECK_THROWS_WITH((m.SetSubstates<Combat, Idle>()),
                      Catch::Contains("Combat holds substates already (its initial substate is Attack)"));
    CHECK_THROWS_WITH((m.SetSubstates<Idle, Light, Light>()), Catch::Contains("Light is listed twice"));
    CHECK_THROWS_WITH(m.SetHistory<Idle>(tickfsm::History::Deep), Catch::Contains("SetHistory<Idle>(): Idle has no substates"));
    CHECK_THROWS_WITH(m.SetGlobalState<Attack>(), Catch::Contains("SetGlobalState<Attack>(): Attack is a nested state"));
    CHECK_THROWS_WITH(m.SetGlobalState<Combat>(), Catch::Contains("Combat is a nested state"));
    // Nothing of the refused calls stayed: the machine runs as configured.
    hero.enemy = true;
    m.Perform({});
    m.Perform({});
    CHECK(m.ActivePath() == "Combat/Attack");
    CHECK(m.ParentOf(m.IdOf<Idle>()).Valid() == false);
    CHECK(m.ParentOf(m.IdOf<Light>()).Valid() == false);
}

TEST_CASE("States nested deeper than the limit are a ConfigError", "[nested][config_error]") {
    struct L0 {};
    struct L1 {};
    struct L2 {};
    struct L3 {};
    struct L4 {};
    struct L5 {};
    struct L6 {};
    struct L7 {};
    struct L8 {};
    struct L9 {};
    struct L10 {};
    struct L11 {};
    struct L12 {};
    struct L13 {};
    struct L14 {};
    struct L15 {};
    struct L16 {};
    struct Deep : tickfsm::StateManager<Hero, Pad> {
        explicit Deep(Hero& h) : StateManager(h) {
            SetSubstates<L0, L1>();
            SetSubstates<L1, L2>();
            SetSubstates<L2, L3>();
            SetSubstates<L3, L4>();
            SetSubstates<L4, L5>();
            SetSubstates<L5, L6>();
            SetSubstates<L6, L7>();
            SetSubstates<L7, L8>();
            SetSubstates<L8, L9>();
            SetSubstates<L9, L10>();
            SetSubstates<L10, L11>();
            SetSubstates<L11, L12>();
            SetSubstates<L12, L13>();
            SetSubstates<L13, L14>();
            SetSubstates<L14, L15>();
            SetInitialState<L0>();
        }
    };
    Hero hero;
    Deep m(hero);
    CHECK_THROWS_WITH((m.SetSubstates<L15, L16>()), Catch::Contains("nest more than 16 deep"));
    m.Perform({});
    CHECK(m.CurrentStateName() == "L15");
    CHECK(m.ActivePath().size() == std::string("L0/L1/L2/L3/L4/L5/L6/L7/L8/L9/L10/L11/L12/L13/L14/L15").size());
}

TEST_CASE("Any-state transitions are tried before every other and never into an active state", "[any]") {
    struct Anywhere : tickfsm::StateManager<Hero, Pad> {
        explicit Anywhere(Hero& h) : StateManager(h) {
            SetSubstates<Combat, Attack, Block>();
            FromAny().To<Combat>([](const Hero& c) { return c.enemy; });
            FromAny().To<Idle>([](const Hero& c) { return c.swing; });
            SetInitialState<Idle>();
            From<Attack>().To<Block>([](const Hero& c) { return c.guard; });
        }
    };
    Hero hero;
    Anywhere m(hero);
    CHECK(m.StateCount() == 4); // Any holds the transitions; it is not a state
    m.Perform({});
    hero.enemy = true;
    m.Perform({});
    CHECK(m.ActivePath() == "Combat/Attack");
    // Combat is active: the any-state transition to it is passed over, the leaf's fires.
    hero.guard = true;
    m.Perform({});
    CHECK(m.ActivePath() == "Combat/Block");
    Take(hero);
    // Tried before the active path's own: from Block straight to Idle.
    hero.swing = true;
    m.Perform({});
    CHECK(Take(hero) == std::vector<std::string>{"exit Block", "exit Combat", "enter Idle", "Idle"});
    // In Idle, the first any-state transition (to Combat) holds and wins; no history: Attack.
    m.Perform({});
    CHECK(m.ActivePath() == "Combat/Attack");
}

TEST_CASE("Any-state event transitions take an event before the active states and never into an active state",
          "[any][event]") {
    struct Parry {
        int strength = 0;
    };
    // Sends "alarm" from its enter hook, through the Machine handle.
    struct Alarmed {
        void OnStateEnter(Hero& h, const Pad&, tickfsm::Machine<Hero, Pad>& m) {
            h.log.push_back("enter Alarmed");
            m.SendEvent(tickfsm::Event("alarm"));
        }
    };
    struct Anywhere : tickfsm::StateManager<Hero, Pad> {
        explicit Anywhere(Hero& h) : StateManager(h) {
            SetSubstates<Combat, Attack, Block>();
            FromAny().On("alarm").To<Combat>().On<Parry>([](const Hero&, const Parry& p) { return p.strength > 5; })
                .To<Block>();
            SetInitialState<Idle>().On("go").To<Alarmed>();
            From<Attack>().On("alarm").To<Block>(); // the any-state transition wins while it may fire
            From<Combat>().On<Parry>().To<Idle>();
        }
    };
    Hero hero;
    Anywhere m(hero);
    bool any_rule = false;
    for (const tickfsm::TransitionRule& rule : m.Transitions())
        any_rule = any_rule || (rule.any && rule.kind == tickfsm::TransitionKind::Event && !rule.from.Valid());
    CHECK(any_rule);
    CHECK_FALSE(m.SendEvent(tickfsm::Event("alarm"))); // not started: nothing takes it
    m.Perform({});
    Take(hero);
    // From Idle, which has no transition on it.
    CHECK(m.WouldTakeEvent(tickfsm::Event("alarm")));
    CHECK_FALSE(m.WouldTakeEvent(tickfsm::Event("calm")));
    CHECK(m.SendEvent(tickfsm::Event("alarm")));
    CHECK(m.WouldTakeEvent(tickfsm::Event("alarm"))); // Attack's own
    CHECK(m.ActivePath() == "Combat/Attack");
    // Combat is active: the any-state transition is passed over, and Attack's own takes the event.
    CHECK(m.SendEvent(tickfsm::Event("alarm")));
    CHECK(m.ActivePath() == "Combat/Block");
    // Typed: the any-state transition's guard refuses a weak parry; Combat's own takes it.
    CHECK(m.SendEvent(Parry{.strength = 1}));
    CHECK(m.ActivePath() == "Idle");
    CHECK(m.SendEvent(Parry{.strength = 9}));
    CHECK(m.ActivePath() == "Combat/Block");
    // From a hook: Alarmed's enter hook sends the event, taken when the hook returns.
    m.ForceSetState<Idle>();
    Take(hero);
    CHECK(m.SendEvent(tickfsm::Event("go")));
    CHECK(Take(hero) == std::vector<std::string>{"exit Idle", "enter Alarmed", "enter Combat", "enter Attack"});
    CHECK(m.ActivePath() == "Combat/Attack");
}

TEST_CASE("Any-state transitions ask the current state's gate and work on a flat machine", "[any]") {
    struct Stuck {
        bool CanExitState(const Hero& h, const tickfsm::StateRef&) const { return !h.guard; }
    };
    struct Flat : tickfsm::StateManager<Hero, Pad> {
        explicit Flat(Hero& h) : StateManager(h) {
            FromAny().To<Idle>([](const Hero& c) { return c.swing; });
            SetInitialState<Stuck>();
            From<Idle>().To<Stuck>([](const Hero& c) { return !c.swing; });
        }
    };
    Hero hero;
    Flat m(hero);
    hero.guard = true;
    hero.swing = true;
    m.Perform({});
    m.Perform({});
    CHECK(m.IsIn<Stuck>());
    REQUIRE_FALSE(m.WouldTransition({}).Valid());
    hero.guard = false;
    REQUIRE(m.WouldTransition({}) == m.IdOf<Idle>());
    m.Perform({});
    CHECK(m.IsIn<Idle>());
    m.Perform({}); // in Idle: the any-state transition to Idle is passed over, Idle's own does not hold
    CHECK(m.IsIn<Idle>());
    CHECK(m.TicksInState() == 1);
}

TEST_CASE("A pass-through state routes the machine on in the tick that enters it", "[pass_through]") {
    struct Router : tickfsm::StateManager<Hero, Pad> {
        explicit Router(Hero& h) : StateManager(h) {
            SetPassThrough<Combat>();
            SetInitialState<Idle>().To<Combat>([](const Hero& c) { return c.enemy; });
            From<Combat>()
                .To<Block>([](const Hero& c) { return c.guard; })
                .To<Attack>([](const Hero&, const Pad&, float t) { return t == 0.0f; });
            From<Block>();
            From<Attack>();
        }
    };
    Hero hero;
    Router m(hero);
    m.Perform({});
    Take(hero);
    hero.enemy = true;
    CHECK(m.WouldTransition({}) == m.IdOf<Attack>()); // the dry run passes through Combat too
    m.Perform({});
    CHECK(Take(hero) == std::vector<std::string>{"exit Idle", "enter Combat", "exit Combat", "enter Attack", "Attack"});
    CHECK(m.IsIn<Attack>());
    m.ForceSetState<Combat>(); // entered outside a tick: it waits for the tick
    CHECK(m.IsIn<Combat>());
    hero.guard = true;
    m.Perform({});
    CHECK(m.IsIn<Block>());
}

TEST_CASE("A pass-through state whose transitions hold none stays and performs", "[pass_through]") {
    struct Stay : tickfsm::StateManager<Hero, Pad> {
        explicit Stay(Hero& h) : StateManager(h) {
            SetPassThrough<Combat>();
            SetInitialState<Idle>().To<Combat>([](const Hero& c) { return c.enemy; });
            From<Combat>().To<Block>([](const Hero& c) { return c.guard; });
            From<Block>();
        }
    };
    Hero hero;
    Stay m(hero);
    m.Perform({});
    Take(hero);
    hero.enemy = true;
    CHECK(m.WouldTransition({}) == m.IdOf<Combat>());
    m.Perform({});
    CHECK(Take(hero) == std::vector<std::string>{"exit Idle", "enter Combat", "Combat"});
}

TEST_CASE("The dry run passes through a pass-through substate entered by its parent, and through FromAny",
          "[pass_through][nested]") {
    struct Dazed {};
    struct Router : tickfsm::StateManager<Hero, Pad> {
        explicit Router(Hero& h) : StateManager(h) {
            SetSubstates<Combat, Block, Attack>(); // Block, the initial substate, routes on
            SetPassThrough<Block>();
            FromAny().To<Dazed>([](const Hero& c) { return c.swing && !c.guard; });
            SetInitialState<Idle>().To<Combat>([](const Hero& c) { return c.enemy; });
            From<Block>().To<Attack>([](const Hero& c) { return !c.guard; });
            From<Dazed>();
        }
    };
    Hero hero;
    Router m(hero);
    m.Perform({});
    hero.enemy = true;
    CHECK(m.WouldTransition({}) == m.IdOf<Attack>());
    hero.guard = true;
    CHECK(m.WouldTransition({}) == m.IdOf<Combat>()); // Block holds: the machine stays in Combat/Block
    hero.guard = false;
    hero.swing = true;
    CHECK(m.WouldTransition({}) == m.IdOf<Dazed>()); // FromAny() is tried first, before Idle's own
    hero.swing = false;
    m.Perform({});
    CHECK(m.IsIn<Attack>());
}

TEST_CASE("A pass-through loop is a ConfigError naming the states", "[pass_through][config_error]") {
    struct Loop : tickfsm::StateManager<Hero, Pad> {
        explicit Loop(Hero& h) : StateManager(h) {
            SetPassThrough<Attack>();
            SetPassThrough<Block>();
            SetInitialState<Idle>().To<Attack>([](const Hero& c) { return c.swing; });
            From<Attack>().To<Block>();
            From<Block>().To<Attack>([](const Hero& c) { return c.swing; }).To<Idle>();
        }
    };
    Hero hero;
    Loop m(hero);
    m.Perform({});
    hero.swing = true;
    CHECK_THROWS_WITH(m.Perform({}), Catch::Contains("pass-through loop: Attack -> Block -> Attack"));
    hero.swing = false; // usable after: Block routes to Idle now
    m.Perform({});
    CHECK(m.IsIn<Idle>());
}

TEST_CASE("An exit transition waits until the active substate is done, trying its condition again each tick",
          "[nested][exit_transition]") {
    struct Swinging {
        bool CanExitState(const Hero& h, const tickfsm::StateRef&) const { return !h.swing; }
    };
    struct Waiting : tickfsm::StateManager<Hero, Pad> {
        explicit Waiting(Hero& h) : StateManager(h) {
            SetSubstates<Combat, Swinging, Block>();
            SetInitialState<Combat>().ToWhenDone<Idle>([](const Hero& c) { return !c.enemy; });
            From<Idle>();
        }
    };
    Hero hero;
    Waiting m(hero);
    hero.enemy = true;
    hero.swing = true;
    m.Perform({});
    hero.enemy = false; // the condition holds, but the swing is not done: pending
    m.Perform({});
    CHECK(m.ActivePath() == "Combat/Swinging");
    hero.enemy = true; // the swing ends, but the condition no longer holds: nothing fires
    hero.swing = false;
    m.Perform({});
    CHECK(m.ActivePath() == "Combat/Swinging");
    hero.enemy = false; // both hold: it fires
    m.Perform({});
    CHECK(m.IsIn<Idle>());
}

TEST_CASE("A substate that calls Done lets the exit transition fire whatever its gate", "[nested][exit_transition]") {
    struct Finisher {
        int ticks = 0;
        bool CanExitState(const Hero&, const tickfsm::StateRef&) const { return false; }
        void Perform(Hero&, const Pad&, tickfsm::Machine<Hero, Pad>& m) {
            if (++ticks == 2) m.Done();
        }
    };
    struct Waiting : tickfsm::StateManager<Hero, Pad> {
        explicit Waiting(Hero& h) : StateManager(h) {
            SetSubstates<Combat, Finisher, Block>();
            SetInitialState<Combat>().ToWhenDone<Idle>();
            From<Idle>();
        }
    };
    Hero hero;
    Waiting m(hero);
    m.Perform({}); // Finisher: 1
    m.Perform({}); // not done when tried; Finisher: 2, Done()
    CHECK(m.IsIn<Finisher>());
    CHECK(m.WouldTransition({}) == m.IdOf<Idle>());
    m.Perform({});
    CHECK(m.IsIn<Idle>());
}

TEST_CASE("States and Transitions describe the machine: parents, initial substates, kinds and order",
          "[nested][introspection]") {
    struct Described : tickfsm::StateManager<Hero, Pad> {
        explicit Described(Hero& h) : StateManager(h) {
            SetPushCapacity<1>();
            SetSubstates<Combat, Attack, Block>();
            SetHistory<Combat>(tickfsm::History::Deep);
            SetPassThrough<Block>();
            FromAny().Push<Heavy>([](const Hero& c) { return c.heavy; });
            SetInitialState<Idle>().To<Combat>([](const Hero& c) { return c.enemy; }).On("calm").To<Idle>();
            From<Combat>().ToWhenDone<Idle>([](const Hero& c) { return !c.enemy; });
            From<Attack>().ForceTo<Block>([](const Hero& c) { return c.guard; });
            From<Heavy>().Pop([](const Hero& c) { return !c.heavy; });
        }
    };
    Hero hero;
    Described m(hero);
    const auto states = m.States();
    REQUIRE(states.size() == m.StateCount());
    auto state = [&](std::string_view name) {
        for (const auto& s : states)
            if (s.name == name) return s;
        FAIL("no state " << name);
        return tickfsm::StateInfo{};
    };
    CHECK(state("Combat").initial == m.IdOf<Attack>());
    CHECK(state("Combat").history == tickfsm::History::Deep);
    CHECK(state("Block").parent == m.IdOf<Combat>());
    CHECK(state("Block").pass_through);
    CHECK(state("Idle").is_initial);
    CHECK_FALSE(state("Idle").parent.Valid());

    const auto rules = m.Transitions();
    REQUIRE(rules.size() == 6);
    CHECK(rules[0].any);
    CHECK(rules[0].kind == tickfsm::TransitionKind::Push);
    CHECK(rules[0].to == m.IdOf<Heavy>());
    auto find = [&](tickfsm::StateId from, tickfsm::TransitionKind kind) {
        for (const auto& r : rules)
            if (r.from == from && r.kind == kind) return r;
        FAIL("no such transition");
        return tickfsm::TransitionRule{};
    };
    CHECK(find(m.IdOf<Idle>(), tickfsm::TransitionKind::Condition).to == m.IdOf<Combat>());
    CHECK(find(m.IdOf<Idle>(), tickfsm::TransitionKind::Event).event == tickfsm::Event("calm"));
    CHECK(find(m.IdOf<Combat>(), tickfsm::TransitionKind::WhenDone).to == m.IdOf<Idle>());
    CHECK(find(m.IdOf<Attack>(), tickfsm::TransitionKind::Condition).forced);
    CHECK_FALSE(find(m.IdOf<Heavy>(), tickfsm::TransitionKind::Pop).to.Valid());
}

TEST_CASE("ForceSetState and TicksInState take a state's id as tools know it", "[nested][direct]") {
    Hero hero;
    HeroMachine m(hero);
    m.Perform({});
    hero.enemy = true; // Combat stays
    m.ForceSetState(m.IdOf<Heavy>()); // enters Combat and Attack on the way
    CHECK(m.ActivePath() == "Combat/Attack/Heavy");
    m.Perform({});
    m.Perform({});
    CHECK(m.TicksInState(m.IdOf<Heavy>()) == 2);
    CHECK(m.TicksInState(m.IdOf<Combat>()) == m.TicksInState<Combat>());
    CHECK(m.TicksInState(m.IdOf<Combat>()) == 2);
    CHECK(m.TicksInState(m.IdOf<Idle>()) == 0);
    CHECK(m.TicksInState(tickfsm::StateId{}) == 0);
    CHECK_THROWS_WITH(m.ForceSetState(tickfsm::StateId{200}),
                      Catch::Contains("ForceSetState(StateId 200): not a state of this machine"));
    CHECK(m.ActivePath() == "Combat/Attack/Heavy");
}

TEST_CASE("A hook that throws during a nested change leaves the machine as the general path would",
          "[nested][throw]") {
    // The observed machine ticks on the general path; the other takes the
    // nested fast path, whose changes are planned when the table is finalized.
    const std::vector<std::string> fuses{"exit Idle",  "enter Combat", "enter Attack", "enter Light",
                                         "exit Light", "enter Heavy",  "exit Heavy",   "exit Attack",
                                         "enter Block", "exit Block",  "exit Combat",  "enter Idle", "Attack"};
    struct Step {
        bool enemy, guard, heavy;
    };
    const std::vector<Step> script{{false, false, false}, {true, false, false}, {true, false, true},
                                   {true, true, true},    {true, false, false}, {false, false, false},
                                   {true, true, false},   {true, true, false},  {false, true, false},
                                   {true, false, true},   {true, false, true},  {false, false, false}};
    for (const std::string& fuse : fuses) {
        CAPTURE(fuse);
        Hero fast_hero, general_hero;
        HeroMachine fast(fast_hero), general(general_hero);
        tickfsm::Observer quiet;
        general.SetObserver(&quiet);
        fast_hero.fuse = general_hero.fuse = fuse;
        int thrown = 0;
        for (int round = 0; round < 2; ++round)
            for (std::size_t i = 0; i < script.size(); ++i) {
                CAPTURE(round, i);
                bool threw[2] = {false, false};
                Hero* heroes[2] = {&fast_hero, &general_hero};
                HeroMachine* machines[2] = {&fast, &general};
                for (int k = 0; k < 2; ++k) {
                    heroes[k]->enemy = script[i].enemy;
                    heroes[k]->guard = script[i].guard;
                    heroes[k]->heavy = script[i].heavy;
                    try {
                        machines[k]->Perform({});
                    } catch (const std::runtime_error&) {
                        threw[k] = true;
                    }
                }
                thrown += threw[0];
                REQUIRE(threw[0] == threw[1]);
                REQUIRE(fast_hero.log == general_hero.log);
                REQUIRE(fast.ActivePath() == general.ActivePath());
                REQUIRE(fast.TicksInState() == general.TicksInState());
                REQUIRE(fast.TicksInState<Combat>() == general.TicksInState<Combat>());
                REQUIRE(fast.TicksInState<Attack>() == general.TicksInState<Attack>());
            }
        CHECK(thrown == 1); // the script lights every fuse
    }
}

TEST_CASE("A pass-through state that holds substates or regions is a ConfigError, in either order",
          "[nested][pass_through][config_error]") {
    struct Decide {};
    struct Think {};
    struct Both {};
    struct Left {};
    {
        Hero hero;
        tickfsm::StateManager<Hero, Pad> m(hero);
        m.SetSubstates<Decide, Think>();
        CHECK_THROWS_WITH(m.SetPassThrough<Decide>(),
                          Catch::Contains("SetPassThrough: Decide is a pass-through state (SetPassThrough) and would "
                                          "hold substates or regions") &&
                              Catch::Contains("mark the substate it enters pass-through instead"));
        m.SetPassThrough<Think>(); // what was meant: Think's path is tried again, Decide's transitions first
        m.SetInitialState<Decide>();
        m.Perform({});
        CHECK(m.ActivePath() == "Decide/Think");
    }
    {
        Hero hero;
        tickfsm::StateManager<Hero, Pad> m(hero);
        m.SetPassThrough<Decide>();
        CHECK_THROWS_WITH((m.SetSubstates<Decide, Think>()), Catch::Contains("SetSubstates: Decide is a pass-through "
                                                                             "state"));
        m.SetPassThrough<Both>();
        CHECK_THROWS_WITH((m.SetRegions<Both, Left>()), Catch::Contains("SetRegions: Both is a pass-through state"));
        m.SetInitialState<Decide>();
        m.Perform({});
        CHECK(m.ActivePath() == "Decide");
    }
}

TEST_CASE("An observer hears which state's transition fired and which state the change named",
          "[nested][observer]") {
    struct Heard : tickfsm::Observer {
        std::vector<std::string> lines;
        void OnTransition(const tickfsm::TransitionInfo& info) override {
            lines.push_back(std::string(info.from) + "->" + std::string(info.to) + " target " +
                            std::string(info.target) + " owner " + std::string(info.owner) + " #" +
                            std::to_string(info.condition));
        }
    } heard;
    Hero h;
    HeroMachine m(h);
    m.SetObserver(&heard, "hero");
    m.Perform({});
    h.enemy = true;
    m.Perform({}); // Idle's condition 0 names Combat, entered down to Light
    h.heavy = true;
    m.Perform({}); // Light's own
    h.enemy = false;
    m.Perform({}); // Combat's condition 0, from the leaf Heavy
    m.ForceSetState<Combat>(); // asked for by code: no owner
    CHECK(heard.lines == std::vector<std::string>{
                             "->Idle target Idle owner  #0",
                             "Idle->Light target Combat owner Idle #0",
                             "Light->Heavy target Heavy owner Light #0",
                             "Heavy->Idle target Idle owner Combat #0",
                             "Idle->Light target Combat owner  #0",
                         });
}
