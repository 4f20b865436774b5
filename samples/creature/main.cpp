// Sample 4: seed 003's creature: a keyed machine (states registered under an
// enum), one Attack class under three keys for a three-hit combo, gates (an
// attack can only be cut short by Flinch or Die; Die cannot be left), a swing
// that ends itself with a forced change to Idle, Flinch made of lambdas, and
// attack presses kept in an input buffer.
//
//   Idle <--stick--> Walk
//   Idle / Walk --press--> Attack1 --over--> Idle --buffered press--> Attack2
//       --over--> Idle --buffered press--> Attack3 --over--> Idle
//   any state --hit--> Flinch --6 ticks--> Idle
//   any state --health 0--> Die
//
// The run prints what the states say and, through a TracePrinter, why the
// state changed, which direct changes a gate refused and what became of each
// buffered press, e.g.
//   tick 16  press: Attack2
//   Creature: refused Attack1 -> Attack2
//   Creature: refused Attack1 -> Attack2
//   tick 17  Slash: lands for 10 damage
//   Attack1 -> Idle (direct)
//   tick 17  Idle: stands at x = 3.0
//   Idle -> Attack2 (direct)
//   tick 17  Backhand: swings (15 damage, 10 ticks)
//   Creature: buffered Attack2 entered
// and checks itself: the lines below must appear, in this order, and the
// creature must end dead with the damage of the swings that landed, or it
// exits 1.

#include <cstdio>
#include <string>
#include <string_view>

#include "common/options.hpp"
#include "common/sample.hpp"
#include "common/trace_option.hpp"
#include "creature.hpp"

namespace {

// The lines the run must print, in this order (other lines may come between).
constexpr std::string_view kPath[] = {
    "...state 'Attack3'", // the keys name the states
    " -> Idle (initial)",
    "Idle -> Walk (condition 0)",
    "Walk -> Idle (condition 0)",
    "tick 10  press: Attack1",
    "Idle -> Attack1 (direct)",
    "tick 10  Slash: swings (10 damage, 8 ticks)",
    "tick 16  press: Attack2", // a tick before Slash ends: it waits in the buffer
    "tick 17  Slash: lands for 10 damage",
    "Attack1 -> Idle (direct)", // the swing ends itself: m.ForceSetState(Idle)
    "Idle -> Attack2 (direct)", // and the buffered press comes out
    "Creature: buffered Attack2 entered",
    "tick 20  Backhand: the stick moves, the swing goes on (tick 3 of 10)", // Attack's gate refuses Walk
    "tick 25  press: Attack3",
    "tick 27  Backhand: lands for 15 damage",
    "Idle -> Attack3 (direct)",
    "tick 27  Overhead: swings (30 damage, 14 ticks)",
    "tick 30  press: Attack1", // too early: it times out before Overhead ends
    "Creature: buffered Attack1 timed out",
    "tick 41  Overhead: lands for 30 damage",
    "Attack3 -> Idle (direct)", // the combo falls back to Idle
    "tick 45  Walk: sets off to the left",
    "Walk -> Flinch (direct)",
    "tick 47  Flinch: hit for 8, health 22",
    "tick 49  press: Attack1", // Flinch's gate holds it...
    "Flinch -> Idle (direct)",
    "Idle -> Attack1 (direct)", // ...until Flinch ends
    "tick 52  Slash: swings (10 damage, 8 ticks)",
    "Idle -> Attack2 (direct)",
    "tick 63  press: Attack3",
    "tick 64  hit: the combo is broken, Attack3 dropped",
    "Attack2 -> Flinch (direct)", // a hit cuts a swing short
    "tick 64  Flinch: hit for 7, health 15",
    "Idle -> Attack1 (direct)",
    "Attack1 -> Die (direct)", // so does death
    "tick 74  Die: the creature falls at x = 2.0",
    "tick 75  press: Attack1",
    "Creature: buffered Attack1 timed out", // Die refuses to be left
};

} // namespace

int main(int argc, char** argv) {
    const samples::Options options = samples::ParseOptions("creature", argc, argv);
    if (options.bad) return 2;
    if (options.show != samples::Show::Run) {
        creature::Creature c;
        creature::CreatureStateManager machine(c);
        return samples::PrintMachines(options, {machine.Describe()});
    }
    samples::TraceOption watch(argc, argv); // --trace FILE, --coverage (common/trace_option.hpp)
    const std::string output = creature::Run(watch.Get());
    std::fputs(output.c_str(), stdout);
    samples::InOrder check("creature", output);
    if (!check.FollowAll(kPath)) return 1;
    // The end: dead, with the damage of the swings that landed (Slash, Backhand,
    // Overhead, Slash: 10 + 15 + 30 + 10 = 65; the two cut short deal nothing).
    if (!check.Follows("tick 80  done: health 0, x = 2.0, 65 damage dealt, state Die")) return 1;
    std::fputs("creature: the expected path happened\n", stdout);
    return 0;
}
