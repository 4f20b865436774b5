// Keyed machines of state objects (seed 003's StateMachine<TKey, TState>) and delegate states.

#include <catch2/catch.hpp>

#include <string>
#include <string_view>
#include <vector>

#include <tickfsm/tickfsm.hpp>

namespace {

enum class CreatureState { Idle, Attack1, Attack2, Flinch, Die };

struct Creature {
    int damage_dealt = 0;
    bool swinging = false;
    std::vector<std::string> log;
};
struct Buttons {
    bool attack = false;
};
using M = tickfsm::Machine<Creature, Buttons>;

struct Idle {};
struct Attack { // one class, two keys, two objects with their own data
    int damage = 0;
    Attack() = default;
    explicit Attack(int d) : damage(d) {}
    void OnStateEnter(Creature& c, const Buttons&) {
        c.damage_dealt += damage;
        c.swinging = true;
    }
    bool CanExitState(const Creature& c, const tickfsm::StateRef& to) const {
        return !c.swinging || to.IsKey(CreatureState::Flinch) || to.IsKey(CreatureState::Die);
    }
};

class CreatureStateManager : public tickfsm::StateManager<Creature, Buttons> {
public:
    explicit CreatureStateManager(Creature& c) : StateManager(c) {
        AddState<Idle>(CreatureState::Idle);
        AddState<Attack>(CreatureState::Attack1, 10);
        AddState<Attack>(CreatureState::Attack2, 25);
        AddDelegateState(CreatureState::Flinch)
            .OnEnter([](Creature& cr, const Buttons&) { cr.log.push_back("ouch"); })
            .Perform([](Creature&, const Buttons&, M& m) {
                if (m.TicksInState() >= 2) m.NextState(CreatureState::Idle);
            });
        AddDelegateState(CreatureState::Die).CanExit([](const Creature&, const tickfsm::StateRef&) { return false; });
        SetInitialState(CreatureState::Idle)
            .To(CreatureState::Attack1, [](const Creature&, const Buttons& b) { return b.attack; });
        From(CreatureState::Attack1)
            .To(CreatureState::Attack2, [](const Creature& cr, const Buttons& b) { return b.attack && !cr.swinging; })
            .On("Hit").To(CreatureState::Flinch);
        From(CreatureState::Attack2).To(CreatureState::Idle, [](const Creature& cr) { return !cr.swinging; });
    }
};

} // namespace

TEST_CASE("Two keys hold two objects of one class, each with its own data", "[keyed]") {
    Creature c;
    CreatureStateManager m(c);
    m.Perform({});
    m.Perform({.attack = true});
    CHECK(m.IsIn(CreatureState::Attack1));
    CHECK(m.CurrentKey<CreatureState>() == CreatureState::Attack1);
    CHECK(c.damage_dealt == 10);
    c.swinging = false;
    m.Perform({.attack = true});
    CHECK(m.IsIn(CreatureState::Attack2));
    CHECK(c.damage_dealt == 35);
    CHECK(m.State<Attack>(CreatureState::Attack1).damage == 10);
    CHECK(m.State<Attack>(CreatureState::Attack2).damage == 25);
    CHECK(m.CurrentStateName() == "Attack2");
}

TEST_CASE("Keyed states are set directly by key, through their gates", "[keyed][gate]") {
    Creature c;
    CreatureStateManager m(c);
    m.Perform({});
    CHECK(m.TrySetState(CreatureState::Attack2));
    CHECK_FALSE(m.TrySetState(CreatureState::Idle)); // swinging: Attack refuses
    CHECK(m.TrySetState(CreatureState::Die));        // allowed while swinging
    CHECK_FALSE(m.TrySetState(CreatureState::Idle)); // Die's delegate gate refuses to exit
    m.ForceSetState(CreatureState::Idle);
    CHECK(m.IsIn(CreatureState::Idle));
}

