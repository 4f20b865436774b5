// TICKFSM_EXTERN_MACHINE / TICKFSM_INSTANTIATE_MACHINE: a pair's shared code
// compiled in one source file (instantiate_definitions.cpp) and used here.
// This file only links because that file compiled the shared code: without
// its TICKFSM_INSTANTIATE_MACHINE lines the link fails with undefined references.

#include <catch2/catch.hpp>

#include "instantiate.hpp"

using namespace instantiate_test;

TEST_CASE("A machine whose shared code is instantiated in another file ticks as usual", "[instantiate]") {
    Turret turret;
    TurretStateManager m(turret);
    m.Perform(Aim{false});
    CHECK(m.IsIn<Watch>());
    m.Perform(Aim{true});
    CHECK(m.IsIn<Fire>());
    for (int i = 0; i < 2; ++i) m.Perform(Aim{true});
    CHECK(turret.shots == 3); // heat 9: Fire gives way on the next tick
    m.Perform(Aim{true});
    CHECK(m.IsIn<Cool>());
    for (int i = 0; i < 3; ++i) m.Perform(Aim{false});
    CHECK(m.IsIn<Watch>());
    CHECK(m.SharesTable());
    CHECK(m.TrySetState<Fire>());
    CHECK(m.CurrentStateName() == "Fire");
}

TEST_CASE("An extern machine reports configuration errors from the instantiating file", "[instantiate][error]") {
    struct Elsewhere {};
    Turret turret;
    TurretStateManager m(turret);
    m.Perform(Aim{});
    using Catch::Matchers::Contains;
    REQUIRE_THROWS_WITH(m.ForceSetState<Elsewhere>(), Contains("Elsewhere") && Contains("not a state") &&
                                                          Contains("StateManager<Turret, Aim>"));
}

TEST_CASE("An Action without a default constructor can be instantiated once", "[instantiate]") {
    struct Idle {};
    struct Busy {
        void Perform(Turret& t, const Order& o) { t.shots += o.value; }
    };
    class OrderedTurret : public tickfsm::StateManager<Turret, Order> {
    public:
        explicit OrderedTurret(Turret& t) : StateManager(t) {
            SetInitialState<Idle>().To<Busy>([](const Turret&, const Order& o) { return o.value > 0; });
        }
    };
    Turret turret;
    OrderedTurret m(turret);
    m.Perform(Order{0});
    CHECK(m.IsIn<Idle>());
    m.Perform(Order{2});
    CHECK(m.IsIn<Busy>());
    CHECK(turret.shots == 2);
}
