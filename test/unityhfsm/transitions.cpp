// The scenarios of this file follow UnityHFSM's Tests/TestFsmBaseTransitions.cs,
// Tests/TestStartUp.cs, Tests/TestTwoWayTransitions.cs, Tests/TestTransitionAfter.cs,
// Tests/TestTransitionAfterDynamic.cs and Tests/TestTransitionCallbacks.cs
// (https://github.com/Inspiaaa/UnityHFSM, MIT license), re-expressed for tickfsm:
// states are classes, transitions are built with the fluent builder, a tick is
// one Perform. Where tickfsm's documented rules differ from UnityHFSM's (there
// is no separate Init: the first Perform enters the initial state; transitions
// are tried before the current state performs; nested states exit innermost
// first), a test checks tickfsm's rule and says so.

#include <catch2/catch.hpp>

#include <cstddef>
#include <string>
#include <utility>
#include <vector>

#include <tickfsm/input_buffer.hpp>
#include <tickfsm/tickfsm.hpp>

namespace {

// A source of delays: the first call answers the first, and so on; the last repeats.
class Delays {
public:
    explicit Delays(std::vector<float> values) : list(std::move(values)) {}
    float Next() {
        if (next >= list.size()) return list.back();
        return list[next++];
    }

private:
    std::vector<float> list;
    std::size_t next = 0;
};

// The character: what the states did, in order, and the flags conditions and gates read.
struct Rec {
    std::vector<std::string> log;
    bool condition = false;
    bool may_exit = false;
    float delay = 0;
    Delays* delays = nullptr; // where a state that times itself asks for its delay
};
struct Tick {};
using Manager = tickfsm::StateManager<Rec, Tick>;

std::vector<std::string> Take(Rec& r) {
    std::vector<std::string> out;
    out.swap(r.log);
    return out;
}

// A state that writes its hooks into the log under its own name.
template <const char* kName>
struct Logged {
    void OnStateEnter(Rec& r, const Tick&) { r.log.push_back(std::string("enter ") + kName); }
    void Perform(Rec& r, const Tick&) { r.log.push_back(kName); }
    void OnStateExit(Rec& r, const Tick&) { r.log.push_back(std::string("exit ") + kName); }
};
inline constexpr char kA[] = "A";
inline constexpr char kB[] = "B";
inline constexpr char kC[] = "C";
inline constexpr char kInner[] = "Inner";
struct A : Logged<kA> {};
struct B : Logged<kB> {};
struct C : Logged<kC> {};
struct Inner : Logged<kInner> {}; // a substate of A in the nested scenarios

// A state that may be left only when the character allows it (UnityHFSM's needsExitTime).
struct HoldingA : Logged<kA> {
    bool CanExitState(const Rec& r, const tickfsm::StateRef&) const { return r.may_exit; }
};
// A state with a gate that always lets the machine go.
struct WillingA : Logged<kA> {
    bool CanExitState(const Rec&, const tickfsm::StateRef&) const { return true; }
};
// A state whose gate never lets a condition transition through.
struct StubbornA : Logged<kA> {
    bool CanExitState(const Rec&, const tickfsm::StateRef&) const { return false; }
};

// Writes every change of state into the character's log, between the old
// state's exit and the new state's enter, which is where tickfsm reports it.
class TransitionLog : public tickfsm::Observer {
public:
    explicit TransitionLog(Rec& r) : rec(&r) {}
    void OnTransition(const tickfsm::TransitionInfo& info) override {
        if (info.cause == tickfsm::Cause::Initial) return;
        rec->log.push_back(std::string(info.from) + " -> " + std::string(info.to));
    }

private:
    Rec* rec;
};

} // namespace

// --- TestFsmBaseTransitions.cs ---------------------------------------------------

TEST_CASE("A transition without a condition fires on the first tick, and the target performs",
          "[unityhfsm][fsm_base_transitions]") {
    Rec r;
    Manager m(r);
    m.SetInitialState<A>().To<B>();
    m.From<B>();
    m.Perform({});
    REQUIRE(Take(r) == std::vector<std::string>{"enter A", "exit A", "enter B", "B"});
    REQUIRE(m.IsIn<B>());
}

