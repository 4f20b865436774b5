// The scenarios in this file follow UnityHFSM's Tests/TestExitTransitions.cs, Tests/TestCanExit.cs,
// Tests/TestHybridStateMachine.cs and Tests/TestActionSystem.cs (UnityHFSM, MIT licence), re-expressed for
// tickfsm's own rules and idiom.
//
// How UnityHFSM's ideas map onto tickfsm here:
// - A nested state machine that "needs exit time" and its exit transitions: the parent's
//   From<Parent>().ToWhenDone<T>(condition), which waits until the active substate is done (it called Done(), or
//   its CanExitState lets it go to T; a substate without a gate is always done).
// - A state's needsExitTime/canExit: its CanExitState gate.
// - A hybrid state machine's own callbacks: the composite state's own hooks.
// - Named actions called on the active state: typed events handled in place, From<S>().On<E>().Handle() with the
//   state's OnEvent(Controller&, const E&); HasAction: WouldTakeEvent(value).

#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include <tickfsm/tickfsm.hpp>

namespace {

using Lines = std::vector<std::string>;

struct Log {
    Lines lines;
    bool leave = false;     // the parent's transition condition
    bool can_exit = false;  // a gated state's permission to leave
    bool finished = false;  // a substate's signal that its work is over
    int value = 0;          // what an action received
    bool called = false;    // whether an action ran

    // The lines written since the last call, which are then forgotten.
    Lines Take() {
        Lines taken;
        taken.swap(lines);
        return taken;
    }
};
struct Input {};
using Machine = tickfsm::Machine<Log, Input>;

// A state that writes its hooks to the log under its own name.
template <const char* kName>
struct Traced {
    void OnStateEnter(Log& log, const Input&) { log.lines.push_back(std::string("enter ") + kName); }
    void Perform(Log& log, const Input&) { log.lines.push_back(std::string("perform ") + kName); }
    void OnStateExit(Log& log, const Input&) { log.lines.push_back(std::string("exit ") + kName); }
};

inline constexpr char kA[] = "A";
inline constexpr char kB[] = "B";
inline constexpr char kC[] = "C";
inline constexpr char kD[] = "D";
inline constexpr char kX[] = "X";
inline constexpr char kY[] = "Y";
inline constexpr char kZ[] = "Z";
inline constexpr char kMain[] = "Main";
inline constexpr char kOther[] = "Other";

struct A : Traced<kA> {};
struct B : Traced<kB> {};
struct C : Traced<kC> {};
struct D : Traced<kD> {};
struct X : Traced<kX> {};
struct Y : Traced<kY> {};
struct Z : Traced<kZ> {};
struct Main : Traced<kMain> {};
struct Other : Traced<kOther> {};

bool Leave(const Log& log) { return log.leave; }

} // namespace

// ---------------------------------------------------------------------------------------------------------------
// TestExitTransitions
// ---------------------------------------------------------------------------------------------------------------

TEST_CASE("A parent's exit transition does not leave a substate that can never be done",
          "[unityhfsm][exit_transitions]") {
    struct Stuck : X {
        bool CanExitState(const Log&, const tickfsm::StateRef&) const { return false; }
    };
    Log log;
    tickfsm::StateManager<Log, Input> m(log);
    m.SetSubstates<A, Stuck>();
    m.SetInitialState<A>().ToWhenDone<B>();
    m.From<B>();
    m.Perform({});
    CHECK(log.Take() == Lines{"enter A", "enter X", "perform A", "perform X"});
    m.Perform({});
    CHECK(log.Take() == Lines{"perform A", "perform X"});
    CHECK(m.ActivePath() == "A/Stuck");
}

TEST_CASE("A substate that is done does not leave its parent when the parent has no transition to take",
          "[unityhfsm][exit_transitions]") {
    struct Finishing {
        void Perform(Log&, const Input&, Machine& machine) { machine.Done(); }
    };
    Log log;
    tickfsm::StateManager<Log, Input> m(log);
    m.SetSubstates<A, Finishing>();
    m.SetInitialState<A>();
    m.From<B>();
    m.Perform({});
    m.Perform({});
    m.Perform({});
    CHECK(m.ActivePath() == "A/Finishing");
}

