#pragma once
// tickfsm::ObserverList: one observer that hands everything it hears to
// several, since a machine has one observer (a printed trace, a timeline and
// a coverage count at once).

#include <cstddef>
#include <initializer_list>
#include <span>
#include <string_view>

#include "observer.hpp"
#include "list.hpp"

namespace tickfsm {

/// Passes every call on to its observers, in the order they were added.
/// Refers to them (does not own them). Compiled once, in lib/.
class ObserverList final : public Observer {
public:
    /// An empty list.
    ObserverList() = default;
    /// A list of the `given` observers; null pointers are skipped.
    ObserverList(std::initializer_list<Observer*> given);

    /// Adds `observer` at the end of the list. An observer of the list may
    /// call it while the list passes a call on: the one added hears the calls
    /// after that one, not that one.
    void Add(Observer& observer);
    /// How many observers the list holds.
    std::size_t Size() const noexcept { return observers.size(); }

    /// Passed on to every observer.
    void OnInitialized(std::string_view machine, std::span<const std::string_view> states,
                       std::size_t initial) override;
    /// Passed on to every observer.
    void OnStateEntered(std::string_view machine, std::string_view state) override;
    /// Passed on to every observer.
    void OnTransition(const TransitionInfo& info) override;
    /// Passed on to every observer.
    void OnUnhandledEvent(std::string_view machine, std::string_view state, const Event& event) override;
    /// Passed on to every observer.
    void OnBufferedRequest(std::string_view machine, std::string_view state, BufferOutcome outcome) override;
    /// Passed on to every observer.
    void OnRefused(std::string_view machine, std::string_view from, std::string_view to) override;
    /// Passed on to every observer.
    void OnWarning(std::string_view machine, std::string_view message) override;

private:
    List<Observer*> observers;
};

} // namespace tickfsm
