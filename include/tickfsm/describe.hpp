#pragma once
// What a machine is made of, as data: its states with their parents, and its
// transitions in the order they are tried. The ground for pictures,
// validation and inspectors.

#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

#include "detail/tree.hpp"
#include "event.hpp"
#include "state_ref.hpp"

namespace tickfsm {

/// One state of a machine (StateManager::States()).
struct StateInfo {
    StateId id;
    std::string_view name;
    StateId parent;                   // not Valid() at the top level; a region's is its parallel state
    StateId initial;                  // its initial substate; not Valid() for a leaf
    History history = History::None;  // what it re-enters (composites)
    bool pass_through = false;
    bool parallel = false;            // it holds regions (SetRegions), all active at once
    bool region = false;              // a region of its parent, a parallel state
    bool is_initial = false;          // the state the machine starts in
};

/// What a transition is.
enum class TransitionKind : std::uint8_t {
    Condition, // From<S>().To<T>(condition) (ForceTo: `forced`)
    WhenDone,  // From<S>().ToWhenDone<T>(condition): waits for the current state to be done
    Push,      // From<S>().Push<T>(condition)
    Pop,       // From<S>().Pop(condition): `to` is not Valid(), it is the state buried last
    Event,     // From<S>().On(event).To<T>()
    Typed,     // From<S>().On<E>(guard).To<T>(), or .Handle() (`to` not Valid())
};

/// One transition (StateManager::Transitions()). `any` marks FromAny()'s,
/// whose `from` is not Valid().
struct TransitionRule {
    StateId from;
    StateId to;
    TransitionKind kind = TransitionKind::Condition;
    std::size_t order = 0; // its place among `from`'s transitions of its kind, from 0, in the order tried
    bool forced = false;   // skips the gates
    bool any = false;
    Event event;           // Event and Typed: the event (a typed event is named after its type)
};

} // namespace tickfsm