TEST_CASE("A delegate state runs its lambdas, events and requests included", "[keyed][delegate]") {
    Creature c;
    CreatureStateManager m(c);
    m.Perform({});
    m.Perform({.attack = true});
    CHECK(m.SendEvent("Hit"));
    CHECK(m.IsIn(CreatureState::Flinch));
    CHECK(c.log == std::vector<std::string>{"ouch"});
    for (int i = 0; i < 3; ++i) m.Perform({});
    CHECK(m.IsIn(CreatureState::Idle)); // the delegate asked for it by key
}

TEST_CASE("A delegate state can be registered under a type tag", "[delegate]") {
    struct Stunned {};
    struct Idle2 {};
    Creature c;
    tickfsm::StateManager<Creature, Buttons> m(c);
    m.AddDelegateState<Stunned>().Perform([](Creature& cr, const Buttons&) { cr.log.push_back("stars"); });
    m.SetInitialState<Idle2>().To<Stunned>([](const Creature&, const Buttons& b) { return b.attack; });
    m.Perform({.attack = true});
    CHECK(m.IsIn<Stunned>());
    CHECK(c.log == std::vector<std::string>{"stars"});
}

TEST_CASE("State<Tag>() of a delegate state's tag is a ConfigError: the tag has no object", "[delegate][config_error]") {
    struct Stunned {
        int stars = 0; // a tag with data: handing out a Stunned& would read the delegate's hooks as one
    };
    Creature c;
    tickfsm::StateManager<Creature, Buttons> m(c);
    m.AddDelegateState<Stunned>().Perform([](Creature& cr, const Buttons&) { cr.log.push_back("stars"); });
    m.SetInitialState<Stunned>();
    m.Perform({});
    CHECK_THROWS_WITH(m.State<Stunned>(), Catch::Contains("State<Stunned>(): Stunned names a delegate state "
                                                          "(AddDelegateState<Stunned>()), made of lambdas"));
    m.Perform({});
    CHECK(c.log == std::vector<std::string>{"stars", "stars"});
}

TEST_CASE("A delegate state counts as gated only for the gates it is given", "[delegate][gates][validate]") {
    struct Flinch {};
    struct Guarded {};
    struct Run {};
    Creature c;
    tickfsm::StateManager<Creature, Buttons> m(c);
    m.AddDelegateState<Flinch>().OnEnter([](Creature& cr, const Buttons&) { cr.log.push_back("flinch"); });
    m.AddDelegateState<Guarded>().CanExit([](const Creature&, const tickfsm::StateRef&) { return false; });
    m.SetInitialState<Idle>().To<Flinch>([](const Creature&, const Buttons& b) { return b.attack; });
    m.From<Flinch>().To<Run>().To<Idle>(); // Run always holds and no gate can refuse: Idle is never tried
    m.From<Run>().To<Guarded>();
    m.From<Guarded>().To<Idle>();
    const tickfsm::Description d = m.Describe();
    for (const tickfsm::StateInfo& s : d.states) {
        if (s.name == "Flinch") CHECK((!s.can_enter && !s.can_exit));
        if (s.name == "Guarded") CHECK((!s.can_enter && s.can_exit));
    }
    bool never_tried = false;
    for (const tickfsm::Finding& f : m.Validate())
        never_tried = never_tried || (f.kind == tickfsm::FindingKind::NeverTried && f.message.find("Flinch") != tickfsm::Text::npos);
    CHECK(never_tried);
    m.Perform({.attack = true});
    m.Perform({});
    m.Perform({});
    CHECK(m.IsIn<Guarded>());
    m.Perform({});
    CHECK(m.IsIn<Guarded>()); // its CanExit refuses
}

