#pragma once
// Ready-made state actions, in the spirit of Playmaker's: attach them to a
// state with `From<S>().Do<tickfsm::TimedWait>(2.0f, Done)`.

#include <cstdint>
#include <cstdio>
#include <string_view>
#include <utility>

#include "event.hpp"
#include "machine.hpp"
#include "snapshot.hpp"
#include "text.hpp"

namespace tickfsm {

/// Sends `event` once, when the state has lasted `seconds`: the wait is
/// counted in whole ticks, so the event goes on the tick where TimeInState()
/// reaches it. Entering the state again starts a new wait.
struct TimedWait {
    float seconds = 0;
    Event event;
    std::uint8_t sent = 0; // not bool: a snapshot's bytes restore it, and any byte value is a valid one

    TimedWait(float wait_seconds, const Event& done) : seconds(wait_seconds), event(done) {}

    /// Why Do<TimedWait>() refuses these arguments (empty when it does not):
    /// a wait that is negative or not finite would send the event at once.
    std::string_view ArgumentProblem() const noexcept {
        return seconds >= 0.0f && seconds <= 3.4e38f ? std::string_view{}
                                                     : "the wait must be a finite number of seconds, 0 or more";
    }

    template <class C, class A>
    void OnEnter(C&, const A&) {
        sent = 0;
    }
    template <class C, class A>
    void OnUpdate(C&, const A&, Machine<C, A>& machine) {
        if (sent != 0 || static_cast<float>(machine.TimeInState()) < seconds) return; // as a condition sees it
        sent = 1; // once: an event nothing handles is not sent again each tick
        machine.SendEvent(event);
    }
};

/// Sends `event` once, on the first update where `condition` holds; the
/// condition takes the same forms as a transition condition. Entering the
/// state again arms it again.
template <class Condition>
struct SendEventWhen {
    Condition condition;
    Event event;
    std::uint8_t sent = 0;

    SendEventWhen(Condition when, const Event& what) : condition(std::move(when)), event(what) {}

    /// Saves whether it has sent in this visit; the condition and the event
    /// are configuration, copied from Do<>()'s arguments.
    void Save(SnapshotWriter& out) const { out.Write(sent); }
    /// Loads what Save wrote.
    void Load(SnapshotReader& in) { sent = in.Read<std::uint8_t>(); }

    template <class C, class A>
    void OnEnter(C&, const A&) {
        sent = 0;
    }
    template <class C, class A>
    void OnUpdate(C& controller, const A& action, Machine<C, A>& machine) {
        if (sent != 0 || !detail::CallCondition(condition, static_cast<const C&>(controller), action,
                                                static_cast<float>(machine.TimeInState())))
            return;
        sent = 1;
        machine.SendEvent(event);
    }
};

/// Writes a line when the state is entered (and, if asked, each update and on exit)
/// to a FILE* or appends it to a string (a std::string, or any type with
/// append(const char*, size)).
struct LogLine {
    enum Phase : unsigned { Enter = 1, Update = 2, Exit = 4 };

    Text text;
    std::FILE* file = stdout;
    detail::AppendTo out; // appended to, if it has a string; else printed to `file`
    unsigned phases = Enter;

    explicit LogLine(std::string_view line, std::FILE* to = stdout, unsigned when = Enter)
        : text(line), file(to), phases(when) {}
    template <class String>
        requires detail::AppendableText<String>
    LogLine(std::string_view line, String& to, unsigned when = Enter)
        : text(line), file(nullptr), out(to), phases(when) {}

    /// Nothing to save: its fields are configuration, copied from Do<>()'s arguments.
    void Save(SnapshotWriter&) const {}
    /// Nothing to load (see Save).
    void Load(SnapshotReader&) {}

    template <class C, class A>
    void OnEnter(C&, const A&, Machine<C, A>& machine) const {
        if (phases & Enter) Write(machine.StateName());
    }
    template <class C, class A>
    void OnUpdate(C&, const A&, Machine<C, A>& machine) const {
        if (phases & Update) Write(machine.StateName());
    }
    template <class C, class A>
    void OnExit(C&, const A&, Machine<C, A>& machine) const {
        if (phases & Exit) Write(machine.StateName());
    }

private:
    /// "[state] text" and a newline (lib/trace.cpp).
    void Write(std::string_view state) const;
};

} // namespace tickfsm