TEST_CASE("An exit transition leaves the parent once its condition holds and the substate is done",
          "[unityhfsm][exit_transitions]") {
    // UnityHFSM: A performs, then its nested machine's exit transition makes the pending change, exiting A before
    // A.X. tickfsm tries every transition before any Perform, and exits innermost first.
    Log log;
    tickfsm::StateManager<Log, Input> m(log);
    m.SetSubstates<A, X>();
    m.SetInitialState<A>().ToWhenDone<B>(Leave);
    m.From<B>();
    m.Perform({});
    CHECK(log.Take() == Lines{"enter A", "enter X", "perform A", "perform X"});
    log.leave = true;
    m.Perform({});
    CHECK(log.Take() == Lines{"exit X", "exit A", "enter B", "perform B"});
    CHECK(m.IsIn<B>());
}

TEST_CASE("An exit transition fires from a pass-through substate in the tick it is entered",
          "[unityhfsm][exit_transitions]") {
    // X may only be left for its sibling Y; Y is a pass-through state (UnityHFSM's ghost state) without a gate, so
    // entering it lets the parent's waiting exit transition fire at once.
    struct Busy : X {
        bool CanExitState(const Log&, const tickfsm::StateRef& to) const { return to.Is<Y>(); }
    };
    Log log;
    tickfsm::StateManager<Log, Input> m(log);
    m.SetSubstates<A, Busy, Y>();
    m.SetPassThrough<Y>();
    m.SetInitialState<A>().ToWhenDone<B>();
    m.From<Busy>().To<Y>(Leave);
    m.From<B>();
    m.Perform({});
    CHECK(log.Take() == Lines{"enter A", "enter X", "perform A", "perform X"});
    log.leave = true;
    m.Perform({});
    CHECK(log.Take() == Lines{"exit X", "enter Y", "exit Y", "exit A", "enter B", "perform B"});
    CHECK(m.IsIn<B>());
}

TEST_CASE("An exit transition on the outermost state leaves a deeply nested path for a state at the top",
          "[unityhfsm][exit_transitions]") {
    // UnityHFSM chains one exit transition per nested machine; tickfsm asks the leaf once, from the outermost
    // state's ToWhenDone, and exits the whole path innermost first.
    Log log;
    tickfsm::StateManager<Log, Input> m(log);
    m.SetSubstates<A, B>();
    m.SetSubstates<B, C>();
    m.SetSubstates<C, D>();
    m.SetInitialState<A>().ToWhenDone<Z>(Leave);
    m.From<Z>();
    m.Perform({});
    CHECK(log.Take() == Lines{"enter A", "enter B", "enter C", "enter D", "perform A", "perform B", "perform C",
                              "perform D"});
    log.leave = true;
    m.Perform({});
    CHECK(log.Take() == Lines{"exit D", "exit C", "exit B", "exit A", "enter Z", "perform Z"});
}

TEST_CASE("An exit transition waits for a gated substate and fires once the substate says it is done",
          "[unityhfsm][exit_transitions]") {
    // UnityHFSM leaves the moment the substate signals; in tickfsm the substate calls Done() from a hook and the
    // waiting exit transition fires on the next tick.
    struct Working : X {
        bool CanExitState(const Log&, const tickfsm::StateRef&) const { return false; }
        void Perform(Log& log, const Input& in, Machine& machine) {
            X::Perform(log, in);
            if (log.finished) machine.Done();
        }
    };
    Log log;
    tickfsm::StateManager<Log, Input> m(log);
    m.SetSubstates<A, Working>();
    m.SetInitialState<A>().ToWhenDone<B>();
    m.From<B>();
    m.Perform({});
    log.Take();
    m.Perform({});
    CHECK(log.Take() == Lines{"perform A", "perform X"});
    log.finished = true;
    m.Perform({}); // not done when tried; Done() from this Perform
    CHECK(log.Take() == Lines{"perform A", "perform X"});
    m.Perform({});
    CHECK(log.Take() == Lines{"exit X", "exit A", "enter B", "perform B"});
}

