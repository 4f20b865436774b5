// TimelineWriter and ObserverList: the Chrome trace event JSON of a run, read
// here as text (test/timeline/check_trace.py parses the samples' with Python).

#include <catch2/catch.hpp>

#include <cstddef>
#include <string>
#include <string_view>

#include <tickfsm/observer_list.hpp>
#include <tickfsm/tickfsm.hpp>
#include <tickfsm/timeline.hpp>

namespace {

struct Hero {
    bool ground = true;
};
struct Input {
    bool jump = false;
};
struct Idle {};
struct Jump {};
struct Run {};
struct Combat {};
struct Chase {};
struct Strike {};
struct Quoted {
    static constexpr std::string_view Name = "Say \"hi\"\\";
};

std::size_t Count(const std::string& text, std::string_view what) {
    std::size_t n = 0;
    for (std::size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + what.size())) ++n;
    return n;
}

bool Has(const std::string& text, std::string_view what) { return text.find(what) != std::string::npos; }

class HeroMachine : public tickfsm::StateManager<Hero, Input> {
public:
    explicit HeroMachine(Hero& h) : StateManager(h) {
        SetInitialState<Idle>().To<Jump>([](const Hero&, const Input& in) { return in.jump; }).On("Go").To<Run>();
        From<Jump>().To<Idle>([](const Hero& hero) { return hero.ground; });
        From<Run>();
    }
};

} // namespace

TEST_CASE("A timeline has one slice per state visit, in ticks", "[timeline]") {
    Hero h;
    HeroMachine m(h);
    std::string json;
    tickfsm::TimelineWriter timeline(json);
    m.SetObserver(&timeline, "hero");
    for (std::uint64_t tick = 0; tick < 10; ++tick) {
        timeline.SetTick(tick);
        h.ground = tick != 4;
        m.Perform({.jump = tick == 3});
    }
    timeline.SetTick(10);
    CHECK(json.empty()); // written at Finish
    timeline.Finish();

    CHECK(json.starts_with("{\"displayTimeUnit\":\"ms\""));
    CHECK(Has(json, "\"traceEvents\":["));
    CHECK(json.ends_with("]}\n"));
    CHECK(Has(json, "{\"name\":\"process_name\",\"ph\":\"M\",\"pid\":1,\"tid\":0,\"args\":{\"name\":\"tickfsm\"}}"));
    CHECK(Has(json, "{\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":1,\"tid\":1,\"args\":{\"name\":\"hero\"}}"));
    // Idle 0-3, Jump 3-5 (it lands on tick 5, when ground is true again), Idle 5-10 (left open, closed by Finish).
    CHECK(Count(json, "\"ph\":\"X\"") == 3);
    CHECK(Has(json, "{\"name\":\"Idle\",\"cat\":\"state\",\"ph\":\"X\",\"ts\":0,\"dur\":3000,\"pid\":1,\"tid\":1,"
                    "\"args\":{\"leaf\":true,\"visit\":1,\"ticks\":3,\"entered_tick\":0,\"cause\":\"initial\",\"from\":\"\","
                    "\"left_by\":\"condition 0\",\"left_by_condition\":0,\"to\":\"Jump\",\"left_tick\":3}}"));
    CHECK(Has(json, "{\"name\":\"Jump\",\"cat\":\"state\",\"ph\":\"X\",\"ts\":3000,\"dur\":2000,"));
    CHECK(Has(json, "\"visit\":2,\"ticks\":2,\"entered_tick\":3,\"cause\":\"condition 0\",\"cause_condition\":0,"
                    "\"from\":\"Idle\""));
    CHECK(Has(json, "{\"name\":\"Idle\",\"cat\":\"state\",\"ph\":\"X\",\"ts\":5000,\"dur\":5000,"));
    CHECK(Has(json, "\"left_by\":\"end\",\"left_tick\":10}"));
}