TEST_CASE("A transition with a condition fires on the first tick the condition holds",
          "[unityhfsm][fsm_base_transitions]") {
    Rec r;
    Manager m(r);
    m.SetInitialState<A>().To<B>([](const Rec& c) { return c.condition; });
    m.From<B>();
    m.Perform({});
    REQUIRE(Take(r) == std::vector<std::string>{"enter A", "A"});
    r.condition = true;
    m.Perform({});
    REQUIRE(Take(r) == std::vector<std::string>{"exit A", "enter B", "B"});
}

// UnityHFSM exits the nested machine before its active state; tickfsm exits innermost first.
TEST_CASE("A direct change away from a composite state exits its substate first, then the composite",
          "[unityhfsm][fsm_base_transitions]") {
    Rec r;
    Manager m(r);
    m.SetSubstates<A, Inner>();
    m.SetInitialState<A>();
    m.From<B>();
    m.Perform({});
    REQUIRE(Take(r) == std::vector<std::string>{"enter A", "enter Inner", "A", "Inner"});
    REQUIRE(m.TrySetState<B>());
    REQUIRE(Take(r) == std::vector<std::string>{"exit Inner", "exit A", "enter B"});
    m.Perform({});
    REQUIRE(Take(r) == std::vector<std::string>{"B"});
}

TEST_CASE("An event sent from outside a tick changes state at once", "[unityhfsm][fsm_base_transitions]") {
    Rec r;
    Manager m(r);
    m.SetInitialState<A>().On("Trigger").To<B>();
    m.From<B>();
    m.Perform({});
    REQUIRE(Take(r) == std::vector<std::string>{"enter A", "A"});
    REQUIRE(m.SendEvent("Trigger"));
    REQUIRE(Take(r) == std::vector<std::string>{"exit A", "enter B"});
    m.Perform({});
    REQUIRE(Take(r) == std::vector<std::string>{"B"});
}

TEST_CASE("An event no state handles is ignored without an error", "[unityhfsm][fsm_base_transitions]") {
    Rec r;
    Manager m(r);
    m.SetInitialState<A>();
    m.Perform({});
    Take(r);
    bool handled = true;
    REQUIRE_NOTHROW(handled = m.SendEvent("Trigger"));
    REQUIRE_FALSE(handled);
    REQUIRE(m.IsIn<A>());
    REQUIRE(r.log.empty());
}

TEST_CASE("An event sent to the machine reaches the transition of the active substate",
          "[unityhfsm][fsm_base_transitions]") {
    struct Outer {};
    struct X {};
    struct Y {};
    Rec r;
    Manager m(r);
    m.SetSubstates<Outer, X, Y>();
    m.SetInitialState<Outer>();
    m.From<X>().On("Trigger").To<Y>();
    m.Perform({});
    REQUIRE(m.CurrentStateName() == "X");
    REQUIRE(m.SendEvent("Trigger"));
    REQUIRE(m.CurrentStateName() == "Y");
    REQUIRE(m.IsIn<Outer>());
}

TEST_CASE("A direct change from outside a tick exits the current state and enters the target at once",
          "[unityhfsm][fsm_base_transitions]") {
    Rec r;
    Manager m(r);
    m.SetInitialState<A>();
    m.From<B>();
    m.Perform({});
    Take(r);
    REQUIRE(m.TrySetState<B>());
    REQUIRE(Take(r) == std::vector<std::string>{"exit A", "enter B"});
    m.Perform({});
    REQUIRE(Take(r) == std::vector<std::string>{"B"});
}

// UnityHFSM lets the state's logic run, then leaves once the state says it can exit;
// in tickfsm the gate is asked when the transition is tried, before the state performs.
TEST_CASE("A transition waits while the current state's exit gate refuses it", "[unityhfsm][fsm_base_transitions]") {
    Rec r;
    Manager m(r);
    m.SetInitialState<HoldingA>().To<B>();
    m.From<B>();
    m.Perform({});
    Take(r);
    m.Perform({});
    REQUIRE(Take(r) == std::vector<std::string>{"A"});
    REQUIRE(m.IsIn<HoldingA>());
    r.may_exit = true;
    m.Perform({});
    REQUIRE(Take(r) == std::vector<std::string>{"exit A", "enter B", "B"});
}

TEST_CASE("A transition fires at once when the current state's exit gate agrees", "[unityhfsm][fsm_base_transitions]") {
    Rec r;
    Manager m(r);
    m.SetInitialState<WillingA>().To<B>();
    m.From<B>();
    m.Perform({});
    REQUIRE(Take(r) == std::vector<std::string>{"enter A", "exit A", "enter B", "B"});
}

