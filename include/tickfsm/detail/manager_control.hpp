#pragma once
// The definitions of the StateManager members that act on a machine from
// outside its tick: initializing it, sending it events, attaching an
// observer, resetting it, pushing a state, and the direct changes behind
// TrySetState and the like. Each refuses a call from inside one of the
// machine's own hooks or conditions (kBusy). Included by state_manager.hpp.

#include <cstdint>
#include <string_view>
#include <utility>

#include "../state_manager.hpp"

namespace tickfsm {

template <class Controller, class Action>
inline void StateManager<Controller, Action>::Initialize() {
    if (InsideOwnTick())
        MachineTable::Fail(detail::MessageText(detail::Message::InitializeInsideHook,
                                               ManagerEngine::CurrentName(machine_seat)));
    if (machine_seat.rt.flags & detail::kInitialized) return;
    CloseConfiguration();
    BusyScope busy(machine_seat.rt); // an OnStateInit cannot tick, change or reset the machine it initializes
    auto ctx = TickContextFor(nullptr);
    detail::Initialize(ctx);
}

template <class Controller, class Action>
inline bool StateManager<Controller, Action>::SendEvent(const Event& event, const Action& action) {
    if (InsideOwnTick())
        MachineTable::Fail(
            detail::MessageText(detail::Message::SendEventInsideHook, detail::EventText(event), ManagerEngine::CurrentName(machine_seat)));
    if (!CurrentTable()) ResolvedTable(); // not started: only the observer hears of it
    BusyScope busy(machine_seat.rt);
    auto ctx = TickContextFor(&action);
    return detail::DeliverEvent(ctx, event);
}

template <class Controller, class Action>
template <class E>
    requires detail::TypedEventValue<E>
inline bool StateManager<Controller, Action>::SendEvent(const E& event, const Action& action) {
    if (InsideOwnTick())
        MachineTable::Fail(
            detail::MessageText(detail::Message::SendTypedEventInsideHook, detail::TypeName<E>(), ManagerEngine::CurrentName(machine_seat)));
    if (!CurrentTable()) ResolvedTable();
    BusyScope busy(machine_seat.rt);
    auto ctx = TickContextFor(&action);
    return detail::DeliverTyped(ctx, detail::TypeKey<E>(), &event, detail::kTypedEvent<E>);
}

template <class Controller, class Action>
inline void StateManager<Controller, Action>::SetObserver(Observer* observer, std::string_view name) {
    if (InsideOwnTick())
        MachineTable::Fail(detail::MessageText(detail::Message::SetObserverInsideHook, ManagerEngine::CurrentName(machine_seat)));
    OwnBlock()->observer = observer;
    OwnBlock()->name = name.empty() || name == "StateManager" ? Text() : Text(name);
    machine_seat.rt.flags = static_cast<std::uint16_t>(observer ? machine_seat.rt.flags | detail::kObserved
                                                    : machine_seat.rt.flags & ~detail::kObserved);
    InvalidateStep();
}

template <class Controller, class Action>
inline void StateManager<Controller, Action>::Reset() {
    if (InsideOwnTick()) MachineTable::Fail(detail::MessageText(detail::Message::ResetInsideHook, ManagerEngine::CurrentName(machine_seat)));
    machine_seat.rt.state = detail::kNoState;
    if (machine_seat.rt.flags & detail::kInitialized) machine_seat.rt.ticks = 0; // else it counts the states initialized
    machine_seat.rt.flags =
        static_cast<std::uint16_t>(machine_seat.rt.flags & (detail::kFrozen | detail::kObserved | detail::kInitialized |
                                                     detail::kGlobal | detail::kGlobalWaiting));
    if (ManagerBlock* block = BlockIfAny()) {
        block->next = detail::kNoState;
        block->previous = detail::kNoState;
    }
}

template <class Controller, class Action>
template <class T, class A>
inline void StateManager<Controller, Action>::Push() {
    const detail::StateIndex id = ResolvedTable().Find(detail::TypeKey<T>());
    if (id == detail::kNoState)
        MachineTable::Fail(detail::MessageText(detail::Message::NotAStateOfMachine, "Push", detail::StateName<T>(),
                                               detail::StateName<T>(), detail::StateName<T>(),
                                               detail::StateName<T>()));
    ChangeStack<A>(id, Cause::Push, "Push");
}

template <class Controller, class Action>
template <class T, class... Args>
inline bool StateManager<Controller, Action>::MakeChange(detail::Direct how, std::string_view api, Args&&... args) {
    if (!(machine_seat.rt.flags & detail::kStarted) && !InsideOwnTick()) CloseConfiguration();
    const detail::StateIndex id = ResolvedTable().Find(detail::TypeKey<T>());
    if (id == detail::kNoState)
        MachineTable::Fail(detail::MessageText(detail::Message::NotAStateOfMachine, api, detail::StateName<T>(),
                                               detail::StateName<T>(), detail::StateName<T>(),
                                               detail::StateName<T>()));
    if constexpr (sizeof...(Args) > 0) {
        auto rebuild = [&](std::byte* object) { detail::RebuildState<T>(object, std::forward<Args>(args)...); };
        detail::Prepare prepare;
        prepare.run = [](const void* context, std::byte* object) {
            (*static_cast<const decltype(rebuild)*>(context))(object);
        };
        prepare.context = &rebuild;
        return MakeChangeTo(id, how, api, prepare);
    } else {
        return MakeChangeTo(id, how, api, detail::Prepare{});
    }
}
} // namespace tickfsm