TEST_CASE("A timeline maps ticks to microseconds as asked", "[timeline]") {
    Hero h;
    HeroMachine m(h);
    std::string json;
    {
        tickfsm::TimelineWriter timeline(json, {.microseconds_per_tick = 16667, .process = "game"});
        m.SetObserver(&timeline, "hero");
        m.Perform({});
        timeline.SetTick(2);
        m.Perform({.jump = true});
        timeline.AdvanceTick();
        CHECK(timeline.Tick() == 3);
        m.SetObserver(nullptr);
    } // the destructor finishes
    CHECK(Has(json, "{\"name\":\"Idle\",\"cat\":\"state\",\"ph\":\"X\",\"ts\":0,\"dur\":33334,"));
    CHECK(Has(json, "{\"name\":\"Jump\",\"cat\":\"state\",\"ph\":\"X\",\"ts\":33334,\"dur\":16667,"));
    CHECK(Has(json, "\"args\":{\"name\":\"game\"}"));
    CHECK(Has(json, "\"microseconds_per_tick\":16667"));
}

TEST_CASE("A timeline shows nested states as slices around their substates", "[timeline][nested]") {
    Hero h;
    tickfsm::StateManager<Hero, Input> m(h);
    m.SetSubstates<Combat, Chase, Strike>();
    m.SetInitialState<Idle>().To<Combat>([](const Hero&, const Input& in) { return in.jump; });
    m.From<Chase>().To<Strike>([](const Hero& hero) { return !hero.ground; });
    m.From<Combat>().To<Idle>([](const Hero&, const Input& in) { return !in.jump; });
    std::string json;
    tickfsm::TimelineWriter timeline(json);
    timeline.Watch(m, "fighter");
    timeline.SetTick(0);
    m.Perform({});
    timeline.SetTick(1);
    m.Perform({.jump = true}); // Idle -> Combat/Chase
    h.ground = false;
    timeline.SetTick(3);
    m.Perform({.jump = true}); // Chase -> Strike, inside Combat
    timeline.SetTick(6);
    m.Perform({}); // Combat's own transition, from Strike: Combat/Strike -> Idle
    timeline.SetTick(8);
    timeline.Finish();

    CHECK(Count(json, "\"ph\":\"X\"") == 5); // Idle, Combat, Chase, Strike, Idle
    CHECK(Has(json, "{\"name\":\"Combat\",\"cat\":\"state\",\"ph\":\"X\",\"ts\":1000,\"dur\":5000,\"pid\":1,\"tid\":1,"
                    "\"args\":{\"leaf\":false,\"ticks\":5,"));
    CHECK(Has(json, "{\"name\":\"Chase\",\"cat\":\"state\",\"ph\":\"X\",\"ts\":1000,\"dur\":2000,"));
    CHECK(Has(json, "{\"name\":\"Strike\",\"cat\":\"state\",\"ph\":\"X\",\"ts\":3000,\"dur\":3000,"));
    CHECK(Has(json, "{\"name\":\"Idle\",\"cat\":\"state\",\"ph\":\"X\",\"ts\":6000,\"dur\":2000,"));
    // On one tick a parent is written before its substate, so that viewers nest them.
    CHECK(json.find("\"name\":\"Combat\"") < json.find("\"name\":\"Chase\""));
}

TEST_CASE("A timeline watching a machine before it is configured shows its nested states", "[timeline][nested]") {
    Hero h;
    tickfsm::StateManager<Hero, Input> m(h);
    std::string json;
    tickfsm::TimelineWriter timeline(json);
    timeline.Watch(m, "fighter");
    m.SetSubstates<Combat, Chase, Strike>();
    m.SetInitialState<Combat>();
    m.Perform({});
    timeline.SetTick(3);
    timeline.Finish();
    CHECK(Count(json, "\"ph\":\"X\"") == 2);
    CHECK(Has(json, "{\"name\":\"Combat\",\"cat\":\"state\",\"ph\":\"X\",\"ts\":0,\"dur\":3000,"));
    CHECK(Has(json, "{\"name\":\"Chase\",\"cat\":\"state\",\"ph\":\"X\",\"ts\":0,\"dur\":3000,"));
}

TEST_CASE("A timeline shows only the current states of a machine whose states it was not told", "[timeline][nested]") {
    Hero h;
    tickfsm::StateManager<Hero, Input> m(h);
    m.SetSubstates<Combat, Chase, Strike>();
    m.SetInitialState<Combat>();
    std::string json;
    tickfsm::TimelineWriter timeline(json);
    m.SetObserver(&timeline, "fighter");
    m.Perform({});
    timeline.Finish();
    CHECK(Count(json, "\"ph\":\"X\"") == 1);
    CHECK(Has(json, "{\"name\":\"Chase\",\"cat\":\"state\",\"ph\":\"X\""));
}