TEST_CASE("An unknown key and a key registered twice are ConfigErrors", "[keyed][error]") {
    using Catch::Matchers::Contains;
    Creature c;
    tickfsm::StateManager<Creature, Buttons> m(c);
    m.AddState<Idle>(CreatureState::Idle);
    REQUIRE_THROWS_WITH(m.AddState<Attack>(CreatureState::Idle),
                        Contains("CreatureState::Idle") && Contains("already registered"));
    REQUIRE_THROWS_WITH(m.From(CreatureState::Attack1), Contains("From(CreatureState::Attack1)") &&
                                                             Contains("no state is registered under that key"));
    REQUIRE_THROWS_WITH(m.TrySetState(CreatureState::Die), Contains("no state is registered"));
    m.SetInitialState(CreatureState::Idle);
    m.Perform({});
    CHECK(m.IsIn(CreatureState::Idle));
    REQUIRE_THROWS_WITH(m.CurrentKey<int>(), Contains("CurrentKey<int>()"));
}

TEST_CASE("Integers can be keys too", "[keyed]") {
    Creature c;
    tickfsm::StateManager<Creature, Buttons> m(c);
    m.AddState<Attack>(1, 5);
    m.AddState<Attack>(2, 7);
    m.SetInitialState(1).To(2, [](const Creature&, const Buttons& b) { return b.attack; });
    m.Perform({});
    c.swinging = false;
    m.Perform({.attack = true});
    CHECK(m.IsIn(2));
    CHECK(m.CurrentStateName() == "2");
    CHECK(c.damage_dealt == 12);
}

TEST_CASE("Input buffers take keys too", "[keyed][buffer]") {
    Creature c;
    CreatureStateManager m(c);
    tickfsm::InputBuffer buffer(m);
    m.Perform({});
    CHECK(buffer.Buffer(CreatureState::Attack1, 0.5f));
    CHECK_FALSE(buffer.Buffer(CreatureState::Attack2, 0.5f)); // Attack1 is swinging
    c.swinging = false;
    buffer.Update();
    CHECK(m.IsIn(CreatureState::Attack2));
}

TEST_CASE("A hook can ask the handle which key is current", "[keyed][machine]") {
    struct Watcher {
        bool saw_key = false;
        void Perform(Creature&, const Buttons&, M& m) {
            saw_key = m.IsIn(CreatureState::Idle) && m.CurrentState().IsKey(CreatureState::Idle) &&
                      !m.IsIn(CreatureState::Attack1);
        }
    };
    Creature c;
    tickfsm::StateManager<Creature, Buttons> m(c);
    m.AddState<Watcher>(CreatureState::Idle);
    m.SetInitialState(CreatureState::Idle);
    m.Perform({});
    CHECK(m.State<Watcher>(CreatureState::Idle).saw_key);
}

namespace {
enum class Pose { Stand, Missing };
} // namespace

TEST_CASE("An unknown key names its enumerator from a hook's handle as from outside", "[keyed][machine][error]") {
    using Catch::Matchers::Contains;
    Creature c;
    tickfsm::StateManager<Creature, Buttons> m(c);
    m.AddDelegateState(Pose::Stand).Perform([](Creature&, const Buttons& b, M& machine) {
        if (b.attack) machine.TrySetState(Pose::Missing);
    });
    m.SetInitialState(Pose::Stand);
    m.Perform({});
    REQUIRE_THROWS_WITH(m.TrySetState(Pose::Missing), Contains("StateManager<Creature, Buttons>") &&
                                                         Contains("TrySetState(Pose::Missing)") &&
                                                         Contains("no state is registered"));
    REQUIRE_THROWS_WITH(m.Perform({.attack = true}), Contains("StateManager<Creature, Buttons>") &&
                                                         Contains("no state is registered under the key Pose::Missing"));
    m.Perform({});
    CHECK(m.IsIn(Pose::Stand));
}

namespace {
enum class Wide { Low = 3, Big = 70, Top = 255 };
} // namespace

TEST_CASE("Enum keys keep their enumerator names up to 255", "[keyed][regression]") {
    using Catch::Matchers::Contains;
    Creature c;
    tickfsm::StateManager<Creature, Buttons> m(c);
    m.AddState<Idle>(Wide::Low);
    m.AddState<Attack>(Wide::Big, 5);
    m.SetInitialState(Wide::Big);
    m.Perform({});
    CHECK(m.CurrentStateName() == "Big");
    CHECK(m.StateName(m.CurrentState()) == "Big");
    REQUIRE_THROWS_WITH(m.TrySetState(Wide::Top), Contains("StateManager<Creature, Buttons>") &&
                                                      Contains("TrySetState(Wide::Top)"));
    m.ForceSetState(Wide::Low);
    CHECK(m.CurrentStateName() == "Low");
}

