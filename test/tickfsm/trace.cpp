// The observer and the ready printer: the seed-002 trace, causes, and no cost when absent.

#include <catch2/catch.hpp>

#include <string>
#include <string_view>

#include <tickfsm/tickfsm.hpp>

namespace {

struct Weapon {};
struct Tick {
    bool fire = false;
    bool hurt = false;
};
using M = tickfsm::Machine<Weapon, Tick>;

struct StateInit {
    static constexpr std::string_view Name = "STATE_INIT";
    void Perform(Weapon&, const Tick&, M& m);
};
struct StateRaise {
    static constexpr std::string_view Name = "STATE_RAISE";
};
struct StateIdle {
    static constexpr std::string_view Name = "STATE_IDLE";
};
void StateInit::Perform(Weapon&, const Tick&, M& m) { m.NextState<StateRaise>(); }

inline constexpr tickfsm::Event Fire{"Fire"};

} // namespace

TEST_CASE("The trace printer writes the seed's initialization and transition lines", "[trace]") {
    Weapon w;
    std::string out;
    tickfsm::TracePrinter printer(out);
    tickfsm::StateManager<Weapon, Tick> m(w);
    m.SetInitialState<StateInit>();
    m.From<StateRaise>().To<StateIdle>([](const Weapon&, const Tick&, float t) { return t > 0.04f; });
    m.From<StateIdle>().On(Fire).To<StateRaise>();
    m.SetObserver(&printer, "aoWeapon");
    for (int i = 0; i < 5; ++i) m.Perform({});
    m.SendEvent(Fire);
    m.SendEvent(Fire); // unhandled in STATE_RAISE
    CHECK(out == "Initializing state machine 'aoWeapon'\n"
                 "...state 'STATE_INIT' (initial state)\n"
                 "...state 'STATE_RAISE'\n"
                 "...state 'STATE_IDLE'\n"
                 "Successfully initialized 3 fsmStates\n"
                 " -> STATE_INIT\n"
                 "STATE_INIT -> STATE_RAISE\n"
                 "STATE_RAISE -> STATE_IDLE\n"
                 "STATE_IDLE -> STATE_RAISE\n"
                 "The current state STATE_RAISE has no transition for event Fire.\n");
}

namespace {
struct Any {}; // a game's own state of this name
struct Alarm {};
} // namespace

TEST_CASE("A state named Any lives beside FromAny(), and the trace lists only the states", "[trace][any]") {
    Weapon w;
    std::string out;
    tickfsm::TracePrinter printer(out);
    tickfsm::StateManager<Weapon, Tick> m(w);
    m.FromAny().To<Alarm>([](const Weapon&, const Tick& t) { return t.hurt; });
    m.SetInitialState<Any>();
    m.From<Alarm>().To<Any>([](const Weapon&, const Tick& t) { return !t.hurt; });
    m.SetObserver(&printer, "guard");
    m.Perform({});
    CHECK(m.CurrentStateName() == "Any");
    m.Perform({false, true});
    CHECK(m.IsIn<Alarm>());
    INFO(out);
    CHECK(out.rfind("Initializing state machine 'guard'\n"
                    "...state 'Alarm'\n"
                    "...state 'Any' (initial state)\n"
                    "Successfully initialized 2 fsmStates\n",
                    0) == 0);
}

TEST_CASE("The trace printer can say what caused each transition", "[trace]") {
    Weapon w;
    std::string out;
    tickfsm::TracePrinter printer(out, {.causes = true});
    tickfsm::StateManager<Weapon, Tick> m(w);
    m.SetInitialState<StateInit>();
    m.From<StateRaise>().To<StateRaise>([] { return false; }).To<StateIdle>([](const Weapon&, const Tick& t) { return t.fire; });
    m.From<StateIdle>().On(Fire).To<StateRaise>();
    m.SetObserver(&printer, "w");
    m.Perform({});
    m.Perform({});
    m.Perform({true});
    m.SendEvent(Fire);
    CHECK(out.find(" -> STATE_INIT (initial)\n") != std::string::npos);
    CHECK(out.find("STATE_INIT -> STATE_RAISE (request)\n") != std::string::npos);
    CHECK(out.find("STATE_RAISE -> STATE_IDLE (condition 1)\n") != std::string::npos);
    CHECK(out.find("STATE_IDLE -> STATE_RAISE (event Fire)\n") != std::string::npos);
}

TEST_CASE("An event sent before the machine started is reported as the seed warns", "[trace]") {
    Weapon w;
    std::string out;
    tickfsm::TracePrinter printer(out);
    tickfsm::StateManager<Weapon, Tick> m(w);
    m.SetInitialState<StateIdle>().On(Fire).To<StateRaise>();
    m.SetObserver(&printer, "aoWeapon");
    m.SendEvent(Fire);
    CHECK(out == "Fsm aoWeapon does not have a current state. Check if it was started.\n");
}

