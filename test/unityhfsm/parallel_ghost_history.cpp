// The scenarios of this file follow UnityHFSM's Tests/TestParallelStates.cs,
// Tests/TestGhostStates.cs and Tests/TestRememberLastState.cs (UnityHFSM, MIT
// licence, by Inspiaaa), re-expressed for tickfsm: parallel regions
// (SetRegions), pass-through states (SetPassThrough, UnityHFSM's ghost states)
// and history (SetHistory, UnityHFSM's rememberLastState).
//
// Where tickfsm differs by design the test checks tickfsm's documented rule:
// - tickfsm's first Perform enters the initial state and then ticks it
//   (UnityHFSM's Init only enters); a direct change made before the first
//   Perform starts the machine in that state, which stands in for Init.
// - leaving a parallel state exits its regions the last first;
// - only the gates of the state whose transition fires (and of its target) are
//   asked: a region's CanExitState never holds its parallel state back, and
//   "leave when any region may" is written as the parallel state's own gate;
// - a waiting change is a condition transition refused by a gate and tried
//   again on each tick, so it is made on the next tick after the gate opens,
//   not at the moment a state says it may exit;
// - a named action called on every active region is a typed event that each
//   region handles in place.

#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include <tickfsm/tickfsm.hpp>

namespace {

struct Rec {
    std::vector<std::string> log;
    bool go = false;
    bool first_can_exit = false;
    bool second_can_exit = false;
    bool can_exit = false;
    bool requested = false;
    bool performed_first = false;
    bool performed_second = false;
};
struct Tick {};

using Log = std::vector<std::string>;

Log Take(Rec& r) {
    Log out;
    out.swap(r.log);
    return out;
}

// A state that records its enter, tick and exit under its own name.
template <const char* kName>
struct Tracked {
    void OnStateEnter(Rec& r, const Tick&) { r.log.push_back(std::string("enter ") + kName); }
    void Perform(Rec& r, const Tick&) { r.log.push_back(std::string("logic ") + kName); }
    void OnStateExit(Rec& r, const Tick&) { r.log.push_back(std::string("exit ") + kName); }
};
inline constexpr char kA[] = "A";
inline constexpr char kB[] = "B";
inline constexpr char kC[] = "C";
inline constexpr char kD[] = "D";
inline constexpr char kOther[] = "Other";

using Machine = tickfsm::StateManager<Rec, Tick>;

} // namespace

// ---------------------------------------------------------------------------
// TestParallelStates
// ---------------------------------------------------------------------------

namespace {
namespace lifecycle {
struct Start {};
struct A : Tracked<kA> {};
struct B : Tracked<kB> {};
struct Other : Tracked<kOther> {};
} // namespace lifecycle
} // namespace

TEST_CASE("A parallel state enters, ticks and exits every one of its regions", "[unityhfsm][parallel_states]") {
    using namespace lifecycle;
    Rec r;
    Machine m(r);
    m.SetRegions<Start, A, B>();
    m.SetInitialState<Start>();
    m.From<Other>();

    m.Perform({}); // tickfsm's first tick enters and then ticks
    CHECK(Take(r) == Log{"enter A", "enter B", "logic A", "logic B"});

    m.Perform({});
    CHECK(Take(r) == Log{"logic A", "logic B"});

    m.ForceSetState<Other>();
    // tickfsm exits the regions the last first (UnityHFSM: in the order added)
    CHECK(Take(r) == Log{"exit B", "exit A", "enter Other"});
    CHECK(m.IsIn<Other>());
}

namespace {
namespace instant {
struct A {};
struct B {};
struct Busy { // would hold the machine if it were asked
    bool CanExitState(const Rec&, const tickfsm::StateRef&) const { return false; }
};
} // namespace instant
} // namespace

