// tickfsm::ObserverList: every call passed on, in order. Each call walks the
// list by index up to the size it had when the call began: an observer may
// Add to the list while it is told something (the list may grow and move),
// and the one added hears the calls after that one.

#include <tickfsm/observer_list.hpp>

namespace tickfsm {
namespace {

/// `tell(observer)` for each observer in order, by index up to the count the
/// call began with (see above).
template <class Observers, class Tell>
void EachObserver(const Observers& observers, Tell tell) {
    for (std::size_t i = 0, n = observers.size(); i < n; ++i) tell(*observers[i]);
}

} // namespace

ObserverList::ObserverList(std::initializer_list<Observer*> given) {
    for (Observer* observer : given)
        if (observer) observers.push_back(observer);
}

void ObserverList::Add(Observer& observer) { observers.push_back(&observer); }

void ObserverList::OnInitialized(std::string_view machine, std::span<const std::string_view> states,
                                 std::size_t initial) {
    EachObserver(observers, [&](Observer& o) { o.OnInitialized(machine, states, initial); });
}

void ObserverList::OnStateEntered(std::string_view machine, std::string_view state) {
    EachObserver(observers, [&](Observer& o) { o.OnStateEntered(machine, state); });
}

void ObserverList::OnTransition(const TransitionInfo& info) {
    EachObserver(observers, [&](Observer& o) { o.OnTransition(info); });
}

void ObserverList::OnUnhandledEvent(std::string_view machine, std::string_view state, const Event& event) {
    EachObserver(observers, [&](Observer& o) { o.OnUnhandledEvent(machine, state, event); });
}

void ObserverList::OnRefused(std::string_view machine, std::string_view from, std::string_view to) {
    EachObserver(observers, [&](Observer& o) { o.OnRefused(machine, from, to); });
}

void ObserverList::OnBufferedRequest(std::string_view machine, std::string_view state, BufferOutcome outcome) {
    EachObserver(observers, [&](Observer& o) { o.OnBufferedRequest(machine, state, outcome); });
}

void ObserverList::OnWarning(std::string_view machine, std::string_view message) {
    EachObserver(observers, [&](Observer& o) { o.OnWarning(machine, message); });
}

} // namespace tickfsm
