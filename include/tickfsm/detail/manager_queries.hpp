#pragma once
// The definitions of the StateManager members that answer questions about a
// machine without changing it: its previous and global states, the buried
// states, the time in a state, the active path, the table described, and a
// dry run of the next tick. One that needs the table resolves it first (the
// first time: the registry's lock, and the table built if no machine
// configured the same way built it), so it answers for the configuration so
// far; one about the active states answers from the machine alone before the
// first Perform. Included by state_manager.hpp.

#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>

#include "../state_manager.hpp"

namespace tickfsm {

template <class Controller, class Action>
inline bool StateManager<Controller, Action>::WouldTakeEvent(const Event& event) const noexcept {
    return machine_seat.rt.state != detail::kNoState &&
           CurrentTable()->TakesEvent(machine_seat.rt.state, event, MachineStateData());
}

template <class Controller, class Action>
template <class E>
    requires detail::TypedEventValue<E>
inline bool StateManager<Controller, Action>::WouldTakeEvent(const E& value) const {
    return machine_seat.rt.state != detail::kNoState &&
           CurrentTable()->TakesTyped(machine_seat.rt.state, detail::TypeKey<E>(),
                                      detail::EraseController(*bound_controller), &value,
                                      MachineStateData());
}

template <class Controller, class Action>
template <class K>
    requires StateKey<K>
inline bool StateManager<Controller, Action>::IsIn(K key) const noexcept {
    return machine_seat.rt.state != detail::kNoState &&
           CurrentTable()->IsInKey(machine_seat.rt.state, detail::TypeKey<K>(), static_cast<std::uint64_t>(key),
                                   MachineStateData());
}

template <class Controller, class Action>
inline StateRef StateManager<Controller, Action>::PreviousState() const {
    const MachineTable& table = ResolvedTable();
    if (!table.keep_previous) MachineTable::Fail(detail::MessageText(detail::Message::PreviousNeedsKeep));
    const ManagerBlock* block = BlockIfAny();
    return table.Ref(block ? block->previous : detail::kNoState);
}

template <class Controller, class Action>
inline std::string_view StateManager<Controller, Action>::GlobalStateName() const {
    const MachineTable& table = ResolvedTable();
    const ManagerBlock* block = BlockIfAny();
    return table.NameOf(block ? block->global : detail::kNoState);
}

template <class Controller, class Action>
inline std::size_t StateManager<Controller, Action>::BuriedCount() const {
    if (!IsStarted()) return 0; // before the table is needed: no lock, no allocation
    const MachineTable& table = ResolvedTable();
    if (table.stack_capacity == 0) return 0;
    return detail::BuriedCount(MachineStateData(), table.stack);
}

template <class Controller, class Action>
template <class S>
inline std::uint32_t StateManager<Controller, Action>::TicksInState() const {
    static_assert(std::is_class_v<S>, "tickfsm: TicksInState<S>() and TimeInState<S>() ask about a state's class, "
                                      "and S is not a class; for a keyed state, ask TicksInState(id) with its StateId");
    if (machine_seat.rt.state == detail::kNoState) return 0; // not started: the table is not needed
    const MachineTable& table = ResolvedTable();
    const detail::StateIndex id = table.Find(detail::TypeKey<S>());
    if (id == detail::kNoState) return 0;
    return table.TicksOf(machine_seat.rt.state, machine_seat.rt.ticks, id, MachineStateData());
}

template <class Controller, class Action>
inline std::size_t StateManager<Controller, Action>::BuriedStates(std::span<StateId> out) const {
    if (!IsStarted()) return 0; // before the table is needed: no lock, no allocation
    return ResolvedTable().BuriedStates(MachineStateData(), out);
}

template <class Controller, class Action>
inline std::size_t StateManager<Controller, Action>::ActiveStates(std::span<StateId> out) const {
    if (machine_seat.rt.state == detail::kNoState) return 0; // not started: the table is not needed
    const MachineTable& table = ResolvedTable();
    detail::TreeIndex path[detail::kMaxDepth];
    if (!table.parallel) {
        const std::size_t n = detail::ActivePathOf(table.tree, machine_seat.rt.state, path);
        for (std::size_t i = 0; i < n && i < out.size(); ++i) out[i] = StateId{path[i]};
        return n;
    }
    std::size_t total = 0; // the path, then each region's, a stack buffer at a time
    for (std::size_t at = 0; at == 0 || (at < total && at < out.size()); at += detail::kMaxDepth) {
        total = detail::ActiveStatesOf(table.tree, MachineStateData(), machine_seat.rt.state, path, at);
        for (std::size_t i = at; i < total && i < out.size() && i < at + detail::kMaxDepth; ++i)
            out[i] = StateId{path[i - at]};
    }
    return total;
}

template <class Controller, class Action>
inline Description StateManager<Controller, Action>::Describe() const {
    Description d = ResolvedTable().Describe();
    if (const ManagerBlock* block = BlockIfAny()) {
        d.global = StateId{block->global};
        if (block->observer) d.name = Text(block->Name());
    }
    return d;
}

template <class Controller, class Action>
inline StateId StateManager<Controller, Action>::ParentOf(StateId id) const {
    const MachineTable& table = ResolvedTable();
    if (id.value >= table.tree.size()) return StateId{};
    const detail::TreeNode& node = table.tree[id.value];
    return StateId{node.parent != detail::kNoNode ? node.parent : node.owner};
}

template <class Controller, class Action>
inline std::uint32_t StateManager<Controller, Action>::TicksInState(StateId id) const {
    if (machine_seat.rt.state == detail::kNoState) return 0; // not started: the table is not needed
    const MachineTable& table = ResolvedTable();
    if (id.value >= table.tree.size()) return 0;
    return table.TicksOf(machine_seat.rt.state, machine_seat.rt.ticks, id.value, MachineStateData());
}

template <class Controller, class Action>
inline std::size_t StateManager<Controller, Action>::StateCount() const {
    const MachineTable& table = ResolvedTable();
    return table.meta.size() - (table.any != detail::kNoState ? 1 : 0); // Any is not a state
}

template <class Controller, class Action>
inline bool StateManager<Controller, Action>::SharesTable() const {
    ResolvedTable();
    const ManagerBlock* block = BlockIfAny();
    return !block || block->node || block->shared;
}

template <class Controller, class Action>
inline StateId StateManager<Controller, Action>::WouldTransition(const Action& action) const {
    if (InsideOwnTick())
        MachineTable::Fail(detail::MessageText(detail::Message::WouldTransitionInsideHook, ManagerEngine::CurrentName(machine_seat)));
    const MachineTable& table = ResolvedTable();
    if (machine_seat.rt.flags & detail::kNextPending) return StateId{BlockIfAny()->next}; // applied before any condition
    detail::StateIndex from = machine_seat.rt.state;
    std::uint32_t ticks = machine_seat.rt.ticks;
    if (!IsStarted()) {
        if (table.initial == detail::kNoState) return StateId{};
        from = table.InitialLeaf(table.initial);
        ticks = 0;
    }
    detail::CountTick(ticks); // the time the next tick's conditions will see
    // The conditions run marked busy: one that calls back into the machine
    // (an event, a change, a tick) is refused, so a dry run changes nothing.
    BusyScope busy(machine_seat.rt);
    const auto fired =
        table.ProbePath(from, ticks, detail::EraseController(*bound_controller), detail::EraseAction(action),
                        MachineStateData(), true, (machine_seat.rt.flags & detail::kDone) != 0);
    detail::StateIndex to = fired.to;
    if (to == detail::kNoState) return StateId{};
    const std::uint8_t kind = fired.chain->kinds ? fired.chain->kinds[fired.index] : detail::kKindChange;
    if (kind == detail::kKindPop) { // back to the buried state
        to = TopBuriedLeaf(table, detail::kNoState);
        if (to == detail::kNoState) return StateId{};
    }
    if (table.passing) to = PassedThrough(table, from, to, kind == detail::kKindPush ? from : detail::kNoState, action);
    return StateId{to};
}

template <class Controller, class Action>
detail::StateIndex StateManager<Controller, Action>::TopBuriedLeaf(const MachineTable& table,
                                                                   detail::StateIndex none) const {
    const std::size_t buried = BuriedCount();
    return buried == 0 ? none : detail::BuriedEntries(MachineStateData(), table.stack)[buried - 1].leaf;
}

template <class Controller, class Action>
detail::StateIndex StateManager<Controller, Action>::PassedThrough(const MachineTable& table, detail::StateIndex from,
                                                                   detail::StateIndex to, detail::StateIndex pushed,
                                                                   const Action& action) const {
    // As Perform does after a change: a pass-through state entered has its
    // transitions tried again at once, from its time 0. A loop, which Perform
    // refuses with a ConfigError, ends the dry run after kMaxDepth states.
    for (std::size_t passed = 0; passed < detail::kMaxDepth; ++passed) {
        detail::StateIndex leaf = to;
        if (table.nested) {
            detail::TreeIndex path[detail::kMaxDepth];
            const std::size_t n = detail::EntryPath(table.tree, detail::ChangeBase(table.tree, from, to), to,
                                                    MachineStateData(), path);
            leaf = path[n - 1];
        }
        if (!table.meta[leaf].pass_through) return to;
        const auto fired = table.ProbePath(leaf, 0, detail::EraseController(*bound_controller),
                                           detail::EraseAction(action), MachineStateData(), false, false);
        if (fired.to == detail::kNoState) return to;
        const std::uint8_t kind = fired.chain->kinds ? fired.chain->kinds[fired.index] : detail::kKindChange;
        if (kind == detail::kKindPop) { // ends on the state buried last: one this dry run pushed, or the stack's top
            return pushed != detail::kNoState ? pushed : TopBuriedLeaf(table, to);
        }
        if (kind == detail::kKindPush) pushed = leaf;
        from = leaf;
        to = fired.to;
    }
    return to;
}
} // namespace tickfsm
