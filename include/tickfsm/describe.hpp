#pragma once
// What a machine is made of, as data: its states with their parents, and its
// transitions in the order they are tried. The ground for pictures,
// validation and inspectors. The pictures (WriteDot, WriteMermaid) and the
// checks (Validate) are compiled once, in lib/describe.cpp.

#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>

#include "list.hpp"
#include "text.hpp"
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
    bool terminal = false;            // SetTerminal<S>(): meant to have no way out
    bool keyed = false;               // named by a key (AddState<S>(key), AddDelegateState(key)): calls name it by key
    bool on_enter = false;            // it has an OnStateEnter hook
    bool can_enter = false;           // it has a CanEnterState gate
    bool can_exit = false;            // it has a CanExitState gate
    std::size_t actions = 0;          // how many actions its Do<X>() list holds
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
    /// Its place in `from`'s order, from 0, in the order tried: one numbering
    /// for the condition transitions (Condition, WhenDone, Push and Pop
    /// together), one for the events, one for the typed events.
    std::size_t order = 0;
    bool forced = false;   // skips the gates
    bool any = false;
    bool always = false;   // no condition (To<T>()), or a typed event with no guard: it always holds
    Event event;           // Event and Typed: the event (a typed event is named after its type)
    Text condition;        // the condition's name given in the builder (To<T>(condition, "name")); empty if none
};

/// A machine's whole table as one value (StateManager::Describe(), Crowd::Describe()).
struct Description {
    Text name;                        // what pictures title it; the observer's name if one was given
    List<StateInfo> states;           // in id order; the any-state pseudo-state is not one of them (use Find(id))
    List<TransitionRule> transitions; // the any-state ones first, then by state, in the order tried
    List<Event> events;               // DeclareEvent(...): the events the machine expects to be sent
    StateId global;                          // the global state when described (SetGlobalState); not Valid() if none
    std::size_t push_capacity = 0;           // SetPushCapacity<N>(): N; 0 without a push stack

    /// The state of `id`, or null.
    const StateInfo* Find(StateId id) const noexcept {
        return id.value < states.size() && states[id.value].id == id ? &states[id.value] : FindSlow(id);
    }
    /// The state named `name`, or null.
    const StateInfo* Find(std::string_view state_name) const noexcept {
        for (const StateInfo& s : states)
            if (s.name == state_name) return &s;
        return nullptr;
    }

private:
    const StateInfo* FindSlow(StateId id) const noexcept {
        for (const StateInfo& s : states)
            if (s.id == id) return &s;
        return nullptr;
    }
};

/// How a transition's condition reads: its name, or "condition 2 of Idle"
/// (the number is its place among the state's condition transitions, from 0,
/// as TracePrinter's "(condition 2)"); events read "event Jump".
Text ConditionText(const Description& machine, const TransitionRule& rule);

/// The machine in Graphviz DOT: one digraph, composite states as clusters,
/// the initial state marked by an arrow from a point, edges labelled with
/// their order and condition or event, forced edges dashed, push and pop
/// edges bold, any-state edges from an "any state" node.
Text WriteDot(const Description& machine);
/// Several machines that run side by side (an Ensemble's), one cluster each, in one digraph.
Text WriteDot(std::span<const Description> machines);

/// The machine as a Mermaid `stateDiagram-v2` (what Markdown viewers draw),
/// titled with its name if it has one: composite states as `state X { ... }`,
/// `[*] -->` the initial state, terminal states `--> [*]`; forced edges say
/// "(forced)" in their label, as Mermaid has no dashed transitions.
Text WriteMermaid(const Description& machine);
/// Several machines side by side, each a composite state named after it.
Text WriteMermaid(std::span<const Description> machines);

/// What Validate() finds.
enum class FindingKind : std::uint8_t {
    Unreachable,     // no transition reaches the state from the initial state
    NoWayOut,        // once in the state the machine never leaves it, and no SetTerminal state is or holds it
    NeverTried,      // an earlier transition of the same state (or of a parent) always holds first
    EventNotHandled, // a DeclareEvent'd event no state has a transition on
    RuleCannotApply, // a history, pass-through or terminal rule that can have no effect
};

/// One thing Validate() found, naming the states it concerns.
struct Finding {
    FindingKind kind = FindingKind::Unreachable;
    List<StateId> states;           // the states concerned, the one at fault first
    List<std::string_view> names;   // their names, in the same order
    Text message;                   // one sentence naming them
};

/// "unreachable", "no way out", ...: the kind as the messages spell it.
std::string_view FindingKindName(FindingKind kind) noexcept;

/// What in `machine` cannot work as written (see FindingKind), in state order.
/// Only the table is read: a state entered by a hook's TrySetState, a
/// NextState request or an input buffer counts as unreachable, one left that
/// way as having no way out (see docs/pictures_and_validation.md).
List<Finding> Validate(const Description& machine);

} // namespace tickfsm
