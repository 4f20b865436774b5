// Every accepted form of transition condition, and testing a condition alone.

#include <catch2/catch.hpp>

#include <tickfsm/tickfsm.hpp>

namespace {

struct Hero {
    bool grounded = true;
};
struct Input {
    bool jump = false;
};
struct Move {};
struct Jump {};

bool CanJump(const Hero& h, const Input& in) { return in.jump && h.grounded; }
bool LongEnough(const Hero&, const Input&, float timeInState) { return timeInState >= 0.05f; }
bool InAir(const Hero& h) { return !h.grounded; }
bool Never() { return false; }

struct JumpPressed { // a functor with data
    bool want = true;
    bool operator()(const Hero&, const Input& in) const { return in.jump == want; }
};

using Manager = tickfsm::StateManager<Hero, Input>;

bool Reaches(Manager& m, const Input& in) {
    m.Perform(in);
    return m.IsIn<Jump>();
}

} // namespace

TEST_CASE("A condition is a plain function taking controller and action", "[condition]") {
    Hero h;
    Manager m(h);
    m.SetInitialState<Move>().To<Jump>(CanJump);
    CHECK_FALSE(Reaches(m, {false}));
    CHECK(Reaches(m, {true}));
}

TEST_CASE("A condition can take the time in state as third parameter", "[condition][time]") {
    Hero h;
    Manager m(h, 0.025f);
    m.SetInitialState<Move>().To<Jump>(&LongEnough);
    CHECK_FALSE(Reaches(m, {}));
    CHECK(Reaches(m, {}));
}

TEST_CASE("A condition can take the controller alone, or nothing", "[condition]") {
    Hero h;
    Manager m(h);
    m.SetInitialState<Move>().To<Move>(Never).To<Jump>(InAir);
    CHECK_FALSE(Reaches(m, {}));
    h.grounded = false;
    CHECK(Reaches(m, {}));
}

TEST_CASE("Captureless and capturing lambdas and functors are conditions", "[condition]") {
    Hero h;
    int threshold = 2;
    int calls = 0;
    Manager m(h);
    m.SetInitialState<Move>()
        .To<Jump>([&calls, threshold](const Hero&, const Input&, float) { return ++calls > threshold; })
        .To<Jump>(JumpPressed{false}.want ? JumpPressed{} : JumpPressed{true});
    m.From<Jump>().To<Move>([] { return true; });
    CHECK_FALSE(Reaches(m, {}));
    CHECK_FALSE(Reaches(m, {}));
    CHECK(Reaches(m, {}));
    CHECK(calls == 3);
    CHECK_FALSE(Reaches(m, {})); // back to Move
    CHECK(Reaches(m, {}));       // capturing lambda holds again
}

TEST_CASE("A functor condition keeps its own data", "[condition]") {
    Hero h;
    Manager m(h);
    m.SetInitialState<Move>().To<Jump>(JumpPressed{true});
    CHECK_FALSE(Reaches(m, {false}));
    CHECK(Reaches(m, {true}));
}

TEST_CASE("A generic lambda takes the full form", "[condition]") {
    Hero h;
    Manager m(h, 0.5f);
    m.SetInitialState<Move>().To<Jump>([](const auto&, const auto&, float t) { return t >= 1.0f; });
    CHECK_FALSE(Reaches(m, {}));
    CHECK(Reaches(m, {}));
}

TEST_CASE("Each condition can be tested alone, without a machine", "[condition][sample]") {
    Hero on_ground;
    Hero in_air{false};
    CHECK(CanJump(on_ground, {true}));
    CHECK_FALSE(CanJump(on_ground, {false}));
    CHECK_FALSE(CanJump(in_air, {true}));
    CHECK(LongEnough(on_ground, {}, 0.05f));
    CHECK_FALSE(LongEnough(on_ground, {}, 0.04f));
}