TEST_CASE("A parallel state's transition fires at once whatever its regions' gates say",
          "[unityhfsm][parallel_states]") {
    using namespace instant;
    Rec r;
    Machine m(r);
    m.SetRegions<A, Busy>();
    m.SetInitialState<A>().To<B>([](const Rec& c) { return c.go; });
    m.From<B>();

    m.Perform({});
    CHECK(m.CurrentStateName() == "A");
    r.go = true;
    m.Perform({});
    CHECK(m.CurrentStateName() == "B");
}

namespace {
namespace any_region {
struct A { // leaves as soon as either region may
    bool CanExitState(const Rec& c, const tickfsm::StateRef&) const {
        return c.first_can_exit || c.second_can_exit;
    }
};
struct First {
    bool CanExitState(const Rec& c, const tickfsm::StateRef&) const { return c.first_can_exit; }
};
struct Second {
    bool CanExitState(const Rec& c, const tickfsm::StateRef&) const { return c.second_can_exit; }
};
struct B {};
} // namespace any_region
} // namespace

TEST_CASE("A parallel state whose gate lets it go when either region may leaves at once on request",
          "[unityhfsm][parallel_states]") {
    using namespace any_region;
    Rec r;
    Machine m(r);
    m.SetRegions<A, First, Second>();
    m.SetInitialState<A>();
    m.From<B>();

    m.Perform({});
    CHECK(m.CurrentStateName() == "A");
    CHECK_FALSE(m.TrySetState<B>());
    CHECK(m.CurrentStateName() == "A");

    r.first_can_exit = true;
    CHECK(m.TrySetState<B>());
    CHECK(m.CurrentStateName() == "B");

    r.first_can_exit = false;
    CHECK(m.TrySetState<A>());
    CHECK(m.CurrentStateName() == "A");

    r.second_can_exit = true;
    CHECK(m.TrySetState<B>());
    CHECK(m.CurrentStateName() == "B");
}

TEST_CASE("A waiting change out of a parallel state is made on the first tick either region may leave",
          "[unityhfsm][parallel_states]") {
    using namespace any_region;
    Rec r;
    Machine m(r);
    m.SetRegions<A, First, Second>();
    m.SetInitialState<A>().To<B>([](const Rec& c) { return c.requested; });
    m.From<B>();

    m.Perform({});
    r.requested = true;
    m.Perform({});
    m.Perform({});
    CHECK(m.CurrentStateName() == "A"); // refused by A's gate, tried again on every tick

    r.first_can_exit = true;
    m.Perform({});
    CHECK(m.CurrentStateName() == "B");

    r.first_can_exit = false;
    r.requested = false;
    CHECK(m.TrySetState<A>());
    CHECK(m.CurrentStateName() == "A");

    r.requested = true;
    r.second_can_exit = true;
    m.Perform({});
    CHECK(m.CurrentStateName() == "B");
}

namespace {
namespace region_exit {
struct A {};
struct Plain {};
struct Nested {};
struct Start {};
struct B {};
} // namespace region_exit
} // namespace

TEST_CASE("A region's own transition out of its parallel state leaves the parallel state",
          "[unityhfsm][parallel_states]") {
    using namespace region_exit;
    Rec r;
    Machine m(r);
    m.SetRegions<A, Plain, Nested>();
    m.SetSubstates<Nested, Start>();
    m.SetInitialState<A>();
    m.From<Start>().To<B>([](const Rec& c) { return c.can_exit; }); // Start may go once it is done
    m.From<B>();

    m.Perform({});
    m.Perform({});
    CHECK(m.CurrentStateName() == "A");
    CHECK(m.ActivePath() == "A/{Plain, Nested/Start}");

    r.can_exit = true;
    m.Perform({});
    CHECK(m.CurrentStateName() == "B");
    CHECK(m.ActivePath() == "B");
}

namespace {
namespace own_gate {
struct A {
    bool CanExitState(const Rec& c, const tickfsm::StateRef&) const { return c.can_exit; }
};
struct Busy { // a region that would refuse if it were asked
    bool CanExitState(const Rec&, const tickfsm::StateRef&) const { return false; }
};
struct Free { // a region that would agree if it were asked
    bool CanExitState(const Rec&, const tickfsm::StateRef&) const { return true; }
};
struct B {};
} // namespace own_gate
} // namespace

