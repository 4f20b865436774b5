#pragma once
// tickfsm/testing.hpp: a kit for users' tests, tied to no test framework (it
// returns results and text; your framework asserts). A Scenario drives a
// machine through a scripted list of steps and records the path of states it
// took, with the ticks each took, to compare with the path expected;
// TransitionCoverage counts which transitions of a machine's table fired, and
// prints the ones that never did.

#include <cstddef>
#include <cstdint>
#include <functional>
#include <initializer_list>
#include <limits>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include "describe.hpp"
#include "event.hpp"
#include "observer.hpp"
#include "observer_list.hpp"
#include "timeline.hpp"

namespace tickfsm::testing {

/// Stands for "any number of ticks" in an expected path.
inline constexpr std::uint64_t kAnyTicks = std::numeric_limits<std::uint64_t>::max();

/// One visit of a state, as a Scenario recorded it.
struct Visit {
    std::string state;          // the state entered (the leaf, for nested states)
    std::string path;           // its active path, "Combat/Chase" (the state alone when flat)
    std::string cause;          // why it was entered: "initial", "condition 1", "event Jump", ...
    std::string region;         // the parallel region it is in; empty for the machine's own states
    std::uint64_t entered = 0;  // the tick it was entered on
    std::uint64_t ticks = 0;    // ticks it lasted (up to now, if `open`)
    bool open = false;          // still the current state
};

/// One visit of an expected path: a state and the ticks it lasts. `state` is
/// a leaf's name ("Chase") or an active path ("Combat/Chase").
struct ExpectedVisit {
    std::string_view state;
    std::uint64_t ticks = kAnyTicks;
};

/// The result of comparing a path with the one expected.
struct PathCheck {
    bool ok = false;
    std::string message; // empty when ok; else the two paths side by side, the first difference marked
    /// Whether the paths agree.
    explicit operator bool() const noexcept { return ok; }
};

/// Compares `got` with `expected`, visit by visit: same states, same ticks
/// (kAnyTicks matches any), same length.
PathCheck ComparePath(std::span<const Visit> got, std::span<const ExpectedVisit> expected);

/// The path as lines, "  Move           10 ticks  (tick 0, initial)".
std::string PathText(std::span<const Visit> path);

/// An Observer that records the visits of one machine, on the ticks it is
/// told with SetTick. Scenario uses it; it can also watch a game loop.
class PathRecorder final : public Observer {
public:
    /// Tells the recorder the machine's states (StateManager::States()), so
    /// that visits know their active path.
    void AddStates(std::span<const StateInfo> states);
    /// The tick what is heard next happens on.
    void SetTick(std::uint64_t tick) noexcept { current_tick = tick; }
    /// The tick what is heard next happens on.
    std::uint64_t Tick() const noexcept { return current_tick; }
    /// The visits so far, in the order they began (with parallel regions, each
    /// region's among them); the open ones last up to the current tick.
    std::vector<Visit> Path() const;
    /// Forgets the visits so far.
    void Clear() noexcept {
        visits.clear();
        open.clear();
    }

    /// Ends the current visit and starts the next.
    void OnTransition(const TransitionInfo& info) override;

private:
    std::vector<std::string> names;   // by state id
    std::vector<std::size_t> parents; // by state id
    std::vector<Visit> visits;
    std::vector<std::size_t> open; // the visits still open: one per active region, and the machine's
    std::uint64_t current_tick = 0;
};

/// Drives one machine (a StateManager or a class derived from it) through a
/// script: each call is a step, performed at once. Ticks are counted from 0
/// by the Perform calls the scenario makes (one that throws too, as the
/// machine counts its tick): a state entered during the n-th
/// Perform (from 0), or by a step after it and before the next (Send, Call,
/// AfterEachTick), is entered on tick n or n + 1 respectively, and a visit
/// lasts the tick it was left on minus the tick it was entered on. While the
/// scenario lives it is the machine's observer (with the observers given to
/// Also); it detaches on destruction, so it must not outlive the machine.
template <class Manager>
class Scenario {
public:
    /// The machine's controller.
    using Controller = typename Manager::ControllerType;
    /// The machine's action, the input of one tick.
    using Action = typename Manager::ActionType;

