#pragma once
// tickfsm's live inspector: Dear ImGui panels that show what a machine or a
// crowd is doing, drawn once per frame by the game. Part of the optional
// tickfsm::imgui target (built when Dear ImGui is found). This header does not
// include imgui.h: the templates below gather a machine's data into plain
// values and the drawing is compiled once in lib/imgui_inspector.cpp, so a
// game's own ImGui configuration never meets tickfsm's headers.
//
// Nothing here runs on the tick path. A machine pays for the history only
// while a TransitionHistory is attached as its observer (SetObserver), and
// the history allocates when it is constructed and once for each name it has
// not heard before, never for a transition of names it knows.

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include "crowd.hpp"
#include "describe.hpp"
#include "observer.hpp"
#include "state_manager.hpp"

namespace tickfsm {

/// The colour (0xRRGGBB) of an active state's row in the inspector's state
/// tree; documented so that a screenshot test can look for it.
inline constexpr std::uint32_t kInspectorActiveRowColor = 0x1F7A3Au;

/// One change of state, as TransitionHistory keeps it. The names point into
/// the history's own copies: they stay valid while the history lives, after
/// the machine that reported them is gone (a machine's private table, with
/// the names of its keyed states, goes with it).
struct HistoryEntry {
    std::uint64_t tick = 0;        // the game loop's clock (TransitionHistory::SetTick) when it happened
    std::string_view machine;      // the name given to SetObserver
    std::string_view from;         // empty for Cause::Initial
    std::string_view to;
    std::string_view region;       // the region whose state changed; empty for the machine's own states
    std::string_view event;        // Cause::Event: the event's name (an enum's enumerator)
    Cause cause = Cause::Direct;
    std::size_t condition = 0;     // Cause::Condition: its index among the state's conditions
};

/// An Observer that keeps the last `capacity` transitions of the machines it
/// is attached to, for the inspector's history. It keeps one copy of each
/// name it hears (machines, states, regions, events) for as long as it lives:
/// a transition of names it has heard before is one copy into a ring, with no
/// allocation. Compiled once, in lib/imgui_inspector.cpp.
class TransitionHistory : public Observer {
public:
    /// Keeps the last `capacity` transitions (at least one).
    explicit TransitionHistory(std::size_t capacity = 64);
    ~TransitionHistory() override;
    TransitionHistory(const TransitionHistory&) = delete;
    TransitionHistory& operator=(const TransitionHistory&) = delete;

    /// Stamps the transitions that follow with `tick`: the game loop calls it
    /// before it ticks, since an observer cannot know the game's clock.
    void SetTick(std::uint64_t tick) noexcept { current_tick = tick; }

    /// Records one change (called by the machine).
    void OnTransition(const TransitionInfo& info) override;

    /// How many transitions are kept now (at most Capacity()).
    std::size_t Size() const noexcept { return total < entries.size() ? static_cast<std::size_t>(total) : entries.size(); }
    /// How many transitions it keeps.
    std::size_t Capacity() const noexcept { return entries.size(); }
    /// How many transitions it has heard of since construction or Clear().
    std::uint64_t Total() const noexcept { return total; }
    /// The `i`th most recent transition kept (0: the newest); `i` < Size().
    const HistoryEntry& Recent(std::size_t i) const noexcept {
        const std::size_t n = entries.size();
        return entries[(next + n - 1 - i % n) % n];
    }
    /// Forgets every transition (keeps the memory and the names).
    void Clear() noexcept {
        next = 0;
        total = 0;
    }

private:
    /// The history's copy of `name` (empty stays empty).
    std::string_view Keep(std::string_view name);

