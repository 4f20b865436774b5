#pragma once
// tickfsm::TracePrinter: an Observer that prints a machine's life in the
// format of the table-driven FSM of seed 002:
//   Initializing state machine 'aoWeapon'
//   ...state 'STATE_INIT' (initial state)
//   Successfully initialized 6 fsmStates
//    -> STATE_INIT
//   STATE_INIT -> STATE_RAISE

#include <cstddef>
#include <cstdio>
#include <span>
#include <string_view>

#include "observer.hpp"
#include "text.hpp"

namespace tickfsm {

/// Prints to a FILE* (stdout by default) or appends to a string (a
/// std::string, or any type with append(const char*, size)).
/// Compiled once, in lib/.
class TracePrinter final : public Observer {
public:
    /// Options: `causes` appends why each transition happened, e.g. " (event Jump)".
    struct Options {
        bool causes = false;
    };

    explicit TracePrinter(std::FILE* out = stdout) : TracePrinter(out, Options{}) {}
    TracePrinter(std::FILE* out, Options chosen) : file(out), options(chosen) {}
    template <class String>
        requires detail::AppendableText<String>
    explicit TracePrinter(String& out) : TracePrinter(out, Options{}) {}
    template <class String>
        requires detail::AppendableText<String>
    TracePrinter(String& out, Options chosen) : text(detail::AppendTo(out)), options(chosen) {}

    void OnInitialized(std::string_view machine, std::span<const std::string_view> states,
                       std::size_t initial) override;
    void OnTransition(const TransitionInfo& info) override;
    void OnUnhandledEvent(std::string_view machine, std::string_view state, const Event& event) override;
    void OnBufferedRequest(std::string_view machine, std::string_view state, BufferOutcome outcome) override;
    /// "guard: refused Idle -> Busy": a gate refused a direct change.
    void OnRefused(std::string_view machine, std::string_view from, std::string_view to) override;
    void OnWarning(std::string_view machine, std::string_view message) override;

    /// "Jump", "CreatureEvent::Hit" for an enum event, "CreatureEvent(300)" for an unnamed value.
    static Text EventText(const Event& event);

private:
    void Line(std::string_view line);

    std::FILE* file = nullptr;
    detail::AppendTo text; // appended to, if it has a string; else printed to `file`
    Options options;
};

} // namespace tickfsm
