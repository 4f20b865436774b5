// Events: From<S>().On(event).To<T>(), SendEvent from outside and from hooks.

#include <catch2/catch.hpp>

#include <cstdint>
#include <string>
#include <vector>

#include <tickfsm/tickfsm.hpp>

namespace {

struct Runner {
    std::vector<std::string> log;
};
struct Key {};

inline constexpr tickfsm::Event Jump{"Jump"};
inline constexpr tickfsm::Event HitGround{"HitGround"};
inline constexpr tickfsm::Event HitObstacle{"HitObstacle"};

template <int N>
struct Logged {
    static constexpr std::string_view Name = N == 0 ? "Running" : N == 1 ? "Jumping" : "Die";
    void OnStateEnter(Runner& r, const Key&) { r.log.push_back("enter " + std::string(Name)); }
    void OnStateExit(Runner& r, const Key&) { r.log.push_back("exit " + std::string(Name)); }
};
using Running = Logged<0>;
using Jumping = Logged<1>;
using Die = Logged<2>;

class RunnerStateManager : public tickfsm::StateManager<Runner, Key> {
public:
    explicit RunnerStateManager(Runner& r) : StateManager(r) {
        SetInitialState<Running>().On(Jump).To<Jumping>().On(HitObstacle).To<Die>();
        From<Jumping>().On(HitGround).To<Running>();
    }
};

enum class CreatureEvent { Hit, Heal };

struct Recorder : tickfsm::Observer {
    std::vector<std::string> lines;
    void OnUnhandledEvent(std::string_view, std::string_view state, const tickfsm::Event& e) override {
        lines.push_back(std::string(state) + "/" + tickfsm::TracePrinter::EventText(e));
    }
};

} // namespace

TEST_CASE("SendEvent changes state at once when the current state has a transition for it", "[event]") {
    Runner r;
    RunnerStateManager m(r);
    m.Perform({});
    m.Perform({});
    r.log.clear();
    CHECK(m.SendEvent(Jump));
    CHECK(m.IsIn<Jumping>());
    CHECK(m.TicksInState() == 0);
    CHECK(r.log == std::vector<std::string>{"exit Running", "enter Jumping"});
    CHECK(m.SendEvent(HitGround));
    CHECK(m.IsIn<Running>());
}

TEST_CASE("An event the current state does not handle changes nothing and is reported", "[event]") {
    Runner r;
    RunnerStateManager m(r);
    Recorder rec;
    m.SetObserver(&rec, "runner");
    CHECK_FALSE(m.SendEvent(HitGround)); // not started yet
    m.Perform({});
    CHECK_FALSE(m.SendEvent(HitGround)); // Running has no HitGround
    CHECK(m.IsIn<Running>());
    CHECK(rec.lines == std::vector<std::string>{"/HitGround", "Running/HitGround"});
}

TEST_CASE("Events can be string literals or values of a user's enum", "[event]") {
    Runner r;
    tickfsm::StateManager<Runner, Key> m(r);
    m.SetInitialState<Running>().On(CreatureEvent::Hit).To<Die>();
    m.From<Die>().On(CreatureEvent::Heal).To<Running>().On("Jump").To<Jumping>();
    m.Perform({});
    CHECK_FALSE(m.SendEvent(CreatureEvent::Heal));
    CHECK(m.SendEvent(CreatureEvent::Hit));
    CHECK(m.SendEvent("Jump"));
    CHECK(m.IsIn<Jumping>());
}

TEST_CASE("A second transition on the same event from the same state is a ConfigError", "[event][error]") {
    using Catch::Matchers::Contains;
    Runner r;
    tickfsm::StateManager<Runner, Key> shared(r);
    shared.SetInitialState<Running>().On(Jump).To<Jumping>();
    REQUIRE_THROWS_WITH(shared.From<Running>().On(Jump).To<Die>(),
                        Contains("From<Running>().On(Jump).To<Die>()") && Contains("already has a transition on event Jump"));
    tickfsm::StateManager<Runner, Key> own(r); // a private table checks the same
    int captured = 1;
    own.SetInitialState<Running>().To<Die>([captured] { return captured == 0; }).On(Jump).To<Jumping>();
    REQUIRE_THROWS_WITH(own.From<Running>().On(Jump).To<Die>(), Contains("already has a transition on event Jump"));
    shared.Perform({});
    CHECK(shared.SendEvent(Jump));
}

TEST_CASE("Events and conditions mix in one chain", "[event]") {
    Runner r;
    tickfsm::StateManager<Runner, Key> m(r, 0.5f);
    m.SetInitialState<Running>().On(Jump).To<Jumping>();
    m.From<Jumping>().To<Running>([](const Runner&, const Key&, float t) { return t >= 1.0f; }).On(HitObstacle).To<Die>();
    m.Perform({});
    m.SendEvent(Jump);
    m.Perform({});
    CHECK(m.IsIn<Jumping>());
    m.Perform({});
    CHECK(m.IsIn<Running>());
}

