// The scenarios of this file follow UnityHFSM's Tests/TestStateAndTransitionGetters.cs,
// TestActiveHierarchyPath.cs, TestStateMachinePath.cs, TestStateMachineWalker.cs,
// TestActiveStateChangedEvent.cs, TestGenericsInHierarchical.cs and TestExampleScene.cs
// (UnityHFSM by Inspiaaa, MIT licence), re-expressed for tickfsm: what a machine is made of
// (States(), Transitions()), its active path (ActivePath(), ActiveStates(), ParentOf), the
// observer that hears each change, and a nested machine with exit transitions.
//
// Where tickfsm's documented rules differ from UnityHFSM's, the tests check tickfsm's:
// there is no Init (the first Perform enters the initial state, then tries its transitions and
// performs in the same tick), the active path has no leading '/', state ids are classes
// (so UnityHFSM's ids of mixed types become states with names), and a nested machine's whole
// active path tries its transitions, outermost first, before any state performs.

#include <catch2/catch.hpp>

#include <algorithm>
#include <array>
#include <cstddef>
#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <tickfsm/tickfsm.hpp>

namespace {

// What the hooks and the observer heard, in order.
struct Log {
    std::vector<std::string> lines;
    bool ready = false;
    void Note(std::string line) { lines.push_back(std::move(line)); }
    // The lines heard since the last call, and forget them.
    std::vector<std::string> Take() {
        std::vector<std::string> taken;
        taken.swap(lines);
        return taken;
    }
};
struct Pad {};
using Lines = std::vector<std::string>;

// A state that logs its hooks under its own name.
template <const char* kName>
struct Logged {
    static constexpr std::string_view Name = kName;
    void OnStateEnter(Log& log, const Pad&) { log.Note(std::string("enter ") + kName); }
    void Perform(Log& log, const Pad&) { log.Note(kName); }
    void OnStateExit(Log& log, const Pad&) { log.Note(std::string("exit ") + kName); }
};

struct A {};
struct B {};
struct C {};

using Machine = tickfsm::StateManager<Log, Pad>;

// --- what a machine is made of --------------------------------------------------

// A, B and C with condition transitions, event transitions, any-state transitions and any-state
// event transitions.
class ExampleMachine : public Machine {
public:
    explicit ExampleMachine(Log& log) : Machine(log) {
        SetInitialState<A>().To<B>().To<C>();
        From<C>().To<A>();
        From<A>().On("event1").To<B>(); // UnityHFSM also has A -> C on event1: one per event in tickfsm
        From<A>().On("event2").To<C>();
        From<C>().On("event1").To<A>();
        From<B>().On("event2").To<C>();
        FromAny().To<A>().To<A>().To<B>();
        // UnityHFSM also has a second any-state A on event1 and C on event2: one per event in tickfsm.
        FromAny().On("event1").To<A>().On("event2").To<A>();
    }
};

using Edge = std::pair<std::string, std::string>;

std::string NameOrNone(const Machine& m, tickfsm::StateId id) {
    return id.Valid() ? std::string(m.StateName(id)) : std::string("-");
}

std::vector<Edge> ConditionEdges(const Machine& m, bool any) {
    std::vector<Edge> edges;
    for (const tickfsm::TransitionRule& t : m.Transitions())
        if (t.kind == tickfsm::TransitionKind::Condition && t.any == any)
            edges.emplace_back(NameOrNone(m, t.from), NameOrNone(m, t.to));
    return edges;
}

// Event transitions by event, from states (`any` false) or from any state (`any` true: a
// rule without a state it starts from).
std::map<std::string, std::vector<Edge>> EventEdges(const Machine& m, bool any) {
    std::map<std::string, std::vector<Edge>> edges;
    for (const tickfsm::TransitionRule& t : m.Transitions())
        if (t.kind == tickfsm::TransitionKind::Event && t.from.Valid() != any)
            edges[std::string(t.event.name)].emplace_back(NameOrNone(m, t.from), NameOrNone(m, t.to));
    return edges;
}

TEST_CASE("A machine names the state it starts in", "[unityhfsm][state_and_transition_getters]") {
    Log log;
    ExampleMachine m(log);
    std::vector<std::string> initial;
    for (const tickfsm::StateInfo& s : m.States())
        if (s.is_initial) initial.emplace_back(s.name);
    REQUIRE(initial == Lines{"A"});
}

TEST_CASE("A machine without states has no start state, and ticking it is a configuration error",
          "[unityhfsm][state_and_transition_getters]") {
    // UnityHFSM throws from the query; tickfsm's States() is empty and the first Perform throws.
    Log log;
    Machine m(log);
    const tickfsm::List<tickfsm::StateInfo> states = m.States();
    REQUIRE(std::none_of(states.begin(), states.end(), [](const tickfsm::StateInfo& s) { return s.is_initial; }));
    REQUIRE_THROWS_AS(m.Perform({}), tickfsm::ConfigError);
}

TEST_CASE("A machine lists the name of every state it has", "[unityhfsm][state_and_transition_getters]") {
    Log log;
    ExampleMachine m(log);
    std::vector<std::string> names;
    for (const tickfsm::StateInfo& s : m.States()) names.emplace_back(s.name);
    std::sort(names.begin(), names.end());
    REQUIRE(names == Lines{"A", "B", "C"});
}

TEST_CASE("A machine without states lists no state names", "[unityhfsm][state_and_transition_getters]") {
    Log log;
    Machine m(log);
    std::vector<std::string> names;
    for (const tickfsm::StateInfo& s : m.States()) names.emplace_back(s.name);
    REQUIRE(names.empty());
}

TEST_CASE("A machine lists every state it has by id", "[unityhfsm][state_and_transition_getters]") {
    Log log;
    ExampleMachine m(log);
    std::vector<tickfsm::StateId> ids;
    for (const tickfsm::StateInfo& s : m.States()) ids.push_back(s.id);
    const std::array<tickfsm::StateId, 3> expected{m.IdOf<A>(), m.IdOf<B>(), m.IdOf<C>()};
    REQUIRE(ids.size() == expected.size());
    REQUIRE(m.StateCount() == expected.size());
    for (tickfsm::StateId id : expected) {
        REQUIRE(id.Valid());
        REQUIRE(std::count(ids.begin(), ids.end(), id) == 1);
    }
    REQUIRE(m.Describe().Find(m.IdOf<B>())->name == "B");
}

TEST_CASE("A machine without states lists no states", "[unityhfsm][state_and_transition_getters]") {
    Log log;
    Machine m(log);
    REQUIRE(m.States().empty());
    REQUIRE(m.Describe().states.empty());
    REQUIRE(m.StateCount() == 0);
}

TEST_CASE("A machine lists its states' condition transitions in the order they are tried",
          "[unityhfsm][state_and_transition_getters]") {
    Log log;
    ExampleMachine m(log);
    REQUIRE(ConditionEdges(m, false) == std::vector<Edge>{{"A", "B"}, {"A", "C"}, {"C", "A"}});
}

TEST_CASE("A machine without states lists no transitions", "[unityhfsm][state_and_transition_getters]") {
    Log log;
    Machine m(log);
    REQUIRE(m.Transitions().empty());
    REQUIRE(ConditionEdges(m, false).empty());
}

TEST_CASE("A machine lists its any-state transitions first, each without a state it starts from",
          "[unityhfsm][state_and_transition_getters]") {
    Log log;
    ExampleMachine m(log);
    REQUIRE(ConditionEdges(m, true) == std::vector<Edge>{{"-", "A"}, {"-", "A"}, {"-", "B"}});
    const tickfsm::List<tickfsm::TransitionRule> rules = m.Transitions();
    REQUIRE(rules.size() >= 3);
    for (std::size_t i = 0; i < 3; ++i) {
        REQUIRE(rules[i].any);
        REQUIRE(rules[i].order == i);
    }
}

TEST_CASE("A machine without states lists no any-state transitions", "[unityhfsm][state_and_transition_getters]") {
    Log log;
    Machine m(log);
    REQUIRE(ConditionEdges(m, true).empty());
}

TEST_CASE("A machine lists its event transitions by event", "[unityhfsm][state_and_transition_getters]") {
    Log log;
    ExampleMachine m(log);
    const std::map<std::string, std::vector<Edge>> expected{
        {"event1", {{"A", "B"}, {"C", "A"}}},
        {"event2", {{"A", "C"}, {"B", "C"}}},
    };
    REQUIRE(EventEdges(m, false) == expected);
    // UnityHFSM keeps a second transition of A on event1; tickfsm allows one per event and state.
    REQUIRE_THROWS_AS(m.From<A>().On("event1").To<C>(), tickfsm::ConfigError);
}

TEST_CASE("A machine without states lists no event transitions", "[unityhfsm][state_and_transition_getters]") {
    Log log;
    Machine m(log);
    REQUIRE(EventEdges(m, false).empty());
}

TEST_CASE("A machine lists its any-state event transitions by event", "[unityhfsm][state_and_transition_getters]") {
    Log log;
    ExampleMachine m(log);
    const std::map<std::string, std::vector<Edge>> expected{{"event1", {{"-", "A"}}}, {"event2", {{"-", "A"}}}};
    REQUIRE(EventEdges(m, true) == expected);
    for (const tickfsm::TransitionRule& t : m.Transitions())
        if (t.kind == tickfsm::TransitionKind::Event) CHECK(t.any == !t.from.Valid());
    REQUIRE_THROWS_AS(m.FromAny().On("event2").To<C>(), tickfsm::ConfigError);
}

TEST_CASE("A machine without states lists no any-state event transitions",
          "[unityhfsm][state_and_transition_getters]") {
    Log log;
    Machine m(log);
    REQUIRE(EventEdges(m, true).empty());
}

// --- the active path ------------------------------------------------------------

struct Move {};
struct Jump {};
struct Falling {};

TEST_CASE("The active path names every active state, outermost first", "[unityhfsm][active_hierarchy_path]") {
    // UnityHFSM writes "/Move/Jump/Falling" after Init; tickfsm has no leading '/' and enters on the first Perform.
    Log log;
    Machine m(log);
    m.SetSubstates<Move, Jump>();
    m.SetSubstates<Jump, Falling>();
    m.SetInitialState<Move>();
    m.Perform({});
    REQUIRE(m.ActivePath() == "Move/Jump/Falling");
}

TEST_CASE("The active path is empty before the machine has started", "[unityhfsm][active_hierarchy_path]") {
    Log log;
    Machine m(log);
    m.SetInitialState<A>();
    REQUIRE(m.ActivePath().empty());
    REQUIRE_FALSE(m.IsStarted());
}

// UnityHFSM's ids may have another type on each level (a string, an int, a bool); tickfsm's
// ids are classes, whose names may read as anything.
struct Outer {
    static constexpr std::string_view Name = "A";
};
struct Five {
    static constexpr std::string_view Name = "5";
};
struct False {
    static constexpr std::string_view Name = "False";
};

TEST_CASE("The active path reads each state's name, whatever it looks like", "[unityhfsm][active_hierarchy_path]") {
    Log log;
    Machine m(log);
    m.SetSubstates<Outer, Five>();
    m.SetSubstates<Five, False>();
    m.SetInitialState<Outer>();
    m.Perform({});
    REQUIRE(m.ActivePath() == "A/5/False");
}

// --- paths of states: ids and parents ---------------------------------------------

// Outer = {Five = {True, False}}, beside B.
struct True {
    static constexpr std::string_view Name = "True";
};

class TreeMachine : public Machine {
public:
    explicit TreeMachine(Log& log) : Machine(log) {
        SetSubstates<Outer, Five>();
        SetSubstates<Five, True, False>();
        SetInitialState<Outer>();
        From<B>();
    }
};

// The states that hold `id` and `id` itself, outermost first, found through ParentOf.
std::vector<tickfsm::StateId> PathOf(const Machine& m, tickfsm::StateId id) {
    std::vector<tickfsm::StateId> path;
    for (; id.Valid(); id = m.ParentOf(id)) path.insert(path.begin(), id);
    return path;
}

std::vector<tickfsm::StateId> ActiveIds(const Machine& m) {
    std::array<tickfsm::StateId, 8> buffer{};
    const std::size_t count = m.ActiveStates(buffer);
    REQUIRE(count <= buffer.size());
    return {buffer.begin(), buffer.begin() + static_cast<std::ptrdiff_t>(count)};
}

// Whether `inner` lies under `outer`: walking ParentOf from `inner` reaches it.
bool IsUnder(const Machine& m, tickfsm::StateId inner, tickfsm::StateId outer) {
    for (tickfsm::StateId at = m.ParentOf(inner); at.Valid(); at = m.ParentOf(at))
        if (at == outer) return true;
    return false;
}

TEST_CASE("The active states are listed by id, outermost first, and follow a change",
          "[unityhfsm][state_machine_walker]") {
    Log log;
    TreeMachine m(log);
    m.Perform({});
    REQUIRE(ActiveIds(m) == std::vector<tickfsm::StateId>{m.IdOf<Outer>(), m.IdOf<Five>(), m.IdOf<True>()});
    REQUIRE(m.TrySetState<B>());
    REQUIRE(ActiveIds(m) == std::vector<tickfsm::StateId>{m.IdOf<B>()});
}

TEST_CASE("Every state's path can be walked through its parents, active or not", "[unityhfsm][state_machine_walker]") {
    // UnityHFSM's root path stands for the machine itself; in tickfsm a top-level state has no parent.
    Log log;
    TreeMachine m(log);
    using Ids = std::vector<tickfsm::StateId>;
    REQUIRE(PathOf(m, m.IdOf<Outer>()) == Ids{m.IdOf<Outer>()});
    REQUIRE(PathOf(m, m.IdOf<B>()) == Ids{m.IdOf<B>()});
    REQUIRE(PathOf(m, m.IdOf<Five>()) == Ids{m.IdOf<Outer>(), m.IdOf<Five>()});
    REQUIRE(PathOf(m, m.IdOf<True>()) == Ids{m.IdOf<Outer>(), m.IdOf<Five>(), m.IdOf<True>()});
    REQUIRE(PathOf(m, m.IdOf<False>()) == Ids{m.IdOf<Outer>(), m.IdOf<Five>(), m.IdOf<False>()});
}

TEST_CASE("The active path's text names the active states' ids in order", "[unityhfsm][state_machine_walker]") {
    // UnityHFSM gives any state's path as text; tickfsm gives the active path's.
    Log log;
    TreeMachine m(log);
    auto joined = [&m] {
        std::string text;
        for (tickfsm::StateId id : ActiveIds(m)) text += (text.empty() ? "" : "/") + std::string(m.StateName(id));
        return text;
    };
    m.Perform({});
    REQUIRE(m.ActivePath() == "A/5/True");
    REQUIRE(m.ActivePath() == joined());
    REQUIRE(m.TrySetState<False>());
    REQUIRE(m.ActivePath() == "A/5/False");
    REQUIRE(m.ActivePath() == joined());
    REQUIRE(m.TrySetState<B>());
    REQUIRE(m.ActivePath() == "B");
    REQUIRE(m.ActivePath() == joined());
}

TEST_CASE("A state lies under exactly the states that hold it", "[unityhfsm][state_machine_path]") {
    // UnityHFSM compares path values; tickfsm relates states by ParentOf.
    Log log;
    TreeMachine m(log);
    const tickfsm::StateId outer = m.IdOf<Outer>(), five = m.IdOf<Five>(), yes = m.IdOf<True>(), b = m.IdOf<B>();
    REQUIRE_FALSE(m.ParentOf(outer).Valid());
    REQUIRE_FALSE(IsUnder(m, outer, outer));
    REQUIRE(IsUnder(m, five, outer));
    REQUIRE(IsUnder(m, yes, outer));
    REQUIRE(IsUnder(m, yes, five));
    REQUIRE_FALSE(IsUnder(m, five, yes));
    REQUIRE_FALSE(IsUnder(m, yes, b));
    REQUIRE_FALSE(IsUnder(m, b, outer));
}

// --- the observer hears every change ----------------------------------------------

inline constexpr char kA[] = "A";
inline constexpr char kB[] = "B";
inline constexpr char kC[] = "C";
struct LoggedA : Logged<kA> {};
struct LoggedB : Logged<kB> {};
struct LoggedC : Logged<kC> {};

// Writes "changed(X)" to the log when the machine changes to X.
class ChangeLogger : public tickfsm::Observer {
public:
    explicit ChangeLogger(Log& log) : log_(log) {}
    void OnTransition(const tickfsm::TransitionInfo& info) override {
        log_.Note("changed(" + std::string(info.to) + ")");
    }

private:
    Log& log_;
};

TEST_CASE("The observer hears each change of state as it is made", "[unityhfsm][active_state_changed_event]") {
    // UnityHFSM reports a change after the state's enter hook, tickfsm's observer before it; and
    // tickfsm's first Perform enters A and tries A's transitions in the same tick.
    Log log;
    Machine m(log);
    ChangeLogger observer(log);
    m.SetObserver(&observer, "changes");
    m.SetInitialState<LoggedA>().To<LoggedB>();
    m.From<LoggedB>().To<LoggedC>();
    m.From<LoggedC>();
    m.Perform({});
    REQUIRE(log.Take() == Lines{"changed(A)", "enter A", "exit A", "changed(B)", "enter B", "B"});
    m.Perform({});
    REQUIRE(log.Take() == Lines{"exit B", "changed(C)", "enter C", "C"});
    m.Perform({});
    REQUIRE(log.Take() == Lines{"C"});
    // UnityHFSM's machine can be exited; tickfsm's Reset runs no hook and tells the observer nothing.
    m.Reset();
    REQUIRE(log.Take().empty());
}

TEST_CASE("The observer hears each pass-through state a tick passes", "[unityhfsm][active_state_changed_event]") {
    Log log;
    Machine m(log);
    ChangeLogger observer(log);
    m.SetObserver(&observer, "changes");
    m.SetPassThrough<LoggedA>();
    m.SetPassThrough<LoggedB>();
    m.SetPassThrough<LoggedC>();
    m.SetInitialState<LoggedA>().To<LoggedB>();
    m.From<LoggedB>().To<LoggedC>();
    m.From<LoggedC>();
    m.Perform({});
    REQUIRE(log.Take() == Lines{"changed(A)", "enter A", "exit A", "changed(B)", "enter B", "exit B", "changed(C)",
                                "enter C", "C"});
    REQUIRE(m.IsIn<LoggedC>());
}

// --- composites of their own kind -------------------------------------------------

// UnityHFSM nests machines whose ids are ints and strings under one of enum ids; in tickfsm
// every level's states are classes.
struct IntMachine {};
struct One {};
struct Two {};
struct StringMachine {};
struct First {};
struct Second {};

TEST_CASE("Each composite changes its own substates, and a direct change enters another composite",
          "[unityhfsm][generics_in_hierarchical]") {
    Log log;
    Machine m(log);
    m.SetSubstates<IntMachine, One, Two>();
    m.SetSubstates<StringMachine, First, Second>();
    m.SetInitialState<IntMachine>();
    m.From<StringMachine>();
    m.From<One>().To<Two>([](const Log& l) { return l.ready; });
    m.From<First>().To<Second>([](const Log& l) { return l.ready; });
    m.Perform({});
    REQUIRE(m.IsIn<IntMachine>());
    REQUIRE(m.CurrentStateName() == "One");
    log.ready = true;
    m.Perform({});
    REQUIRE(m.ActivePath() == "IntMachine/Two");
    REQUIRE(m.TrySetState<StringMachine>());
    REQUIRE(m.ActivePath() == "StringMachine/First");
    m.Perform({});
    REQUIRE(m.ActivePath() == "StringMachine/Second");
}

// --- a spy in a space game --------------------------------------------------------

struct Spy {
    Log log;
    bool should_collect = true;
    bool in_player_range = false;     // the player can see the spy
    bool player_in_own_range = false; // the spy can see the player
};

template <const char* kName>
struct SpyState {
    static constexpr std::string_view Name = kName;
    void OnStateEnter(Spy& s, const Pad&) { s.log.Note(std::string("enter ") + kName); }
    void Perform(Spy& s, const Pad&) { s.log.Note(kName); }
    void OnStateExit(Spy& s, const Pad&) { s.log.Note(std::string("exit ") + kName); }
};
inline constexpr char kFlee[] = "Flee";
inline constexpr char kFollow[] = "Follow";
inline constexpr char kExtract[] = "Extract";
inline constexpr char kCollect[] = "Collect";
inline constexpr char kSend[] = "Send";
struct Flee : SpyState<kFlee> {};
struct Follow : SpyState<kFollow> {};
struct Extract : SpyState<kExtract> {};
struct Collect : SpyState<kCollect> {};
// Sending cannot be cut short: only going back to collecting leaves it.
struct Send : SpyState<kSend> {
    bool CanExitState(const Spy&, const tickfsm::StateRef& to) const { return to.Is<Collect>(); }
};

// Follow, Flee, and Extract = {Collect, Send}; Extract is left only while collecting.
class SpyStateManager : public tickfsm::StateManager<Spy, Pad> {
public:
    explicit SpyStateManager(Spy& spy) : StateManager(spy) {
        SetSubstates<Extract, Collect, Send>();
        SetInitialState<Follow>().To<Extract>([](const Spy& s) { return s.player_in_own_range; });
        From<Extract>()
            .ToWhenDone<Follow>([](const Spy& s) { return !s.player_in_own_range; })
            .ToWhenDone<Flee>([](const Spy& s) { return s.in_player_range; });
        From<Flee>().To<Extract>([](const Spy& s) { return !s.in_player_range; });
        From<Collect>().To<Send>([](const Spy& s) { return !s.should_collect; });
        From<Send>().To<Collect>([](const Spy& s) { return s.should_collect; });
    }
};

TEST_CASE("A spy follows, extracts intel and flees once it is done collecting", "[unityhfsm][example_scene]") {
    // tickfsm tries the whole active path's transitions before any state performs, exits innermost
    // first, and an entered state performs on the tick it is entered.
    Spy spy;
    SpyStateManager m(spy);
    m.Perform({});
    REQUIRE(spy.log.Take() == Lines{"enter Follow", "Follow"});
    spy.player_in_own_range = true;
    m.Perform({});
    REQUIRE(spy.log.Take() == Lines{"exit Follow", "enter Extract", "enter Collect", "Extract", "Collect"});
    m.Perform({});
    REQUIRE(spy.log.Take() == Lines{"Extract", "Collect"});
    spy.should_collect = false;
    m.Perform({});
    REQUIRE(spy.log.Take() == Lines{"exit Collect", "enter Send", "Extract", "Send"});
    m.Perform({});
    REQUIRE(spy.log.Take() == Lines{"Extract", "Send"});
    spy.should_collect = true;
    m.Perform({});
    REQUIRE(spy.log.Take() == Lines{"exit Send", "enter Collect", "Extract", "Collect"});
    spy.in_player_range = true;
    m.Perform({});
    REQUIRE(spy.log.Take() == Lines{"exit Collect", "exit Extract", "enter Flee", "Flee"});
    m.Perform({});
    REQUIRE(spy.log.Take() == Lines{"Flee"});
}

} // namespace