TEST_CASE("An event taken by a substate can lead out of its parent at once", "[unityhfsm][exit_transitions]") {
    // UnityHFSM's exit trigger transition on A.X lets a pending A -> B go; in tickfsm the substate's own event
    // transition names the state outside its parent.
    Log log;
    tickfsm::StateManager<Log, Input> m(log);
    m.SetSubstates<A, X>();
    m.SetInitialState<A>();
    m.From<X>().On("Finish").To<B>();
    m.From<B>();
    m.Perform({});
    log.Take();
    m.Perform({});
    CHECK(log.Take() == Lines{"perform A", "perform X"});
    CHECK(m.SendEvent("Finish"));
    CHECK(log.Take() == Lines{"exit X", "exit A", "enter B"});
    m.Perform({});
    CHECK(log.Take() == Lines{"perform B"});
}

TEST_CASE("An exit transition fires from whichever ungated substate is active", "[unityhfsm][exit_transitions]") {
    // UnityHFSM's exit transition from any substate: in tickfsm every substate without a gate is done.
    struct Exiting : tickfsm::StateManager<Log, Input> {
        explicit Exiting(Log& log) : StateManager(log) {
            SetSubstates<A, X, Y>();
            SetInitialState<A>().ToWhenDone<B>(Leave);
            From<X>().To<Y>([](const Log& l) { return l.finished; });
            From<B>();
        }
    };
    SECTION("from the initial substate") {
        Log log;
        Exiting m(log);
        m.Perform({});
        log.Take();
        log.leave = true;
        m.Perform({});
        CHECK(log.Take() == Lines{"exit X", "exit A", "enter B", "perform B"});
    }
    SECTION("from another substate") {
        Log log;
        log.finished = true;
        Exiting m(log);
        m.Perform({}); // A/X -> A/Y
        CHECK(log.Take() == Lines{"enter A", "enter X", "exit X", "enter Y", "perform A", "perform Y"});
        log.leave = true;
        m.Perform({});
        CHECK(log.Take() == Lines{"exit Y", "exit A", "enter B", "perform B"});
    }
}

TEST_CASE("An event on the parent leads out of it from any substate", "[unityhfsm][exit_transitions]") {
    struct Triggered : tickfsm::StateManager<Log, Input> {
        explicit Triggered(Log& log) : StateManager(log) {
            SetSubstates<A, X, Y>();
            SetInitialState<A>().On("Finish").To<B>();
            From<X>().To<Y>(Leave);
            From<B>();
        }
    };
    SECTION("from the initial substate") {
        Log log;
        Triggered m(log);
        m.Perform({});
        log.Take();
        CHECK(m.SendEvent("Finish"));
        CHECK(log.Take() == Lines{"exit X", "exit A", "enter B"});
    }
    SECTION("from another substate") {
        Log log;
        log.leave = true;
        Triggered m(log);
        m.Perform({}); // A/X -> A/Y
        log.Take();
        CHECK(m.SendEvent("Finish"));
        CHECK(log.Take() == Lines{"exit Y", "exit A", "enter B"});
    }
}

// ---------------------------------------------------------------------------------------------------------------
// TestCanExit
// ---------------------------------------------------------------------------------------------------------------

namespace {
struct Gated : A {
    bool CanExitState(const Log& log, const tickfsm::StateRef&) const { return log.can_exit; }
};
} // namespace

TEST_CASE("A state whose gate refuses to let it go keeps the machine in it", "[unityhfsm][can_exit]") {
    Log log;
    tickfsm::StateManager<Log, Input> m(log);
    m.SetInitialState<Gated>().To<B>();
    m.From<B>();
    m.Perform({});
    m.Perform({});
    CHECK(m.IsIn<Gated>());
}

TEST_CASE("A state whose gate lets it go leaves in the first tick its transition holds", "[unityhfsm][can_exit]") {
    Log log;
    log.can_exit = true;
    tickfsm::StateManager<Log, Input> m(log);
    m.SetInitialState<Gated>().To<B>();
    m.From<B>();
    m.Perform({});
    CHECK(m.IsIn<B>());
}