TEST_CASE("A forced transition passes the exit gate that holds back an ordinary one",
          "[unityhfsm][fsm_base_transitions]") {
    SECTION("ordinary: held") {
        Rec r;
        Manager m(r);
        m.SetInitialState<StubbornA>().To<B>();
        m.From<B>();
        m.Perform({});
        m.Perform({});
        REQUIRE(m.IsIn<StubbornA>());
    }
    SECTION("forced: through") {
        Rec r;
        Manager m(r);
        m.SetInitialState<StubbornA>().ForceTo<B>();
        m.From<B>();
        m.Perform({});
        REQUIRE(m.CurrentStateName() == "B");
    }
}

// UnityHFSM keeps the last requested state pending inside the machine; in tickfsm a
// refused request is kept by an InputBuffer (the latest wins) and retried on its Update.
TEST_CASE("The latest buffered request is entered once the current state may be left",
          "[unityhfsm][fsm_base_transitions]") {
    Rec r;
    Manager m(r);
    m.SetInitialState<HoldingA>();
    m.From<B>();
    m.From<C>();
    tickfsm::InputBuffer buffer(m);
    m.Perform({});
    REQUIRE_FALSE(buffer.Buffer<B>(10.0f));
    REQUIRE_FALSE(buffer.Buffer<C>(10.0f));
    REQUIRE(m.IsIn<HoldingA>());
    r.may_exit = true;
    m.Perform({});
    buffer.Update();
    REQUIRE(m.CurrentStateName() == "C");
}

// --- TestStartUp.cs ----------------------------------------------------------------

// UnityHFSM enters the start state in Init; tickfsm has no Init: the first Perform enters it.
TEST_CASE("The first tick enters the initial state, then the state performs", "[unityhfsm][start_up]") {
    Rec r;
    Manager m(r);
    m.SetInitialState<A>();
    REQUIRE(r.log.empty());
    REQUIRE_FALSE(m.IsStarted());
    m.Perform({});
    REQUIRE(Take(r) == std::vector<std::string>{"enter A", "A"});
    REQUIRE(m.CurrentStateName() == "A");
    m.Perform({});
    REQUIRE(Take(r) == std::vector<std::string>{"A"});
}

// UnityHFSM starts in the first state added; tickfsm has no implicit initial state.
TEST_CASE("A machine whose states are declared but none is named initial refuses to start",
          "[unityhfsm][start_up]") {
    Rec r;
    Manager m(r);
    m.From<A>();
    m.From<B>();
    REQUIRE_THROWS_AS(m.Perform({}), tickfsm::ConfigError);
    REQUIRE_FALSE(m.IsStarted());
    REQUIRE(r.log.empty());
}

TEST_CASE("A machine starts in the state named initial, not in the first one declared", "[unityhfsm][start_up]") {
    Rec r;
    Manager m(r);
    m.From<A>();
    m.SetInitialState<B>();
    m.Perform({});
    REQUIRE(m.CurrentStateName() == "B");
}

TEST_CASE("The initial state may be named before any other state is declared", "[unityhfsm][start_up]") {
    Rec r;
    Manager m(r);
    m.SetInitialState<B>();
    m.From<A>();
    m.From<B>();
    m.Perform({});
    REQUIRE(m.CurrentStateName() == "B");
}

// UnityHFSM silently ignores the new start state; tickfsm refuses it with a ConfigError.
TEST_CASE("Naming another initial state while running is refused and changes nothing", "[unityhfsm][start_up]") {
    Rec r;
    Manager m(r);
    m.SetInitialState<A>();
    m.From<B>();
    m.Perform({});
    REQUIRE_THROWS_AS(m.SetInitialState<B>(), tickfsm::ConfigError);
    m.Perform({});
    REQUIRE(m.CurrentStateName() == "A");
}

// UnityHFSM throws when the active state is read before Init; tickfsm's queries answer "none".
TEST_CASE("Before the first tick the machine reports no current state", "[unityhfsm][start_up]") {
    Rec r;
    Manager m(r);
    m.SetInitialState<A>();
    REQUIRE_FALSE(m.CurrentState().Valid());
    REQUIRE(m.CurrentStateName().empty());
    REQUIRE_FALSE(m.IsIn<A>());
    REQUIRE(r.log.empty());
}

