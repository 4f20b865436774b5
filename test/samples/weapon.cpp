// The weapon sample (seed 002) against its golden file, and its rules.

#include <catch2/catch.hpp>

#include <fstream>
#include <sstream>
#include <string>

#include "weapon/weapon.hpp"

namespace {
std::string ReadFile(const std::string& path) {
    std::ifstream in(path);
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}
} // namespace

TEST_CASE("The weapon's run matches its golden file line for line", "[sample][weapon]") {
    const std::string golden = ReadFile(TICKFSM_SAMPLES_DIR "/weapon/expected_output.txt");
    REQUIRE_FALSE(golden.empty());
    CHECK(weapon::Run() == golden);
}

TEST_CASE("Each weapon state's Init runs once before the weapon is raised", "[sample][weapon]") {
    weapon::Weapon w;
    weapon::AoWeaponStateManager machine(w);
    CHECK(machine.State<weapon::Idle>().tick_duration == 0);
    machine.Initialize();
    CHECK(machine.State<weapon::Raise>().tick_duration == 4);
    CHECK(machine.State<weapon::Idle>().tick_duration == 8);
    CHECK(machine.State<weapon::Reload>().tick_duration == 6);
    CHECK_FALSE(machine.IsStarted());
    machine.Perform({});
    CHECK(machine.IsIn<weapon::Init>());
}

TEST_CASE("Initialize closes the configuration", "[sample][weapon]") {
    weapon::Weapon w;
    weapon::AoWeaponStateManager machine(w);
    machine.Initialize();
    CHECK_THROWS_AS(machine.From<weapon::Idle>(), tickfsm::ConfigError);
}
