// Input buffers: a refused request is retried for a while (seed 003).

#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include <tickfsm/tickfsm.hpp>

namespace {

struct Fighter {
    bool swinging = false;
};
struct Pad {};

struct Idle {};
struct Block {};
struct Attack {
    int combo = 0;
    bool CanExitState(const Fighter& f, const tickfsm::StateRef&) const { return !f.swinging; }
    void OnStateEnter(Fighter& f, const Pad&) {
        f.swinging = true;
        ++combo;
    }
};
struct Attack2 {
    bool CanExitState(const Fighter& f, const tickfsm::StateRef&) const { return !f.swinging; }
    void OnStateEnter(Fighter& f, const Pad&) { f.swinging = true; }
};

class FighterStateManager : public tickfsm::StateManager<Fighter, Pad> {
public:
    explicit FighterStateManager(Fighter& f) : StateManager(f, 0.1f) {
        SetInitialState<Idle>();
        From<Attack>();
        From<Attack2>();
        From<Block>();
    }
};

struct Outcomes : tickfsm::Observer {
    std::vector<std::string> seen;
    void OnBufferedRequest(std::string_view, std::string_view state, tickfsm::BufferOutcome outcome) override {
        const char* what = outcome == tickfsm::BufferOutcome::Entered    ? "entered"
                           : outcome == tickfsm::BufferOutcome::Replaced ? "replaced"
                                                                         : "timed out";
        seen.push_back(std::string(state) + " " + what);
    }
};

} // namespace

TEST_CASE("A buffered request is retried each update until the machine lets it in", "[buffer]") {
    Fighter f;
    FighterStateManager m(f);
    Outcomes outcomes;
    m.SetObserver(&outcomes, "fighter");
    tickfsm::InputBuffer buffer(m);
    m.Perform({});
    CHECK(buffer.Buffer<Attack>(0.5f)); // entered at once
    CHECK_FALSE(buffer.Buffer<Attack2>(0.5f)); // Attack is swinging: refused, buffered
    CHECK(buffer.IsBuffering());
    CHECK(buffer.Wanted().Is<Attack2>());
    m.Perform({});
    buffer.Update();
    CHECK(m.IsIn<Attack>());
    f.swinging = false; // the first swing ends
    m.Perform({});
    buffer.Update();
    CHECK(m.IsIn<Attack2>());
    CHECK_FALSE(buffer.IsBuffering());
    CHECK(outcomes.seen == std::vector<std::string>{"Attack entered", "Attack2 entered"});
}

TEST_CASE("A buffered request times out after its time in ticks", "[buffer]") {
    Fighter f;
    FighterStateManager m(f);
    Outcomes outcomes;
    m.SetObserver(&outcomes, "fighter");
    tickfsm::InputBuffer buffer(m);
    m.Perform({});
    buffer.Buffer<Attack>(1.0f);
    buffer.Buffer<Attack2>(0.3f); // 3 ticks of 0.1 s
    for (int i = 0; i < 2; ++i) {
        m.Perform({});
        buffer.Update();
        CHECK(buffer.IsBuffering());
    }
    m.Perform({});
    buffer.Update();
    CHECK_FALSE(buffer.IsBuffering());
    CHECK(outcomes.seen.back() == "Attack2 timed out");
}

TEST_CASE("The latest request replaces the one waiting", "[buffer]") {
    Fighter f;
    FighterStateManager m(f);
    Outcomes outcomes;
    m.SetObserver(&outcomes, "fighter");
    tickfsm::InputBuffer buffer(m);
    m.Perform({});
    buffer.Buffer<Attack>(1.0f);
    buffer.Buffer<Attack2>(1.0f);
    buffer.Buffer<Block>(1.0f);
    f.swinging = false;
    buffer.Update();
    CHECK(m.IsIn<Block>());
    CHECK(outcomes.seen == std::vector<std::string>{"Attack entered", "Attack2 replaced", "Block entered"});
}

TEST_CASE("A sequence buffer works through its requests in order", "[buffer][sequence]") {
    Fighter f;
    FighterStateManager m(f);
    Outcomes outcomes;
    m.SetObserver(&outcomes, "fighter");
    tickfsm::InputSequenceBuffer buffer(m);
    m.Perform({});
    CHECK(buffer.Buffer<Attack>(1.0f));
    CHECK_FALSE(buffer.Buffer<Attack2>(1.0f));
    CHECK_FALSE(buffer.Buffer<Block>(1.0f));
    CHECK(buffer.Size() == 2);
    CHECK(buffer.Next().Is<Attack2>());
    f.swinging = false;
    buffer.Update();
    CHECK(m.IsIn<Attack2>());
    buffer.Update(); // Attack2 swings: Block waits
    CHECK(m.IsIn<Attack2>());
    f.swinging = false;
    buffer.Update();
    CHECK(m.IsIn<Block>());
    CHECK(buffer.Size() == 0);
}

