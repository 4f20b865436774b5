#pragma once
// tickfsm::TracePrinter: an Observer that prints a machine's life in the
// format of the table-driven FSM of seed 002:
//   Initializing state machine 'aoWeapon'
//   ...state 'STATE_INIT' (initial state)
//   Successfully initialized 6 fsmStates
//    -> STATE_INIT
//   STATE_INIT -> STATE_RAISE

#include <cstdio>
#include <iterator>
#include <string>
#include <string_view>

#include <fmt/format.h>

#include "observer.hpp"

namespace tickfsm {

/// Prints to a FILE* (stdout by default) or appends to a std::string.
class TracePrinter final : public Observer {
public:
    /// Options: `causes` appends why each transition happened, e.g. " (event Jump)".
    struct Options {
        bool causes = false;
    };

    explicit TracePrinter(std::FILE* out = stdout) : TracePrinter(out, Options{}) {}
    TracePrinter(std::FILE* out, Options options) : file_(out), options_(options) {}
    explicit TracePrinter(std::string& out) : TracePrinter(out, Options{}) {}
    TracePrinter(std::string& out, Options options) : text_(&out), options_(options) {}

    void OnInitialized(std::string_view machine, std::span<const std::string_view> states,
                       std::size_t initial) override {
        Line("Initializing state machine '{}'", machine);
        for (std::size_t i = 0; i < states.size(); ++i) {
            if (i == initial) Line("...state '{}' (initial state)", states[i]);
            else Line("...state '{}'", states[i]);
        }
        Line("Successfully initialized {} fsmStates", states.size());
    }

    void OnTransition(const TransitionInfo& info) override {
        if (!options_.causes) {
            Line("{} -> {}", info.from, info.to);
            return;
        }
        switch (info.cause) {
        case Cause::Initial: Line("{} -> {} (initial)", info.from, info.to); break;
        case Cause::Condition: Line("{} -> {} (condition {})", info.from, info.to, info.condition); break;
        case Cause::Event: Line("{} -> {} (event {})", info.from, info.to, EventText(*info.event)); break;
        case Cause::Request: Line("{} -> {} (request)", info.from, info.to); break;
        case Cause::Direct: Line("{} -> {} (direct)", info.from, info.to); break;
        }
    }

    void OnUnhandledEvent(std::string_view machine, std::string_view state, const Event& event) override {
        if (state.empty())
            Line("Fsm {} does not have a current state. Check if it was started.", machine);
        else
            Line("The current state {} has no transition for event {}.", state, EventText(event));
    }

    void OnBufferedRequest(std::string_view machine, std::string_view state, BufferOutcome outcome) override {
        const char* what = outcome == BufferOutcome::Entered ? "entered" : outcome == BufferOutcome::Replaced ? "replaced" : "timed out";
        Line("{}: buffered {} {}", machine, state, what);
    }

    void OnWarning(std::string_view machine, std::string_view message) override {
        Line("warning: {}: {}", machine, message);
    }

    /// "Jump", or "CreatureEvent(2)" for an enum event.
    static std::string EventText(const Event& event) {
        return event.is_enum ? fmt::format("{}({})", event.name, event.value) : std::string(event.name);
    }

private:
    template <class... Args>
    void Line(fmt::format_string<Args...> format, Args&&... args) {
        if (text_) {
            fmt::format_to(std::back_inserter(*text_), format, std::forward<Args>(args)...);
            text_->push_back('\n');
        } else {
            fmt::print(file_, format, std::forward<Args>(args)...);
            std::fputc('\n', file_);
        }
    }

    std::FILE* file_ = nullptr;
    std::string* text_ = nullptr;
    Options options_;
};

} // namespace tickfsm
