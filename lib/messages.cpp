// Every text the headers report: the messages of Message and of a Crowd's
// mistakes (CrowdMistake), written here once rather than at each call site in
// the headers, which every file that uses tickfsm compiles.

#include <cstdio>
#include <cstdlib>

#include <tickfsm/config_error.hpp>
#include <tickfsm/detail/chain.hpp> // Any
#include "format_text.hpp"

namespace tickfsm {

ConfigError::ConfigError(std::string_view text) : message(detail::MakeShared<const Text>(text)) {}

const char* ConfigError::what() const noexcept { return message->c_str(); }

} // namespace tickfsm

namespace tickfsm::detail {

namespace {

std::string_view TextOf(Message id) {
    switch (id) {
    case Message::FromOnToCall:
        return "From<{}>().On({}).To<{}>()";
    case Message::FromOnTypedCall:
        return "From<{}>().On<{}>()";
    case Message::FromDoCall:
        return "From<{}>().Do<{}>()";
    case Message::ActionArguments:
        return "From<{}>().Do<{}>(...): {}";
    case Message::KeyEnumName:
        return "{}::{}";
    case Message::KeyEnumValue:
        return "{}({})";
    case Message::KeyValue:
        return "{}";
    case Message::InitialStateTwice:
        return "SetInitialState<{}>(): the initial state is already {}; a machine has one initial state "
               "(use From<{}>() to add transitions from {})";
    case Message::EventTransitionTwice:
        return "From<{}>().On({}).To<{}>(): state {} already has a transition on event {} (to {}); a "
               "state has one transition per event";
    case Message::PushCapacityTwice:
        return "SetPushCapacity<{}>(): the push capacity is set already ({}); set it once";
    case Message::EventTransitionTwiceShared:
        return "From<{}>().On({}).To<{}>(): state {} already has a transition on event {}; a state has "
               "one transition per event";
    case Message::NoStateUnderKey:
        return "{}({}): no state is registered under that key (AddState<S>(key) first)";
    case Message::KeyedFromToCall:
        return "From({}).To({})";
    case Message::KeyedFromOnToCall:
        return "From({}).On({}).To({})";
    case Message::KeyedEventTransitionTwice:
        return "From({}).On({}).To({}): state {} already has a transition on event {} (to {})";
    case Message::KeyedFromDoCall:
        return "From({}).Do<{}>()";
    case Message::SendEventInsideHook:
        return "SendEvent({}) called on the machine from inside one of its hooks or conditions (state "
               "{}); a condition sends nothing (it may run in a dry run); in a hook, take a "
               "tickfsm::Machine<Controller, Action>& as its last parameter and call SendEvent on it";
    case Message::SendTypedEventInsideHook:
        return "SendEvent({}) called on the machine from inside one of its hooks or conditions (state "
               "{}); a condition sends nothing (it may run in a dry run); in a hook, take a "
               "tickfsm::Machine<Controller, Action>& as its last parameter and call SendEvent on it";
    case Message::SetObserverInsideHook:
        return "SetObserver() called from inside a hook or condition of this machine (state {}); attach "
               "or detach the observer between ticks";
    case Message::ResetInsideHook:
        return "Reset() called from inside a hook or condition of this machine (state {}); reset from "
               "outside the tick";
    case Message::NotAStateOfMachine:
        return "{}<{}>(): {} is not a state of this machine; configure it with From<{}>() or a transition "
               "To<{}>() before the machine starts";
    case Message::ChangeInsideHookTo:
        return "{}({}) called on the machine from inside one of its hooks or conditions (state {}); a "
               "condition changes nothing (it may run in a dry run); in a hook, take a "
               "tickfsm::Machine<Controller, Action>& as its last parameter and call it there";
    case Message::ChangeInsideHook:
        return "{}() called on the machine from inside one of its hooks or conditions (state {}); a "
               "condition changes nothing (it may run in a dry run); in a hook, take a "
               "tickfsm::Machine<Controller, Action>& as its last parameter and call it there";
    case Message::CallInsideHook:
        return "{}() called from inside a hook or condition of this machine (state {}); {} between ticks";
    case Message::RestoreGlobalOutOfRange:
        return "Restore(): the snapshot's global state is state {} of {}";
    case Message::AddStateCall:
        return "AddState<{}>({})";
    case Message::DelegateHookCall:
        return "a delegate state's {}()";
    case Message::KeyedStateClass:
        return "State<{}>({}): the state under that key is a {}; ask for its own class";
    case Message::KeyedStateDelegate:
        return "State<{}>({}): the state under that key is a delegate state (AddDelegateState), made of lambdas: "
               "it has no object to ask for; keep its data in the controller (or in what its lambdas capture), "
               "or make it a state of a class, AddState<S>(key), and ask for that class";
    case Message::TaggedStateDelegate:
        return "State<{}>(): {} names a delegate state (AddDelegateState<{}>()), made of lambdas: it has no "
               "object to ask for; keep its data in the controller (or in what its lambdas capture), or make it "
               "a state of a class and ask for that class";
    case Message::AddStateKeyTwice:
        return "AddState<{}>({}): the key {} is already registered (state {})";
    case Message::AddDelegateKeyCall:
        return "AddDelegateState({})";
    case Message::AddDelegateKeyTwice:
        return "AddDelegateState({}): the key {} is already registered";
    case Message::AddDelegateTagCall:
        return "AddDelegateState<{}>()";
    case Message::AddDelegateTagTwice:
        return "AddDelegateState<{}>(): {} is already a state of this machine";
    case Message::KeyedSetInitialCall:
        return "SetInitialState({})";
    case Message::KeyedInitialStateTwice:
        return "SetInitialState({}): the initial state is already {}; a machine has one initial state";
    case Message::KeyedFromCall:
        return "From({})";
    case Message::KeyedSetTerminalCall:
        return "SetTerminal({})";
    case Message::KeyedSetSubstatesCall:
        return "SetSubstates({}, ...)";
    case Message::KeyedSubstatesEmpty:
        return "SetSubstates({}, {{}}): give at least one substate, the initial one first";
    case Message::KeyedSetRegionsCall:
        return "SetRegions({}, ...)";
    case Message::KeyedRegionsEmpty:
        return "SetRegions({}, {{}}): give at least one region";
    case Message::KeyedSetHistoryCall:
        return "SetHistory({})";
    case Message::CurrentKeyNone:
        return "CurrentKey<{}>(): the current state ({}) has no key of that type";
    case Message::WouldTransitionInsideHook:
        return "WouldTransition() called from inside a hook or condition of this machine (state {}); ask "
               "between ticks";
    case Message::GlobalNotAState:
        return "SetGlobalState<{}>(): {} is not a state of this machine; configure it (e.g. From<{}>()) "
               "first";
    case Message::GlobalNested:
        return "SetGlobalState<{}>(): {} is a nested state (it has a parent, substates or regions); a "
               "global state performs beside the active path and cannot be part of it";
    case Message::StateNeverConfigured:
        return "State<{}>(): {} is not a state of this machine, and its transition table is frozen (by its "
               "first Perform, or before it by a direct change, a push, SetGlobalState, Save or Restore); "
               "configure it with From<{}>() or a transition To<{}>() before then";
    case Message::SetSubstatesCall:
        return "SetSubstates<{}, {}, ...>()";
    case Message::SetRegionsCall:
        return "SetRegions<{}, ...>()";
    case Message::SetHistoryCall:
        return "SetHistory<{}>()";
    case Message::SetPassThroughCall:
        return "SetPassThrough<{}>()";
    case Message::SetPushCapacityCall:
        return "SetPushCapacity<{}>()";
    case Message::SetTerminalCall:
        return "SetTerminal<{}>()";
    case Message::DeclareEventCall:
        return "DeclareEvent({})";
    case Message::StateNameTwice:
        return "a second state named {}: states are told apart by name (ActivePath, pictures, snapshots, the "
               "testing kit); rename one of the two classes (or keys) named {}, or give one a `static constexpr "
               "std::string_view Name`";
    case Message::StateNameEmpty:
        return "state {}: its Name is empty; CurrentStateName(), ActivePath(), pictures and snapshots show a "
               "state by its name, and an empty one reads as no state: give {} a Name that is not empty";
    case Message::StateNameSeparator:
        return "state {}: its Name \"{}\" holds '{}', which ActivePath() puts between states ('/') and around "
               "a parallel state's regions ('{{', ',', '}}': \"Alive/{{Legs/Run, Arms/Aim}}\"), so the path "
               "would read as other states: give {} a Name without / {{ }} or ,";
    case Message::TooManyStates:
        return "cannot add state {}: a machine holds at most {} states";
    case Message::StateManagerName:
        return "StateManager<{}, {}>";
    case Message::EnsembleAddTwice:
        return "Ensemble::Add({}): that machine is in the ensemble already, as {}";
    case Message::EnsembleNoMachine:
        return "Ensemble::{}({}): there is no machine {} (the ensemble has {})";
    case Message::EnsembleAddInTick:
        return "Ensemble::Add({}) from a hook while the ensemble ticks its machines; add machines between "
               "Performs (before the first, or after the Perform that wants them)";
    case Message::EnsemblePerformInTick:
        return "Ensemble::Perform() from a hook while the ensemble ticks its machines; each Perform ticks "
               "every machine once: call Perform between ticks (from the game loop), and Post to a machine "
               "to make it react";
    case Message::EnsembleMailboxFull:
        return "Ensemble::Post({}, {}): the mailbox of {} is full ({} events wait for its next tick); give the "
               "Ensemble a larger kMailCapacity";
    case Message::NoStateUnderKeyInHook:
        return "no state is registered under the key {}";
    case Message::SetStateNotAState:
        return "set state {}: {} is not a state of this machine";
    case Message::EnterWithArgumentsFromOwnHook:
        return "entering {} with arguments from one of its own hooks: its object is in use; ask from "
               "outside the tick or from another state";
    case Message::ChangeFromExitHook:
        return "{}() called from an exit hook of state {} (or a pause hook, when a push buries it): a state "
               "cannot change the machine's state while it is being left or buried";
    case Message::SendEventFromExitHook:
        return "SendEvent({}) called from an exit hook of state {} (or a pause hook, when a push buries it): a "
               "state cannot change the machine's state while it is being left or buried";
    case Message::NextStateInRegion:
        return "{}() called from state {} in region {}: the request for the next tick and the previous "
               "state are the machine's own; in a region use a transition or TrySetState";
    case Message::FixedDtInvalid:
        return "fixed_dt must be finite and positive, got {}";
    case Message::BufferTimeoutInvalid:
        return "{}() for state {}: the time-out must be finite and positive, got {}";
    case Message::StateIdOutOfRange:
        return "{}(StateId {}): not a state of this machine, which has {} states";
    case Message::MachineTypes:
        return "<{}, {}>";
    case Message::FormAndTypes:
        return "{}<{}, {}>";
    case Message::StaticManagerInsideHook:
        return "tickfsm: StaticStateManager{}: {} called from inside a hook or condition of this machine "
               "(state {}); call it from outside the tick";
    case Message::PerformCall:
        return "Perform({})";
    case Message::TickAllActions:
        return "TickAll with {} action{}";
    case Message::ResetCall:
        return "Reset({})";
    case Message::RemoveCall:
        return "Remove({})";
    case Message::TickAllByStateControllers:
        return "TickAll(..., TickOrder::ByState) with {} controller{}";
    case Message::StaticCrowdNoCharacter:
        return "tickfsm: StaticCrowd{}: {}({}): no character {}: the crowd has {} character{}";
    case Message::TickAllControllers:
        return "TickAll with {} controller{}";
    case Message::StaticCrowdInsideTickAll:
        return "called from inside a hook, condition or make_action of this crowd's TickAll; call it between ticks";
    case Message::StaticCrowdInsideCharacter:
        return "called from inside a hook or condition of character {}; call it between ticks";
    case Message::StaticCrowdSize:
        return "for a crowd of {} character{}";
    case Message::StaticCrowdRefused:
        return "tickfsm: StaticCrowd{}: {} {}";
    case Message::RevertNeedsPreviousState:
        return "RevertToPreviousState() needs KeepPreviousState() in the machine's configuration";
    case Message::RestoreCrowdLayout:
        return "Restore(): the snapshot's crowd keeps its characters in another layout";
    case Message::RestoreStateOutOfRange:
        return "Restore(): the snapshot names a state out of range";
    case Message::InitializeInsideHook:
        return "Initialize() called from inside a hook or condition of this machine (state {}); call it from "
               "outside the machine's hooks, before its first Perform";
    case Message::GlobalSetInsideHook:
        return "SetGlobalState<{}>() called from inside a hook or condition of this machine (state {}); the "
               "global state is set only from outside the machine's hooks and conditions (a hook's Machine& "
               "handle has no SetGlobalState): call it between ticks, for instance after Perform returns";
    case Message::GlobalClearInsideHook:
        return "ClearGlobalState() called from inside a hook or condition of this machine (state {}); the "
               "global state is cleared only from outside the machine's hooks and conditions (a hook's "
               "Machine& handle has no ClearGlobalState): call it between ticks, for instance after Perform "
               "returns";
    case Message::PreviousNeedsKeep:
        return "PreviousState() needs KeepPreviousState() in the machine's configuration";
    }
    return "tickfsm: an unknown message";
}

std::string CrowdText(CrowdMistake mistake, const CrowdFacts& f) {
    switch (mistake) {
    case CrowdMistake::PrivateConfiguration:
        return Format("Crowd<{}>: its configuration is private to one machine: a condition that holds data (a "
                      "capturing lambda or a functor with members), an action built with arguments, or keyed or "
                      "delegate states; a crowd shares one table between all its characters, so use captureless "
                      "lambdas, functions or empty functors, Do<X>() without arguments and states named by type, "
                      "and reach per-character data through the controller",
                      f.manager);
    case CrowdMistake::GlobalState:
        return Format("Crowd<{}>: its constructor sets a global state (SetGlobalState), which a crowd does not "
                      "keep per character; do that work in a state's Perform (or an action), or tick a "
                      "StateManager per character",
                      f.manager);
    case CrowdMistake::NoInitialState:
        return Format("Crowd<{}>: its configuration has no initial state; call SetInitialState<S>() in its "
                      "constructor",
                      f.manager);
    case CrowdMistake::TickAllSizes:
        return Format("Crowd::TickAll: {} controllers and {} actions for {} characters", f.a, f.b, f.i);
    case CrowdMistake::TickAllControllers:
        return Format("Crowd::TickAll: {} controllers for {} characters", f.a, f.i);
    case CrowdMistake::TickAllInsideTickAll:
        return "Crowd::TickAll called during TickAll of the same crowd (from a hook, a condition or make_action); "
               "each TickAll ticks every character once: call it from the game loop, between ticks";
    case CrowdMistake::TickAllInsideCharacter:
        return Format("Crowd::TickAll called from inside a hook or condition of character {} of the same crowd; "
                      "call it from the game loop, between ticks",
                      f.i);
    case CrowdMistake::PerformInsideTickAll:
        return Format("Crowd::Perform({}) called during TickAll of the same crowd (from a hook, a condition or "
                      "make_action), which ticks every character once already; to tick characters one by one, "
                      "call Perform(i) for each between ticks instead of TickAll",
                      f.i);
    case CrowdMistake::PerformInsideCharacter:
        return Format("Crowd::Perform({}) called from inside a hook or condition of that character; a character "
                      "does not tick inside its own tick: call Perform between ticks",
                      f.i);
    case CrowdMistake::AddWhileTicking:
        return "Crowd::Add called from inside a hook, a condition or make_action (it would move the characters "
               "that are ticking); add between ticks";
    case CrowdMistake::ResetWhileTicking:
        return Format("Crowd::Reset({}) called from inside a hook or condition of that character; reset it "
                      "between ticks",
                      f.i);
    case CrowdMistake::RemoveInsideTickAll:
        return Format("Crowd::Remove({}) called during TickAll (from a hook, a condition or make_action): Remove "
                      "moves the last character into slot {} while the loop walks the characters; note the index "
                      "(in the controller, say) and call Remove after TickAll returns, from the highest index down "
                      "when removing several",
                      f.i, f.i);
    case CrowdMistake::RemoveWhileTicking:
        return Format("Crowd::Remove({}) called from inside a hook or condition of {}; Remove moves the last "
                      "character into slot {}, and a character must stay where it is while it ticks: note the "
                      "index (in the controller, say) and call Remove after that Perform, SendEvent or "
                      "RevertToPreviousState returns",
                      f.i, f.i == f.a ? std::string("that character") : Format("character {}", f.a), f.i);
    case CrowdMistake::CallWhileTicking:
        return Format("Crowd::{} called from inside a hook, a condition or make_action; call it between ticks",
                      f.name);
    case CrowdMistake::SendEventWhileTicking:
        return Format("Crowd::SendEvent({}, {}) called from inside a hook or condition of that character; a "
                      "condition sends nothing (it may run in a dry run); in a hook, take a "
                      "tickfsm::Machine<Controller, Action>& as its last parameter and call SendEvent on it",
                      f.i, f.what);
    case CrowdMistake::CallInsideTickAll:
        return Format("Crowd::{}({}{}{}) called during TickAll (from a hook, a condition or make_action), which "
                      "reaches no character from inside its loop; to reach another character from a hook (a "
                      "squad leader's order), tick the crowd with a Perform(i) loop instead of TickAll, or keep "
                      "the request and make the call after TickAll; a hook changes its own character through a "
                      "tickfsm::Machine<Controller, Action>& as its last parameter",
                      f.name, f.i, f.what.empty() ? "" : ", ", f.what);
    case CrowdMistake::RevertWhileTicking:
        return Format("Crowd::RevertToPreviousState({}) called from inside a hook or condition of that "
                      "character; in a hook, take a tickfsm::Machine<Controller, Action>& as its last parameter "
                      "and call RevertToPreviousState on it",
                      f.i);
    case CrowdMistake::NoPreviousState:
        return Format("Crowd<{}>::PreviousState({}) needs KeepPreviousState() in the configuration", f.manager,
                      f.i);
    case CrowdMistake::RevertNoPreviousState:
        return Format("Crowd<{}>::RevertToPreviousState({}) needs KeepPreviousState() in the configuration",
                      f.manager, f.i);
    case CrowdMistake::NotAState:
        return Format("Crowd::State<{}>(): {} is not a state of {}", f.name, f.name, f.manager);
    case CrowdMistake::NoCharacter:
        return Format("Crowd<{}>::{}({}): no character {}: the crowd has {} character{}", f.manager, f.name, f.i,
                      f.i, f.a, f.a == 1 ? "" : "s");
    case CrowdMistake::SnapshotRefused:
        return Format("Crowd<{}>::{}", f.manager, f.what);
    }
    return "Crowd: an unknown mistake";
}

/// A call on FromAny()'s builder, whose state argument is the any-state
/// pseudo-state: "FromAny().On(e).To<T>()" rather than "From<FromAny()>()...".
std::string_view AnyStateTextOf(Message id) {
    switch (id) {
    case Message::FromOnToCall: return "FromAny().On({1}).To<{2}>()";
    case Message::FromOnTypedCall: return "FromAny().On<{1}>()";
    case Message::FromDoCall: return "FromAny().Do<{1}>()";
    default: return {};
    }
}

} // namespace

Text VMessageText(Message id, std::initializer_list<MessageArg> args) {
    if (args.size() != 0 && args.begin()->kind == MessageArg::Kind::Text && args.begin()->text == Any::Name)
        if (const std::string_view any = AnyStateTextOf(id); !any.empty()) return VFormat(any, args);
    return VFormat(TextOf(id), args);
}

void AbortWith(std::string_view message) noexcept {
    std::fwrite(message.data(), 1, message.size(), stderr);
    std::fputc('\n', stderr);
    std::abort();
}

void FailCrowd(CrowdMistake mistake, const CrowdFacts& facts) {
    ReportConfigError(KindMessage(facts.character, CrowdText(mistake, facts)));
}

} // namespace tickfsm::detail
