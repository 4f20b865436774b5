// A machine's table as data (Describe), its pictures (WriteDot, WriteMermaid)
// and its checks (Validate): each kind of finding on a machine made to have it.

#include <catch2/catch.hpp>

#include <algorithm>
#include <string>
#include <string_view>
#include <vector>

#include <tickfsm/crowd.hpp>
#include <tickfsm/tickfsm.hpp>

namespace {

struct Hero {
    bool jump = false;
    bool hit = false;
    bool stop = false;
};
struct Pad {};

struct Idle {};
struct Walk {};
struct Jump {};
struct Fall {};
struct Dead {};
struct Lost {};
struct Combat {};
struct Attack {};
struct Block {};
struct Ghost {};
struct Hit {
    int damage = 0;
};
struct Gated {
    bool CanEnterState(const Hero& h, const tickfsm::StateRef&) const { return !h.stop; }
};

bool CanJump(const Hero& h) { return h.jump; }

using Manager = tickfsm::StateManager<Hero, Pad>;

tickfsm::List<tickfsm::Finding> Of(const tickfsm::List<tickfsm::Finding>& all, tickfsm::FindingKind kind) {
    tickfsm::List<tickfsm::Finding> some;
    for (const auto& f : all)
        if (f.kind == kind) some.push_back(f);
    return some;
}

std::string Messages(const tickfsm::List<tickfsm::Finding>& all) {
    std::string text;
    for (const auto& f : all) text += std::string(tickfsm::FindingKindName(f.kind)) + ": " + f.message + "\n";
    return text;
}

// Idle <-> Walk, Idle -> Jump -> Idle, Dead terminal: nothing to find.
class Clean : public Manager {
public:
    explicit Clean(Hero& h) : Manager(h) {
        SetInitialState<Idle>().To<Jump>(&CanJump, "can jump").To<Walk>([](const Hero& c) { return !c.stop; });
        From<Walk>().To<Idle>([](const Hero& c) { return c.stop; }).On("die").To<Dead>();
        From<Jump>().To<Idle>([](const Hero&, const Pad&, float t) { return t > 0.5f; });
        SetTerminal<Dead>();
        DeclareEvent("die");
    }
};

} // namespace

TEST_CASE("Describe holds the states, the transitions and the names given to conditions", "[describe]") {
    Hero hero;
    Clean m(hero);
    const tickfsm::Description d = m.Describe();
    REQUIRE(d.states.size() == m.StateCount());
    REQUIRE(d.Find("Dead") != nullptr);
    CHECK(d.Find("Dead")->terminal);
    CHECK(d.Find("Idle")->is_initial);
    REQUIRE(d.events.size() == 1);
    CHECK(d.events[0] == tickfsm::Event("die"));

    const auto& rules = d.transitions;
    REQUIRE(rules.size() == 5);
    CHECK(rules[0].from == m.IdOf<Idle>());
    CHECK(rules[0].condition == "can jump");
    CHECK(tickfsm::ConditionText(d, rules[0]) == "can jump");
    CHECK(rules[1].condition.empty());
    CHECK(tickfsm::ConditionText(d, rules[1]) == "condition 1 of Idle");
    CHECK(rules[4].from == m.IdOf<Walk>());
    CHECK(tickfsm::ConditionText(d, rules[4]) == "event die");
}

TEST_CASE("A named condition shares its table with machines named alike and not with others", "[describe]") {
    struct Named : Manager {
        Named(Hero& h, bool other) : Manager(h) {
            if (other) SetInitialState<Idle>().To<Jump>(&CanJump, "other name");
            else SetInitialState<Idle>().To<Jump>(&CanJump, "can jump");
        }
    };
    Hero hero;
    Named a(hero, false), b(hero, false), c(hero, true);
    CHECK(a.SharesTable());
    CHECK(a.Transitions()[0].condition == "can jump");
    CHECK(b.Transitions()[0].condition == "can jump");
    CHECK(c.Transitions()[0].condition == "other name");
}