TEST_CASE("A parallel state whose own gate agrees leaves at once on request", "[unityhfsm][parallel_states]") {
    using namespace own_gate;
    Rec r;
    r.can_exit = true;
    Machine m(r);
    m.SetRegions<A, Busy>();
    m.SetInitialState<A>();
    m.From<B>();

    m.Perform({});
    CHECK(m.CurrentStateName() == "A");
    CHECK(m.TrySetState<B>());
    CHECK(m.CurrentStateName() == "B");
}

TEST_CASE("A waiting change out of a parallel state is made on the first tick its own gate agrees",
          "[unityhfsm][parallel_states]") {
    using namespace own_gate;
    Rec r;
    Machine m(r);
    m.SetRegions<A, Busy>();
    m.SetInitialState<A>().To<B>([](const Rec& c) { return c.requested; });
    m.From<B>();

    m.Perform({});
    r.requested = true;
    m.Perform({});
    CHECK(m.CurrentStateName() == "A");

    r.can_exit = true;
    m.Perform({});
    CHECK(m.CurrentStateName() == "B");
}

TEST_CASE("A region that would let go does not open its parallel state's own gate", "[unityhfsm][parallel_states]") {
    using namespace own_gate;
    Rec r;
    Machine m(r);
    m.SetRegions<A, Free>();
    m.SetInitialState<A>().To<B>();
    m.From<B>();

    m.Perform({});
    CHECK_FALSE(m.TrySetState<B>());
    CHECK(m.CurrentStateName() == "A");

    m.Perform({});
    CHECK(m.CurrentStateName() == "A");

    r.can_exit = true;
    m.Perform({});
    CHECK(m.CurrentStateName() == "B");
}

namespace {
namespace paths {
struct PS {};
struct A {};
struct B {};
struct C {};
struct D {};
} // namespace paths
} // namespace

TEST_CASE("The active path of a parallel state lists every region in braces", "[unityhfsm][parallel_states]") {
    using namespace paths;
    Rec r;
    Machine m(r);
    m.SetRegions<PS, A, B, C>();
    m.SetSubstates<C, D>();
    m.SetInitialState<PS>();

    m.Perform({});
    CHECK(m.ActivePath() == "PS/{A, B, C/D}");
}

TEST_CASE("The active path of a parallel state with one region shows that region", "[unityhfsm][parallel_states]") {
    using namespace paths;
    Rec r;
    Machine m(r);
    m.SetRegions<PS, A>();
    m.SetInitialState<PS>();

    m.Perform({});
    CHECK(m.ActivePath() == "PS/{A}");
}

namespace {
namespace trigger {
struct Root {};
struct Left {};
struct A {};
struct B {};
struct Right {};
struct C {};
struct D {};
} // namespace trigger
} // namespace

TEST_CASE("An event sent to the machine reaches every region of a parallel state", "[unityhfsm][parallel_states]") {
    using namespace trigger;
    Rec r;
    Machine m(r);
    m.SetRegions<Root, Left, Right>();
    m.SetSubstates<Left, A, B>();
    m.SetSubstates<Right, C, D>();
    m.SetInitialState<Root>();
    m.From<A>().On("T").To<B>();
    m.From<C>().On("T").To<D>();

    m.Perform({});
    CHECK(m.SendEvent("T"));
    CHECK(m.IsIn<B>());
    CHECK(m.IsIn<D>());
    CHECK(m.ActivePath() == "Root/{Left/B, Right/D}");
}

namespace {
namespace stop_after_exit {
struct A {};
struct First {
    void Perform(Rec& r, const Tick&, tickfsm::Machine<Rec, Tick>& m);
};
struct Second {
    void Perform(Rec& r, const Tick&) { r.performed_second = true; }
};
struct B {};
void First::Perform(Rec& r, const Tick&, tickfsm::Machine<Rec, Tick>& m) {
    r.performed_first = true;
    if (r.requested) m.TrySetState<B>(); // may leave now: out of the parallel state
}
} // namespace stop_after_exit
} // namespace