TEST_CASE("A keyed machine takes 65,534 states quickly and refuses the 65,535th", "[keyed][config][error]") {
    using Catch::Matchers::Contains;
    Creature c;
    tickfsm::StateManager<Creature, Buttons> m(c);
    for (int key = 0; key < 65534; ++key) m.AddState<Idle>(key); // took minutes while each state grew the table by one
    CHECK(m.StateCount() == 65534);
    REQUIRE_THROWS_WITH(m.AddState<Idle>(65534), Contains("StateManager<Creature, Buttons>") &&
                                                     Contains("cannot add state 65534") &&
                                                     Contains("at most 65534 states"));
    CHECK(m.StateCount() == 65534);
    m.SetInitialState(65533).To(0);
    m.Perform({});
    m.Perform({});
    CHECK(m.IsIn(0));
}

namespace {

enum class Mode { Calm, Alert, Fight };
enum class Limb { Legs = 10, Walk, Run, Arms, Lower, Raise };

// A state that logs its enter and exit under a name of its own.
struct Noted {
    std::string name;
    Noted() = default;
    explicit Noted(std::string n) : name(std::move(n)) {}
    void OnStateEnter(Creature& c, const Buttons&) { c.log.push_back("enter " + name); }
    void OnStateExit(Creature& c, const Buttons&) { c.log.push_back("exit " + name); }
};

} // namespace

TEST_CASE("Keyed states nest: substates of other key types, history and regions", "[keyed][nested]") {
    Creature c;
    tickfsm::StateManager<Creature, Buttons> m(c);
    m.AddState<Noted>(Mode::Calm, "Calm");
    m.AddState<Noted>(Mode::Alert, "Alert");
    m.AddState<Noted>(Mode::Fight, "Fight");
    for (const auto& [key, name] : {std::pair{Limb::Legs, "Legs"}, {Limb::Walk, "Walk"}, {Limb::Run, "Run"},
                                    {Limb::Arms, "Arms"}, {Limb::Lower, "Lower"}, {Limb::Raise, "Raise"}})
        m.AddState<Noted>(key, name);
    m.SetSubstates(Mode::Alert, {Limb::Walk, Limb::Run}); // a Mode holds Limbs
    m.SetHistory(Mode::Alert, tickfsm::History::Shallow);
    m.SetRegions(Mode::Fight, {Limb::Legs, Limb::Arms});
    m.SetSubstates(Limb::Arms, {Limb::Lower, Limb::Raise});
    m.SetInitialState(Mode::Calm).On("noise").To(Mode::Alert);
    m.From(Mode::Alert).On("enemy").To(Mode::Fight).On("quiet").To(Mode::Calm);
    m.From(Limb::Walk).To(Limb::Run, [](const Creature&, const Buttons& b) { return b.attack; });
    m.From(Mode::Fight).On("won").To(Mode::Alert);
    m.Perform({});
    CHECK(m.SendEvent(tickfsm::Event("noise")));
    CHECK(m.ActivePath() == "Alert/Walk");
    m.Perform({.attack = true});
    CHECK(m.ActivePath() == "Alert/Run");
    CHECK(m.IsIn(Mode::Alert));
    // Shallow history: Alert re-enters Run, the substate it held last.
    CHECK(m.SendEvent(tickfsm::Event("quiet")));
    CHECK(m.SendEvent(tickfsm::Event("noise")));
    CHECK(m.ActivePath() == "Alert/Run");
    c.log.clear();
    CHECK(m.SendEvent(tickfsm::Event("enemy")));
    CHECK(c.log == std::vector<std::string>{"exit Run", "exit Alert", "enter Fight", "enter Legs", "enter Arms",
                                            "enter Lower"});
    CHECK(m.ActivePath() == "Fight/{Legs, Arms/Lower}");
    CHECK(m.IsIn(Limb::Arms));
}