TEST_CASE("A named condition on a private table and on keyed states is described", "[describe]") {
    enum class Key { Stand, Run };
    Hero hero;
    Manager m(hero);
    int limit = 3;
    m.SetInitialState<Idle>().To<Jump>([limit](const Hero&) { return limit > 2; }, "over the limit").To<Walk>();
    m.AddState<Idle>(Key::Stand);
    m.AddState<Walk>(Key::Run);
    m.From(Key::Stand).To(Key::Run, [](const Hero& c) { return c.jump; }, "pressed");
    m.SetTerminal(Key::Run);
    const auto rules = m.Transitions();
    int terminal = 0;
    for (const auto& s : m.States()) terminal += s.terminal && s.id != m.IdOf<Walk>();
    CHECK(terminal == 1);
    CHECK_FALSE(m.SharesTable());
    REQUIRE(rules.size() == 3);
    CHECK(rules[0].condition == "over the limit");
    CHECK(rules[1].always);
    CHECK(rules[2].condition == "pressed");
}

TEST_CASE("Every kind of condition transition takes a name", "[describe]") {
    struct M : Manager {
        explicit M(Hero& h) : Manager(h) {
            SetPushCapacity<1>();
            SetInitialState<Idle>()
                .ForceTo<Dead>([](const Hero& c) { return c.hit; }, "hit")
                .ToWhenDone<Walk>(&CanJump, "done")
                .Push<Fall>([](const Hero& c) { return c.stop; }, "pushed");
            From<Fall>().Pop([](const Hero& c) { return !c.stop; }, "popped");
            FromAny().To<Idle>([](const Hero& c) { return c.jump; }, "from anywhere");
        }
    };
    Hero hero;
    M m(hero);
    std::vector<std::string> names;
    for (const auto& rule : m.Transitions()) names.push_back(rule.condition);
    CHECK(names == std::vector<std::string>{"from anywhere", "hit", "done", "pushed", "popped"});
    CHECK(m.SharesTable());
}

TEST_CASE("A crowd describes the table its characters share", "[describe]") {
    tickfsm::Crowd<Clean> crowd(2);
    const auto d = crowd.Describe();
    CHECK(d.transitions.size() == 5);
    CHECK(d.transitions[0].condition == "can jump");
    CHECK(crowd.Validate().empty());
}

TEST_CASE("The DOT picture marks the initial state, labels edges and clusters composites", "[describe][dot]") {
    struct Nested : Manager {
        explicit Nested(Hero& h) : Manager(h) {
            SetPushCapacity<1>();
            SetSubstates<Combat, Attack, Block>();
            SetHistory<Combat>(tickfsm::History::Shallow);
            FromAny().ForceTo<Dead>([](const Hero& c) { return c.hit; }, "hit");
            SetInitialState<Idle>().To<Combat>(&CanJump, "enemy near").Push<Fall>([](const Hero& c) { return c.stop; });
            From<Attack>().To<Block>();
            From<Fall>().Pop([](const Hero& c) { return !c.stop; });
            SetTerminal<Dead>();
        }
    };
    Hero hero;
    Nested m(hero);
    const std::string dot = tickfsm::WriteDot(m.Describe());
    CHECK(dot.rfind("digraph tickfsm {", 0) == 0);
    CHECK(dot.find("subgraph cluster_m0s") != std::string::npos);
    CHECK(dot.find("label=\"Combat (shallow history)\"") != std::string::npos);
    const std::string idle = "m0s" + std::to_string(m.IdOf<Idle>().value);
    CHECK(dot.find("m0start -> " + idle + ";") != std::string::npos);
    CHECK(dot.find("label=\"0. enemy near\"") != std::string::npos);
    CHECK(dot.find("m0any [label=\"any state\"") != std::string::npos);
    CHECK(dot.find("label=\"0. hit (forced)\", style=\"dashed\"") != std::string::npos);
    CHECK(dot.find("label=\"push condition 1\", style=\"bold\"") != std::string::npos);
    CHECK(dot.find("-> m0pop [label=\"pop condition 0\"") != std::string::npos);
    CHECK(dot.find("peripheries=2") != std::string::npos);

    const std::string mermaid = tickfsm::WriteMermaid(m.Describe());
    CHECK(mermaid.rfind("stateDiagram-v2\n", 0) == 0);
    CHECK(mermaid.find("[*] --> " + idle + "\n") != std::string::npos);
    CHECK(mermaid.find("state \"Combat (shallow history)\" as m0s") != std::string::npos);
    CHECK(mermaid.find(" : 0. enemy near\n") != std::string::npos);
    CHECK(mermaid.find(" --> [*]\n") != std::string::npos); // Dead is terminal
}

