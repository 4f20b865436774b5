// Sample 2: seed 000's runner: Playmaker-style states made of reusable actions
// (MoveConstantly, TriggerAnimator, JumpAction), moved by events (Jump,
// HitGround, HitObstacle).
//
//   Running --Jump--> Jumping --HitGround--> Running --HitObstacle--> Die
//
// It prints the actions and transitions, e.g.
//   Running -> Jumping (event Jump)
//   frame  10  JumpAction: vy = 7
// and checks itself: the lines below must appear, in this order, or it exits 1.

#include <cstdio>
#include <string>
#include <string_view>

#include "common/options.hpp"
#include "common/sample.hpp"
#include "common/trace_option.hpp"
#include "runner.hpp"

namespace {

// The lines the run must print, in this order (other lines may come between).
constexpr std::string_view kPath[] = {
    " -> Running (initial)",
    "Running -> Jumping (event Jump)",
    "frame  10  JumpAction: vy = 7",
    "The current state Jumping has no transition for event Jump.", // the press at frame 20, in the air
    "Jumping -> Running (event HitGround)",
    "frame  50  TriggerAnimator: Run", // landed 40 frames later
    "Running -> Jumping (event Jump)",
    "frame  80  JumpAction: vy = 7",
    "Jumping -> Running (event HitGround)",
    "Running -> Die (event HitObstacle)",
    "frame 130  TriggerAnimator: Die",
    "x = ",
};

} // namespace

int main(int argc, char** argv) {
    const samples::Options options = samples::ParseOptions("runner", argc, argv);
    if (options.bad) return 2;
    if (options.show != samples::Show::Run) {
        runner::RunnerCharacter c;
        runner::RunnerStateManager machine(c);
        return samples::PrintMachines(options, {machine.Describe()});
    }
    samples::TraceOption watch(argc, argv); // --trace FILE, --coverage (common/trace_option.hpp)
    const std::string output = runner::Run(watch.Get());
    std::fputs(output.c_str(), stdout);
    samples::InOrder check("runner", output);
    if (!check.FollowAll(kPath)) return 1;
    std::fputs("runner: the expected path happened\n", stdout);
    return 0;
}
