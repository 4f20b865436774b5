#pragma once
// tickfsm::TimelineWriter: an Observer that writes what machines did as a
// Chrome trace event JSON document ({"traceEvents":[...]}), which Perfetto
// (ui.perfetto.dev, "Open trace file") and chrome://tracing open: one track
// per machine and per parallel region, one slice per state visit (nested
// states as nested slices), instants for events, buffered requests and warnings.

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "describe.hpp"
#include "observer.hpp"

namespace tickfsm {

/// Writes a timeline of the machines it observes. Observers are not told
/// ticks: the game tells the writer with SetTick (or AdvanceTick) before each
/// tick, and every slice starts and ends on the tick it was told last. The
/// document is written once, by Finish() or the destructor, which close the
/// slices still open. Compiled once, in lib/.
class TimelineWriter final : public Observer {
public:
    /// Options: `microseconds_per_tick` maps ticks to the format's
    /// microseconds (1000: a tick shows as one millisecond, so the viewer's
    /// "ms" read as ticks; 16667 shows real time at 60 Hz); `process` names
    /// the process that holds the machines' tracks.
    struct Options {
        std::uint64_t microseconds_per_tick = 1000;
        std::string_view process = "tickfsm";
    };

    /// Writes the document to `out` (not closed by the writer) at Finish().
    explicit TimelineWriter(std::FILE* out) : TimelineWriter(out, Options{}) {}
    /// Writes the document to `out` at Finish(), with the `chosen` options.
    TimelineWriter(std::FILE* out, Options chosen);
    /// Appends the document to `out` at Finish().
    explicit TimelineWriter(std::string& out) : TimelineWriter(out, Options{}) {}
    /// Appends the document to `out` at Finish(), with the `chosen` options.
    TimelineWriter(std::string& out, Options chosen);
    /// Finishes, if Finish() was not called.
    ~TimelineWriter() override;

    TimelineWriter(const TimelineWriter&) = delete;
    TimelineWriter& operator=(const TimelineWriter&) = delete;

    /// The tick what is heard next happens on.
    void SetTick(std::uint64_t tick) noexcept { current_tick = tick; }
    /// Moves the clock on by `ticks`.
    void AdvanceTick(std::uint64_t ticks = 1) noexcept { current_tick += ticks; }
    /// The tick what is heard next happens on.
    std::uint64_t Tick() const noexcept { return current_tick; }

    /// Tells the writer the states of the machine observed under `machine`
    /// (StateManager::States()), so that a nested state's parents get slices
    /// of their own around it, and a parallel state's regions end with it.
    /// Without it, each track shows its current states (the leaves) only.
    void AddStates(std::string_view machine, std::span<const StateInfo> states);

    /// Attaches this writer to `machine` under `name` (copied, by the writer
    /// and by SetObserver) and tells it the machine's states as
    /// AddStates does: at once if the machine has started, else when the
    /// machine first reports (its first Perform), when its configuration is
    /// closed, so that it may be configured after Watch. Until then the writer
    /// keeps the machine's address: the machine must live until that report.
    template <class Manager>
    void Watch(Manager& machine, std::string_view name) {
        if (machine.IsStarted()) {
            AddStates(name, machine.States());
        } else {
            WatchFromStart(name, &machine, [](const void* watched, TimelineWriter& writer, std::string_view as) {
                writer.AddStates(as, static_cast<const Manager*>(watched)->States());
            });
        }
        machine.SetObserver(this, name);
    }

    /// Closes every open slice on the current tick and writes the document.
    /// Only the first call writes; what is heard after it is dropped.
    void Finish();
    /// Whether Finish() has run.
    bool Finished() const noexcept { return finished; }

    /// Gives the machine its track before its first slice.
    void OnInitialized(std::string_view machine, std::span<const std::string_view> states,
                       std::size_t initial) override;
    /// Ends the slices of the states left and starts those of the states entered.
    void OnTransition(const TransitionInfo& info) override;
    /// An instant "unhandled NAME".
    void OnUnhandledEvent(std::string_view machine, std::string_view state, const Event& event) override;
    /// An instant "buffered STATE entered" (replaced, timed out).
    void OnBufferedRequest(std::string_view machine, std::string_view state, BufferOutcome outcome) override;
    /// An instant "refused From -> To" on the machine's track.
    void OnRefused(std::string_view machine, std::string_view from, std::string_view to) override;
    /// An instant "warning" with the message.
    void OnWarning(std::string_view machine, std::string_view message) override;

private:
    struct Open {
        std::string state;
        std::uint64_t since = 0;
        std::string entered; // the JSON members saying how it was entered
        std::size_t visit = 0; // a current state's visit number on its track, from 1; 0 for a parent
    };
    struct Track {
        std::string machine;
        std::string region;     // empty for the machine's own states
        int tid = 0;
        std::vector<Open> open; // the active path (below the region), outermost first
        std::size_t visits = 0;
    };
    struct States {
        std::string machine;
        std::vector<std::string> names;   // by state id
        std::vector<std::size_t> parents; // by state id; npos at the top level
    };
    struct Record {
        std::uint64_t ts = 0;
        std::size_t depth = 0; // parents before their substates on one tick
        std::string json;
    };
    // A machine watched before it started: its states are read at its first report.
    using DescribeFn = void (*)(const void* machine, TimelineWriter& writer, std::string_view name);
    struct Waiting {
        std::string machine;
        const void* watched = nullptr;
        DescribeFn describe = nullptr;
    };

    void WatchFromStart(std::string_view machine, const void* watched, DescribeFn describe);
    void TakeStates(std::string_view machine);
    std::size_t TrackOf(std::string_view machine, std::string_view region = {});
    const States* StatesOf(std::string_view machine) const;
    std::vector<std::string> PathOf(const Track& track, std::string_view leaf) const;
    void Close(std::size_t track, std::size_t keep, const std::string& left);
    void Instant(std::size_t track, std::string name, std::string args);

    std::FILE* file = nullptr;
    std::string* text = nullptr;
    Options options;
    std::uint64_t current_tick = 0;
    bool finished = false;
    std::vector<Track> tracks;
    std::vector<States> tables;
    std::vector<Record> records;
    std::vector<Waiting> waiting;
};

} // namespace tickfsm