TEST_CASE("SendEvent on the machine from inside its own hook is an error pointing to the handle", "[event][error]") {
    struct Loop {
        tickfsm::StateManager<Runner, Key>* m = nullptr;
        void Perform(Runner&, const Key&) { m->SendEvent(Jump); }
    };
    Runner r;
    tickfsm::StateManager<Runner, Key> m(r);
    m.SetInitialState<Loop>().On(Jump).To<Jumping>();
    m.State<Loop>().m = &m;
    REQUIRE_THROWS_WITH(m.Perform({}), Catch::Matchers::Contains("tickfsm::Machine<Controller, Action>&"));
}

namespace {
enum class Range : int { Near = 1, Distant = 70, Beyond = 300 };
} // namespace

TEST_CASE("Enum events keep their enumerator names in traces and errors, beyond value 63", "[event][trace]") {
    using Catch::Matchers::Contains;
    CHECK(tickfsm::TracePrinter::EventText(Range::Near) == "Range::Near");
    CHECK(tickfsm::TracePrinter::EventText(Range::Distant) == "Range::Distant");
    CHECK(tickfsm::TracePrinter::EventText(Range::Beyond) == "Range(300)"); // past the 256 values named
    CHECK(tickfsm::TracePrinter::EventText(Jump) == "Jump");
    Runner r;
    RunnerStateManager m(r);
    Recorder rec;
    m.SetObserver(&rec, "runner");
    m.Perform({});
    CHECK_FALSE(m.SendEvent(Range::Distant));
    CHECK(rec.lines == std::vector<std::string>{"Running/Range::Distant"});
    m.SetObserver(nullptr);
    tickfsm::StateManager<Runner, Key> twice(r);
    twice.SetInitialState<Running>().On(Range::Distant).To<Jumping>();
    REQUIRE_THROWS_WITH(twice.From<Running>().On(Range::Distant).To<Die>(),
                        Contains("already has a transition on event Range::Distant"));
}

namespace guard_events {
enum class Event { Alarm, Calm };
} // namespace guard_events
namespace door_events {
enum class Event { Open, Shut };
} // namespace door_events

TEST_CASE("Two enums of one name in two scopes are two kinds of event", "[event]") {
    Runner r;
    tickfsm::StateManager<Runner, Key> m(r);
    m.SetInitialState<Running>().On(guard_events::Event::Alarm).To<Die>().On(door_events::Event::Open).To<Jumping>();
    m.From<Die>();
    m.From<Jumping>();
    m.Perform({});
    CHECK(m.SendEvent(door_events::Event::Open)); // Open and Alarm are both value 0 of an enum named Event
    CHECK(m.IsIn<Jumping>());
    CHECK(tickfsm::Event(guard_events::Event::Alarm) != tickfsm::Event(door_events::Event::Open));
}

namespace {
enum class Wide64 : std::uint64_t { Small = 1, Top = 1ull << 63 };
enum class Byte : signed char { Low = -128, High = 127 };
enum class Far : int { Back = -5, Away = 300 };
struct Calm {};
} // namespace

TEST_CASE("Enum values outside the named window print as the value in the enum's signedness", "[event][trace]") {
    using tickfsm::TracePrinter;
    CHECK(TracePrinter::EventText(Wide64::Small) == "Wide64::Small");
    CHECK(TracePrinter::EventText(Wide64::Top) == "Wide64(9223372036854775808)"); // not negative
    CHECK(TracePrinter::EventText(Byte::Low) == "Byte::Low"); // a 1-byte signed enum is named from -128
    CHECK(TracePrinter::EventText(Byte::High) == "Byte::High");
    CHECK(TracePrinter::EventText(Far::Back) == "Far(-5)");    // named, but outside 0 to 255
    CHECK(TracePrinter::EventText(Far::Away) == "Far(300)");
    CHECK(TracePrinter::EventText(static_cast<Far>(7)) == "Far(7)"); // in the window, no enumerator

    // A keyed state is named the same way.
    Runner r;
    tickfsm::StateManager<Runner, Key> m(r);
    m.AddState<Calm>(Wide64::Top);
    m.AddState<Calm>(Wide64::Small);
    m.SetInitialState(Wide64::Top);
    m.Perform({});
    CHECK(m.CurrentStateName() == "Wide64(9223372036854775808)");
    CHECK_THROWS_WITH(m.TrySetState(static_cast<Wide64>(2)), Catch::Matchers::Contains("Wide64(2)"));
}
