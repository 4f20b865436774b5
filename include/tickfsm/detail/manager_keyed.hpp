#pragma once
// Keyed and delegate states (seed 003's StateMachine<TKey, TState>): the
// definitions of the StateManager members that register states under keys or
// as lambdas, and configure and query them. Keyed machines always run on a
// private table. Included by state_manager.hpp.

#include <initializer_list>
#include <string_view>
#include <utility>

#include "owned.hpp"
#include "../list.hpp"
#include "../state_manager.hpp"

namespace tickfsm {

template <class Controller, class Action>
template <class S, class K, class... Args>
    requires StateKey<K>
inline void StateManager<Controller, Action>::AddState(K key, Args&&... args) {
    static_assert(detail::CheckState<S, Controller, Action>());
    ManagerConfig::CheckConfigurable(machine_seat, [&] {
        return detail::MessageText(detail::Message::AddStateCall, detail::StateName<S>(), detail::KeyText(key));
    });
    ManagerStorage::Detach(machine_seat);
    if (CurrentTable()->FindKey(detail::TypeKey<K>(), static_cast<std::uint64_t>(key)) != detail::kNoState)
        MachineTable::Fail(detail::MessageText(
            detail::Message::AddStateKeyTwice, detail::StateName<S>(), detail::KeyText(key), detail::KeyText(key),
            CurrentTable()->NameOf(CurrentTable()->FindKey(detail::TypeKey<K>(), static_cast<std::uint64_t>(key)))));
    detail::Shared<const S> prototype;
    if constexpr (sizeof...(Args) > 0) prototype = detail::MakeShared<const S>(std::forward<Args>(args)...);
    ManagerConfig::template AddKeyed<S, (sizeof...(Args) > 0)>(machine_seat, key, std::move(prototype));
}

template <class Controller, class Action>
template <class K>
    requires StateKey<K>
inline DelegateBuilder<Controller, Action> StateManager<Controller, Action>::AddDelegateState(K key) {
    ManagerConfig::CheckConfigurable(
        machine_seat, [&] { return detail::MessageText(detail::Message::AddDelegateKeyCall, detail::KeyText(key)); });
    ManagerStorage::Detach(machine_seat);
    if (CurrentTable()->FindKey(detail::TypeKey<K>(), static_cast<std::uint64_t>(key)) != detail::kNoState)
        MachineTable::Fail(
            detail::MessageText(detail::Message::AddDelegateKeyTwice, detail::KeyText(key), detail::KeyText(key)));
    auto hooks = detail::MakeShared<detail::DelegateHooks<Controller, Action>>();
    auto prototype = detail::MakeShared<const detail::DelegateState<Controller, Action>>(
        detail::DelegateState<Controller, Action>{hooks});
    ManagerConfig::template AddKeyed<detail::DelegateState<Controller, Action>, true>(machine_seat, key,
                                                                                     std::move(prototype));
    return DelegateBuilder<Controller, Action>(
        std::move(hooks), *this, CurrentTable()->FindKey(detail::TypeKey<K>(), static_cast<std::uint64_t>(key)));
}

template <class Controller, class Action>
template <class Tag>
inline DelegateBuilder<Controller, Action> StateManager<Controller, Action>::AddDelegateState() {
    ManagerConfig::CheckConfigurable(
        machine_seat, [] { return detail::MessageText(detail::Message::AddDelegateTagCall, detail::TypeName<Tag>()); });
    if (ResolvedTable().Find(detail::TypeKey<Tag>()) != detail::kNoState)
        MachineTable::Fail(detail::MessageText(detail::Message::AddDelegateTagTwice, detail::TypeName<Tag>(),
                                               detail::TypeName<Tag>()));
    ManagerStorage::Detach(machine_seat);
    auto hooks = detail::MakeShared<detail::DelegateHooks<Controller, Action>>();
    auto prototype = detail::MakeShared<const detail::DelegateState<Controller, Action>>(
        detail::DelegateState<Controller, Action>{hooks});
    ManagerStorage::ApplyPrivately(machine_seat, [&](MachineTable& table) {
        table.template Add<detail::DelegateState<Controller, Action>, true>(detail::TypeKey<Tag>(),
                                                                            detail::TypeName<Tag>(), prototype);
    });
    return DelegateBuilder<Controller, Action>(std::move(hooks), *this, CurrentTable()->Find(detail::TypeKey<Tag>()));
}

template <class Controller, class Action>
template <class K>
    requires StateKey<K>
inline KeyedTransitionBuilder<Controller, Action> StateManager<Controller, Action>::SetInitialState(K key) {
    ManagerConfig::CheckConfigurable(
        machine_seat, [&] { return detail::MessageText(detail::Message::KeyedSetInitialCall, detail::KeyText(key)); });
    const detail::StateIndex id = KeyedIndex(key, "SetInitialState"); // a keyed state: the table is private
    if (ResolvedTable().initial != detail::kNoState)
        MachineTable::Fail(detail::MessageText(detail::Message::KeyedInitialStateTwice, detail::KeyText(key),
                                               CurrentTable()->NameOf(CurrentTable()->initial)));
    ManagerStorage::Detach(machine_seat);
    CurrentTable()->initial = id;
    return KeyedBuilder(id);
}

template <class Controller, class Action>
template <class K>
    requires StateKey<K>
inline KeyedTransitionBuilder<Controller, Action> StateManager<Controller, Action>::From(K key) {
    ManagerConfig::CheckConfigurable(
        machine_seat, [&] { return detail::MessageText(detail::Message::KeyedFromCall, detail::KeyText(key)); });
    const detail::StateIndex id = KeyedIndex(key, "From"); // refused before the machine leaves the shared path
    ManagerStorage::Detach(machine_seat);
    return KeyedBuilder(id);
}

template <class Controller, class Action>
template <class K>
    requires StateKey<K>
inline void StateManager<Controller, Action>::SetTerminal(K key) {
    ManagerConfig::CheckConfigurable(
        machine_seat, [&] { return detail::MessageText(detail::Message::KeyedSetTerminalCall, detail::KeyText(key)); });
    const detail::StateIndex id = KeyedIndex(key, "SetTerminal");
    for (const detail::StateIndex t : CurrentTable()->terminal)
        if (t == id) return;
    CurrentTable()->terminal.push_back(id);
}

template <class Controller, class Action>
template <class K, class KS>
    requires StateKey<K> && StateKey<KS>
inline void StateManager<Controller, Action>::SetSubstates(K parent, std::initializer_list<KS> substates) {
    ManagerConfig::CheckConfigurable(machine_seat, [&] {
        return detail::MessageText(detail::Message::KeyedSetSubstatesCall, detail::KeyText(parent));
    });
    const detail::StateIndex id = KeyedIndex(parent, "SetSubstates"); // a keyed state: the table is private
    if (substates.size() == 0)
        MachineTable::Fail(detail::MessageText(detail::Message::KeyedSubstatesEmpty, detail::KeyText(parent)));
    List<detail::TreeIndex> children;
    for (const KS key : substates) children.push_back(KeyedIndex(key, "SetSubstates"));
    ManagerStorage::ApplyPrivately(machine_seat,
                                   [&](MachineTable& table) { detail::ApplySubstates(table, id, children); });
}

template <class Controller, class Action>
template <class K, class KS>
    requires StateKey<K> && StateKey<KS>
inline void StateManager<Controller, Action>::SetRegions(K parallel, std::initializer_list<KS> regions) {
    ManagerConfig::CheckConfigurable(machine_seat, [&] {
        return detail::MessageText(detail::Message::KeyedSetRegionsCall, detail::KeyText(parallel));
    });
    const detail::StateIndex id = KeyedIndex(parallel, "SetRegions");
    if (regions.size() == 0)
        MachineTable::Fail(detail::MessageText(detail::Message::KeyedRegionsEmpty, detail::KeyText(parallel)));
    List<detail::TreeIndex> lanes;
    for (const KS key : regions) lanes.push_back(KeyedIndex(key, "SetRegions"));
    ManagerStorage::ApplyPrivately(machine_seat, [&](MachineTable& table) { detail::ApplyRegions(table, id, lanes); });
}

template <class Controller, class Action>
template <class K>
    requires StateKey<K>
inline void StateManager<Controller, Action>::SetHistory(K key, History history) {
    ManagerConfig::CheckConfigurable(
        machine_seat, [&] { return detail::MessageText(detail::Message::KeyedSetHistoryCall, detail::KeyText(key)); });
    const detail::StateIndex id = KeyedIndex(key, "SetHistory");
    ManagerStorage::ApplyPrivately(machine_seat,
                                   [&](MachineTable& table) { detail::ApplyHistoryAt(table, id, history); });
}

template <class Controller, class Action>
template <class K>
    requires StateKey<K>
inline K StateManager<Controller, Action>::CurrentKey() const {
    if (machine_seat.rt.state == detail::kNoState || CurrentTable()->meta[machine_seat.rt.state].key_type != detail::TypeKey<K>())
        MachineTable::Fail(detail::MessageText(detail::Message::CurrentKeyNone, detail::TypeName<K>(),
                                               CurrentStateName().empty() ? "none" : CurrentStateName()));
    return static_cast<K>(CurrentTable()->meta[machine_seat.rt.state].key_value);
}

template <class Controller, class Action>
template <class S, class K>
    requires StateKey<K>
inline S& StateManager<Controller, Action>::State(K key) {
    const detail::StateIndex id = KeyedIndex(key, "State");
    ResolvedTable();
    if (CurrentTable()->meta[id].type != detail::TypeKey<S>()) {
        // A delegate state's class is the library's own: naming it would send the caller to a detail:: type.
        if (CurrentTable()->meta[id].type == detail::TypeKey<detail::DelegateState<Controller, Action>>())
            MachineTable::Fail(detail::MessageText(detail::Message::KeyedStateDelegate, detail::TypeName<S>(),
                                                   detail::KeyText(key)));
        MachineTable::Fail(detail::MessageText(detail::Message::KeyedStateClass, detail::TypeName<S>(),
                                               detail::KeyText(key), CurrentTable()->meta[id].type_name));
    }
    return detail::StateObject<S>(MachineStateData(), CurrentTable()->meta[id].offset);
}
} // namespace tickfsm
