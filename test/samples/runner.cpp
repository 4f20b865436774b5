// The runner sample (seed 000): its actions and events.

#include <catch2/catch.hpp>

#include "runner/runner.hpp"

TEST_CASE("The runner jumps on Jump, lands on HitGround and dies on HitObstacle", "[sample][runner]") {
    runner::RunnerCharacter c;
    runner::RunnerStateManager machine(c);
    const runner::Frame frame{};
    machine.Perform(frame);
    CHECK(c.animation == "Run");
    CHECK(machine.SendEvent(runner::Jump, frame));
    CHECK(c.animation == "Jump");
    CHECK(c.vy == 7.0f);
    CHECK_FALSE(machine.SendEvent(runner::HitObstacle, frame)); // only Running handles it
    CHECK(machine.SendEvent(runner::HitGround, frame));
    CHECK(machine.SendEvent(runner::HitObstacle, frame));
    CHECK(machine.IsIn<runner::Die>());
    CHECK(c.animation == "Die");
}

TEST_CASE("MoveConstantly moves by its speed each update", "[sample][runner]") {
    runner::RunnerCharacter c;
    runner::MoveConstantly move(6.0f);
    move.OnUpdate(c, runner::Frame{0, 0.5f});
    CHECK(c.x == 3.0f);
}

TEST_CASE("The runner's scripted run ends in Die", "[sample][runner]") {
    const std::string out = runner::Run();
    CHECK(out.find("Running -> Die (event HitObstacle)") != std::string::npos);
    CHECK(out.find("state = Die") != std::string::npos);
}