TEST_CASE("A sequence buffer drops requests whose time ran out and keeps the order of the rest", "[buffer][sequence]") {
    Fighter f;
    FighterStateManager m(f);
    tickfsm::InputSequenceBuffer<Fighter, Pad, 2> buffer(m);
    m.Perform({});
    buffer.Buffer<Attack>(1.0f);
    buffer.Buffer<Attack2>(0.1f); // one tick
    buffer.Buffer<Block>(1.0f);
    buffer.Buffer<Idle>(1.0f);    // beyond capacity: replaces the oldest (Attack2)
    CHECK(buffer.Size() == 2);
    buffer.Update();
    CHECK(buffer.Size() == 2);
    CHECK(buffer.Next().Is<Block>());
}

TEST_CASE("A time-out that is not positive is an error", "[buffer][error]") {
    Fighter f;
    FighterStateManager m(f);
    tickfsm::InputBuffer buffer(m);
    REQUIRE_THROWS_WITH(buffer.Buffer<Attack>(0.0f), Catch::Matchers::Contains("time-out"));
}

namespace {
struct Heavy {
    int entered = 0;
    void OnStateEnter(Fighter&, const Pad&) { ++entered; }
};
} // namespace

TEST_CASE("A buffered request is met when a transition enters its state first", "[buffer]") {
    Fighter f;
    bool combo = false;
    tickfsm::StateManager<Fighter, Pad> m(f, 0.1f);
    m.SetInitialState<Idle>().To<Attack>([](const Fighter&, const Pad&) { return true; });
    m.From<Attack>().To<Heavy>([&combo] { return combo; });
    m.From<Heavy>().To<Idle>([&combo] { return !combo; });
    Outcomes outcomes;
    m.SetObserver(&outcomes, "fighter");
    tickfsm::InputBuffer buffer(m);
    tickfsm::InputSequenceBuffer sequence(m);
    m.Perform({}); // Idle -> Attack, swinging
    CHECK_FALSE(buffer.Buffer<Heavy>(1.0f));
    CHECK_FALSE(sequence.Buffer<Heavy>(1.0f));
    f.swinging = false;
    combo = true;
    m.Perform({}); // Attack's own transition gets to Heavy first
    buffer.Update();
    sequence.Update();
    CHECK_FALSE(buffer.IsBuffering());
    CHECK(sequence.Size() == 0);
    combo = false;
    m.Perform({}); // Heavy -> Idle -> (next tick) Attack: not Heavy again
    buffer.Update();
    sequence.Update();
    CHECK(m.State<Heavy>().entered == 1);
    CHECK(outcomes.seen == std::vector<std::string>{"Heavy entered", "Heavy entered"});
}

TEST_CASE("A buffered request for the current state waits for it to be left and enters it again", "[buffer]") {
    Fighter f;
    FighterStateManager m(f);
    tickfsm::InputBuffer buffer(m);
    m.Perform({});
    CHECK(buffer.Buffer<Attack>(1.0f));
    CHECK_FALSE(buffer.Buffer<Attack>(1.0f)); // again, while in it
    m.Perform({});
    buffer.Update();
    CHECK(buffer.IsBuffering());
    f.swinging = false;
    m.ForceSetState<Block>();
    buffer.Update();
    CHECK(m.IsIn<Attack>());
    CHECK(m.State<Attack>().combo == 2);
}

TEST_CASE("A buffered request for the current state is met by a transition that leaves and enters it again",
          "[buffer]") {
    struct Combo : tickfsm::StateManager<Fighter, Pad> {
        explicit Combo(Fighter& f, const bool& again) : StateManager(f, 0.1f) {
            SetInitialState<Idle>().To<Attack>([](const Fighter& fighter) { return !fighter.swinging; });
            From<Attack>().ForceTo<Attack>([&again] { return again; }); // the combo re-enters the swing
        }
    };
    Fighter f;
    bool again = false;
    Combo m(f, again);
    Outcomes outcomes;
    m.SetObserver(&outcomes, "fighter");
    tickfsm::InputBuffer buffer(m);
    m.Perform({});
    m.Perform({});
    REQUIRE(m.IsIn<Attack>());
    REQUIRE(m.TicksInState() == 1);
    CHECK_FALSE(buffer.Buffer<Attack>(1.0f)); // pressed during the swing: waits for it to be left
    m.Perform({});
    buffer.Update();
    CHECK(buffer.IsBuffering()); // still the same swing
    again = true;
    m.Perform({}); // Attack -> Attack: left and entered again
    again = false;
    buffer.Update();
    CHECK_FALSE(buffer.IsBuffering());
    CHECK(outcomes.seen == std::vector<std::string>{"Attack entered"});
    CHECK(m.State<Attack>().combo == 2); // entered by the first swing and the combo, not once more by the buffer
}