TEST_CASE("A gated state leaves later, on the first tick after its gate opens", "[unityhfsm][can_exit]") {
    Log log;
    tickfsm::StateManager<Log, Input> m(log);
    m.SetInitialState<Gated>().To<B>();
    m.From<B>();
    m.Perform({});
    CHECK(m.IsIn<Gated>());
    log.can_exit = true;
    m.Perform({});
    CHECK(m.IsIn<B>());
}

TEST_CASE("A refused request waiting in an input buffer lets the gated state perform before it leaves",
          "[unityhfsm][can_exit]") {
    // UnityHFSM keeps a refused RequestStateChange pending inside the machine; tickfsm keeps it in an InputBuffer,
    // retried after each Perform.
    struct Acting : Gated {
        void Perform(Log& log, const Input& in) {
            Gated::Perform(log, in);
            log.lines.emplace_back("own work");
        }
    };
    Log log;
    tickfsm::StateManager<Log, Input> m(log);
    m.SetInitialState<Acting>();
    m.From<B>();
    tickfsm::InputBuffer buffer(m);
    m.Perform({});
    CHECK_FALSE(buffer.Buffer<B>(1.0f));
    CHECK(m.IsIn<Acting>());
    log.Take();
    log.can_exit = true;
    m.Perform({});
    buffer.Update();
    CHECK(log.Take() == Lines{"perform A", "own work", "exit A", "enter B"});
    m.Perform({});
    buffer.Update();
    CHECK(log.Take() == Lines{"perform B"});
}

// ---------------------------------------------------------------------------------------------------------------
// TestHybridStateMachine
// ---------------------------------------------------------------------------------------------------------------

TEST_CASE("A composite state without hooks of its own enters, ticks and leaves without error",
          "[unityhfsm][hybrid_state_machine]") {
    struct Bare {};
    Log log;
    tickfsm::StateManager<Log, Input> m(log);
    m.SetSubstates<Bare, A>();
    m.SetInitialState<Bare>();
    m.From<Other>();
    REQUIRE_NOTHROW(m.Perform({}));
    REQUIRE_NOTHROW(m.Perform({}));
    bool changed = false;
    REQUIRE_NOTHROW(changed = m.TrySetState<Other>());
    CHECK(changed);
    CHECK(m.IsIn<Other>());
}

TEST_CASE("A composite state with hooks of its own enters, ticks and leaves with its substate",
          "[unityhfsm][hybrid_state_machine]") {
    // UnityHFSM's recorder writes Main's exit before its substate's; tickfsm exits innermost first.
    Log log;
    tickfsm::StateManager<Log, Input> m(log);
    m.SetSubstates<Main, A>();
    m.SetInitialState<Main>();
    m.From<Other>();
    m.Perform({});
    CHECK(log.Take() == Lines{"enter Main", "enter A", "perform Main", "perform A"});
    m.Perform({});
    CHECK(log.Take() == Lines{"perform Main", "perform A"});
    CHECK(m.TrySetState<Other>());
    CHECK(log.Take() == Lines{"exit A", "exit Main", "enter Other"});
}

TEST_CASE("A composite's own hooks and actions run before its substate's on enter and tick, and after them on exit",
          "[unityhfsm][hybrid_state_machine]") {
    // UnityHFSM's hybrid machine has a callback before and one after each of its substate's. A tickfsm composite's
    // hook and its actions run in the order of the nested tick: outermost first on enter and tick, innermost first
    // on exit, so there is no "after the substate" on enter and tick, nor "before the substate" on exit.
    struct Around {
        void OnEnter(Log& log, const Input&) { log.lines.emplace_back("Main action enter"); }
        void OnUpdate(Log& log, const Input&) { log.lines.emplace_back("Main action update"); }
        void OnExit(Log& log, const Input&) { log.lines.emplace_back("Main action exit"); }
    };
    Log log;
    tickfsm::StateManager<Log, Input> m(log);
    m.SetSubstates<Main, A>();
    m.SetInitialState<Main>().Do<Around>();
    m.From<Other>();
    m.Perform({});
    CHECK(log.Take() == Lines{"enter Main", "Main action enter", "enter A", "perform Main", "Main action update",
                              "perform A"});
    m.Perform({});
    CHECK(log.Take() == Lines{"perform Main", "Main action update", "perform A"});
    m.ForceSetState<Other>();
    CHECK(log.Take() == Lines{"exit A", "exit Main", "Main action exit", "enter Other"});
}