TEST_CASE("A state left and entered again is two slices", "[timeline]") {
    Hero h;
    tickfsm::StateManager<Hero, Input> m(h);
    m.SetInitialState<Idle>().To<Idle>([](const Hero&, const Input& in) { return in.jump; });
    std::string json;
    tickfsm::TimelineWriter timeline(json);
    m.SetObserver(&timeline, "hero");
    m.Perform({});
    timeline.SetTick(4);
    m.Perform({.jump = true});
    timeline.SetTick(5);
    timeline.Finish();
    CHECK(Count(json, "{\"name\":\"Idle\",\"cat\":\"state\",\"ph\":\"X\"") == 2);
    CHECK(Has(json, "\"ts\":0,\"dur\":4000,"));
    CHECK(Has(json, "\"ts\":4000,\"dur\":1000,"));
}

TEST_CASE("A composite a transition enters again from inside is left and entered again", "[timeline][nested]") {
    // What a machine with Combat = {Chase, Strike} reports for
    // From<Strike>().To<Combat>() and From<Combat>().To<Combat>(): the leaf
    // entered in `to`, the composite named in `target`.
    Hero h;
    tickfsm::StateManager<Hero, Input> m(h);
    m.SetSubstates<Combat, Chase, Strike>();
    m.SetInitialState<Combat>();
    std::string json;
    tickfsm::TimelineWriter timeline(json);
    timeline.AddStates("fighter", m.States());
    auto report = [&](std::uint64_t tick, std::string_view from, std::string_view to, std::string_view target) {
        tickfsm::TransitionInfo info;
        info.machine = "fighter";
        info.from = from;
        info.to = to;
        info.target = target;
        info.cause = from.empty() ? tickfsm::Cause::Initial : tickfsm::Cause::Condition;
        timeline.SetTick(tick);
        timeline.OnTransition(info);
    };
    report(0, "", "Chase", "Combat");
    report(2, "Chase", "Strike", "Strike");
    report(4, "Strike", "Chase", "Combat"); // From<Strike>().To<Combat>()
    report(8, "Chase", "Chase", "Combat");  // From<Combat>().To<Combat>()
    timeline.SetTick(10);
    timeline.Finish();
    CHECK(Count(json, "{\"name\":\"Combat\",\"cat\":\"state\",\"ph\":\"X\"") == 3);
    CHECK(Has(json, "{\"name\":\"Combat\",\"cat\":\"state\",\"ph\":\"X\",\"ts\":0,\"dur\":4000,"));
    CHECK(Has(json, "{\"name\":\"Combat\",\"cat\":\"state\",\"ph\":\"X\",\"ts\":4000,\"dur\":4000,"));
    CHECK(Has(json, "{\"name\":\"Combat\",\"cat\":\"state\",\"ph\":\"X\",\"ts\":8000,\"dur\":2000,"));
    CHECK(Count(json, "{\"name\":\"Chase\",\"cat\":\"state\",\"ph\":\"X\"") == 3);
}

TEST_CASE("A machine's change to the composite that holds its state starts the composite's slice again",
          "[timeline][nested]") {
    Hero h;
    int step = 0;
    tickfsm::StateManager<Hero, Input> m(h);
    m.SetSubstates<Combat, Chase, Strike>();
    m.SetInitialState<Combat>().To<Combat>([&step] { return step == 8; });
    m.From<Chase>().To<Strike>([&step] { return step == 2; });
    m.From<Strike>().To<Combat>([&step] { return step == 4; });
    std::string json;
    tickfsm::TimelineWriter timeline(json);
    timeline.Watch(m, "fighter");
    for (; step < 10; ++step) {
        timeline.SetTick(static_cast<std::uint64_t>(step));
        m.Perform({});
    }
    timeline.Finish();
    CHECK(Count(json, "{\"name\":\"Combat\",\"cat\":\"state\",\"ph\":\"X\"") == 3);
    CHECK(Count(json, "{\"name\":\"Chase\",\"cat\":\"state\",\"ph\":\"X\"") == 3);
}

