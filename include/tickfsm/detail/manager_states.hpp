#pragma once
// The definitions of the StateManager members that configure states by type:
// the initial state, transitions, nesting, regions, history, pass-through,
// the push stack, terminal states and declared events. Each either takes a
// step along the shared configuration path (detail::ManagerConfig), so that
// machines configured alike share one table, or changes the machine's private
// table. Included by state_manager.hpp.

#include <cstddef>

#include "../state_manager.hpp"

namespace tickfsm {

template <class Controller, class Action>
template <class S>
inline TransitionBuilder<Controller, Action, S> StateManager<Controller, Action>::SetInitialState() {
    static_assert(detail::CheckState<S, Controller, Action>());
    static constexpr typename ManagerConfig::ChainCall kCall{&detail::StateName<S>, &detail::TypeKeyHolder<S>::key,
                                                             &detail::TypeKeyHolder<detail::InitStep<S>>::key,
                                                             &detail::ReplayInit<Controller, Action, S>, true};
    if (StepNode* node = ManagerConfig::BeginChain(machine_seat, kCall))
        return TransitionBuilder<Controller, Action, S>(*this, node->chain_index, node);
    if (CurrentTable()->initial != detail::kNoState)
        detail::ApplyInit<Controller, Action, S>(*CurrentTable()); // reports
    AddStatePrivately<S>();
    return TransitionBuilder<Controller, Action, S>(*this, detail::ApplyInit<Controller, Action, S>(*CurrentTable()),
                                                    nullptr);
}

template <class Controller, class Action>
template <class S>
inline TransitionBuilder<Controller, Action, S> StateManager<Controller, Action>::From() {
    static_assert(detail::CheckState<S, Controller, Action>());
    static constexpr typename ManagerConfig::ChainCall kCall{&detail::StateName<S>, &detail::TypeKeyHolder<S>::key,
                                                             &detail::TypeKeyHolder<detail::FromStep<S>>::key,
                                                             &detail::ReplayFrom<Controller, Action, S>, false};
    if (StepNode* node = ManagerConfig::BeginChain(machine_seat, kCall))
        return TransitionBuilder<Controller, Action, S>(*this, node->chain_index, node);
    AddStatePrivately<S>();
    return TransitionBuilder<Controller, Action, S>(
        *this, detail::ApplyNewChain<Controller, Action, S>(*CurrentTable()), nullptr);
}

/// What `SetInitialState<S>()` (kInitial) or `From<S>()` and its `To<T>(condition)`
/// calls would add, as one step along the shared path: the chain's type is
/// made once, rather than once per To (see Configure).
template <class Controller, class Action>
template <bool kInitial, class S, class... Edges>
inline void StateManager<Controller, Action>::AddChain() {
    using Whole = detail::Chain<Controller, Action, S, Edges...>;
    static constexpr typename ManagerConfig::ChainCall kCall{
        &detail::StateName<S>, &detail::TypeKeyHolder<S>::key,
        &detail::TypeKeyHolder<detail::WholeChainStep<kInitial, Whole>>::key,
        &detail::ReplayWholeChain<Controller, Action, kInitial, S, Edges...>, kInitial};
    if (ManagerConfig::BeginChain(machine_seat, kCall)) return;
    if constexpr (kInitial)
        if (CurrentTable()->initial != detail::kNoState)
            detail::ApplyInit<Controller, Action, S>(*CurrentTable()); // reports
    AddStatePrivately<S>();
    (AddStatePrivately<typename Edges::To>(), ...);
    detail::ApplyWholeChain<Controller, Action, kInitial, S, Edges...>(*CurrentTable());
}

template <class Controller, class Action>
inline void StateManager<Controller, Action>::KeepPreviousState() {
    ManagerConfig::CheckConfigurable(machine_seat, [] { return Text("KeepPreviousState()"); });
    if (ManagerConfig::SharedStep(machine_seat, detail::TypeKey<detail::KeepPreviousStep>(),
                                  &detail::ReplayKeepPrevious<Controller, Action>))
        return;
    CurrentTable()->keep_previous = true;
    CurrentTable()->finalized = false;
}

template <class Controller, class Action>
template <class G>
inline void StateManager<Controller, Action>::SetGlobalState() {
    const detail::StateIndex id = ResolvedTable().Find(detail::TypeKey<G>());
    if (id == detail::kNoState)
        MachineTable::Fail(detail::MessageText(detail::Message::GlobalNotAState, detail::StateName<G>(),
                                               detail::StateName<G>(), detail::StateName<G>()));
    if (const detail::TreeNode& node = CurrentTable()->tree[id]; node.parent != detail::kNoNode ||
                                                         node.initial != detail::kNoNode ||
                                                         node.owner != detail::kNoNode ||
                                                         node.first_region != detail::kNoNode)
        MachineTable::Fail(
            detail::MessageText(detail::Message::GlobalNested, detail::StateName<G>(), detail::StateName<G>()));
    ChangeGlobal(id);
}

template <class Controller, class Action>
template <class S>
inline S& StateManager<Controller, Action>::State() {
    static_assert(detail::CheckState<S, Controller, Action>());
    detail::StateIndex id = ResolvedTable().Find(detail::TypeKey<S>());
    if (id == detail::kNoState) {
        if (machine_seat.rt.flags & detail::kFrozen) // states are added only before the machine starts
            MachineTable::Fail(detail::MessageText(detail::Message::StateNeverConfigured, detail::StateName<S>(),
                                                   detail::StateName<S>(), detail::StateName<S>(),
                                                   detail::StateName<S>()));
        if (!ManagerConfig::SharedStep(machine_seat, detail::TypeKey<detail::AddStep<S>>(),
                                       &detail::ReplayAdd<Controller, Action, S>))
            AddStatePrivately<S>();
        id = ResolvedTable().Find(detail::TypeKey<S>());
    }
    if (CurrentTable()->meta[id].type != detail::TypeKey<S>()) // S is the tag of a delegate state
        MachineTable::Fail(detail::MessageText(detail::Message::TaggedStateDelegate, detail::StateName<S>(),
                                               detail::StateName<S>(), detail::StateName<S>()));
    return detail::StateObject<S>(MachineStateData(), CurrentTable()->meta[id].offset);
}

template <class Controller, class Action>
template <class Parent, class Initial, class... Others>
inline void StateManager<Controller, Action>::SetSubstates() {
    static_assert(detail::CheckState<Parent, Controller, Action>() &&
                  detail::CheckState<Initial, Controller, Action>() &&
                  (... && detail::CheckState<Others, Controller, Action>()));
    static_assert(!std::is_same_v<Parent, Initial> && (... && !std::is_same_v<Parent, Others>),
                  "tickfsm: SetSubstates<Parent, Substates...>(): a state cannot be its own substate; list "
                  "Parent's children after it");
    ManagerConfig::CheckConfigurable(machine_seat, [] {
        return detail::MessageText(detail::Message::SetSubstatesCall, detail::StateName<Parent>(),
                                   detail::StateName<Initial>());
    });
    if (ManagerConfig::SharedStep(machine_seat, detail::TypeKey<detail::SubstatesStep<Parent, Initial, Others...>>(),
                                  &detail::ReplaySubstates<Controller, Action, Parent, Initial, Others...>, true))
        return;
    AddStatePrivately<Parent>();
    AddStatePrivately<Initial>();
    (AddStatePrivately<Others>(), ...);
    ManagerStorage::ApplyPrivately(machine_seat, [](MachineTable& table) {
        detail::ApplySubstates<Controller, Action, Parent, Initial, Others...>(table);
    });
}

template <class Controller, class Action>
template <class Parallel, class... Regions>
inline void StateManager<Controller, Action>::SetRegions() {
    static_assert(sizeof...(Regions) >= 1,
                  "tickfsm: SetRegions<Parallel, Regions...>(): list at least one region after the parallel state");
    static_assert(detail::CheckState<Parallel, Controller, Action>() &&
                  (... && detail::CheckState<Regions, Controller, Action>()));
    static_assert((... && !std::is_same_v<Parallel, Regions>),
                  "tickfsm: SetRegions<Parallel, Regions...>(): a state cannot be its own region; list Parallel's "
                  "regions after it");
    ManagerConfig::CheckConfigurable(machine_seat, [] {
        return detail::MessageText(detail::Message::SetRegionsCall, detail::StateName<Parallel>());
    });
    if (ManagerConfig::SharedStep(machine_seat, detail::TypeKey<detail::RegionsStep<Parallel, Regions...>>(),
                                  &detail::ReplayRegions<Controller, Action, Parallel, Regions...>, true))
        return;
    AddStatePrivately<Parallel>();
    (AddStatePrivately<Regions>(), ...);
    ManagerStorage::ApplyPrivately(
        machine_seat, [](MachineTable& table) { detail::ApplyRegions<Controller, Action, Parallel, Regions...>(table); });
}

template <class Controller, class Action>
template <class S>
inline void StateManager<Controller, Action>::SetHistory(History history) {
    ManagerConfig::CheckConfigurable(
        machine_seat, [] { return detail::MessageText(detail::Message::SetHistoryCall, detail::StateName<S>()); });
    if (ManagerConfig::Sharing(machine_seat)) {
        StepRecord step;
        step.key = detail::TypeKey<detail::HistoryStep<S>>();
        step.chain = static_cast<std::size_t>(history);
        step.replay = &detail::ReplayHistory<Controller, Action, S>;
        ManagerConfig::CheckedStep(machine_seat, step);
        return;
    }
    AddStatePrivately<S>();
    ManagerStorage::ApplyPrivately(
        machine_seat, [history](MachineTable& table) { detail::ApplyHistory<Controller, Action, S>(table, history); });
}

template <class Controller, class Action>
template <class S>
inline void StateManager<Controller, Action>::SetPassThrough() {
    static_assert(detail::CheckState<S, Controller, Action>());
    ManagerConfig::CheckConfigurable(
        machine_seat, [] { return detail::MessageText(detail::Message::SetPassThroughCall, detail::StateName<S>()); });
    if (ManagerConfig::SharedStep(machine_seat, detail::TypeKey<detail::PassThroughStep<S>>(),
                                  &detail::ReplayPassThrough<Controller, Action, S>, true))
        return;
    AddStatePrivately<S>();
    detail::ApplyPassThrough<Controller, Action, S>(*CurrentTable());
}

template <class Controller, class Action>
template <std::size_t N>
inline void StateManager<Controller, Action>::SetPushCapacity() {
    static_assert(N > 0 && N < 0x10000, "tickfsm: SetPushCapacity<N>(): N is the number of states a push can "
                                        "bury, between 1 and 65535");
    ManagerConfig::CheckConfigurable(machine_seat,
                                     [] { return detail::MessageText(detail::Message::SetPushCapacityCall, N); });
    if (ManagerConfig::SharedStep(machine_seat, detail::TypeKey<detail::PushCapacityStep<N>>(),
                                  &detail::ReplayPushCapacity<Controller, Action, N>, true))
        return;
    ManagerStorage::ApplyPrivately(
        machine_seat, [](MachineTable& table) { detail::ApplyPushCapacity<Controller, Action, N>(table); });
}

template <class Controller, class Action>
template <class S>
inline void StateManager<Controller, Action>::SetTerminal() {
    static_assert(detail::CheckState<S, Controller, Action>());
    ManagerConfig::CheckConfigurable(
        machine_seat, [] { return detail::MessageText(detail::Message::SetTerminalCall, detail::StateName<S>()); });
    if (ManagerConfig::SharedStep(machine_seat, detail::TypeKey<detail::TerminalStep<S>>(),
                                  &detail::ReplayTerminal<Controller, Action, S>))
        return;
    AddStatePrivately<S>();
    detail::ApplyTerminal<Controller, Action, S>(*CurrentTable());
}

template <class Controller, class Action>
inline void StateManager<Controller, Action>::DeclareEvent(const Event& event) {
    ManagerConfig::CheckConfigurable(
        machine_seat, [&] { return detail::MessageText(detail::Message::DeclareEventCall, detail::EventText(event)); });
    if (ManagerConfig::Sharing(machine_seat)) {
        StepRecord step;
        step.key = detail::TypeKey<detail::DeclareEventStep>();
        step.replay = &detail::ReplayDeclareEvent<Controller, Action>;
        step.event = event;
        ManagerConfig::Step(machine_seat, step);
        return;
    }
    detail::ApplyDeclareEvent(*CurrentTable(), event);
}
} // namespace tickfsm