TEST_CASE("A region that leaves its parallel state stops the regions after it from ticking",
          "[unityhfsm][parallel_states]") {
    using namespace stop_after_exit;
    Rec r;
    Machine m(r);
    m.SetRegions<A, First, Second>();
    m.SetInitialState<A>();
    m.From<B>();

    r.requested = true;
    m.Perform({});

    CHECK(m.CurrentStateName() == "B");
    CHECK(r.performed_first);
    CHECK_FALSE(r.performed_second);
}

namespace {
namespace actions {
struct Signal {};
struct Amount {
    int value = 0;
};
struct PS {};
struct A {
    bool called = false;
    void OnEvent(Rec&, const Signal&) { called = true; }
};
struct B {
    bool called = false;
    void OnEvent(Rec&, const Signal&) { called = true; }
};
struct C {
    bool called = false;
    int value = 0;
    void OnEvent(Rec&, const Amount& a) {
        called = true;
        value = a.value;
    }
};

/// Regions A, B and C of PS: A and B handle Signal in place, C handles Amount.
void HandleInRegions(Machine& m) {
    m.SetRegions<PS, A, B, C>();
    m.SetInitialState<PS>();
    m.From<A>().On<Signal>().Handle();
    m.From<B>().On<Signal>().Handle();
    m.From<C>().On<Amount>().Handle();
}
} // namespace actions
} // namespace

TEST_CASE("An event handled in place reaches each region that handles it, with its data",
          "[unityhfsm][parallel_states]") {
    using namespace actions;
    Rec r;
    Machine m(r);
    HandleInRegions(m);

    m.Perform({});
    CHECK(m.SendEvent(Signal{}));
    CHECK(m.State<A>().called);
    CHECK(m.State<B>().called);
    CHECK_FALSE(m.State<C>().called);

    CHECK(m.SendEvent(Amount{10}));
    CHECK(m.State<C>().called);
    CHECK(m.State<C>().value == 10);
    CHECK(m.ActivePath() == "PS/{A, B, C}");
}

TEST_CASE("A machine tells which actions any of its regions would take", "[unityhfsm][parallel_states]") {
    using namespace actions;
    Rec r;
    Machine m(r);
    HandleInRegions(m);
    m.Perform({});
    CHECK(m.WouldTakeEvent(Signal{}));
    CHECK(m.WouldTakeEvent(Amount{.value = 1}));
    CHECK_FALSE(m.WouldTakeEvent(tickfsm::Event("OtherAction")));
    CHECK_FALSE(m.State<A>().called); // a dry run calls no hook
}

// ---------------------------------------------------------------------------
// TestGhostStates
// ---------------------------------------------------------------------------

namespace {
namespace ghost {
struct A : Tracked<kA> {};
struct B : Tracked<kB> {};
struct C : Tracked<kC> {};
struct D : Tracked<kD> {};
struct Waiting : Tracked<kB> { // B that may not leave until told
    bool CanExitState(const Rec& c, const tickfsm::StateRef&) const { return c.can_exit; }
};
} // namespace ghost
} // namespace

TEST_CASE("A tick makes one transition when the state entered is not a pass-through state",
          "[unityhfsm][ghost_states]") {
    using namespace ghost;
    Rec r;
    Machine m(r);
    m.SetInitialState<A>().To<B>([](const Rec& c) { return c.go; });
    m.From<B>().To<C>();
    m.From<C>();

    m.Perform({});
    Take(r);
    r.go = true;
    m.Perform({});
    CHECK(Take(r) == Log{"exit A", "enter B", "logic B"});
    CHECK(m.IsIn<B>());
}

