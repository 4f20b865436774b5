// Sample 3: seed 002's aoWeapon, a table-driven machine whose states pick their
// own successor with NextState, printed in the seed's format.
//
//   STATE_INIT -> STATE_RAISE -> STATE_IDLE -> STATE_LOWER -> (draw) STATE_RAISE
//   STATE_IDLE -> (trigger) STATE_FIRING -> (clip empty) STATE_RELOAD -> STATE_IDLE
//
// The run prints (first lines, exactly as the seed shows them):
//   Initializing state machine 'aoWeapon'
//   ...state 'STATE_INIT' (initial state)
//   ...
//    -> STATE_INIT
//   Let's give som ammo and go to idle immediately
//   ammo: 60 clip ammo: 30
//   STATE_INIT -> STATE_RAISE
//   aoWeaponStateRaising::Run: raising weapon tick 0 of 4
// It checks itself: the seed's printed run (below) must be the start of its
// output, or it prints the first difference and exits with 1. The whole output
// is compared with samples/weapon/expected_output.txt by the tests.

#include <cstdio>
#include <sstream>
#include <string>
#include <string_view>

#include "common/options.hpp"
#include "common/trace_option.hpp"
#include "weapon.hpp"

namespace {

// The output the seed shows, line for line.
constexpr std::string_view kSeedRun = R"(Initializing state machine 'aoWeapon'
...state 'STATE_INIT' (initial state)
...state 'STATE_RAISE'
...state 'STATE_LOWER'
...state 'STATE_IDLE'
...state 'STATE_FIRING'
...state 'STATE_RELOAD'
Successfully initialized 6 fsmStates

 -> STATE_INIT
Let's give som ammo and go to idle immediately
ammo: 60 clip ammo: 30
STATE_INIT -> STATE_RAISE
aoWeaponStateRaising::Run: raising weapon tick 0 of 4
aoWeaponStateRaising::Run: raising weapon tick 1 of 4
aoWeaponStateRaising::Run: raising weapon tick 2 of 4
aoWeaponStateRaising::Run: raising weapon tick 3 of 4
aoWeaponStateRaising::Run: raising weapon tick 4 of 4
STATE_RAISE -> STATE_IDLE
aoWeaponStateIdle::Run: Idle weapon tick 0 of 8
aoWeaponStateIdle::Run: Idle weapon tick 1 of 8
aoWeaponStateIdle::Run: Idle weapon tick 2 of 8
aoWeaponStateIdle::Run: Idle weapon tick 3 of 8
aoWeaponStateIdle::Run: Idle weapon tick 4 of 8
aoWeaponStateIdle::Run: Idle weapon tick 5 of 8
aoWeaponStateIdle::Run: Idle weapon tick 6 of 8
aoWeaponStateIdle::Run: Idle weapon tick 7 of 8
aoWeaponStateIdle::Run: Idle weapon tick 8 of 8
STATE_IDLE -> STATE_LOWER
aoWeaponStateLowering::Run: lowering weapon tick 0 of 4
aoWeaponStateLowering::Run: lowering weapon tick 1 of 4
aoWeaponStateLowering::Run: lowering weapon tick 2 of 4
aoWeaponStateLowering::Run: lowering weapon tick 3 of 4
aoWeaponStateLowering::Run: lowering weapon tick 4 of 4
)";

} // namespace

int main(int argc, char** argv) {
    const samples::Options options = samples::ParseOptions("weapon", argc, argv);
    if (options.bad) return 2;
    if (options.show != samples::Show::Run) {
        weapon::Weapon w;
        weapon::AoWeaponStateManager machine(w);
        return samples::PrintMachines(options, {machine.Describe()});
    }
    samples::TraceOption watch(argc, argv); // --trace FILE, --coverage (common/trace_option.hpp)
    const std::string output = weapon::Run(watch.Get());
    std::fputs(output.c_str(), stdout);
    if (output.compare(0, kSeedRun.size(), kSeedRun) != 0) {
        std::istringstream got(output), want{std::string(kSeedRun)};
        std::string g, w;
        for (int line = 1; std::getline(want, w); ++line) {
            std::getline(got, g);
            if (g != w) {
                std::fprintf(stderr, "weapon: line %d differs from the seed's run\n  seed: %s\n  got:  %s\n", line,
                             w.c_str(), g.c_str());
                break;
            }
        }
        return 1;
    }
    std::fputs("weapon: the seed's run is reproduced line for line\n", stdout);
    return 0;
}