TEST_CASE("A machine without any state refuses to start", "[unityhfsm][start_up]") {
    Rec r;
    Manager m(r);
    REQUIRE_THROWS_AS(m.Perform({}), tickfsm::ConfigError);
    REQUIRE_FALSE(m.IsStarted());
}

// --- TestTwoWayTransitions.cs --------------------------------------------------------

// UnityHFSM adds both directions in one call; in tickfsm each direction is written on its state.
TEST_CASE("A pair of opposite transitions on one condition moves the machine both ways",
          "[unityhfsm][two_way_transitions]") {
    Rec r;
    Manager m(r);
    m.SetInitialState<A>().To<B>([](const Rec& c) { return c.condition; });
    m.From<B>().To<A>([](const Rec& c) { return !c.condition; });
    m.Perform({});
    REQUIRE(m.CurrentStateName() == "A");
    r.condition = true;
    m.Perform({});
    REQUIRE(m.CurrentStateName() == "B");
    r.condition = false;
    m.Perform({});
    REQUIRE(m.CurrentStateName() == "A");
}

// --- TestTransitionAfter.cs ----------------------------------------------------------
// UnityHFSM's TransitionAfter reads an injectable timer; in tickfsm the timer is the
// state's own time, ticks * fixed_dt, handed to the condition, so the ticks drive it.

TEST_CASE("A timed transition does not fire before its delay has passed", "[unityhfsm][transition_after]") {
    Rec r;
    Manager m(r, 0.5f);
    m.SetInitialState<A>().To<B>([](const Rec&, const Tick&, float t) { return t >= 2.0f; });
    m.From<B>();
    m.Perform({});
    m.Perform({});
    m.Perform({});
    REQUIRE(m.TimeInState() == 1.5);
    REQUIRE(m.IsIn<A>());
    m.Perform({});
    REQUIRE(m.IsIn<B>());
}

TEST_CASE("A timed transition fires once its delay has passed", "[unityhfsm][transition_after]") {
    Rec r;
    Manager m(r, 1.0f);
    m.SetInitialState<A>().To<B>([](const Rec&, const Tick&, float t) { return t >= 1.0f; });
    m.From<B>();
    m.Perform({});
    REQUIRE(m.IsIn<B>());
}

TEST_CASE("A timed transition whose extra condition is false does not fire after its delay",
          "[unityhfsm][transition_after]") {
    Rec r;
    Manager m(r, 1.0f);
    m.SetInitialState<A>().To<B>([](const Rec& c, const Tick&, float t) { return t >= 1.0f && c.condition; });
    m.From<B>();
    for (int i = 0; i < 3; ++i) m.Perform({});
    REQUIRE(m.TimeInState() == 3.0);
    REQUIRE(m.IsIn<A>());
}

TEST_CASE("A timed transition whose extra condition is true fires after its delay", "[unityhfsm][transition_after]") {
    Rec r;
    r.condition = true;
    Manager m(r, 1.0f);
    m.SetInitialState<A>().To<B>([](const Rec& c, const Tick&, float t) { return t >= 1.0f && c.condition; });
    m.From<B>();
    m.Perform({});
    REQUIRE(m.IsIn<B>());
}

// --- TestTransitionAfterDynamic.cs -------------------------------------------------------

// (UnityHFSM's check of its own delay helper has no counterpart: it tests the test, not the machine.)

namespace {
// A state that asks for its delay once, when it is entered.
struct TimedA : Logged<kA> {
    void OnStateEnter(Rec& r, const Tick& t) {
        Logged<kA>::OnStateEnter(r, t);
        r.delay = r.delays->Next();
    }
};
} // namespace

// UnityHFSM's onlyEvaluateDelayOnEnter: here the state asks on enter and keeps the answer.
TEST_CASE("A delay asked for once on enter keeps the first answer", "[unityhfsm][transition_after_dynamic]") {
    Delays delays({3, 100});
    Rec r;
    r.delays = &delays;
    Manager m(r, 1.0f);
    m.SetInitialState<TimedA>().To<B>([](const Rec& c, const Tick&, float t) { return t >= c.delay; });
    m.From<B>();
    m.Perform({});
    m.Perform({});
    REQUIRE(m.IsIn<TimedA>());
    m.Perform({});
    REQUIRE(m.IsIn<B>());
}

