#pragma once
// Seed 000's runner on tickfsm: Playmaker-style states made of small reusable
// actions, moved by named events.
//
//            Jump                 HitObstacle
//   Running -------> Jumping     Running ----------> Die
//      ^                |
//      '----------------'
//          HitGround
//
// Running: MoveConstantly, TriggerAnimator("Run")
// Jumping: JumpAction, TriggerAnimator("Jump")
// Die:     TriggerAnimator("Die")

#include <string>
#include <string_view>

#include <fmt/format.h>
#include <tickfsm/tickfsm.hpp>

#include "common/sample.hpp"
#include "common/trace_option.hpp"

namespace runner {

/// The controller: the seed's RunnerCharacter without the engine.
struct RunnerCharacter {
    float x = 0, y = 0, vy = 0;
    std::string animation;
    std::string console; // everything the run prints, in order

    template <class... Args>
    void Print(fmt::format_string<Args...> format, Args&&... args) {
        samples::PrintLine(console, format, std::forward<Args>(args)...);
    }
};

/// What happens this frame: the key presses and collisions of the script.
struct Frame {
    int number = 0;
    float dt = 1.0f / 60.0f;
};

inline constexpr tickfsm::Event Jump{"Jump"};
inline constexpr tickfsm::Event HitGround{"HitGround"};
inline constexpr tickfsm::Event HitObstacle{"HitObstacle"};

// --- actions: small, reusable, each with optional OnEnter, OnUpdate, OnExit -------

/// Moves the character forward at a constant speed every update.
struct MoveConstantly {
    float speed;
    explicit MoveConstantly(float units_per_second) : speed(units_per_second) {}
    void OnUpdate(RunnerCharacter& c, const Frame& f) { c.x += speed * f.dt; }
};

/// Sets the animator's trigger when its state is entered.
struct TriggerAnimator {
    std::string trigger;
    explicit TriggerAnimator(std::string name) : trigger(std::move(name)) {}
    void OnEnter(RunnerCharacter& c, const Frame& f) {
        c.animation = trigger;
        c.Print("frame {:3}  TriggerAnimator: {}", f.number, trigger);
    }
    // Its trigger is set when it is built and never changes: a snapshot keeps it all the same.
    void Save(tickfsm::SnapshotWriter& w) const { w.Write(std::string_view(trigger)); }
    void Load(tickfsm::SnapshotReader& r) { trigger = r.ReadString(); }
};

/// Launches the character upwards on enter; gravity while airborne.
struct JumpAction {
    float speed = 7.0f;
    void OnEnter(RunnerCharacter& c, const Frame& f) {
        c.vy = speed;
        c.Print("frame {:3}  JumpAction: vy = {}", f.number, speed);
    }
    void OnUpdate(RunnerCharacter& c, const Frame& f) {
        c.vy -= 20.0f * f.dt;
        c.y += c.vy * f.dt;
        if (c.y < 0) c.y = 0;
    }
};

// --- states: they carry no code of their own here, only their actions -------------

struct Running {};
struct Jumping {};
struct Die {};

class RunnerStateManager : public tickfsm::StateManager<RunnerCharacter, Frame> {
public:
    explicit RunnerStateManager(RunnerCharacter& c, float move_speed = 5.0f) : StateManager(c) {
        // Each state's actions are attached through that state's own builder, so
        // the seed's slip (Jumping's and Die's animator triggers added to running)
        // cannot be written.
        SetInitialState<Running>()
            .Do<MoveConstantly>(move_speed)
            .Do<TriggerAnimator>("Run")
            .On(Jump).To<Jumping>()
            .On(HitObstacle).To<Die>();
        From<Jumping>()
            .Do<JumpAction>()
            .Do<TriggerAnimator>("Jump")
            .Do<MoveConstantly>(move_speed)
            .On(HitGround).To<Running>();
        From<Die>()
            .Do<TriggerAnimator>("Die");
        SetTerminal<Die>(); // the run ends there
        for (const tickfsm::Event& event : {Jump, HitGround, HitObstacle}) DeclareEvent(event);
    }
};

/// The scripted run: key presses at frames 10 and 80 (and a press while in the
/// air at 20, which Jumping ignores), the ground hit whenever a jump lands, an
/// obstacle at frame 130. Returns all it printed. `watch`: see common/trace_option.hpp.
inline std::string Run(samples::Watch* watch = nullptr) {
    RunnerCharacter c;
    RunnerStateManager machine(c);
    tickfsm::TracePrinter trace(c.console, {.causes = true});
    samples::Observe(watch, machine, "RunnerCharacter", &trace);
    for (int n = 0; n < 140; ++n) {
        const Frame frame{n};
        samples::Tick(watch, n);
        // Update(): input first, then the FSM, as in the seed.
        if (n == 10 || n == 20 || n == 80) machine.SendEvent(Jump, frame);
        machine.Perform(frame);
        // OnCollisionEnter(): ground when a jump comes down, the obstacle at frame 130.
        if (machine.IsIn<Jumping>() && machine.TicksInState() > 0 && c.y <= 0.0f) machine.SendEvent(HitGround, frame);
        if (n == 130) machine.SendEvent(HitObstacle, frame);
    }
    c.Print("x = {:.2f}, animation = {}, state = {}", c.x, c.animation, machine.CurrentStateName());
    return c.console;
}

} // namespace runner