    /// Watches `target` (configured, started or not) under `label` (copied
    /// by SetObserver).
    explicit Scenario(Manager& target, std::string_view label = "machine") : machine(&target) {
        recorder.AddStates(target.States());
        observers.Add(recorder);
        target.SetObserver(&observers, label);
    }
    ~Scenario() { machine->SetObserver(nullptr); }
    Scenario(const Scenario&) = delete;
    Scenario& operator=(const Scenario&) = delete;

    /// Adds an observer that hears the machine beside the scenario (a
    /// TransitionCoverage, a TimelineWriter, a TracePrinter).
    Scenario& Also(Observer& observer) {
        observers.Add(observer);
        return *this;
    }

    /// Adds a timeline that hears the machine and follows the scenario's ticks.
    Scenario& Also(TimelineWriter& writer) {
        observers.Add(writer);
        timeline = &writer;
        writer.SetTick(current_tick);
        return *this;
    }

    /// Runs `after(machine)` after every Perform the scenario makes: what the
    /// game loop does beside the machine (physics, an input buffer's Update()).
    template <class F>
    Scenario& AfterEachTick(F&& after) {
        follow_up = std::forward<F>(after);
        return *this;
    }

    /// `count` ticks with the same action.
    Scenario& Ticks(std::uint64_t count, const Action& action = Action{}) {
        for (std::uint64_t i = 0; i < count; ++i) PerformOnce(action);
        return *this;
    }

    /// `count` ticks, each with the action `action_at(tick)` gives.
    template <class F>
        requires std::is_invocable_r_v<Action, F&, std::uint64_t>
    Scenario& Ticks(std::uint64_t count, F&& action_at) {
        for (std::uint64_t i = 0; i < count; ++i) PerformOnce(action_at(current_tick));
        return *this;
    }

    /// Sends the typed event `event` (a value of a class) from outside a tick,
    /// with a default action. Whether a state took it is `Took()`.
    template <class E>
        requires detail::TypedEventValue<E>
    Scenario& Send(const E& event) {
        StampTick(current_tick);
        taken = machine->SendEvent(event);
        return *this;
    }

    /// Sends `event` (a name or a value of an enum) from outside a tick.
    Scenario& Send(const Event& event) {
        StampTick(current_tick);
        taken = machine->SendEvent(event);
        return *this;
    }

    /// Calls `step` with the machine (`step(Manager&)`) or its controller
    /// (`step(Controller&)`): a direct change, a tap on the screen, a flag
    /// set on the character.
    template <class F>
    Scenario& Call(F&& step) {
        StampTick(current_tick);
        if constexpr (std::is_invocable_v<F&, Manager&>) step(*machine);
        else step(machine->GetController());
        return *this;
    }

    /// Whether the last Send changed state (or was handled in place).
    bool Took() const noexcept { return taken; }
    /// The tick the next Perform is.
    std::uint64_t Tick() const noexcept { return current_tick; }
    /// The machine driven.
    Manager& Driven() noexcept { return *machine; }
    /// The visits so far, the current state's up to now.
    std::vector<Visit> Path() const { return recorder.Path(); }
    /// The visits so far as lines (PathText).
    std::string PathString() const {
        const std::vector<Visit> path = Path();
        return PathText(path);
    }

    /// Compares the visits so far with `expected`:
    /// `scenario.Expect({{"Move", 10}, {"Jump", 5}, {"Move"}})`.
    PathCheck Expect(std::initializer_list<ExpectedVisit> expected) const {
        return Expect(std::span<const ExpectedVisit>(expected.begin(), expected.size()));
    }
    /// Compares the visits so far with `expected`.
    PathCheck Expect(std::span<const ExpectedVisit> expected) const {
        const std::vector<Visit> path = Path();
        return ComparePath(path, expected);
    }

private:
    void StampTick(std::uint64_t tick) noexcept {
        recorder.SetTick(tick);
        if (timeline) timeline->SetTick(tick);
    }

    /// Moves the scenario to its next tick when destroyed.
    struct TickCount {
        Scenario& scenario;
        ~TickCount() {
            ++scenario.current_tick;
            scenario.StampTick(scenario.current_tick);
        }
    };

