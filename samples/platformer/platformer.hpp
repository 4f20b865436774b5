#pragma once
// The seed-001 platformer character: move, jump, and the double jump of the
// seed's story (no triple jump), as PlatformerCharacterStateManager.
//
//          CanJump               CanDoubleJump
//   Move ----------> Jump -------------------------> DoubleJump
//    ^  <-------------'  HasLanded                        |
//    '----------------------------------------------------'  HasLanded

#include <string_view>

#include <tickfsm/tickfsm.hpp>

namespace platformer {

/// The controller: what the states act on and the conditions read.
struct PlatformerCharacter {
    static constexpr float kGravity = 20.0f;
    static constexpr float kJumpSpeed = 6.0f;
    static constexpr float kRunSpeed = 4.0f;

    float x = 0, y = 0, vx = 0, vy = 0;
    bool grounded = true;
    int jumps = 0; // jumps started since the last landing

    void Move(float direction, float control = 1.0f) { vx = direction * kRunSpeed * control; }
    void Jump() {
        vy = kJumpSpeed;
        grounded = false;
        ++jumps;
    }
    /// Runs after the state machine each tick.
    void Integrate(float dt) {
        vy -= kGravity * dt;
        y += vy * dt;
        x += vx * dt;
        if (y <= 0.0f) {
            y = 0.0f;
            vy = 0.0f;
            grounded = true;
            jumps = 0;
        }
    }
};

/// The action: what the player asks for on one tick.
struct PlayerInput {
    float move = 0;    // -1 .. 1
    bool jump = false; // pressed this tick
};

using Character = PlatformerCharacter;
using Input = PlayerInput;

// --- conditions: plain functions, each testable alone --------------------------

/// Jump from the ground only.
inline bool CanJump(const Character& c, const Input& in) { return in.jump && c.grounded; }

/// A second press in the air jumps again, once; the press that started the jump
/// cannot count twice (it needs a few ticks in the air first).
inline bool CanDoubleJump(const Character& c, const Input& in, float timeInState) {
    return in.jump && !c.grounded && c.jumps == 1 && timeInState >= 0.1f;
}

/// Back on the ground.
inline bool HasLanded(const Character& c) { return c.grounded; }

// --- states ----------------------------------------------------------------------

struct MoveState {
    static constexpr std::string_view Name = "Move";
    void Perform(Character& c, const Input& in) { c.Move(in.move); }
};

struct JumpState {
    static constexpr std::string_view Name = "Jump";
    void OnStateEnter(Character& c, const Input&) { c.Jump(); }
    void Perform(Character& c, const Input& in) { c.Move(in.move, 0.5f); } // air control
};

struct DoubleJumpState {
    static constexpr std::string_view Name = "DoubleJump";
    int started = 0; // a state with data: how many double jumps this character made
    void OnStateEnter(Character& c, const Input&) {
        c.Jump();
        ++started;
    }
    void Perform(Character& c, const Input& in) { c.Move(in.move, 0.5f); }
};

class PlatformerCharacterStateManager : public tickfsm::StateManager<Character, Input> {
public:
    explicit PlatformerCharacterStateManager(Character& character) : StateManager(character) {
        SetInitialState<MoveState>()
            .To<JumpState>(CanJump, "can jump");
        From<JumpState>()
            .To<DoubleJumpState>(CanDoubleJump, "can double jump")
            .To<MoveState>(HasLanded, "has landed");
        From<DoubleJumpState>()
            .To<MoveState>(HasLanded, "has landed");
    }
};

} // namespace platformer