TEST_CASE("Several machines side by side are one cluster each", "[describe][dot]") {
    Hero hero;
    Clean a(hero), b(hero);
    std::vector<tickfsm::Description> both{a.Describe(), b.Describe()};
    both[0].name = "legs";
    both[1].name = "arms";
    const std::string dot = tickfsm::WriteDot(both);
    CHECK(dot.find("subgraph cluster_m0 {\n    label=\"legs\"") != std::string::npos);
    CHECK(dot.find("subgraph cluster_m1 {\n    label=\"arms\"") != std::string::npos);
    const std::string mermaid = tickfsm::WriteMermaid(both);
    CHECK(mermaid.find("state \"arms\" as m1") != std::string::npos);
}

TEST_CASE("A machine with nothing wrong validates clean", "[validate]") {
    Hero hero;
    Clean m(hero);
    const auto found = m.Validate();
    INFO(Messages(found));
    CHECK(found.empty());
}

TEST_CASE("A state no transition reaches is reported", "[validate]") {
    struct M : Manager {
        explicit M(Hero& h) : Manager(h) {
            SetInitialState<Idle>().To<Walk>(&CanJump);
            From<Walk>().To<Idle>(&CanJump);
            From<Lost>().To<Idle>(&CanJump);     // nothing leads to Lost
            From<Ghost>().To<Lost>(&CanJump);    // nor to Ghost, which leads only to Lost
        }
    };
    Hero hero;
    M m(hero);
    const auto found = Of(m.Validate(), tickfsm::FindingKind::Unreachable);
    INFO(Messages(found));
    REQUIRE(found.size() == 2);
    CHECK(found[0].names[0] == "Lost");
    CHECK(found[1].names[0] == "Ghost");
    CHECK(found[0].message == "state Lost is unreachable: no transition leads to it from the initial state Idle");
}

TEST_CASE("A substate that is not initial and that no transition reaches is reported", "[validate]") {
    struct M : Manager {
        explicit M(Hero& h) : Manager(h) {
            SetSubstates<Combat, Attack, Block>();
            SetInitialState<Idle>().To<Combat>(&CanJump);
            From<Combat>().To<Idle>(&CanJump);
        }
    };
    Hero hero;
    M m(hero);
    const auto found = m.Validate();
    INFO(Messages(found));
    REQUIRE(found.size() == 1);
    CHECK(found[0].kind == tickfsm::FindingKind::Unreachable);
    CHECK(found[0].names[0] == "Block");
}

TEST_CASE("A state with no way out that is not terminal is reported", "[validate]") {
    struct M : Manager {
        explicit M(Hero& h, bool terminal) : Manager(h) {
            SetInitialState<Idle>().To<Walk>(&CanJump).To<Dead>([](const Hero& c) { return c.hit; });
            From<Walk>().To<Walk>(&CanJump); // to itself: not a way out
            if (terminal) {
                SetTerminal<Dead>();
                SetTerminal<Walk>();
            }
        }
    };
    Hero hero;
    M open(hero, false);
    const auto found = open.Validate();
    INFO(Messages(found));
    REQUIRE(found.size() == 2);
    CHECK(found[0].kind == tickfsm::FindingKind::NoWayOut);
    CHECK(found[0].names[0] == "Walk");
    CHECK(found[1].names[0] == "Dead");
    CHECK(found[1].message.view().find("SetTerminal<Dead>()") != std::string::npos);
    M closed(hero, true);
    CHECK(closed.Validate().empty());
}

