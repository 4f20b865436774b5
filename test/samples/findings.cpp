// What Validate() finds in each sample's machines: nothing, or exactly the
// findings docs/pictures_and_validation.md explains (states entered or left by
// code rather than by the table).

#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "creature/creature.hpp"
#include "guard/guard.hpp"
#include "platformer/platformer.hpp"
#include "robot/robot.hpp"
#include "rollback/rollback.hpp"
#include "runner/runner.hpp"
#include "weapon/weapon.hpp"

namespace {

/// "unreachable Walk": each finding's kind and the state at fault, one a line.
std::string Summary(const tickfsm::List<tickfsm::Finding>& found) {
    std::string text;
    for (const tickfsm::Finding& f : found) {
        text += std::string(tickfsm::FindingKindName(f.kind));
        if (!f.names.empty()) text += " " + std::string(f.names[0]);
        text += "\n";
    }
    return text;
}

} // namespace

TEST_CASE("The platformer sample validates clean", "[validate][samples]") {
    platformer::PlatformerCharacter hero;
    platformer::PlatformerCharacterStateManager machine(hero);
    CHECK(Summary(machine.Validate()).empty());
}

TEST_CASE("The runner sample validates clean", "[validate][samples]") {
    runner::RunnerCharacter c;
    runner::RunnerStateManager machine(c);
    CHECK(Summary(machine.Validate()).empty());
}

TEST_CASE("The rollback sample's fighter validates clean", "[validate][samples]") {
    rollback::Fighter f;
    rollback::FighterStateManager machine(f);
    CHECK(Summary(machine.Validate()).empty());
}

TEST_CASE("The guard sample's three machines validate clean", "[validate][samples]") {
    guard::Guard g;
    guard::Sensing sensing(g);
    guard::Reaction reaction(g);
    guard::Movement movement(g);
    CHECK(Summary(sensing.Validate()).empty());
    CHECK(Summary(reaction.Validate()).empty());
    CHECK(Summary(movement.Validate()).empty());
}

TEST_CASE("The robot sample's walk and greeting are entered and left by code, as Validate says",
          "[validate][samples]") {
    robot::Robot r;
    robot::RobotStateManager machine(r);
    machine.SetGlobalState<robot::Battery>();
    // WalkTo enters Walk with ForceSetState; the loop reverts Greet to the previous state.
    CHECK(Summary(machine.Validate()) == "unreachable Walk\nno way out Greet\n");
}

TEST_CASE("The weapon sample's states pick their successors in code, as Validate says", "[validate][samples]") {
    weapon::Weapon w;
    weapon::AoWeaponStateManager machine(w);
    // NextState from each state's Perform: the table has states and no transitions.
    CHECK(Summary(machine.Validate()) == "unreachable STATE_RAISE\nunreachable STATE_LOWER\nunreachable "
                                         "STATE_IDLE\nunreachable STATE_FIRING\nunreachable STATE_RELOAD\nno way "
                                         "out STATE_INIT\n");
}

TEST_CASE("The creature sample's swings, flinch and death are entered by code, as Validate says",
          "[validate][samples]") {
    creature::Creature c;
    creature::CreatureStateManager machine(c);
    // The input buffer enters the swings, the hit handler Flinch and Die, Flinch itself leaves for Idle.
    CHECK(Summary(machine.Validate()) == "unreachable Attack1\nunreachable Attack2\nunreachable Attack3\nunreachable "
                                         "Flinch\nunreachable Die\n");
}