    std::vector<HistoryEntry> entries;
    std::size_t next = 0;
    std::uint64_t total = 0;
    std::uint64_t current_tick = 0;
    std::vector<std::unique_ptr<char[]>> texts; // one per distinct name, never moved
    std::vector<std::string_view> names;        // names[i] views texts[i]
    std::vector<std::uint32_t> slots;           // open addressing by hash: 0 empty, else an index of names + 1
};

namespace detail {
/// A machine's data for one frame of its panel, gathered by DrawInspector.
struct InspectorView {
    std::string_view name;
    std::span<const StateInfo> states;
    std::span<const TransitionRule> transitions;
    std::span<const StateId> active;          // outermost first, the current state last
    std::span<const std::uint32_t> ticks;     // ticks[i]: the ticks of active[i]
    StateId current;
    bool started = false;
    bool can_force = false;                   // ForceSetState needs a default-constructible Action
    float dt = 0;
    StateId next;                             // the dry run: where the next tick would go (not Valid() if it stays)
    std::string_view dry_run_input;           // what the dry run was given
    std::string_view global;                  // the global state's name, or empty
    std::span<const StateId> buried;          // the leaves pushes buried, the one buried first first
};

/// A crowd's data for one frame of its panel, gathered by DrawCrowdInspector.
struct CrowdView {
    std::string_view name;
    std::span<const StateId> state_of;        // per character; not Valid() before its first tick
    std::span<const std::uint32_t> ticks_of;  // per character
    std::span<const std::string_view> names;  // by state id, up to the largest id in use
    float dt = 0;
};

/// What a panel asks of the machine after drawing.
struct InspectorRequest {
    StateId force; // ForceSetState(force) when Valid()
};

struct InspectorCache;
} // namespace detail

/// What the inspector's panels keep between frames (the states and
/// transitions of each machine, each crowd panel's picked character, the
/// pause) and what they ask of the game loop. One per game, shared by all its
/// panels.
class InspectorState {
public:
    /// Panels show the transitions `history` keeps (it may be null, or set later).
    explicit InspectorState(const TransitionHistory* history = nullptr);
    ~InspectorState();
    InspectorState(const InspectorState&) = delete;
    InspectorState& operator=(const InspectorState&) = delete;

    /// The game loop asks before each tick: true when running, and while
    /// paused true once for each press of the panel's Step button (or Step()).
    bool ShouldTick() noexcept;
    /// True while the game's ticks are paused (the panel's Pause button).
    bool Paused() const noexcept { return paused; }
    /// Pauses or resumes the game's ticks.
    void SetPaused(bool on) noexcept { paused = on; }
    /// While paused, lets the next ShouldTick() through once.
    void Step() noexcept { ++steps; }

    /// The transitions the panels list (null: none).
    void SetHistory(const TransitionHistory* history) noexcept { transition_history = history; }
    /// The history the panels list.
    const TransitionHistory* History() const noexcept { return transition_history; }
    /// How many of the newest transitions a panel lists.
    void SetHistoryRows(std::size_t rows) noexcept { history_rows = rows; }

    /// The character picked in the crowd panel titled `panel` (each crowd
    /// panel keeps its own pick), or -1 (std::size_t) for none.
    std::size_t SelectedCharacter(std::string_view panel) const noexcept;
    /// Picks character `i` in the crowd panel titled `panel` (-1: none).
    void SelectCharacter(std::string_view panel, std::size_t i) { PickOf(panel) = i; }

    /// The next panel drawn copies its text to the end of the file at `path`
    /// (ImGui's LogToFile), once: a bug report's or a test's record of what
    /// was on screen.
    void LogNextPanelTo(std::string path) { log_path = std::move(path); }

    /// Gathering buffers, reused from frame to frame (used by DrawInspector).
    struct Buffers {
        std::vector<StateId> active;
        std::vector<std::uint32_t> ticks;
        std::vector<StateId> buried;
        std::vector<StateId> state_of;
        std::vector<std::uint32_t> ticks_of;
        std::vector<std::string_view> names;
    };
    /// The buffers DrawInspector and DrawCrowdInspector fill.
    Buffers& Scratch() noexcept { return scratch; }
    /// The states and transitions of `machine` (its address is the key),
    /// asked of it each frame until it has started, then kept.
    template <class Manager>
    void Describe(const Manager& machine, std::span<const StateInfo>& states,
                  std::span<const TransitionRule>& transitions) {
        if (FindCached(&machine, states, transitions) && states.size() == machine.StateCount()) return;
        StoreCached(&machine, machine.States(), machine.Transitions(), machine.IsStarted(), states, transitions);
    }
    /// Drops what the panels keep of `machine`: call it before destroying a
    /// machine that was drawn while this state lives on (another machine at
    /// the same address would otherwise be shown with the old one's states).
    template <class Manager>
    void Forget(const Manager& machine) {
        ForgetCached(&machine);
    }

private:
    friend detail::InspectorRequest DrawInspectorView(const detail::InspectorView& view, InspectorState& state);
    friend std::size_t DrawCrowdView(const detail::CrowdView& view, InspectorState& state);

    std::size_t& PickOf(std::string_view panel);
    void ForgetCached(const void* machine);
    bool FindCached(const void* machine, std::span<const StateInfo>& states,
                    std::span<const TransitionRule>& transitions) const;
    void StoreCached(const void* machine, List<StateInfo> states, List<TransitionRule> transitions,
                     bool keep, std::span<const StateInfo>& out_states,
                     std::span<const TransitionRule>& out_transitions);