TEST_CASE("A keyed state with no way out is told the keyed SetTerminal", "[validate][keyed]") {
    enum class Key { Stand, Run };
    enum class Far : int { Away = 300 }; // past the named range: the state is named Far(300)
    Hero hero;
    Manager m(hero);
    m.AddState<Idle>(Key::Stand);
    m.AddState<Walk>(Key::Run);
    m.AddState<Jump>(Far::Away);
    m.SetInitialState(Key::Stand).To(Key::Run, &CanJump).To(Far::Away, [](const Hero& c) { return c.hit; });
    m.From(Key::Run).To(Key::Stand, [](const Hero& c) { return c.stop; });
    const auto found = m.Validate();
    INFO(Messages(found));
    REQUIRE(found.size() == 1);
    CHECK(found[0].kind == tickfsm::FindingKind::NoWayOut);
    CHECK(found[0].names[0] == "Far(300)");
    CHECK(found[0].message.view().ends_with("say so with SetTerminal(Far(300))"));
    for (const tickfsm::StateInfo& s : m.States()) CHECK(s.keyed);
    m.SetTerminal(Far::Away); // the call the message names
    CHECK(m.Validate().empty());
    Clean typed(hero);
    for (const tickfsm::StateInfo& s : typed.States()) CHECK_FALSE(s.keyed);
}

TEST_CASE("A way out through a parent, an event, a pop or an any-state transition counts", "[validate]") {
    struct M : Manager {
        explicit M(Hero& h) : Manager(h) {
            SetPushCapacity<1>();
            SetSubstates<Combat, Attack>();
            FromAny().To<Dead>([](const Hero& c) { return c.hit; });
            SetInitialState<Idle>().To<Combat>(&CanJump).On("jump").To<Jump>().Push<Fall>(&CanJump);
            From<Combat>().To<Idle>(&CanJump);
            From<Jump>().On("land").To<Idle>();
            From<Fall>().Pop(&CanJump);
            SetTerminal<Dead>();
        }
    };
    Hero hero;
    M m(hero);
    const auto found = m.Validate();
    INFO(Messages(found));
    CHECK(found.empty());
}

TEST_CASE("A transition after one that always holds is reported as never tried", "[validate]") {
    struct M : Manager {
        explicit M(Hero& h) : Manager(h) {
            SetInitialState<Idle>().To<Walk>().To<Jump>(&CanJump, "can jump");
            From<Walk>().To<Gated>().To<Idle>(&CanJump);       // Gated's gate may refuse: Idle is tried
            From<Gated>().ForceTo<Idle>().To<Jump>(&CanJump); // forced: nothing refuses it
            From<Jump>().To<Idle>(&CanJump);
        }
    };
    Hero hero;
    M m(hero);
    const auto found = m.Validate();
    INFO(Messages(found));
    REQUIRE(found.size() == 2);
    CHECK(found[0].kind == tickfsm::FindingKind::NeverTried);
    CHECK(found[0].names == std::vector<std::string_view>{"Idle", "Jump"});
    CHECK(found[0].message == "Idle's transition 1 to Jump (can jump) is never tried: its transition 0 to Walk has "
                              "no condition and no gate to refuse it, and is tried first");
    CHECK(found[1].names[0] == "Gated");
}

TEST_CASE("A substate's transitions under a parent whose transition always holds are never tried", "[validate]") {
    struct M : Manager {
        explicit M(Hero& h) : Manager(h) {
            SetSubstates<Combat, Attack, Block>();
            SetInitialState<Idle>().To<Combat>(&CanJump);
            From<Combat>().To<Idle>();
            From<Attack>().To<Block>(&CanJump);
            From<Block>().To<Attack>(&CanJump);
        }
    };
    Hero hero;
    M m(hero);
    const auto found = Of(m.Validate(), tickfsm::FindingKind::NeverTried);
    INFO(Messages(found));
    REQUIRE(found.size() == 2);
    CHECK(found[0].names == std::vector<std::string_view>{"Attack", "Combat"});
    CHECK(found[0].message ==
          "Attack's transition 0 to Block is never tried: Combat, which holds it, always takes its transition 0 to "
          "Idle first");
}

TEST_CASE("A typed event transition after an unguarded one on the same event is never tried", "[validate]") {
    struct M : Manager {
        explicit M(Hero& h) : Manager(h) {
            SetInitialState<Idle>().On<Hit>().To<Dead>().On<Hit>([](const Hero&, const Hit& e) {
                return e.damage > 9;
            }).To<Fall>();
            From<Fall>().To<Idle>(&CanJump);
            SetTerminal<Dead>();
        }
    };
    Hero hero;
    M m(hero);
    const auto found = m.Validate();
    INFO(Messages(found));
    REQUIRE(found.size() == 1);
    CHECK(found[0].kind == tickfsm::FindingKind::NeverTried);
    CHECK(found[0].names == std::vector<std::string_view>{"Idle", "Fall"});
}