    void PerformOnce(const Action& action) {
        StampTick(current_tick);
        {
            // A Perform that throws still counts its tick, as the machine does
            // (docs/errors.md); a guard rather than a catch, for -fno-exceptions.
            const TickCount count{*this};
            machine->Perform(action);
        }
        if (follow_up) follow_up(*machine);
    }

    Manager* machine;
    PathRecorder recorder;
    ObserverList observers;
    TimelineWriter* timeline = nullptr;
    std::function<void(Manager&)> follow_up;
    std::uint64_t current_tick = 0;
    bool taken = false;
};

/// One transition of a machine's table and how often it fired.
struct CoverageRow {
    std::string machine;   // the name the machine is observed under
    std::string from;      // "(any)" for an any-state transition
    std::string to;        // "(buried)" for a pop, "(in place)" for a typed event handled in place
    /// "condition 0", "condition 1 (forced)", "when done, condition 2",
    /// "push, condition 3", "pop, condition 4", "event Jump": the number is
    /// the transition's `order` (one numbering for the state's condition
    /// transitions, the four kinds together).
    std::string what;
    TransitionRule rule;   // as StateManager::Transitions() gives it
    std::size_t fired = 0; // times it fired
};

/// An Observer that counts, for each transition of the machines it tracks,
/// how often it fired. A change is matched to its transition by the cause
/// the observer hears: the state left (or one holding it, or an any-state
/// transition whose target was not active: the machine passes over the
/// others), the kind, the condition's place or the event, and a target
/// holding the state entered; where two transitions of the active path would
/// fit, the one tried first is counted. A region's transition that leaves
/// its parallel state is looked for among the active regions' states too.
/// Changes that are not transitions of the table (the initial entry, direct
/// changes, NextState requests, pushes and pops asked for by hooks) are
/// counted apart; the regions' states a pop resumes are part of the pop.
/// Compiled once, in lib/.
class TransitionCoverage final : public Observer {
public:
    /// Tracks the machine observed under `machine`: its states and transitions
    /// (StateManager::States() and Transitions()).
    void AddMachine(std::string_view machine, std::span<const StateInfo> states,
                    std::span<const TransitionRule> transitions);

    /// AddMachine(name, machine.States(), machine.Transitions()), without attaching.
    template <class Manager>
    void Track(const Manager& machine, std::string_view name) {
        AddMachine(name, machine.States(), machine.Transitions());
    }
    /// Track(machine, name), then attaches this coverage to `machine` under
    /// `name` (copied, by the coverage and by SetObserver).
    template <class Manager>
    void Watch(Manager& machine, std::string_view name) {
        Track(machine, name);
        machine.SetObserver(this, name);
    }

    /// Every transition of the tracked machines, in the order of Transitions().
    const std::vector<CoverageRow>& Rows() const noexcept { return rows; }
    /// The transitions that never fired.
    std::vector<CoverageRow> NeverFired() const;
    /// How many transitions fired at least once.
    std::size_t FiredCount() const noexcept;
    /// Changes heard that are not transitions of the table (initial, direct, request, ...).
    std::size_t OtherChanges() const noexcept { return other_changes; }
    /// Changes heard that no transition of the table fits (a machine not
    /// tracked, a configuration changed after AddMachine), as "machine: A -> B (cause)".
    const std::vector<std::string>& Unmatched() const noexcept { return unmatched; }
    /// Forgets the counts (keeps the machines).
    void Clear() noexcept;

    /// The table, one row per transition with its count, then the ones that
    /// never fired and the changes outside the table:
    ///   machine    from      to       what           fired
    ///   Platformer Move      Jump     condition 0        3
    std::string Table() const;

    /// Counts the transition the change took, or the change as outside the table.
    void OnTransition(const TransitionInfo& info) override;

private:
    struct Tracked {
        std::string name;
        std::vector<std::string> names;   // by state id
        std::vector<std::size_t> parents; // by state id
        std::size_t first = 0;            // its rows: [first, first + count)
        std::size_t count = 0;
        std::vector<std::pair<std::string, std::size_t>> regions; // each active region's current state
    };

    std::vector<Tracked> machines;
    std::vector<CoverageRow> rows;
    std::vector<std::string> unmatched;
    std::size_t other_changes = 0;
};

} // namespace tickfsm::testing