TEST_CASE("Events, unhandled events and warnings are instants on the machine's track", "[timeline]") {
    Hero h;
    HeroMachine m(h);
    HeroMachine other(h);
    std::string json;
    tickfsm::TimelineWriter timeline(json);
    m.SetObserver(&timeline, "hero");
    other.SetObserver(&timeline, "other");
    m.Perform({});
    other.Perform({});
    timeline.SetTick(2);
    CHECK(m.SendEvent("Go"));
    CHECK_FALSE(m.SendEvent("Go")); // Run has no transition on Go
    timeline.OnWarning("other", "low \"battery\"");
    timeline.Finish();
    CHECK(Has(json, "{\"name\":\"event Go\",\"cat\":\"event\",\"ph\":\"i\",\"s\":\"t\",\"ts\":2000,\"pid\":1,\"tid\":1,"
                    "\"args\":{\"tick\":2,\"from\":\"Idle\",\"to\":\"Run\"}}"));
    CHECK(Has(json, "{\"name\":\"unhandled Go\",\"cat\":\"event\",\"ph\":\"i\",\"s\":\"t\",\"ts\":2000,\"pid\":1,\"tid\":1,"
                    "\"args\":{\"tick\":2,\"state\":\"Run\",\"event\":\"Go\"}}"));
    CHECK(Has(json, "{\"name\":\"warning\",\"cat\":\"event\",\"ph\":\"i\",\"s\":\"t\",\"ts\":2000,\"pid\":1,\"tid\":2,"
                    "\"args\":{\"tick\":2,\"message\":\"low \\\"battery\\\"\"}}"));
    CHECK(Has(json, "\"tid\":2,\"args\":{\"name\":\"other\"}"));
    CHECK(Has(json, "\"cause\":\"event Go\",\"cause_event\":\"Go\",\"from\":\"Idle\""));
}

TEST_CASE("A direct change a gate refuses is an instant on the machine's track", "[timeline]") {
    struct Guarded {
        bool CanExitState(const Hero& h, const tickfsm::StateRef&) const { return h.ground; }
    };
    Hero h;
    tickfsm::StateManager<Hero, Input> m(h);
    m.SetInitialState<Guarded>();
    m.From<Run>();
    std::string json;
    tickfsm::TimelineWriter timeline(json);
    m.SetObserver(&timeline, "hero");
    m.Perform({});
    timeline.SetTick(1);
    h.ground = false;
    CHECK_FALSE(m.TrySetState<Run>());
    h.ground = true;
    CHECK(m.TrySetState<Run>());
    timeline.Finish();
    CHECK(Count(json, "\"name\":\"refused Guarded -> Run\"") == 1);
    CHECK(Has(json, "\"args\":{\"tick\":1,\"from\":\"Guarded\",\"to\":\"Run\"}"));
}

TEST_CASE("A timeline escapes state names in its JSON", "[timeline]") {
    Hero h;
    tickfsm::StateManager<Hero, Input> m(h);
    m.SetInitialState<Quoted>();
    std::string json;
    tickfsm::TimelineWriter timeline(json);
    m.SetObserver(&timeline, "quotes");
    m.Perform({});
    timeline.Finish();
    CHECK(Has(json, "{\"name\":\"Say \\\"hi\\\"\\\\\",\"cat\":\"state\""));
}

TEST_CASE("A timeline ignores what it hears after Finish", "[timeline]") {
    Hero h;
    HeroMachine m(h);
    std::string json;
    tickfsm::TimelineWriter timeline(json);
    m.SetObserver(&timeline, "hero");
    m.Perform({});
    timeline.Finish();
    const std::string written = json;
    m.Perform({.jump = true});
    timeline.Finish();
    CHECK(timeline.Finished());
    CHECK(json == written);
}

TEST_CASE("An observer list passes every call to each of its observers in order", "[timeline][observer]") {
    Hero h;
    HeroMachine m(h);
    std::string first, second;
    tickfsm::TracePrinter a(first, {.causes = true});
    tickfsm::TracePrinter b(second);
    tickfsm::ObserverList list{&a, nullptr};
    list.Add(b);
    CHECK(list.Size() == 2);
    m.SetObserver(&list, "hero");
    m.Perform({});
    m.SendEvent("Go");
    m.SendEvent("Go");
    CHECK(first.ends_with(" -> Idle (initial)\nIdle -> Run (event Go)\nThe current state Run has no transition for event Go.\n"));
    CHECK(second.ends_with(" -> Idle\nIdle -> Run\nThe current state Run has no transition for event Go.\n"));
}