TEST_CASE("A declared event no state has a transition on is reported", "[validate]") {
    struct M : Manager {
        explicit M(Hero& h) : Manager(h) {
            SetInitialState<Idle>().On("jump").To<Jump>();
            From<Jump>().On<Hit>().To<Idle>();
            DeclareEvent("jump");
            DeclareEvent<Hit>();
            DeclareEvent("dash");
        }
    };
    Hero hero;
    M m(hero);
    const auto found = m.Validate();
    INFO(Messages(found));
    REQUIRE(found.size() == 1);
    CHECK(found[0].kind == tickfsm::FindingKind::EventNotHandled);
    CHECK(found[0].states.empty());
    CHECK(found[0].message == "event dash is declared, but no state has a transition on it: sending it does nothing");
}

TEST_CASE("A history, pass-through or terminal rule that cannot apply is reported", "[validate]") {
    struct M : Manager {
        explicit M(Hero& h) : Manager(h) {
            SetSubstates<Combat, Attack>();
            SetHistory<Combat>(tickfsm::History::Shallow); // one substate: nothing to remember
            SetPassThrough<Walk>();                        // with no transition to route on
            SetInitialState<Idle>().To<Combat>(&CanJump).To<Walk>(&CanJump);
            From<Combat>().To<Idle>(&CanJump);
            From<Walk>().On("stop").To<Idle>();
            From<Dead>().To<Idle>(&CanJump);
            SetTerminal<Dead>(); // yet it has a way out
            From<Idle>().To<Dead>(&CanJump);
        }
    };
    Hero hero;
    M m(hero);
    const auto found = m.Validate();
    INFO(Messages(found));
    REQUIRE(found.size() == 3);
    for (const auto& f : found) CHECK(f.kind == tickfsm::FindingKind::RuleCannotApply);
    std::vector<std::string_view> names;
    for (const auto& f : found) names.push_back(f.names[0]);
    std::sort(names.begin(), names.end());
    CHECK(names == std::vector<std::string_view>{"Combat", "Dead", "Walk"});
}

namespace {

struct Alive {};
struct Legs {};
struct Stand {};
struct Run {};
struct Arms {};
struct Lower {};
struct Aim {};
struct Crouch {};

// Alive holds two regions, Legs {Stand, Run} and Arms {Lower, Aim}; Crouch is
// in Legs but nothing leads to it.
class Soldier : public Manager {
public:
    Soldier(Hero& h, bool crouch) : Manager(h) {
        SetInitialState<Alive>().To<Dead>([](const Hero& c) { return c.hit; }, "hit");
        SetRegions<Alive, Legs, Arms>();
        if (crouch) SetSubstates<Legs, Stand, Run, Crouch>();
        else SetSubstates<Legs, Stand, Run>();
        SetSubstates<Arms, Lower, Aim>();
        From<Stand>().To<Run>(&CanJump);
        From<Run>().To<Stand>([](const Hero& c) { return c.stop; });
        From<Lower>().To<Aim>(&CanJump);
        From<Aim>().To<Lower>([](const Hero& c) { return c.stop; });
        SetTerminal<Dead>();
    }
};

} // namespace

TEST_CASE("Regions are drawn inside their parallel state, each with its initial state", "[describe][dot]") {
    Hero hero;
    Soldier m(hero, false);
    const tickfsm::Description d = m.Describe();
    const std::string dot = tickfsm::WriteDot(d);
    CHECK(dot.find("label=\"Alive (parallel)\"") != std::string::npos);
    CHECK(dot.find("label=\"Legs (region)\";\n      style=\"rounded,dashed\"") != std::string::npos);
    const std::string legs = "m0s" + std::to_string(m.IdOf<Legs>().value);
    const std::string stand = "m0s" + std::to_string(m.IdOf<Stand>().value);
    CHECK(dot.find(legs + " -> " + stand + ";") != std::string::npos); // Legs starts in Stand
    const std::string mermaid = tickfsm::WriteMermaid(d);
    CHECK(mermaid.find("\n        --\n") != std::string::npos); // Legs | Arms
    CHECK(mermaid.find("state \"Arms (region)\" as m0s") != std::string::npos);
}

