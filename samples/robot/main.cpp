// Sample 5: seed 004's robot: a tile map, an A* path finder, and a machine with
// a global state (the battery) and a revert to the previous state (after a
// greeting, the robot goes back to what it was doing).
//
//   Stand --WalkTo(tile): ForceSetState<Walk>(path)--> Walk --path done--> Stand
//   Stand / Walk --hello--> Greet --RevertToPreviousState()--> Stand / Walk
//   Battery (global): drains every tick beside the current state
//
//   the map     x: 01234567
//           y 0    ....#...
//             1    .##.#.#.
//             2    ....#.#.
//             3    .#....#.
//             4    .#.##..#
//             5    ...#..#.      (7,5) is open but walled in
//
// The run prints what the states say and, through a TracePrinter, why the
// state changed, e.g.
//   Walk -> Greet (condition 0)
//   tick  7  Greet: stops at (3,1) to talk
//   tick  7  Greet: "Hello there!"
//   ...
//   Greet -> Walk (direct)
//   tick  9  Walk: resuming at (3,1), 7 tiles to (5,0)
// and checks itself: the lines below must appear, in this order, and the robot
// must end on the last tapped tile with one battery point spent per tick, or it
// exits 1.

#include <cstdio>
#include <string>
#include <string_view>

#include <fmt/format.h>

#include "common/options.hpp"
#include "common/sample.hpp"
#include "common/trace_option.hpp"
#include "robot.hpp"

namespace {

// The lines the run must print, in this order (other lines may come between).
constexpr std::string_view kPath[] = {
    " -> Stand (initial)",
    "tick  1  Battery: 75%", // set before the first tick: entered once the machine starts
    "Stand -> Walk (direct)",
    "tick  3  Walk: 11 tiles from (0,0) to (5,0)", // round the wall at x = 4
    "Walk -> Greet (condition 0)",
    "tick  7  Greet: stops at (3,1) to talk",
    "tick  9  Greet: \"Well, back to work.\"",
    "Greet -> Walk (direct)", // the revert
    "tick  9  Walk: resuming at (3,1), 7 tiles to (5,0)",
    "tick 10  Walk: (3,2), 6 to go",
    "tick 16  WalkTo (4,2): blocked, ignored",
    "Walk -> Stand (direct)",
    "tick 16  Stand: at (5,0)",
    "tick 22  WalkTo (7,5): no path, ignored",
    "tick 24  Walk: 10 tiles from (5,0) to (0,5)",
    "Walk -> Stand (direct)", // a new tap while walking: stand first
    "tick 28  Stand: at (4,3)",
    "Stand -> Walk (direct)",
    "tick 28  Walk: 9 tiles from (4,3) to (7,3)",
    "tick 36  Stand: at (7,3)",
    "Stand -> Greet (condition 0)",
    "Greet -> Stand (direct)", // the revert, to standing this time
    "tick 46  Walk: 13 tiles from (7,3) to (2,5)",
    "tick 50  Battery: low, 25% left",
    "tick 58  Stand: at (2,5)",
    "tick 60  Battery: low, 15% left",
};

} // namespace

int main(int argc, char** argv) {
    const samples::Options options = samples::ParseOptions("robot", argc, argv);
    if (options.bad) return 2;
    if (options.show != samples::Show::Run) {
        robot::Robot r;
        robot::RobotStateManager machine(r);
        machine.SetGlobalState<robot::Battery>(); // as the run sets it
        return samples::PrintMachines(options, {machine.Describe()});
    }
    samples::TraceOption watch(argc, argv); // --trace FILE, --coverage (common/trace_option.hpp)
    const std::string output = robot::Run(watch.Get());
    std::fputs(output.c_str(), stdout);
    samples::InOrder check("robot", output);
    if (!check.FollowAll(kPath)) return 1;
    // The end: on the last tapped tile, one battery point spent per tick.
    const std::string end = fmt::format("done: at {}, battery {}%, state Stand", robot::LastTap(),
                                        robot::kStartBattery - robot::kTicks);
    if (!check.Follows(end)) return 1;
    std::fputs("robot: the expected path happened\n", stdout);
    return 0;
}