TEST_CASE("An observer added to an observer list while it passes a call on hears the calls after it",
          "[timeline][observer]") {
    struct Counter : tickfsm::Observer {
        int transitions = 0;
        void OnTransition(const tickfsm::TransitionInfo&) override { ++transitions; }
    };
    // On the first transition it hears, adds many: the list grows and moves
    // while it walks it.
    struct Adder : tickfsm::Observer {
        tickfsm::ObserverList* list = nullptr;
        Counter more[40];
        void OnTransition(const tickfsm::TransitionInfo&) override {
            if (list->Size() > 2) return;
            for (Counter& c : more) list->Add(c);
        }
    };
    Hero h;
    HeroMachine m(h);
    Adder adder;
    Counter after;
    tickfsm::ObserverList list{&adder, &after};
    adder.list = &list;
    m.SetObserver(&list, "hero");
    m.Perform({}); // the initial transition
    CHECK(list.Size() == 42);
    CHECK(after.transitions == 1);
    CHECK(adder.more[0].transitions == 0);
    CHECK(m.SendEvent("Go"));
    CHECK(after.transitions == 2);
    CHECK(adder.more[0].transitions == 1);
    CHECK(adder.more[39].transitions == 1);
}

namespace {

struct Body {
    bool run = false, aim = false, dead = false;
};
struct Pad {};
struct Alive {};
struct Dead {};
struct Legs {};
struct Stand {};
struct Sprint {};
struct Arms {};
struct Lower {};
struct Aim {};

class Soldier : public tickfsm::StateManager<Body, Pad> {
public:
    explicit Soldier(Body& b) : StateManager(b) {
        SetInitialState<Alive>().To<Dead>([](const Body& c) { return c.dead; });
        SetRegions<Alive, Legs, Arms>();
        SetSubstates<Legs, Stand, Sprint>();
        SetSubstates<Arms, Lower, Aim>();
        From<Stand>().To<Sprint>([](const Body& c) { return c.run; });
        From<Sprint>().To<Stand>([](const Body& c) { return !c.run; });
        From<Lower>().To<Aim>([](const Body& c) { return c.aim; });
        From<Aim>().To<Lower>([](const Body& c) { return !c.aim; });
    }
};

} // namespace

TEST_CASE("Each parallel region has a track of its own, whose slices end with its parallel state",
          "[timeline][regions]") {
    Body b;
    Soldier m(b);
    std::string json;
    tickfsm::TimelineWriter timeline(json);
    timeline.Watch(m, "soldier");
    for (std::uint64_t tick = 0; tick < 8; ++tick) {
        timeline.SetTick(tick);
        b.run = tick >= 2;
        b.aim = tick >= 4;
        b.dead = tick == 6;
        m.Perform({});
    }
    timeline.SetTick(8);
    timeline.Finish();
    CHECK(Has(json, "\"tid\":2,\"args\":{\"name\":\"soldier/Legs\"}"));
    CHECK(Has(json, "\"tid\":3,\"args\":{\"name\":\"soldier/Arms\"}"));
    CHECK(Has(json, "{\"name\":\"Alive\",\"cat\":\"state\",\"ph\":\"X\",\"ts\":0,\"dur\":6000,\"pid\":1,\"tid\":1,"));
    CHECK(Has(json, "{\"name\":\"Stand\",\"cat\":\"state\",\"ph\":\"X\",\"ts\":0,\"dur\":2000,\"pid\":1,\"tid\":2,"));
    CHECK(Has(json, "{\"name\":\"Sprint\",\"cat\":\"state\",\"ph\":\"X\",\"ts\":2000,\"dur\":4000,\"pid\":1,\"tid\":2,"));
    CHECK(Has(json, "{\"name\":\"Lower\",\"cat\":\"state\",\"ph\":\"X\",\"ts\":0,\"dur\":4000,\"pid\":1,\"tid\":3,"));
    CHECK(Has(json, "{\"name\":\"Aim\",\"cat\":\"state\",\"ph\":\"X\",\"ts\":4000,\"dur\":2000,\"pid\":1,\"tid\":3,"));
    CHECK(Has(json, "{\"name\":\"Dead\",\"cat\":\"state\",\"ph\":\"X\",\"ts\":6000,\"dur\":2000,\"pid\":1,\"tid\":1,"));
    CHECK(Count(json, "\"ph\":\"X\"") == 6);
    CHECK(Count(json, "\"left_by\":\"condition 0\",\"left_by_condition\":0,\"to\":\"Dead\"") == 3); // Alive, Sprint, Aim
}
