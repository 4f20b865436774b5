#pragma once
// The definitions of the StateManager members that input buffers
// (input_buffer.hpp) use: making a buffered request, trying it each tick,
// and telling the observer what became of it. Included by state_manager.hpp.

#include <cstdint>
#include <string_view>

#include "../state_manager.hpp"

namespace tickfsm {

template <class Controller, class Action>
template <class T>
detail::BufferedRequest StateManager<Controller, Action>::BufferRequest(std::string_view api,
                                                                        float timeout_seconds) const {
    const detail::StateIndex id = ResolvedTable().Find(detail::TypeKey<T>());
    if (id == detail::kNoState) {
        const std::string_view name = detail::StateName<T>();
        MachineTable::Fail(detail::MessageText(detail::Message::NotAStateOfMachine, api, name, name, name, name));
    }
    return BufferRequestOf(api, id, timeout_seconds);
}

template <class Controller, class Action>
template <class K>
detail::BufferedRequest StateManager<Controller, Action>::BufferRequestByKey(std::string_view api, K key,
                                                                             float timeout_seconds) const {
    return BufferRequestOf(api, KeyedIndex(key, api), timeout_seconds);
}

template <class Controller, class Action>
detail::BufferedRequest StateManager<Controller, Action>::BufferRequestOf(std::string_view api, detail::StateIndex id,
                                                                          float timeout_seconds) const {
    const MachineTable& table = ResolvedTable();
    if (!detail::PositiveFinite(timeout_seconds))
        MachineTable::Fail(
            detail::MessageText(detail::Message::BufferTimeoutInvalid, api, table.NameOf(id), timeout_seconds));
    const bool inside = IsStarted() && IsActive(id);
    return {id, detail::TicksFor(timeout_seconds, table.dt), inside ? TicksInState(StateId{id}) : 0, inside};
}

// A buffered request is met once the machine is in its state after being out
// of it since the request, by the request's own TrySetState or any other way
// (a transition got there first, or left and entered it again: its time went
// back).
template <class Controller, class Action>
template <class A>
bool StateManager<Controller, Action>::TryBufferedRequest(detail::BufferedRequest& request) {
    if (IsStarted() && IsActive(request.state)) {
        if (!request.inside) return true;
        const std::uint32_t now = TicksInState(StateId{request.state});
        if (now < request.seen) return true;
        request.seen = now;
        return false;
    }
    request.inside = false;
    return MakeChangeTo<A>(request.state, detail::Direct::Try, "InputBuffer", detail::Prepare{});
}

template <class Controller, class Action>
void StateManager<Controller, Action>::ReportBuffered(detail::StateIndex id, BufferOutcome outcome) const {
    if (const ManagerBlock* block = BlockIfAny(); block && block->observer)
        block->observer->OnBufferedRequest(block->Name(), CurrentTable()->NameOf(id), outcome);
}

} // namespace tickfsm
