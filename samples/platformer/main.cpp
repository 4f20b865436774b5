// Sample 1: the seed-001 platformer character.
//
//   Move --CanJump--> Jump --CanDoubleJump--> DoubleJump
//     ^<--HasLanded----'                         |
//     '<--------------HasLanded------------------'
//
// A scripted stream of inputs drives PlatformerCharacterStateManager for 150
// ticks; one line a tick is printed, e.g.
//   tick  10  Jump        t=0.000  x=0.667 y=0.000 vy=6.000 grounded=false jumps=1
// The run checks itself: the state changes below must happen on these ticks,
// or the program prints the difference and exits with 1.

#include <cstdio>
#include <string_view>
#include <vector>

#include <fmt/format.h>

#include "common/options.hpp"
#include "common/trace_option.hpp"
#include "platformer.hpp"

namespace {

struct Change {
    int tick;
    std::string_view state;
    friend bool operator==(const Change&, const Change&) = default;
};

// The expected path: tick on which each state was entered.
const std::vector<Change> kExpectedPath = {
    {0, "Move"},        // initial state
    {10, "Jump"},       // first press, on the ground
    {20, "DoubleJump"}, // second press in the air
    {62, "Move"},       // landed (the press at tick 30 was a would-be triple jump: ignored)
    {80, "Jump"},       // a single jump this time
    {115, "Move"},      // landed 0.6 s later (vy 6, gravity 20)
    {120, "Jump"},      // jump while running left; still in the air when the script ends
};

platformer::PlayerInput ScriptedInput(int tick) {
    platformer::PlayerInput in;
    in.move = tick < 100 ? 1.0f : -1.0f;
    in.jump = tick == 10 || tick == 20 || tick == 30 || tick == 80 || tick == 120;
    return in;
}

} // namespace

int main(int argc, char** argv) {
    const samples::Options options = samples::ParseOptions("platformer", argc, argv);
    if (options.bad) return 2;
    samples::TraceOption watch(argc, argv); // --trace FILE, --coverage (common/trace_option.hpp)
    platformer::PlatformerCharacter hero;
    platformer::PlatformerCharacterStateManager machine(hero);
    if (options.show != samples::Show::Run) return samples::PrintMachines(options, {machine.Describe()});
    samples::Observe(watch.Get(), machine, "Platformer", nullptr);
    const float dt = machine.FixedDeltaTime();

    std::vector<Change> path;
    for (int tick = 0; tick < 150; ++tick) {
        samples::Tick(watch.Get(), tick);
        const auto before = machine.CurrentState();
        const bool was_started = machine.IsStarted();
        machine.Perform(ScriptedInput(tick));
        if (!was_started || machine.CurrentState() != before || machine.TicksInState() == 0)
            path.push_back({tick, machine.CurrentStateName()});
        fmt::print("tick {:3}  {:<10}  t={:.3f}  x={:.3f} y={:.3f} vy={:.3f} grounded={} jumps={}\n", tick,
                   machine.CurrentStateName(), machine.TimeInState(), hero.x, hero.y, hero.vy, hero.grounded,
                   hero.jumps);
        hero.Integrate(dt);
    }

    if (path != kExpectedPath) {
        fmt::print(stderr, "platformer: the path differs from the expected one\n");
        for (const auto& c : path) fmt::print(stderr, "  got      {:3} {}\n", c.tick, c.state);
        for (const auto& c : kExpectedPath) fmt::print(stderr, "  expected {:3} {}\n", c.tick, c.state);
        return 1;
    }
    fmt::print("platformer: path as expected ({} state changes, {} double jump(s))\n", path.size(),
               machine.State<platformer::DoubleJumpState>().started);
    return 0;
}