TEST_CASE("A delay asked for on every try uses each new answer", "[unityhfsm][transition_after_dynamic]") {
    Delays delays({100, 100, 100, 1});
    Rec r;
    Manager m(r, 1.0f);
    m.SetInitialState<A>().To<B>([&delays](const Rec&, const Tick&, float t) { return t >= delays.Next(); });
    m.From<B>();
    m.Perform({}); // delay 100
    m.Perform({}); // delay 100
    m.Perform({}); // delay 100
    REQUIRE(m.IsIn<A>());
    m.Perform({}); // delay 1
    REQUIRE(m.IsIn<B>());
}

TEST_CASE("A delay asked for on every try still needs its extra condition", "[unityhfsm][transition_after_dynamic]") {
    Delays delays({100, 1});
    Rec r;
    Manager m(r, 1.0f);
    m.SetInitialState<A>().To<B>([&delays](const Rec& c, const Tick&, float t) {
        const bool elapsed = t >= delays.Next();
        return elapsed && c.condition;
    });
    m.From<B>();
    m.Perform({}); // delay 100
    m.Perform({}); // delay 1, condition false
    REQUIRE(m.IsIn<A>());
    r.condition = true;
    m.Perform({});
    REQUIRE(m.IsIn<B>());
}

// --- TestTransitionCallbacks.cs ------------------------------------------------------
// UnityHFSM calls a transition's own callbacks before the exit and after the enter;
// tickfsm has no per-transition callbacks: its observer hears each change once,
// between the old state's exit and the new state's enter.

TEST_CASE("The observer hears a condition transition between the exit and the enter",
          "[unityhfsm][transition_callbacks]") {
    Rec r;
    Manager m(r);
    TransitionLog heard(r);
    m.SetInitialState<A>().To<B>();
    m.From<B>();
    m.SetObserver(&heard, "flat");
    m.Perform({});
    REQUIRE(Take(r) == std::vector<std::string>{"enter A", "exit A", "A -> B", "enter B", "B"});
}

// UnityHFSM's StateCanExit() from outside makes the waiting transition now; here the
// refused request waits in an InputBuffer and its Update makes it once the gate agrees.
TEST_CASE("The observer hears a change that waited for the exit gate when it is finally made",
          "[unityhfsm][transition_callbacks]") {
    Rec r;
    Manager m(r);
    TransitionLog heard(r);
    m.SetInitialState<HoldingA>();
    m.From<B>();
    m.SetObserver(&heard, "delayed");
    tickfsm::InputBuffer buffer(m);
    m.Perform({});
    Take(r);
    REQUIRE_FALSE(buffer.Buffer<B>(10.0f));
    m.Perform({});
    buffer.Update();
    REQUIRE(Take(r) == std::vector<std::string>{"A"});
    r.may_exit = true;
    buffer.Update();
    REQUIRE(Take(r) == std::vector<std::string>{"exit A", "HoldingA -> B", "enter B"});
}

TEST_CASE("The observer hears both changes of a tick that passes through a pass-through state",
          "[unityhfsm][transition_callbacks]") {
    Rec r;
    Manager m(r);
    TransitionLog heard(r);
    m.SetPassThrough<B>();
    m.SetInitialState<A>().To<B>([](const Rec& c) { return c.condition; });
    m.From<B>().To<C>();
    m.From<C>();
    m.SetObserver(&heard, "ghost");
    m.Perform({});
    Take(r);
    r.condition = true;
    m.Perform({});
    REQUIRE(Take(r) ==
            std::vector<std::string>{"exit A", "A -> B", "enter B", "exit B", "B -> C", "enter C", "C"});
}

// UnityHFSM runs the nested machine's logic before its exit transition and exits the
// machine before its state; tickfsm tries transitions before any Perform, innermost exit first.
TEST_CASE("The observer hears a composite's exit transition when its substate is done",
          "[unityhfsm][transition_callbacks]") {
    Rec r;
    Manager m(r);
    TransitionLog heard(r);
    m.SetSubstates<A, Inner>();
    m.SetInitialState<A>().ToWhenDone<B>();
    m.From<B>();
    m.SetObserver(&heard, "nested");
    m.Perform({});
    REQUIRE(Take(r) ==
            std::vector<std::string>{"enter A", "enter Inner", "exit Inner", "exit A", "Inner -> B", "enter B", "B"});
}