TEST_CASE("Entering a parallel state reaches every region, and a region's unreached state is reported",
          "[validate]") {
    Hero hero;
    Soldier clean(hero, false);
    INFO(Messages(clean.Validate()));
    CHECK(clean.Validate().empty());
    Soldier crouch(hero, true);
    const auto found = crouch.Validate();
    INFO(Messages(found));
    REQUIRE(found.size() == 1);
    CHECK(found[0].kind == tickfsm::FindingKind::Unreachable);
    CHECK(found[0].names[0] == "Crouch");
}

TEST_CASE("A parallel state with one region is reported as a rule that cannot apply", "[validate]") {
    struct M : Manager {
        explicit M(Hero& h) : Manager(h) {
            SetInitialState<Alive>().To<Dead>([](const Hero& c) { return c.hit; });
            SetRegions<Alive, Legs>();
            SetSubstates<Legs, Stand, Run>();
            From<Stand>().To<Run>(&CanJump);
            From<Run>().To<Stand>(&CanJump);
            SetTerminal<Dead>();
        }
    };
    Hero hero;
    M m(hero);
    const auto found = m.Validate();
    INFO(Messages(found));
    REQUIRE(found.size() == 1);
    CHECK(found[0].kind == tickfsm::FindingKind::RuleCannotApply);
    CHECK(found[0].names == std::vector<std::string_view>{"Alive", "Legs"});
}

// At global scope: a template argument's name is drawn qualified.
struct Overhand {};
struct Jab {};
namespace {
template <class Weight>
struct Swing {};
} // namespace

TEST_CASE("Mermaid labels keep a template's angle brackets, a hash and a percent sign as entity codes",
          "[describe][mermaid]") {
    Hero hero;
    tickfsm::StateManager<Hero, Pad> m(hero);
    m.SetInitialState<Swing<Overhand>>().To<Swing<Jab>>([](const Hero&) { return true; }, "100%% <done> #1");
    m.From<Swing<Jab>>();
    const std::string mermaid = tickfsm::WriteMermaid(m.Describe());
    INFO(mermaid);
    CHECK(mermaid.find("state \"Swing#lt;Overhand#gt;\" as m0s") != std::string::npos);
    CHECK(mermaid.find("state \"Swing#lt;Jab#gt;\" as m0s") != std::string::npos);
    CHECK(mermaid.find(" : 0. 100#37;#37; #lt;done#gt; #35;1\n") != std::string::npos);
    CHECK(mermaid.find('<') == std::string::npos);
}

TEST_CASE("Validate follows no transition of the global state: a global state's own transitions never fire",
          "[validate]") {
    Hero hero;
    Manager m(hero);
    m.SetInitialState<Idle>().To<Walk>(&CanJump);
    m.From<Walk>().To<Idle>(&CanJump);
    m.From<Ghost>().To<Lost>(&CanJump);
    m.From<Lost>().To<Idle>(&CanJump);
    tickfsm::Description d = m.Describe();
    d.global = m.IdOf<Ghost>(); // a description made by hand may hold such a global state
    const auto found = tickfsm::Validate(d);
    INFO(Messages(found));
    REQUIRE(found.size() == 1);
    CHECK(found[0].kind == tickfsm::FindingKind::Unreachable);
    CHECK(found[0].names[0] == "Lost");
}

TEST_CASE("A region's state is left with its parallel state by another region's transition out of it",
          "[validate]") {
    struct M : Manager {
        M(Hero& h, bool out) : Manager(h) {
            SetInitialState<Alive>();
            SetRegions<Alive, Legs, Arms>();
            SetSubstates<Legs, Stand>();
            SetSubstates<Arms, Lower, Aim>();
            From<Lower>().To<Aim>(&CanJump);
            if (out) From<Aim>().To<Dead>([](const Hero& c) { return c.hit; }); // leaves Stand too
            else From<Aim>().To<Lower>([](const Hero& c) { return c.hit; });    // stays in Arms
            SetTerminal<Dead>();
        }
    };
    Hero hero;
    M out(hero, true);
    INFO(Messages(out.Validate()));
    CHECK(out.Validate().empty());
    M within(hero, false);
    const auto found = Of(within.Validate(), tickfsm::FindingKind::NoWayOut);
    INFO(Messages(within.Validate()));
    REQUIRE(found.size() == 1);
    CHECK(found[0].names[0] == "Stand");
}

