// tickfsm::ObserverList: every call passed on, in order.

#include <tickfsm/observer_list.hpp>

namespace tickfsm {

ObserverList::ObserverList(std::initializer_list<Observer*> given) {
    for (Observer* observer : given)
        if (observer) observers.push_back(observer);
}

void ObserverList::Add(Observer& observer) { observers.push_back(&observer); }

void ObserverList::OnInitialized(std::string_view machine, std::span<const std::string_view> states,
                                 std::size_t initial) {
    for (Observer* o : observers) o->OnInitialized(machine, states, initial);
}

void ObserverList::OnStateEntered(std::string_view machine, std::string_view state) {
    for (Observer* o : observers) o->OnStateEntered(machine, state);
}

void ObserverList::OnTransition(const TransitionInfo& info) {
    for (Observer* o : observers) o->OnTransition(info);
}

void ObserverList::OnUnhandledEvent(std::string_view machine, std::string_view state, const Event& event) {
    for (Observer* o : observers) o->OnUnhandledEvent(machine, state, event);
}

void ObserverList::OnRefused(std::string_view machine, std::string_view from, std::string_view to) {
    for (Observer* o : observers) o->OnRefused(machine, from, to);
}

void ObserverList::OnBufferedRequest(std::string_view machine, std::string_view state, BufferOutcome outcome) {
    for (Observer* o : observers) o->OnBufferedRequest(machine, state, outcome);
}

void ObserverList::OnWarning(std::string_view machine, std::string_view message) {
    for (Observer* o : observers) o->OnWarning(machine, message);
}

} // namespace tickfsm
