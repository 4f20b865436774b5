// tickfsm::TracePrinter: seed 002's trace format, printed with fmt.

#include <tickfsm/actions.hpp>
#include <tickfsm/trace.hpp>

#include <tickfsm/detail/format.hpp>

#include "cause_text.hpp"
#include "fmt_text.hpp"

namespace tickfsm {

void TracePrinter::OnInitialized(std::string_view machine, std::span<const std::string_view> states,
                                 std::size_t initial) {
    Line(fmt::format("Initializing state machine '{}'", machine));
    for (std::size_t i = 0; i < states.size(); ++i) {
        if (i == initial) Line(fmt::format("...state '{}' (initial state)", states[i]));
        else Line(fmt::format("...state '{}'", states[i]));
    }
    Line(fmt::format("Successfully initialized {} fsmStates", states.size()));
}

void TracePrinter::OnTransition(const TransitionInfo& info) {
    if (!options.causes) {
        Line(fmt::format("{} -> {}", info.from, info.to));
        return;
    }
    Line(fmt::format("{} -> {} ({})", info.from, info.to, detail::CauseText(info)));
}

void TracePrinter::OnUnhandledEvent(std::string_view machine, std::string_view state, const Event& event) {
    if (state.empty())
        Line(fmt::format("Fsm {} does not have a current state. Check if it was started.", machine));
    else
        Line(fmt::format("The current state {} has no transition for event {}.", state, EventText(event)));
}

void TracePrinter::OnBufferedRequest(std::string_view machine, std::string_view state, BufferOutcome outcome) {
    const char* what = outcome == BufferOutcome::Entered    ? "entered"
                       : outcome == BufferOutcome::Replaced ? "replaced"
                                                            : "timed out";
    Line(fmt::format("{}: buffered {} {}", machine, state, what));
}

void TracePrinter::OnRefused(std::string_view machine, std::string_view from, std::string_view to) {
    Line(fmt::format("{}: refused {} -> {}", machine, from, to));
}

void TracePrinter::OnWarning(std::string_view machine, std::string_view message) {
    Line(fmt::format("warning: {}: {}", machine, message));
}

Text TracePrinter::EventText(const Event& event) { return detail::EventText(event); }

namespace {

/// `line` and a newline, appended to `to`'s string if it has one, else printed to `file`.
void PrintLine(const detail::AppendTo& to, std::FILE* file, std::string_view line) {
    if (to) {
        to(line);
        to("\n");
    } else {
        std::fwrite(line.data(), 1, line.size(), file);
        std::fputc('\n', file);
    }
}

} // namespace

void TracePrinter::Line(std::string_view line) { PrintLine(text, file, line); }

void LogLine::Write(std::string_view state) const { PrintLine(out, file, fmt::format("[{}] {}", state, text)); }

} // namespace tickfsm