TEST_CASE("A terminal composite covers its substates, and is reported when the machine can leave it",
          "[validate]") {
    struct M : Manager {
        M(Hero& h, bool way_back) : Manager(h) {
            SetSubstates<Dead, Fall, Lost>();
            SetInitialState<Idle>().To<Dead>([](const Hero& c) { return c.hit; });
            From<Fall>().To<Lost>(&CanJump); // within Dead
            if (way_back) From<Lost>().To<Idle>(&CanJump);
            SetTerminal<Dead>();
        }
    };
    Hero hero;
    M closed(hero, false);
    INFO(Messages(closed.Validate()));
    CHECK(closed.Validate().empty());
    M open(hero, true);
    const auto found = open.Validate();
    INFO(Messages(found));
    REQUIRE(found.size() == 1);
    CHECK(found[0].kind == tickfsm::FindingKind::RuleCannotApply);
    CHECK(found[0].message == "state Dead is marked terminal, but the machine can leave it: condition 0 of Lost");
}

TEST_CASE("A leaf whose only exit enters it again through its parent's initial substate has no way out",
          "[validate]") {
    enum class Exit { CombatToCombat, AttackToCombat, CombatWithHistory, CombatToBlock };
    struct M : Manager {
        M(Hero& h, Exit exit) : Manager(h) {
            SetSubstates<Combat, Attack, Block>();
            SetInitialState<Idle>().To<Combat>(&CanJump);
            From<Block>().To<Idle>(&CanJump);
            if (exit == Exit::AttackToCombat) From<Attack>().To<Combat>(&CanJump);
            else if (exit == Exit::CombatToBlock) From<Combat>().To<Block>(&CanJump);
            else From<Combat>().To<Combat>(&CanJump);
            if (exit == Exit::CombatWithHistory) SetHistory<Combat>(tickfsm::History::Shallow);
        }
    };
    Hero hero;
    for (const Exit exit : {Exit::CombatToCombat, Exit::AttackToCombat}) {
        M m(hero, exit);
        const auto found = Of(m.Validate(), tickfsm::FindingKind::NoWayOut);
        INFO(Messages(m.Validate()));
        REQUIRE(found.size() == 1);
        CHECK(found[0].names[0] == "Attack");
    }
    // Where a history leads is not followed: it is taken as a way out. Block is one.
    for (const Exit exit : {Exit::CombatWithHistory, Exit::CombatToBlock}) {
        M m(hero, exit);
        INFO(Messages(m.Validate()));
        CHECK(Of(m.Validate(), tickfsm::FindingKind::NoWayOut).empty());
    }
}

TEST_CASE("Mermaid writes a transition of a region's own in that region's section of its parallel state",
          "[describe][mermaid]") {
    Hero hero;
    Manager m(hero);
    m.SetInitialState<Alive>();
    m.SetRegions<Alive, Legs, Arms>();
    m.SetSubstates<Legs, Stand, Run>();
    m.SetSubstates<Arms, Lower, Aim>();
    m.From<Legs>().To<Run>(&CanJump, "legs run");
    m.From<Arms>().To<Aim>(&CanJump, "arms aim");
    const std::string mermaid = tickfsm::WriteMermaid(m.Describe());
    INFO(mermaid);
    auto node = [](tickfsm::StateId id) { return "m0s" + std::to_string(id.value); };
    const std::size_t divider = mermaid.find("\n        --\n"); // Mermaid's sections: Legs's, then Arms's
    const std::size_t legs = mermaid.find(node(m.IdOf<Legs>()) + " --> " + node(m.IdOf<Run>()) + " : 0. legs run\n");
    const std::size_t arms = mermaid.find(node(m.IdOf<Arms>()) + " --> " + node(m.IdOf<Aim>()) + " : 0. arms aim\n");
    REQUIRE(divider != std::string::npos);
    REQUIRE(legs != std::string::npos);
    REQUIRE(arms != std::string::npos);
    CHECK(legs < divider);
    CHECK(arms > divider);
}