TEST_CASE("Detaching the observer stops the reports", "[trace]") {
    Weapon w;
    std::string out;
    tickfsm::TracePrinter printer(out);
    tickfsm::StateManager<Weapon, Tick> m(w);
    m.SetInitialState<StateIdle>().On(Fire).To<StateRaise>();
    m.SetObserver(&printer, "w");
    m.Perform({});
    const std::string before = out;
    m.SetObserver(nullptr);
    m.SendEvent(Fire);
    m.Perform({});
    CHECK(out == before);
    CHECK(m.IsIn<StateRaise>());
}

TEST_CASE("The machine keeps its own copy of the name SetObserver is given", "[trace][observer]") {
    Weapon w;
    std::string out;
    tickfsm::TracePrinter printer(out);
    tickfsm::StateManager<Weapon, Tick> m(w);
    m.SetInitialState<StateIdle>().On(Fire).To<StateRaise>();
    {
        // Longer than a short-string buffer, so it lives on the heap; overwritten, then freed.
        std::string name = std::string("guard") + std::to_string(42) + ", the one at the north gate";
        m.SetObserver(&printer, name);
        name.assign(name.size(), 'x');
    }
    m.Perform({});
    CHECK(out.rfind("Initializing state machine 'guard42, the one at the north gate'\n", 0) == 0);
    // A temporary, gone by the next line.
    m.SetObserver(&printer, std::string("guard") + std::to_string(43) + ", the one at the south gate");
    CHECK(m.Describe().name == "guard43, the one at the south gate");
    // No name: the machine is heard as "StateManager".
    std::string plain;
    tickfsm::TracePrinter plain_printer(plain);
    tickfsm::StateManager<Weapon, Tick> other(w);
    other.SetInitialState<StateIdle>();
    other.SetObserver(&plain_printer);
    other.Perform({});
    CHECK(plain.rfind("Initializing state machine 'StateManager'\n", 0) == 0);
}

namespace {
struct Held {
    bool CanExitState(const Weapon&, const tickfsm::StateRef&) const { return false; }
};
struct Loose {};
enum class Slot { Holster, Drawn };
} // namespace

TEST_CASE("The trace prints a direct change a gate refused", "[trace][gate]") {
    Weapon w;
    std::string out;
    tickfsm::TracePrinter printer(out);
    tickfsm::StateManager<Weapon, Tick> m(w);
    m.SetInitialState<Held>();
    m.From<Loose>();
    m.SetObserver(&printer, "w");
    m.Perform({});
    out.clear();
    CHECK_FALSE(m.TrySetState<Loose>());
    CHECK(out == "w: refused Held -> Loose\n");
    CHECK(m.IsIn<Held>());

    // A keyed delegate state's gate, with the causes printed: the same line.
    std::string keyed_out;
    tickfsm::TracePrinter keyed_printer(keyed_out, {.causes = true});
    tickfsm::StateManager<Weapon, Tick> k(w);
    k.AddDelegateState(Slot::Holster);
    k.AddDelegateState(Slot::Drawn).CanEnter(
        [](const Weapon&, const tickfsm::StateRef& from) { return !from.IsKey(Slot::Holster); });
    k.SetInitialState(Slot::Holster);
    k.From(Slot::Drawn);
    k.SetObserver(&keyed_printer, "k");
    k.Perform({});
    keyed_out.clear();
    CHECK_FALSE(k.TrySetState(Slot::Drawn));
    CHECK(keyed_out == "k: refused Holster -> Drawn\n");
}

namespace {
struct Calm {};
struct Fight {};
struct Jab {};
struct Hurt {};
} // namespace

TEST_CASE("The trace names whose list a parent's or FromAny()'s condition counts in", "[trace][nested]") {
    Weapon w;
    std::string out;
    tickfsm::TracePrinter printer(out, {.causes = true});
    tickfsm::StateManager<Weapon, Tick> m(w);
    m.SetSubstates<Fight, Jab>();
    m.SetInitialState<Calm>().To<Fight>([] { return true; });
    m.From<Fight>().To<Calm>([](const Weapon&, const Tick& t) { return t.fire; });
    m.FromAny().To<Hurt>([](const Weapon&, const Tick& t) { return t.hurt; });
    m.From<Hurt>();
    m.SetObserver(&printer, "w");
    m.Perform({});
    m.Perform({});
    m.Perform({true});
    m.Perform({.hurt = true});
    CHECK(out.find("Calm -> Jab (condition 0)\n") != std::string::npos);
    CHECK(out.find("Jab -> Calm (condition 0 of Fight)\n") != std::string::npos);
    CHECK(out.find("Calm -> Hurt (condition 0 of FromAny())\n") != std::string::npos);
}