TEST_CASE("A tick passes through a chain of pass-through states to the first ordinary one",
          "[unityhfsm][ghost_states]") {
    using namespace ghost;
    Rec r;
    Machine m(r);
    m.SetPassThrough<B>();
    m.SetPassThrough<C>();
    m.SetInitialState<A>().To<B>([](const Rec& c) { return c.go; });
    m.From<B>().To<C>();
    m.From<C>().To<D>();
    m.From<D>();

    m.Perform({});
    Take(r);
    r.go = true;
    m.Perform({});
    CHECK(Take(r) == Log{"exit A", "enter B", "exit B", "enter C", "exit C", "enter D", "logic D"});
    CHECK(m.IsIn<D>());
}

TEST_CASE("A state that is not pass-through and may not leave yet holds the tick until it may",
          "[unityhfsm][ghost_states]") {
    using namespace ghost;
    Rec r;
    Machine m(r);
    m.SetInitialState<A>().To<Waiting>([](const Rec& c) { return c.go; });
    m.From<Waiting>().To<C>();
    m.From<C>();

    m.Perform({});
    Take(r);
    r.go = true;
    m.Perform({});
    CHECK(Take(r) == Log{"exit A", "enter B", "logic B"});

    m.Perform({});
    CHECK(Take(r) == Log{"logic B"});

    r.can_exit = true; // the change waits for the next tick
    CHECK(Take(r).empty());
    m.Perform({});
    CHECK(Take(r) == Log{"exit B", "enter C", "logic C"});
}

// ---------------------------------------------------------------------------
// TestRememberLastState
// ---------------------------------------------------------------------------

namespace {
namespace remember {
struct A {};
struct B {};
struct X {};
struct Y {};
struct Z {};
} // namespace remember
} // namespace

TEST_CASE("A composite without history re-enters its initial substate", "[unityhfsm][remember_last_state]") {
    using namespace remember;
    Rec r;
    Machine m(r);
    m.SetSubstates<A, Y, X>(); // Y is A's initial substate
    m.SetInitialState<A>();
    m.From<B>();

    m.Perform({});
    CHECK(m.ActivePath() == "A/Y");

    m.ForceSetState<X>();
    CHECK(m.ActivePath() == "A/X");

    m.ForceSetState<B>();
    CHECK(m.ActivePath() == "B");

    m.ForceSetState<A>();
    CHECK(m.ActivePath() == "A/Y");
}

TEST_CASE("A composite with history re-enters the substate it last held", "[unityhfsm][remember_last_state]") {
    using namespace remember;
    Rec r;
    Machine m(r);
    m.SetSubstates<A, X, Y, Z>();
    m.SetHistory<A>(tickfsm::History::Shallow);
    m.SetInitialState<A>();
    m.From<X>().To<Y>();
    m.From<Y>().To<Z>();
    m.From<B>();

    m.ForceSetState<A>(); // starts the machine in A without a tick
    CHECK(m.ActivePath() == "A/X");

    m.Perform({});
    m.Perform({});
    CHECK(m.ActivePath() == "A/Z");

    m.ForceSetState<B>();
    CHECK(m.ActivePath() == "B");

    m.ForceSetState<A>();
    CHECK(m.ActivePath() == "A/Z");
}

namespace {
enum class Root { A };
} // namespace

TEST_CASE("A parallel state's regions can be keyed by another type than the parallel state",
          "[unityhfsm][parallel_states]") {
    Rec rec;
    tickfsm::StateManager<Rec, Tick> m(rec);
    m.AddState<Tracked<kA>>(Root::A);
    m.AddState<Tracked<kB>>(0);
    m.AddState<Tracked<kC>>(1);
    m.SetRegions(Root::A, {0, 1});
    m.SetInitialState(Root::A);
    m.Perform({});
    CHECK(Take(rec) == Log{"enter A", "enter B", "enter C", "logic A", "logic B", "logic C"});
    CHECK(m.ActivePath() == "A/{0, 1}");
    CHECK(m.IsIn(Root::A));
    CHECK(m.IsIn(0));
    CHECK(m.IsIn(1));
}