TEST_CASE("Keyed substates, regions and history refuse what the typed ones refuse", "[keyed][nested][error]") {
    Creature c;
    tickfsm::StateManager<Creature, Buttons> m(c);
    m.AddState<Noted>(Mode::Calm, "Calm");
    m.AddState<Noted>(Mode::Alert, "Alert");
    m.AddState<Noted>(Limb::Walk, "Walk");
    CHECK_THROWS_WITH(m.SetSubstates(Mode::Alert, {Mode::Fight}), Catch::Contains("Fight"));
    CHECK_THROWS_WITH(m.SetSubstates(Mode::Alert, std::initializer_list<Limb>{}),
                      Catch::Contains("give at least one substate"));
    CHECK_THROWS_WITH(m.SetSubstates(Mode::Alert, {Mode::Alert}), Catch::Contains("Alert"));
    CHECK_THROWS_WITH(m.SetHistory(Mode::Calm, tickfsm::History::Deep),
                      Catch::Contains("SetHistory(Calm): Calm has no substates"));
    CHECK_THROWS_WITH(m.SetRegions(Mode::Calm, std::initializer_list<Limb>{}), Catch::Contains("give at least one region"));
    m.SetSubstates(Mode::Alert, {Limb::Walk});
    CHECK_THROWS_WITH(m.SetSubstates(Mode::Calm, {Limb::Walk}),
                      Catch::Contains("SetSubstates(Calm, {Walk}): Walk is a substate of Alert already"));
    // The machine stays usable.
    m.SetInitialState(Mode::Calm).On("go").To(Mode::Alert);
    m.Perform({});
    CHECK(m.SendEvent(tickfsm::Event("go")));
    CHECK(m.ActivePath() == "Alert/Walk");
}

namespace {
// A keyed state that logs its Perform and enter under a name of its own.
struct Acting {
    std::string name;
    Acting() = default;
    explicit Acting(std::string n) : name(std::move(n)) {}
    void OnStateEnter(Creature& c, const Buttons&) { c.log.push_back("enter " + name); }
    void Perform(Creature& c, const Buttons&) { c.log.push_back(name); }
};
} // namespace

TEST_CASE("Keyed nested states tick by the tick rules: the parent's list first, each level with its own time",
          "[keyed][nested]") {
    Creature c;
    tickfsm::StateManager<Creature, Buttons> m(c, 1.0f);
    m.AddState<Acting>(Mode::Calm, "Calm");
    m.AddState<Acting>(Mode::Alert, "Alert");
    m.AddState<Acting>(Limb::Walk, "Walk");
    m.AddState<Acting>(Limb::Run, "Run");
    m.SetSubstates(Mode::Alert, {Limb::Walk, Limb::Run});
    m.SetInitialState(Mode::Calm).To(Mode::Alert, [](const Creature&, const Buttons& b) { return b.attack; });
    // Alert's time goes on while its substates change; Walk's and Run's restart.
    m.From(Mode::Alert).To(Mode::Calm, [](const Creature&, const Buttons&, float t) { return t >= 3.0f; });
    m.From(Limb::Walk).To(Limb::Run, [](const Creature&, const Buttons&, float t) { return t >= 2.0f; });
    m.From(Limb::Run).To(Limb::Walk, [](const Creature&, const Buttons&, float t) { return t >= 1.0f; });
    m.Perform({});
    m.Perform({.attack = true}); // into Alert/Walk, which perform in the same tick
    CHECK(c.log == std::vector<std::string>{"enter Calm", "Calm", "enter Alert", "enter Walk", "Alert", "Walk"});
    c.log.clear();
    m.Perform({}); // Walk 1 tick, Alert 1
    m.Perform({}); // Walk 2 ticks: to Run
    CHECK(c.log == std::vector<std::string>{"Alert", "Walk", "enter Run", "Alert", "Run"});
    CHECK(m.ActivePath() == "Alert/Run");
    c.log.clear();
    m.Perform({}); // Run's 1 tick holds, but Alert's 3 come first
    CHECK(c.log == std::vector<std::string>{"enter Calm", "Calm"});
    CHECK(m.ActivePath() == "Calm");
}

