// Sample 6: the guard of guard.hpp, three machines in an Ensemble:
//
//   sensing:   Quiet ──noise──▶ Listening ──after 0.1 s──▶ Quiet
//              any state ──enemy in sight──▶ Watching ──enemy gone──▶ Quiet
//              posts Heard{x} and EnemySeen{x} to reaction, EnemyLost when it loses sight
//   reaction:  Calm (history) = {Patrol (initial), Investigate}
//                Patrol ──Heard──▶ Investigate ──there, after 0.1 s──▶ Patrol
//              Combat = {Chase (initial), Strike}
//                Chase ──in reach──▶ Strike ──after 0.05 s──▶ Chase
//              Calm ──EnemySeen──▶ Combat ──EnemyLost──▶ Calm (back where it was)
//              Stunned: pushed from any state by a flash, popped after 0.05 s
//   movement:  any state ──still, or there──▶ Still
//              any state ──run pace, not there──▶ Run
//              any state ──walk pace, not there──▶ Walk
//              (following the goal and pace reaction sets)
//
// It prints the machines' transitions and the guard's moves, e.g. when the
// enemy comes into sight:
//   Listening -> Watching (condition 0 of FromAny())
//   Investigate -> Chase (event EnemySeen)
//   tick 10  reaction: enemy at 8
//   Still -> Run (condition 1 of FromAny())
//   tick 10  guard at 1 (Combat/Chase)
// and checks itself: the lines below must appear in this order (other lines
// may come between), or it exits 1.

#include <cstdio>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "common/options.hpp"
#include "common/sample.hpp"
#include "common/trace_option.hpp"
#include "guard/guard.hpp"

namespace {

constexpr std::string_view kPath[] = {
    "Quiet -> Listening (condition 0)",      // sensing hears the noise...
    "Patrol -> Investigate (event Heard)",   // ...and tells reaction, in the same tick
    "tick  5  reaction: heard something at 0",
    "Listening -> Watching (condition 0 of FromAny())",
    "Investigate -> Chase (event EnemySeen)", // Calm/Investigate -> Combat/Chase
    "tick 10  reaction: enemy at 8",
    "Still -> Run (condition 1 of FromAny())", // movement follows reaction's pace
    "Chase -> Stunned (push)",                // the flash: Combat/Chase buried
    "tick 14  reaction: stunned",
    "tick 14  guard at 4 (Stunned)",
    "tick 17  reaction: shakes it off",
    "Stunned -> Chase (pop)",                 // back to Combat/Chase
    "Chase -> Strike (condition 0)",
    "tick 19  reaction: strike 1",
    "Watching -> Quiet (condition 0)",
    "Strike -> Investigate (event EnemyLost)", // Calm's history: where it was
    "Investigate -> Patrol (condition 0)",
    "tick 36  guard at",
};

} // namespace

int main(int argc, char** argv) {
    const samples::Options options = samples::ParseOptions("guard", argc, argv);
    if (options.bad) return 2;
    if (options.show != samples::Show::Run) {
        guard::Guard g;
        guard::Sensing sensing(g);
        guard::Reaction reaction(g);
        guard::Movement movement(g);
        std::vector<tickfsm::Description> machines{sensing.Describe(), reaction.Describe(), movement.Describe()};
        machines[0].name = "sensing";
        machines[1].name = "reaction";
        machines[2].name = "movement";
        return samples::PrintMachines(options, std::move(machines));
    }
    samples::TraceOption watch(argc, argv); // --trace FILE, --coverage (common/trace_option.hpp)
    int strikes = 0;
    const std::string output = guard::RunGuard(&strikes, watch.Get());
    std::fputs(output.c_str(), stdout);
    samples::InOrder check("guard", output);
    if (!check.FollowAll(kPath) || strikes != 1) return 1;
    std::fputs("guard: the expected path happened\n", stdout);
    return 0;
}