namespace {
struct Ping {};
struct Amount {
    int value = 0;
};
} // namespace

TEST_CASE("An action a substate and its composite both handle reaches only the substate",
          "[unityhfsm][hybrid_state_machine]") {
    // UnityHFSM runs the hybrid machine's action, then its active substate's. A tickfsm typed event goes from the
    // leaf outward and the innermost state that handles it takes it; the composite's handler runs when the active
    // substate does not handle the event.
    struct Handler : A {
        void OnEvent(Log& log, const Ping&) { log.lines.emplace_back("A ping"); }
        void OnEvent(Log& log, const Amount& a) { log.lines.push_back("A amount " + std::to_string(a.value)); }
    };
    struct Hybrid : Main {
        void OnEvent(Log& log, const Ping&) { log.lines.emplace_back("Main ping"); }
        void OnEvent(Log& log, const Amount& a) { log.lines.push_back("Main amount " + std::to_string(a.value)); }
    };
    Log log;
    tickfsm::StateManager<Log, Input> m(log);
    m.SetSubstates<Hybrid, Handler, Y>();
    m.SetInitialState<Hybrid>().On<Ping>().Handle().On<Amount>().Handle();
    m.From<Handler>().On<Ping>().Handle().On<Amount>().Handle().To<Y>(Leave);
    m.Perform({});
    log.Take();
    CHECK(m.SendEvent(Ping{}));
    CHECK(log.Take() == Lines{"A ping"});
    CHECK(m.SendEvent(Amount{10}));
    CHECK(log.Take() == Lines{"A amount 10"});
    log.leave = true;
    m.Perform({}); // Hybrid/Y, which handles neither
    log.Take();
    CHECK(m.SendEvent(Ping{}));
    CHECK(m.SendEvent(Amount{10}));
    CHECK(log.Take() == Lines{"Main ping", "Main amount 10"});
}

namespace {
struct OwnAction {};
struct BothAction {};
struct OwnDataAction {
    int value = 0;
};
struct BothDataAction {
    int value = 0;
};
struct SubAction {};
struct SubDataAction {
    int value = 0;
};
struct OtherAction {};
} // namespace

TEST_CASE("The actions of a composite are its own and those of its active substate",
          "[unityhfsm][hybrid_state_machine]") {
    struct Sub {
        void OnEvent(Log&, const SubAction&) {}
        void OnEvent(Log&, const SubDataAction&) {}
        void OnEvent(Log&, const BothAction&) {}
        void OnEvent(Log&, const BothDataAction&) {}
    };
    struct Hybrid {
        void OnEvent(Log&, const OwnAction&) {}
        void OnEvent(Log&, const BothAction&) {}
        void OnEvent(Log&, const OwnDataAction&) {}
        void OnEvent(Log&, const BothDataAction&) {}
    };
    Log log;
    tickfsm::StateManager<Log, Input> m(log);
    m.SetSubstates<Hybrid, Sub>();
    m.SetInitialState<Hybrid>()
        .On<OwnAction>()
        .Handle()
        .On<BothAction>()
        .Handle()
        .On<OwnDataAction>()
        .Handle()
        .On<BothDataAction>()
        .Handle();
    m.From<Sub>()
        .On<SubAction>()
        .Handle()
        .On<SubDataAction>()
        .Handle()
        .On<BothAction>()
        .Handle()
        .On<BothDataAction>()
        .Handle();
    m.Perform({});
    CHECK(m.WouldTakeEvent(SubAction{}));
    CHECK(m.WouldTakeEvent(SubDataAction{}));
    CHECK(m.WouldTakeEvent(OwnAction{}));
    CHECK(m.WouldTakeEvent(BothAction{}));
    CHECK(m.WouldTakeEvent(BothDataAction{}));
    CHECK_FALSE(m.WouldTakeEvent(OtherAction{}));
    CHECK_FALSE(m.SendEvent(OtherAction{}));
    CHECK(m.SendEvent(OwnDataAction{3}));
}