namespace {
struct Small {
    int a = 1;
};
struct Big {
    int data[64] = {};
};
} // namespace

TEST_CASE("State<S>(key) of another class than the key's state is a ConfigError", "[keyed][config_error]") {
    Creature c;
    tickfsm::StateManager<Creature, Buttons> m(c);
    m.AddState<Small>(CreatureState::Idle);
    m.SetInitialState(CreatureState::Idle);
    CHECK(m.State<Small>(CreatureState::Idle).a == 1);
    CHECK_THROWS_WITH(m.State<Big>(CreatureState::Idle),
                      Catch::Contains("State<Big>(CreatureState::Idle): the state under that key is a Small"));
}

TEST_CASE("State<S>(key) of a delegate state says it has no object, without naming the library's own class",
          "[keyed][delegate][config_error]") {
    Creature c;
    tickfsm::StateManager<Creature, Buttons> m(c);
    m.AddDelegateState(CreatureState::Flinch);
    m.SetInitialState(CreatureState::Flinch);
    m.Perform({});
    try {
        (void)m.State<Small>(CreatureState::Flinch);
        FAIL("State<Small>(key) of a delegate state returned");
    } catch (const tickfsm::ConfigError& e) {
        const std::string_view what = e.what();
        CHECK_THAT(std::string(what),
                   Catch::Contains("State<Small>(CreatureState::Flinch): the state under that key is a delegate "
                                   "state (AddDelegateState), made of lambdas: it has no object to ask for; keep its "
                                   "data in the controller") &&
                       Catch::Contains("AddState<S>(key)"));
        CHECK(what.find("DelegateState<") == std::string_view::npos);
    }
}

TEST_CASE("Keyed mistakes found when the table is built are spelled with keys", "[keyed][nested][config_error]") {
    using Catch::Matchers::Contains;
    Creature c;
    // An initial state inside a region, set by key.
    tickfsm::StateManager<Creature, Buttons> inside(c);
    for (const Limb key : {Limb::Legs, Limb::Walk, Limb::Arms, Limb::Lower}) inside.AddState<Idle>(key);
    inside.AddState<Idle>(Mode::Fight);
    inside.SetRegions(Mode::Fight, {Limb::Legs, Limb::Arms});
    inside.SetSubstates(Limb::Arms, {Limb::Lower});
    inside.SetInitialState(Limb::Lower);
    CHECK_THROWS_WITH(inside.Perform({}), Contains("SetInitialState(Lower): Lower is in region Arms of Fight; a "
                                                   "machine starts outside its regions: start in Fight") &&
                                              !Contains("SetInitialState<"));
    // No initial state on a machine of keyed states: the keyed call is named beside the typed one.
    tickfsm::StateManager<Creature, Buttons> none(c);
    none.AddState<Idle>(CreatureState::Idle);
    CHECK_THROWS_WITH(none.Perform({}), Contains("no initial state: give the machine one with SetInitialState<S>() "
                                                 "or, for a keyed state, SetInitialState(key)"));
}

TEST_CASE("A delegate state's hooks are configuration: set after the first Perform, a ConfigError",
          "[keyed][delegate][config_error]") {
    Creature c;
    tickfsm::StateManager<Creature, Buttons> m(c);
    auto flinch = m.AddDelegateState(CreatureState::Flinch);
    flinch.OnEnter([](Creature& cr, const Buttons&) { cr.log.push_back("ouch"); });
    m.SetInitialState(CreatureState::Flinch);
    m.Perform({});
    CHECK_THROWS_WITH(flinch.Perform([](Creature&, const Buttons&) {}),
                      Catch::Contains("a delegate state's Perform(): the transition table is frozen"));
    CHECK(c.log == std::vector<std::string>{"ouch"});
}
