#pragma once
// tickfsm::Observer: what a machine did and why. Attached with
// SetObserver; a machine without one pays nothing for it.

#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>

#include "event.hpp"

namespace tickfsm {

/// What made a machine change state.
enum class Cause : std::uint8_t {
    Initial,   // the first Perform entered the initial state
    Condition, // a transition's condition held (TransitionInfo::condition says which)
    Event,     // an event was sent (TransitionInfo::event says which)
    Request,   // a state asked for its successor with NextState
    Direct,    // code set the state directly
    Push,      // a push buried the current state under the new one
    Pop,       // a pop left the top state for the one buried last
};

/// What became of a request held by an input buffer.
enum class BufferOutcome : std::uint8_t {
    Entered,  // the machine entered the state
    Replaced, // a newer request took its place
    TimedOut, // its time ran out before the machine would enter the state
};

/// One change of state.
struct TransitionInfo {
    std::string_view machine;       // the machine's name (SetObserver)
    std::string_view from;          // empty for Cause::Initial, and for a region a pop resumes
    std::string_view to;
    Cause cause = Cause::Direct;
    /// A condition's or a push or pop transition's index among its state's
    /// transitions, in declaration order; kNoCondition for a push or pop asked
    /// for by code or a hook.
    std::size_t condition = 0;
    const Event* event = nullptr;   // Cause::Event only
    std::string_view region;        // the region whose state changed; empty for the machine's own states
    /// The state the change named: `to` itself, or the composite `to` was
    /// entered through (a change into a composite enters down to a leaf).
    /// A change to a composite that holds `from` leaves and re-enters it.
    /// Empty in a TransitionInfo made by hand: read it as `to`.
    std::string_view target;
    /// The state whose transition list held the condition transition that
    /// fired (`condition` counts in that list): `from` or one of its
    /// ancestors, or "FromAny()". Empty for an event's and for a change asked
    /// for by code or a hook.
    std::string_view owner;
    /// `condition` of a push or pop that no transition made.
    static constexpr std::size_t kNoCondition = static_cast<std::size_t>(-1);
};

/// Receives what a machine does. Every member is optional.
class Observer {
public:
    virtual ~Observer() = default;
    /// The machine initialized: its states in order, `initial` indexes the initial one.
    virtual void OnInitialized(std::string_view machine, std::span<const std::string_view> states,
                               std::size_t initial) {
        (void)machine, (void)states, (void)initial;
    }
    /// A state was entered (after the TransitionInfo that says why).
    virtual void OnStateEntered(std::string_view machine, std::string_view state) { (void)machine, (void)state; }
    /// The machine changed state, or entered its initial state.
    virtual void OnTransition(const TransitionInfo& info) { (void)info; }
    /// An event changed nothing: the current state has no transition for it, or
    /// (`state` empty) the machine has not started.
    virtual void OnUnhandledEvent(std::string_view machine, std::string_view state, const Event& event) {
        (void)machine, (void)state, (void)event;
    }
    /// A gate refused a direct change (TrySetState, TryResetState, a revert,
    /// an input buffer's retry): `from`'s CanExitState or `to`'s CanEnterState
    /// said no. A condition's transition that a gate holds back is not
    /// reported: it is tried again every tick.
    virtual void OnRefused(std::string_view machine, std::string_view from, std::string_view to) {
        (void)machine, (void)from, (void)to;
    }
    /// An input buffer's request was entered, replaced or timed out.
    virtual void OnBufferedRequest(std::string_view machine, std::string_view state, BufferOutcome outcome) {
        (void)machine, (void)state, (void)outcome;
    }
    /// Anything else worth a line in a log.
    virtual void OnWarning(std::string_view machine, std::string_view message) { (void)machine, (void)message; }
};

} // namespace tickfsm