    const TransitionHistory* transition_history = nullptr;
    std::size_t history_rows = 12;
    bool paused = false;
    unsigned steps = 0;
    std::vector<std::pair<std::string, std::size_t>> picks; // a crowd panel's title and its picked character
    std::string log_path;
    Buffers scratch;
    // One per machine drawn. A machine's configuration closes when it starts,
    // so from then on its description is kept; before, it is asked each frame.
    std::vector<std::unique_ptr<detail::InspectorCache>> cache;
};

/// Draws the panel (an ImGui window titled `name`) of one machine: its states
/// as a tree with the active path highlighted and each active state's ticks;
/// the transitions of the active path in the order they are tried (before the
/// first tick, of the initial state's path), with what a dry run
/// (WouldTransition(next), which calls no hook and leaves out the parallel
/// regions' transitions) says of them; the
/// newest transitions of `state`'s history whose machine is named `name` (give
/// SetObserver the same name); Pause, Step and a button to force a state.
/// Call it once per frame between ImGui::NewFrame() and ImGui::Render(),
/// outside the machine's tick.
/// Implemented in lib/imgui_inspector.cpp.
detail::InspectorRequest DrawInspectorView(const detail::InspectorView& view, InspectorState& state);
/// Draws a crowd's panel; returns the picked character or -1. Implemented in lib/imgui_inspector.cpp.
std::size_t DrawCrowdView(const detail::CrowdView& view, InspectorState& state);

/// The panel of `machine` (see DrawInspectorView), its dry run given `next`,
/// the input the next tick will see.
template <class Controller, class Action>
void DrawInspector(std::string_view name, StateManager<Controller, Action>& machine, const Action& next,
                   InspectorState& state, std::string_view input_label = "the next input") {
    detail::InspectorView view;
    view.name = name;
    state.Describe(machine, view.states, view.transitions);
    InspectorState::Buffers& scratch = state.Scratch();
    if (scratch.active.size() < view.states.size()) scratch.active.resize(view.states.size());
    const std::size_t count = machine.ActiveStates(scratch.active);
    if (count > scratch.active.size()) { // more regions than states: cannot happen, but never write past
        scratch.active.resize(count);
        machine.ActiveStates(scratch.active);
    }
    scratch.ticks.resize(count);
    for (std::size_t i = 0; i < count; ++i) scratch.ticks[i] = machine.TicksInState(scratch.active[i]);
    view.active = std::span<const StateId>(scratch.active.data(), count);
    view.ticks = scratch.ticks;
    view.current = machine.CurrentState();
    view.started = machine.IsStarted();
    view.can_force = std::is_default_constructible_v<Action>;
    view.dt = machine.FixedDeltaTime();
    view.next = machine.WouldTransition(next);
    view.dry_run_input = input_label;
    view.global = machine.GlobalStateName();
    scratch.buried.resize(machine.BuriedCount());
    machine.BuriedStates(scratch.buried);
    view.buried = scratch.buried;
    const detail::InspectorRequest request = DrawInspectorView(view, state);
    if constexpr (std::is_default_constructible_v<Action>) {
        if (request.force.Valid()) machine.ForceSetState(request.force);
    }
}

/// The panel of `machine` with its dry run given `Action{}` (say so in the
/// panel): for a game whose next input is not known while it draws.
template <class Controller, class Action>
    requires std::is_default_constructible_v<Action>
void DrawInspector(std::string_view name, StateManager<Controller, Action>& machine, InspectorState& state) {
    DrawInspector(name, machine, Action{}, state, "Action{}");
}

/// The panel of a crowd: its characters by state with counts; pick one to
/// see its state and ticks. Returns the picked character, or -1 (std::size_t).
template <class Manager>
std::size_t DrawCrowdInspector(std::string_view name, const Crowd<Manager>& crowd, InspectorState& state) {
    InspectorState::Buffers& scratch = state.Scratch();
    const std::size_t size = crowd.Size();
    scratch.state_of.resize(size);
    scratch.ticks_of.resize(size);
    std::size_t largest = 0;
    for (std::size_t i = 0; i < size; ++i) {
        scratch.state_of[i] = crowd.CurrentState(i);
        scratch.ticks_of[i] = crowd.TicksInState(i);
        if (scratch.state_of[i].Valid() && scratch.state_of[i].value + std::size_t{1} > largest)
            largest = scratch.state_of[i].value + std::size_t{1};
    }
    scratch.names.resize(largest);
    for (std::size_t id = 0; id < largest; ++id)
        scratch.names[id] = crowd.StateName(StateId{static_cast<std::uint16_t>(id)});
    detail::CrowdView view;
    view.name = name;
    view.state_of = scratch.state_of;
    view.ticks_of = scratch.ticks_of;
    view.names = scratch.names;
    view.dt = crowd.FixedDeltaTime();
    return DrawCrowdView(view, state);
}

} // namespace tickfsm