// ---------------------------------------------------------------------------------------------------------------
// TestActionSystem
// ---------------------------------------------------------------------------------------------------------------

namespace {
struct Poke {};
struct Missing {};
struct MissingWithText {
    std::string text;
};
struct Set {
    int value = 0;
};
struct SetOther {
    int value = 0;
};
struct Acting {
    void OnEvent(Log& log, const Poke&) { log.called = true; }
    void OnEvent(Log& log, const Set& s) { log.value = s.value; }
};
} // namespace

TEST_CASE("An action the current state has runs when it is called", "[unityhfsm][action_system]") {
    Log log;
    tickfsm::StateManager<Log, Input> m(log);
    m.SetInitialState<Acting>().On<Poke>().Handle();
    m.Perform({});
    CHECK_FALSE(log.called);
    CHECK(m.SendEvent(Poke{}));
    CHECK(log.called);
    CHECK(m.IsIn<Acting>());
}

TEST_CASE("Calling an action on a state that has none is harmless", "[unityhfsm][action_system]") {
    struct Plain {};
    Log log;
    tickfsm::StateManager<Log, Input> m(log);
    m.SetInitialState<Plain>();
    m.Perform({});
    bool taken = true;
    REQUIRE_NOTHROW(taken = m.SendEvent(Missing{}));
    CHECK_FALSE(taken);
    REQUIRE_NOTHROW(taken = m.SendEvent(MissingWithText{""}));
    CHECK_FALSE(taken);
    CHECK(m.IsIn<Plain>());
}

TEST_CASE("Calling an action the state does not have runs none of its others", "[unityhfsm][action_system]") {
    Log log;
    tickfsm::StateManager<Log, Input> m(log);
    m.SetInitialState<Acting>().On<Poke>().Handle();
    m.Perform({});
    CHECK_FALSE(m.SendEvent(Missing{}));
    CHECK_FALSE(log.called);
}

TEST_CASE("An action called with a value receives it", "[unityhfsm][action_system]") {
    Log log;
    tickfsm::StateManager<Log, Input> m(log);
    m.SetInitialState<Acting>().On<Set>().Handle();
    m.Perform({});
    CHECK(m.SendEvent(Set{5}));
    CHECK(log.value == 5);
}

TEST_CASE("Calling an action with a value that the state does not have changes nothing", "[unityhfsm][action_system]") {
    Log log;
    tickfsm::StateManager<Log, Input> m(log);
    m.SetInitialState<Acting>().On<Set>().Handle();
    m.Perform({});
    CHECK_FALSE(m.SendEvent(SetOther{7}));
    CHECK(log.value == 0);
}

TEST_CASE("A machine hands an action to its current state", "[unityhfsm][action_system]") {
    Log log;
    tickfsm::StateManager<Log, Input> m(log);
    m.SetInitialState<Acting>().On<Poke>().Handle();
    m.Perform({});
    CHECK_FALSE(log.called);
    m.SendEvent(Poke{});
    CHECK(log.called);
}

TEST_CASE("A machine hands an action to the active substate of a composite", "[unityhfsm][action_system]") {
    struct Nested {};
    Log log;
    tickfsm::StateManager<Log, Input> m(log);
    m.SetSubstates<Nested, Acting>();
    m.SetInitialState<Nested>();
    m.From<Acting>().On<Poke>().Handle();
    m.Perform({});
    CHECK(m.SendEvent(Poke{}));
    CHECK(log.called);
}

TEST_CASE("A machine tells which actions its state would take, without calling them", "[unityhfsm][action_system]") {
    Log log;
    tickfsm::StateManager<Log, Input> m(log);
    m.SetInitialState<Acting>().On<Poke>().Handle().On<Set>().Handle();
    m.Perform({});
    CHECK(m.WouldTakeEvent(Poke{}));
    CHECK(m.WouldTakeEvent(Set{}));
    CHECK_FALSE(m.WouldTakeEvent(Missing{}));
    CHECK_FALSE(log.called); // a dry run calls no hook
}
