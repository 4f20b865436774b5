// The platformer sample's conditions, each tested alone, and its machine.

#include <catch2/catch.hpp>

#include "platformer/platformer.hpp"

using namespace platformer;

TEST_CASE("CanJump holds when jump is pressed on the ground", "[sample][platformer]") {
    Character grounded;
    Character airborne;
    airborne.grounded = false;
    CHECK(CanJump(grounded, {0.0f, true}));
    CHECK_FALSE(CanJump(grounded, {1.0f, false}));
    CHECK_FALSE(CanJump(airborne, {0.0f, true}));
}

TEST_CASE("CanDoubleJump holds once in the air, after a short delay", "[sample][platformer]") {
    Character c;
    c.Jump(); // in the air, first jump
    CHECK(CanDoubleJump(c, {0.0f, true}, 0.1f));
    CHECK_FALSE(CanDoubleJump(c, {0.0f, true}, 0.05f)); // the same press that jumped
    CHECK_FALSE(CanDoubleJump(c, {0.0f, false}, 0.5f));
    c.Jump(); // already double-jumped: no triple jump
    CHECK_FALSE(CanDoubleJump(c, {0.0f, true}, 0.5f));
    Character grounded;
    CHECK_FALSE(CanDoubleJump(grounded, {0.0f, true}, 0.5f));
}

TEST_CASE("HasLanded holds on the ground", "[sample][platformer]") {
    Character c;
    CHECK(HasLanded(c));
    c.Jump();
    CHECK_FALSE(HasLanded(c));
}

TEST_CASE("The platformer machine double-jumps once and lands", "[sample][platformer]") {
    Character hero;
    PlatformerCharacterStateManager machine(hero);
    machine.Perform({});
    CHECK(machine.IsIn<MoveState>());
    machine.Perform({0.0f, true});
    CHECK(machine.IsIn<JumpState>());
    for (int i = 0; i < 6; ++i) {
        hero.Integrate(machine.FixedDeltaTime());
        machine.Perform({});
    }
    machine.Perform({0.0f, true});
    CHECK(machine.IsIn<DoubleJumpState>());
    hero.Integrate(machine.FixedDeltaTime());
    machine.Perform({0.0f, true}); // a third press does nothing
    CHECK(machine.IsIn<DoubleJumpState>());
    for (int i = 0; i < 200 && !machine.IsIn<MoveState>(); ++i) {
        hero.Integrate(machine.FixedDeltaTime());
        machine.Perform({});
    }
    CHECK(machine.IsIn<MoveState>());
    CHECK(machine.State<DoubleJumpState>().started == 1);
}
